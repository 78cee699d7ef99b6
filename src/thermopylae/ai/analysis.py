"""Analysis of a finished game for one seat: the win chance along the game and, at each
of the seat's decisions, how much the move played gave away against the best move found.

Every estimate is `ai.winchance.estimate_all` from the analysed seat's information. The
candidates of a decision are its `sensible` moves, at most `MAX_CANDIDATES`: the move
played, the heuristic's choice, then the others in a seeded random order. All
candidates of one decision share one seed (common random numbers: the same deals and
dice), so their differences are measured on the same luck. The estimates are independent
tasks, run in worker processes or on Ray when asked (`run`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from thermopylae.ai.base import make_agent
from thermopylae.ai.winchance import check_budget, default_agent, estimate_all
from thermopylae.engine import registry
from thermopylae.engine.errors import RecordError, ThermopylaeError
from thermopylae.engine.protocol import JSON, GenericGame
from thermopylae.engine.record import Record, replay, restore_state

if TYPE_CHECKING:
    from thermopylae.sim.backends import Pool

MAX_CANDIDATES = 8
MARKS = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))
"""A decision's mark by its loss in win chance (the first threshold it reaches)."""
FORMAT = "thermopylae-analysis"
MAX_CHUNK = 16
"""Tasks per Ray task at most: an estimate of the default 200 playouts takes 0.2 to 7 s,
so a Ray task's own cost (some milliseconds) is small beside even one."""


@dataclass(frozen=True, slots=True)
class Task:
    """One estimate: a state (as JSON) seen by `seat`, with its own seed."""

    game: str
    components: str | None
    state: JSON
    seat: int
    seed: int
    budget: int
    agent: str


def run_task(task: Task) -> list[dict[str, Any]]:
    """A task's estimate for every seat (module level, so a spawned worker can run it)."""
    game = registry.get(task.game, None if task.components is None else Path(task.components))
    state = game.state_from_json(task.state)
    chances = estimate_all(
        game, state, task.seat, budget=task.budget, agent=task.agent, rng=random.Random(task.seed)
    )
    return [c.to_json() for c in chances]


def mark(loss: float) -> str | None:
    for name, threshold in MARKS:
        if loss >= threshold - 1e-12:
            return name
    return None


def seat_index(game: GenericGame, record: Record, seat: str) -> int:
    if seat not in record.seats:
        raise ThermopylaeError(
            f"no seat {seat!r} in this record; the seats are {', '.join(record.seats)}"
        )
    return record.seats.index(seat)


@dataclass
class Plan:
    """The tasks of an analysis and where each result goes."""

    timeline: list[tuple[int, str, str, int]]  # (step, who, action, task index)
    decisions: list[tuple[int, str, list[tuple[str, int]]]]  # (step, played, candidates)
    tasks: list[Task]


def plan(
    game: GenericGame,
    record: Record,
    seat: int,
    budget: int,
    agent: str | None,
    seed: int,
    components: Path | None = None,
) -> Plan:
    """Replay `record` (it must replay cleanly) and lay out every estimate."""
    check_budget(budget)
    spec = default_agent(game) if agent is None else agent
    make_agent(spec, game)  # a bad spec fails here, not in a worker
    report = replay(game, record)
    if not report.ok:
        raise RecordError(f"the record does not replay: {report.problems[0]}")
    options = game.options(record.options)
    state = (
        game.new(options)
        if record.start is None
        else restore_state(game, record.start, "record start")
    )
    comp = None if components is None else str(components)
    heuristic = game.agents().get("heuristic")
    hint = None if heuristic is None else heuristic()
    tasks: list[Task] = []

    def task(s: Any, step_seed: int) -> int:
        tasks.append(Task(game.id, comp, game.state_to_json(s), seat, step_seed, budget, spec))
        return len(tasks) - 1

    timeline = [(0, "", "", task(state, _seed(seed, 0)))]
    decisions = []
    for number, (who, text) in enumerate(record.steps, start=1):
        action = game.parse(text)
        step_seed = _seed(seed, number)
        if game.to_act(state) == seat:
            moves = _candidates(game, state, action, hint, random.Random(step_seed))
            cands = []
            played = -1
            for move in moves:
                after = game.copy(state)
                game.apply(after, move, quiet=True)
                index = task(after, step_seed)
                if move == action:
                    played = index
                cands.append((game.format(move), index))
            decisions.append((number, text, cands))
            game.apply(state, action, quiet=True)
            timeline.append((number, who, text, played))
        else:
            game.apply(state, action, quiet=True)
            timeline.append((number, who, text, task(state, step_seed)))
    return Plan(timeline, decisions, tasks)


