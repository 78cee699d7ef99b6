"""The observations of the Board Game for learning interfaces: the layout of one seat's view
as fixed-size numbers (docs/rl.md lists every field), built from `view` only.

`observer(game, players)` is what `HotGates.observer(options)` returns; it is built once
per game and player count (the layout depends on nothing else).

`state_features` gives the same numbers from the state directly (the learning interfaces'
fast path, `engine.observation.StateObserver`): it reads only what `view.view` shows the
seat (the other seats' hands and every deck by their size alone; the battle through the
view's own `_battle`), and the tests hold it to equality with `features(view)`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from thermopylae.engine.observation import Counts, Field, Fields, Obs, histogram, onehot, scaled
from thermopylae.engine.protocol import CHANCE, JSON
from thermopylae.games.hot_gates import view
from thermopylae.games.hot_gates.board import SEATS, SIDE_NAMES, persian_seats, spartan_seats
from thermopylae.games.hot_gates.components import TYPE_IDS
from thermopylae.games.hot_gates.state import (
    PHASES,
    PIECE,
    SPACES,
    WINDOWS,
    WOUNDED,
    State,
    phase_name,
)

if TYPE_CHECKING:
    from thermopylae.games.hot_gates.rules import HotGates


def _battle(b: JSON | None) -> list[float]:
    """The `battle` field of the view's battle (`view._battle`)."""
    if not b:
        return [0.0] * 12
    if b.get("pull_back"):
        return [0.0, 1.0, *onehot(b["row"], "AB"), *[0.0] * 8]
    left = b["damage_left"] or {}
    conquer = b["conquer"] or {}
    return [
        1.0,
        0.0,
        *onehot(b["row"], "AB"),
        float(b["narrow_entrance"]),
        b["attack"]["persian"] / 20,
        b["attack"]["spartan"] / 20,
        sum(b["dice"]["persian"]) / 30,
        sum(b["dice"]["spartan"]) / 30,
        scaled(left.get("persian"), 10),
        scaled(left.get("spartan"), 10),
        *onehot(conquer.get("side"), ["persian"]),
    ]


def _phases() -> list[str]:
    """The `phase` field's names, in order."""
    return [p for p in PHASES if p != "window"] + [f"{w} cards" for w in WINDOWS]


