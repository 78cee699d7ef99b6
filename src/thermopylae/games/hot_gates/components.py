"""The 300: The Board Game component set: the schema of its data file and derived tables.

The rulebook fixes which units exist and how many (25 Spartan, 42 Persian), the board,
the bonuses and the victory thresholds; it does not print the units' numbers, the Battle
Chart, the dice or the card texts, so the default file supplies provisional ones. Card
effects are data in a small vocabulary (`EFFECTS`), so a card set is a file.

Units are referred to by *type index* everywhere in the rules (the order of the file's
`[[unit]]` tables, checked to hold the rulebook's 13 types).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from thermopylae.engine.components import Source, digest, read_set, validate
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


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Rules(_Strict):
    coastal_capacity: int = Field(ge=1, le=12)
    gates_capacity: int = Field(ge=1, le=12)
    glory_bonus: list[int] = Field(min_length=3, max_length=3)
    gates_penalty: int = Field(ge=0)
    win_glory_2p: int = Field(ge=1)
    win_glory_team: int = Field(ge=1)
    dilios_2p: int = Field(ge=0)
    dilios_team: int = Field(ge=0)
    start_hand: int = Field(ge=0, le=10)
    source: Source | None = None


class GoatPath(_Strict):
    length: int = Field(ge=1, le=30)
    boxes: int = Field(ge=1, le=20)
    source: Source | None = None


class ChartStep(_Strict):
    from_: int = Field(alias="from", ge=0)
    dice: int = Field(ge=0, le=MAX_DICE)


class Chart(_Strict):
    steps: list[ChartStep] = Field(min_length=1)
    source: Source | None = None

    @model_validator(mode="after")
    def _increasing(self) -> Chart:
        froms = [s.from_ for s in self.steps]
        dice = [s.dice for s in self.steps]
        if froms != sorted(set(froms)) or dice != sorted(dice):
            raise ValueError(
                "the chart's steps must rise: `from` strictly and `dice` never "
                f"falling (got from {froms}, dice {dice})"
            )
        return self


class Dice(_Strict):
    faces: list[int] = Field(min_length=2, max_length=20)
    source: Source | None = None

    @model_validator(mode="after")
    def _non_negative(self) -> Dice:
        if min(self.faces) < 0:
            raise ValueError(f"a die face cannot be negative (got {self.faces})")
        return self


class Unit(_Strict):
    id: str
    name: str
    side: Side
    count: int = Field(ge=0)
    attack: int = Field(ge=0, le=30)
    defense: int = Field(ge=1, le=30)
    wounded_attack: int | None = Field(default=None, ge=0, le=30)
    wounded_defense: int | None = Field(default=None, ge=1, le=30)
    dead_back: bool = False
    glory: int = Field(default=0, ge=0, le=100)
    size: int = Field(default=1, ge=1, le=6)
    hero: bool = False
    leader: bool = False
    source: Source | None = None

    @model_validator(mode="after")
    def _sides(self) -> Unit:
        wounded = (self.wounded_attack, self.wounded_defense)
        if self.dead_back and wounded != (None, None):
            raise ValueError(f'{self.id}: a unit with "Dead" on its back has no wounded side')
        if not self.dead_back and None in wounded:
            raise ValueError(
                f"{self.id}: give wounded_attack and wounded_defense (or dead_back = true)"
            )
        return self


class Card(_Strict):
    title: str = Field(min_length=1)
    letter: Literal["A", "B"]
    window: Window
    effect: Effect
    amount: int = Field(default=1, ge=1, le=10)
    source: Source | None = None

    @model_validator(mode="after")
    def _window_fits(self) -> Card:
        if self.window not in EFFECTS[self.effect]:
            raise ValueError(
                f"{self.title!r}: a {self.effect} card is played in the "
                f"{' or '.join(EFFECTS[self.effect])} window, not {self.window}"
            )
        return self


class ComponentFile(_Strict):
    title: str
    default_source: Source
    note: str = ""
    rules: Rules
    goat_path: GoatPath
    chart: Chart
    dice: Dice
    unit: list[Unit]
    spartan_card: list[Card]
    persian_card: list[Card]


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
    """The default set shipped with the package, or the file at `path`."""
    return _build(*read_set(__package__, path))


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


def _build(data: dict[str, Any], origin: str) -> Components:
    shape = _shape_problems(data)
    try:
        f = validate(ComponentFile, data, origin)
    except ComponentError as exc:
        raise ComponentError(origin, shape + exc.problems) from exc
    if shape:
        raise ComponentError(origin, shape)
    sources: dict[str, int] = {}

    def tag(source: str | None, values: int) -> None:
        key = source or f.default_source
        sources[key] = sources.get(key, 0) + values

    tag(f.rules.source, 9)
    tag(f.goat_path.source, 2)
    tag(f.chart.source, len(f.chart.steps))
    tag(f.dice.source, len(f.dice.faces))
    for u in f.unit:
        tag(u.source, 5)
    cards: list[CardInfo] = []
    for side, key, deck in (("spartan", "s", f.spartan_card), ("persian", "p", f.persian_card)):
        for i, c in enumerate(deck):
            tag(c.source, 3)
            cards.append(
                CardInfo(
                    len(cards),
                    f"{key}{i + 1}",
                    side,  # type: ignore[arg-type]
                    c.title,
                    c.letter,
                    c.window,
                    c.effect,
                    c.amount,
                )
            )
    values = f.model_dump(mode="json", by_alias=True, exclude={"title", "note", "default_source"})
    return Components(
        title=f.title,
        note=f.note,
        digest=digest(values),
        units=tuple(f.unit),
        cards=tuple(cards),
        chart=tuple((s.from_, s.dice) for s in f.chart.steps),
        faces=tuple(f.dice.faces),
        goat_path=f.goat_path.length,
        boxes=f.goat_path.boxes,
        rules=f.rules,
        sources=sources,
        origin=origin,
    )
