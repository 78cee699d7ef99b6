"""Tournaments: every agent against every other, on every seat; win rates and ratings.

Pairings (the seat assignments played, `games` games each):

* In a game with sides (Earth & Water, 300: The Board Game) every assignment of the agents
  to the seats except those where one agent holds every seat: with two seats, every
  ordered pair of distinct agents (agents a, b, c give a-b, b-a, a-c, c-a, b-c, c-b), so
  each agent meets each other on each side equally often. Self-play is left out: it says
  nothing about which agent is stronger (`simulate` measures it). With more seats than
  that (3 or 4 players), an agent may hold several seats of one game.
* In a co-operative game (Thermopyles, solo or as a team) every agent plays every seat of
  the same games: one pairing per agent, and every pairing uses the run's seed, so agent
  a's game i and agent b's game i are dealt from the same random source ("common random
  numbers"). Each of these runs is exactly `simulate GAME --agent AGENT --seed S`.

Seeds: game i of a pairing is `match.rngs(pairing.seed, i)`. In a game with sides the
pairing's seed is drawn from (run seed, the pairing's agents) by a hash, so a pairing gets
the same games whatever the other agents of the tournament, the --workers or the backend.

Ratings (`ratings.py`, Bradley–Terry on the Elo scale) are fitted on pairwise comparisons:
in a game with sides, every two seats held by different agents in one game (the better
result scores 1; a draw, or the same result, 0.5); in a co-operative game, every two
agents on the same deal i (one won and the other lost: 1; both the same: 0.5). The 95%
intervals come from a bootstrap over games (over deals in a co-operative game, so that the
comparisons of one deal stay together), with a fixed seed, widened where needed to the
Fisher interval (`ratings.py` says why).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from thermopylae.ai.base import make_agent, parse_spec
from thermopylae.engine import registry
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import GenericGame
from thermopylae.sim import gamelog
from thermopylae.sim.backends import run_jobs
from thermopylae.sim.gamelog import GameRow
from thermopylae.sim.match import play_indexed
from thermopylae.sim.ratings import Comparison, Rating, rate
from thermopylae.sim.stats import wilson

Progress = Callable[[int], None]
RANK = {"win": 2, "draw": 1, "loss": 0}
BOOTSTRAP_SAMPLES = 1000
RATING_MODEL = (
    "Bradley-Terry on the Elo scale, mean 0, draws half; 95% CI: bootstrap over "
    f"games ({BOOTSTRAP_SAMPLES} samples) widened to the Fisher interval"
)


def parse_agents(text: str) -> list[str]:
    """Agent specs from `a,b,c`. An agent's parameters may hold commas
    (`ismcts:iterations=200,c=1.4,heuristic`): a `key=value` part with no `:` belongs to
    the agent before it."""
    specs: list[str] = []
    for token in (t.strip() for t in text.split(",")):
        if not token:
            raise ThermopylaeError(f"empty agent name in {text!r}")
        if "=" in token and ":" not in token:
            if not specs:
                raise ThermopylaeError(f"{token!r} is a parameter, not an agent, in {text!r}")
            specs[-1] += "," + token
        else:
            specs.append(token)
    seen: set[tuple[str, str]] = set()
    for spec in specs:
        name, params = parse_spec(spec)
        key = (name, json.dumps(params, sort_keys=True))
        if key in seen:
            raise ThermopylaeError(f"agent {spec!r} is listed twice")
        seen.add(key)
    if len(specs) < 2:
        raise ThermopylaeError("a tournament needs at least two agents (--agents a,b)")
    return specs


@dataclass(frozen=True)
class Pairing:
    """One seat assignment: `agents[s]` is the spec of the agent on seat s."""

    number: int
    agents: tuple[str, ...]
    seed: int


def pairing_seed(seed: int, agents: Sequence[str]) -> int:
    """The seed of a pairing's games in a game with sides: a hash of the run's seed and
    the agents by seat (48 bits, the same in every process)."""
    text = json.dumps([seed, list(agents)], separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big")


def pairings(
    seats: Sequence[str], agents: Sequence[str], cooperative: bool, seed: int
) -> list[Pairing]:
    """Every seat assignment a tournament plays (see the module's docstring)."""
    if cooperative:
        return [Pairing(n, (a,) * len(seats), seed) for n, a in enumerate(agents)]
    chosen = [p for p in itertools.product(agents, repeat=len(seats)) if len(set(p)) > 1]
    return [Pairing(n, p, pairing_seed(seed, p)) for n, p in enumerate(chosen)]


@dataclass(frozen=True)
class _Job:
    game: str
    components: str | None
    options: dict[str, Any]
    pairing: Pairing
    start: int
    stop: int
    record: bool


def _run_chunk(job: _Job) -> list[GameRow]:
    game = registry.get(job.game, Path(job.components) if job.components else None)
    agents = [make_agent(spec, game) for spec in job.pairing.agents]
    return [
        GameRow.of(play_indexed(game, job.options, agents, job.pairing.seed, i, job.record))
        for i in range(job.start, job.stop)
    ]


@dataclass
class Tally:
    """Games (seat appearances in a game with sides), wins and draws of one agent."""

    games: int = 0
    wins: int = 0
    draws: int = 0

    def add(self, result: str) -> None:
        self.games += 1
        self.wins += result == "win"
        self.draws += result == "draw"

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "win_rate": self.win_rate,
            "ci95": list(self.ci95),
        }


