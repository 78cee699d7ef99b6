"""The Earth & Water heuristic: legal moves only, its own seat's view only, and it beats
the random agent on both sides."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.earth_and_water.helpers import position
from thermopylae.ai.base import RandomAgent, make_agent
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import CHANCE, Outcome
from thermopylae.games.earth_and_water import game as ew_game
from thermopylae.games.earth_and_water.heuristic import Heuristic
from thermopylae.games.earth_and_water.rules import EarthAndWater
from thermopylae.sim.match import rngs

GAME = ew_game()
PERSIA, GREECE = 0, 1
GAMES_PER_SIDE = 16
MIN_WINS = 13  # of 16 (it wins nearly all of them)


class Sealed:
    """A state an agent can hand back to the game but not read."""

    __slots__ = ("_state",)

    def __init__(self, state: Any) -> None:
        self._state = state


class Guard:
    """The game as an agent may use it: whose turn, the legal actions, notation, the
    public components, and the view of the seat to act (no other seat's)."""

    def __init__(self, game: EarthAndWater) -> None:
        self._game = game
        self.components = game.components
        self.components_digest = game.components_digest
        self.views = 0

    def to_act(self, sealed: Sealed) -> int | None:
        seat: int | None = self._game.to_act(sealed._state)
        return seat

    def legal(self, sealed: Sealed) -> Any:
        return self._game.legal(sealed._state)

    def view(self, sealed: Sealed, seat: int | None) -> Any:
        assert seat is not None and seat == self._game.to_act(sealed._state), \
            f"an agent asked for the view of seat {seat}"
        self.views += 1
        return self._game.view(sealed._state, seat)

    def format(self, action: Any) -> str:
        text: str = self._game.format(action)
        return text

    def parse(self, text: str) -> Any:
        return self._game.parse(text)


def play(agents: list[Any], index: int, options: dict[str, Any] | None = None,
         seed: int = 2024) -> Outcome:
    """A whole game through the guard; every action an agent returns must be legal."""
    guard = Guard(GAME)
    chance_rng, agent_rng = rngs(seed, index)
    state = GAME.new(GAME.options(options or {}))
    while (seat := GAME.to_act(state)) is not None:
        if seat == CHANCE:
            action = GAME.sample_chance(state, chance_rng)
        else:
            action = agents[seat].act(guard, Sealed(state), agent_rng)
            assert action in GAME.legal(state), (
                f"{GAME.format(action)!r} is not legal in phase {GAME.view(state, None)['phase']}")
        GAME.apply(state, action, quiet=True)
    outcome = GAME.outcome(state)
    assert outcome is not None
    return outcome


@pytest.mark.parametrize("seat", [PERSIA, GREECE], ids=["as-persia", "as-greece"])
def test_beats_random_on_both_sides(seat: int) -> None:
    wins = 0
    for index in range(GAMES_PER_SIDE):
        agents: list[Any] = [RandomAgent(), RandomAgent()]
        agents[seat] = Heuristic()
        wins += play(agents, index).results[seat] == "win"
    assert wins >= MIN_WINS, f"won {wins} of {GAMES_PER_SIDE}"


@pytest.mark.parametrize("cheap_fleets", [False, True])
def test_plays_itself_to_the_end(cheap_fleets: bool) -> None:
    for index in range(3):
        heuristic = Heuristic()  # one agent for both seats: its plans are kept per seat
        outcome = play([heuristic, heuristic], index, {"cheap_fleets": cheap_fleets}, seed=7)
        assert outcome.results in (("win", "loss"), ("loss", "win"), ("draw", "draw"))


def test_is_deterministic_given_its_inputs() -> None:
    first = play([Heuristic(), Heuristic()], 5, seed=11)
    again = play([Heuristic(), Heuristic()], 5, seed=11)
    assert first == again


def test_single_legal_action_is_taken_without_a_view() -> None:
    guard = Guard(GAME)
    state = position(GAME, hands=([], [1, 2]))  # Persia, with no card, can only pass
    assert [GAME.format(a) for a in GAME.legal(state)] == ["pass"]
    action = Heuristic().act(guard, Sealed(state), random.Random(0))
    assert GAME.format(action) == "pass" and guard.views == 0


def test_rejects_unknown_parameters() -> None:
    with pytest.raises(ValueError, match="no parameters"):
        Heuristic(depth=3)
    with pytest.raises(ThermopylaeError, match="heuristic"):
        make_agent("heuristic:depth=3", GAME)
    assert make_agent("heuristic", GAME).name == "heuristic"
