"""The games as OpenSpiel Python games."""

from __future__ import annotations

import random
import runpy
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from tests.interop.conftest import ALL_CASES, case_id  # noqa: E402
from thermopylae.engine import registry  # noqa: E402
from thermopylae.interop import observe, openspiel  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_ismcts.py"


def load(game_id: str, options: dict[str, Any]) -> Any:
    return openspiel.load(game_id, options.get("players"))


def play_to_decision(state: Any, rng: random.Random, decisions: int) -> Any:
    """Play at random (chance by its probabilities) until `decisions` decisions are made
    and a player is to act (or the game ends)."""
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        if made >= decisions:
            break
        state.apply_action(rng.choice(state.legal_actions()))
        made += 1
    return state


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_random_sim_test(case: tuple[str, dict[str, Any]]) -> None:
    game = load(*case)
    sims = 1 if case[0] == "hot-gates" else 2
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


@pytest.mark.parametrize("case", [("thermopyles", {"players": 3}), ("earth-and-water", {})],
                         ids=case_id)
def test_random_sim_test_serialized(case: tuple[str, dict[str, Any]]) -> None:
    pyspiel.random_sim_test(load(*case), num_sims=1, serialize=True, verbose=False)


def test_registered_and_loaded_by_name() -> None:
    names = set(pyspiel.registered_names())
    for _, short, _ in openspiel.GAMES:
        assert short in names
    game = pyspiel.load_game("python_thermopylae_hot_gates", {"players": 3})
    assert game.num_players() == 3
    assert game.num_distinct_actions() == registry.get("hot-gates").num_actions
    assert pyspiel.load_game("python_thermopylae_thermopyles").num_players() == 1
    assert pyspiel.load_game("python_thermopylae_earth_and_water").num_players() == 2


def test_chance_outcomes_are_the_games() -> None:
    game = load("earth-and-water", {})
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    tgame = game.tgame
    expected = {tgame.encode(a) for a, _ in tgame.chance(state.tstate)}
    assert {a for a, _ in outcomes} == expected


@pytest.mark.parametrize("case", [("earth-and-water", {}), ("hot-gates", {"players": 3}),
                                  ("thermopyles", {"players": 2})], ids=case_id)
def test_information_state_hides_and_resamples(case: tuple[str, dict[str, Any]]) -> None:
    game = load(*case)
    tgame = game.tgame
    rng = random.Random(3)
    state = play_to_decision(game.new_initial_state(), rng, 12)
    assert not state.is_terminal()
    player = state.current_player()
    info = state.information_state_string(player)
    view = openspiel.canonical(tgame.view(state.tstate, player))
    assert info.startswith(view)
    assert state.observation_string(player) == view
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(5):
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == info
        assert other.legal_actions() == state.legal_actions()
        assert other.current_player() == player
        # the resampled state plays on
        play_to_decision(other, rng, 3)


def test_tensors_are_the_observation() -> None:
    game = load("hot-gates", {"players": 2})
    state = play_to_decision(game.new_initial_state(), random.Random(1), 5)
    size = observe.observation_size(game.tgame, game.options)
    assert game.observation_tensor_size() == size
    assert game.information_state_tensor_size() == size
    for seat in range(2):
        expected = observe.observe(game.tgame, game.options, state.tstate, seat)
        np.testing.assert_allclose(state.observation_tensor(seat), expected)
        np.testing.assert_allclose(state.information_state_tensor(seat), expected)


def test_returns_are_the_scores() -> None:
    game = load("thermopyles", {"players": 2})
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        play_to_decision(state, rng, 1000)
    scores = game.tgame.outcome(state.tstate).scores
    assert state.returns() == [float(s) for s in scores]


def test_clone_is_independent() -> None:
    game = load("earth-and-water", {})
    state = play_to_decision(game.new_initial_state(), random.Random(2), 3)
    clone = state.clone()
    before = str(state)
    play_to_decision(clone, random.Random(5), 4)
    assert str(state) == before
    assert clone.tgame is state.tgame


def test_example_ismcts_one_game(capsys: pytest.CaptureFixture[str]) -> None:
    module = runpy.run_path(str(EXAMPLE), run_name="example")
    module["main"](["--games", "1", "--simulations", "5", "--iterations", "5"])
    out = capsys.readouterr().out
    assert "game 1:" in out
    assert "total over 1 game(s)" in out
