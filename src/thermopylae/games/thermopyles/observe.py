"""The observations of Thermopyles for learning interfaces: the layout of one seat's view
as fixed-size numbers (docs/rl.md lists every field), built from `view` only.

`state_features` gives the same numbers from the state directly (the learning interfaces'
fast path, `engine.observation.StateObserver`): it reads only what `view.view` shows the
seat (other players' hands by their size alone unless hands are open, the decks by
their size), and the tests hold it to equality with `features(view)`.

`observer(...)` builds what `Thermopyles.observer(options)` returns, from the tables only;
the game keeps one per player count (`rules._observer`: the layout depends on nothing else).
"""

from __future__ import annotations

from struct import pack
from typing import TYPE_CHECKING

from thermopylae.engine.observation import (
    Counts,
    Field,
    Fields,
    PileBytes,
    array_maker,
    f32,
    histogram,
    join_parts,
    onehot,
    onehots,
    steps,
)
from thermopylae.engine.protocol import CHANCE, JSON
from thermopylae.games.thermopyles.actions import seat_name
from thermopylae.games.thermopyles.state import PHASES, State
from thermopylae.games.thermopyles.tables import Tables

if TYPE_CHECKING:
    from thermopylae.engine.observation import Obs  # NumPy: imported where arrays are built


def _fields(t: Tables, n: int) -> list[Field]:
    """The fields of a table of `n` Spartan players, in order."""
    seats = [seat_name(p) for p in range(n)]
    values = tuple(sorted(set(t.components.spartan)))
    kinds = tuple(dict.fromkeys(t.kind_texts))
    nloc = len(t.locations)

    def slots(v: JSON) -> list[float]:
        out: list[float] = []
        for i in range(2):
            c = v["slots"][i] if i < len(v["slots"]) else None
            out += (
                [0.0] * 4
                if c is None
                else [1.0, c["combat"] / 25, c["annihilation"] / 25, float(c["bonus"])]
            )
        return out

    def hands(v: JSON) -> list[float]:
        out: list[float] = []
        for h in v["hands"]:
            out.append(h["count"] / 10)
            out += histogram(h["cards"] or [], values)
        return out

    def fight(v: JSON) -> list[float]:
        f = v["fight"]
        if not f:
            return [0.0] * 6
        return [
            1.0,
            f["card"] / 25,
            f["support"] / 4,
            len(f["dice"]) / 4,
            sum(f["dice"]) / 24,
            float(f["location_die"]),
        ]

    def result(v: JSON) -> list[float]:
        r = v["result"]
        return [0.0, 0.0] if not r else onehot(r["result"], ["win", "loss"])

    return [
        Field("seat", n, "one-hot: the observing seat", lambda v: onehot(v["seat"], seats)),
        Field(
            "phase",
            len(PHASES),
            f"one-hot: phase ({', '.join(PHASES)})",
            lambda v: onehot(v["phase"], PHASES),
        ),
        Field(
            "to_act",
            n + 1,
            "one-hot: the seat to act, then chance (all 0: over)",
            lambda v: onehot(v["to_act"], [*seats, "chance"]),
        ),
        Field("active", n, "one-hot: the active player", lambda v: onehot(v["active"], seats)),
        Field(
            "recipient",
            n,
            "one-hot: the player receiving a card (all 0: none)",
            lambda v: onehot(v["recipient"], seats),
        ),
        Field("turn", 1, "turn number / 100", lambda v: [v["turn"] / 100]),
        Field(
            "marker",
            nloc + 1,
            f"one-hot: the marker's location (0..{nloc})",
            lambda v: onehot(v["marker"], range(nloc + 1)),
        ),
        Field(
            "slots",
            8,
            "for each of the 2 Persian slots: present, combat/25, annihilation/25, bonus",
            slots,
        ),
        Field(
            "support",
            2,
            "support cards left / total, total / 4",
            lambda v: [v["support"] / max(1, v["support_total"]), v["support_total"] / 4],
        ),
        Field(
            "hands",
            n * (1 + len(values)),
            f"per seat: hand size / 10, then counts of visible cards of value {values} "
            "(0 for hidden hands)",
            hands,
        ),
        Field("spartan_deck", 1, "Spartan deck size / 20", lambda v: [v["spartan_deck"] / 20]),
        Field(
            "spartan_discard",
            len(values),
            f"counts of discarded Spartan values {values}",
            lambda v: histogram(v["spartan_discard"], values),
        ),
        Field("persian_deck", 1, "Persian deck size / 28", lambda v: [v["persian_deck"] / 28]),
        Field(
            "persian_discard",
            len(kinds),
            f"counts of discarded Persian kinds {kinds}",
            lambda v: histogram(v["persian_discard"], kinds),
        ),
        Field(
            "graveyard",
            len(kinds),
            "counts of Persian kinds in the graveyard (same order)",
            lambda v: histogram(v["graveyard"], kinds),
        ),
        Field(
            "fight",
            6,
            "fight under way: present, card/25, support/4, dice count/4, dice sum/24, location die",
            fight,
        ),
        Field("draws", 1, "draws pending / 4", lambda v: [v["draws"] / 4]),
        Field("result", 2, "one-hot: win, loss (all 0: not over)", result),
    ]


