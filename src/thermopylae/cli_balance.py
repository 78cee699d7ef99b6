"""`balance`: a sweep over component files, each file's win rate with its 95% interval for
each agent and player count, on the game's compiled kernel where it offers one (mass
simulation)."""

from __future__ import annotations

import json
import os
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from thermopylae.ai.base import make_agent, seat_agents
from thermopylae.cli_common import (
    GameArg,
    WorkersOpt,
    fail,
    load_game,
    out,
    set_language,
    with_progress,
)
from thermopylae.cli_engine import EngineOpt, fast_batch
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import BatchSimulator, GenericGame
from thermopylae.i18n import _

if TYPE_CHECKING:
    from thermopylae.sim.simulate import Summary


@dataclass(frozen=True)
class _Cell:
    """One run of the sweep: a component file, a player count, an agent."""

    label: str
    path: Path | None
    game: GenericGame
    options: dict[str, Any]
    agent: str
    batch: BatchSimulator | None


def balance(
    game_id: GameArg,
    files: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Component files (TOML or JSON) to compare; the game's own set comes first "
            "unless --no-baseline."
        ),
    ] = None,
    agents: Annotated[
        str, typer.Option(help="Comma-separated agents, each on every seat.")
    ] = "random,heuristic",
    players: Annotated[
        str | None,
        typer.Option(help="Comma-separated player counts (default: every count the game allows)."),
    ] = None,
    games: Annotated[
        int, typer.Option(min=1, help="Games per file, player count and agent.")
    ] = 100_000,
    seed: Annotated[int, typer.Option(help="Seed of the run (same seed, same games).")] = 0,
    engine: EngineOpt = "auto",
    workers: WorkersOpt = None,
    baseline: Annotated[
        bool, typer.Option(help="Include the game's own component set, first.")
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """A balance sweep: each component file's win rate with its 95% Wilson interval, for
    each agent and player count, on the game's compiled kernel where it has one
    (--engine auto)."""
    from thermopylae.sim.backends import process_pool
    from thermopylae.sim.simulate import simulate, simulate_batch

    set_language(None)
    paths: list[Path | None] = ([None] if baseline or not files else []) + list(files or [])
    names = [a.strip() for a in agents.split(",") if a.strip()]
    if not names:
        raise fail(_("--agents: name at least one agent"))
    first = load_game(game_id, None)
    try:
        counts = (
            list(range(first.min_players, first.max_players + 1))
            if players is None
            else [int(p) for p in players.split(",") if p.strip()]
        )
    except ValueError as exc:
        raise fail(_("--players: numbers separated by commas, e.g. 1,2,3")) from exc
    cells: list[_Cell] = []
    for path in paths:
        game = load_game(game_id, path)
        label = _("default set") if path is None else path.name
        for n in counts:
            try:
                options = game.options({"players": n})
                for name in names:
                    specs = tuple(seat_agents(name, game.seats(options)))
                    for spec in specs:
                        make_agent(spec, game)
                    batch = fast_batch(game, options, engine, specs)
                    cells.append(_Cell(label, path, game, options, name, batch))
            except ThermopylaeError as exc:
                raise fail(str(exc)) from exc
    count = max(1, workers or os.cpu_count() or 1)
    for c in cells:  # each kernel compiled (or loaded) here, before the workers fork
        if c.batch is not None:
            c.batch.run(1, 0, tuple(seat_agents(c.agent, c.game.seats(c.options))))
    with ExitStack() as stack:
        # the workers start before the progress bar's thread (see `simulate`)
        pool = stack.enter_context(process_pool(count)) if count > 1 else None

        def sweep(advance: Any) -> list[Summary]:
            return [
                simulate_batch(
                    c.game, c.batch, c.agent, games, c.options, seed, advance, count, pool
                )
                if c.batch is not None
                else simulate(
                    game_id,
                    c.agent,
                    games,
                    c.options,
                    seed,
                    count,
                    c.path,
                    advance,
                    pool=pool,
                )
                for c in cells
            ]

        results = with_progress(
            _("{game} balance").format(game=game_id), games * len(cells), not as_json, sweep
        )
    if as_json:
        print(
            json.dumps(
                {
                    "game": game_id,
                    "seed": seed,
                    "games": games,
                    "runs": [
                        {"components": None if c.path is None else str(c.path), **r.to_json()}
                        for c, r in zip(cells, results, strict=True)
                    ],
                }
            )
        )
        return
    from rich.table import Table

    table = Table(title=_("{game}: win rates by component set").format(game=first.title))
    table.add_column(_("components"), overflow="fold", min_width=12)
    for heading in (_("players"), _("agent"), _("engine"), _("games"), _("win rate (95% CI)")):
        table.add_column(heading, no_wrap=True)
    table.add_column(_("turns"), no_wrap=True)
    previous = ""
    for c, r in zip(cells, results, strict=True):
        table.add_row(
            "" if c.label == previous else c.label,
            str(c.options["players"]),
            c.agent,
            r.engine,
            f"{r.games:,}",
            _rates(r),
            f"{r.mean_turns:.1f}",
        )
        previous = c.label
    out.print(table)
    seconds = sum(r.seconds for r in results)
    out.print(
        _("{games} games in {seconds} s, seed {seed}").format(
            games=f"{games * len(cells):,}", seconds=f"{seconds:.1f}", seed=seed
        ),
        markup=False,
    )


def _rates(r: Summary) -> str:
    """The team's win rate, or each seat's, with the 95% interval."""
    if isinstance(r.win_rate, float) and isinstance(r.ci95, tuple):
        lo, hi = r.ci95
        return f"{r.win_rate:.1%} ({100 * lo:.1f}–{100 * hi:.1f})"
    assert isinstance(r.win_rate, dict) and isinstance(r.ci95, dict)
    return "  ".join(
        f"{seat} {rate:.1%} ({100 * r.ci95[seat][0]:.1f}–{100 * r.ci95[seat][1]:.1f})"
        for seat, rate in r.win_rate.items()
    )
