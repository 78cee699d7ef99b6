"""Property tests for 300: The Board Game (`hot-gates`): invariants that must hold after
every step of many random games of 2, 3 and 4 players.

Each test plays whole games from a seed drawn by Hypothesis, with uniformly random agents
or "eager" ones (which rarely pass or stop, so that more cards, battles, conquests and
pull-backs happen), and checks the game through the public protocol after every step:
unit and card accounting, capacities, the battle lines, Glory and the Goat Path, the
legal-action contract, chance distributions, serialisation, notation, and that views and
events never leak hidden information. The cheap checks run on a thousand games; the
costly ones on fewer games or sampled nodes. Provisional numbers (unit values, chart,
dice, Goat Path, cards) are read from `game.components`, never written here.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from itertools import chain
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from thermopylae.ai.base import make_agent
from thermopylae.engine.errors import IllegalAction, NotationError
from thermopylae.engine.protocol import CHANCE, Event, visible_events
from thermopylae.games.hot_gates import game as hot_gates_game
from thermopylae.games.hot_gates.actions import Done, Draw, Enter, Move, Pass, Play, Roll
from thermopylae.games.hot_gates.state import PIECE

GAME = hot_gates_game()
C = GAME.components
TABLE = [GAME.decode(i) for i in range(GAME.num_actions)]

# The rulebook's units (seed 000, "Components"): 20 Spartans and 5 heroes; 12 Immortals,
# 12 Cavalry, 12 Infantry, 2 War Beasts and 4 Leaders (Xerxes, the Uber Immortal, 2
# Generals). These counts are printed, not provisional.
RULEBOOK_UNITS = {
    "spartan": 20,
    "leonidas": 1,
    "stelios": 1,
    "astinos": 1,
    "dilios": 1,
    "captain": 1,
    "immortal": 12,
    "cavalry": 12,
    "infantry": 12,
    "beast": 2,
    "xerxes": 1,
    "uber": 1,
    "general": 2,
}
SPARTANS, PERSIANS = 25, 42
CARDS = 52
UNIT_IDS = tuple(u.id for u in C.units)
SIDE = {u.id: u.side for u in C.units}
SIZE = {u.id: u.size for u in C.units}
LEADERS = frozenset(u.id for u in C.units if u.leader)
TYPE_SIDE = tuple(u.side for u in C.units)  # by type index (the state's piece codes)
TYPE_SIZE = tuple(u.size for u in C.units)
LEADER_TYPES = frozenset(i for i, u in enumerate(C.units) if u.leader)
CARD_BY_CODE = {c.code: c for c in C.cards}
SPACES = 6
GATES = 3  # spaces 4-6 of a row are the Hot Gates, 1-3 the Coastal Plain
CHANCE_OUTCOMES = (Draw, Roll)
PASSIVE = (Pass, Done)
# The longest of thousands of random games is under 600 steps; the Goat Path bounds a
# game to `length` rounds, and a round to a few hundred decisions.
MAX_STEPS = 3000

seeds = st.integers(min_value=0, max_value=2**32 - 1)
player_counts = st.sampled_from([2, 3, 4])
agent_names = st.sampled_from(["random", "random", "eager", "eager", "heuristic"])
SETTINGS: dict[str, Any] = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}

Step = Callable[[Any, int, Any, list[Event], Any], None]


class Eager:
    """Random, but prefers doing something (a card, a march, an advance) to passing or
    stopping: it reaches the rarer parts of the rules (cancels, conquests, pull-backs)."""

    name = "eager"

    def act(self, game: Any, state: Any, rng: random.Random) -> Any:
        legal = list(game.legal(state))
        active = [a for a in legal if not isinstance(a, PASSIVE)]
        if active and rng.random() < 0.9:
            return active[int(rng.random() * len(active))]
        return legal[int(rng.random() * len(legal))]


def agent(name: str) -> Any:
    return Eager() if name == "eager" else make_agent(name, GAME)


def seat_names(players: int) -> tuple[str, ...]:
    return tuple(GAME.seats(GAME.options({"players": players})))


def side_of(players: int, seat: int) -> str:
    return "persian" if seat_names(players)[seat].startswith("persia") else "spartan"


def play(
    seed: int,
    players: int,
    names: tuple[str, ...] | str = "random",
    on_step: Step | None = None,
    quiet: bool = False,
) -> Any:
    """One whole game; `on_step(before, seat, action, events, after)` after every step,
    `before` being a copy of the state the action was chosen in (None when no callback)."""
    game = GAME
    rng = random.Random(seed)
    if isinstance(names, str):
        names = (names,) * players
    agents = [agent(n) for n in names]
    s = game.new(game.options({"players": players}))
    steps = 0
    while (seat := game.to_act(s)) is not None:
        before = game.copy(s) if on_step is not None else None
        if seat == CHANCE:
            action = game.sample_chance(s, rng)
        else:
            action = agents[seat].act(game, s, rng)
            assert action in game.legal(s), f"{names[seat]} chose an illegal {action!r}"
        events = game.apply(s, action, quiet=quiet)
        steps += 1
        if on_step is not None:
            on_step(before, seat, action, events, s)
        assert steps <= MAX_STEPS, f"game still running after {steps} steps"
    assert game.outcome(s) is not None
    return s


# -- accounting read from the raw state (cheap) ----------------------------------------------


def raw_type_counts(s: Any) -> Counter[int]:
    """Units per type index, wherever they are (pieces are `type * 2 + wounded`, plus
    flags above `PIECE` on the board while a unit has marched)."""
    counts = Counter(
        map(
            PIECE_TYPE.__getitem__,
            chain(
                chain.from_iterable(s.board), s.camp, s.pool, s.dead, chain.from_iterable(s.boxes)
            ),
        )
    )
    counts.update(s.leaders)
    return counts


RULEBOOK_BY_TYPE = Counter({i: RULEBOOK_UNITS[tid] for i, tid in enumerate(UNIT_IDS)})
CAPACITY = (
    tuple(C.rules.coastal_capacity if k < GATES else C.rules.gates_capacity for k in range(SPACES))
    * 2
)
SPARTAN_TYPES = frozenset(i for i, side in enumerate(TYPE_SIDE) if side == "spartan")
CARDS_OF_SIDE = {
    side: frozenset(c.number for c in C.cards if c.side == side) for side in ("spartan", "persian")
}
# by piece code, with or without the flags of a march: type, size, Spartan or not
PIECE_TYPE = [(p & PIECE) >> 1 for p in range(8 * (PIECE + 1))]
PIECE_SIZE = [TYPE_SIZE[t] if t < len(TYPE_SIZE) else 99 for t in PIECE_TYPE]
PIECE_SPARTAN = [int(t in SPARTAN_TYPES) for t in PIECE_TYPE]
ALL_CARDS = list(range(CARDS))
DELAY_CARDS = sum(c.effect == "delay" for c in C.cards)


class Tracker:
    """What must carry over from one step to the next: Glory explained by the events,
    the Goat Path, the eliminated units (which never come back)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.seats = seat_names(players)
        self.sides = tuple(side_of(players, p) for p in range(players))
        self.glory = [0] * players
        self.eph = 0
        self.eph_move = 1
        self.dead: Counter[int] = Counter()
        self.dead_list: list[int] = []
        self.round = 1
        self.steps = 0
        self.draw_seen = False
        self.units: Any = None
        self.cards: Any = None
        self.leaders_out: Counter[str] = Counter()

    def step(self, seat: int, action: Any, events: list[Event], s: Any) -> None:
        self.steps += 1
        assert s.steps == self.steps
        # (the checks of the units and of the cards are skipped when none of what they
        # read changed since the last step, which passed them)
        units = (s.board, s.camp, s.pool, s.dead, s.boxes, s.leaders, s.kills)
        if units != self.units:
            self.units = (
                [sp[:] for sp in s.board],
                s.camp[:],
                s.pool[:],
                s.dead[:],
                [b[:] for b in s.boxes],
                s.leaders[:],
                s.kills[:],
            )
            # every unit accounted for, per side and per type
            assert GAME.t.count_units(s) == (SPARTANS, PERSIANS)
            assert raw_type_counts(s) == RULEBOOK_BY_TYPE
            # the board: capacity, one side a space, Persians in front of the Spartans
            board = s.board
            for base in (0, SPACES):
                last_persian, first_spartan = -1, SPACES
                for k in range(SPACES):
                    pieces = board[base + k]
                    if not pieces:
                        continue
                    assert sum(map(PIECE_SIZE.__getitem__, pieces)) <= CAPACITY[k], (base, k)
                    spartans = sum(map(PIECE_SPARTAN.__getitem__, pieces))
                    if spartans:
                        assert spartans == len(pieces), f"both sides in space {base + k}"
                        if k < first_spartan:
                            first_spartan = k
                    else:
                        last_persian = k
                assert last_persian < first_spartan, f"Persians behind the line ({base})"
            assert all(map(PIECE_SPARTAN.__getitem__, s.camp + s.pool))
            for box in s.boxes:
                assert box, "an empty Reinforcement Box is kept"
                assert not any(PIECE_SPARTAN[p] or p >> 1 in LEADER_TYPES for p in box)
            assert all(t in LEADER_TYPES for t in s.leaders)
            # eliminated Spartans and Leaders stay eliminated
            if s.dead != self.dead_list:
                dead = Counter(p >> 1 for p in s.dead)
                assert all(t in SPARTAN_TYPES or t in LEADER_TYPES for t in dead)
                assert not self.dead - dead, f"{self.dead - dead} came back from the dead"
                self.dead, self.dead_list = dead, list(s.dead)
            assert sum(s.kills) == sum(k for t, k in self.dead.items() if t in SPARTAN_TYPES)
        cards = (s.hands, s.decks, s.discards)
        if cards != self.cards:
            self.cards = tuple([h[:] for h in group] for group in cards)
            # the 52 Battle Cards, each in exactly one hand, deck or discard pile of its side
            hands, decks, discards = s.hands, s.decks, s.discards
            assert sorted(chain(*hands, *decks, *discards)) == ALL_CARDS
            for p, side in enumerate(self.sides):
                assert CARDS_OF_SIDE[side].issuperset(chain(hands[p], decks[p], discards[p]))
        # Glory changes only through "glory" events, and never falls below 0
        moves = 0
        for e in events:
            kind = e.kind
            if kind == "eliminated" and e.data["unit"] in LEADERS:
                self.leaders_out[e.data["unit"]] += 1
            elif kind == "glory":
                who = self.seats.index(e.data["seat"])
                assert self.sides[who] == "spartan"
                self.glory[who] = max(0, self.glory[who] + e.data["change"])
                assert e.data["glory"] == self.glory[who], e
            # the Goat Path: Ephialtes moves once a round, 1 space, more after hasten
            # cards, none at all after a delay card (whatever else is played), never back
            elif kind == "effect":
                card = CARD_BY_CODE[e.data["card"]]
                if card.effect == "delay":
                    self.eph_move = 0
                elif card.effect == "hasten" and self.eph_move > 0:  # a delay holds him
                    self.eph_move += card.amount
            elif kind == "ephialtes":
                moves += 1
                assert e.data["moved"] == self.eph_move, e
                assert e.data["length"] == C.goat_path
                self.eph = min(C.goat_path, self.eph + self.eph_move)
                assert e.data["space"] == self.eph
                self.eph_move = 1
        # an eliminated Leader leaves the game: it is among the eliminated for good
        if self.leaders_out:
            out = Counter(UNIT_IDS[p >> 1] for p in s.dead if p >> 1 in LEADER_TYPES)
            assert out == self.leaders_out, (out, self.leaders_out)
        assert s.glory == self.glory and min(s.glory) >= 0
        assert moves <= 1
        assert s.eph == self.eph and s.eph_move == self.eph_move
        assert 0 <= s.eph <= C.goat_path
        # rounds go up one at a time, each after its Ephialtes Phase
        assert s.round - self.round in (0, 1)
        if s.round > self.round:
            assert moves, "a round ended without the Ephialtes Phase"
        self.round = s.round
        # chance outcomes are taken by chance only, decisions by the seats only
        assert (seat == CHANCE) == isinstance(action, CHANCE_OUTCOMES), (seat, action)
        # events with an audience: only the card a seat drew, to that seat
        private = [e for e in events if e.to is not None]
        if isinstance(action, Draw):
            code = C.cards[action.card].code
            owner = next(p for p, h in enumerate(s.hands) if action.card in h)
            assert [(e.kind, e.to, e.data["card"], e.data["seat"]) for e in private] == [
                ("drew", owner, code, self.seats[owner])
            ]
            assert all(code not in e.data.values() for e in events if e.to is None)
            self.draw_seen = True
        else:
            assert private == [], (action, private)
        check_end(s, legal=False)


