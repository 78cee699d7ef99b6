"""The 300: Earth & Water component set: the schema of its data file and derived tables.

Cities are referred to by index everywhere in the rules; `Components.city` maps names to
indices. The rules name a few cities (the four major cities, Thebai, Pella for the bridge),
so a file must keep those names.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from thermopylae.engine.components import Source, default_cached, digest, read_set, validate

if TYPE_CHECKING:
    from pydantic import BaseModel

Side = Literal["persia", "greece"]
NAMED = ("Abydos", "Ephesos", "Athenai", "Sparta", "Thebai", "Pella")


@cache
def schema() -> type[BaseModel]:
    """The data file's schema, `ComponentFile`. Its classes are made when a file is
    validated, not on import: pydantic, which they need, costs a command ~70 ms, and the
    default set read from the cache (`load`) needs none of it."""
    from pydantic import BaseModel, ConfigDict, Field, model_validator

    class _Strict(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)

    class Pieces(_Strict):
        armies: int = Field(ge=1, le=60)
        fleets: int = Field(ge=1, le=30)

    class PiecesBySide(_Strict):
        persia: Pieces
        greece: Pieces

    class Prices(_Strict):
        persia_budget: int = Field(ge=0)
        persia_budget_kept_card: int = Field(ge=0)
        greece_budget: int = Field(ge=0)
        card: int = Field(ge=1)
        army: int = Field(ge=1)
        persia_fleet: int = Field(ge=1)
        persia_fleet_cheap: int = Field(ge=1)
        greece_fleet: int = Field(ge=1)
        bridge: int = Field(ge=1)
        max_cards: int = Field(ge=0)
        max_fleets: int = Field(ge=0)

    class City(_Strict):
        name: str
        major: Side | None = None
        port: bool
        amphorae: int = Field(ge=0)
        source: Source | None = None

    class Placed(_Strict):
        armies: int = Field(default=0, ge=0)
        fleets: int = Field(default=0, ge=0)

    class Card(_Strict):
        number: int = Field(ge=1, le=16)
        greece: str
        persia: str
        source: Source | None = None

    class ComponentFile(_Strict):
        title: str
        default_source: Source
        pieces: PiecesBySide
        prices: Prices
        city: list[City]
        roads: list[list[str]]
        bridge_road: list[str]
        setup: dict[Side, dict[str, Placed]]
        card: list[Card]

        @model_validator(mode="after")
        def _consistent(self) -> ComponentFile:
            names = [c.name for c in self.city]
            problems = []
            if len(set(names)) != len(names):
                problems.append("city names must be unique")
            for need in NAMED:
                if need not in names:
                    problems.append(f"the rules need a city named {need}")
            for road in [*self.roads, self.bridge_road]:
                if len(road) != 2:
                    problems.append(f"a road joins two cities, not {road}")
                    continue
                a, b = road
                for n in (a, b):
                    if n not in names:
                        problems.append(f"road {a}-{b}: no city {n}")
            if sorted(self.bridge_road) not in [sorted(r) for r in self.roads]:
                problems.append("bridge_road must be one of the roads")
            for side, places in self.setup.items():
                for n in places:
                    if n not in names:
                        problems.append(f"setup.{side}: no city {n}")
            if sorted(c.number for c in self.card) != list(range(1, 17)):
                problems.append("the cards must be numbered 1 to 16, once each")
            if problems:
                raise ValueError("; ".join(problems))
            return self

    return ComponentFile


@dataclass(frozen=True)
class Prices:
    """What things cost and the caps on buying them (the file's `prices`)."""

    persia_budget: int
    persia_budget_kept_card: int
    greece_budget: int
    card: int
    army: int
    persia_fleet: int
    persia_fleet_cheap: int
    greece_fleet: int
    bridge: int
    max_cards: int
    max_fleets: int


@dataclass(frozen=True)
class Components:
    title: str
    digest: str
    names: tuple[str, ...]
    city: dict[str, int]
    major: tuple[int, ...]  # per city: -1, or the side (0 Persia, 1 Greece) it is major for
    port: tuple[bool, ...]
    amphorae: tuple[int, ...]
    points: tuple[int, ...]  # 2 for a major city, 1 otherwise
    roads: tuple[tuple[int, ...], ...]  # neighbours, bridge road included
    solid: tuple[bool, ...]  # has a road other than the bridge road
    bridge: tuple[int, int]
    armies: tuple[int, int]  # pieces per side (Persia, Greece)
    fleets: tuple[int, int]
    setup: tuple[dict[int, tuple[int, int]], dict[int, tuple[int, int]]]  # city: (armies, fleets)
    prices: Prices
    greek_names: tuple[str, ...]  # index = card number (0 unused)
    persian_names: tuple[str, ...]
    sources: dict[str, int]
    origin: str
    # Tables the rules read at every step, derived once: the ports, the cities the rules
    # name, the range of city indices, the roads while the bridge is down, each side's
    # major cities, and the cities whose armies count for attrition (rulebook 8.2: Persian
    # armies in Abydos and Ephesos are always fed), and the minor cities.
    ports: tuple[int, ...]
    abydos: int
    ephesos: int
    athenai: int
    sparta: int
    thebai: int
    cities: range
    unbridged: tuple[tuple[int, ...], ...]
    majors: tuple[tuple[int, ...], tuple[int, ...]]
    attrition_cities: tuple[tuple[int, ...], tuple[int, ...]]
    minors: tuple[int, ...]  # the cities that are no side's major city
    # Per state of the bridge (down, up), per city: whether a road leads out of it (the
    # cities a land move may start from, `board.land_origins`).
    exits: tuple[tuple[bool, ...], tuple[bool, ...]]
    provisional: bool = False


def load(path: Path | None = None) -> Components:
    """The default set shipped with the package (validated once, then read from its
    cache beside the module's bytecode: `engine.components.default_cached`), or the file
    at `path`."""
    if path is None:
        return _tables(
            default_cached(__package__, lambda raw: _validated(raw, "default")), "default"
        )
    return _build(*read_set(__package__, path))


def _build(data: dict[str, Any], origin: str) -> Components:
    return _tables(_validated(data, origin), origin)


def _validated(data: dict[str, Any], origin: str) -> dict[str, Any]:
    """The file checked against the schema, as plain JSON values with every default
    filled in: what the digest is made of and the tables are derived from."""
    values: dict[str, Any] = validate(schema(), data, origin).model_dump(mode="json")
    return values


def _tables(f: dict[str, Any], origin: str) -> Components:
    """The rules' tables derived from a validated file (`_validated`)."""
    city, roads_named, bridge_road = f["city"], f["roads"], f["bridge_road"]
    names = tuple(c["name"] for c in city)
    idx = {n: i for i, n in enumerate(names)}
    side = {"persia": 0, "greece": 1}
    roads: list[list[int]] = [[] for _ in names]
    for a, b in roads_named:
        roads[idx[a]].append(idx[b])
        roads[idx[b]].append(idx[a])
    setup = tuple(
        {idx[n]: (p["armies"], p["fleets"]) for n, p in f["setup"].get(s, {}).items()}
        for s in ("persia", "greece")
    )
    cards = sorted(f["card"], key=lambda c: c["number"])
    sources: dict[str, int] = {}
    for source in [*(x["source"] for x in city), *(x["source"] for x in f["card"])]:
        key = source or f["default_source"]
        sources[key] = sources.get(key, 0) + 1
    bridge = {idx[bridge_road[0]], idx[bridge_road[1]]}
    unbridged = tuple(tuple(n for n in sorted(r) if {i, n} != bridge) for i, r in enumerate(roads))
    pieces = f["pieces"]
    return Components(
        title=f["title"],
        digest=digest(f),
        names=names,
        city=idx,
        major=tuple(side[c["major"]] if c["major"] else -1 for c in city),
        port=tuple(c["port"] for c in city),
        amphorae=tuple(c["amphorae"] for c in city),
        points=tuple(2 if c["major"] else 1 for c in city),
        roads=tuple(tuple(sorted(r)) for r in roads),
        solid=tuple(any({i, n} != bridge for n in r) for i, r in enumerate(roads)),
        bridge=(idx[bridge_road[0]], idx[bridge_road[1]]),
        armies=(pieces["persia"]["armies"], pieces["greece"]["armies"]),
        fleets=(pieces["persia"]["fleets"], pieces["greece"]["fleets"]),
        setup=setup,  # type: ignore[arg-type]
        prices=Prices(**f["prices"]),
        greek_names=("", *(c["greece"] for c in cards)),
        persian_names=("", *(c["persia"] for c in cards)),
        sources=sources,
        origin=origin,
        ports=tuple(i for i, c in enumerate(city) if c["port"]),
        abydos=idx["Abydos"],
        ephesos=idx["Ephesos"],
        athenai=idx["Athenai"],
        sparta=idx["Sparta"],
        thebai=idx["Thebai"],
        cities=range(len(names)),
        unbridged=unbridged,
        majors=(
            tuple(i for i, x in enumerate(city) if x["major"] == "persia"),
            tuple(i for i, x in enumerate(city) if x["major"] == "greece"),
        ),
        attrition_cities=(
            tuple(i for i in range(len(names)) if i not in (idx["Abydos"], idx["Ephesos"])),
            tuple(range(len(names))),
        ),
        minors=tuple(i for i, x in enumerate(city) if not x["major"]),
        exits=(tuple(bool(r) for r in unbridged), tuple(bool(r) for r in roads)),
    )
