"""Fixed-size observations and action masks for learning libraries.

An observation is built only from `game.view(state, seat)`, the one place where hidden
information is filtered, so it cannot leak what the seat may not see. Its layout, a list
of `(name, size, meaning)` per game (`layout(game, options)`), is documented in
`docs/rl.md`. Numbers are scaled to about [0, 1]; one-hot fields are all zero when the
value is absent (`None`). Seats are absolute indices `0..n-1` in the game's seat order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from thermopylae.engine.protocol import CHANCE, JSON

Obs = npt.NDArray[np.float32]
LOW, HIGH = -100.0, 100.0
"""Bounds of every observation entry (values are clipped to them; none comes near)."""
Getter = Callable[[JSON], Sequence[float]]


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    size: int
    meaning: str
    get: Getter


def onehot(value: Any, choices: Sequence[Any]) -> list[float]:
    return [1.0 if value == c else 0.0 for c in choices]


@cache
def _index(choices: tuple[Any, ...]) -> dict[Any, int]:
    return {c: i for i, c in enumerate(choices)}


def histogram(items: Sequence[Any], choices: tuple[Any, ...], scale: float = 1.0) -> list[float]:
    out = [0.0] * len(choices)
    index = _index(choices)
    for x in items:
        i = index.get(x)
        if i is not None:
            out[i] += 1.0 / scale
    return out


def _num(x: Any, scale: float) -> float:
    return 0.0 if x is None else float(x) / scale


# --- Thermopyles --------------------------------------------------------------------


def _thermopyles(game: Any, n: int) -> list[Field]:
    from thermopylae.games.thermopyles.actions import seat_name
    from thermopylae.games.thermopyles.state import PHASES

    seats = [seat_name(p) for p in range(n)]
    values = tuple(sorted(set(game.components.spartan)))
    kinds = tuple(dict.fromkeys(game.kind_texts))
    nloc = len(game.locations)

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


# --- 300: Earth & Water -------------------------------------------------------------


def _earth_and_water(game: Any) -> list[Field]:
    from thermopylae.games.earth_and_water.state import PHASES, SIDES

    sides = list(SIDES)
    ncities = len(game.cities)
    cards = tuple(range(len(game.c.greek_names)))
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
            lambda v: [float(v["talents"] is not None), _num(v["talents"], 10)],
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
            lambda v: [float(v["window"] is not None), _num(v["window"], 10)],
        ),
        Field(
            "result",
            2,
            "one-hot winner: persia, greece (all 0: none yet or a draw)",
            lambda v: onehot((v["result"] or {}).get("winner"), sides),
        ),
    ]


# --- 300: The Board Game (hot gates) -----------------------------------------------


def _hot_gates(game: Any, n: int) -> list[Field]:
    from thermopylae.games.hot_gates.board import SEATS
    from thermopylae.games.hot_gates.components import TYPE_IDS
    from thermopylae.games.hot_gates.state import PHASES, SPACES, WINDOWS

    seats = list(SEATS[n])
    phases = [p for p in PHASES if p != "window"] + [f"{w} cards" for w in WINDOWS]
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
        b = v["battle"]
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
            _num(left.get("persian"), 10),
            _num(left.get("spartan"), 10),
            *onehot(conquer.get("side"), ["persian"]),
        ]

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


@cache
def _layout(game_id: str, players: int) -> tuple[Field, ...]:
    from thermopylae.engine import registry

    game = registry.get(game_id)
    if game_id == "thermopyles":
        return tuple(_thermopyles(game, players))
    if game_id == "earth-and-water":
        return tuple(_earth_and_water(game))
    if game_id == "hot-gates":
        return tuple(_hot_gates(game, players))
    raise ValueError(f"no observation layout for game {game_id!r}")


def _fields(game: Any, options: Mapping[str, Any]) -> tuple[Field, ...]:
    return _layout(game.id, len(game.seats(options)))


def layout(game: Any, options: Mapping[str, Any]) -> list[tuple[str, int, str]]:
    """The observation's fields in order: (name, size, meaning)."""
    return [(f.name, f.size, f.meaning) for f in _fields(game, options)]


def observation_size(game: Any, options: Mapping[str, Any]) -> int:
    return sum(f.size for f in _fields(game, options))


def observation(game: Any, options: Mapping[str, Any], view: JSON) -> Obs:
    """The float32 vector of `view` (from `game.view(state, seat)`); `options` must be
    complete (`game.options(...)`)."""
    parts: list[float] = []
    for f in _fields(game, options):
        values = list(f.get(view))
        if len(values) != f.size:
            raise AssertionError(f"{game.id} field {f.name}: {len(values)} != {f.size}")
        parts += values
    return np.clip(np.asarray(parts, dtype=np.float32), LOW, HIGH)


def observe(game: Any, options: Mapping[str, Any], state: Any, seat: int) -> Obs:
    """The observation of `seat` in `state` (through `game.view`)."""
    return observation(game, options, game.view(state, seat))


def action_mask(game: Any, state: Any, seat: int | None = None) -> npt.NDArray[np.int8]:
    """1 for each encoded legal action of the deciding seat (all 0 unless `seat`, when
    given, is the one to act; all 0 at chance nodes and once the game is over)."""
    mask = np.zeros(game.num_actions, dtype=np.int8)
    who = game.to_act(state)
    if who is None or who == CHANCE or (seat is not None and who != seat):
        return mask
    for a in game.legal(state):
        mask[game.encode(a)] = 1
    return mask