def check_end(s: Any, legal: bool = True) -> None:
    """An outcome exactly when nobody is to act, consistent with the position (`legal`:
    also ask for the legal actions, which the cheap test's players check themselves)."""
    game = GAME
    n = s.players
    to_act = game.to_act(s)
    outcome = game.outcome(s)
    assert (outcome is None) == (to_act is not None)
    if outcome is None:
        if to_act != CHANCE:
            assert to_act is not None and 0 <= to_act < n
            if legal:
                assert list(game.legal(s)), "a deciding seat with nothing legal"
                assert not game.chance(s)
        elif legal:
            assert game.chance(s) and not list(game.legal(s))
        return
    assert not list(game.legal(s)) and not game.chance(s)
    winners = [p for p in range(n) if outcome.results[p] == "win"]
    assert winners == s.winners, "a finished game with no winner"
    assert all(r in ("win", "loss") for r in outcome.results)
    assert outcome.scores == tuple(1.0 if r == "win" else 0.0 for r in outcome.results)
    assert outcome.reason and outcome.turns == s.round
    sides = {side_of(n, p) for p in winners}
    assert len(sides) == 1, "both sides win"
    if n == 2:
        assert len(winners) == 1
    spartans = [p for p in range(n) if side_of(n, p) == "spartan"]
    persians = [p for p in range(n) if side_of(n, p) == "persian"]
    if sides == {"spartan"}:
        best = max(s.glory[p] for p in spartans)
        need = C.rules.win_glory_2p if n == 2 else C.rules.win_glory_team
        assert best >= need, (s.glory, outcome)
        assert winners == [p for p in spartans if s.glory[p] == best]
    else:
        best = max(s.kills[p] for p in persians)
        assert winners == [p for p in persians if s.kills[p] == best]
        assert ending(s) in ("goat path", "breach", "wipe-out"), outcome
    with pytest.raises(IllegalAction):
        game.apply(game.copy(s), game.parse("pass"))


