"""Positions: an Earth & Water state to and from JSON, with every piece and card
accounted for on load."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from thermopylae.engine.errors import RecordError
from thermopylae.engine.protocol import JSON, Game
from thermopylae.games.earth_and_water.actions import Action
from thermopylae.games.earth_and_water.components import Components
from thermopylae.games.earth_and_water.state import (
    BATTLE_FIELDS,
    MOVE_FIELDS,
    PHASES,
    Battle,
    Move,
    State,
)

if TYPE_CHECKING:
    from pydantic import BaseModel


@cache
def _schema() -> type[BaseModel]:
    """The position file's schema, made when a position is first loaded: pydantic and
    the schema's classes cost every command that imports the rules ~50-100 ms, and only
    a loaded position needs them."""
    from pydantic import BaseModel, ConfigDict, Field

    class _StateFile(BaseModel):
        model_config = ConfigDict(extra="forbid")
        options: dict[str, Any]
        campaign: int = Field(ge=1, le=5)
        score: int = Field(ge=-6, le=6)
        phase: str
        side: int = Field(ge=0, le=1)
        active: int = Field(ge=0, le=1)
        armies: list[list[int]]
        fleets: list[list[int]]
        reserve_armies: list[int]
        reserve_fleets: list[int]
        portraits: list[int]
        kings: int = Field(ge=0, le=2)
        used: int = Field(ge=0)
        bridge: bool
        hands: list[list[int]]
        deck: list[int]
        discard: list[int]
        carneia: bool
        acropolis: bool
        acropolis_penalty: bool
        passes: int = Field(ge=0, le=2)
        talents: int = Field(ge=0, le=99)
        fleets_built: int = Field(ge=-1, le=99)
        draws: int = Field(ge=0, le=24)
        draw_to: int = Field(ge=0, le=1)
        window: int = Field(ge=0, le=6)
        choice: int = Field(ge=0, le=11)
        arg: int = Field(ge=-1, le=24)
        move: list[int]
        battle: list[int]
        stack: list[list[Any]]
        result: int = Field(ge=-1, le=2)
        reason: str
        turns: int = Field(ge=0)

    return _StateFile


def state_to_json(s: State) -> JSON:
    return {
        "options": dict(s.options),
        "campaign": s.campaign,
        "score": s.score,
        "phase": PHASES[s.phase],
        "side": s.side,
        "active": s.active,
        "armies": [list(x) for x in s.arm],
        "fleets": [list(x) for x in s.flt],
        "reserve_armies": list(s.res_arm),
        "reserve_fleets": list(s.res_flt),
        "portraits": list(s.portraits),
        "kings": s.kings,
        "used": s.used,
        "bridge": s.bridge,
        "hands": [sorted(h) for h in s.hands],
        "deck": sorted(s.deck),
        "discard": list(s.discard),
        "carneia": s.carneia,
        "acropolis": s.acropolis,
        "acropolis_penalty": s.acropolis_penalty,
        "passes": s.passes,
        "talents": s.talents,
        "fleets_built": s.fleets_built,
        "draws": s.draws,
        "draw_to": s.draw_to,
        "window": s.window,
        "choice": s.choice,
        "arg": s.arg,
        "move": [] if s.mv is None else s.mv.to_list(),
        "battle": [] if s.bt is None else s.bt.to_list(),
        "stack": [_step_to_json(k) for k in s.stack],
        "result": s.result,
        "reason": s.reason,
        "turns": s.turns,
    }


def _step_to_json(step: tuple[Any, ...]) -> list[Any]:
    """A continuation as a list: a waiting move's record as its fields, after the name."""
    if step[0] == "sea_arrive":
        return [step[0], *step[1].to_list()]
    return list(step)


def _step_from_json(step: list[Any]) -> tuple[Any, ...]:
    """A continuation from its list (`check_phase` checks a waiting move's fields)."""
    if step and step[0] == "sea_arrive" and len(step) == 1 + MOVE_FIELDS:
        return (step[0], Move(*step[1:]))
    return tuple(step)


