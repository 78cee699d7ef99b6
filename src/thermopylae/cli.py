"""The `thermopylae` command line: list, learn, play, replay, simulate and benchmark games."""

from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from thermopylae.ai.base import agent_names, make_agent, seat_agents
from thermopylae.engine import registry
from thermopylae.engine.errors import ComponentError, RecordError, ThermopylaeError
from thermopylae.engine.record import Position, Record, load_any, replay

app = typer.Typer(
    help="Play and study the three '300' board games: Thermopyles, 300: The Board Game, "
    "300: Earth & Water.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

GameArg = Annotated[str, typer.Argument(help="Game id (see `thermopylae games`).")]
ComponentsOpt = Annotated[
    Path | None,
    typer.Option("--components", help="Component data file (TOML or JSON) to use instead of "
                 "the default set, e.g. the printed values of your own box."),
]


def _fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"error: {message}", markup=False, soft_wrap=True)
    return typer.Exit(code)


def _game(game_id: str, components: Path | None) -> Any:
    try:
        return registry.get(game_id, components)
    except ComponentError as exc:
        raise _fail(str(exc)) from exc
    except ThermopylaeError as exc:
        raise _fail(str(exc)) from exc


@app.command()
def games() -> None:
    """List the games and their player counts."""
    table = Table("id", "title", "players")
    for gid in registry.game_ids():
        title, lo, hi = registry.summary(gid)
        table.add_row(gid, title, f"{lo}-{hi}" if lo != hi else str(lo))
    out.print(table)


@app.command()
def rules(game_id: GameArg, components: ComponentsOpt = None) -> None:
    """Summarise a game's rules and list its components, each value with its source.

    With --components, the file is checked first and every problem in it is listed.
    """
    game = _game(game_id, components)
    out.print(game.rules_text(), markup=False)


def _parse_ai(specs: list[str], game: Any, options: dict[str, Any]) -> dict[int, Any]:
    seats = list(game.seats(options))
    agents: dict[int, Any] = {}
    for spec in specs:
        seat, eq, agent = spec.partition("=")
        if not eq:
            raise _fail(f"--ai takes SEAT=AGENT (e.g. {seats[0]}=heuristic), not {spec!r}")
        if seat not in seats:
            raise _fail(f"--ai {spec}: no seat {seat!r}; the seats are {', '.join(seats)}")
        try:
            agents[seats.index(seat)] = make_agent(agent, game)
        except ThermopylaeError as exc:
            raise _fail(str(exc)) from exc
    return agents


@app.command()
def play(
    game_id: GameArg,
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the cards and dice "
                                             "(random if not given; printed).")] = None,
    ai: Annotated[list[str] | None, typer.Option(
        "--ai", help="SEAT=AGENT: let an agent play a seat (repeatable), e.g. p2=heuristic."
    )] = None,
    from_file: Annotated[Path | None, typer.Option(
        "--from", help="Start from a saved position, or continue a saved record.")] = None,
    record: Annotated[Path | None, typer.Option(
        help="Write the game record to this file when the session ends.")] = None,
    open_hands: Annotated[bool, typer.Option(
        "--open-hands", help="Every player sees every hand (Thermopyles).")] = False,
    components: ComponentsOpt = None,
) -> None:
    """Play a game at the terminal (answers may also be piped in, one per line).

    Type `help` at the prompt for the commands: undo, save FILE, position FILE, quit.
    """
    from thermopylae.tui.terminal import Session

    game = _game(game_id, components)
    if seed is None:
        seed = secrets.randbelow(2**31)
    try:
        state, rec = _start(game, from_file, players, open_hands, seed)
    except ThermopylaeError as exc:
        raise _fail(str(exc)) from exc
    options = rec.options
    agents = _parse_ai(ai or [], game, options)
    if game.provisional:
        out.print(f"Note: {game.title} is played with provisional component values "
                  "(see `thermopylae rules`).", markup=False)
    out.print(f"{game.title}: seats {', '.join(game.seats(options))}; seed {seed}. "
              "Type help for commands.", markup=False)
    render = game.render
    Session(game, options, state, rec, agents, seed, out, sys.stdin, render, record).run()


def _start(game: Any, path: Path | None, players: int | None, open_hands: bool, seed: int
           ) -> tuple[Any, Record]:
    """The state to play from and the record that leads to it (new, from a position, or
    a saved record continued)."""
    if path is None:
        opts: dict[str, Any] = {"open_hands": open_hands} if open_hands else {}
        if players is not None:
            opts["players"] = players
        options = game.options(opts)
        return game.new(options), Record.begin(game, options, seed)
    loaded = load_any(path)
    if isinstance(loaded, Position):
        state = loaded.restore(game)
        return state, Record.begin(game, game.options(loaded.options), seed, start=state)
    report = replay(game, loaded)
    if not report.ok:
        raise RecordError(f"{path} does not replay: {report.problems[0]}")
    loaded.seed = seed  # the steps to come are drawn from this session's seed
    return report.state, loaded


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    components: ComponentsOpt = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v",
                                          help="Print every step.")] = False,
) -> None:
    """Re-run a game record: check that every step was legal and the end matches."""
    try:
        rec = Record.load(file)
    except ThermopylaeError as exc:
        raise _fail(str(exc)) from exc
    game = _game(rec.game, components)
    if verbose:
        for n, (who, action) in enumerate(rec.steps, start=1):
            out.print(f"{n:4d} {who}: {action}", markup=False)
    try:
        report = replay(game, rec)
    except ThermopylaeError as exc:
        raise _fail(str(exc)) from exc
    if not report.ok:
        for problem in report.problems:
            err.print(f"replay failed: {problem}", markup=False, soft_wrap=True)
        raise typer.Exit(1)
    result = ("game not over" if report.outcome is None else
              f"{', '.join(report.outcome.results)} ({report.outcome.reason})")
    out.print(f"OK: {report.steps_checked} steps replayed, all legal; final state matches; "
              f"{result}.", markup=False)


