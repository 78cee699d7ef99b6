"""Engine soak: random games back to back with every invariant checked, through the protocol.

    .venv/bin/python bench/soak.py [--actions 1000000] [--games thermopyles-1,hot-gates-2]
                                   [--seed 0] [--every 50]

For each game (thermopyles with 1-4 players, earth-and-water, hot-gates with 2-4 players),
random games are played back to back until at least `--actions` actions (decisions and
chance outcomes) have been applied. Checked at every step: a deciding seat has a non-empty
`legal` and the action chosen from it is accepted; a chance node's outcome is accepted.
Checked every `--every` steps (they cost more than a step): the state's JSON round trip
(state_to_json -> state_from_json -> the same JSON), the chance distribution sums to 1, an
action of the table that is not legal is refused with IllegalAction and leaves the state's
JSON unchanged, and the view of every seat (and a spectator's) is JSON-serialisable. At the
end of every game: an outcome with one result per seat, and the JSON round trip.

Prints a summary table; exits 1 on any failure, with the seed and step to reproduce it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from thermopylae.engine import registry
from thermopylae.engine.errors import IllegalAction
from thermopylae.engine.protocol import CHANCE

CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "thermopyles-1": ("thermopyles", {"players": 1}),
    "thermopyles-2": ("thermopyles", {"players": 2}),
    "thermopyles-3": ("thermopyles", {"players": 3}),
    "thermopyles-4": ("thermopyles", {"players": 4}),
    "earth-and-water": ("earth-and-water", {}),
    "hot-gates-2": ("hot-gates", {"players": 2}),
    "hot-gates-3": ("hot-gates", {"players": 3}),
    "hot-gates-4": ("hot-gates", {"players": 4}),
}


class InvariantError(Exception):
    """An invariant of the protocol does not hold."""


@dataclass
class Failure:
    config: str
    seed: int
    step: int
    message: str

    def __str__(self) -> str:
        return (
            f"{self.config}: game seed {self.seed}, step {self.step}: {self.message} "
            f"(reproduce: bench/soak.py --games {self.config} --replay-seed {self.seed})"
        )


@dataclass
class SoakResult:
    config: str
    actions: int = 0
    games: int = 0
    seconds: float = 0.0
    failures: list[Failure] = field(default_factory=list)

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0


def _dump(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def _check_round_trip(game: Any, state: Any) -> str:
    text = _dump(game.state_to_json(state))
    again = _dump(game.state_to_json(game.state_from_json(json.loads(text))))
    if again != text:
        raise InvariantError("state_to_json -> state_from_json -> state_to_json changed the JSON")
    return text


def _check_views(game: Any, state: Any, seats: int) -> None:
    for seat in [*range(seats), None]:
        try:
            json.dumps(game.view(state, seat))
        except (TypeError, ValueError) as exc:
            raise InvariantError(f"view for seat {seat} is not JSON-serialisable: {exc}") from exc


def _check_chance(game: Any, state: Any) -> None:
    dist = game.chance(state)
    if not dist:
        raise InvariantError("chance node with an empty distribution")
    total = math.fsum(p for _, p in dist)
    if abs(total - 1.0) > 1e-9:
        raise InvariantError(f"chance probabilities sum to {total!r}, not 1")
    if any(p < 0 for _, p in dist):
        raise InvariantError("a chance outcome has a negative probability")


def _check_illegal(game: Any, state: Any, legal: Any, rng: random.Random) -> None:
    """A table action not in `legal` is refused with IllegalAction, state unchanged."""
    allowed = set(game.format(a) for a in legal)
    for _ in range(20):
        action = game.decode(rng.randrange(game.num_actions))
        if game.format(action) not in allowed:
            break
    else:
        return  # almost every action is legal here; nothing to try
    before = _dump(game.state_to_json(state))
    try:
        game.apply(state, action, quiet=True)
    except IllegalAction:
        pass
    else:
        raise InvariantError(f"illegal action {game.format(action)!r} was accepted")
    if _dump(game.state_to_json(state)) != before:
        raise InvariantError(f"refused action {game.format(action)!r} changed the state")


def play_one(
    game: Any,
    options: dict[str, Any],
    seed: int,
    every: int,
    tick: Callable[[int], None] | None = None,
) -> int:
    """Play one random game from `seed` with every check; return the number of steps.

    Raises `InvariantError` (or whatever the engine raised) with `.soak_step` set."""
    rng = random.Random(seed)
    seats = len(game.seats(options))
    state = game.new(options)
    step = 0
    try:
        _check_round_trip(game, state)
        while (who := game.to_act(state)) is not None:
            sampled = step % every == 0
            if who == CHANCE:
                if sampled:
                    _check_chance(game, state)
                action = game.sample_chance(state, rng)
            else:
                if not 0 <= who < seats:
                    raise InvariantError(f"to_act returned {who!r}, not a seat")
                legal = game.legal(state)
                if not legal:
                    raise InvariantError(f"seat {who} is to act but has no legal action")
                if sampled:
                    _check_illegal(game, state, legal, rng)
                action = legal[int(rng.random() * len(legal))]
            try:
                game.apply(state, action, quiet=True)
            except IllegalAction as exc:
                raise InvariantError(
                    f"action {game.format(action)!r} chosen from legal was refused: {exc}"
                ) from exc
            step += 1
            if sampled:
                _check_round_trip(game, state)
                _check_views(game, state, seats)
            if tick is not None and step % 1000 == 0:
                tick(1000)
        out = game.outcome(state)
        if out is None:
            raise InvariantError("the game is over (to_act is None) but outcome is None")
        if len(out.results) != seats or len(out.scores) != seats:
            raise InvariantError(f"outcome has {len(out.results)} results for {seats} seats")
        json.dumps(out.to_json())
        _check_round_trip(game, state)
        _check_views(game, state, seats)
    except Exception as exc:
        exc.soak_step = step  # type: ignore[attr-defined]
        raise
    if tick is not None:
        tick(step % 1000)
    return step


def soak(
    config: str,
    actions: int,
    seed: int = 0,
    every: int = 50,
    tick: Callable[[int], None] | None = None,
    max_failures: int = 5,
) -> SoakResult:
    """Play random games of `config` until at least `actions` steps have been applied."""
    game_id, opts = CONFIGS[config]
    game = registry.get(game_id)
    options = game.options(opts)
    result = SoakResult(config)
    started = time.perf_counter()
    number = 0
    while result.actions < actions and len(result.failures) < max_failures:
        game_seed = seed * 1_000_003 + number
        number += 1
        try:
            result.actions += play_one(game, options, game_seed, every, tick)
        except Exception as exc:
            step = getattr(exc, "soak_step", -1)
            message = f"{type(exc).__name__}: {exc}"
            if not isinstance(exc, InvariantError):
                message += "\n" + traceback.format_exc()
            result.failures.append(Failure(config, game_seed, step, message))
            result.actions += max(step, 0)
        result.games += 1
    result.seconds = time.perf_counter() - started
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--actions", type=int, default=1_000_000, help="random actions per game (default 1,000,000)"
    )
    parser.add_argument(
        "--games", default=",".join(CONFIGS), help=f"comma-separated subset of {', '.join(CONFIGS)}"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--every", type=int, default=50, help="run the costly checks every N steps (default 50)"
    )
    parser.add_argument(
        "--replay-seed",
        type=int,
        default=None,
        help="play only the one game with this seed (checks at every step)",
    )
    args = parser.parse_args(argv)
    configs = [c.strip() for c in args.games.split(",") if c.strip()]
    unknown = [c for c in configs if c not in CONFIGS]
    if unknown:
        parser.error(f"unknown game(s) {unknown}; known: {', '.join(CONFIGS)}")
    console = Console()

    if args.replay_seed is not None:
        code = 0
        for config in configs:
            game_id, opts = CONFIGS[config]
            game = registry.get(game_id)
            try:
                steps = play_one(game, game.options(opts), args.replay_seed, 1)
                console.print(f"{config}: seed {args.replay_seed}: OK, {steps} steps")
            except Exception as exc:
                console.print(
                    f"{config}: seed {args.replay_seed}, step "
                    f"{getattr(exc, 'soak_step', -1)}: {type(exc).__name__}: {exc}",
                    markup=False,
                )
                console.print(traceback.format_exc(), markup=False)
                code = 1
        return code

    results: list[SoakResult] = []
    with Progress(
        TextColumn("{task.description:>16}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    ) as progress:
        for config in configs:
            task = progress.add_task(config, total=args.actions)

            def tick(n: int, task: Any = task) -> None:
                progress.advance(task, n)

            r = soak(config, args.actions, args.seed, args.every, tick)
            progress.update(task, completed=max(r.actions, args.actions))
            results.append(r)

    table = Table(title=f"Engine soak (seed {args.seed}, costly checks every {args.every} steps)")
    for col in ("game", "actions", "games", "seconds", "actions/s", "failures"):
        table.add_column(col, justify="left" if col == "game" else "right")
    for r in results:
        table.add_row(
            r.config,
            f"{r.actions:,}",
            f"{r.games:,}",
            f"{r.seconds:.1f}",
            f"{r.actions_per_second:,.0f}",
            str(len(r.failures)),
            style="red" if r.failures else None,
        )
    console.print(table)
    failures = [f for r in results for f in r.failures]
    for f in failures:
        console.print(f"FAILURE {f}", markup=False, style="red")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
