"""Solo, `determinize` takes the draws a shuffle of the deck would take without shuffling
(the deck comes out sorted whatever the order): the same state and the random source
left where `engine.shuffle.shuffle` of the pool leaves it, so the searches' decisions
do not change (issue 21). With others at the table, it deals as the plain deal does."""

from __future__ import annotations

import random

from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE
from thermopylae.engine.shuffle import shuffle
from thermopylae.games.thermopyles.state import State


def test_solo_determinize_takes_the_shuffles_draws() -> None:
    game = registry.get("thermopyles")
    rng = random.Random(7)
    checked = 0
    for _ in range(20):
        s = game.new(game.options({"players": 1}))
        while (seat := game.to_act(s)) is not None:
            if seat == CHANCE:
                game.apply(s, game.sample_chance(s, rng), quiet=True)
                continue
            seed = rng.getrandbits(32)
            mine, theirs = random.Random(seed), random.Random(seed)
            d = game.determinize(s, 0, mine)
            pool = sorted(s.sdeck)
            shuffle(pool, theirs)
            assert d.sdeck == sorted(pool)
            assert [getattr(d, f) for f in State.__slots__ if f != "sdeck"] == [
                getattr(s, f) for f in State.__slots__ if f != "sdeck"
            ]
            assert mine.getstate() == theirs.getstate()
            checked += 1
            acts = game.legal(s)
            game.apply(s, acts[int(rng.random() * len(acts))], quiet=True)
    assert checked > 100


def _plain_deal(s: State, seat: int, rng: random.Random) -> State:
    """The deal written plainly: a full copy, the other hands and the deck pooled,
    shuffled, and dealt back from the front in seat order."""
    d = s.copy()
    others = [p for p in range(s.players) if p != seat]
    pool = sorted([c for p in others for c in s.hands[p]] + s.sdeck)
    shuffle(pool, rng)
    for p in others:
        n = len(s.hands[p])
        d.hands[p] = sorted(pool[:n])
        del pool[:n]
    d.sdeck = sorted(pool)
    return d


def test_determinize_with_others_deals_as_the_plain_deal() -> None:
    """With 2-4 players `determinize` copies only what it keeps (`State.dealt`): the same
    state as the plain deal, the random source left in the same place, and no list
    shared with the position dealt from."""
    game = registry.get("thermopyles")
    rng = random.Random(11)
    checked = 0
    for players in (2, 3, 4):
        for _ in range(8):
            s = game.new(game.options({"players": players}))
            while (seat := game.to_act(s)) is not None:
                if seat == CHANCE:
                    game.apply(s, game.sample_chance(s, rng), quiet=True)
                    continue
                seed = rng.getrandbits(32)
                mine, theirs = random.Random(seed), random.Random(seed)
                d = game.determinize(s, seat, mine)
                plain = _plain_deal(s, seat, theirs)
                assert [getattr(d, f) for f in State.__slots__] == [
                    getattr(plain, f) for f in State.__slots__
                ]
                assert mine.getstate() == theirs.getstate()
                for f in State.__slots__:
                    value = getattr(d, f)
                    if isinstance(value, list):
                        assert value is not getattr(s, f), f
                assert all(h is not g for h in d.hands for g in s.hands)
                checked += 1
                acts = game.legal(s)
                game.apply(s, acts[int(rng.random() * len(acts))], quiet=True)
    assert checked > 300


def test_dealt_and_copy_copy_every_field() -> None:
    """`dealt` takes the hands and deck it is given and copies every other field of the
    state (`copy` is `dealt` with copies of the state's own): no list shared."""
    game = registry.get("thermopyles")
    s = game.new(game.options({"players": 3}))
    s.turn, s.marker, s.reason, s.dice = 5, 2, "why", [3, 4]
    hands, deck = [[10], [11], [12]], [13, 14]
    d, c = s.dealt(hands, deck), s.copy()
    assert d.hands is hands and d.sdeck is deck
    assert c.hands == s.hands and c.sdeck == s.sdeck and c.sdeck is not s.sdeck
    assert all(a is not b for a, b in zip(c.hands, s.hands, strict=True))
    for f in State.__slots__:
        for made in (d, c) if f not in ("hands", "sdeck") else (c,):
            assert getattr(made, f) == getattr(s, f), f
            if isinstance(getattr(s, f), list):
                assert getattr(made, f) is not getattr(s, f), f
