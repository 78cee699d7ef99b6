"""The 300: The Board Game component set: the schema of its data file and derived tables.

The rulebook fixes which units exist and how many (25 Spartan, 42 Persian), the board,
the bonuses and the victory thresholds; it does not print the units' numbers, the Battle
Chart, the dice or the card texts, so the default file supplies provisional ones. Card
effects are data in a small vocabulary (`EFFECTS`), so a card set is a file.

Units are referred to by *type index* everywhere in the rules (the order of the file's
`[[unit]]` tables, checked to hold the rulebook's 13 types).

The file's schema (pydantic) is in `component_file`, imported only to validate a file: the
default set is validated once and read from its cache after (`load`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from thermopylae.engine.components import default_cached, digest, read_set, validate
from thermopylae.engine.errors import ComponentError
from thermopylae.i18n import _, ngettext

Side = Literal["spartan", "persian"]
Window = Literal["march", "battle", "roll", "casualty", "ephialtes", "any"]
Effect = Literal[
    "attack",
    "dice",
    "damage",
    "reroll",
    "shield",
    "heal",
    "draw",
    "march",
    "delay",
    "hasten",
    "cancel",
]

# Which window each effect is played in ("any": cancel answers a card in any window).
EFFECTS: dict[str, tuple[str, ...]] = {
    "attack": ("battle",),  # + N to your Attack total in this battle
    "dice": ("battle",),  # N more Battle Dice in this battle
    "damage": ("roll",),  # + N to the Damage you inflict
    "reroll": ("roll",),  # reroll your N lowest dice
    "shield": ("casualty",),  # the Damage you take is reduced by N
    "heal": ("casualty",),  # N of your Wounded units in this battle turn back
    "draw": ("march", "battle", "roll", "casualty", "ephialtes"),  # draw N cards
    "march": ("march",),  # N of your units may march once more this phase
    "delay": ("ephialtes",),  # Ephialtes does not move this round (Spartans)
    "hasten": ("ephialtes",),  # Ephialtes moves N more spaces this round (Persians)
    "cancel": ("any",),  # cancel the last card an opponent played in this window
}
SIDE_ONLY = {"delay": "spartan", "hasten": "persian"}

# The 13 unit types of the rulebook, with their counts (seed 000: components and set-up).
TYPES: tuple[tuple[str, Side, int], ...] = (
    ("spartan", "spartan", 20),
    ("leonidas", "spartan", 1),
    ("stelios", "spartan", 1),
    ("astinos", "spartan", 1),
    ("dilios", "spartan", 1),
    ("captain", "spartan", 1),
    ("immortal", "persian", 12),
    ("cavalry", "persian", 12),
    ("infantry", "persian", 12),
    ("beast", "persian", 2),
    ("xerxes", "persian", 1),
    ("uber", "persian", 1),
    ("general", "persian", 2),
)
TYPE_IDS = tuple(t[0] for t in TYPES)
SPARTAN, LEONIDAS, STELIOS, ASTINOS, DILIOS, CAPTAIN = range(6)
IMMORTAL, CAVALRY, INFANTRY, BEAST, XERXES, UBER, GENERAL = range(6, 13)
LEADERS = (XERXES, UBER, GENERAL)
CARDS_PER_SIDE = 26
MAX_DICE = 6  # "6 Battle Dice"


@dataclass(frozen=True)
class Rules:
    """The rules' numbers, as the file gives them (`component_file.Rules` checks them)."""

    coastal_capacity: int
    gates_capacity: int
    glory_bonus: list[int]  # spaces 1, 2, 3 of a row (a list, as the file has it)
    gates_penalty: int
    win_glory_2p: int
    win_glory_team: int
    dilios_2p: int
    dilios_team: int
    start_hand: int
    source: str | None = None


@dataclass(frozen=True)
class Unit:
    """A unit type, as the file gives it (`component_file.Unit` checks it)."""

    id: str
    name: str
    side: Side
    count: int
    attack: int
    defense: int
    wounded_attack: int | None = None
    wounded_defense: int | None = None
    dead_back: bool = False
    glory: int = 0
    size: int = 1
    hero: bool = False
    leader: bool = False
    source: str | None = None


@dataclass(frozen=True)
class CardInfo:
    """One Battle Card. Spartan cards are numbered 0-25, Persian cards 26-51."""

    number: int
    code: str  # s1..s26, p1..p26
    side: Side
    title: str
    letter: str
    window: str
    effect: str
    amount: int

    @property
    def text(self) -> str:
        return card_text(self.effect, self.amount)


def card_text(effect: str, n: int) -> str:
    """The effect in words, for screens and the rules page, in the current language (looked
    up at each call: see `thermopylae.i18n`)."""
    if effect == "attack":
        return _("+{n} Attack in this battle").format(n=n)
    if effect == "dice":
        return ngettext(
            "+{n} Battle Die in this battle", "+{n} Battle Dice in this battle", n
        ).format(n=n)
    if effect == "damage":
        return _("+{n} Damage to the enemy").format(n=n)
    if effect == "reroll":
        return ngettext("reroll your {n} lowest die", "reroll your {n} lowest dice", n).format(n=n)
    if effect == "shield":
        return _("take {n} less Damage").format(n=n)
    if effect == "heal":
        return ngettext(
            "{n} wounded unit of yours in this battle heals",
            "{n} wounded units of yours in this battle heal",
            n,
        ).format(n=n)
    if effect == "draw":
        return ngettext("draw {n} card", "draw {n} cards", n).format(n=n)
    if effect == "march":
        return ngettext(
            "{n} of your units may march once more", "{n} of your units may march once more", n
        ).format(n=n)
    if effect == "delay":
        return _("Ephialtes does not move this round")
    if effect == "hasten":
        return ngettext(
            "Ephialtes moves {n} more space this round",
            "Ephialtes moves {n} more spaces this round",
            n,
        ).format(n=n)
    if effect == "cancel":
        return _("cancel the last card an opponent played in this window")
    raise KeyError(effect)


