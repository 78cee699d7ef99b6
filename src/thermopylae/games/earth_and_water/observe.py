"""The observations of Earth & Water for learning interfaces: the layout of one seat's view
as fixed-size numbers (docs/rl.md lists every field), built from `view` only.

`observer(...)` builds what `EarthAndWater.observer(options)` returns, from the tables only;
the game keeps one per player count (`rules._observer`: the layout depends on nothing else).

`state_features` gives the same numbers from the state directly (the learning interfaces'
fast path, `engine.observation.StateObserver`): it reads only what `view.view` shows the
seat (the other side's hand by its size alone, unless `view.hand_visible` shows it; the
draw pile by its size), and the tests hold it to equality with `features(view)`.
"""

from __future__ import annotations

from itertools import compress
from operator import ne
from struct import pack
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
from thermopylae.games.earth_and_water.cards import C_HIPPIAS
from thermopylae.games.earth_and_water.components import Components
from thermopylae.games.earth_and_water.state import CHOOSE, GREECE, PERSIA, PHASES, SIDES, State
from thermopylae.games.earth_and_water.view import ONCE

if TYPE_CHECKING:
    from thermopylae.engine.observation import Obs  # NumPy: imported where arrays are built

ONCE_ORDER = ["Miltiades", "Themistocles", "Leonidas", "Artemisia I"]
"""The one-time cards of the `once_used` field, in order."""

TALENTS_SHOWN = (0, 2)  # the phases whose view shows the talents (view.view)
WINDOW_SHOWN = 8  # the phase whose view shows the window (view.view)


def _fields(components: Components) -> list[Field]:
    """The fields of the two-sided game, in order."""
    sides = list(SIDES)
    ncities = len(components.cities)
    cards = tuple(range(len(components.greek_names)))
    once = ONCE_ORDER

    def cities(v: JSON) -> list[float]:
        out: list[float] = []
        for c in v["cities"]:
            out += [*onehot(c["major"], sides), float(c["port"]), c["amphorae"] / 3]
            out += [c["armies"][s] / 10 for s in sides] + [c["fleets"][s] / 10 for s in sides]
            out += onehot(c["control"], sides)
        return out

    def hands(v: JSON) -> list[float]:
        out: list[float] = []
        for s in sides:
            h = v["hands"][s]
            out += [h["count"] / 10, *histogram(h["cards"] or [], cards)]
        return out

    def move(v: JSON) -> list[float]:
        m = v["move"]
        if not m:
            return [0.0] * (10 + 2 * ncities)
        names = [c["name"] for c in v["cities"]]
        return [
            1.0,
            *onehot(m["side"], sides),
            *onehot(m["allowed"], ["any", "land", "fleets"]),
            *onehot(m["by"], ["land", "sea"]),
            m["count"] / 10,
            m["carry"] / 10,
            *onehot(m["origin"], names),
            *onehot(m["destination"], names),
        ]

    def battle(v: JSON) -> list[float]:
        b = v["battle"]
        if not b:
            return [0.0] * (7 + ncities)
        names = [c["name"] for c in v["cities"]]
        return [
            1.0,
            *onehot(b["kind"], ["land", "naval"]),
            *onehot(b["attacker"], sides),
            float(b["cavalry"]),
            float(b["immortals_used"]),
            *onehot(b["city"], names),
        ]

    return [
        Field("seat", 2, "one-hot: persia, greece", lambda v: onehot(v["seat"], sides)),
        Field(
            "phase",
            len(PHASES),
            f"one-hot: phase ({', '.join(PHASES)})",
            lambda v: onehot(v["phase"], PHASES),
        ),
        Field(
            "to_act",
            3,
            "one-hot: persia, greece, chance (all 0: over)",
            lambda v: onehot(v["to_act"], [*sides, "chance"]),
        ),
        Field("active", 2, "one-hot: the active side", lambda v: onehot(v["active"], sides)),
        Field("campaign", 1, "campaign / 3", lambda v: [v["campaign"] / 3]),
        Field("score", 1, "score track / 10 (signed, as in the view)", lambda v: [v["score"] / 10]),
        Field(
            "cities",
            10 * ncities,
            "per city in board order: major city of (persia, "
            "greece), port, amphorae/3, armies persia, greece /10, fleets persia, greece "
            "/10, control one-hot (persia, greece)",
            cities,
        ),
        Field("bridge", 1, "the Hellespont bridge stands", lambda v: [float(v["bridge"])]),
        Field(
            "reserve",
            4,
            "reserve armies, fleets of persia then greece, / 20",
            lambda v: [v["reserve"][s][k] / 20 for s in sides for k in ("armies", "fleets")],
        ),
        Field(
            "portraits",
            3,
            "portraits persia, greece, artemisia / 3",
            lambda v: [v["portraits"][k] / 3 for k in ("persia", "greece", "artemisia")],
        ),
        Field("kings_dead", 1, "kings dead / 3", lambda v: [v["kings_dead"] / 3]),
        Field(
            "once_used",
            4,
            f"one-time cards used: {once}",
            lambda v: [float(x in v["once_used"]) for x in once],
        ),
        Field(
            "hands",
            2 * (1 + len(cards)),
            "persia then greece: hand size / 10, then "
            "counts of visible card numbers 0..16 (0 for a hidden hand)",
            hands,
        ),
        Field("draw_pile", 1, "draw pile size / 16", lambda v: [v["draw_pile"] / 16]),
        Field(
            "discard",
            len(cards),
            "counts of card numbers 0..16 in the discard pile",
            lambda v: histogram(v["discard"], cards),
        ),
        Field(
            "flags",
            3,
            "carneia, acropolis, acropolis penalty",
            lambda v: [float(v["carneia"]), float(v["acropolis"]), float(v["acropolis_penalty"])],
        ),
        Field(
            "talents",
            2,
            "talents shown, talents / 10",
            lambda v: [float(v["talents"] is not None), scaled(v["talents"], 10)],
        ),
        Field("passes", 1, "passes / 2", lambda v: [v["passes"] / 2]),
        Field(
            "move",
            10 + 2 * ncities,
            "move under way: present, side (2), allowed "
            "(any, land, fleets), by (land, sea), count/10, carry/10, origin one-hot "
            "per city, destination one-hot per city",
            move,
        ),
        Field(
            "battle",
            7 + ncities,
            "battle under way: present, kind (land, naval), "
            "attacker (2), cavalry, immortals used, city one-hot",
            battle,
        ),
        Field(
            "window",
            2,
            "window shown, window / 10",
            lambda v: [float(v["window"] is not None), scaled(v["window"], 10)],
        ),
        Field(
            "result",
            2,
            "one-hot winner: persia, greece (all 0: none yet or a draw)",
            lambda v: onehot((v["result"] or {}).get("winner"), sides),
        ),
    ]


