"""The schema of 300's component file (pydantic), apart from `components` so that it is
imported only when a file is validated: building these classes and validating costs a
command time, and the default set, read from its cache (`components.load`), needs
neither."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from thermopylae.engine.components import Source
from thermopylae.games.hot_gates.components import EFFECTS, MAX_DICE, Effect, Side, Window


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