@dataclass(frozen=True)
class Components:
    """The validated set with the tables the rules use (indexed by type or card number)."""

    title: str
    note: str
    digest: str
    units: tuple[Unit, ...]  # in TYPES order
    cards: tuple[CardInfo, ...]  # 52: Spartan then Persian
    chart: tuple[tuple[int, int], ...]  # (from, dice)
    faces: tuple[int, ...]
    goat_path: int
    boxes: int
    rules: Rules
    sources: dict[str, int]
    origin: str

    @property
    def provisional(self) -> bool:
        return self.sources.get("provisional", 0) > 0

    def dice_for(self, attack: int) -> int:
        """The Battle Chart: how many dice a total Attack rolls."""
        dice = 0
        for start, n in self.chart:
            if attack >= start:
                dice = n
        return dice


def load(path: Path | None = None) -> Components:
    """The default set shipped with the package (validated once, then read from its
    cache beside the module's bytecode: `engine.components.default_cached`), or the file
    at `path` (validated every time)."""
    if path is None:
        return _build(default_cached(__package__, _validated, ("component_file.py",)), "default")
    data, origin = read_set(__package__, path)
    return _build(_validated(data, origin), origin)


def _shape_problems(data: dict[str, Any]) -> list[str]:
    """The rulebook's counts (13 unit types, 25 + 42 units, 26 + 26 cards, 13 of each
    letter), checked apart from the schema so that all of them are reported at once."""
    out = []
    units = data.get("unit")
    if isinstance(units, list):
        ids = [u.get("id") if isinstance(u, dict) else None for u in units]
        if ids != list(TYPE_IDS):
            out.append(
                f"unit: the rulebook's 13 unit types must be listed in this order: "
                f"{', '.join(TYPE_IDS)} (got {', '.join(map(str, ids))})"
            )
        else:
            for (tid, side, count), u in zip(TYPES, units, strict=True):
                if u.get("count") != count:
                    out.append(f"unit {tid}: the game has {count}, not {u.get('count')}")
                if u.get("side") != side:
                    out.append(f"unit {tid}: it is a {side} unit, not {u.get('side')}")
    for key in ("spartan_card", "persian_card"):
        cards = data.get(key)
        if not isinstance(cards, list):
            continue
        if len(cards) != CARDS_PER_SIDE:
            out.append(f"{key}: the game has {CARDS_PER_SIDE} of these, not {len(cards)}")
        letters = [c.get("letter") for c in cards if isinstance(c, dict)]
        if len(cards) == CARDS_PER_SIDE and letters.count("A") != CARDS_PER_SIDE // 2:
            out.append(
                f"{key}: 13 cards must be marked A and 13 B (they split the deck in "
                f"3- and 4-player games), not {letters.count('A')} A"
            )
        for i, c in enumerate(cards, start=1):
            if isinstance(c, dict) and c.get("effect") in SIDE_ONLY:
                only = SIDE_ONLY[c["effect"]]
                if not key.startswith(only):
                    out.append(f"{key}[{i}]: only a {only} card can {c['effect']} Ephialtes")
    return out


def _validated(data: dict[str, Any], origin: str = "default") -> dict[str, Any]:
    """The file checked against its schema and the rulebook's counts, as JSON values
    (every field, defaults filled in): what `_build` reads, and the default set's cache
    holds."""
    from thermopylae.games.hot_gates.component_file import ComponentFile

    shape = _shape_problems(data)
    try:
        f = validate(ComponentFile, data, origin)
    except ComponentError as exc:
        raise ComponentError(origin, shape + exc.problems) from exc
    if shape:
        raise ComponentError(origin, shape)
    dumped: dict[str, Any] = f.model_dump(mode="json", by_alias=True)
    return dumped


def _build(f: dict[str, Any], origin: str) -> Components:
    """The tables of a validated file (`_validated`), with plain Python: no pydantic."""
    sources: dict[str, int] = {}

    def tag(source: str | None, values: int) -> None:
        key = source or f["default_source"]
        sources[key] = sources.get(key, 0) + values

    tag(f["rules"]["source"], 9)
    tag(f["goat_path"]["source"], 2)
    tag(f["chart"]["source"], len(f["chart"]["steps"]))
    tag(f["dice"]["source"], len(f["dice"]["faces"]))
    for u in f["unit"]:
        tag(u["source"], 5)
    cards: list[CardInfo] = []
    for side, key in (("spartan", "s"), ("persian", "p")):
        for i, c in enumerate(f[f"{side}_card"]):
            tag(c["source"], 3)
            cards.append(
                CardInfo(
                    len(cards),
                    f"{key}{i + 1}",
                    side,  # type: ignore[arg-type]
                    c["title"],
                    c["letter"],
                    c["window"],
                    c["effect"],
                    c["amount"],
                )
            )
    values = {k: v for k, v in f.items() if k not in ("title", "note", "default_source")}
    return Components(
        title=f["title"],
        note=f["note"],
        digest=digest(values),
        units=tuple(Unit(**u) for u in f["unit"]),
        cards=tuple(cards),
        chart=tuple((s["from"], s["dice"]) for s in f["chart"]["steps"]),
        faces=tuple(f["dice"]["faces"]),
        goat_path=f["goat_path"]["length"],
        boxes=f["goat_path"]["boxes"],
        rules=Rules(**f["rules"]),
        sources=sources,
        origin=origin,
    )
