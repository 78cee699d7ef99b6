"""The games' observers (the contract's `observer(options)`) and the rule that the
learning interfaces know the games through the contract only."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.interop.conftest import ALL_CASES, GAME_IDS, case_id
from thermopylae.engine import registry
from thermopylae.engine.observation import Fields, StateObserver, histogram, onehot, scaled
from thermopylae.engine.protocol import CHANCE, GenericGame
from thermopylae.interop import observe

INTEROP = Path(__file__).parents[2] / "src" / "thermopylae" / "interop"


def _state_observer(
    case: tuple[str, dict[str, Any]],
) -> tuple[GenericGame, dict[str, Any], StateObserver, range]:
    """The case's game, its options, its observer read from the state (the test is skipped
    for a game that reads its observations from the view) and its seats."""
    game_id, options = case
    g = registry.get(game_id)
    opts = g.options(options)
    found = g.observer(opts)
    if not isinstance(found, StateObserver):
        pytest.skip(f"{game_id} reads its observations from the view only")
    return g, opts, found, range(len(g.seats(opts)))


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_observer_is_built_once_and_matches_its_layout(case: tuple[str, dict[str, Any]]) -> None:
    game_id, options = case
    g = registry.get(game_id)
    opts = g.options(options)
    found = g.observer(opts)
    assert found is not None
    assert g.observer(g.options(options)) is found  # cached per game and seat count
    assert found.size == sum(size for _, size, _ in found.layout())
    assert list(found.layout()) == observe.layout(g, opts)
    rng = random.Random(5)
    s = g.new(opts)
    for _ in range(60):
        who = g.to_act(s)
        if who is None:
            break
        view = g.view(s, 0)
        values = found.features(view)
        assert len(values) == found.size
        assert np.array_equal(observe.vector(found, view), observe.observe(g, opts, s, 0))
        legal = g.legal(s) if who != CHANCE else None
        g.apply(s, g.sample_chance(s, rng) if legal is None else rng.choice(list(legal)))


def test_building_blocks() -> None:
    assert onehot("b", "abc") == [0.0, 1.0, 0.0]
    assert onehot(None, [1, 2]) == [0.0, 0.0]  # absent: all zero
    assert histogram([1, 1, 3, 9], (1, 2, 3), scale=2) == [1.0, 0.0, 0.5]
    assert scaled(None, 10) == 0.0 and scaled(5, 10) == 0.5


def test_a_field_of_the_wrong_size_is_an_error() -> None:
    from thermopylae.engine.observation import Field

    fields = Fields("toy", [Field("x", 2, "two numbers", lambda v: [1.0])])
    with pytest.raises(AssertionError, match="toy field x: 1 != 2"):
        fields.features({})


def test_interop_knows_no_game() -> None:
    """No module of `thermopylae.interop` imports a game's package or names a game's id:
    everything game-specific comes through the contract (`observer`, `view`, `legal`...)."""
    ids = [re.escape(repr(game_id)[1:-1]) for game_id in GAME_IDS]
    named = re.compile(r"[\"'](" + "|".join(ids) + r")[\"']")
    for path in sorted(INTEROP.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "thermopylae.games" not in text, path.name
        code = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
        hits = [line for line in code if named.search(line)]
        # the Gymnasium environment's default game is the one exception: an argument's
        # default, not a branch
        hits = [line for line in hits if "game_id: str =" not in line]
        assert not hits, (path.name, hits)


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_state_features_are_the_views_features(case: tuple[str, dict[str, Any]]) -> None:
    """The fast path (`StateObserver.state_features`, reading the state) gives exactly
    the numbers of `features(view)` for every seat, at decisions, chance nodes and the
    end, over whole random games: it shows nothing the view hides."""
    g, opts, found, seats = _state_observer(case)
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        s = g.new(opts)
        while True:
            who = g.to_act(s)
            for seat in seats:
                expected = observe.vector(found, g.view(s, seat))
                got = found.state_features(s, seat, who)
                assert got.dtype == np.float32 and got.shape == (found.size,)
                assert np.array_equal(got, expected), (seed, seat, np.flatnonzero(got != expected))
                # not clipped again: within the bounds by themselves
                assert got.min() >= observe.LOW and got.max() <= observe.HIGH
                checked += 1
            if who is None:
                break
            legal = g.legal(s) if who != CHANCE else None
            g.apply(s, g.sample_chance(s, rng) if legal is None else rng.choice(list(legal)))
    assert checked > 100


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_cached_masks_are_the_plain_masks(case: tuple[str, dict[str, Any]]) -> None:
    """`Masks` (cached by the legal tuple's identity, by its actions' identities, by their
    codes) gives exactly `action_mask` and the sorted codes at every position of many
    random games, the caches reused from game to game."""
    game_id, options = case
    g = registry.get(game_id)
    opts = g.options(options)
    masks = observe.Masks(g)
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        s = g.new(opts)
        while (who := g.to_act(s)) is not None:
            if who == CHANCE:
                g.apply(s, g.sample_chance(s, rng))
                continue
            plain = observe.action_mask(g, s)
            assert np.array_equal(masks.mask(s), plain)
            assert masks.sorted_codes(g.legal(s)) == sorted(np.flatnonzero(plain).tolist())
            assert not masks.mask(s).flags.writeable
            legal = g.legal(s)
            g.apply(s, legal[int(rng.random() * len(legal))])
            checked += 1
    assert checked > 50


@pytest.mark.parametrize(("most_added", "seed", "steps"), [(1, 2, 600), (5, 4, 800)])
def test_pile_bytes_counts_every_pile_as_histogram(most_added: int, seed: int, steps: int) -> None:
    """`PileBytes` (a pile grown by a few items counted from the last row, others looked
    up or counted) gives `histogram`'s numbers for piles that grow (by one item, or by
    up to five at once: several cards put together), shrink, start again and alternate
    between games, with items outside the choices left out."""
    from thermopylae.engine.observation import PileBytes

    choices = (3, 5, 8)
    pile = PileBytes({c: i for i, c in enumerate(choices)}, len(choices), limit=4)
    rng = random.Random(seed)
    games: list[list[int]] = [[], []]
    for _ in range(steps):
        g = games[rng.random() < 0.2]  # mostly one game in order, sometimes the other
        r = rng.random()
        if r < 0.7:  # 9 is not counted
            g += [rng.choice((3, 5, 8, 9)) for _ in range(1 + int(rng.random() * most_added))]
        elif r < 0.8 and g:
            g.pop()
        elif r < 0.85:
            g.clear()
        row = np.frombuffer(pile(g), dtype=np.float32)
        assert row.tolist() == histogram(g, choices), g


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_observations_are_new_writable_arrays(case: tuple[str, dict[str, Any]]) -> None:
    """Each observation is an array of its own: writing into one changes neither the
    next nor the observer's caches."""
    game_id, options = case
    g = registry.get(game_id)
    opts = g.options(options)
    enc = observe.Encoder(g, opts)
    s = g.new(opts)
    first = enc.observation(s, 0)
    assert first.flags.writeable and first.dtype == np.float32
    kept = first.copy()
    first[:] = 7.0
    assert np.array_equal(enc.observation(s, 0), kept)


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_state_features_with_games_in_turn(case: tuple[str, dict[str, Any]]) -> None:
    """The observers keep what the last call saw (a map, a pile, the stock of pieces) and
    rows by content: with three games played in turn (as the vector environment plays
    them), every seat's `state_features` still gives the view's numbers."""
    g, opts, found, seats = _state_observer(case)
    rng = random.Random(11)
    games = [g.new(opts) for _ in range(3)]
    checked = 0
    while games:
        s = games[int(rng.random() * len(games))]
        who = g.to_act(s)
        seat = seats[int(rng.random() * len(seats))]
        got = found.state_features(s, seat, who)
        assert np.array_equal(got, observe.vector(found, g.view(s, seat)))
        checked += 1
        if who is None:
            games.remove(s)
            continue
        legal = g.legal(s) if who != CHANCE else None
        g.apply(s, g.sample_chance(s, rng) if legal is None else rng.choice(list(legal)))
    assert checked > 100


