"""The pending steps of a round: what waits on `state.stack`, and how a step hands on.

A step that waits for a decision or a chance event leaves a continuation on the stack: a
name and its integer arguments, plain JSON in a saved position. When the step ends,
`resume` pops the continuation and runs it; `deal` first lets the chance events still
owed (cards to draw, then dice to roll) happen. The continuations by name are `STEPS`,
which phases.py fills (rules.py imports it), so that the round reads top to bottom there
and no rule module imports another in a circle.
"""

from __future__ import annotations

from collections.abc import Callable

from thermopylae.engine.errors import RecordError
from thermopylae.engine.protocol import CHANCE, Event
from thermopylae.games.hot_gates.board import Tables
from thermopylae.games.hot_gates.state import DEAL, OVER, State

Events = list[Event] | None
"""Where a step reports what happened; None when nobody reads it (a search's playout)."""

Step = Callable[..., None]
STEPS: dict[str, Step] = {}  # the continuations by name (phases.py)


def to_act(s: State) -> int | None:
    """The seat to decide, CHANCE while cards are drawn or dice rolled, None at the end."""
    if s.phase == OVER:
        return None
    if s.phase == DEAL:
        return CHANCE
    return s.actor


def deal(s: State, t: Tables, ev: Events) -> None:
    """Draw the cards and roll the dice still owed, then carry on. An empty deck gives
    no more cards (decision 8 in docs/rules/hot-gates.md)."""
    draws = s.draws
    if draws:
        while draws and not s.decks[draws[0]]:
            draws.pop(0)
        if draws:
            s.phase = DEAL
            return
    if s.rolls:
        s.phase = DEAL
        return
    resume(s, t, ev)


def resume(s: State, t: Tables, ev: Events) -> None:
    """A step ended: carry on with whatever waited for it."""
    try:
        item = s.stack.pop()
    except IndexError:  # (no test before: a `try` costs nothing until it catches)
        raise RecordError(
            "this position's pending steps are inconsistent: nothing "
            "waits for the step that just ended"
        ) from None
    try:
        step = STEPS[item[0]]
    except (KeyError, TypeError):  # not a step of these rules (a hand-made position)
        name = item[0]
        if not isinstance(name, str):
            raise TypeError(f"a pending step is named by a string, not {name!r}") from None
        raise AttributeError(f"no step {name!r} in the rules of 300: The Board Game") from None
    n = len(item)
    if n == 1:
        step(s, t, ev)
    elif n == 2:  # (one argument: a window, a march's turn, a row; no tuple sliced)
        step(s, t, ev, item[1])
    else:
        step(s, t, ev, *item[1:])