@dataclass
class AgentResults:
    agent: str
    overall: Tally
    seats: dict[str, Tally]  # empty in a co-operative game (every seat shares the result)

    def to_json(self) -> dict[str, Any]:
        return {**self.overall.to_json(), "seats": {s: t.to_json() for s, t in self.seats.items()}}


@dataclass
class Tournament:
    """A finished tournament: every game's row, by pairing, and what follows from them."""

    game: str
    title: str
    options: dict[str, Any]
    components: str
    seats: list[str]
    agents: list[str]
    seed: int
    games: int  # per pairing
    cooperative: bool
    pairings: list[Pairing]
    rows: list[list[GameRow]]  # rows[p][i]: game i of pairing p
    workers: int
    backend: str
    seconds: float
    ratings: list[Rating] = field(default_factory=list)

    @property
    def total_games(self) -> int:
        return sum(len(r) for r in self.rows)

    def agent_results(self) -> list[AgentResults]:
        out = {
            a: AgentResults(
                a, Tally(), {} if self.cooperative else {s: Tally() for s in self.seats}
            )
            for a in self.agents
        }
        for pairing, rows in zip(self.pairings, self.rows, strict=True):
            for row in rows:
                if self.cooperative:
                    out[pairing.agents[0]].overall.add(row.results[0])
                    continue
                for seat, agent, result in zip(
                    self.seats, pairing.agents, row.results, strict=True
                ):
                    out[agent].overall.add(result)
                    out[agent].seats[seat].add(result)
        return list(out.values())

    def comparisons(self) -> tuple[list[list[Comparison]], list[int]]:
        """Units of pairwise comparisons and their bootstrap strata (module docstring)."""
        index = {a: n for n, a in enumerate(self.agents)}
        units: list[list[Comparison]] = []
        strata: list[int] = []
        if self.cooperative:
            for i in range(self.games):
                ranks = [
                    (index[p.agents[0]], RANK.get(rows[i].results[0], 1))
                    for p, rows in zip(self.pairings, self.rows, strict=True)
                ]
                unit: list[Comparison] = []
                for (a, rank_a), (b, rank_b) in itertools.combinations(ranks, 2):
                    unit.append((a, b, _score(rank_a, rank_b)))
                units.append(unit)
                strata.append(0)
            return units, strata
        for pairing, rows in zip(self.pairings, self.rows, strict=True):
            who = [index[a] for a in pairing.agents]
            for row in rows:
                rank = [RANK.get(r, 1) for r in row.results]
                units.append(
                    [
                        (who[s], who[t], _score(rank[s], rank[t]))
                        for s, t in itertools.combinations(range(len(who)), 2)
                        if who[s] != who[t]
                    ]
                )
                strata.append(pairing.number)
        return units, strata

    def fit_ratings(self, samples: int = BOOTSTRAP_SAMPLES) -> list[Rating]:
        units, strata = self.comparisons()
        self.ratings = rate(self.agents, units, strata, "wider", samples, self.seed)
        return self.ratings

    def pairing_results(self) -> list[dict[str, Any]]:
        out = []
        for p, rows in zip(self.pairings, self.rows, strict=True):
            n = len(rows) or 1
            out.append(
                {
                    "agents": dict(zip(self.seats, p.agents, strict=True)),
                    "seed": p.seed,
                    "games": len(rows),
                    "wins": {
                        s: sum(r.results[k] == "win" for r in rows)
                        for k, s in enumerate(self.seats)
                    },
                    "draws": sum(r.results[0] == "draw" for r in rows),
                    "mean_turns": sum(r.turns for r in rows) / n,
                }
            )
        return out

    def reasons(self) -> dict[str, int]:
        return dict(Counter(r.reason for rows in self.rows for r in rows).most_common())

    def mean_turns(self) -> float:
        return sum(r.turns for rows in self.rows for r in rows) / (self.total_games or 1)

    def out_lines(self, game: GenericGame) -> list[dict[str, Any]]:
        """The `--out` lines of every game, by pairing then index (`game`: the game object
        the tournament was played with)."""
        return [
            gamelog.line(
                game, self.options, p.agents, p.seed, row, pairing=p.number, run_seed=self.seed
            )
            for p, rows in zip(self.pairings, self.rows, strict=True)
            for row in rows
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": self.options,
            "components": self.components,
            "seats": self.seats,
            "agents": self.agents,
            "seed": self.seed,
            "games_per_pairing": self.games,
            "games": self.total_games,
            "cooperative": self.cooperative,
            "results": {a.agent: a.to_json() for a in self.agent_results()},
            "ratings": {r.agent: r.to_json() for r in self.ratings},
            "rating_model": RATING_MODEL,
            "pairings": self.pairing_results(),
            "mean_turns": self.mean_turns(),
            "reasons": self.reasons(),
            "workers": self.workers,
            "backend": self.backend,
            "seconds": self.seconds,
            "games_per_second": self.total_games / self.seconds if self.seconds else 0.0,
        }


