"""The one takeback policy (`engine.takeback`), one test per sentence of its docstring,
on records of all three games played at random through the contract."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE, Event, GenericGame
from thermopylae.engine.takeback import Takebacks, is_reveal, takebacks

GAMES = registry.game_ids()


def record(game_id: str, seed: int, moves: int = 60) -> tuple[GenericGame, Any, list[Any]]:
    """A game's options and its first `moves` steps (who, text), played at random."""
    g = registry.get(game_id)
    _title, lo, hi = registry.summary(game_id)
    options = g.options({} if lo == hi else {"players": 2})
    state = g.new(options)
    rng = random.Random(seed)
    steps: list[tuple[str, str]] = []
    seats = list(g.seats(options))
    while len(steps) < moves and (seat := g.to_act(state)) is not None:
        action = g.sample_chance(state, rng) if seat == CHANCE else rng.choice(list(g.legal(state)))
        g.apply(state, action)
        steps.append(("chance" if seat == CHANCE else seats[seat], g.format(action)))
    return g, options, steps


def test_all_three_games_are_covered() -> None:
    assert {"earth-and-water", "hot-gates", "thermopyles"} <= set(GAMES)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_seat_takes_back_its_own_decisions_since_the_last_reveal_never_past_it(
    game_id: str,
) -> None:
    for seed in range(5):
        g, options, steps = record(game_id, seed)
        tb = takebacks(g, options, steps)
        assert len(tb.deciders) == len(steps)
        for seat in range(len(g.seats(options))):
            for n in range(len(steps)):
                allowed = tb.refusal(seat, n) is None
                assert allowed == (n >= tb.floor and tb.deciders[n] == seat), (seed, seat, n)
            own = [n for n in range(tb.floor, len(steps)) if tb.deciders[n] == seat]
            assert tb.last_own(seat) == (own[-1] if own else None)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_chance_step_is_a_reveal(game_id: str) -> None:
    assert is_reveal(CHANCE, [])
    g, options, steps = record(game_id, 1)
    tb = takebacks(g, options, steps)
    chance = [n for n, d in enumerate(tb.deciders) if d == CHANCE]
    assert chance, "the game draws or rolls within its first steps"
    assert tb.floor >= chance[-1] + 1  # nothing up to the last draw can be taken back
    for n in chance:  # the record cut just after each draw: its floor is right after it
        assert takebacks(g, options, steps[: n + 1]).floor == n + 1
    refusal = tb.refusal(0, chance[-1] - 1) if chance[-1] > 0 else "before the first step"
    assert refusal is not None


class ShowsOneSeat:
    """A game whose step `secret` (a seat's decision) also shows one seat something:
    the contract's game, with an event addressed to seat 0 added there."""

    def __init__(self, game: GenericGame, secret: int) -> None:
        self.game = game
        self.secret = secret
        self.applied = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def apply(self, state: Any, action: Any, *, quiet: bool = False) -> list[Event]:
        events = list(self.game.apply(state, action, quiet=quiet))
        if self.applied == self.secret:
            events.append(Event("seen", {"card": 1}, to=0))
        self.applied += 1
        return events


@pytest.mark.parametrize("game_id", GAMES)
def test_a_step_that_showed_one_seat_something_is_a_reveal(game_id: str) -> None:
    assert is_reveal(1, [Event("seen", to=0)]) and not is_reveal(1, [Event("public")])
    g, options, steps = record(game_id, 2)
    deciders = takebacks(g, options, steps).deciders
    # a record that ends with a decision that may be taken back ...
    last = next(
        n
        for n in range(len(steps) - 1, -1, -1)
        if deciders[n] != CHANCE and takebacks(g, options, steps[: n + 1]).floor <= n
    )
    steps = steps[: last + 1]
    plain = takebacks(g, options, steps)
    assert plain.refusal(plain.deciders[last], last) is None
    # ... unless that decision showed one seat something
    shown = takebacks(cast(GenericGame, ShowsOneSeat(g, last)), options, steps)
    assert shown.floor == last + 1
    assert shown.refusal(plain.deciders[last], last) is not None


@pytest.mark.parametrize("game_id", GAMES)
def test_other_seats_decisions_after_the_seats_own_are_taken_back_with_it(
    game_id: str,
) -> None:
    for seed in range(5):
        g, options, steps = record(game_id, seed)
        tb = takebacks(g, options, steps)
        for n in range(tb.floor, len(steps)):
            seat = tb.deciders[n]
            if seat == CHANCE:
                continue
            later = {d for d in tb.deciders[n:] if d not in (seat, CHANCE)}
            assert tb.others(seat, n) == later


def test_a_move_that_is_not_a_decision_is_refused_naming_the_range() -> None:
    tb = Takebacks(0, (0, 1, 0))
    for bad in (-1, 3, True, "1", 1.0, None):
        why = tb.refusal(0, bad)  # type: ignore[arg-type]  # not a step number, on purpose
        assert why is not None and "0..2" in why, bad
    assert tb.refusal(0, 2) is None and tb.refusal(0, 1) is not None


@pytest.mark.parametrize("game_id", GAMES)
def test_steps_after_the_end_of_the_game_are_not_read(game_id: str) -> None:
    g, options, steps = record(game_id, 3, moves=10_000)
    state = g.new(options)
    for _who, text in steps:
        g.apply(state, g.parse(text))
    assert g.to_act(state) is None  # played to its end
    tb = takebacks(g, options, [*steps, ("p9", "not an action of any game")])
    assert len(tb.deciders) == len(steps)