def ending(s: Any) -> str:
    """How a finished game ended, read from the position."""
    if side_of(s.players, s.winners[0]) == "spartan":
        return "glory"
    if not (s.camp or s.pool) and not any(
        sp and (sp[0] & PIECE) >> 1 in SPARTAN_TYPES for sp in s.board
    ):
        return "wipe-out"
    if s.eph == C.goat_path:
        return "goat path"
    return "breach" if s.breach else "?"


# -- hundreds of games, cheap checks ---------------------------------------------------------


def test_hundreds_of_games_keep_the_cheap_invariants() -> None:
    """402 whole games (2, 3 and 4 players; random, eager and mixed seats), every
    step checked for units, cards, the board, Glory, the Goat Path, events and the end;
    the games end well within the step limit, in every way the rules allow."""
    rng = random.Random(300)
    ends: Counter[tuple[int, str]] = Counter()
    longest = 0
    for i in range(402):
        players = (2, 3, 4)[i % 3]
        eager = tuple(rng.random() < 0.5 for _ in range(players))
        s = _play_fast(rng.randrange(2**32), players, eager, Tracker(players))
        longest = max(longest, s.steps)
        ends[players, ending(s)] += 1
        # Ephialtes moves every round but those held by a delay card (each played once)
        assert s.round <= C.goat_path + DELAY_CARDS
    for n in (2, 3, 4):
        assert ends[n, "goat path"] and ends[n, "glory"], ends
    assert sum(k for (_, how), k in ends.items() if how == "breach"), ends
    assert not sum(k for (_, how), k in ends.items() if how == "?"), ends
    assert longest < MAX_STEPS // 3


