"""The observations of the Board Game for learning interfaces: the layout of one seat's view
as fixed-size numbers (docs/rl.md lists every field), built from `view` only.

`observer(game, players)` is what `HotGates.observer(options)` returns; it is built once
per game and player count (the layout depends on nothing else).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from thermopylae.engine.observation import Field, Fields, histogram, onehot, scaled
from thermopylae.engine.protocol import JSON
from thermopylae.games.hot_gates.board import SEATS
from thermopylae.games.hot_gates.components import TYPE_IDS
from thermopylae.games.hot_gates.state import PHASES, SPACES, WINDOWS

if TYPE_CHECKING:
    from thermopylae.games.hot_gates.rules import HotGates


def _fields(game: HotGates, n: int) -> list[Field]:
    """The fields of a table of `n` seats (`board.SEATS[n]`), in order."""
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
            scaled(left.get("persian"), 10),
            scaled(left.get("spartan"), 10),
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


class HotGatesObserver(Fields):
    """The observation layout of the Board Game for one player count."""

    def __init__(self, game: HotGates, players: int) -> None:
        super().__init__(game.id, _fields(game, players))


@lru_cache(maxsize=16)
def observer(game: HotGates, players: int) -> HotGatesObserver:
    """The observer of `game` at `players` seats, built once (a few games are ever asked)."""
    return HotGatesObserver(game, players)