class ThermopylesObserver(Fields):
    """The observation layout of Thermopyles for one player count."""

    def __init__(self, t: Tables, game_id: str, players: int) -> None:
        super().__init__(game_id, _fields(t, players))
        self.players = players
        self._tables = t
        self._made_of = (t, game_id, players)
        n = players
        values = tuple(sorted(set(t.components.spartan)))
        kinds = tuple(dict.fromkeys(t.kind_texts))
        nv, nk = len(values), len(kinds)
        nloc = len(t.locations)
        support_total = t.components.support
        # `state_features` joins the float32 bytes of the fields (`engine.observation`),
        # each from a table by the state's number, or a cache: a one-hot row per value
        # (the last entry, also found at -1, all zero)
        self._seat = onehots(n)
        self._phase = onehots(len(PHASES))
        act = onehots(n + 1)  # the seats, then chance
        self._to_act: dict[int | None, bytes] = {i: act[i] for i in range(n)}
        self._to_act |= {CHANCE: act[n], None: act[n + 1]}
        self._player = onehots(n)  # active, recipient (-1: none)
        self._turn = steps(1000, 100)
        self._marker = onehots(nloc + 1)
        # a Persian kind's `slots` entries (-1, an empty slot: zeros)
        self._slot = [
            f32((1.0, k.combat / 25, k.annihilation / 25, float(k.bonus)))
            for k in t.components.persian_kinds
        ] + [f32([0.0] * 4)]
        # support left / total, then the total / 4
        self._support = [
            f32((k / max(1, support_total), support_total / 4)) for k in range(support_total + 1)
        ]
        self._hand_size = steps(100, 10)
        self._hidden = f32([0.0] * nv)
        self._values = Counts({v: i for i, v in enumerate(values)}, nv, 1 << 16, raw=True)
        self._sdeck = steps(1000, 20)
        self._pdeck = steps(1000, 28)
        self._sdiscard = PileBytes({v: i for i, v in enumerate(values)}, nv)
        # a Persian kind's index -> its place among the distinct kind texts
        kind_place = {i: kinds.index(text) for i, text in enumerate(t.kind_texts)}
        self._pdiscard = PileBytes(kind_place, nk)
        self._graveyard = PileBytes(kind_place, nk)
        self._no_fight = f32([0.0] * 6)
        self._die = [float(d) for d in t.die]
        self._draws = steps(100, 4)
        self._result = [f32((0.0, 0.0)), f32((1.0, 0.0)), f32((0.0, 1.0))]  # by result
        self._array = array_maker(self._size)  # the observation from its parts joined

    def fresh(self) -> ThermopylesObserver:
        """A new observer of this layout, its caches empty (`StateObserver.fresh`)."""
        return ThermopylesObserver(*self._made_of)

    def state_features(self, s: State, seat: int, to_act: int | None) -> Obs:
        """`features(view(s, seat))` as float32, read from the state: what `view.view`
        shows (every field's float32 bytes from a table or a cache, joined)."""
        player, slot, slots = self._player, self._slot, s.slots
        # the fast paths of `Counts` and `PileBytes` read here (a call to either costs
        # more than the look-up itself)
        sdiscard, pdiscard, graveyard = self._sdiscard, self._pdiscard, self._graveyard
        tail = (
            self._sdeck[len(s.sdeck)],
            sdiscard.row if s.sdiscard == sdiscard.last else sdiscard(s.sdiscard),
            self._pdeck[len(s.pdeck)],
            pdiscard.row if s.pdiscard == pdiscard.last else pdiscard(s.pdiscard),
            graveyard.row if s.graveyard == graveyard.last else graveyard(s.graveyard),
            pack(
                "6f",
                1.0,
                s.card / 25,
                s.committed / 4,
                len(s.dice) / 4,
                sum(s.dice) / 24,
                self._die[s.marker],
            )
            if s.card
            else self._no_fight,
            self._draws[s.draws],
            self._result[s.result],
        )
        size, counts = self._hand_size, self._values
        rows = counts.rows
        hands = s.hands
        if len(hands) == 1 and seat == 0:  # solo: the one hand is the seat's own
            (h,) = hands
            return self._array(
                join_parts(
                    (
                        self._seat[0],
                        self._phase[s.phase],
                        self._to_act[to_act],
                        player[s.active],
                        player[s.recipient],
                        self._turn[s.turn],
                        self._marker[s.marker],
                        slot[slots[0]] if slots else slot[-1],
                        slot[slots[1]] if len(slots) > 1 else slot[-1],
                        self._support[s.support],
                        size[len(h)],
                        rows.get(tuple(h)) or counts(h),
                        *tail,
                    )
                )
            )
        parts = [
            self._seat[seat if 0 <= seat < s.players else -1],
            self._phase[s.phase],
            self._to_act[to_act],
            player[s.active],
            player[s.recipient],
            self._turn[s.turn],
            self._marker[s.marker],
            slot[slots[0]] if slots else slot[-1],
            slot[slots[1]] if len(slots) > 1 else slot[-1],
            self._support[s.support],
        ]
        if s.open_hands:
            for h in hands:
                parts += (size[len(h)], rows.get(tuple(h)) or counts(h))
        else:
            hidden = self._hidden
            for p, h in enumerate(hands):
                parts += (size[len(h)], rows.get(tuple(h)) or counts(h) if p == seat else hidden)
        parts += tail
        return self._array(join_parts(parts))


def observer(t: Tables, game_id: str, players: int) -> ThermopylesObserver:
    """The observer of the game `game_id` with tables `t` at `players` seats."""
    return ThermopylesObserver(t, game_id, players)
