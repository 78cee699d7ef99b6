"""Game records and positions.

A *record* (like a PGN) is the game id, the component set's digest, the options, the seats,
an optional starting position, and every step, decision or chance outcome, in the game's
notation. Replaying it re-runs the rules and checks every step. A *position* (like a FEN)
is one state, so a rule question, a bug report or a puzzle fits in one file.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from thermopylae.engine.components import digest
from thermopylae.engine.errors import RecordError, ThermopylaeError
from thermopylae.engine.files import FileProblem, parse, read_text
from thermopylae.engine.protocol import CHANCE, JSON, GenericGame, Outcome
from thermopylae.engine.validation import first_problem

RECORD_FORMAT = "thermopylae-record"
POSITION_FORMAT = "thermopylae-position"
CHANCE_NAME = "chance"


class _Header(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: Literal[1]
    game: str
    components: str
    options: dict[str, Any]
    seats: list[str]


class _Forfeit(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int
    reason: str


class _RecordFile(_Header):
    format: Literal["thermopylae-record"]
    seed: int | None = None
    start: dict[str, Any] | None = None
    steps: list[tuple[str, str]]
    final: str | None = None
    outcome: dict[str, Any] | None = None
    forfeit: _Forfeit | None = None


class _PositionFile(_Header):
    format: Literal["thermopylae-position"]
    state: dict[str, Any]


def state_digest(game: GenericGame, state: Any) -> str:
    """A fingerprint of a whole state (hidden parts included), to compare replays."""
    return digest(game.state_to_json(state))


def seat_name(game: GenericGame, options: dict[str, Any], seat: int) -> str:
    return CHANCE_NAME if seat == CHANCE else str(game.seats(options)[seat])


@dataclass
class Record:
    """A game as it was played; `steps` holds (who, action in notation) pairs."""

    game: str
    components: str
    options: dict[str, Any]
    seats: list[str]
    seed: int | None = None
    start: dict[str, Any] | None = None
    steps: list[tuple[str, str]] = field(default_factory=list)
    final: str | None = None
    outcome: dict[str, Any] | None = None
    forfeit: dict[str, Any] | None = None  # {"seat", "reason"}: ended by a forfeit (time)

    @classmethod
    def begin(
        cls, game: GenericGame, options: dict[str, Any], seed: int | None = None, start: Any = None
    ) -> Record:
        return cls(
            game=game.id,
            components=game.components_digest,
            options=dict(options),
            seats=list(game.seats(options)),
            seed=seed,
            start=None if start is None else game.state_to_json(start),
        )

    def add(self, who: str, action: str) -> None:
        self.steps.append((who, action))

    def close(self, game: GenericGame, state: Any, forfeit: tuple[int, str] | None = None) -> None:
        """Stamp the final state's digest and outcome, so a replay can check them;
        `forfeit` (seat, reason): the game ended before the rules end it (time ran out)."""
        self.final = state_digest(game, state)
        self.forfeit = None if forfeit is None else {"seat": forfeit[0], "reason": forfeit[1]}
        out: Outcome | None = _ending(game, state, self.forfeit)
        self.outcome = None if out is None else out.to_json()

    def to_json(self) -> JSON:
        return {
            "format": RECORD_FORMAT,
            "version": 1,
            "game": self.game,
            "components": self.components,
            "options": self.options,
            "seats": self.seats,
            "seed": self.seed,
            "start": self.start,
            "steps": [list(s) for s in self.steps],
            "final": self.final,
            "outcome": self.outcome,
            **({} if self.forfeit is None else {"forfeit": self.forfeit}),
        }

    @classmethod
    def from_json(cls, data: Any, source: str = "record") -> Record:
        if isinstance(data, dict) and data.get("format") == POSITION_FORMAT:
            raise RecordError(f"{source}: this is a position file, not a game record")
        _must_be_object(data, source, "game record")
        try:
            f = _RecordFile.model_validate(data)
        except ValidationError as exc:
            raise RecordError(f"{source}: not a valid game record: {first_problem(exc)}") from exc
        return cls(
            f.game,
            f.components,
            f.options,
            f.seats,
            f.seed,
            f.start,
            [tuple(s) for s in f.steps],  # type: ignore[misc]
            f.final,
            f.outcome,
            None if f.forfeit is None else f.forfeit.model_dump(),
        )

    def save(self, path: Path) -> None:
        _write(path, self.to_json())

    @classmethod
    def load(cls, path: Path) -> Record:
        return cls.from_json(_read(path), str(path))


@dataclass
class Position:
    """One state of one game, with what is needed to rebuild it."""

    game: str
    components: str
    options: dict[str, Any]
    seats: list[str]
    state: dict[str, Any]

    @classmethod
    def of(cls, game: GenericGame, options: dict[str, Any], state: Any) -> Position:
        return cls(
            game.id,
            game.components_digest,
            dict(options),
            list(game.seats(options)),
            game.state_to_json(state),
        )

    def to_json(self) -> JSON:
        return {
            "format": POSITION_FORMAT,
            "version": 1,
            "game": self.game,
            "components": self.components,
            "options": self.options,
            "seats": self.seats,
            "state": self.state,
        }

    @classmethod
    def from_json(cls, data: Any, source: str = "position") -> Position:
        _must_be_object(data, source, "position")
        try:
            f = _PositionFile.model_validate(data)
        except ValidationError as exc:
            raise RecordError(f"{source}: not a valid position: {first_problem(exc)}") from exc
        return cls(f.game, f.components, f.options, f.seats, f.state)

    def save(self, path: Path) -> None:
        _write(path, self.to_json())

    @classmethod
    def load(cls, path: Path) -> Position:
        return cls.from_json(_read(path), str(path))

    def restore(self, game: GenericGame) -> Any:
        """The state, after checking that it belongs to `game` and its components."""
        check_match(game, self.game, self.components, "position")
        return restore_state(game, self.state, "position")


def restore_state(game: GenericGame, data: dict[str, Any], what: str) -> Any:
    """`game.state_from_json(data)`, any failure on a malformed state a `RecordError`."""
    try:
        return game.state_from_json(data)
    except RecordError:
        raise
    except (ThermopylaeError, KeyError, TypeError, ValueError, IndexError, RecursionError) as exc:
        raise RecordError(f"{what}: bad state: {exc}") from exc


def _must_be_object(data: Any, source: str, what: str) -> None:
    if not isinstance(data, dict):
        kind = {list: "a list", str: "a string", bool: "true or false", type(None): "null"}.get(
            type(data), "a number"
        )
        raise RecordError(
            f"{source}: not a valid {what}: the file holds {kind}, not an "
            f"object with the fields of a {what}"
        )


def check_match(game: GenericGame, game_id: str, components: str, what: str) -> None:
    if game_id != game.id:
        raise RecordError(f"this {what} is for the game {game_id!r}, not {game.id!r}")
    if components != game.components_digest:
        raise RecordError(
            f"this {what} was made with the component set {components}, but the loaded set "
            f"is {game.components_digest}; pass the same file with --components"
        )


@dataclass
class ReplayReport:
    """What `replay` found: `ok` only if every step was legal and the end matched."""

    ok: bool
    steps_checked: int
    problems: list[str]
    state: Any
    outcome: Outcome | None


def replay(game: GenericGame, record: Record) -> ReplayReport:
    """Re-run a record from its start; stop at the first step that is not legal."""
    try:
        check_match(game, record.game, record.components, "record")
        options = game.options(record.options)
        if list(game.seats(options)) != record.seats:
            raise RecordError(
                f"seats {record.seats} do not match the options "
                f"(expected {list(game.seats(options))})"
            )
        state = (
            game.new(options)
            if record.start is None
            else restore_state(game, record.start, "record start")
        )
    except ThermopylaeError as exc:
        return ReplayReport(False, 0, [str(exc)], None, None)
    for number, (who, text) in enumerate(record.steps, start=1):
        problem = _step(game, options, state, who, text)
        if problem:
            return ReplayReport(
                False,
                number - 1,
                [f"step {number} ({who}: {text}): {problem}"],
                state,
                game.outcome(state),
            )
    problems = []
    if record.final is not None and state_digest(game, state) != record.final:
        problems.append("the final state differs from the one the record was saved with")
    outcome = _ending(game, state, record.forfeit)
    if record.outcome is not None and (outcome is None or outcome.to_json() != record.outcome):
        problems.append(
            f"the outcome differs: record says {record.outcome}, replay gives "
            f"{None if outcome is None else outcome.to_json()}"
        )
    return ReplayReport(not problems, len(record.steps), problems, state, outcome)


def replay_to(game: GenericGame, record: Record, steps: int) -> ReplayReport:
    """The record's first `steps` steps replayed (its end is not checked): the position
    after step `steps` of a game, for a viewer or a game played on from there."""
    if not 0 <= steps <= len(record.steps):
        raise RecordError(
            f"step {steps} is not in the record: it has steps 0 to {len(record.steps)}"
        )
    head = Record(
        record.game,
        record.components,
        record.options,
        record.seats,
        record.seed,
        record.start,
        list(record.steps[:steps]),
    )
    return replay(game, head)


def _ending(game: GenericGame, state: Any, forfeit: dict[str, Any] | None) -> Outcome | None:
    """The outcome of a record's last state: the rules', or a forfeit's."""
    if forfeit is not None:
        return game.forfeit(state, int(forfeit["seat"]), str(forfeit["reason"]))
    return game.outcome(state)


