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

from typing import TYPE_CHECKING

from thermopylae.engine.observation import Counts, Field, Fields, Pile, histogram, onehot
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
        import numpy as np

        super().__init__(game_id, _fields(t, players))
        self.players = players
        self._tables = t
        values = tuple(sorted(set(t.components.spartan)))
        kinds = tuple(dict.fromkeys(t.kind_texts))
        self._nvalues = len(values)
        self._value = {v: i for i, v in enumerate(values)}
        # a Persian kind's index -> its place among the distinct kind texts
        self._kind = [kinds.index(text) for text in t.kind_texts]
        self._kinds = [
            (float(k.combat), float(k.annihilation), float(k.bonus))
            for k in t.components.persian_kinds
        ]
        self._values = Counts(self._value, len(values))
        self._support_total = t.components.support
        self._nloc = len(t.locations)
        self._die = [bool(d) for d in t.die]
        # a Persian kind's `slots` entries, and what the support is divided by
        self._slot_rows = [
            np.array((1.0, combat / 25, annihilation / 25, bonus), dtype=np.float32)
            for combat, annihilation, bonus in self._kinds
        ]
        self._support_scale = max(1, self._support_total)
        # the entries that never change: the support total / 4
        self._constant = np.zeros(self._size, dtype=np.float32)
        self._constant[self._at["support"] + 1] = self._support_total / 4
        self._constant.setflags(write=False)
        # the piles that grow over a game, each counted by a `Pile`
        self._nkinds = len(kinds)
        self._sdiscard = Pile(self._value, len(values))
        self._pdiscard = Pile(dict(enumerate(self._kind)), len(kinds))
        self._graveyard = Pile(dict(enumerate(self._kind)), len(kinds))
        # each field's offset after `seat`, in the order `state_features` unpacks them
        # (`graveyard` follows `persian_discard`)
        self._offsets = tuple(
            self._at[name]
            for name in (
                "phase",
                "to_act",
                "active",
                "recipient",
                "turn",
                "marker",
                "slots",
                "support",
                "hands",
                "spartan_deck",
                "spartan_discard",
                "persian_deck",
                "persian_discard",
                "fight",
                "draws",
                "result",
            )
        )

    def state_features(self, s: State, seat: int, to_act: int | None) -> Obs:
        """`features(view(s, seat))` as float32, read from the state: what `view.view`
        shows (a copy of the constant entries, written where the rest is not zero)."""
        (
            o_phase,
            o_act,
            o_active,
            o_recipient,
            o_turn,
            o_marker,
            o_slots,
            o_support,
            o_hands,
            o_sdeck,
            o_sdiscard,
            o_pdeck,
            o_piles,
            o_fight,
            o_draws,
            o_result,
        ) = self._offsets
        n = s.players
        out = self._constant.copy()
        if 0 <= seat < n:
            out[seat] = 1.0  # "seat" comes first
        out[o_phase + s.phase] = 1.0
        if to_act == CHANCE:
            out[o_act + n] = 1.0
        elif to_act is not None:
            out[o_act + to_act] = 1.0
        out[o_active + s.active] = 1.0
        if s.recipient >= 0:
            out[o_recipient + s.recipient] = 1.0
        out[o_turn] = s.turn / 100
        if 0 <= s.marker <= self._nloc:
            out[o_marker + s.marker] = 1.0
        slots = s.slots
        if slots:
            rows = self._slot_rows
            k = slots[0]
            if k >= 0:
                out[o_slots : o_slots + 4] = rows[k]
            if len(slots) > 1 and slots[1] >= 0:
                out[o_slots + 4 : o_slots + 8] = rows[slots[1]]
        out[o_support] = s.support / self._support_scale
        i = o_hands
        nv = self._nvalues
        counts = self._values
        open_hands = s.open_hands
        for p, h in enumerate(s.hands):
            if h:
                out[i] = len(h) / 10
                if open_hands or p == seat:
                    out[i + 1 : i + 1 + nv] = counts(h)
            i += 1 + nv
        out[o_sdeck] = len(s.sdeck) / 20
        if s.sdiscard:
            out[o_sdiscard : o_sdiscard + nv] = self._sdiscard(s.sdiscard)
        out[o_pdeck] = len(s.pdeck) / 28
        nk = self._nkinds
        if s.pdiscard:
            out[o_piles : o_piles + nk] = self._pdiscard(s.pdiscard)
        if s.graveyard:
            out[o_piles + nk : o_piles + 2 * nk] = self._graveyard(s.graveyard)
        if s.card:
            out[o_fight : o_fight + 6] = (
                1.0,
                s.card / 25,
                s.committed / 4,
                len(s.dice) / 4,
                sum(s.dice) / 24,
                float(self._die[s.marker]),
            )
        out[o_draws] = s.draws / 4
        if s.result:
            out[o_result + (0 if s.result > 0 else 1)] = 1.0
        return out


def observer(t: Tables, game_id: str, players: int) -> ThermopylesObserver:
    """The observer of the game `game_id` with tables `t` at `players` seats."""
    return ThermopylesObserver(t, game_id, players)
