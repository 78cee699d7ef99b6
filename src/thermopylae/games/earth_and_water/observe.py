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

from typing import TYPE_CHECKING

from thermopylae.engine.observation import (
    Counts,
    Field,
    Fields,
    Pile,
    histogram,
    onehot,
    scaled,
)
from thermopylae.engine.protocol import CHANCE, JSON
from thermopylae.games.earth_and_water.components import Components
from thermopylae.games.earth_and_water.state import PHASES, SIDES, State
from thermopylae.games.earth_and_water.view import ONCE, hand_visible

# `np` (NumPy) is bound by the first observer built (its `__init__`), not when this module
# loads: the rules import it, and a command that never observes need not pay for NumPy.
if TYPE_CHECKING:
    import numpy as np

    from thermopylae.engine.observation import Obs

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


BLOCK_CACHE = 20_000
"""Maps (armies and fleets) an observer keeps the `cities` numbers of (emptied when full)."""


class EarthAndWaterObserver(Fields):
    """The observation layout of Earth & Water for one player count."""

    def __init__(self, components: Components, game_id: str, players: int) -> None:
        global np  # NumPy, for the methods: see the module's imports
        import numpy as np

        super().__init__(game_id, _fields(components))
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
        # the armies and fleets on the map -> the `cities` field: they change at a move
        self._blocks: dict[tuple[int, ...], Obs] = {}
        self._counts = Counts({k: k for k in range(self._ncards)}, self._ncards)
        # the fields `bridge` to `once_used` by their sources; the discard pile
        self._stocks: dict[tuple[int, ...], Obs] = {}
        self._discard = Pile({k: k for k in range(self._ncards)}, self._ncards)
        # each field's offset after `seat`, in the order `state_features` unpacks them
        # (the fields in between are written together: they are side by side)
        self._offsets = tuple(
            self._at[name]
            for name in (
                "phase",
                "to_act",
                "active",
                "campaign",
                "score",
                "cities",
                "bridge",
                "hands",
                "draw_pile",
                "talents",
                "passes",
                "move",
                "battle",
                "window",
                "result",
            )
        )

    def _cities_block(self, pa: list[int], ga: list[int], pf: list[int], gf: list[int]) -> Obs:
        """The `cities` field from the armies and fleets (read-only; written in a list,
        then one array: a NumPy item or slice assignment costs several list ones)."""
        block = [0.0] * (10 * self._ncities)
        i = 0
        for k, (major, port, amph) in enumerate(self._cities):
            p_arm, g_arm = pa[k], ga[k]
            control = 0 if p_arm else 1 if g_arm else major
            if major >= 0:
                block[i + major] = 1.0
            block[i + 2 : i + 8] = (port, amph, p_arm / 10, g_arm / 10, pf[k] / 10, gf[k] / 10)
            if control >= 0:
                block[i + 8 + control] = 1.0
            i += 10
        row = np.array(block, dtype=np.float32)
        row.setflags(write=False)
        return row

    def _stock(self, key: tuple[int, ...]) -> Obs:
        """The fields `bridge` to `once_used` (read-only) from (bridge, reserve armies and
        fleets of each side, portraits, kings dead, one-time cards used)."""
        bridge, pa, pf, ga, gf, p0, p1, p2, kings, used = key
        block = [bridge, pa / 20, pf / 20, ga / 20, gf / 20, p0 / 3, p1 / 3, p2 / 3, kings / 3]
        block += [1.0 if used & b else 0.0 for b in self._once]
        row = np.array(block, dtype=np.float32)
        row.setflags(write=False)
        return row

    def state_features(self, s: State, seat: int, to_act: int | None) -> Obs:
        """`features(view(s, seat))` as float32, read from the state: what `view.view`
        shows (a fresh array, written where it is not zero)."""
        (
            o_phase,
            o_act,
            o_active,
            o_campaign,
            o_score,
            o_cities,
            o_stock,
            o_hands,
            o_piles,
            o_talents,
            o_passes,
            o_move,
            o_battle,
            o_window,
            o_result,
        ) = self._offsets
        out = np.zeros(self._size, dtype=np.float32)
        if 0 <= seat < 2:
            out[seat] = 1.0  # "seat" comes first
        for i in self._phase[s.phase]:
            out[o_phase + i] = 1.0
        if to_act == CHANCE:
            out[o_act + 2] = 1.0
        elif to_act is not None:
            out[o_act + to_act] = 1.0
        out[o_active + s.active] = 1.0
        out[o_campaign] = s.campaign / 3
        out[o_score] = s.score / 10
        pa, ga = s.arm
        pf, gf = s.flt
        key = (*pa, *ga, *pf, *gf)
        block = self._blocks.get(key)
        if block is None:
            block = self._cities_block(pa, ga, pf, gf)
            if len(self._blocks) >= BLOCK_CACHE:
                self._blocks.clear()
            self._blocks[key] = block
        out[o_cities : o_cities + 10 * self._ncities] = block
        # bridge, reserves, portraits, kings and one-time cards: they change seldom
        res_arm, res_flt, portraits = s.res_arm, s.res_flt, s.portraits
        stock = (
            int(s.bridge),
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
        block = self._stocks.get(stock)
        if block is None:
            block = self._stock(stock)
            if len(self._stocks) >= BLOCK_CACHE:
                self._stocks.clear()
            self._stocks[stock] = block
        out[o_stock : o_stock + 13] = block
        i = o_hands
        ncards = self._ncards
        counts = self._counts
        for side in (0, 1):
            hand = s.hands[side]
            if hand:
                out[i] = len(hand) / 10
                if side == seat or hand_visible(s, side, seat):
                    out[i + 1 : i + 1 + ncards] = counts(hand)
            i += 1 + ncards
        out[o_piles] = len(s.deck) / 16
        if s.discard:
            out[o_piles + 1 : o_piles + 1 + ncards] = self._discard(s.discard)
        i = o_piles + 1 + ncards  # the flags
        if s.carneia:
            out[i] = 1.0
        if s.acropolis:
            out[i + 1] = 1.0
        if s.acropolis_penalty:
            out[i + 2] = 1.0
        if s.phase in TALENTS_SHOWN:
            out[o_talents] = 1.0
            out[o_talents + 1] = s.talents / 10
        out[o_passes] = s.passes / 2
        mv = s.mv
        if mv is not None:
            i = o_move
            out[i] = 1.0
            out[i + 1 + mv.side] = 1.0
            out[i + 3 + mv.kind] = 1.0
            if mv.mode >= 0:
                out[i + 6 + mv.mode] = 1.0
            out[i + 8] = mv.count / 10
            out[i + 9] = mv.carry / 10
            if mv.origin >= 0:
                out[i + 10 + mv.origin] = 1.0
            if mv.dest >= 0:
                out[i + 10 + self._ncities + mv.dest] = 1.0
        bt = s.bt
        if bt is not None and bt.stage < 2:
            i = o_battle
            out[i] = 1.0
            out[i + 1 + bt.kind] = 1.0
            out[i + 3 + bt.att] = 1.0
            out[i + 5] = float(bool(bt.cav))
            out[i + 6] = float(bool(bt.imm))
            out[i + 7 + bt.city] = 1.0
        if s.phase == WINDOW_SHOWN:
            out[o_window] = 1.0
            out[o_window + 1] = s.window / 10
        if s.result in (0, 1):
            out[o_result + s.result] = 1.0
        return out


def observer(components: Components, game_id: str, players: int) -> EarthAndWaterObserver:
    """The observer of the game `game_id` with `components` at `players` seats."""
    return EarthAndWaterObserver(components, game_id, players)
