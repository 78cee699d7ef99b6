"""Helpers for Earth & Water tests: consistent positions, and actions in notation."""

from __future__ import annotations

from typing import Any

from thermopylae.games.earth_and_water import game as ew_game
from thermopylae.games.earth_and_water.rules import EarthAndWater
from thermopylae.games.earth_and_water.serial import check
from thermopylae.games.earth_and_water.state import OPS, PERSIA, State

Units = dict[str, tuple[int, int]]  # city name: (armies, fleets)


def position(
    game: EarthAndWater | None = None,
    *,
    persia: Units | None = None,
    greece: Units | None = None,
    hands: tuple[list[int], list[int]] = ([], []),
    discard: list[int] | None = None,
    active: int = PERSIA,
    campaign: int = 1,
    score: int = 0,
    bridge: bool = False,
    kings: int = 0,
    carneia: bool = False,
    options: dict[str, Any] | None = None,
) -> State:
    """An Operations position with `active` to play. Pieces not placed are in reserve;
    cards not in a hand or the discard pile are in the draw pile. Defaults: the setup
    of RB 3 (when both `persia` and `greece` are None)."""
    g = game or ew_game()
    s = g.new(options or {})
    if persia is not None or greece is not None:
        for side, units in ((0, persia or {}), (1, greece or {})):
            s.arm[side] = [0] * len(g.c.names)
            s.flt[side] = [0] * len(g.c.names)
            for name, (a, f) in units.items():
                s.arm[side][g.c.city[name]] = a
                s.flt[side][g.c.city[name]] = f
            s.res_arm[side] = g.c.armies[side] - sum(s.arm[side])
            s.res_flt[side] = g.c.fleets[side] - sum(s.flt[side])
    s.hands = [sorted(hands[0]), sorted(hands[1])]
    s.discard = list(discard or [])
    s.deck = [k for k in range(1, 17) if k not in s.hands[0] + s.hands[1] + s.discard]
    s.phase = OPS
    s.active = s.side = active
    s.campaign = campaign
    s.score = score
    s.bridge = bridge
    s.kings = kings
    s.portraits[0] = kings
    s.res_arm[0] -= kings
    s.carneia = carneia
    s.stack = []
    s._legal = None
    check(s, g.c)
    return s


def act(game: EarthAndWater, s: State, *texts: str) -> list[Any]:
    """Apply actions (decisions or chance outcomes) in notation; return their events."""
    events: list[Any] = []
    for t in texts:
        events += game.apply(s, game.parse(t))
    return events


def legal_texts(game: EarthAndWater, s: State) -> list[str]:
    return [game.format(a) for a in game.legal(s)]


def city(game: EarthAndWater, name: str) -> int:
    return game.c.city[name]


# -- reading the table through a view (what a player sees) ---------------------------


def seen(s: State, seat: int | None = None) -> dict[str, Any]:
    return ew_game().view(s, seat)


def view_city(s: State, name: str) -> dict[str, Any]:
    return next(c for c in seen(s)["cities"] if c["name"] == name)


def armies(s: State, name: str) -> tuple[int, int]:
    a = view_city(s, name)["armies"]
    return a["persia"], a["greece"]


def fleets(s: State, name: str) -> tuple[int, int]:
    f = view_city(s, name)["fleets"]
    return f["persia"], f["greece"]


def reserve(s: State, side: str) -> tuple[int, int]:
    r = seen(s)["reserve"][side]
    return r["armies"], r["fleets"]
