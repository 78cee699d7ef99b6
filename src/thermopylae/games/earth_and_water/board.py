"""Map questions: who controls a city, where a group may go, what is supplied, what scores.

Pure functions of the component set and the state (rulebook sections 2, 6.3-6.5, 8, 9).
"""

from __future__ import annotations

from itertools import compress
from typing import Protocol

from thermopylae.games.earth_and_water.components import Components
from thermopylae.games.earth_and_water.state import State


class Pieces(Protocol):
    """What the questions of control and movement read of a position: the armies per side
    and city, and the bridge (the rules' `State`, or the heuristic's own positions)."""

    @property
    def arm(self) -> list[list[int]]: ...

    @property
    def bridge(self) -> bool: ...


def controls(c: Components, s: Pieces, side: int, city: int) -> bool:
    """A side controls a city where it has armies, and its own major cities while no
    enemy army stands there. Fleets never give control."""
    if s.arm[side][city]:
        return True
    if s.arm[1 - side][city]:
        return False
    return c.major[city] == side


def controllers(c: Components, s: State) -> list[int]:
    """Who controls each city: 0 Persia, 1 Greece, -1 no one — `controls` for every city
    at once, outside battles (a city where both sides' armies fight gives -1)."""
    return [
        (-1 if greece else 0) if persia else (1 if greece else major)
        for persia, greece, major in zip(s.arm[0], s.arm[1], c.major, strict=True)
    ]


def controlled(c: Components, s: Pieces, side: int) -> list[int]:
    """The cities `side` controls, in order: those where `controllers` says `side`, in
    one pass (no enemy army there, and an army of its own or its own major city). (A
    loop: in CPython 3.11 a list comprehension is a call of its own, for 11 cities.)"""
    mine, theirs, major = s.arm[side], s.arm[1 - side], c.major
    out = []
    for x in c.cities:
        if not theirs[x] and (mine[x] or major[x] == side):
            out.append(x)
    return out


def neighbours(c: Components, s: Pieces, city: int) -> tuple[int, ...]:
    """Cities joined to `city` by a usable road (Abydos-Pella only while the bridge stands)."""
    return c.roads[city] if s.bridge else c.unbridged[city]


def land_destinations(c: Components, s: Pieces, side: int, origin: int) -> list[int]:
    """Every city a land group from `origin` can reach: it may pass only through cities
    its side controls, and stops on entering any other city (rulebook 6.4)."""
    return sorted(land_reach(c, s, side, origin))


def land_reach(c: Components, s: Pieces, side: int, origin: int) -> list[int]:
    """`land_destinations` in the order the search finds them (nearest roads first from
    the last city reached): the heuristic ranks its candidate moves in this order."""
    seen = {origin}
    frontier = [origin]
    out = []
    mine, theirs, major = s.arm[side], s.arm[1 - side], c.major
    roads = c.roads if s.bridge else c.unbridged  # (`neighbours`)
    while frontier:
        city = frontier.pop()
        for n in roads[city]:
            if n in seen:
                continue
            seen.add(n)
            out.append(n)
            # pass on only through a city the mover controls (inlined `controls`)
            if not theirs[n] and (mine[n] or major[n] == side):
                frontier.append(n)
    return out


def route_cities(c: Components, s: Pieces, side: int, origin: int) -> set[int]:
    """The cities a land group from `origin` may pass through: the origin and every city
    its side controls that it can reach through such cities (the cities a move may have
    come through before it stopped)."""
    mine, theirs, major = s.arm[side], s.arm[1 - side], c.major
    seen = {origin}
    frontier = [origin]
    roads = c.roads if s.bridge else c.unbridged  # (`neighbours`)
    while frontier:
        city = frontier.pop()
        for n in roads[city]:
            if n not in seen and not theirs[n] and (mine[n] or major[n] == side):
                seen.add(n)
                frontier.append(n)
    return seen


def land_origins(c: Components, s: Pieces, side: int, locked: int = -1) -> list[int]:
    """Cities from which `side` can make a land move (`locked`: a city whose armies may
    not move, Sparta under the Carneia Festival)."""
    solid = c.solid
    return [
        city
        for city in compress(c.cities, s.arm[side])
        if city != locked and (solid[city] or neighbours(c, s, city))
    ]


def ports(c: Components) -> list[int]:
    return [city for city, p in enumerate(c.port) if p]


def sea_origins(c: Components, s: State, side: int) -> list[int]:
    return list(compress(c.cities, s.flt[side]))


def supplied(c: Components, s: State, side: int) -> list[bool]:
    """Whether each city is in supply for `side` (rulebook 8.2, lines of communication):
    reached by road from one of its controlled major cities through cities the enemy does
    not control, or a port holding its fleets while one of its controlled major cities has
    no enemy fleet. (`controllers` read city by city: a major city of its own is
    controlled while no enemy army is there; the enemy controls a city where `side` has no
    army and the enemy has one, or which is the enemy's major city. A flag per city, not
    a set: no hashing in the search.)"""
    mine, theirs, major, enemy = s.arm[side], s.arm[1 - side], c.major, 1 - side
    reached = [False] * len(major)
    frontier = []
    by_sea = False
    enemy_fleets = s.flt[enemy]
    for m in c.majors[side]:
        if not theirs[m]:
            reached[m] = True
            frontier.append(m)
            if not enemy_fleets[m]:
                by_sea = True
    roads = c.roads if s.bridge else c.unbridged  # (`neighbours`)
    while frontier:
        for n in roads[frontier.pop()]:
            if not reached[n] and (mine[n] or not (theirs[n] or major[n] == enemy)):
                reached[n] = True
                frontier.append(n)
    if by_sea:
        for x in compress(c.cities, s.flt[side]):
            reached[x] = True
    return reached


def points(c: Components, s: State) -> tuple[int, int]:
    """Scoring, for Persia and for Greece: 1 point per controlled city, 2 per major city;
    Athenai scores for no one in a campaign when the Acropolis burned."""
    worth, persia, greece, major = c.points, s.arm[0], s.arm[1], c.major
    burned = c.athenai if s.acropolis else -1
    scores = [0, 0]
    for x in c.cities:  # (`controlled`, for both sides at once)
        if x == burned:
            continue
        p, g = persia[x], greece[x]
        if p:
            if not g:
                scores[0] += worth[x]
        elif g:
            scores[1] += worth[x]
        elif major[x] >= 0:
            scores[major[x]] += worth[x]
    return scores[0], scores[1]


def excess(c: Components, s: State, side: int) -> int:
    """Armies beyond what the amphorae of the cities `side` controls can feed (rulebook
    8.2, attrition). Persian armies in Abydos and Ephesos are always fed and do not count."""
    armies, theirs, major, amphorae = s.arm[side], s.arm[1 - side], c.major, c.amphorae
    over = 0
    for x in c.attrition_cities[side]:
        n = armies[x]
        over += n
        if not theirs[x] and (n or major[x] == side):  # (`controlled`)
            over -= amphorae[x]
    return over
