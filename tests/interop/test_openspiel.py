"""The games as OpenSpiel Python games."""

from __future__ import annotations

import random
import runpy
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from tests.interop.conftest import ALL_CASES, GAME_IDS, case_id, players, two_seats  # noqa: E402
from thermopylae.engine import registry  # noqa: E402
from thermopylae.interop import observe, openspiel  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_ismcts.py"


def load(game_id: str, options: dict[str, Any]) -> Any:
    return openspiel.load(game_id, options.get("players"))


# one table of each game, two players where it can (a seat with a hidden neighbour)
TWO_SEATS = [(game_id, two_seats(game_id)) for game_id in GAME_IDS]


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
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("case", TWO_SEATS, ids=case_id)
def test_random_sim_test_serialized(case: tuple[str, dict[str, Any]]) -> None:
    pyspiel.random_sim_test(load(*case), num_sims=1, serialize=True, verbose=False)


def test_registered_and_loaded_by_name() -> None:
    names = set(pyspiel.registered_names())
    assert [g for g, _, _ in openspiel.GAMES] == GAME_IDS  # every registered game
    for game_id, short, _ in openspiel.GAMES:
        assert short in names
        assert short == openspiel.short_name(game_id)
        counts = players(game_id)
        assert pyspiel.load_game(short).num_players() == counts.start  # the fewest
        if len(counts) > 1:
            game = pyspiel.load_game(short, {"players": counts.stop - 1})
            assert game.num_players() == counts.stop - 1
            assert game.num_distinct_actions() == registry.get(game_id).num_actions
    # the naming rule: `python_thermopylae_` and the id with `_` for `-`
    assert openspiel.short_name("hot-gates") == "python_thermopylae_hot_gates"
    assert openspiel.long_name("earth-and-water") == "Thermopylae: Earth and Water"


@pytest.mark.parametrize("case", TWO_SEATS, ids=case_id)
def test_chance_outcomes_are_the_games(case: tuple[str, dict[str, Any]]) -> None:
    game = load(*case)
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    tgame = game.tgame
    expected = {tgame.encode(a) for a, _ in tgame.chance(state.tstate)}
    assert {a for a, _ in outcomes} == expected


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
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


@pytest.mark.parametrize("case", TWO_SEATS, ids=case_id)
def test_tensors_are_the_observation(case: tuple[str, dict[str, Any]]) -> None:
    game = load(*case)
    state = play_to_decision(game.new_initial_state(), random.Random(1), 5)
    size = observe.observation_size(game.tgame, game.options)
    assert game.observation_tensor_size() == size
    for seat in range(game.num_players()):
        expected = observe.observe(game.tgame, game.options, state.tstate, seat)
        np.testing.assert_allclose(state.observation_tensor(seat), expected)


@pytest.mark.parametrize("case", TWO_SEATS, ids=case_id)
def test_p22_no_information_state_tensor_is_claimed(case: tuple[str, dict[str, Any]]) -> None:
    """The observation vector holds no history: it is not offered as an information-state
    tensor (tensor-based CFR would merge information states), and asking for one is a
    clear error; the observation tensor and the perfect-recall string stay."""
    game = load(*case)
    kind = game.get_type()
    assert not kind.provides_information_state_tensor
    assert kind.provides_observation_tensor and kind.provides_information_state_string
    state = play_to_decision(game.new_initial_state(), random.Random(2), 3)
    player = state.current_player()
    assert len(state.observation_tensor(player)) == game.observation_tensor_size() > 0
    with pytest.raises(ValueError, match="no information-state tensor"):
        state.information_state_tensor(player)
    assert "|mine:" in state.information_state_string(player)


def test_same_observation_different_histories_have_different_information_states() -> None:
    """Why the tensor is not offered: some game has two histories that leave one view
    (Earth & Water's preparation buys, in either order), so the observation tensor cannot
    tell them apart, while the information-state string (the seat's own decisions) does.
    Searched in every registered game, in registry order, until three are found."""
    found = 0
    for game_id, options in TWO_SEATS:
        found += _same_view_histories(load(game_id, options), 3 - found)
        if found >= 3:
            return
    assert found, "no two histories with one view"


