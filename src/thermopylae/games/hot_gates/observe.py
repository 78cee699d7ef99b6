"""The observations of the Board Game for learning interfaces: the layout of one seat's view
as fixed-size numbers (docs/rl.md lists every field), built from `view` only.

`observer(game, players)` is what `HotGates.observer(options)` returns; it is built once
per game and player count (the layout depends on nothing else).

`state_features` gives the same numbers from the state directly (the learning interfaces'
fast path, `engine.observation.StateObserver`): it reads only what `view.view` shows the
seat (the other seats' hands and every deck by their size alone; the battle's numbers as
`view._battle` gives them), and the tests hold it to equality with `features(view)` and
with a plain reference. It keeps the last observation's float32 bytes and rewrites only
the fields whose parts of the state differ from the copies it made them from, each from
a table made once or a cache: a space's numbers by its pieces (a move changes a few
spaces) or by their sum, the piles of units and the scores by their contents, the hands
by `Counts`, the discard piles by `PileBytes`; only a battle under way is packed at each
call.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import chain, compress
from operator import call, ne
from struct import Struct, pack
from typing import TYPE_CHECKING, Any, cast

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
"""Entries each cache of an observer keeps (spaces by their pieces or by their sums,
counts of pieces, scores), emptied when full."""

# A space's pieces summed into one number (`HotGatesObserver._piece_sum`), in bit fields
# from the lowest: the side of its first piece + 1 (2 bits), then 8 bits each: the places
# used, the pieces with a flag (they marched), each type's count, each type's wounded
LOAD_AT = 2
MOVED_AT = LOAD_AT + 8
KINDS_AT = MOVED_AT + 8
FIELD = 8


def _lists(value: list[list[int]]) -> list[list[int]]:
    """A copy of a list of lists (the rules change the inner lists in place)."""
    return list(map(list, value))


class HotGatesObserver(Fields):
    """The observation layout of the Board Game for one player count.

    `state_features` keeps the last observation in a buffer, with copies of what it was
    made from (copies: the rules change the state's lists in place). Each call compares
    the state with those copies, in C, and rewrites only the fields that differ (a
    decision changes a space or two and a few other parts), then returns a copy of the
    buffer as the array. Another state than the last (a jump, the vector environment's
    games in turn) only differs in more parts."""

    def __init__(self, game: HotGates, players: int) -> None:
        super().__init__(game.id, _fields(game, players))
        self._made_of = (game, players)
        n = self._n = players
        t = self._t = game.t
        c = t.c
        nt = self._nt = len(TYPE_IDS)
        codes = tuple(sorted({k.code for k in game.cards}))
        ncodes = len(codes)
        place = {code: i for i, code in enumerate(codes)}
        # a card's number -> the place of its code
        card_place = {i: place[k.code] for i, k in enumerate(c.cards)}
        # each field's float32 bytes come from a table by the state's number, or a
        # cache: a one-hot row per value (the last entry, also found at -1, all zero)
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
        # each space's Glory bonus while it waits (`view.bonuses`: 0 in the Hot Gates)
        bonus = c.rules.glory_bonus
        self._bonus = [bonus[sp % SPACES] if sp % SPACES < 3 else 0 for sp in range(2 * SPACES)]
        # (space, its bonus-taken bit, its Persians-entered bit) -> that space's part of
        # `board` by its pieces, and by their sum. Spaces whose row depends on the same
        # numbers (capacity, bonus shown, entered) share one cache: pieces that march on
        # to the next space, or the same pieces in the other row, find the row made for
        # the first
        shared: dict[tuple[int, int, int], dict[tuple[int, ...] | int, bytes]] = {}
        self._space_rows = {
            (sp, taken, entered): shared.setdefault(
                (t.capacity[sp], 0 if taken else self._bonus[sp], entered), {}
            )
            for sp in range(2 * SPACES)
            for taken in (0, 1)
            for entered in (0, 1)
        }
        # (bonus taken, Persians entered) -> each space's cache for those bits
        self._boards: dict[tuple[int, int], list[dict[tuple[int, ...] | int, bytes]]] = {}
        # A piece with its flags -> its part of its space's sum (see `LOAD_AT`), and a
        # first piece's side + 1. A space's row depends on the sum only: pieces met in
        # another order, or with other pieces marched, find the row made for the first
        # (half the spaces not found by their pieces in play)
        sides = ["persian", "spartan"]
        side = [sides.index(name) if name in sides else -1 for name in SIDE_NAMES]
        pieces = range(len(t.places))
        self._piece_sum = [
            (t.places[p] << LOAD_AT) + (int(p > PIECE) << MOVED_AT) + self._kind_bits(p & PIECE)
            for p in pieces
        ].__getitem__
        self._first_side = [side[t.piece_side[p]] + 1 for p in pieces]
        # the counts by type and by wounded type of a space's pieces, by those fields of
        # the sum
        self._kinds: dict[int, bytes] = {}
        # a piece (type * 2 + wounded) -> its type's place; a leader is its type
        self._unit_counts = Counts({p: p >> 1 for p in range(2 * nt)}, nt, raw=True).__call__
        self._leader_counts = Counts({k: k for k in range(nt)}, nt, raw=True).__call__
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
        self._head_bytes = Struct("6f").pack
        self._kinds_bytes = Struct(f"{2 * nt}f").pack
        self._scores_bytes = Struct(f"{3 + 2 * n}f").pack
        # where each field's bytes lie in the observation; each space's part of `board`
        span = {
            name: slice(4 * self._at[name], 4 * (self._at[name] + size))
            for name, size, _ in self.layout()
        }
        self._seat_at, self._to_act_at, self._phase_at = span["seat"], span["to_act"], span["phase"]
        self._scores_at = slice(span["round"].start, span["kills"].stop)
        self._board_at, self._window_at = span["board"], span["window"]
        self._camp_at, self._boxes_at = span["spartan_camp"], span["boxes"]
        self._leaders_at, self._dead_at = span["persian_camp"], span["eliminated"]
        self._pool_at, self._breach_at = span["pulled_back"], span["breach"]
        self._hands_at, self._decks_at = span["hands"], span["decks"]
        self._discards_at, self._extra_at = span["discards"], span["extra_marches"]
        self._battle_at, self._result_at = span["battle"], span["result"]
        row = 4 * (6 + 2 * nt)
        at = self._board_at.start
        self._space_at = [slice(at + sp * row, at + (sp + 1) * row) for sp in SPACE_RANGE]
        # The last observation, written through a memoryview (a bytearray's own slice
        # assignment copies bytes into a new bytearray first), and the array over it,
        # whose copy `state_features` returns
        buf = bytearray(4 * self._size)
        self._buf = memoryview(buf)
        self._array = array_maker(self._size)
        self._new_array = self._array(buf).copy
        # the state object of the last call: another one (the vector environment's
        # games in turn, a jump) is observed whole, its fields joined, the buffer left
        # as it is (comparing with the copies of another game's parts, and copying its
        # parts, would cost more than the fields they save)
        self._state: State | None = None
        # What the last observation was made from: numbers, tuples, and copies of the
        # state's lists (the rules change them in place); at first, values unequal to
        # any, so that the first call writes every field
        unseen: Any = object()
        self._seen_seat: object = unseen
        self._seen_to_act: object = unseen
        self._seen_phase: object = unseen
        self._seen_scores: object = unseen
        self._taken = self._entered = -1
        self._spaces: list[dict[tuple[int, ...] | int, bytes]] = []
        self._last_board: list[list[int]] = []
        self._in_battle = True
        self._last_played: list[list[int]] = unseen
        self._last_piles: list[Any] = [unseen] * 6  # camp, leaders, dead, pool, boxes, breach
        self._last_hands: list[list[int]] = unseen
        self._last_decks: list[list[int]] = unseen
        self._last_discards: list[list[int]] = unseen
        self._last_extra: list[int] = unseen
        self._seen_reason: str = unseen
        self._last_winners: list[int] = unseen

    def _kind_bits(self, piece: int) -> int:
        """A piece's (without its flags) counts in its space's sum (`LOAD_AT`)."""
        kind, nt = piece >> 1, self._nt
        if kind >= nt:
            return 0
        return (1 << (KINDS_AT + FIELD * kind)) + (
            (piece & WOUNDED) << (KINDS_AT + FIELD * (nt + kind))
        )

    def fresh(self) -> HotGatesObserver:
        """A new observer of this layout, its caches empty (`StateObserver.fresh`)."""
        return HotGatesObserver(*self._made_of)

    def state_features(self, s: State, seat: int, to_act: int | None) -> Obs:
        """`features(view(s, seat))` as float32, read from the state: what `view.view`
        shows. The state of the last call again (the environments step one state in
        place): each field is compared with what it was made from at the last such call
        (in C: a number, a tuple, or lists against their copies) and written anew only
        when that differs. Another state: every field, joined (`_whole`)."""
        if s is not self._state:
            self._state = s
            return self._whole(s, seat, to_act)
        buf = self._buf
        if seat != self._seen_seat:
            buf[self._seat_at] = self._seat[seat if 0 <= seat < self._n else -1]
            self._seen_seat = seat
            self._put_hands(s, seat)
        elif s.hands != self._last_hands:
            self._put_hands(s, seat)
        if to_act != self._seen_to_act:
            buf[self._to_act_at] = self._to_act[to_act]
            self._seen_to_act = to_act
        phase = s.phase * PHASE_STRIDE + s.window
        if phase != self._seen_phase:
            buf[self._phase_at] = self._phase[phase + 1]
            self._seen_phase = phase
            self._put_window(s)
        elif s.played != self._last_played:
            self._put_window(s)
        scores = (s.round, s.eph, s.eph_move, *s.glory, *s.kills)
        if scores != self._seen_scores:
            buf[self._scores_at] = self._scores_row(scores)
            self._seen_scores = scores
        # the spaces that changed (a decision changes one or two), from their caches
        board = s.board
        taken, entered = s.bonus_taken, s.gates_entered
        if taken == self._taken and entered == self._entered:
            changed = list(compress(SPACE_RANGE, map(ne, board, self._last_board)))
            if len(changed) > FEW:
                self._put_board(board)
            elif changed:
                caches, spans, last = self._spaces, self._space_at, self._last_board
                for sp in changed:
                    pieces = board[sp]
                    key = tuple(pieces)
                    row = caches[sp].get(key) or self._space_row(caches, sp, key, taken, entered)
                    buf[spans[sp]] = row
                    last[sp] = pieces[:]  # a copy: the state's list changes in place
        else:
            self._spaces, self._taken, self._entered = self._caches(taken, entered), taken, entered
            self._put_board(board)
        if [s.camp, s.leaders, s.dead, s.pool, s.boxes, s.breach] != self._last_piles:
            self._put_piles(s)
        if s.decks != self._last_decks:
            buf[self._decks_at] = self._decks_row(s)
            self._last_decks = _lists(s.decks)
        if s.discards != self._last_discards:
            buf[self._discards_at] = self._discards_row(s)
            self._last_discards = _lists(s.discards)
        if s.extra != self._last_extra:
            buf[self._extra_at] = self._extra_row(s)
            self._last_extra = s.extra[:]
        # a battle's row, made at each call (it changes at most decisions of a battle)
        if s.bt:
            buf[self._battle_at] = self._battle_row(s)
            self._in_battle = True
        elif self._in_battle:
            buf[self._battle_at] = self._no_battle
            self._in_battle = False
        if s.reason != self._seen_reason or s.winners != self._last_winners:
            buf[self._result_at] = self._result_row(s)
            self._seen_reason, self._last_winners = s.reason, s.winners[:]
        return self._new_array()

    def _whole(self, s: State, seat: int, to_act: int | None) -> Obs:
        """Every field of the observation, joined (the buffer and the copies untouched)."""
        units, taken, entered = self._unit_counts, s.bonus_taken, s.gates_entered
        parts = [
            self._seat[seat if 0 <= seat < self._n else -1],
            self._phase[s.phase * PHASE_STRIDE + s.window + 1],
            self._to_act[to_act],
            self._scores_row((s.round, s.eph, s.eph_move, *s.glory, *s.kills)),
            *self._board_rows(s.board, self._caches(taken, entered), taken, entered),
            units(s.camp),
            units(chain.from_iterable(s.boxes)),
            self._leader_counts(s.leaders),
            units(s.dead),
            units(s.pool),
            self._breach[bool(s.breach)],
            self._hands_row(s, seat),
            self._decks_row(s),
            self._discards_row(s),
            self._window_row(s),
            self._extra_row(s),
            self._battle_row(s) if s.bt else self._no_battle,
            self._result_row(s),
        ]
        return self._array(join_parts(parts))

    # -- the board ----------------------------------------------------------------------

    def _caches(self, taken: int, entered: int) -> list[dict[tuple[int, ...] | int, bytes]]:
        """Each space's cache of rows for the spaces' bonus taken and Persians entered
        (bits by space): the one of its own two bits."""
        flags = (taken, entered)
        spaces = self._boards.get(flags)
        if spaces is None:
            spaces = [
                self._space_rows[sp, (taken >> sp) & 1, (entered >> sp) & 1]
                for sp in range(2 * SPACES)
            ]
            keep(self._boards, flags, spaces, CACHE)
        return spaces

    def _board_rows(
        self,
        board: list[list[int]],
        spaces: list[dict[tuple[int, ...] | int, bytes]],
        taken: int,
        entered: int,
    ) -> list[bytes]:
        """Every space's row, found in C (a new board, or another state's)."""
        keys = list(map(tuple, board))
        found: list[bytes | None] = list(map(dict.get, spaces, keys))
        if not all(found):  # a miss (`None`; no row is empty): `in` would compare each
            for sp, row in enumerate(found):
                if row is None:
                    found[sp] = self._space_row(spaces, sp, keys[sp], taken, entered)
        return cast("list[bytes]", found)

    def _put_board(self, board: list[list[int]]) -> None:
        """Every space's row written (more spaces changed than `FEW`, or the flags)."""
        rows = self._board_rows(board, self._spaces, self._taken, self._entered)
        self._buf[self._board_at] = b"".join(rows)
        self._last_board = _lists(board)

    def _space_row(
        self,
        spaces: list[dict[tuple[int, ...] | int, bytes]],
        sp: int,
        key: tuple[int, ...],
        taken: int,
        entered: int,
    ) -> bytes:
        """Space `sp`'s row for its pieces `key`, found by their sum or made, and kept
        in its cache by both (a miss)."""
        cache = spaces[sp]
        total = sum(map(self._piece_sum, key), self._first_side[key[0]]) if key else 0
        row = cache.get(total)
        if row is None:
            row = keep(cache, total, self._space(sp, total, taken, entered), CACHE)
        return keep(cache, key, row, CACHE)

    def _space(self, sp: int, total: int, taken: int, entered: int) -> bytes:
        """Space `sp`'s row from its pieces' sum (`LOAD_AT`)."""
        side, bit = (total & 3) - 1, 1 << sp
        head = self._head_bytes(
            ((total >> LOAD_AT) & 255) / max(1, self._t.capacity[sp]),
            float(side == 0),
            float(side == 1),
            ((total >> MOVED_AT) & 255) / 6,
            0.0 if taken & bit else self._bonus[sp] / 12,
            1.0 if entered & bit else 0.0,
        )
        kinds = total >> KINDS_AT
        counts = self._kinds.get(kinds)
        if counts is None:
            fields = [(kinds >> (FIELD * i)) & 255 for i in range(2 * self._nt)]
            counts = keep(self._kinds, kinds, self._kinds_bytes(*fields), CACHE)
        return head + counts

    # -- the other fields: each row, and its writing with the copies it was made from --

    def _hands_row(self, s: State, seat: int) -> bytes:
        """Each hand's size, then its cards if it is the seat's (all zero if hidden)."""
        hands = self._hands[:]
        hands[::2] = map(self._hand_size.__getitem__, map(len, s.hands))
        if 0 <= seat < self._n:
            hands[2 * seat + 1] = self._cards(s.hands[seat])
        return b"".join(hands)

    def _put_hands(self, s: State, seat: int) -> None:
        self._buf[self._hands_at] = self._hands_row(s, seat)
        self._last_hands = _lists(s.hands)

    def _window_row(self, s: State) -> bytes:
        """The `window` field: open or not, the cards played in it and not cancelled."""
        if s.window >= 0:
            played: bytes = self._played([e[1] for e in s.played if not e[2]])
            return self._window_open + played
        return self._no_window

    def _put_window(self, s: State) -> None:
        self._buf[self._window_at] = self._window_row(s)
        self._last_played = _lists(s.played)

    def _scores_row(self, scores: tuple[int, ...]) -> bytes:
        """The fields `round`, `goat_path`, `glory` and `kills` from (round, Goat Path
        space, its moves this round, then each seat's glory, then each seat's kills)."""
        row = self._scores.get(scores)
        if row is None:
            row = keep(self._scores, scores, self._scores_of(scores), CACHE)
        return row

    def _put_piles(self, s: State) -> None:
        """The fields `spartan_camp`, `boxes`, `persian_camp`, `eliminated`,
        `pulled_back` and `breach`: each whose pile changed (one at a time, mostly),
        counted by its contents (`Counts`)."""
        buf, last, units = self._buf, self._last_piles, self._unit_counts
        if s.camp != last[0]:
            buf[self._camp_at] = units(s.camp)
            last[0] = s.camp[:]
        if s.leaders != last[1]:
            buf[self._leaders_at] = self._leader_counts(s.leaders)
            last[1] = s.leaders[:]
        if s.dead != last[2]:
            buf[self._dead_at] = units(s.dead)
            last[2] = s.dead[:]
        if s.pool != last[3]:
            buf[self._pool_at] = units(s.pool)
            last[3] = s.pool[:]
        if s.boxes != last[4]:
            buf[self._boxes_at] = units(chain.from_iterable(s.boxes))
            last[4] = _lists(s.boxes)
        if s.breach != last[5]:
            buf[self._breach_at] = self._breach[bool(s.breach)]
            last[5] = s.breach

    def _decks_row(self, s: State) -> bytes:
        return b"".join(map(self._deck.__getitem__, map(len, s.decks)))

    def _discards_row(self, s: State) -> bytes:
        return b"".join(map(call, self._discards, s.discards))

    def _extra_row(self, s: State) -> bytes:
        return b"".join(map(self._extra.__getitem__, s.extra))

    def _battle_row(self, s: State) -> bytes:
        """The `battle` field of a battle under way or a pull-back (`s.bt` not empty)."""
        bt = s.bt
        return self._battle(s) if len(bt) > battle.WINNER else self._pull_back[bt[battle.ROW]]

    def _result_row(self, s: State) -> bytes:
        if s.reason:
            won = s.winners
            return pack(f"{self._n}f", *[float(p in won) for p in range(self._n)])
        return self._no_result

    def _scores_of(self, key: tuple[int, ...]) -> bytes:
        """The row of `_scores_row`, made."""
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


@lru_cache(maxsize=16)
def observer(game: HotGates, players: int) -> HotGatesObserver:
    """The observer of `game` at `players` seats, built once (a few games are ever asked)."""
    return HotGatesObserver(game, players)
