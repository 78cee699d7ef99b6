"""The observations of Earth & Water for learning interfaces: the layout of one seat's view
as fixed-size numbers (docs/rl.md lists every field), built from `view` only.

`observer(...)` builds what `EarthAndWater.observer(options)` returns, from the tables only;
the game keeps one per player count (`rules._observer`: the layout depends on nothing else).
"""

from __future__ import annotations

from thermopylae.engine.observation import Field, Fields, histogram, onehot, scaled
from thermopylae.engine.protocol import JSON
from thermopylae.games.earth_and_water.components import Components
from thermopylae.games.earth_and_water.state import PHASES, SIDES


def _fields(components: Components) -> list[Field]:
    """The fields of the two-sided game, in order."""
    sides = list(SIDES)
    ncities = len(components.cities)
    cards = tuple(range(len(components.greek_names)))
    once = ["Miltiades", "Themistocles", "Leonidas", "Artemisia I"]

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


class EarthAndWaterObserver(Fields):
    """The observation layout of Earth & Water for one player count."""

    def __init__(self, components: Components, game_id: str, players: int) -> None:
        super().__init__(game_id, _fields(components))


def observer(components: Components, game_id: str, players: int) -> EarthAndWaterObserver:
    """The observer of the game `game_id` with `components` at `players` seats."""
    return EarthAndWaterObserver(components, game_id, players)
