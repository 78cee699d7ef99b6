"""`forfeit(state, seat, reason)` for every registered game and player count: the outcome
of a seat that gives up (its clock ran out), checked through the contract only.

Whatever the game, the seat that forfeits loses; in a co-operative game every seat loses;
otherwise someone wins, and the seats fall into sides: the seats that lose with a seat are
the same whichever of them forfeits, and the winners are everyone else. The state is left
as it was, and the turns are counted as the game's own outcome counts them.
"""

from __future__ import annotations

import pytest

from tests.conformance.sampled import Case, games, positions
from thermopylae.engine import registry
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import Outcome

pytestmark = pytest.mark.usefixtures("toy_registered")


def _losers(outcome: Outcome) -> frozenset[int]:
    return frozenset(p for p, r in enumerate(outcome.results) if r == "loss")


def test_the_forfeiting_seat_loses_and_the_outcome_is_well_formed(case: Case) -> None:
    for played, _, s in positions(case):
        game = played.game
        before = game.state_to_json(s)
        for seat in range(case.players):
            outcome = game.forfeit(s, seat, "time")
            assert isinstance(outcome, Outcome)
            assert len(outcome.results) == len(outcome.scores) == case.players
            assert set(outcome.results) <= {"win", "loss"}, outcome.results
            assert outcome.scores == tuple(1.0 if r == "win" else 0.0 for r in outcome.results), (
                outcome
            )
            assert outcome.results[seat] == "loss"
            assert outcome.reason == "time"
            assert isinstance(outcome.turns, int) and outcome.turns >= 0
            assert outcome.to_json()["results"][seat] == "loss"
        assert game.state_to_json(s) == before, "forfeit changed the state"


def test_cooperative_games_lose_together_and_others_have_a_winner(case: Case) -> None:
    game = registry.get(case.game_id)
    for played, _, s in positions(case):
        for seat in range(case.players):
            results = played.game.forfeit(s, seat, "time").results
            if game.cooperative:
                assert results == ("loss",) * case.players
            else:
                assert "win" in results, (seat, results)


def test_seats_that_lose_together_form_sides(case: Case) -> None:
    """Side by side: if b loses when a forfeits, then a's and b's forfeits are the same
    outcome; the sides split the table (every seat in exactly one)."""
    for played, _, s in positions(case)[:3]:
        sides = {
            seat: _losers(played.game.forfeit(s, seat, "time")) for seat in range(case.players)
        }
        for a, losers in sides.items():
            for b in losers:
                assert sides[b] == losers, (a, b, sides)


def test_turns_are_counted_as_the_outcome_counts_them(case: Case) -> None:
    """At the end of a game the forfeit's turns are the outcome's; before it, no more."""
    for played in games(case):
        final_turns = played.game.outcome(played.final)
        assert final_turns is not None
        assert played.game.forfeit(played.final, 0, "time").turns == final_turns.turns
        for _, s in played.positions:
            assert played.game.forfeit(s, 0, "time").turns <= final_turns.turns


def test_a_seat_that_is_not_at_the_table_is_refused(case: Case) -> None:
    game = registry.get(case.game_id)
    _, _, s = positions(case)[0]
    for seat in (-1, case.players):
        with pytest.raises(ThermopylaeError, match="no seat"):
            game.forfeit(s, seat, "time")