def state_from_json(data: Mapping[str, Any], c: Components, game: Game[State, Action]) -> State:
    """A position read from `data` and checked; `game` (typed as the contract) reads the
    options the position was played with."""
    from pydantic import ValidationError

    from thermopylae.engine.validation import first_problem

    try:
        f: Any = _schema().model_validate(dict(data))
    except ValidationError as exc:
        raise RecordError(first_problem(exc, "state")) from exc
    if f.phase not in PHASES:
        raise RecordError(f"state.phase: unknown phase {f.phase!r}")
    n = len(c.names)
    s = State(n, game.options(f.options))
    for name in ("armies", "fleets"):
        rows = getattr(f, name)
        if len(rows) != 2 or any(len(r) != n or min(r, default=0) < 0 for r in rows):
            raise RecordError(f"state.{name}: two rows of {n} counts, none negative")
    s.campaign, s.score, s.phase = f.campaign, f.score, PHASES.index(f.phase)
    s.side, s.active = f.side, f.active
    s.arm, s.flt = [list(r) for r in f.armies], [list(r) for r in f.fleets]
    s.res_arm, s.res_flt, s.portraits = (
        list(f.reserve_armies),
        list(f.reserve_fleets),
        list(f.portraits),
    )
    s.kings, s.used, s.bridge = f.kings, f.used, f.bridge
    s.hands, s.deck, s.discard = [sorted(h) for h in f.hands], sorted(f.deck), list(f.discard)
    s.carneia, s.acropolis, s.acropolis_penalty = f.carneia, f.acropolis, f.acropolis_penalty
    s.passes, s.talents, s.fleets_built = f.passes, f.talents, f.fleets_built
    s.draws, s.draw_to, s.window, s.choice, s.arg = f.draws, f.draw_to, f.window, f.choice, f.arg
    # (a move or battle of the wrong length is refused by `check_phase`, in its turn)
    s.mv = Move(*f.move) if len(f.move) == MOVE_FIELDS else None
    s.bt = Battle(*f.battle) if len(f.battle) == BATTLE_FIELDS else None
    s.stack = [_step_from_json(k) for k in f.stack]
    s.result, s.reason, s.turns = f.result, f.reason, f.turns
    check(s, c, f.battle)
    check_phase(s, c, f.move, f.battle)
    return s


# The continuations a state may wait on, with the number of their arguments.
CONTINUATIONS = {
    "ops_next": 0,
    "after_buy": 1,
    "after_sudden_death": 1,
    "sea_arrive": 9,
    "round": 0,
    "after_round": 0,
    "reopen": 1,
    "event_move": 3,
    "event_move_excluding": 4,
    "pacified": 0,
}


def check_phase(
    s: State, c: Components, move: list[int] | None = None, battle: list[int] | None = None
) -> None:
    """The phase has the context it needs (a move, a battle, a window, a choice), so that a
    hand-made position either plays on or is refused here, never half-way. `move`,
    `battle`: the lists the position was read from (by default, those of `s`)."""
    from thermopylae.games.earth_and_water.state import (
        BT_CHOICE,
        CHOOSE,
        DRAW,
        LOT,
        MV_CARRY,
        MV_COUNT,
        MV_DEST,
        MV_ORIGIN,
        OPS,
        OVER,
        PREP_BUILD,
        PREP_BUY,
        REACT,
        ROLL,
        SUP_KEEP,
        SUP_REMOVE,
    )

    phase = PHASES[s.phase]

    def bad(why: str) -> RecordError:
        return RecordError(f"state: phase {phase!r} {why}")

    n = len(c.names)

    def within(value: Any, lo: int, hi: int, what: str) -> None:
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise RecordError(f"state.{what}: {value!r} is not within {lo}..{hi}")

    def check_move(mv: list[int], what: str) -> None:
        for i, (lo, hi) in enumerate(
            (
                (0, 1),
                (0, 2),
                (-1, 1),
                (-1, n - 1),
                (0, 24),
                (0, 3),
                (0, 113),
                (-1, n - 1),
                (-1, n - 1),
            )
        ):
            within(mv[i], lo, hi, f"{what}[{i}]")

    for item in s.stack:
        if not item or item[0] not in CONTINUATIONS:
            raise RecordError(f"state.stack: unknown step {list(item)!r}")
        if item[0] == "sea_arrive":
            if len(item) != 2 or not isinstance(item[1], Move):
                raise RecordError(f"state.stack: unknown step {list(item)!r}")
            check_move(item[1].to_list(), "stack.sea_arrive")
            continue
        if len(item) - 1 != CONTINUATIONS[item[0]]:
            raise RecordError(f"state.stack: unknown step {list(item)!r}")
        if item[0] == "after_sudden_death":
            if item[1] not in ("preparation", "operations"):
                raise RecordError(f"state.stack: unknown step {list(item)!r}")
        else:
            ranges = {
                "after_buy": ((0, 1),),
                "reopen": ((1, 6),),
                "event_move": ((0, 1), (0, 2), (0, 113)),
                "event_move_excluding": ((0, 1), (0, 2), (0, 113), (-1, n - 1)),
            }
            for i, (v, (lo, hi)) in enumerate(zip(item[1:], ranges.get(item[0], ()), strict=False)):
                within(v, lo, hi, f"stack.{item[0]}[{i}]")
    mv = move if move is not None else [] if s.mv is None else s.mv.to_list()
    bt = battle if battle is not None else [] if s.bt is None else s.bt.to_list()
    if len(mv) == MOVE_FIELDS:
        check_move(mv, "move")
    elif mv:
        raise RecordError(f"state.move: a move has {MOVE_FIELDS} fields")
    if len(bt) == BATTLE_FIELDS:
        for i, v in enumerate(bt):
            within(v, -1, 99, f"battle[{i}]")
        within(bt[0], 0, 1, "battle[0]")
        within(bt[2], 0, 1, "battle[2]")
        if bt[9] < 2:
            within(bt[1], 0, n - 1, "battle[1]")
            within(bt[13], -1, n - 1, "battle[13]")
    elif bt:
        raise RecordError(f"state.battle: a battle has {BATTLE_FIELDS} fields")
    waits = s.phase not in (PREP_BUY, PREP_BUILD, OPS, SUP_KEEP, SUP_REMOVE, OVER) or (
        s.phase in (PREP_BUY, PREP_BUILD) and s.fleets_built < 0
    )
    if waits and not s.stack:
        raise RecordError(f"state.stack: phase {phase!r} needs what comes after it")
    if (s.phase == CHOOSE and s.choice == 6) or (s.phase == REACT and s.window == 6):
        within(s.arg, 0, n - 1, "arg")
    if (s.phase == OVER) != (s.result >= 0):
        raise bad("and the result disagree")
    if s.phase in (MV_ORIGIN, MV_COUNT, MV_CARRY, MV_DEST) and s.mv is None:
        raise bad("needs a move in progress")
    if s.phase in (ROLL, BT_CHOICE) and s.bt is None:
        raise bad("needs a battle in progress")
    if s.phase == REACT:
        if not 1 <= s.window <= 6:
            raise bad("needs a reaction window (1 to 6)")
        if s.window in (1, 2, 4, 5) and s.bt is None:
            raise bad("needs a battle in progress")
        if s.window == 3 and not (s.stack and s.stack[-1][0] == "sea_arrive"):
            raise bad("needs a Persian naval move waiting")
    if s.phase == CHOOSE and not 1 <= s.choice <= 11:
        raise bad("needs an event choice (1 to 11)")
    if s.phase == DRAW and (s.draws <= 0 or not (s.deck or s.discard)):
        raise bad("needs cards owed and cards to draw")
    if s.phase == LOT and not s.hands[1]:
        raise bad("needs a Greek hand to draw from")
    if s.phase == SUP_REMOVE and s.draws <= 0:
        raise bad("needs armies owed to attrition")