def _play_fast(seed: int, players: int, eager: tuple[bool, ...], tracker: Tracker) -> Any:
    """`play` without the copies and with the players inlined (random, or eager: a card,
    a march or an advance rather than pass or done, nine times in ten)."""
    game = GAME
    rng = random.Random(seed)
    s = game.new(game.options({"players": players}))
    while (seat := game.to_act(s)) is not None:
        if seat == CHANCE:
            action = game.sample_chance(s, rng)
        else:
            legal = game.legal(s)
            assert legal, "a deciding seat with nothing legal"
            if eager[seat] and rng.random() < 0.9:
                legal = [a for a in legal if not isinstance(a, PASSIVE)] or legal
            action = legal[int(rng.random() * len(legal))]
        events = game.apply(s, action)
        tracker.step(seat, action, events, s)
        assert s.steps <= MAX_STEPS
    assert tracker.draw_seen
    return s


# -- the richer checks, through the position JSON and the views ---------------------------


def check_json(j: dict[str, Any], players: int) -> None:
    """The same accounting, read independently from the position file's unit names."""

    def unit_id(word: str) -> str:
        return word.rstrip("+").rstrip("*")

    counts: Counter[str] = Counter()
    for space, words in j["board"].items():
        ids = [unit_id(w) for w in words]
        counts.update(ids)
        cap = C.rules.coastal_capacity if int(space[1]) <= GATES else C.rules.gates_capacity
        assert sum(SIZE[u] for u in ids) <= cap, (space, words)
        assert len({SIDE[u] for u in ids}) <= 1, (space, words)
    for key in ("spartan_camp", "eliminated", "pulled_back", "persian_camp"):
        counts.update(unit_id(w) for w in j[key])
    for box in j["boxes"]:
        counts.update(unit_id(w) for w in box)
        assert box and not LEADERS & {unit_id(w) for w in box}
    assert dict(counts) == RULEBOOK_UNITS
    assert sum(k for u, k in counts.items() if SIDE[u] == "spartan") == SPARTANS
    assert sum(k for u, k in counts.items() if SIDE[u] == "persian") == PERSIANS
    assert set(j["persian_camp"]) <= LEADERS
    assert {SIDE[unit_id(w)] for w in j["spartan_camp"] + j["pulled_back"]} <= {"spartan"}
    for row in "AB":
        persian = [
            k
            for k in range(1, 7)
            if j["board"][f"{row}{k}"] and SIDE[unit_id(j["board"][f"{row}{k}"][0])] == "persian"
        ]
        spartan = [
            k
            for k in range(1, 7)
            if j["board"][f"{row}{k}"] and SIDE[unit_id(j["board"][f"{row}{k}"][0])] == "spartan"
        ]
        if persian and spartan:
            assert max(persian) < min(spartan), (row, j["board"])
    codes = [c for key in ("hands", "decks", "discards") for h in j[key] for c in h]
    assert sorted(codes) == sorted(CARD_BY_CODE) and len(codes) == CARDS
    assert len(j["hands"]) == len(j["decks"]) == len(j["discards"]) == players
    assert min(j["glory"]) >= 0 and 0 <= j["ephialtes"] <= C.goat_path