def _fields(game: HotGates, n: int) -> list[Field]:
    """The fields of a table of `n` seats (`board.SEATS[n]`), in order."""
    seats = list(SEATS[n])
    phases = _phases()
    types = tuple(TYPE_IDS)
    codes = tuple(sorted({c.code for c in game.cards}))
    nt = len(types)

    def units(us: Sequence[JSON]) -> list[float]:
        return histogram([u["unit"] for u in us], types)

    def board(v: JSON) -> list[float]:
        out: list[float] = []
        for sp in v["board"]:
            us = sp["units"]
            out += [
                sp["load"] / max(1, sp["capacity"]),
                *onehot(sp["side"], ["persian", "spartan"]),
                sp["moved"] / 6,
                sp["bonus"] / 12,
                float(sp["persians_entered"]),
            ]
            out += units(us) + histogram([u["unit"] for u in us if u["wounded"]], types)
        return out

    def hands(v: JSON) -> list[float]:
        out: list[float] = []
        for h in v["hands"]:
            out += [h["count"] / 10, *histogram([c["code"] for c in h["cards"] or []], codes)]
        return out

    def discards(v: JSON) -> list[float]:
        out: list[float] = []
        for s in seats:
            out += histogram([c["code"] for c in v["discards"][s]], codes)
        return out

    def window(v: JSON) -> list[float]:
        w = v["window"]
        if not w:
            return [0.0] * (1 + len(codes))
        return [
            1.0,
            *histogram([e["card"]["code"] for e in w["played"] if not e["cancelled"]], codes),
        ]

    def battle(v: JSON) -> list[float]:
        return _battle(v["battle"])

    return [
        Field(
            "seat",
            n,
            f"one-hot: the observing seat ({', '.join(seats)})",
            lambda v: onehot(v["seat"], seats),
        ),
        Field(
            "phase",
            len(phases),
            f"one-hot: phase ({', '.join(phases)})",
            lambda v: onehot(v["phase"], phases),
        ),
        Field(
            "to_act",
            n + 1,
            "one-hot: the seat to act, then chance (all 0: over)",
            lambda v: onehot(v["to_act"], [*seats, "chance"]),
        ),
        Field("round", 1, "round / 10", lambda v: [v["round"] / 10]),
        Field(
            "goat_path",
            2,
            "Goat Path space / length, moves this round",
            lambda v: [
                v["goat_path"]["space"] / v["goat_path"]["length"],
                float(v["goat_path"]["moves_this_round"]),
            ],
        ),
        Field(
            "glory",
            n,
            "per seat: Glory / win Glory (0 for Persian seats)",
            lambda v: [v["glory"].get(s, 0) / v["win_glory"] for s in seats],
        ),
        Field(
            "kills",
            n,
            "per seat: kills / 20 (0 for Spartan seats)",
            lambda v: [v["kills"].get(s, 0) / 20 for s in seats],
        ),
        Field(
            "board",
            2 * SPACES * (6 + 2 * nt),
            "per space A1..A6, B1..B6: load/capacity, "
            "side (persian, spartan), moved/6, bonus/12, Persians entered, then counts of "
            f"units by type {types}, then counts of wounded units by type",
            board,
        ),
        Field(
            "spartan_camp",
            nt,
            "units in the Spartan camp by type",
            lambda v: units(v["spartan_camp"]),
        ),
        Field(
            "boxes",
            nt,
            "units in the boxes by type",
            lambda v: units([u for box in v["boxes"] for u in box]),
        ),
        Field(
            "persian_camp",
            nt,
            "units in the Persian camp by type",
            lambda v: units(v["persian_camp"]),
        ),
        Field("eliminated", nt, "eliminated units by type", lambda v: units(v["eliminated"])),
        Field("pulled_back", nt, "pulled-back units by type", lambda v: units(v["pulled_back"])),
        Field("breach", 1, "the Persians broke through", lambda v: [float(bool(v["breach"]))]),
        Field(
            "hands",
            n * (1 + len(codes)),
            f"per seat: hand size / 10, then counts of "
            f"visible cards by code ({len(codes)} codes, sorted; 0 for hidden hands)",
            hands,
        ),
        Field(
            "decks", n, "per seat: deck size / 26", lambda v: [v["decks"][s] / 26 for s in seats]
        ),
        Field("discards", n * len(codes), "per seat: discarded cards by code", discards),
        Field(
            "window",
            1 + len(codes),
            "card window open, cards played (not cancelled) by code",
            window,
        ),
        Field(
            "extra_marches",
            n,
            "per seat: extra marches",
            lambda v: [float(v["extra_marches"].get(s, 0)) for s in seats],
        ),
        Field(
            "battle",
            12,
            "battle: under way, pull-back, row (A, B), narrow entrance, "
            "attack persian, spartan /20, dice sums persian, spartan /30, damage left "
            "persian, spartan /10, conquering side is Persian",
            battle,
        ),
        Field(
            "result",
            n,
            "per seat: winner (all 0: not over)",
            lambda v: [float(s in (v["result"] or {}).get("winners", [])) for s in seats],
        ),
    ]


ROW_CACHE = 20_000
"""Spaces' contents an observer keeps the numbers of (emptied when full)."""