def _seed(seed: int, step: int) -> int:
    return (seed * 1_000_003 + step) % (2**63)


def _candidates(
    game: GenericGame, state: Any, played: Any, hint: Any, rng: random.Random
) -> list[Any]:
    """The move played, the heuristic's, then the other sensible moves in a seeded random
    order, at most `MAX_CANDIDATES`."""
    moves = [played]
    if hint is not None:
        best = hint.act(game, state, random.Random(rng.random()))
        if best not in moves:
            moves.append(best)
    rest = [m for m in game.sensible(state) if m not in moves]
    rng.shuffle(rest)
    return (moves + rest)[:MAX_CANDIDATES]


def run_chunk(tasks: Sequence[Task]) -> list[list[dict[str, Any]]]:
    """The results of a chunk of tasks, in order (what one Ray task runs)."""
    return [run_task(t) for t in tasks]


def chunks(tasks: Sequence[Task], cpus: int) -> list[tuple[Task, ...]]:
    """`tasks` cut into consecutive chunks, about four for each of `cpus` CPUs (so that
    a slow chunk near the end leaves little idle), of at most `MAX_CHUNK` tasks each."""
    size = max(1, min(MAX_CHUNK, len(tasks) // (4 * max(1, cpus))))
    return [tuple(tasks[i : i + size]) for i in range(0, len(tasks), size)]


def run(
    tasks: Sequence[Task],
    workers: int,
    advance: Callable[[int], None],
    backend: str = "process",
    address: str | None = None,
    pool: Pool | None = None,
) -> list[Any]:
    """Every task's result, in order, whatever runs them (every task has its own seed).

    `backend` "process": `workers` > 1 runs the tasks on `sim.backends`' process pool,
    `pool` if given (opened by the caller before any thread, so that its workers can be
    forked), else one opened for this call and shut down, its processes reaped, before
    this returns. "ray": chunks of tasks run as Ray tasks on the cluster at `address`, or
    on a local Ray started with one CPU a core; `workers` is not used (the cluster's CPUs
    are)."""
    from thermopylae.sim import backends

    if backend == "ray":
        ray = backends.start_ray(address)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        parts = backends.run_jobs(
            run_chunk,
            chunks(tasks, cpus),
            backend="ray",
            address=address,
            progress=lambda chunk: advance(len(chunk)),
        )
        return [r for part in parts for r in part]
    return backends.run_jobs(
        run_task,
        tasks,
        workers=workers,
        backend=backend,
        address=address,
        progress=lambda _task: advance(1),
        pool=pool,
    )


def assemble(
    game: GenericGame,
    record: Record,
    seat: int,
    budget: int,
    agent: str | None,
    seed: int,
    p: Plan,
    results: Sequence[Any],
) -> JSON:
    """The analysis as JSON (schema in docs/analysis.md)."""
    seats = record.seats
    timeline = [
        {
            "step": step,
            "who": who or None,
            "action": action or None,
            "win": {seats[i]: r["win"] for i, r in enumerate(results[index])},
            "stderr": results[index][seat]["stderr"],
        }
        for step, who, action, index in p.timeline
    ]
    decisions = []
    for step, played, cands in p.decisions:
        rows = [{"move": move, **results[index][seat]} for move, index in cands]
        best = max(rows, key=lambda r: r["win"])
        mine = next(r for r in rows if r["move"] == game.format(game.parse(played)))
        loss = max(0.0, best["win"] - mine["win"])
        decisions.append(
            {
                "step": step,
                "played": played,
                "win_played": mine["win"],
                "best": best["move"],
                "win_best": best["win"],
                "loss": loss,
                "mark": mark(loss),
                "candidates": rows,
            }
        )
    return {
        "format": FORMAT,
        "version": 1,
        "game": game.id,
        "components": game.components_digest,
        "seats": seats,
        "seat": seats[seat],
        "budget": budget,
        "agent": default_agent(game) if agent is None else agent,
        "seed": seed,
        "outcome": record.outcome,
        "thresholds": {name: t for name, t in MARKS},
        "decisions": decisions,
        "timeline": timeline,
    }
