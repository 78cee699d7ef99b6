"""One JSON line per game (`--out FILE` of `simulate` and `tournament`), and re-checking a
line by playing its game again.

A line holds everything needed to rebuild its game: the game and its component set, the
options, the agent of each seat, and the (seed, index) pair of `match.rngs`. The game's
record is not stored, only its digest (`match.record_digest`): `recheck` plays the game
again with fresh agents and compares the digests.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from thermopylae.engine import registry
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.files import FileProblem, parse
from thermopylae.engine.protocol import GenericGame, Outcome
from thermopylae.sim.match import GameResult, record_digest, replay_indexed

if TYPE_CHECKING:  # records are imported where games are recorded, not by every run
    from thermopylae.engine.record import Record


@dataclass(frozen=True, slots=True)
class GameRow:
    """What a worker sends back for one game (small and picklable)."""

    index: int
    results: tuple[str, ...]
    scores: tuple[float, ...]
    reason: str
    turns: int
    steps: int
    digest: str | None = None

    @classmethod
    def of(cls, r: GameResult) -> GameRow:
        o = r.outcome
        return cls(r.index, o.results, o.scores, o.reason, o.turns, r.steps, r.digest)

    def outcome(self) -> Outcome:
        return Outcome(self.results, self.scores, self.reason, self.turns)


def line(
    game: GenericGame,
    options: dict[str, Any],
    agents: Iterable[str],
    seed: int,
    row: GameRow,
    **extra: Any,
) -> dict[str, Any]:
    """The `--out` line of one game (`extra`: the tournament's pairing and seed)."""
    seats = game.seats(options)
    return {
        "game": game.id,
        "components": game.components_digest,
        "options": options,
        "seed": seed,
        "index": row.index,
        **extra,
        "agents": dict(zip(seats, agents, strict=True)),
        "outcome": row.outcome().to_json(),
        "length": row.steps,
        "record_digest": row.digest,
    }


def write(path: Path, lines: Iterable[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8") as f:
        for data in lines:
            f.write(json.dumps(data, separators=(",", ":")) + "\n")


def parse_ref(ref: str) -> tuple[Path, int]:
    """`FILE:N` (N counted from 1) as a path and a line number."""
    name, colon, number = ref.rpartition(":")
    if not colon or not name or not number.isdigit() or int(number) < 1:
        raise ThermopylaeError(f"{ref!r}: write FILE:N, N the line number counted from 1")
    return Path(name), int(number)


def read(path: Path, number: int) -> dict[str, Any]:
    """Line `number` (from 1) of an `--out` file."""
    text = None
    count = 0
    try:
        with path.open(encoding="utf-8") as f:
            for count, text in enumerate(f, start=1):  # noqa: B007
                if count == number:
                    break
    except IsADirectoryError as exc:
        raise ThermopylaeError(f"{path}: cannot read: it is a folder, not a file") from exc
    except OSError as exc:
        raise ThermopylaeError(f"{path}: cannot read: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise ThermopylaeError(f"{path}: not a text file (not UTF-8)") from exc
    if text is None or count != number:
        raise ThermopylaeError(f"{path} has {count} line(s), not {number}")
    try:
        data = parse(text, "JSON")
    except FileProblem as exc:  # not JSON, or nested too deeply to be a game line
        raise ThermopylaeError(f"{path}:{number}: {exc}") from exc
    if not isinstance(data, dict):
        raise ThermopylaeError(f"{path}:{number}: not a game line (not an object)")
    for key in ("game", "options", "seed", "index", "agents", "record_digest"):
        if key not in data:
            raise ThermopylaeError(f"{path}:{number}: not a game line (no {key!r})")
    if not isinstance(data["agents"], dict):
        raise ThermopylaeError(f"{path}:{number}: agents should be an object, seat: agent")
    line: dict[str, Any] = data
    return line


@dataclass(frozen=True)
class Recheck:
    ok: bool
    record: Record
    digest: str
    problems: list[str]


def recheck(data: dict[str, Any], components: Path | None = None) -> Recheck:
    """Play a line's game again; `ok` when the rebuilt record has the line's digest (and
    its outcome and length match)."""
    game = registry.get(data["game"], components)
    problems = []
    if data.get("components", game.components_digest) != game.components_digest:
        problems.append(
            f"the line was played with the component set {data['components']}, "
            f"not {game.components_digest}: pass the same --components"
        )
    rec = replay_indexed(
        game, data["options"], list(data["agents"].values()), data["seed"], data["index"]
    )
    got = record_digest(rec)
    if got != data["record_digest"]:
        problems.append(f"record digest {got} differs from the line's {data['record_digest']}")
    if "outcome" in data and rec.outcome != data["outcome"]:
        problems.append(f"outcome {rec.outcome} differs from the line's {data['outcome']}")
    if "length" in data and len(rec.steps) != data["length"]:
        problems.append(f"{len(rec.steps)} steps, the line says {data['length']}")
    return Recheck(not problems, rec, got, problems)