def _same_view_histories(game: Any, wanted: int) -> int:
    """How many pairs of histories with one view and two information states were found
    in `game` (stops at `wanted`)."""
    found = 0
    for seed in range(30):
        rng = random.Random(seed)
        a = play_to_decision(game.new_initial_state(), rng, 1)
        if a.is_terminal():
            continue
        player = a.current_player()
        for first in a.legal_actions():
            for second in a.legal_actions():
                if first >= second:
                    continue
                x, y = a.clone(), a.clone()
                x.apply_action(first)
                y.apply_action(second)
                if x.is_chance_node() or y.is_chance_node() or x.is_terminal():
                    continue
                if x.current_player() != player or y.current_player() != player:
                    continue
                for b in x.legal_actions():
                    if b != second or first not in y.legal_actions():
                        continue
                    x2, y2 = x.clone(), y.clone()
                    x2.apply_action(second)
                    y2.apply_action(first)
                    if x2.is_chance_node() or x2.is_terminal() or y2.is_terminal():
                        continue
                    if x2.observation_string(player) != y2.observation_string(player):
                        continue
                    assert x2.observation_tensor(player) == y2.observation_tensor(player)
                    assert x2.information_state_string(player) != y2.information_state_string(
                        player
                    )
                    found += 1
                    if found >= wanted:
                        return found
    return found


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_p22_cooperative_game_has_identical_utility(case: tuple[str, dict[str, Any]]) -> None:
    """A game that says it is co-operative (`cooperative`, Thermopyles) has one utility
    for every player, and every player gets the same return; the others are general-sum."""
    game = load(*case)
    if not game.tgame.cooperative:
        assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
        return
    assert game.get_type().utility == pyspiel.GameType.Utility.IDENTICAL
    state = game.new_initial_state()
    rng = random.Random(game.num_players())
    while not state.is_terminal():
        play_to_decision(state, rng, 1000)
    assert len(set(state.returns())) == 1


def test_some_registered_game_is_cooperative_and_some_is_not() -> None:
    """Both kinds of utility are exercised above."""
    kinds = {registry.get(game_id).cooperative for game_id in GAME_IDS}
    assert kinds == {True, False}


@pytest.mark.parametrize("case", TWO_SEATS, ids=case_id)
def test_returns_are_the_scores(case: tuple[str, dict[str, Any]]) -> None:
    game = load(*case)
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        play_to_decision(state, rng, 1000)
    scores = game.tgame.outcome(state.tstate).scores
    assert state.returns() == [float(s) for s in scores]


@pytest.mark.parametrize("case", TWO_SEATS, ids=case_id)
def test_clone_is_independent(case: tuple[str, dict[str, Any]]) -> None:
    game = load(*case)
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


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_python_fast_paths_answer_as_openspiel(case: tuple[str, dict[str, Any]]) -> None:
    """`is_chance_node`, `legal_actions` and `observation_tensor`, answered in Python,
    give what OpenSpiel's own path (through C++ and back) gives, at decisions, chance
    nodes and the end, for every player; a copy each time."""
    game = load(*case)
    rng = random.Random(5)
    base = pyspiel.State
    for _ in range(2):
        state = game.new_initial_state()
        while True:
            assert state.is_chance_node() == base.is_chance_node(state)
            assert state.legal_actions() == base.legal_actions(state)
            for player in range(game.num_players()):
                assert state.legal_actions(player) == base.legal_actions(state, player)
                got = state.observation_tensor(player)
                assert type(got) is list and got == base.observation_tensor(state, player)
            if state.current_player() >= 0:
                assert state.observation_tensor() == base.observation_tensor(state)
                mine = state.legal_actions()
                mine.clear()  # the caller's copy: the next answer is whole again
                assert state.legal_actions() == base.legal_actions(state)
            else:
                with pytest.raises(pyspiel.SpielError):
                    state.observation_tensor()
            if state.is_terminal():
                break
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
