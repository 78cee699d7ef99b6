"""The observations of Thermopyles for learning interfaces: the layout of one seat's view
as fixed-size numbers (docs/rl.md lists every field), built from `view` only.

`observer(...)` builds what `Thermopyles.observer(options)` returns, from the tables only;
the game keeps one per player count (`rules._observer`: the layout depends on nothing else).
"""

from __future__ import annotations

from thermopylae.engine.observation import Field, Fields, histogram, onehot
from thermopylae.engine.protocol import JSON
from thermopylae.games.thermopyles.actions import seat_name
from thermopylae.games.thermopyles.state import PHASES
from thermopylae.games.thermopyles.tables import Tables


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


def observer(t: Tables, game_id: str, players: int) -> ThermopylesObserver:
    """The observer of the game `game_id` with tables `t` at `players` seats."""
    return ThermopylesObserver(t, game_id, players)
