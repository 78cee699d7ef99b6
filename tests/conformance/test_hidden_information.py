"""Views leak nothing, for every registered game and player count.

With the contract alone, "what a seat cannot see" is what `determinize(state, seat, rng)`
deals anew: it keeps everything `seat` sees and re-deals the rest (the other hands, the
order and content of face-down piles). So a view leaks nothing when it is the same for
the original and for any re-dealt state; the seat's choices, the spectator's view and
the game's own agents' decisions must not change either. That test means something only
if `determinize` re-deals something: a game that overrides the default (a copy) must
produce a different state at some sampled position. And the re-dealt state must be a
position of the game (it loads, and it plays on to an end), depending only on what the
seat sees and the random source (else a search that samples it would learn hidden cards).
"""

from __future__ import annotations

import random

import pytest

from tests.conformance.sampled import Case, plain_determinize, play_random, positions, redealt
from thermopylae.ai.base import make_agent
from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE

pytestmark = pytest.mark.usefixtures("toy_registered")


def test_a_view_is_the_same_whatever_the_seat_cannot_see(case: Case) -> None:
    rng = random.Random(case.players * 7)
    for played, _, s in positions(case):
        game = played.game
        original = game.state_to_json(s)
        to_act = game.to_act(s)
        spectator = game.view(s, None)
        for seat in range(case.players):
            seen = game.view(s, seat)
            t = game.determinize(s, seat, rng)
            assert game.state_to_json(s) == original, "determinize changed its state"
            assert game.view(t, seat) == seen, f"seat {seat} sees what was re-dealt"
            assert game.view(t, None) == spectator, "a spectator sees what was re-dealt"
            assert game.to_act(t) == to_act
            if to_act == seat:
                assert list(game.legal(t)) == list(game.legal(s)), "choices tell hidden cards"
            assert (game.outcome(t) is None) == (game.outcome(s) is None)


def test_a_game_with_its_own_determinize_re_deals_something(each_game: str) -> None:
    """Else the test above proves nothing: at some sampled position of some player count,
    the re-dealt state differs from the original. (A game on the default, a plain copy,
    says it has no hidden information.)"""
    game = registry.get(each_game)
    for s, t in redealt(each_game):
        if game.state_to_json(t) != game.state_to_json(s):
            return
    if plain_determinize(game):
        return  # a plain copy: nothing hidden
    raise AssertionError(f"{each_game}: determinize is overridden but never re-deals anything")


def test_a_redealt_state_is_a_position_that_plays_on(case: Case) -> None:
    rng = random.Random(case.players * 11)
    for played, _, s in positions(case)[::2]:
        game = played.game
        seat = rng.randrange(case.players)
        t = game.determinize(s, seat, rng)
        j = game.state_to_json(t)
        assert game.state_to_json(game.state_from_json(j)) == j, "not a loadable position"
        play_random(game, t, rng)
        assert game.outcome(t) is not None


def test_a_redealt_state_depends_only_on_what_the_seat_sees(case: Case) -> None:
    """Two states the seat cannot tell apart, re-dealt with the same random source, give
    the same state: a search that samples them learns nothing it could not see."""
    rng = random.Random(case.players * 13)
    for played, _, s in positions(case):
        game = played.game
        for seat in range(case.players):
            other = game.determinize(s, seat, rng)
            k = rng.randrange(2**32)
            a = game.determinize(s, seat, random.Random(k))
            b = game.determinize(other, seat, random.Random(k))
            assert game.state_to_json(a) == game.state_to_json(b), f"seat {seat}"


def test_the_games_own_agents_decide_on_what_their_seat_sees(case: Case) -> None:
    """The game's agents (its heuristic) choose the same action in a re-dealt state as in
    the original, given the same random source."""
    rng = random.Random(case.players * 17)
    for played, _, s in positions(case)[::3]:
        game = played.game
        seat = game.to_act(s)
        if seat is None or seat == CHANCE:
            continue
        t = game.determinize(s, seat, rng)
        for name in game.agents():
            agent = make_agent(name, game)
            k = rng.randrange(2**32)
            chosen = agent.act(game, game.copy(s), random.Random(k))
            assert chosen in game.legal(s), name
            assert agent.act(game, t, random.Random(k)) == chosen, f"{name} reads hidden cards"