@app.command()
def simulate(
    game_id: GameArg,
    agent: Annotated[str, typer.Option(
        help="Agent on every seat (random, heuristic, ...), or one per seat: "
        "SEAT=AGENT,SEAT=AGENT (e.g. persia=heuristic,greece=random).")] = "heuristic",
    games: Annotated[int, typer.Option(min=1, help="Number of games.")] = 1000,
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the run (same seed, same games).")] = 0,
    workers: Annotated[int | None, typer.Option(
        min=1, help="Worker processes (default: one per core).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    components: ComponentsOpt = None,
) -> None:
    """Play many games with the same agent on every seat; report the win rate with its
    95% confidence interval. The same seed gives the same games with any --workers."""
    from thermopylae.sim.simulate import simulate as run

    game = _game(game_id, components)
    options = {} if players is None else {"players": players}
    try:
        options = game.options(options)
        for spec in seat_agents(agent, game.seats(options)):
            make_agent(spec, game)
    except ThermopylaeError as exc:
        raise _fail(str(exc)) from exc
    show = not as_json and sys.stderr.isatty()
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), console=err,
                  disable=not show) as bar:
        task = bar.add_task(f"{game_id} / {agent}", total=games)
        summary = run(game_id, agent, games, options, seed, workers, components,
                      lambda n: bar.advance(task, n))
    if as_json:
        print(json.dumps(summary.to_json()))
        return
    out.print(f"{game.title}, {options}, agents {summary.agents}, seed {seed}, "
              f"{summary.workers} worker(s)")
    wins, rates, cis = summary.wins, summary.win_rate, summary.ci95
    if isinstance(wins, int) and isinstance(rates, float) and isinstance(cis, tuple):
        out.print(f"games {summary.games}   wins {wins}   win rate "
                  f"{rates:.1%} (95% CI {cis[0]:.1%} to {cis[1]:.1%})")
    elif isinstance(wins, dict) and isinstance(rates, dict) and isinstance(cis, dict):
        out.print(f"games {summary.games}   draws {summary.draws}")
        for seat, w in wins.items():
            lo, hi = cis[seat]
            out.print(f"  {seat:<8} wins {w:6d}   win rate {rates[seat]:.1%} "
                      f"(95% CI {lo:.1%} to {hi:.1%})")
    out.print(f"mean turns {summary.mean_turns:.1f}   "
              f"{summary.games_per_second:,.0f} games/s ({summary.seconds:.1f} s)")
    for reason, n in summary.reasons.items():
        out.print(f"  {n:7d}  {reason}", markup=False)


@app.command()
def bench(
    game_id: GameArg,
    seconds: Annotated[float, typer.Option(help="Seconds per measurement.")] = 3.0,
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    agents: Annotated[str, typer.Option(help="Comma-separated agents to time.")]
    = "random,heuristic",
) -> None:
    """Games per second on one core, played through the full game protocol."""
    from thermopylae.sim.bench import bench as run

    game = _game(game_id, None)
    options = {} if players is None else {"players": players}
    table = Table("playout", "games/s", "steps/s", "games", "seconds")
    for name in agents.split(","):
        try:
            r = run(game, name.strip(), options, seconds)
        except ThermopylaeError as exc:
            raise _fail(str(exc)) from exc
        table.add_row(name, f"{r.games_per_second:,.0f}", f"{r.steps_per_second:,.0f}",
                      str(r.games), f"{r.seconds:.1f}")
    out.print(f"{game.title}, {game.options(options)}, one process")
    out.print(table)


@app.command()
def agents(game_id: GameArg) -> None:
    """List the agents that can play a game."""
    game = _game(game_id, None)
    for name in agent_names(game):
        out.print(name)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8300,
    db: Annotated[str | None, typer.Option(
        help="SQLAlchemy database URL, e.g. postgresql+psycopg://user@127.0.0.1/test "
             "(default: a SQLite file in your data folder).")] = None,
    redis: Annotated[str | None, typer.Option(
        help="Redis URL, e.g. redis://127.0.0.1:6379/0: several server processes on one "
             "database share table updates through it.")] = None,
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="Folder of the default SQLite file.")] = None,
    allow_origin: Annotated[list[str] | None, typer.Option(
        help="Another origin whose pages may open WebSockets (repeatable).")] = None,
) -> None:
    """Run the game server: the lobby at http://HOST:PORT/, the API under /api (docs at
    /docs). Every accepted action is stored before anyone is told of it."""
    import uvicorn

    from thermopylae.server.app import create_app
    from thermopylae.server.store import StoreError

    try:
        web = create_app(db=db, redis=redis, data_dir=data_dir,
                         origins=tuple(allow_origin or ()))
    except StoreError as exc:
        raise _fail(str(exc)) from exc
    where = db or f"the SQLite file in {data_dir or 'your data folder'}"
    err.print(f"thermopylae server on http://{host}:{port}/ (tables in {where}"
              f"{', updates shared through ' + redis if redis else ''})", markup=False)
    uvicorn.run(web, host=host, port=port, ws_max_size=64 * 1024, log_level="warning")


def main() -> None:
    app()
