"""The batched environment (`interop.vector`): shapes, seeding, and the same games as
single Gymnasium environments stepped with the same actions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode

from tests.interop.conftest import GAME_IDS, players, table
from thermopylae.engine import registry
from thermopylae.engine.errors import IllegalAction, ThermopylaeError
from thermopylae.interop.gymnasium import ThermopylaeEnv
from thermopylae.interop.vector import ThermopylaeVectorEnv


def _cases() -> list[tuple[str, dict[str, Any]]]:
    """Every game at its fewest players (seat 0) and at its most (the last seat)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for game_id in GAME_IDS:
        counts = players(game_id)
        out.append((game_id, {**table(game_id, counts.start), "seat": 0}))
        if counts.stop - 1 != counts.start:
            most = counts.stop - 1
            out.append((game_id, {**table(game_id, most), "seat": most - 1}))
    return out


CASES = _cases()


def case_id(case: tuple[str, dict[str, Any]]) -> str:
    return f"{case[0]}-" + "-".join(f"{k}={v}" for k, v in case[1].items())


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniform draw among each row's legal actions (any action for a row without one)."""
    drawn: np.ndarray = (rng.random(masks.shape) * np.maximum(masks, 1e-9)).argmax(axis=1)
    return drawn


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_shapes_and_spaces(case: tuple[str, dict[str, Any]]) -> None:
    game_id, kwargs = case
    n = 3
    env = ThermopylaeVectorEnv(game_id, n, opponent="random", **kwargs)
    single = ThermopylaeEnv(game_id, opponent="random", **kwargs)
    assert single.observation_space.shape is not None
    size, actions = single.observation_space.shape[0], registry.get(game_id).num_actions
    assert env.single_observation_space == single.observation_space
    assert env.single_action_space == single.action_space
    assert env.observation_space.shape == (n, size)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=1)
    assert obs.shape == (n, size) and obs.dtype == np.float32
    assert info["action_mask"].shape == (n, actions) and info["action_mask"].dtype == np.int8
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    for _ in range(20):
        obs, rewards, term, trunc, info = env.step(random_actions(info["action_mask"], rng))
        assert obs.shape == (n, size) and obs.dtype == np.float32
        assert rewards.shape == (n,) and rewards.dtype == np.float64
        assert term.shape == trunc.shape == (n,) and term.dtype == trunc.dtype == np.bool_
        assert info["action_mask"].shape == (n, actions)
        assert not info["illegal"].any()
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
    env.close()


@pytest.mark.parametrize("game_id", ["thermopyles", "earth-and-water"])
def test_seeding_is_reproducible(game_id: str) -> None:
    def run(seed: int) -> list[np.ndarray]:
        env = ThermopylaeVectorEnv(game_id, 4, opponent="random")
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(5)
        out: list[Any] = [obs]
        for _ in range(60):
            obs, rewards, term, trunc, info = env.step(random_actions(info["action_mask"], rng))
            out += [obs, rewards, term, trunc, info["action_mask"]]
        return out

    a, b, c = run(11), run(11), run(12)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_equal_to_single_environments(case: tuple[str, dict[str, Any]]) -> None:
    """Game `i` of a vector reset with `seed` is a single environment reset with
    `seed + i`, step for step, through auto-resets (next step) and illegal actions."""
    game_id, kwargs = case
    n, seed = 3, 40
    vec = ThermopylaeVectorEnv(game_id, n, opponent="random", **kwargs)
    singles = [ThermopylaeEnv(game_id, opponent="random", **kwargs) for _ in range(n)]
    obs, info = vec.reset(seed=seed)
    for i, env in enumerate(singles):
        o, inf = env.reset(seed=seed + i)
        assert np.array_equal(obs[i], o)
        assert np.array_equal(info["action_mask"][i], inf["action_mask"])
    rng = np.random.default_rng(1)
    over = [False] * n
    episodes = 0
    steps = 400 if game_id == "thermopyles" else 150
    for step in range(steps):
        actions = random_actions(info["action_mask"], rng)
        if step % 17 == 5:
            actions[step % n] = int(np.flatnonzero(info["action_mask"][step % n] == 0)[0])
        obs, rewards, term, trunc, info = vec.step(actions)
        for i, env in enumerate(singles):
            if over[i]:  # next-step auto-reset: the action is ignored
                o, inf = env.reset()
                r, te, tr = 0.0, False, False
                episodes += 1
            else:
                o, r, te, tr, inf = env.step(int(actions[i]))
            assert np.array_equal(obs[i], o), (step, i)
            assert np.array_equal(info["action_mask"][i], inf["action_mask"]), (step, i)
            assert (rewards[i], term[i], trunc[i]) == (r, te, tr), (step, i)
            assert info["illegal"][i] == bool(inf.get("illegal")), (step, i)
            over[i] = te or tr
    if game_id == "thermopyles":
        assert episodes > 0  # auto-reset was compared too


def test_illegal_raise_and_bad_arguments() -> None:
    env = ThermopylaeVectorEnv("thermopyles", 2, illegal="raise")
    with pytest.raises(ThermopylaeError, match="reset"):
        env.step([0, 0])
    _, info = env.reset(seed=3)
    bad = [int(np.flatnonzero(m == 0)[0]) for m in info["action_mask"]]
    with pytest.raises(IllegalAction):
        env.step(bad)
    with pytest.raises(ThermopylaeError, match="2 actions"):
        env.step([0, 0, 0])
    with pytest.raises(ThermopylaeError, match="num_envs"):
        ThermopylaeVectorEnv("thermopyles", 0)
    with pytest.raises(ThermopylaeError, match="illegal"):
        ThermopylaeVectorEnv("thermopyles", 2, illegal="ignore")