def check_view(v: dict[str, Any], j: dict[str, Any], seat: int | None) -> None:
    """A view agrees with the position on everything public and shows only its seat's
    hand."""
    n = j["players"]
    seats = seat_names(n)
    assert v["game"] == "hot-gates" and v["players"] == n and v["seats"] == list(seats)
    assert v["seat"] == (None if seat is None else seats[seat])
    assert v["provisional"] == GAME.provisional
    counts: Counter[str] = Counter()
    for space in v["board"]:
        ids = [u["unit"] for u in space["units"]]
        counts.update(ids)
        assert space["load"] == sum(SIZE[u] for u in ids) <= space["capacity"]
        cap = (
            C.rules.coastal_capacity if int(space["space"][1]) <= GATES else C.rules.gates_capacity
        )
        assert space["capacity"] == cap
        assert sorted(ids) == sorted(w.rstrip("+").rstrip("*") for w in j["board"][space["space"]])
    for key in ("spartan_camp", "eliminated", "pulled_back", "persian_camp"):
        counts.update(u["unit"] for u in v[key])
    for box in v["boxes"]:
        counts.update(u["unit"] for u in box)
    assert dict(counts) == RULEBOOK_UNITS
    for p, h in enumerate(v["hands"]):
        assert h["seat"] == seats[p] and h["count"] == len(j["hands"][p])
        if p == seat:
            assert [c["code"] for c in h["cards"]] == j["hands"][p]
        else:
            assert h["cards"] is None, f"{v['seat']} sees the hand of {seats[p]}"
    assert v["decks"] == {seats[p]: len(d) for p, d in enumerate(j["decks"])}
    assert {k: [c["code"] for c in d] for k, d in v["discards"].items()} == {
        seats[p]: d for p, d in enumerate(j["discards"])
    }  # discards are face up
    assert v["goat_path"]["space"] == j["ephialtes"]
    assert v["goat_path"]["length"] == C.goat_path
    assert GAME.render(v)
    json.dumps(v)


