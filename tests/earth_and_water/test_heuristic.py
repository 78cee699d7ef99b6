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
from thermopylae.games.earth_and_water.ai import Heuristic
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
        assert seat is not None and seat == self._game.to_act(sealed._state), (
            f"an agent asked for the view of seat {seat}"
        )
        self.views += 1
        return self._game.view(sealed._state, seat)

    def format(self, action: Any) -> str:
        text: str = self._game.format(action)
        return text

    def parse(self, text: str) -> Any:
        return self._game.parse(text)


def play(
    agents: list[Any], index: int, options: dict[str, Any] | None = None, seed: int = 2024
) -> Outcome:
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
                f"{GAME.format(action)!r} is not legal in phase {GAME.view(state, None)['phase']}"
            )
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
    # Guard is on purpose less than a Game: only what an agent may use
    action = Heuristic().act(guard, Sealed(state), random.Random(0))  # type: ignore[arg-type]
    assert GAME.format(action) == "pass" and guard.views == 0


def test_rejects_unknown_parameters() -> None:
    with pytest.raises(ValueError, match="no parameters"):
        Heuristic(depth=3)
    with pytest.raises(ThermopylaeError, match="heuristic"):
        make_agent("heuristic:depth=3", GAME)
    assert make_agent("heuristic", GAME).name == "heuristic"


def test_caches_across_decisions_change_no_decision() -> None:
    """The heuristic keeps values of positions from one decision to the next (what the
    seat knows is part of their keys): with every cache emptied before each decision it
    chooses the same, and `evaluate` gives the same values."""
    from thermopylae.games.earth_and_water import ai as h

    warm, cold = Heuristic(), Heuristic()
    rng = random.Random(3)
    decisions = 0
    for index in range(3):
        state = GAME.new(GAME.options({}))
        while (seat := GAME.to_act(state)) is not None:
            if seat == CHANCE:
                GAME.apply(state, GAME.sample_chance(state, rng), quiet=True)
                continue
            legal = GAME.legal(state)
            # also a copy with the hidden cards dealt again, as a search sees it
            for s in (GAME.determinize(state, 1 - seat, rng), state):
                a = warm.act(GAME, s, rng)
                warm_eval = h.evaluate(GAME, s)
                maps = dict(h._MAPS)
                h._MAPS.clear()
                b = cold.act(GAME, s, rng)
                cold_eval = h.evaluate(GAME, s)
                h._MAPS.clear()
                h._MAPS.update(maps)
                assert a == b, (index, GAME.format(a), GAME.format(b))
                assert warm_eval == cold_eval
                decisions += 1
            if rng.random() < 0.2:
                _compare_values(h, GAME.view(state, seat), seat, rng)
            # mostly the heuristic's move, sometimes another (positions it would not seek)
            GAME.apply(state, a if rng.random() < 0.8 else rng.choice(legal), quiet=True)
    assert decisions > 300


def _compare_values(h: Any, view: Any, seat: int, rng: random.Random) -> None:
    """Values of made-up positions in a context whose caches are warm, and in one whose
    caches are new for each position, for both expectations of who moves next."""
    warm = h.Ctx(h._map(GAME), view, seat)
    for _ in range(4):
        arm = [[0] * 11, [0] * 11]
        flt = [[0] * 11, [0] * 11]
        for side in (PERSIA, GREECE):
            for _ in range(rng.randrange(7)):
                arm[side][rng.randrange(11)] += 1
            for _ in range(rng.randrange(5)):
                flt[side][rng.choice(warm.m.ports)] += 1
        bridge, acro = rng.random() < 0.5, rng.random() < 0.2
        for next_side in (PERSIA, GREECE):
            cold = h.Ctx(h.Map(GAME.components), view, seat)
            for ctx in (warm, cold):
                ctx.expect(next_side, [2, 2])
            pos = h.Pos(arm, flt, bridge, [5, 5], [3, 3], acro)
            assert warm.value(pos) == cold.value(pos)