def test_tuples_are_kept_by_identity_while_they_are_found_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game that hands out a new tuple at every position is no longer looked up by the
    tuple's identity once a cache's worth of them were stored and few found again; one
    that hands the same tuples out again keeps it. The masks are right either way."""
    monkeypatch.setattr(observe, "CACHE_SIZE", 16)
    g = registry.get("thermopyles")
    actions = [g.decode(c) for c in range(g.num_actions)]

    def check(masks: observe.Masks, legal: tuple[Any, ...]) -> None:
        plain = np.zeros(g.num_actions, np.int8)
        plain[[g.encode(a) for a in legal]] = 1
        assert np.array_equal(masks.entry(legal)[1], plain)

    anew = observe.Masks(g)
    for i in range(40):
        check(anew, tuple(actions[i % 20 : i % 20 + 3]))  # a new tuple each time
    assert not anew._by_tuple
    again = observe.Masks(g)
    kept = tuple(actions[:2])
    for i in range(40):
        check(again, tuple(actions[i : i + 3]))
        check(again, kept)  # the same tuple, found by its identity
    assert again._by_tuple


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_masks_of_lists_made_anew(case: tuple[str, dict[str, Any]]) -> None:
    """`Masks` keys lists by their actions' identities: lists made anew from the same
    actions, and from actions decoded anew (other objects, dropped after each call, so
    their identities may be reused), give the plain mask, codes and decoding."""
    game_id, options = case
    g = registry.get(game_id)
    opts = g.options(options)
    masks = observe.Masks(g)
    rng = random.Random(3)
    checked = 0
    for _ in range(3):
        s = g.new(opts)
        while (who := g.to_act(s)) is not None:
            if who == CHANCE:
                g.apply(s, g.sample_chance(s, rng))
                continue
            plain = observe.action_mask(g, s)
            codes = sorted(np.flatnonzero(plain).tolist())
            legal = g.legal(s)
            for made in (list(legal), [g.decode(c) for c in codes], tuple(legal)):
                actions, mask, in_order = masks.entry(made)
                assert np.array_equal(mask, plain) and mask.dtype == np.int8
                assert sorted(in_order) == codes and len(actions) == len(codes)
                assert all(g.encode(actions[in_order.index(c)]) == c for c in codes)
            g.apply(s, legal[int(rng.random() * len(legal))])
            checked += 1
    assert checked > 50


def test_f32_rounds_as_numpy() -> None:
    """`f32` (packed by `struct`) gives the bytes of a NumPy float32 array of the same
    numbers: the scaled counts the observers use, and others."""
    from thermopylae.engine.observation import f32

    rng = random.Random(4)
    values = [rng.uniform(-100, 100) for _ in range(2000)]
    values += [k / scale for scale in (3, 4, 10, 16, 20, 24, 25, 28, 100) for k in range(1000)]
    values += [0.0, -0.0, 1e-40, 1 / 3, 0.1]
    assert f32(values) == np.array(values, dtype=np.float32).tobytes()
    assert f32([]) == b""


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_state_features_after_jumps_back(case: tuple[str, dict[str, Any]]) -> None:
    """The observers keep what the last call saw and compare the next state with it: a
    state older than the last one observed (a takeback, a replay's step back, a search
    going back to its root) is a jump like any other. Copies of a game's positions are
    observed in order, then out of order and mixed with the live state (whose lists
    change in place), every seat against the view's numbers."""
    g, opts, found, seats = _state_observer(case)
    rng = random.Random(5)
    s = g.new(opts)
    kept: list[Any] = []
    while (who := g.to_act(s)) is not None:
        kept.append(g.copy(s))
        legal = g.legal(s) if who != CHANCE else None
        g.apply(s, g.sample_chance(s, rng) if legal is None else rng.choice(list(legal)))

    def check(state: Any) -> None:
        who = g.to_act(state)
        for seat in seats:
            got = found.state_features(state, seat, who)
            assert np.array_equal(got, observe.vector(found, g.view(state, seat)))

    for state in kept:  # in order: the caches follow the game
        check(state)
    order = list(range(len(kept)))
    rng.shuffle(order)
    for i in order[:60]:  # back and forth, the live (final) state between
        check(kept[i])
        check(kept[max(0, i - 1)])
        check(s)


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_two_environments_stepped_in_turn(case: tuple[str, dict[str, Any]]) -> None:
    """Two PettingZoo environments of one game, each with an observer of its own (an
    observer keeps what its last call saw: `StateObserver.fresh`), stepped in turn:
    each one's observations are those of its own state (the view's numbers)."""
    pettingzoo = pytest.importorskip("thermopylae.interop.pettingzoo")
    game_id, options = case
    g = registry.get(game_id)
    opts = g.options(options)
    found = g.observer(opts)
    assert found is not None
    envs = [pettingzoo.env(game_id, **options) for _ in range(2)]
    assert envs[0].observer is not envs[1].observer
    for i, env in enumerate(envs):
        env.reset(seed=20 + i)
    rng = random.Random(3)
    checked = 0
    while checked < 300:
        for env in envs:
            if not env.agents:  # over: the next game (unseeded, as training goes on)
                env.reset()
            agent = env.agent_selection
            obs, _, term, trunc, _ = env.last()
            seat = env.possible_agents.index(agent)
            expected = observe.vector(found, g.view(env.state_, seat))
            assert np.array_equal(obs["observation"], expected), (checked, agent)
            checked += 1
            if term or trunc:
                env.step(None)
            else:
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[int(rng.random() * len(legal))]))
    assert checked > 100


