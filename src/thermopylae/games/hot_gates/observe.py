"""The observations of the Board Game for learning interfaces: the layout of one seat's view
as fixed-size numbers (docs/rl.md lists every field), built from `view` only.

`observer(game, players)` is what `HotGates.observer(options)` returns; it is built once
per game and player count (the layout depends on nothing else).

`state_features` gives the same numbers from the state directly (the learning interfaces'
fast path, `engine.observation.StateObserver`): it reads only what `view.view` shows the
seat (the other seats' hands and every deck by their size alone; the battle's numbers as
`view._battle` gives them), and the tests hold it to equality with `features(view)` and
with a plain reference. It joins each field's float32 bytes (as `engine.observation.assemble` does)
from tables made once or caches: a space's numbers by its pieces (a move changes a few
spaces), the piles of units and the scores by their contents, the hands by `Counts`, the
discard piles by `PileBytes`; only a battle under way is packed at each call.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import chain, compress
from operator import call, ne
from struct import Struct, pack
from typing import TYPE_CHECKING, cast

from thermopylae.engine.observation import (
    Counts,
    Field,
    Fields,
    PileBytes,
    array_maker,
    f32,
    histogram,
    join_parts,
    keep,
    onehot,
    onehots,
    scaled,
    steps,
)
from thermopylae.engine.protocol import CHANCE, JSON
from thermopylae.games.hot_gates import battle
from thermopylae.games.hot_gates.board import (
    PERSIAN,
    SEATS,
    SIDE_NAMES,
    persian_seats,
    spartan_seats,
)
from thermopylae.games.hot_gates.components import TYPE_IDS
from thermopylae.games.hot_gates.state import (
    CASUALTY,
    CONQUER,
    PHASES,
    PIECE,
    SPACES,
    WINDOW,
    WINDOWS,
    WOUNDED,
    State,
)

if TYPE_CHECKING:
    from thermopylae.engine.observation import Obs  # NumPy: imported where arrays are built
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


PHASE_STRIDE = len(WINDOWS) + 1
"""The `phase` rows per phase: one per window, and one for none (`window` -1)."""

FEW = 4
"""Spaces changed since the last call up to which the others keep their rows (more: each
space looked up, as on a new board)."""

SPACE_RANGE = range(2 * SPACES)

CACHE = 20_000
"""Entries each cache of an observer keeps (spaces by their contents, piles of units,
scores), emptied when full."""


class HotGatesObserver(Fields):
    """The observation layout of the Board Game for one player count."""

    def __init__(self, game: HotGates, players: int) -> None:
        super().__init__(game.id, _fields(game, players))
        n = self._n = players
        t = self._t = game.t
        c = t.c
        nt = self._nt = len(TYPE_IDS)
        codes = tuple(sorted({k.code for k in game.cards}))
        ncodes = len(codes)
        place = {code: i for i, code in enumerate(codes)}
        # a card's number -> the place of its code
        self._code = [place[k.code] for k in c.cards]
        card_place = dict(enumerate(self._code))
        # `state_features` joins the float32 bytes of the fields (`engine.observation`),
        # each from a table by the state's number, or a cache: a one-hot row per value
        # (the last entry, also found at -1, all zero)
        self._seat = onehots(n)
        # the `phase` row by `s.phase * PHASE_STRIDE + s.window + 1` (`phase_name`'s
        # name, one-hot)
        phases = {name: i for i, name in enumerate(_phases())}
        none = len(phases)
        phase_rows = onehots(len(phases))
        self._phase = [
            phase_rows[phases.get(f"{WINDOWS[w]} cards" if p == WINDOW else PHASES[p], none)]
            for p in range(len(PHASES))
            for w in range(-1, len(WINDOWS))
        ]
        act = onehots(n + 1)  # the seats, then chance
        self._to_act: dict[int | None, bytes] = {i: act[i] for i in range(n)}
        self._to_act |= {CHANCE: act[n], None: act[n + 1]}
        # (round, Goat Path space, its moves, glory, kills) -> those four fields
        self._scores: dict[tuple[int, ...], bytes] = {}
        self._spartans = spartan_seats(players)
        self._persians = persian_seats(players)
        self._win_glory = c.rules.win_glory_2p if players == 2 else c.rules.win_glory_team
        self._path = c.goat_path
        sides = ["persian", "spartan"]
        self._side = [sides.index(name) if name in sides else -1 for name in SIDE_NAMES]
        # each space's Glory bonus while it waits (`view.bonuses`: 0 in the Hot Gates)
        bonus = c.rules.glory_bonus
        self._bonus = [bonus[sp % SPACES] if sp % SPACES < 3 else 0 for sp in range(2 * SPACES)]
        # (space, its bonus-taken bit, its Persians-entered bit) -> its pieces -> that
        # space's part of `board`: a move changes a few spaces, and most boards are new.
        # Spaces whose row depends on the same numbers (capacity, bonus shown, entered)
        # share one cache: pieces that march on to the next space, or the same pieces in
        # the other row, find the row made for the first (a fifth fewer misses in play)
        shared: dict[tuple[int, int, int], dict[tuple[int, ...], bytes]] = {}
        self._space_rows: dict[tuple[int, int, int], dict[tuple[int, ...], bytes]] = {
            (sp, taken, entered): shared.setdefault(
                (t.capacity[sp], 0 if taken else self._bonus[sp], entered), {}
            )
            for sp in range(2 * SPACES)
            for taken in (0, 1)
            for entered in (0, 1)
        }
        # (bonus taken, Persians entered) -> each space's cache for those bits
        self._boards: dict[tuple[int, int], list[dict[tuple[int, ...], bytes]]] = {}
        # the board at the last call (copies of its spaces), its flags and its rows
        self._last_board: list[list[int]] = []
        self._last_flags: tuple[int, int] | None = None
        self._last_rows: list[bytes] = []
        # a piece (type * 2 + wounded) -> its type's place; a leader is its type
        self._unit_counts = Counts({p: p >> 1 for p in range(2 * nt)}, nt, raw=True).__call__
        self._leader_counts = Counts({k: k for k in range(nt)}, nt, raw=True).__call__
        # the piles of units at the last call (copies: camp, leaders, dead, pulled back,
        # boxes), their five fields in the layout's order (camp, boxes, leaders, dead,
        # pulled back) and those joined
        self._last_piles: tuple[list[int] | list[list[int]], ...] = ([], [], [], [], [])
        self._pile_rows = [self._unit_counts(())] * 5
        self._last_units = b"".join(self._pile_rows)
        self._breach = [f32([0.0]), f32([1.0])]
        self._hand_size = steps(100, 10)
        # `Counts` and `PileBytes` called through their bound `__call__`: calling an
        # instance of a Python class goes through a slower slot
        self._cards = Counts(card_place, ncodes, 1 << 16, raw=True).__call__
        self._hands = [f32([0.0] * ncodes)] * (2 * n)  # (size, cards) per seat: hidden
        self._deck = steps(100, 26)
        self._discards = [PileBytes(card_place, ncodes).__call__ for _ in range(players)]
        self._no_window = f32([0.0] * (1 + ncodes))
        self._window_open = f32([1.0])
        # the window's cards played and not cancelled, as card numbers
        self._played = Counts(card_place, ncodes, raw=True).__call__
        self._extra = steps(100, 1)
        self._no_battle = f32([0.0] * 12)
        pull_back = onehots(2)  # by the battle's row
        self._pull_back = [f32([0.0, 1.0]) + pull_back[r] + f32([0.0] * 8) for r in (0, 1)]
        self._no_result = f32([0.0] * n)
        # the rows made on a cache miss are packed (NumPy's rounding to float32, without
        # an array each)
        self._space_bytes = Struct(f"{6 + 2 * self._nt}f").pack
        # 1 for a piece with a flag (it moved), by the piece with its flags
        self._flagged = [int(p > PIECE) for p in range(len(t.places))]
        self._scores_bytes = Struct(f"{3 + 2 * n}f").pack
        self._array = array_maker(self._size)  # the observation from its parts joined

    def _space(self, sp: int, taken: int, entered: int, raw: tuple[int, ...]) -> bytes:
        """A space's part of `board` from its pieces, the spaces' bonus taken and
        Persians entered (bits by space)."""
        t, nt = self._t, self._nt
        bit = 1 << sp
        row = [0.0] * (6 + 2 * nt)
        if raw:
            # the load and the pieces with a flag (moved) summed through tables in C
            row[0] = sum(map(t.places.__getitem__, raw)) / max(1, t.capacity[sp])
            k = self._side[t.piece_side[raw[0]]]
            if k >= 0:
                row[1 + k] = 1.0
            row[3] = sum(map(self._flagged.__getitem__, raw)) / 6
            for p in raw:
                p &= PIECE
                row[6 + (p >> 1)] += 1.0
                if p & WOUNDED:
                    row[6 + nt + (p >> 1)] += 1.0
        if self._bonus[sp] and not taken & bit:
            row[4] = self._bonus[sp] / 12
        if entered & bit:
            row[5] = 1.0
        return self._space_bytes(*row)

    def _space_row(
        self,
        spaces: list[dict[tuple[int, ...], bytes]],
        sp: int,
        flags: tuple[int, int],
        key: tuple[int, ...],
    ) -> bytes:
        """Space `sp`'s row for its pieces `key`, made and kept in its cache (a miss).
        A row does not depend on the pieces' order, so the pieces sorted are a key of the
        same row: the same pieces met in another order find it (about half the misses in
        play), for a sort of a few numbers where a row costs ten times as much."""
        cache = spaces[sp]
        if len(cache) >= CACHE:
            cache.clear()
        ordered = tuple(sorted(key))
        row = cache.get(ordered)
        if row is None:
            row = cache[ordered] = self._space(sp, *flags, ordered)
        cache[key] = row
        return row

    def _caches(self, taken: int, entered: int) -> list[dict[tuple[int, ...], bytes]]:
        """Each space's cache of rows by its pieces, for the spaces' bonus taken and
        Persians entered (bits by space): the one of its own two bits."""
        return [
            self._space_rows[sp, (taken >> sp) & 1, (entered >> sp) & 1] for sp in range(2 * SPACES)
        ]

    def _units(self, s: State) -> bytes:
        """The fields `spartan_camp`, `boxes`, `persian_camp`, `eliminated` and
        `pulled_back` when some pile changed since the last call: each pile that changed
        counted by its contents (`Counts`), the others kept (one pile changes at a time,
        and most piles are new: a key of all five missed where each pile alone hits)."""
        last, rows, units = self._last_piles, self._pile_rows, self._unit_counts
        camp, leaders, dead, pool, boxes = s.camp, s.leaders, s.dead, s.pool, s.boxes
        if camp != last[0]:
            rows[0] = units(camp)
        if boxes != last[4]:
            rows[1] = units(chain.from_iterable(boxes))
        if leaders != last[1]:
            rows[2] = self._leader_counts(leaders)
        if dead != last[2]:
            rows[3] = units(dead)
        if pool != last[3]:
            rows[4] = units(pool)
        # copies: the state's lists change in place
        self._last_piles = (camp[:], leaders[:], dead[:], pool[:], list(map(list, boxes)))
        joined = self._last_units = b"".join(rows)
        return joined

    def _scores_of(self, key: tuple[int, ...]) -> bytes:
        """The fields `round`, `goat_path`, `glory` and `kills` from (round, Goat Path
        space, its moves this round, then each seat's glory, then each seat's kills)."""
        n = self._n
        glory, kills = key[3 : 3 + n], key[3 + n :]
        block = [key[0] / 10, key[1] / self._path, float(key[2])]
        block += [glory[p] / self._win_glory if p in self._spartans else 0.0 for p in range(n)]
        block += [kills[p] / 20 if p in self._persians else 0.0 for p in range(n)]
        return self._scores_bytes(*block)

    def _battle(self, s: State) -> bytes:
        """The `battle` field of a battle under way (`_battle(view._battle(s, t))`)."""
        bt, t = s.bt, self._t
        row = bt[battle.ROW]
        left = bt[battle.LEFT] if s.phase == CASUALTY else (0, 0)
        return pack(
            "12f",
            1.0,
            0.0,
            float(row == 0),
            float(row == 1),
            float(bt[battle.PSP] % SPACES == 2),
            battle.attack_total(s, t, PERSIAN) / 20,
            battle.attack_total(s, t, 1) / 20,
            sum(bt[battle.DICE]) / 30,
            sum(bt[battle.DICE + 1]) / 30,
            left[0] / 10,
            left[1] / 10,
            float(s.phase == CONQUER and bt[battle.WINNER] == PERSIAN),
        )

    def state_features(self, s: State, seat: int, to_act: int | None) -> Obs:
        """`features(view(s, seat))` as float32, read from the state: what `view.view`
        shows (every field's float32 bytes from a table or a cache, joined)."""
        n = self._n
        key: tuple[int, ...] = (s.round, s.eph, s.eph_move, *s.glory, *s.kills)
        scores = self._scores.get(key)
        if scores is None:
            scores = keep(self._scores, key, self._scores_of(key), CACHE)
        parts = [
            self._seat[seat if 0 <= seat < n else -1],
            self._phase[s.phase * PHASE_STRIDE + s.window + 1],
            self._to_act[to_act],
            scores,
        ]
        # each space's numbers by its contents, from that space's cache for its bonus
        # taken and Persians entered (the flags change a few times a game). A space equal
        # to its content at the last call (any seat) keeps its row: a decision changes a
        # few spaces, and comparing the lists costs less than a key made and hashed for
        # each space
        flags = (s.bonus_taken, s.gates_entered)
        board = s.board
        last = self._last_board
        changed = (
            list(compress(SPACE_RANGE, map(ne, board, last))) if flags == self._last_flags else None
        )
        if changed is not None and len(changed) <= FEW:
            rows = self._last_rows
            if changed:
                caches = self._boards[flags]
                for sp in changed:
                    key = tuple(board[sp])
                    rows[sp] = caches[sp].get(key) or self._space_row(caches, sp, flags, key)
                    last[sp] = board[sp][:]  # a copy: the state's list changes in place
        else:
            spaces = self._boards.get(flags)
            if spaces is None:
                spaces = keep(self._boards, flags, self._caches(*flags), CACHE)
            keys = list(map(tuple, board))
            found: list[bytes | None] = list(map(dict.get, spaces, keys))
            if not all(found):  # a miss (`None`; no row is empty): `in` would compare each
                for sp, row in enumerate(found):
                    if row is None:
                        found[sp] = self._space_row(spaces, sp, flags, keys[sp])
            rows = cast("list[bytes]", found)
            self._last_board = list(map(list, board))
            self._last_rows = rows
            self._last_flags = flags
        parts += rows
        # the camps, boxes and piles of units (five fields in a row): those of the last
        # call if they are the same (three positions in four), else the piles changed
        now = (s.camp, s.leaders, s.dead, s.pool, s.boxes)
        units = self._last_units if now == self._last_piles else self._units(s)
        parts += (units, self._breach[bool(s.breach)])
        # each hand's size, then its cards if it is the seat's (all zero if hidden)
        hands = self._hands[:]
        hands[::2] = map(self._hand_size.__getitem__, map(len, s.hands))
        if 0 <= seat < n:
            hands[2 * seat + 1] = self._cards(s.hands[seat])
        parts += hands
        parts += map(self._deck.__getitem__, map(len, s.decks))
        parts += map(call, self._discards, s.discards)
        if s.window >= 0:
            parts += (self._window_open, self._played([e[1] for e in s.played if not e[2]]))
        else:
            parts.append(self._no_window)
        parts += map(self._extra.__getitem__, s.extra)
        bt = s.bt
        if not bt:
            parts.append(self._no_battle)
        elif len(bt) <= battle.WINNER:  # a pull-back: the row only
            parts.append(self._pull_back[bt[battle.ROW]])
        else:
            parts.append(self._battle(s))
        if s.reason:
            won = s.winners
            parts.append(pack(f"{n}f", *[float(p in won) for p in range(n)]))
        else:
            parts.append(self._no_result)
        return self._array(join_parts(parts))


@lru_cache(maxsize=16)
def observer(game: HotGates, players: int) -> HotGatesObserver:
    """The observer of `game` at `players` seats, built once (a few games are ever asked)."""
    return HotGatesObserver(game, players)