def _score(a: int, b: int) -> float:
    return 1.0 if a > b else 0.0 if a < b else 0.5


def tournament(
    game_id: str,
    agents: Sequence[str],
    games: int,
    options: dict[str, Any],
    seed: int = 0,
    workers: int | None = None,
    components: Path | None = None,
    progress: Progress | None = None,
    backend: str = "process",
    address: str | None = None,
    out: Path | None = None,
) -> Tournament:
    """Play `games` games for every pairing of `agents` (specs), fit the ratings; `out`
    gets one JSON line per game (`gamelog.line`, with the pairing and the run's seed)."""
    game = registry.get(game_id, components)
    options = game.options(options)
    seats = list(game.seats(options))
    agents = list(agents)
    if len(agents) < 2:
        raise ThermopylaeError("a tournament needs at least two agents")
    for spec in agents:
        make_agent(spec, game)  # fail fast on a bad name, before any worker starts
    cooperative = game.cooperative
    plan = pairings(seats, agents, cooperative, seed)
    workers = max(1, workers or os.cpu_count() or 1)
    chunk = max(1, min(200, games // (workers * 8) or 1))
    where = str(components) if components else None
    jobs = [
        _Job(game_id, where, options, p, start, min(games, start + chunk), out is not None)
        for p in plan
        for start in range(0, games, chunk)
    ]
    started = time.perf_counter()
    parts = run_jobs(
        _run_chunk,
        jobs,
        workers=workers,
        backend=backend,
        address=address,
        progress=(lambda job: progress(job.stop - job.start)) if progress else None,
    )
    seconds = time.perf_counter() - started
    rows: list[list[GameRow]] = [[] for _ in plan]
    for job, part in zip(jobs, parts, strict=True):
        rows[job.pairing.number] += part
    result = Tournament(
        game_id,
        game.title,
        options,
        game.components_digest,
        seats,
        agents,
        seed,
        games,
        cooperative,
        plan,
        rows,
        workers,
        backend,
        seconds,
    )
    result.fit_ratings()
    if out is not None:
        gamelog.write(out, result.out_lines(game))
    return result