@settings(max_examples=12, **SETTINGS)
@given(seed=seeds, players=player_counts, names=st.lists(agent_names, min_size=4, max_size=4))
def test_every_step_through_the_position_and_the_views(
    seed: int, players: int, names: list[str]
) -> None:
    """After every step: the cheap invariants, the position JSON's own accounting, the
    position check the loader runs, every seat's view and the chance distributions."""
    from thermopylae.games.hot_gates.serial import check

    game = GAME
    tracker = Tracker(players)
    rng = random.Random(seed ^ 0xC4A)
    first = game.new(game.options({"players": players}))
    j0 = game.state_to_json(first)
    assert game.to_act(first) == CHANCE and j0["round"] == 1
    assert all(h == [] for h in j0["hands"]) and j0["glory"] == [0] * players

    def on_step(before: Any, seat: int, action: Any, events: list[Event], s: Any) -> None:
        tracker.step(seat, action, events, s)
        if before is not None and seat == CHANCE:
            # the outcome drawn was one of those listed for the state it was drawn in
            assert action in {a for a, _ in game.chance(before)}
        j = game.state_to_json(s)
        check_json(j, players)
        check(s, game.t, game)  # the loader's own check (raises RecordError)
        for who in (None, *range(players)):
            check_view(game.view(s, who), j, who)
        for e in events:
            json.dumps(e.to_json())
            assert game.describe(e)
        for who in (None, *range(players)):
            visible = visible_events(events, who)
            assert all(e.to is None or e.to == who for e in visible)
        if game.to_act(s) == CHANCE:
            dist = game.chance(s)
            support = [a for a, _ in dist]
            assert dist and len(set(support)) == len(support)
            assert all(p > 0 for _, p in dist)
            assert abs(sum(p for _, p in dist) - 1.0) < 1e-9
            if j["draws"]:
                deck = Counter(j["decks"][j["draws"][0]])
                assert {game.format(a): p for a, p in dist} == pytest.approx(
                    {f"draw {c}": k / sum(deck.values()) for c, k in deck.items()}
                )
            else:
                faces = Counter(C.faces)
                assert {game.format(a): p for a, p in dist} == pytest.approx(
                    {f"roll {f}": k / len(C.faces) for f, k in faces.items()}
                )
            for _ in range(3):
                assert game.sample_chance(s, rng) in support

    play(seed, players, tuple(names[:players]), on_step)


# -- legal equals what apply accepts ----------------------------------------------------


