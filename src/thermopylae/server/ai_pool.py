"""Where AI seats think: a bounded pool of their own, never the threads that serve I/O.

A visitor chooses an AI seat's agent and its budget, so the server bounds both: every
number of an agent spec is checked against `AiLimits` when the table is created (422 over a
limit, naming it), every decision is cut at `AiLimits.seconds` of CPU time (the search
agents stop there and answer with what they found), and one client address has at most
`per_client` decisions thinking at once. The pool is made of processes by default, so a
search never competes with the event loop for the interpreter, and closing the server
ends the searches at once (the processes are terminated).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import multiprocessing
import os
import random
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from thermopylae.ai.base import Agent, make_agent, parse_spec
from thermopylae.engine import registry
from thermopylae.engine.protocol import GenericGame

log = logging.getLogger("thermopylae.server")

DEFAULT_PARAMETERS: dict[str, float] = {
    "iterations": 20_000,
    "samples": 2_000,
    "depth": 1_000,
    "c": 100.0,
    "prior": 100.0,
}
"""The largest value each agent parameter may take on a server (`--ai-limit NAME=VALUE`)."""


@dataclass(frozen=True)
class AiLimits:
    """What a visitor may ask of the server's AI: `seconds`, the CPU time of one decision
    (also the largest `seconds=` of a spec); `parameters`, the largest value of each other
    number in a spec; `per_client`, decisions of one client address thinking at once;
    `tables_per_client`, tables of one address waiting for their AI at once (429 past it);
    `workers`, the size of the pool; `processes`, processes (True) or threads;
    `reply_wait`, how long a request that gave the AI its turn waits for the AI's moves
    before it answers with the table as it is; `niceness`, how much lower the worker
    processes' CPU priority is than the server's."""

    seconds: float = 5.0
    reply_wait: float = 10.0
    niceness: int = 10  # worker processes run at this lower priority
    parameters: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_PARAMETERS))
    per_client: int = 2
    tables_per_client: int = 8
    workers: int = max(1, min(4, os.cpu_count() or 1))
    processes: bool = True

    def check(self, spec: str) -> None:
        """Refuse (ValueError naming the parameter and its limit) a spec over a limit."""
        _name, params = parse_spec(spec)
        for key, value in params.items():
            if isinstance(value, bool) or not isinstance(value, int | float):
                continue  # words are the agent's to check (playout=heuristic)
            if not math.isfinite(value):
                raise ValueError(f"{key}={value} is not a finite number")
            limit = self.seconds if key == "seconds" else self.parameters.get(key)
            if limit is not None and value > limit:
                raise ValueError(f"{key}={value:g} is over this server's limit of {limit:g}")


# -- inside a worker -------------------------------------------------------------------

_AGENTS: dict[tuple[str, str], Agent] = {}


def _agent(game: GenericGame, spec: str) -> Agent:
    key = (game.id, spec)
    agent = _AGENTS.get(key)
    if agent is None:
        agent = _AGENTS[key] = make_agent(spec, game)
    return agent


def think(game_id: str, spec: str, state: Any, seed: int, seconds: float) -> str:
    """One decision of the agent `spec` for the seat to act in `state`, in the game's
    notation; a search stops after `seconds` of this thread's CPU time."""
    game = registry.get(game_id)
    agent = _agent(game, spec)
    with cpu_budget(agent, seconds):
        action = agent.act(game, state, random.Random(seed))
    return str(game.format(action))


def hint(game_id: str, state: Any, seat: int, budget: int, seed: int) -> list[dict[str, Any]]:
    """The bot's best moves for `seat` in `state`, from that seat's information only
    (`ai.hints.suggest`), as JSON: the action in notation and its win chance."""
    from thermopylae.ai.hints import suggest  # workers that only play need not import it

    game = registry.get(game_id)
    return [
        {"action": h.text, **h.chance.to_json()}
        for h in suggest(game, state, seat, budget=budget, seed=seed)
    ]


