"""The numbers the rules read on every step, taken once from a component set: what each
Persian card kind needs to be beaten and annihilated, whether it bears the bonus symbol,
and which locations roll the location die."""

from __future__ import annotations

from dataclasses import dataclass

from thermopylae.games.thermopyles.actions import Notation
from thermopylae.games.thermopyles.components import Components

LOST_LOCATION = 7  # "forçados a recuar para a 7ª local"


@dataclass(frozen=True, slots=True)
class Tables:
    components: Components
    notation: Notation
    combat: tuple[int, ...]
    annihilation: tuple[int, ...]
    bonus: tuple[bool, ...]
    die: tuple[bool, ...]  # by location number: does the location roll the die
    kind_texts: tuple[str, ...]
    locations: tuple[dict[str, object], ...]

    @classmethod
    def of(cls, components: Components) -> Tables:
        kinds = components.persian_kinds
        return cls(
            components,
            Notation(components),
            tuple(k.combat for k in kinds),
            tuple(k.annihilation for k in kinds),
            tuple(bool(k.bonus) for k in kinds),
            tuple(n in components.die_locations for n in range(LOST_LOCATION + 2)),
            tuple(k.text for k in kinds),
            tuple(
                {"number": loc.number, "name": components.location_name(loc.number), "die": loc.die}
                for loc in components.locations
            ),
        )
