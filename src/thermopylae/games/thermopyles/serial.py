"""Positions: a Thermopyles state to and from JSON (readable, like FEN for chess).

Decks are written sorted: they are multisets, and their order is never part of the game.
Loading checks the shape and that every card of the component set is somewhere, once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from thermopylae.engine.errors import RecordError
from thermopylae.engine.protocol import JSON
from thermopylae.games.thermopyles.actions import seat_name
from thermopylae.games.thermopyles.components import Components
from thermopylae.games.thermopyles.state import (
    DISCARD,
    DRAW,
    FULL_HAND,
    OVER,
    PHASES,
    RECIPIENT,
    REFILL,
    ROLL,
    SETUP,
    TURN,
    State,
)

if TYPE_CHECKING:
    from pydantic import BaseModel

Seat = str
Phase = Literal[
    "setup", "turn", "roll", "refill", "recipient", "full-hand", "draw", "discard", "over"
]


@cache
def _schema() -> type[BaseModel]:
    """The position file's schema, made when a position is first loaded: pydantic and
    the schema's classes cost every command that imports the rules ~50-100 ms, and only
    loading a position needs them."""
    from pydantic import BaseModel, ConfigDict, Field

    class _Fight(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)
        card: int
        support: int = Field(ge=0, le=4)
        dice: list[int]

    class _StateFile(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)
        players: int = Field(ge=1, le=4)
        open_hands: bool
        phase: Phase
        active: Seat
        marker: int = Field(ge=1, le=7)
        hands: list[list[int]]
        spartan_deck: list[int]
        spartan_discard: list[int]
        persian_deck: list[str]
        slots: list[str | None] = Field(min_length=2, max_length=2)
        persian_discard: list[str]
        graveyard: list[str]
        support: int = Field(ge=0, le=4)
        fight: _Fight | None
        draws: int = Field(ge=0)
        recipient: Seat | None
        result: Literal["win", "loss"] | None
        reason: str
        turn: int = Field(ge=0)

    return _StateFile


def state_to_json(c: Components, s: State) -> JSON:
    kinds = c.persian_kinds

    def texts(cards: list[int]) -> list[str]:
        return [kinds[k].text for k in cards]

    return {
        "players": s.players,
        "open_hands": s.open_hands,
        "phase": PHASES[s.phase],
        "active": seat_name(s.active),
        "marker": s.marker,
        "hands": [list(h) for h in s.hands],
        "spartan_deck": sorted(s.sdeck),
        "spartan_discard": list(s.sdiscard),
        "persian_deck": texts(sorted(s.pdeck)),
        "slots": [kinds[k].text if k >= 0 else None for k in s.slots],
        "persian_discard": texts(s.pdiscard),
        "graveyard": texts(s.graveyard),
        "support": s.support,
        "fight": (
            {"card": s.card, "support": s.committed, "dice": list(s.dice)} if s.card else None
        ),
        "draws": s.draws,
        "recipient": seat_name(s.recipient) if s.recipient >= 0 else None,
        "result": {1: "win", -1: "loss"}.get(s.result),
        "reason": s.reason,
        "turn": s.turn,
    }


def state_from_json(c: Components, data: Mapping[str, Any]) -> State:
    from pydantic import ValidationError

    from thermopylae.engine.validation import first_problem

    try:
        f: Any = _schema().model_validate(dict(data))
    except ValidationError as exc:
        raise RecordError(first_problem(exc, "state")) from exc
    index = {k.text: i for i, k in enumerate(c.persian_kinds)}

    def kind(text: str, where: str) -> int:
        if text not in index:
            raise RecordError(f"state.{where}: no Persian card {text!r} in this component set")
        return index[text]

    def seat(name: str, where: str) -> int:
        if name not in [seat_name(i) for i in range(f.players)]:
            raise RecordError(f"state.{where}: no seat {name!r} at a {f.players}-player table")
        return int(name[1:]) - 1

    if len(f.hands) != f.players:
        raise RecordError(f"state.hands: {len(f.hands)} hands for {f.players} players")
    s = State(  # the decks sorted, as the rules keep them (state.py)
        f.players,
        f.open_hands,
        sorted(f.spartan_deck),
        sorted(kind(t, "persian_deck") for t in f.persian_deck),
        f.support,
    )
    s.phase = PHASES.index(f.phase)
    s.active = seat(f.active, "active")
    s.marker = f.marker
    s.hands = [sorted(h) for h in f.hands]
    s.sdiscard = list(f.spartan_discard)
    s.slots = [-1 if t is None else kind(t, "slots") for t in f.slots]
    s.pdiscard = [kind(t, "persian_discard") for t in f.persian_discard]
    s.graveyard = [kind(t, "graveyard") for t in f.graveyard]
    if f.fight is not None:
        s.card, s.committed, s.dice = f.fight.card, f.fight.support, list(f.fight.dice)
    s.draws = f.draws
    s.recipient = -1 if f.recipient is None else seat(f.recipient, "recipient")
    s.result = {"win": 1, "loss": -1, None: 0}[f.result]
    s.reason = f.reason
    s.turn = f.turn
    _check_accounting(c, s)
    _check_phase(s)
    return s


def _check_phase(s: State) -> None:
    """The phase agrees with the table: a state the rules could have reached."""
    phase = PHASES[s.phase]
    if (s.phase == OVER) != (s.result != 0):
        raise RecordError("state.result: a result is set exactly when the phase is 'over'")
    full = s.slots[0] >= 0 and s.slots[1] >= 0
    if s.phase in (TURN, ROLL, RECIPIENT, FULL_HAND, DRAW, DISCARD) and not full:
        raise RecordError(f"state.slots: both slots hold a Persian card in phase {phase!r}")
    if s.phase == REFILL and full:
        raise RecordError("state.slots: phase 'refill' needs an empty slot")
    if s.slots[0] < 0 <= s.slots[1] and s.phase not in (SETUP, OVER):
        raise RecordError("state.slots: slot 2 is filled only after slot 1")
    if (s.phase == ROLL) != bool(s.card):
        raise RecordError("state.fight: a fight is under way exactly in phase 'roll'")
    if s.phase in (FULL_HAND, DRAW, DISCARD) and s.recipient < 0:
        raise RecordError(f"state.recipient: phase {phase!r} needs a recipient")
    if s.phase in (RECIPIENT, FULL_HAND, DRAW, DISCARD) and s.draws < 1:
        raise RecordError(f"state.draws: phase {phase!r} needs a draw owed")
    limit = 6 if s.phase == DISCARD else 5
    for p, hand in enumerate(s.hands):
        if len(hand) > (limit if p == s.recipient else 5):
            raise RecordError(f"state.hands: p{p + 1} holds {len(hand)} cards (limit 5)")


def _check_accounting(c: Components, s: State) -> None:
    """Every card of the set is in exactly one place."""
    spartan = Counter(s.sdeck) + Counter(s.sdiscard) + Counter(v for h in s.hands for v in h)
    if s.card:
        spartan[s.card] += 1
    if spartan != Counter(c.spartan):
        raise RecordError(
            f"state: the Spartan cards do not match the component set "
            f"({_diff(spartan, Counter(c.spartan))})"
        )
    persian = (
        Counter(s.pdeck)
        + Counter(s.pdiscard)
        + Counter(s.graveyard)
        + Counter(k for k in s.slots if k >= 0)
    )
    if persian != Counter(c.persian):
        raise RecordError(
            f"state: the Persian cards do not match the component set "
            f"({_diff(persian, Counter(c.persian), c)})"
        )
    if s.support + s.committed > c.support:
        raise RecordError(f"state.support: more than the set's {c.support} support cards")
    if any(not 1 <= d <= 6 for d in s.dice):
        raise RecordError("state.fight.dice: a die shows 1 to 6")


def _diff(have: Counter[int], want: Counter[int], c: Components | None = None) -> str:
    def name(k: int) -> str:
        return c.persian_kinds[k].text if c else str(k)

    extra = sorted((have - want).elements())
    missing = sorted((want - have).elements())
    parts = []
    if extra:
        parts.append("extra: " + " ".join(name(k) for k in extra))
    if missing:
        parts.append("missing: " + " ".join(name(k) for k in missing))
    return "; ".join(parts)
