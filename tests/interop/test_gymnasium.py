"""The single-agent Gymnasium environment."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium import spaces  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from tests.interop.conftest import GAME_IDS, players, table, two_seats  # noqa: E402
from thermopylae.engine import registry  # noqa: E402
from thermopylae.engine.errors import IllegalAction, ThermopylaeError  # noqa: E402
from thermopylae.interop.gymnasium import MAX_ILLEGAL, ThermopylaeEnv, gym_id, make  # noqa: E402


def _cases() -> list[tuple[str, dict[str, Any]]]:
    """Every registered game at every player count, learning as the last seat against
    the heuristic (the fewest players without `players`, the default), and once more at
    the most players as the first seat against `random`."""
    out: list[tuple[str, dict[str, Any]]] = []
    for game_id in GAME_IDS:
        counts = players(game_id)
        for n in counts:
            options = {} if n == counts.start else table(game_id, n)
            out.append((game_id, {**options, "seat": n - 1}))
        most = table(game_id, counts.stop - 1)
        out.append((game_id, {**most, "seat": 0, "opponent": "random"}))
    return out


CASES = _cases()
FIRST_OF_EACH_GAME = [next(c for c in CASES if c[0] == game_id) for game_id in GAME_IDS]


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
        assert isinstance(env.action_space, spaces.Discrete)
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


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_illegal_action_penalty_and_raise(game_id: str) -> None:
    env = ThermopylaeEnv(game_id, **two_seats(game_id))
    obs, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = env.step(bad)
    assert reward == -1.0 and not terminated and not truncated and info2["illegal"]
    assert np.array_equal(obs, obs2)
    strict = ThermopylaeEnv(game_id, **two_seats(game_id), illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalAction):
        strict.step(bad)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_bad_arguments(game_id: str) -> None:
    options = two_seats(game_id)
    seats = len(registry.get(game_id).seats(registry.get(game_id).options(options)))
    with pytest.raises(ThermopylaeError):
        ThermopylaeEnv(game_id, **options, seat=seats)  # one past the last seat
    with pytest.raises(ThermopylaeError):
        ThermopylaeEnv(game_id, opponent="nobody")
    with pytest.raises(ThermopylaeError):
        ThermopylaeEnv(game_id, illegal="ignore")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_render_ansi(game_id: str) -> None:
    env = ThermopylaeEnv(game_id, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and text


@pytest.mark.parametrize("case", FIRST_OF_EACH_GAME, ids=case_id)
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


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_p21_metadata_is_on_the_class(game_id: str) -> None:
    """`gymnasium.make` reads the render modes from the class before building the env."""
    assert ThermopylaeEnv.metadata["render_modes"] == ["ansi"]
    assert ThermopylaeEnv.metadata["render_fps"] == 1
    assert ThermopylaeEnv(game_id).metadata == ThermopylaeEnv.metadata


def test_p21_every_registered_game_has_a_gymnasium_id() -> None:
    ids = {gym_id(g) for g in registry.game_ids()}
    assert len(ids) == len(registry.game_ids())  # one id per game, none shared
    assert ids <= set(gymnasium.registry)
    # the naming rule: words of the id, capitalised and joined, in the namespace
    assert gym_id("hot-gates") == "thermopylae/HotGates-v0"
    assert gym_id("earth-and-water") == "thermopylae/EarthAndWater-v0"
    assert gym_id("thermopyles") == "thermopylae/Thermopyles-v0"


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


@pytest.mark.parametrize("game_id", [g for g in GAME_IDS if len(players(g)) > 1])
def test_p21_gymnasium_make_passes_table_options(game_id: str) -> None:
    most = players(game_id).stop - 1
    env = gymnasium.make(gym_id(game_id), players=most, seat=most - 1, opponent="random")
    assert env.unwrapped.options["players"] == most and env.unwrapped.seat == most - 1
    fewest = gymnasium.make(gym_id(game_id))
    assert fewest.unwrapped.options["players"] == players(game_id).start  # one learner


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_p21_bad_render_mode_is_refused(game_id: str) -> None:
    with pytest.raises(ThermopylaeError, match="render_mode"):
        ThermopylaeEnv(game_id, render_mode="rgb_array")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_p23_penalty_episode_is_truncated_after_max_illegal_in_a_row(game_id: str) -> None:
    env = ThermopylaeEnv(game_id, **two_seats(game_id), max_illegal=3)
    _, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    for _ in range(2):
        _, reward, terminated, truncated, info = env.step(bad)
        assert reward == -1.0 and not terminated and not truncated and info["illegal"]
    good = int(np.flatnonzero(info["action_mask"])[0])
    _, _, _, _, info = env.step(good)  # a legal action starts the count again
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])  # illegal in the new position
    for _ in range(2):
        assert not env.step(bad)[3]
    _, reward, terminated, truncated, info = env.step(bad)
    assert truncated and not terminated and reward == -1.0
    assert info["illegal"] and "3 illegal actions in a row" in info["reason"]
    with pytest.raises(ThermopylaeError, match="reset"):
        env.step(good)
    _, info = env.reset(seed=0)  # a new episode starts the count again
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    assert env.step(bad)[4]["illegal"] and not env.step(bad)[3]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_p23_default_bound_ends_an_endless_illegal_loop(game_id: str) -> None:
    env = ThermopylaeEnv(game_id)
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
        ThermopylaeEnv(GAME_IDS[0], max_illegal=bad)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_p23_numpy_integers_are_accepted(game_id: str) -> None:
    options = two_seats(game_id)
    last = int(options.get("players", players(game_id).start)) - 1
    env = ThermopylaeEnv(
        game_id,
        **options,
        seat=np.int64(last),  # type: ignore[arg-type]  # NumPy integers on purpose
        max_illegal=np.int32(7),  # type: ignore[arg-type]
    )
    assert env.seat == last and env.max_illegal == 7 and type(env.max_illegal) is int