def check(s: State, c: Components, battle: list[int] | None = None) -> None:
    """Every piece and card is in one place: map, reserve, portrait, at sea, hand, pile.
    `battle`: the list the position was read from (by default, that of `s`)."""

    if len(s.res_arm) != 2 or len(s.res_flt) != 2 or len(s.portraits) != 3 or len(s.hands) != 2:
        raise RecordError("state: reserves, portraits and hands have one entry per side")
    at_sea_arm, at_sea_flt = [0, 0], [0, 0]
    for item in s.stack:  # a move waiting while Themistocles answers it
        if item and item[0] == "sea_arrive":
            if len(item) == 2 and isinstance(item[1], Move):
                waiting = item[1]
                at_sea_flt[waiting.side] += waiting.count
                at_sea_arm[waiting.side] += waiting.carry
            else:  # (a step of the wrong length, refused by `check_phase`)
                at_sea_flt[item[1]] += item[5]
                at_sea_arm[item[1]] += item[6]
    bt = battle if battle is not None else [] if s.bt is None else s.bt.to_list()
    if bt and bt[0] == 1 and len(bt) > 8:  # armies carried in a naval battle (`Battle.carry`)
        at_sea_arm[bt[2]] += bt[8]
    if min(s.res_arm + s.res_flt + s.portraits) < 0:
        raise RecordError("state: a reserve or portrait count is negative")
    if s.portraits[0] > s.kings:  # (one fewer while Persia picks it from the map)
        raise RecordError(
            f"state.portraits: {s.portraits[0]} Persian portrait armies for {s.kings} dead king(s)"
        )
    leaders = bin(s.used & 7).count("1")  # Miltiades, Themistocles, Leonidas played
    if s.portraits[1] > leaders:
        raise RecordError(
            f"state.portraits: {s.portraits[1]} Greek portrait armies for "
            f"{leaders} leader(s) played"
        )
    if s.portraits[2] > (1 if s.used & 8 else 0):
        raise RecordError("state.portraits: an Artemisia fleet without Artemisia I played")
    for side in (0, 1):
        armies = sum(s.arm[side]) + s.res_arm[side] + s.portraits[side] + at_sea_arm[side]
        if armies != c.armies[side]:
            raise RecordError(
                f"state: side {side} has {armies} armies in all, not {c.armies[side]}"
            )
        fleets = (
            sum(s.flt[side])
            + s.res_flt[side]
            + (s.portraits[2] if side == 0 else 0)
            + at_sea_flt[side]
        )
        if fleets != c.fleets[side]:
            raise RecordError(
                f"state: side {side} has {fleets} fleets in all, not {c.fleets[side]}"
            )
    cards = Counter(s.deck) + Counter(s.discard) + Counter(s.hands[0]) + Counter(s.hands[1])
    if cards != Counter(range(1, 17)):
        raise RecordError("state: the 16 cards are not each in exactly one place")
