"""The single-agent Gymnasium environment."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from thermopylae.engine import registry  # noqa: E402
from thermopylae.engine.errors import IllegalAction, ThermopylaeError  # noqa: E402
from thermopylae.interop.gymnasium import MAX_ILLEGAL, ThermopylaeEnv, gym_id, make  # noqa: E402

CASES: list[tuple[str, dict[str, Any]]] = [
    ("thermopyles", {}),  # solo
    ("thermopyles", {"players": 2, "seat": 1}),
    ("thermopyles", {"players": 3, "seat": 0, "opponent": "random"}),
    ("thermopyles", {"players": 4, "seat": 3}),
    ("earth-and-water", {"seat": 0}),
    ("earth-and-water", {"seat": 1, "opponent": "random"}),
    ("hot-gates", {"players": 2, "seat": 1}),
    ("hot-gates", {"players": 3, "seat": 2}),
    ("hot-gates", {"players": 4, "seat": 0, "opponent": "random"}),
]


def case_id(case: tuple[str, dict[str, Any]]) -> str:
    return f"{case[0]}-" + "-".join(f"{k}={v}" for k, v in case[1].items())


# check_env advises a spec (gymnasium.make) to test render modes: not needed here
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_check_env(case: tuple[str, dict[str, Any]]) -> None:
    game_id, kwargs = case
    check_env(ThermopylaeEnv(game_id, **kwargs).unwrapped)


def episode(env: ThermopylaeEnv, seed: int) -> tuple[float, int]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while True:
        assert env.observation_space.contains(obs)
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (env.action_space.n,)
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        steps += 1
        assert "illegal" not in info
        if terminated or truncated:
            assert "outcome" in info
            return total, steps


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_whole_episodes(case: tuple[str, dict[str, Any]]) -> None:
    game_id, kwargs = case
    env = make(game_id, **kwargs)
    first = episode(env, 7)
    assert first[1] > 0
    assert episode(env, 7) == first  # seeded chance and opponent: reproducible
    with pytest.raises(ThermopylaeError):
        env.step(0)  # over: reset first


def test_illegal_action_penalty_and_raise() -> None:
    env = ThermopylaeEnv("hot-gates", players=2)
    obs, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = env.step(bad)
    assert reward == -1.0 and not terminated and not truncated and info2["illegal"]
    assert np.array_equal(obs, obs2)
    strict = ThermopylaeEnv("hot-gates", players=2, illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalAction):
        strict.step(bad)


def test_bad_arguments() -> None:
    with pytest.raises(ThermopylaeError):
        ThermopylaeEnv("earth-and-water", seat=2)
    with pytest.raises(ThermopylaeError):
        ThermopylaeEnv("earth-and-water", opponent="nobody")
    with pytest.raises(ThermopylaeError):
        ThermopylaeEnv("thermopyles", illegal="ignore")


def test_render_ansi() -> None:
    env = ThermopylaeEnv("thermopyles", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and text


@pytest.mark.parametrize("case", CASES[:1] + CASES[4:5] + CASES[6:7], ids=case_id)
def test_action_masks_method_is_the_info_mask(case: tuple[str, dict[str, Any]]) -> None:
    """MaskablePPO's `action_masks()`: the same legal actions as `info["action_mask"]`,
    as booleans, after reset and after every step."""
    game_id, kwargs = case
    env = make(game_id, **kwargs)
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(200):
        masks = env.action_masks()
        assert masks.dtype == np.bool_
        assert np.array_equal(masks, np.asarray(info["action_mask"], dtype=bool))
        _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(masks))))
        if done:
            break


def test_p21_metadata_is_on_the_class() -> None:
    """`gymnasium.make` reads the render modes from the class before building the env."""
    assert ThermopylaeEnv.metadata["render_modes"] == ["ansi"]
    assert ThermopylaeEnv.metadata["render_fps"] == 1
    assert ThermopylaeEnv("earth-and-water").metadata == ThermopylaeEnv.metadata


def test_p21_every_registered_game_has_a_gymnasium_id() -> None:
    ids = {gym_id(g) for g in registry.game_ids()}
    assert ids == {
        "thermopylae/Thermopyles-v0",
        "thermopylae/EarthAndWater-v0",
        "thermopylae/HotGates-v0",
    }
    assert ids <= set(gymnasium.registry)


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_p21_gymnasium_make_with_ansi_gives_no_warning(game_id: str) -> None:
    """Through `gymnasium.make`, with its passive checker, every warning an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make(gym_id(game_id), render_mode="ansi")
        assert env.unwrapped.game.id == game_id
        _, info = env.reset(seed=4)
        for _ in range(5):
            _, _, terminated, truncated, info = env.step(
                int(np.flatnonzero(info["action_mask"])[0])
            )
            assert not truncated
            if terminated:
                break
        text = env.render()
        assert isinstance(text, str) and text
        env.close()


def test_p21_gymnasium_make_passes_table_options() -> None:
    env = gymnasium.make("thermopylae/HotGates-v0", players=3, seat=2, opponent="random")
    assert env.unwrapped.options["players"] == 3 and env.unwrapped.seat == 2
    solo = gymnasium.make("thermopylae/Thermopyles-v0")
    assert solo.unwrapped.options["players"] == 1  # the fewest seats: solo


def test_p21_bad_render_mode_is_refused() -> None:
    with pytest.raises(ThermopylaeError, match="render_mode"):
        ThermopylaeEnv("thermopyles", render_mode="rgb_array")


def test_p23_penalty_episode_is_truncated_after_max_illegal_in_a_row() -> None:
    env = ThermopylaeEnv("hot-gates", players=2, max_illegal=3)
    _, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    for _ in range(2):
        _, reward, terminated, truncated, info = env.step(bad)
        assert reward == -1.0 and not terminated and not truncated and info["illegal"]
    good = int(np.flatnonzero(info["action_mask"])[0])
    env.step(good)  # a legal action starts the count again
    for _ in range(2):
        assert not env.step(bad)[3]
    _, reward, terminated, truncated, info = env.step(bad)
    assert truncated and not terminated and reward == -1.0
    assert info["illegal"] and "3 illegal actions in a row" in info["reason"]
    with pytest.raises(ThermopylaeError, match="reset"):
        env.step(good)
    env.reset(seed=0)  # a new episode starts the count again
    assert not env.step(bad)[3]


def test_p23_default_bound_ends_an_endless_illegal_loop() -> None:
    env = ThermopylaeEnv("earth-and-water")
    assert env.max_illegal == MAX_ILLEGAL == 100
    _, info = env.reset(seed=1)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    steps = 0
    while True:
        steps += 1
        if env.step(bad)[3]:
            break
        assert steps < MAX_ILLEGAL
    assert steps == MAX_ILLEGAL


@pytest.mark.parametrize("bad", [0, -1, 2.5, "10", True])
def test_p23_bad_max_illegal_is_refused(bad: Any) -> None:
    with pytest.raises(ThermopylaeError, match="max_illegal"):
        ThermopylaeEnv("thermopyles", max_illegal=bad)


def test_p23_numpy_integers_are_accepted() -> None:
    env = ThermopylaeEnv("earth-and-water", seat=np.int64(1), max_illegal=np.int32(7))
    assert env.seat == 1 and env.max_illegal == 7 and type(env.max_illegal) is int