def _step(
    game: GenericGame, options: dict[str, Any], state: Any, who: str, text: str
) -> str | None:
    seat = game.to_act(state)
    if seat is None:
        return "the game is already over"
    expected = seat_name(game, options, seat)
    if who != expected:
        return f"it is {expected}'s step, not {who}'s"
    try:
        game.apply(state, game.parse(text), quiet=True)
    except ThermopylaeError as exc:
        return str(exc)
    return None


def load_any(path: Path) -> Record | Position:
    """A record or a position, whichever the file holds."""
    data = _read(path)
    if isinstance(data, dict) and data.get("format") == POSITION_FORMAT:
        return Position.from_json(data, str(path))
    return Record.from_json(data, str(path))


def _read(path: Path) -> Any:
    try:
        text = read_text(path)
    except FileProblem as exc:
        raise RecordError(f"{path}: {exc}") from exc
    try:
        return parse(text, "JSON")
    except FileProblem as exc:
        cause = exc.__cause__
        if isinstance(cause, json.JSONDecodeError):
            where = _step_at(text, cause.pos)
            raise RecordError(f"{path}: not valid JSON{where}: {cause}") from exc
        raise RecordError(f"{path}: {exc}") from exc


def _step_at(text: str, pos: int) -> str:
    """` in step N` when a JSON error at `pos` falls inside a record's steps."""
    start = text.find('"steps"')
    if start < 0 or pos < start:
        return ""
    opened = text.find("[", start)
    if opened < 0 or pos <= opened:
        return ""
    # Each step is a `["who", "action"]` pair: count the pairs begun before the error.
    n = len(re.findall(r'\[\s*"', text[opened + 1 : pos]))
    return f" in step {n}" if n else ""


def _write(path: Path, data: JSON) -> None:
    """Write through a temporary file, so a failed save leaves the old file whole (and no
    temporary file behind)."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