class HotGatesObserver(Fields):
    """The observation layout of the Board Game for one player count."""

    def __init__(self, game: HotGates, players: int) -> None:
        super().__init__(game.id, _fields(game, players))
        self._t = game.t
        self._n = players
        self._phase = {name: i for i, name in enumerate(_phases())}
        self._nt = len(TYPE_IDS)
        codes = tuple(sorted({c.code for c in game.cards}))
        self._ncodes = len(codes)
        place = {code: i for i, code in enumerate(codes)}
        # a card's number -> the place of its code
        self._code = [place[c.code] for c in game.t.c.cards]
        self._cards = Counts(dict(enumerate(self._code)), len(codes))
        nt = len(TYPE_IDS)
        # a piece (type * 2 + wounded) -> its type's place
        self._units = Counts({p: p >> 1 for p in range(2 * nt)}, nt)
        c = game.t.c
        self._spartans = spartan_seats(players)
        self._persians = persian_seats(players)
        self._win_glory = c.rules.win_glory_2p if players == 2 else c.rules.win_glory_team
        self._path = c.goat_path
        sides = ["persian", "spartan"]
        self._side = [sides.index(name) if name in sides else -1 for name in SIDE_NAMES]
        # (space, its pieces) -> that space's part of `board` without bonus and entry:
        # the board changes a few spaces at a time
        self._rows: dict[tuple[int, tuple[int, ...]], Obs] = {}

    def _row(self, sp: int, raw: list[int]) -> Obs:
        """A space's part of `board` from its pieces (bonus and entry left 0)."""
        t, nt = self._t, self._nt
        row = np.zeros(6 + 2 * nt, dtype=np.float32)
        pieces = [p & PIECE for p in raw]
        row[0] = t.load(pieces) / max(1, t.capacity[sp])
        k = self._side[t.side[pieces[0]]]
        if k >= 0:
            row[1 + k] = 1.0
        row[3] = sum(1 for p in raw if p & ~PIECE) / 6
        for p in pieces:
            row[6 + (p >> 1)] += 1.0
            if p & WOUNDED:
                row[6 + nt + (p >> 1)] += 1.0
        row.setflags(write=False)
        return row

    def state_features(self, s: State, seat: int, to_act: int | None) -> Obs:
        """`features(view(s, seat))` as float32, read from the state: what `view.view`
        shows (a fresh array, written where it is not zero)."""
        at, n, nt, t = self._at, self._n, self._nt, self._t
        c = t.c
        out = np.zeros(self._size, dtype=np.float32)
        if 0 <= seat < n:
            out[seat] = 1.0  # "seat" comes first
        i = self._phase.get(phase_name(s))
        if i is not None:
            out[at["phase"] + i] = 1.0
        if to_act == CHANCE:
            out[at["to_act"] + n] = 1.0
        elif to_act is not None:
            out[at["to_act"] + to_act] = 1.0
        out[at["round"]] = s.round / 10
        out[at["goat_path"]] = s.eph / self._path
        out[at["goat_path"] + 1] = float(s.eph_move)
        for p in self._spartans:
            out[at["glory"] + p] = s.glory[p] / self._win_glory
        for p in self._persians:
            out[at["kills"] + p] = s.kills[p] / 20
        i = at["board"]
        bonus = view.bonuses(s, c)
        capacity = t.capacity
        width = 6 + 2 * nt
        rows = self._rows
        for sp in range(2 * SPACES):
            raw = s.board[sp]
            if raw:
                key = (sp, tuple(raw))
                row = rows.get(key)
                if row is None:
                    row = self._row(sp, raw)
                    if len(rows) >= ROW_CACHE:
                        rows.clear()
                    rows[key] = row
                out[i : i + width] = row
            else:
                out[i] = 0 / max(1, capacity[sp])
            out[i + 4] = bonus[sp] / 12
            if s.gates_entered & (1 << sp):
                out[i + 5] = 1.0
            i += width
        units = self._units
        if s.camp:
            i = at["spartan_camp"]
            out[i : i + nt] = units(s.camp)
        i = at["boxes"]
        for box in s.boxes:
            if box:
                out[i : i + nt] += units(box)
        i = at["persian_camp"]
        for kind in s.leaders:
            out[i + kind] += 1.0
        if s.dead:
            i = at["eliminated"]
            out[i : i + nt] = units(s.dead)
        if s.pool:
            i = at["pulled_back"]
            out[i : i + nt] = units(s.pool)
        out[at["breach"]] = float(bool(s.breach))
        i = at["hands"]
        code, ncodes, cards = self._code, self._ncodes, self._cards
        for p, h in enumerate(s.hands):
            out[i] = len(h) / 10
            if h and p == seat:
                out[i + 1 : i + 1 + ncodes] = cards(h)
            i += 1 + ncodes
        i = at["decks"]
        for p, d in enumerate(s.decks):
            out[i + p] = len(d) / 26
        i = at["discards"]
        for d in s.discards:
            if d:
                out[i : i + ncodes] = cards(d)
            i += ncodes
        if s.window >= 0:
            i = at["window"]
            out[i] = 1.0
            for e in s.played:
                if not e[2]:
                    out[i + 1 + code[e[1]]] += 1.0
        i = at["extra_marches"]
        for p in range(n):
            if s.extra[p]:
                out[i + p] = float(s.extra[p])
        if s.bt:
            i = at["battle"]
            out[i : i + 12] = _battle(view._battle(s, t))
        if s.reason:
            for w in s.winners:
                out[at["result"] + w] = 1.0
        return out


@lru_cache(maxsize=16)
def observer(game: HotGates, players: int) -> HotGatesObserver:
    """The observer of `game` at `players` seats, built once (a few games are ever asked)."""
    return HotGatesObserver(game, players)