def test_entries_kept_in_two_generations(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Masks` keeps its entries by identities in two generations: a full one becomes the
    old one (the one before is dropped) and an entry found in the old one is kept in the
    new one, the same entry; the masks and codes stay the plain ones across the swaps,
    for lists made anew and actions decoded anew (identities that may be reused)."""
    monkeypatch.setattr(observe, "CACHE_SIZE", 8)
    g = registry.get("thermopyles")
    actions = [g.decode(c) for c in range(g.num_actions)]
    masks = observe.Masks(g)
    sets = [[actions[i], actions[i + 1]] for i in range(12)]
    first = masks.entry(list(sets[0]))
    for legal in sets[1:9]:  # the ninth fills the generation: the first goes to the old
        masks.entry(list(legal))
    assert masks._by_ids and masks._old_ids
    assert masks.entry(list(sets[0])) is first  # found in the old generation, kept anew
    assert tuple(map(id, sets[0])) in masks._by_ids
    rng = random.Random(4)
    for _ in range(300):
        codes = sorted(rng.sample(range(g.num_actions), 3))
        made = [g.decode(c) for c in codes] if rng.random() < 0.5 else [actions[c] for c in codes]
        acts, mask, in_order = masks.entry(made)
        plain = np.zeros(g.num_actions, np.int8)
        plain[codes] = 1
        assert np.array_equal(mask, plain) and sorted(in_order) == codes
        assert [g.encode(a) for a in acts] == in_order


def test_earth_and_water_hands_while_hippias_shows_greece_hand() -> None:
    """Earth & Water's observer shows Greece's hand to Persia while Hippias lets Persia
    pick a card (`view.hand_visible`, written out in `state_features`), as the view does,
    and hides it otherwise: both seats at every such position of random games."""
    from thermopylae.engine.play import stepper
    from thermopylae.games.earth_and_water.cards import C_HIPPIAS
    from thermopylae.games.earth_and_water.state import CHOOSE

    g = registry.get("earth-and-water")
    opts = g.options({})
    found = g.observer(opts)
    assert isinstance(found, StateObserver)
    rng, pick = random.Random(5), random.Random(6).random
    step = stepper(g)
    checked = 0
    while checked < 20:
        s = g.new(opts)
        who = g.advance_chance(s, rng)
        while who is not None:
            if s.phase == CHOOSE and s.choice == C_HIPPIAS:
                for seat in (0, 1):
                    expected = observe.vector(found, g.view(s, seat))
                    assert np.array_equal(found.state_features(s, seat, who), expected)
                checked += 1
            legal = g.legal(s)
            who = step(s, legal[int(pick() * len(legal))], rng)


@pytest.mark.parametrize("players", [2, 4])
def test_thermopyles_open_hands(players: int) -> None:
    """Thermopyles with open hands: every seat's observation shows every hand, as the
    view does, at every decision of random games (the observer's other branch)."""
    from thermopylae.engine.play import stepper

    g = registry.get("thermopyles")
    opts = g.options({"players": players, "open_hands": True})
    found = g.observer(opts)
    assert isinstance(found, StateObserver)
    rng, pick = random.Random(7), random.Random(8).random
    step = stepper(g)
    checked = 0
    for _ in range(3):
        s = g.new(opts)
        who = g.advance_chance(s, rng)
        while who is not None:
            for seat in range(players):
                expected = observe.vector(found, g.view(s, seat))
                assert np.array_equal(found.state_features(s, seat, who), expected)
            checked += 1
            legal = g.legal(s)
            who = step(s, legal[int(pick() * len(legal))], rng)
    assert checked > 20
