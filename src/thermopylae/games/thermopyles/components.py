"""The Thermopyles component set: the schema of its data file and the derived tables.

Cards that print the same values are the same *kind*: a Spartan card is its combat value,
a Persian card its (combat, annihilation, bonus). Hands and decks are multisets of kinds,
so equal cards are interchangeable everywhere (notation, views, search).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from thermopylae.engine.components import Source, default_cached, digest, read_set, validate
from thermopylae.engine.errors import ComponentError

if TYPE_CHECKING:
    from pydantic import BaseModel

SPARTAN_MIN, SPARTAN_MAX = 10, 20  # "Valor de Combate (10-20)" (seed 001)
MAX_SUPPORT = 4  # "4 cartas de suporte" (seed 001)
LOCATIONS = 7  # the map card's 7 locations (seed 001, "7ª local")


@cache
def schema() -> type[BaseModel]:
    """The data file's schema, `ComponentFile`. Its classes are made when a file is
    validated, not on import: pydantic, which they need, costs a command ~70 ms, and the
    default set read from the cache (`load`) needs none of it."""
    from pydantic import BaseModel, ConfigDict, Field, model_validator

    class _Strict(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)

    class SpartanCard(_Strict):
        value: int = Field(ge=SPARTAN_MIN, le=SPARTAN_MAX)
        source: Source | None = None

    class PersianCard(_Strict):
        combat: int = Field(ge=1, le=99)
        annihilation: int = Field(ge=1, le=99)
        bonus: bool = False
        source: Source | None = None

        @model_validator(mode="after")
        def _annihilation_at_least_combat(self) -> PersianCard:
            if self.annihilation < self.combat:
                raise ValueError(
                    f"annihilation value {self.annihilation} is below the combat value "
                    f"{self.combat} (the rules say it is always at least as high)"
                )
            return self

    class Location(_Strict):
        number: int = Field(ge=1, le=LOCATIONS)
        name: str | None = None
        die: bool = False
        source: Source | None = None

    class SupportCards(_Strict):
        count: int = Field(ge=0, le=MAX_SUPPORT)
        source: Source | None = None

    class ComponentFile(_Strict):
        title: str
        default_source: Source
        note: str = ""
        support_cards: SupportCards
        map: list[Location]
        spartan: list[SpartanCard]
        persian: list[PersianCard]

        @model_validator(mode="after")
        def _map_in_order(self) -> ComponentFile:
            numbers = [loc.number for loc in self.map]
            if len(numbers) == LOCATIONS and numbers != list(range(1, LOCATIONS + 1)):
                raise ValueError(f"map locations must be numbered 1 to 7 in order, not {numbers}")
            return self

    return ComponentFile


@dataclass(frozen=True)
class MapLocation:
    """A location of the map card, as the set gives it."""

    number: int
    name: str | None = None
    die: bool = False


@dataclass(frozen=True)
class PersianKind:
    combat: int
    annihilation: int
    bonus: bool

    @property
    def text(self) -> str:
        """Notation: combat/annihilation, with ^ for the bonus symbol (as seed 001 prints it)."""
        return f"{self.combat}/{self.annihilation}{'^' if self.bonus else ''}"


@dataclass(frozen=True)
class Components:
    """The validated set with the tables the rules use."""

    title: str
    note: str
    digest: str
    spartan: tuple[int, ...]  # the 20 values, sorted
    persian_kinds: tuple[PersianKind, ...]  # distinct kinds, sorted
    persian: tuple[int, ...]  # the 28 cards as kind indices, sorted
    support: int
    locations: tuple[MapLocation, ...]
    die_locations: frozenset[int]
    sources: dict[str, int]  # how many values come from each source
    origin: str  # "default" or the path the set was loaded from
    warnings: tuple[str, ...] = ()  # known facts this set departs from (it still loads)

    @property
    def provisional(self) -> bool:
        return self.sources.get("provisional", 0) > 0

    def location_name(self, number: int) -> str:
        name = self.locations[number - 1].name
        return name or f"Location {number}"

    def to_json(self) -> dict[str, Any]:
        """The set as JSON values (`from_json` reads them back), for the cache of
        `load`; without its origin."""
        return {
            "title": self.title,
            "note": self.note,
            "digest": self.digest,
            "spartan": self.spartan,
            "persian_kinds": [[k.combat, k.annihilation, k.bonus] for k in self.persian_kinds],
            "persian": self.persian,
            "support": self.support,
            "locations": [[loc.number, loc.name, loc.die] for loc in self.locations],
            "die_locations": sorted(self.die_locations),
            "sources": self.sources,
            "warnings": self.warnings,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], origin: str) -> Components:
        return cls(
            title=data["title"],
            note=data["note"],
            digest=data["digest"],
            spartan=tuple(data["spartan"]),
            persian_kinds=tuple(PersianKind(*k) for k in data["persian_kinds"]),
            persian=tuple(data["persian"]),
            support=data["support"],
            locations=tuple(MapLocation(*loc) for loc in data["locations"]),
            die_locations=frozenset(data["die_locations"]),
            sources=dict(data["sources"]),
            origin=origin,
            warnings=tuple(data["warnings"]),
        )


def load(path: Path | None = None) -> Components:
    """The default set shipped with the package (validated once, then read from its
    cache beside the module's bytecode: `engine.components.default_cached`), or the file
    at `path`."""
    if path is None:
        data = default_cached(__package__, lambda raw: _build(raw, "default").to_json())
        return Components.from_json(data, "default")
    return _build(*read_set(__package__, path))


COUNTS = {"map": LOCATIONS, "spartan": 20, "persian": 28}  # seed 001's component list


def _count_problems(data: dict[str, Any]) -> list[str]:
    """Wrong card counts, checked apart from the schema so that they are reported even
    when some of the cards are wrong too (the schema stops at the first)."""
    problems = []
    for key, want in COUNTS.items():
        items = data.get(key)
        if isinstance(items, list) and len(items) != want:
            problems.append(f"{key}: the set has {want} of these, not {len(items)}")
    return problems


def _build(data: dict[str, Any], origin: str) -> Components:
    counts = _count_problems(data)
    try:
        f: Any = validate(schema(), data, origin)
    except ComponentError as exc:
        raise ComponentError(origin, counts + exc.problems) from exc
    if counts:
        raise ComponentError(origin, counts)
    kinds = sorted(
        {PersianKind(c.combat, c.annihilation, c.bonus) for c in f.persian},
        key=lambda k: (k.combat, k.annihilation, k.bonus),
    )
    index = {k: i for i, k in enumerate(kinds)}
    sources: dict[str, int] = {}

    def tag(source: str | None, values: int) -> None:
        key = source or f.default_source
        sources[key] = sources.get(key, 0) + values

    tag(f.support_cards.source, 1)
    for loc in f.map:
        tag(loc.source, 2)
    for s in f.spartan:
        tag(s.source, 1)
    for p in f.persian:
        tag(p.source, 3)
    values = {
        "support": f.support_cards.count,
        "map": [[loc.number, loc.name, loc.die] for loc in f.map],
        "spartan": sorted(s.value for s in f.spartan),
        "persian": sorted([p.combat, p.annihilation, p.bonus] for p in f.persian),
    }
    return Components(
        title=f.title,
        note=f.note,
        digest=digest(values),
        spartan=tuple(sorted(s.value for s in f.spartan)),
        persian_kinds=tuple(kinds),
        persian=tuple(
            sorted(index[PersianKind(p.combat, p.annihilation, p.bonus)] for p in f.persian)
        ),
        support=f.support_cards.count,
        locations=tuple(MapLocation(loc.number, loc.name, loc.die) for loc in f.map),
        die_locations=frozenset(loc.number for loc in f.map if loc.die),
        sources=sources,
        origin=origin,
        warnings=tuple(_departures(f)),
    )


def _departures(f: Any) -> list[str]:
    """Known facts the set does not meet: worth a warning, not a refusal (a designer may
    study a variant on purpose)."""
    out = []
    values = [s.value for s in f.spartan]
    if sum(values) != 300:
        out.append(f"the Spartan values add up to {sum(values)}, not 300")
    if values.count(20) != 1:
        out.append(f"{values.count(20)} Spartan cards of value 20, not exactly one")
    dice = [loc.number for loc in f.map if loc.die]
    if dice != [3, 6]:
        out.append(f"the location die is on {dice or 'no location'}, not on 3 and 6")
    if f.support_cards.count != MAX_SUPPORT:
        out.append(f"{f.support_cards.count} support cards, not {MAX_SUPPORT}")
    return out