def check_legal_contract(s: Any, rng: random.Random, illegal: int = 6) -> None:
    """Every legal action (or chance outcome) applies on a copy; a sample of the other
    actions of the table is refused in place, with IllegalAction and no change."""
    game = GAME
    to_act = game.to_act(s)
    if to_act is None:
        expected: set[Any] = set()
    elif to_act == CHANCE:
        expected = {a for a, _ in game.chance(s)}
    else:
        expected = set(game.legal(s))
        assert expected and len(expected) == len(list(game.legal(s)))
    for a in expected:
        game.apply(game.copy(s), a, quiet=True)  # must not raise
    original = game.state_to_json(s)
    others = [a for a in TABLE if a not in expected]
    for a in rng.sample(others, min(illegal, len(others))):
        with pytest.raises(IllegalAction):
            game.apply(s, a)
        assert game.state_to_json(s) == original, f"a refused {a!r} changed the state"
    # actions of the table's form but out of any game's range are refused too
    for bad in (Move(0, 11, 0), Enter(12, 0), Play(52), Roll(99)):
        with pytest.raises(IllegalAction):
            game.apply(s, bad)
        assert game.state_to_json(s) == original
    with pytest.raises(IllegalAction):
        game.apply(s, "pass")  # type: ignore[arg-type]  # not an action at all
    assert game.state_to_json(s) == original


def accepted_actions(s: Any) -> set[Any]:
    """Every action of the table that `apply` accepts at `s` (each tried on a copy)."""
    game = GAME
    accepted = set()
    original = game.state_to_json(s)
    refused = game.copy(s)  # refusals change nothing, so they can share one copy
    for a in TABLE:
        try:
            game.apply(refused, a, quiet=True)
        except IllegalAction:
            continue
        accepted.add(a)
        refused = game.copy(s)
    assert game.state_to_json(refused) == original
    return accepted


@settings(max_examples=10, **SETTINGS)
@given(seed=seeds, players=player_counts, eager=st.booleans())
def test_legal_actions_are_accepted_and_others_refused(
    seed: int, players: int, eager: bool
) -> None:
    """At every node of whole games: the legal actions apply, sampled others are refused
    without a trace; at about one node in 60, the whole table is tried."""
    rng = random.Random(seed ^ 0x1E6)
    full = [0]

    def on_step(before: Any, seat: int, action: Any, events: list[Event], s: Any) -> None:
        check_legal_contract(s, rng)
        if rng.random() < 1 / 60:
            full[0] += 1
            to_act = GAME.to_act(s)
            expected = (
                set()
                if to_act is None
                else {a for a, _ in GAME.chance(s)}
                if to_act == CHANCE
                else set(GAME.legal(s))
            )
            assert accepted_actions(s) == expected

    play(seed, players, "eager" if eager else "random", on_step)


def test_whole_table_at_every_kind_of_decision() -> None:
    """The whole action table tried at the first node of each phase (march, window,
    casualty, conquer, pull-back, return, deal) met in eager games."""
    game = GAME
    seen: set[str] = set()
    for seed in range(12):

        def on_step(before: Any, seat: int, action: Any, events: list[Event], s: Any) -> None:
            phase = game.phase_name(s) if game.to_act(s) is not None else "over"
            if phase not in seen:
                seen.add(phase)
                to_act = game.to_act(s)
                expected = (
                    set()
                    if to_act is None
                    else {a for a, _ in game.chance(s)}
                    if to_act == CHANCE
                    else set(game.legal(s))
                )
                assert accepted_actions(s) == expected, phase

        play(seed, (2, 3, 4)[seed % 3], "eager", on_step)
    assert {"march", "casualty", "conquer", "deal", "over"} <= seen, seen
    assert any(p.endswith(" cards") for p in seen), seen


# -- serialisation and notation ---------------------------------------------------------


def test_whole_action_table_round_trips() -> None:
    game = GAME
    assert game.num_actions == len(set(TABLE))
    for i, a in enumerate(TABLE):
        assert game.encode(a) == i
        assert game.decode(i) == a
        assert game.parse(game.format(a)) == a
    for bad in (-1, game.num_actions):
        with pytest.raises(NotationError):
            game.decode(bad)
    with pytest.raises(NotationError):
        game.encode(Move(0, 11, 0))  # of an action type, but no action of the table
    # every card and every die face has its actions
    formats = {game.format(a) for a in TABLE}
    for c in C.cards:
        assert f"play {c.code}" in formats and f"draw {c.code}" in formats
    for f in set(C.faces):
        assert f"roll {f}" in formats