MapKey = tuple[int, ...]
"""The map by its numbers: each side's armies, then each side's fleets, city by city."""

FlagKey = tuple[bool, bool, bool, int | None, int]
"""(carneia, acropolis, acropolis penalty, talents if shown else None, passes)."""

BLOCK_CACHE = 20_000
"""Rows an observer keeps in each of its caches (emptied when full)."""


class EarthAndWaterObserver(Fields):
    """The observation layout of Earth & Water for one player count."""

    def __init__(self, components: Components, game_id: str, players: int) -> None:
        super().__init__(game_id, _fields(components))
        self._made_of = (components, game_id, players)
        c = components
        self._ncities = len(c.names)
        self._ncards = len(c.greek_names)
        # per phase, the places of its name among PHASES (one-hot by name, as the view)
        self._phase = [[i for i, q in enumerate(PHASES) if q == p] for p in PHASES]
        bit = {name: b for b, name in ONCE.items()}
        self._once = [bit.get(name, 0) for name in ONCE_ORDER]
        # per city: major-for (one-hot place or -1), port, amphorae / 3
        self._cities = [
            (m if m >= 0 else -1, float(port), amph / 3)
            for m, port, amph in zip(c.major, c.port, c.amphorae, strict=True)
        ]
        # `state_features` joins the float32 bytes of the fields (`engine.observation`),
        # each from a table by the state's number, or a cache: a one-hot row per value
        # (the last entry, also found at -1, all zero)
        self._side = onehots(2)
        self._phase_rows = [
            f32(1.0 if i in places else 0.0 for i in range(len(PHASES))) for places in self._phase
        ]
        act = onehots(3)  # persia, greece, chance
        self._to_act: dict[int | None, bytes] = {0: act[0], 1: act[1], CHANCE: act[2]}
        self._to_act[None] = act[3]
        # per city, its part of `cities` by its pieces (armies and fleets of each side):
        # a move changes one or two cities
        self._city_rows: list[dict[tuple[int, int, int, int], bytes]] = [
            {} for _ in range(self._ncities)
        ]
        # the fields `bridge` to `once_used` in four parts, each by its numbers (`_stock`):
        # the bridge, the reserves, the portraits and kings dead, the one-time cards used
        self._bridge = [f32([0.0]), f32([1.0])]
        self._stocks: dict[tuple[int, ...], bytes] = {}  # the whole stock, by its numbers
        self._reserves: dict[tuple[int, ...], bytes] = {}
        self._portraits: dict[tuple[int, ...], bytes] = {}
        self._used: dict[int, bytes] = {}
        # the map and the stock the last call saw, with their numbers (see state_features):
        # the map as its four lists (copies), each city's row and the rows joined
        empty = [0] * self._ncities
        self._last_map: tuple[list[int], ...] = (empty, empty, empty, empty)
        self._city_range = range(self._ncities)
        self._last_state: State | None = None  # the state of the last call
        # maps met in another state than the last call's (`_cities_whole`) -> each
        # city's row, and those joined
        self._maps: dict[MapKey, tuple[tuple[bytes, ...], bytes]] = {}
        self._last_city_rows = [self._city_row(k, (0, 0, 0, 0)) for k in range(self._ncities)]
        self._last_cities = b"".join(self._last_city_rows)
        self._last_stock: tuple[int, ...] = ()
        self._last_stock_row = b""
        self._hand_size = steps(100, 10)
        self._counts = Counts({k: k for k in range(self._ncards)}, self._ncards, raw=True)
        self._hidden = f32([0.0] * self._ncards)
        self._pile = steps(100, 16)
        self._discard = PileBytes({k: k for k in range(self._ncards)}, self._ncards)
        # (carneia, acropolis, acropolis penalty, talents shown or None, passes) -> the
        # fields `flags`, `talents` and `passes`; the fields `seat` to `score` by their
        # numbers (`_head`)
        self._flags: dict[FlagKey, bytes] = {}
        self._heads: dict[tuple[int, int, int | None, int, int, int], bytes] = {}
        # moves and battles under way by their numbers
        self._moves: dict[tuple[int, ...], bytes] = {}
        self._no_move = f32([0.0] * (10 + 2 * self._ncities))
        self._battles: dict[tuple[int, ...], bytes] = {}
        self._no_battle = f32([0.0] * (7 + self._ncities))
        self._no_window = f32((0.0, 0.0))
        self._array = array_maker(self._size)  # the observation from its parts joined

    def _city_row(self, k: int, pieces: tuple[int, int, int, int]) -> bytes:
        """City `k`'s part of `cities` (float32 bytes) from its (Persian armies, Greek
        armies, Persian fleets, Greek fleets), kept by them."""
        major, port, amph = self._cities[k]
        p_arm, g_arm, p_flt, g_flt = pieces
        control = 0 if p_arm else 1 if g_arm else major
        block = [0.0, 0.0, port, amph, p_arm / 10, g_arm / 10, p_flt / 10, g_flt / 10]
        block += [0.0, 0.0]
        if major >= 0:
            block[major] = 1.0
        if control >= 0:
            block[8 + control] = 1.0
        return keep(self._city_rows[k], pieces, f32(block), BLOCK_CACHE)

    def _cities_whole(
        self, pa: list[int], ga: list[int], pf: list[int], gf: list[int], key: MapKey
    ) -> bytes:
        """The `cities` field (float32 bytes) of a map not seen before in another state
        than the last call's (most cities differ from the last call's): each city's row
        looked up by its pieces in C, made where missing; kept by the map's `key`."""
        rows: list[bytes | None] = list(
            map(dict.get, self._city_rows, zip(pa, ga, pf, gf, strict=True))
        )
        if not all(rows):  # a miss (`None`; no row is empty)
            for k, row in enumerate(rows):
                if row is None:
                    rows[k] = self._city_row(k, (pa[k], ga[k], pf[k], gf[k]))
        made = cast("list[bytes]", rows)
        self._last_map = (pa[:], ga[:], pf[:], gf[:])  # copies: the map changes in place
        self._last_city_rows = made
        joined = self._last_cities = b"".join(made)
        keep(self._maps, key, (tuple(made), joined), BLOCK_CACHE)
        return joined

    def _cities_changed(self, pa: list[int], ga: list[int], pf: list[int], gf: list[int]) -> bytes:
        """The `cities` field (float32 bytes) when the game went on and its map changed:
        the rows of the cities whose pieces changed (a move changes one or two) found or
        made, the others kept (keyed by the whole map, nine changed maps in ten were new
        in play)."""
        lpa, lga, lpf, lgf = self._last_map
        cities = self._city_range
        changed: list[int] = []
        # the cities changed in each list that changed (most changes touch one list)
        if pa != lpa:
            changed += compress(cities, map(ne, pa, lpa))
            lpa = pa[:]  # copies: the map changes in place
        if ga != lga:
            changed += compress(cities, map(ne, ga, lga))
            lga = ga[:]
        if pf != lpf:
            changed += compress(cities, map(ne, pf, lpf))
            lpf = pf[:]
        if gf != lgf:
            changed += compress(cities, map(ne, gf, lgf))
            lgf = gf[:]
        self._last_map = (lpa, lga, lpf, lgf)
        rows, known = self._last_city_rows, self._city_rows
        for k in changed:
            pieces = (pa[k], ga[k], pf[k], gf[k])
            found = known[k].get(pieces)
            rows[k] = found if found is not None else self._city_row(k, pieces)
        joined = self._last_cities = b"".join(rows)
        return joined

    def _head(self, key: tuple[int, int, int | None, int, int, int]) -> bytes:
        """The fields `seat` to `score` (float32 bytes) from (seat, phase, the seat to
        act, the active side, campaign, score), kept by them (one look-up where each
        field was one)."""
        seat, phase, to_act, active, campaign, score = key
        side = self._side
        row = b"".join(
            (
                side[seat if 0 <= seat < 2 else -1],
                self._phase_rows[phase],
                self._to_act[to_act],
                side[active],
                pack("2f", campaign / 3, score / 10),
            )
        )
        return keep(self._heads, key, row, BLOCK_CACHE)

    def _flags_of(self, key: FlagKey) -> bytes:
        """The fields `flags`, `talents` and `passes` (float32 bytes) from (carneia,
        acropolis, acropolis penalty, talents if shown else None, passes), kept by them."""
        carneia, acropolis, penalty, talents, passes = key
        shown = (0.0, 0.0) if talents is None else (1.0, talents / 10)
        row = pack("6f", float(carneia), float(acropolis), float(penalty), *shown, passes / 2)
        return keep(self._flags, key, row, BLOCK_CACHE)

    def _stock(self, key: tuple[int, ...]) -> bytes:
        """The fields `bridge` to `once_used` (float32 bytes) from (bridge, reserve armies
        and fleets of each side, portraits, kings dead, one-time cards used), not seen
        before: joined from the rows of its parts, each kept by its numbers (a change is
        mostly one reserve or portrait: two in three whole keys were new in play)."""
        bridge, pa, pf, ga, gf, p0, p1, p2, kings, used = key
        reserve = self._reserves.get(rkey := (pa, pf, ga, gf))
        if reserve is None:
            reserve = keep(
                self._reserves, rkey, f32([pa / 20, pf / 20, ga / 20, gf / 20]), BLOCK_CACHE
            )
        portraits = self._portraits.get(pkey := (p0, p1, p2, kings))
        if portraits is None:
            row = f32([p0 / 3, p1 / 3, p2 / 3, kings / 3])
            portraits = keep(self._portraits, pkey, row, BLOCK_CACHE)
        once = self._used.get(used)
        if once is None:
            once = self._used[used] = f32([1.0 if used & b else 0.0 for b in self._once])
        stock = b"".join((self._bridge[bridge], reserve, portraits, once))
        return keep(self._stocks, key, stock, BLOCK_CACHE)

    def _move(self, key: tuple[int, ...]) -> bytes:
        """The `move` field (float32 bytes) from (side, kind, mode, count, carry, origin,
        destination) of a move under way."""
        side, kind, mode, count, carry, origin, dest = key
        block = [0.0] * (10 + 2 * self._ncities)
        block[0] = block[1 + side] = block[3 + kind] = 1.0
        if mode >= 0:
            block[6 + mode] = 1.0
        block[8], block[9] = count / 10, carry / 10
        if origin >= 0:
            block[10 + origin] = 1.0
        if dest >= 0:
            block[10 + self._ncities + dest] = 1.0
        return f32(block)

    def _move_of(self, key: tuple[int, ...]) -> bytes:
        """`_move(key)`, kept by its numbers."""
        row = self._moves[key] = self._move(key)
        return row

    def _battle_of(self, key: tuple[int, ...]) -> bytes:
        """`_battle(key)`, kept by its numbers."""
        row = self._battles[key] = self._battle(key)
        return row

    def _battle(self, key: tuple[int, ...]) -> bytes:
        """The `battle` field (float32 bytes) from (kind, attacker, cavalry, immortals
        used, city) of a battle under way."""
        kind, att, cav, imm, city = key
        block = [0.0] * (7 + self._ncities)
        block[0] = block[1 + kind] = block[3 + att] = 1.0
        block[5], block[6] = float(cav), float(imm)
        block[7 + city] = 1.0
        return f32(block)

    def fresh(self) -> EarthAndWaterObserver:
        """A new observer of this layout, its caches empty (`StateObserver.fresh`)."""
        return EarthAndWaterObserver(*self._made_of)

    def state_features(self, s: State, seat: int, to_act: int | None) -> Obs:
        """`features(view(s, seat))` as float32, read from the state: what `view.view`
        shows (every field's float32 bytes from a table or a cache, joined)."""
        side = self._side
        pa, ga = s.arm
        pf, gf = s.flt
        # the map as the last call saw it (most positions move nothing: four list
        # comparisons, where the key by content is a tuple of 44 numbers made and hashed)
        last = self._last_map
        if pa == last[0] and ga == last[1] and pf == last[2] and gf == last[3]:
            cities = self._last_cities
        elif s is self._last_state:  # the game went on: the cities changed
            cities = self._cities_changed(pa, ga, pf, gf)
        else:
            # another state object (the vector environment's games in turn, a step
            # back): its map whole, as its last observation left it
            map_key = (*pa, *ga, *pf, *gf)
            kept = self._maps.get(map_key)
            if kept is None:
                cities = self._cities_whole(pa, ga, pf, gf, map_key)
            else:
                self._last_map = (pa[:], ga[:], pf[:], gf[:])  # copies: changed in place
                self._last_city_rows = list(kept[0])
                cities = self._last_cities = kept[1]
            self._last_state = s  # (held: its identity is not reused while it is compared)
        # bridge, reserves, portraits, kings and one-time cards: they change seldom
        res_arm, res_flt, portraits = s.res_arm, s.res_flt, s.portraits
        key: tuple[int, ...] = (
            s.bridge,
            res_arm[0],
            res_flt[0],
            res_arm[1],
            res_flt[1],
            portraits[0],
            portraits[1],
            portraits[2],
            s.kings,
            s.used,
        )
        if key == self._last_stock:
            stock = self._last_stock_row
        else:  # (a stock seen before: games in turn)
            stock = self._stocks.get(key) or self._stock(key)
            self._last_stock, self._last_stock_row = key, stock
        mv = s.mv
        if mv is None:
            move = self._no_move
        else:
            key = (mv.side, mv.kind, mv.mode, mv.count, mv.carry, mv.origin, mv.dest)
            move = self._moves.get(key) or self._move_of(key)
        bt = s.bt
        if bt is None or bt.stage >= 2:
            battle = self._no_battle
        else:
            key = (bt.kind, bt.att, int(bool(bt.cav)), int(bool(bt.imm)), bt.city)
            battle = self._battles.get(key) or self._battle_of(key)
        size, rows = self._hand_size, self._counts.rows
        persia, greece = s.hands
        discard, pile = s.discard, self._discard
        # the parts in the layout's order, joined (one tuple: no list grown part by part)
        return self._array(
            join_parts(
                (
                    self._heads.get(head := (seat, s.phase, to_act, s.active, s.campaign, s.score))
                    or self._head(head),
                    cities,
                    stock,
                    size[len(persia)],
                    # `view.hand_visible`, written out (a call less an observation;
                    # the tests hold it to the view's): Persia's hand to Persia alone,
                    # Greece's to Persia too while Hippias lets it pick a card
                    (
                        rows.get(tuple(persia)) or self._counts(persia)
                        if seat == PERSIA
                        else self._hidden
                    ),
                    size[len(greece)],
                    (
                        rows.get(tuple(greece)) or self._counts(greece)
                        if seat == GREECE
                        or (seat == PERSIA and s.phase == CHOOSE and s.choice == C_HIPPIAS)
                        else self._hidden
                    ),
                    self._pile[len(s.deck)],
                    pile.row if discard == pile.last else pile(discard),
                    self._flags.get(
                        flag_key := (
                            s.carneia,
                            s.acropolis,
                            s.acropolis_penalty,
                            s.talents if s.phase in TALENTS_SHOWN else None,
                            s.passes,
                        )
                    )
                    or self._flags_of(flag_key),
                    move,
                    battle,
                    pack("2f", 1.0, s.window / 10) if s.phase == WINDOW_SHOWN else self._no_window,
                    side[s.result if s.result in (0, 1) else -1],
                )
            )
        )


def observer(components: Components, game_id: str, players: int) -> EarthAndWaterObserver:
    """The observer of the game `game_id` with `components` at `players` seats."""
    return EarthAndWaterObserver(components, game_id, players)