@contextlib.contextmanager
def cpu_budget(agent: Any, seconds: float) -> Iterator[None]:
    """Give a search agent a CPU-time deadline for the decision it is about to make
    (agents without `cpu_limit` are the fast rule-based ones)."""
    if hasattr(agent, "cpu_limit"):
        agent.cpu_limit = seconds
    try:
        yield
    finally:
        if hasattr(agent, "cpu_limit"):
            agent.cpu_limit = None


def _start_worker(niceness: int, games: list[registry.Registration]) -> None:
    """A worker yields the CPU to the server process (the requests of every table come
    before the searches of a few), and imports the games once (with those registered at
    run time in the server's process)."""
    with contextlib.suppress(OSError):
        os.nice(niceness)
    registry.adopt(games)
    for gid in registry.game_ids():
        registry.get(gid)


# -- the pool, seen from the event loop ---------------------------------------------------


class AiBusy(Exception):
    """A client address already has as many tables waiting for the AI as it may."""


class AiPool:
    """The pool and the per-client bounds. `think` is awaited by a table's runner."""

    def __init__(self, limits: AiLimits) -> None:
        self.limits = limits
        self._executor: Executor | None = None
        self._thinking: dict[str, asyncio.Semaphore] = {}
        self._waiting: dict[str, int] = {}  # tables waiting for AI per client address
        self._users: dict[str, int] = {}  # decisions asked for per client address
        self.closed = False

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.limits.processes:
                self._executor = ProcessPoolExecutor(
                    self.limits.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                    initargs=(self.limits.niceness, registry.registrations()),
                )
            else:
                self._executor = ThreadPoolExecutor(self.limits.workers, "thermopylae-ai")
        return self._executor

    def admit(self, client: str) -> None:
        """AiBusy if `client` already has `tables_per_client` tables waiting for the AI
        (asked before a request gives the AI more work, and by `table`)."""
        if self._waiting.get(client, 0) >= self.limits.tables_per_client:
            raise AiBusy(
                f"{self.limits.tables_per_client} of your tables are already "
                "waiting for the AI; wait for one to finish"
            )

    @contextlib.contextmanager
    def table(self, client: str) -> Iterator[None]:
        """One table of `client` waiting for its AI (AiBusy past `tables_per_client`)."""
        self.admit(client)
        self._waiting[client] = self._waiting.get(client, 0) + 1
        try:
            yield
        finally:
            self._waiting[client] -= 1
            if not self._waiting[client]:
                del self._waiting[client]

    async def think(self, game_id: str, spec: str, state: Any, seed: int, client: str) -> str:
        answer: str = await self.run(client, think, game_id, spec, state, seed, self.limits.seconds)
        return answer

    async def run(self, client: str, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in the pool (a module-level function, so a spawned worker can run
        it), counted against `client`'s decisions thinking at once: an AI seat's move, a
        hint, an estimate of an analysis."""
        if self.closed:
            raise asyncio.CancelledError
        sem = self._thinking.get(client)
        if sem is None:
            sem = self._thinking[client] = asyncio.Semaphore(self.limits.per_client)
        self._users[client] = self._users.get(client, 0) + 1
        try:
            async with sem:
                loop = asyncio.get_running_loop()
                try:
                    return await loop.run_in_executor(self._pool(), fn, *args)
                except BrokenProcessPool:  # a worker died (killed, out of memory): anew
                    self._executor = None
                    raise
        finally:
            self._users[client] -= 1
            if not self._users[client]:  # the address is forgotten when it has no work
                del self._users[client]
                self._thinking.pop(client, None)

    def close(self) -> None:
        """Stop thinking now: pending decisions are cancelled, worker processes ended."""
        self.closed = True
        pool, self._executor = self._executor, None
        if pool is None:
            return
        processes = list(getattr(pool, "_processes", {}).values())  # no public handle
        pool.shutdown(wait=False, cancel_futures=True)
        for p in processes:
            with contextlib.suppress(Exception):
                p.terminate()
        for p in processes:
            with contextlib.suppress(Exception):
                p.join(2)


def check_agent(spec: str, game: GenericGame, limits: AiLimits) -> None:
    """The agent exists for the game and its numbers are within the server's limits."""
    limits.check(spec)
    make_agent(spec, game)  # raises ThermopylaeError naming a bad name or parameter