@pytest.mark.parametrize(
    "text",
    [
        "move A3-A5 immortal",
        "move A3-B4 immortal",
        "move A3-A4 hoplite",
        "enter C1 spartan",
        "enter A7 beast",
        "play s27",
        "play p0",
        "draw q1",
        "roll x",
        "roll -1",
        f"roll {max(C.faces) + 1}",
        "casualty",
        "casualty ephialtes",
        "advance",
        "",
    ],
)
def test_bad_notation_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        GAME.parse(text)


# -- hidden information -----------------------------------------------------------------


def swapped(s: Any, owner: int, hand_card: int, deck_card: int) -> Any:
    """`s` with a card of `owner`'s hand exchanged for one of `owner`'s deck: the same
    counts, a position that still loads."""
    t = GAME.copy(s)
    t.hands[owner] = sorted([*(c for c in t.hands[owner] if c != hand_card), deck_card])
    t.decks[owner] = sorted([*(c for c in t.decks[owner] if c != deck_card), hand_card])
    GAME.state_from_json(GAME.state_to_json(t))
    return t


def check_views_leak_nothing(s: Any, rng: random.Random) -> int:
    """Two states differing only in one seat's hand and deck look the same to every other
    seat (and a spectator), which also get the same choices; returns the pairs made."""
    game = GAME
    n = s.players
    views = {who: game.view(s, who) for who in (None, *range(n))}
    to_act = game.to_act(s)
    # the order of a deck is never stored, let alone seen
    t = game.copy(s)
    for d in t.decks:
        rng.shuffle(d)
    for who, v in views.items():
        assert game.view(t, who) == v
    made = 0
    for owner in range(n):
        pairs = [(x, y) for x in s.hands[owner] for y in set(s.decks[owner]) if x != y]
        if not pairs:
            continue
        t = swapped(s, owner, *rng.choice(pairs))
        made += 1
        for who, v in views.items():
            if who == owner:
                assert game.view(t, who) != v  # the test can tell the two states apart
            else:
                assert game.view(t, who) == v, (
                    f"{seat_names(n)[who] if who is not None else 'a spectator'} can tell "
                    f"the hand of {seat_names(n)[owner]} ({game.phase_name(s)})"
                )
                if to_act == who:
                    assert list(game.legal(t)) == list(game.legal(s))
    return made


@settings(max_examples=8, **SETTINGS)
@given(seed=seeds, players=player_counts, eager=st.booleans())
def test_views_leak_nothing(seed: int, players: int, eager: bool) -> None:
    rng = random.Random(seed ^ 0x5EED)
    made = [0]

    def on_step(before: Any, seat: int, action: Any, events: list[Event], s: Any) -> None:
        if rng.random() < 0.3:
            made[0] += check_views_leak_nothing(s, rng)

    play(seed, players, "eager" if eager else "random", on_step)
    assert made[0] > 0


def test_a_seat_sees_its_own_draws_only() -> None:
    """Through `visible_events`: every seat's log names the cards it drew and no other;
    a spectator's log names none. Played cards are public."""
    for players in (2, 3, 4):
        logs: dict[int | None, list[Event]] = {who: [] for who in (None, *range(players))}
        drawn: dict[int, list[str]] = {p: [] for p in range(players)}

        def on_step(
            before: Any,
            seat: int,
            action: Any,
            events: list[Event],
            s: Any,
            logs: dict[int | None, list[Event]] = logs,
            drawn: dict[int, list[str]] = drawn,
        ) -> None:
            if isinstance(action, Draw):
                owner = before.draws[0]
                drawn[owner].append(C.cards[action.card].code)
            for who in logs:
                logs[who] += visible_events(events, who)

        play(players, players, "eager", on_step)
        for who, log in logs.items():
            seen = [e.data["card"] for e in log if e.kind == "drew"]
            assert seen == ([] if who is None else drawn[who])
        assert len(logs[None]) == len([e for e in logs[0] if e.to is None])
        played = [e for e in logs[None] if e.kind == "play"]
        assert played, "eager players play cards"
