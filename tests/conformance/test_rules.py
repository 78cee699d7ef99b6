"""The rules' half of the contract, for every registered game and player count: games
end, `legal` is exactly what `apply` accepts, chance is a distribution, outcomes come
exactly at the end, events name only seats of the table."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.conformance.sampled import MAX_STEPS, Case, games, play_random, positions
from thermopylae.engine.errors import IllegalAction
from thermopylae.engine.protocol import CHANCE, GenericGame

pytestmark = pytest.mark.usefixtures("toy_registered")


def test_random_games_end_with_an_outcome_for_every_seat(case: Case) -> None:
    for played in games(case):
        game, s = played.game, played.final
        assert len(played.steps) <= MAX_STEPS
        assert game.to_act(s) is None
        assert not list(game.legal(s)) and not list(game.chance(s))
        outcome = game.outcome(s)
        assert outcome is not None
        assert len(outcome.results) == len(outcome.scores) == case.players
        assert set(outcome.results) <= {"win", "loss", "draw"}
        assert all(isinstance(x, float) for x in outcome.scores)
        assert isinstance(outcome.reason, str) and outcome.reason
        assert isinstance(outcome.turns, int) and outcome.turns >= 0
        json.dumps(outcome.to_json())
        if game.cooperative:  # every seat shares one result
            assert len(set(outcome.results)) == 1
    # and more games, quietly, each within the bound
    game = games(case)[0].game
    for seed in range(3):
        s = game.new(games(case)[seed % len(games(case))].options)
        play_random(game, s, random.Random(seed))
        assert game.outcome(s) is not None


def test_an_outcome_exactly_when_nobody_is_to_act(case: Case) -> None:
    for played, _, s in positions(case):
        game = played.game
        to_act = game.to_act(s)
        assert (game.outcome(s) is None) == (to_act is not None)
        assert to_act is None or to_act == CHANCE or 0 <= to_act < case.players


def expected_actions(game: GenericGame, s: Any) -> list[Any]:
    """What `apply` must accept: the legal decisions, or the chance outcomes."""
    to_act = game.to_act(s)
    if to_act is None:
        return []
    if to_act == CHANCE:
        return [a for a, _ in game.chance(s)]
    return list(game.legal(s))


def test_every_legal_action_applies_and_every_other_is_refused_unchanged(case: Case) -> None:
    """At sampled positions: each legal action (or chance outcome) applies to a copy;
    every other action of the table, `decode(i)` for each `i`, raises `IllegalAction` and
    leaves the state as it was (its JSON, and the game that follows from it), applied in
    place one after another."""
    for played, step, s in positions(case):
        game = played.game
        expected = expected_actions(game, s)
        assert len(set(expected)) == len(expected), "an action listed twice"
        for a in expected:
            game.apply(game.copy(s), a, quiet=True)  # must not raise
        original = game.state_to_json(s)
        untouched = game.copy(s)
        allowed = set(expected)
        refused = [game.decode(i) for i in range(game.num_actions)]
        refused = [a for a in refused if a not in allowed]
        for a in refused:
            with pytest.raises(IllegalAction):
                game.apply(s, a, quiet=True)
        if game.state_to_json(s) != original:  # find the first culprit, to name it
            t = _state_at(played, step)
            for a in refused:
                with pytest.raises(IllegalAction):
                    game.apply(t, a, quiet=True)
                assert game.state_to_json(t) == original, f"refused {a!r} changed the state"
        # not even with events asked for
        for a in refused[:: max(1, len(refused) // 5)]:
            with pytest.raises(IllegalAction):
                game.apply(s, a)
        assert game.state_to_json(s) == original
        # and what was listed still applies after all those refusals
        for a in expected[:3]:
            game.apply(game.copy(s), a)
        # nor did they change what the JSON leaves out but play depends on (the order of
        # a face-down pile, which a sampled draw reads): the same game follows
        k = step * 31 + case.players
        play_random(game, s, random.Random(k))
        play_random(game, untouched, random.Random(k))
        assert game.state_to_json(s) == game.state_to_json(untouched), "refusals changed play"


def _state_at(played: Any, step: int) -> Any:
    game = played.game
    s = game.new(played.options)
    for a in played.actions_from(0)[:step]:
        game.apply(s, a, quiet=True)
    return s


def test_chance_is_a_distribution_and_decisions_are_not_chance(case: Case) -> None:
    rng = random.Random(case.players)
    for played, _, s in positions(case):
        game = played.game
        to_act = game.to_act(s)
        if to_act == CHANCE:
            dist = list(game.chance(s))
            support = [a for a, _ in dist]
            assert dist and len(set(support)) == len(support)
            assert all(isinstance(p, float) and p > 0 for _, p in dist)
            assert abs(sum(p for _, p in dist) - 1.0) < 1e-9
            assert not list(game.legal(s))
            for _ in range(3):
                assert game.sample_chance(s, rng) in support
        elif to_act is not None:
            assert list(game.legal(s)), "a deciding seat with nothing legal"
            assert not list(game.chance(s))


def test_events_are_for_the_table_and_described(case: Case) -> None:
    for played in games(case):
        game = played.game
        for _, _, events in played.steps:
            for e in events:
                assert e.to is None or 0 <= e.to < case.players
                json.dumps(e.to_json())
                line = game.describe(e)
                assert isinstance(line, str) and line
