"""The `thermopylae` command line: list, learn, play, replay, simulate and benchmark games,
and run tournaments between agents."""

from __future__ import annotations

import json
import math
import os
import secrets
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from thermopylae import i18n
from thermopylae.ai.base import agent_names, make_agent, seat_agents
from thermopylae.engine import registry
from thermopylae.engine.errors import ComponentError, RecordError, ThermopylaeError
from thermopylae.engine.record import Position, Record, load_any, replay
from thermopylae.i18n import _, ngettext

if TYPE_CHECKING:
    from thermopylae.sim.tournament import Tally, Tournament

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
    typer.Option(
        "--components",
        help="Component data file (TOML or JSON) to use instead of "
        "the default set, e.g. the printed values of your own box.",
    ),
]
WorkersOpt = Annotated[
    int | None, typer.Option(min=1, help="Worker processes (default: one per core).")
]
BackendOpt = Annotated[
    str,
    typer.Option(
        help="Where the games run: process (a local process pool) or ray (a Ray cluster). "
        "The same seed gives the same games on either."
    ),
]
AddressOpt = Annotated[
    str | None,
    typer.Option(help="Address of the Ray cluster (--backend ray; default: start a local one)."),
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        help="Write one JSON line per game to this file: seed, index, agents, outcome, "
        "length and the digest of the game's record, to re-check or replay it.",
    ),
]


R = TypeVar("R")


def _fail(message: str, code: int = 2) -> typer.Exit:
    err.print(_("error: {message}").format(message=message), markup=False, soft_wrap=True)
    return typer.Exit(code)


def _set_language(lang: str | None) -> None:
    """The language of this command: `lang` if given, else the environment's
    (LC_ALL, LC_MESSAGES, LANG), English when it asks for none we have."""
    if lang is None:
        env = next(
            (os.environ[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if os.environ.get(k)), None
        )
        i18n.set_language(i18n.negotiate(env))
        return
    if lang not in i18n.LANGUAGES:
        known = ", ".join(f"{code} ({name})" for code, name in i18n.LANGUAGES.items())
        raise _fail(
            _("--lang {lang}: no such language; the languages are {known}").format(
                lang=lang, known=known
            )
        )
    i18n.set_language(lang)


def _with_progress(
    label: str, total: int, wanted: bool, work: Callable[[Callable[[int], None]], R]
) -> R:
    """`work(advance)` under a progress bar on stderr (when `wanted` and stderr is a
    terminal); its errors end the command with their message."""
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=not (wanted and sys.stderr.isatty()),
    ) as bar:
        task = bar.add_task(label, total=total)
        try:
            return work(lambda n: bar.advance(task, n))
        except ThermopylaeError as exc:
            raise _fail(str(exc)) from exc


def _game(game_id: str, components: Path | None) -> Any:
    try:
        return registry.get(game_id, components)
    except ComponentError as exc:
        if len(exc.problems) == 1:  # a file that does not parse: one line
            raise _fail(f"{exc.source}: {exc.problems[0]}") from exc
        count = ngettext("{n} problem", "{n} problems", len(exc.problems))
        lines = "".join(f"\n  - {p}" for p in exc.problems)
        raise _fail(f"{exc.source}: {count.format(n=len(exc.problems))}{lines}") from exc
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


def _parse_ai(
    specs: list[str], game: Any, options: dict[str, Any], fixed: bool = False
) -> dict[int, Any]:
    """The agents of `--ai SEAT=AGENT`, by seat index; `fixed` when the table comes from a
    file, so that `--players` cannot add seats."""
    seats = list(game.seats(options))
    agents: dict[int, Any] = {}
    for spec in specs:
        seat, eq, agent = spec.partition("=")
        if not eq:
            raise _fail(
                _("--ai takes SEAT=AGENT (e.g. {example}), not {spec}").format(
                    example=f"{seats[0]}=heuristic", spec=repr(spec)
                )
            )
        if seat not in seats:
            raise _fail(
                _("--ai {spec}: no seat {seat}; the seats are {seats}").format(
                    spec=spec, seat=repr(seat), seats=", ".join(seats)
                )
                + ("" if fixed else _more_seats(game, options, seat))
            )
        try:
            agents[seats.index(seat)] = make_agent(agent, game)
        except ThermopylaeError as exc:
            raise _fail(str(exc)) from exc
    return agents


@app.command()
def play(
    game_id: GameArg,
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the cards and dice (random if not given; printed).")
    ] = None,
    ai: Annotated[
        list[str] | None,
        typer.Option(
            "--ai", help="SEAT=AGENT: let an agent play a seat (repeatable), e.g. p2=heuristic."
        ),
    ] = None,
    from_file: Annotated[
        Path | None,
        typer.Option("--from", help="Start from a saved position, or continue a saved record."),
    ] = None,
    record: Annotated[
        Path | None, typer.Option(help="Write the game record to this file when the session ends.")
    ] = None,
    open_hands: Annotated[
        bool, typer.Option("--open-hands", help="Every player sees every hand (Thermopyles).")
    ] = False,
    components: ComponentsOpt = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help="Language of the game's texts: en, pt, fr or it (default: from the "
            "LC_ALL, LC_MESSAGES or LANG environment variable, English otherwise).",
        ),
    ] = None,
) -> None:
    """Play a game at the terminal (answers may also be piped in, one per line).

    Type `help` at the prompt for the commands: undo, save FILE, position FILE, board,
    cards (in games with hands), quit. On a terminal the board is in colour, each seat in
    its own, and the lines that changed since it was last drawn are flagged (with `*` in
    a pipe).
    """
    from thermopylae.tui.terminal import Session

    _set_language(lang)
    game = _game(game_id, components)
    if seed is None:
        seed = secrets.randbelow(2**31)
    try:
        state, rec = _start(game, from_file, players, open_hands, seed)
    except ThermopylaeError as exc:
        raise _fail(str(exc)) from exc
    options = rec.options
    agents = _parse_ai(ai or [], game, options, fixed=from_file is not None)
    session = Session(game, options, state, rec, agents, seed, out, sys.stdin, game.render, record)
    session.opening(seed)
    session.run()


def _more_seats(game: Any, options: dict[str, Any], seat: str) -> str:
    """How to get `seat` at the table: the smallest player count that has it (from the
    game's own range of players), or else the range itself."""
    lo, hi = int(game.min_players), int(game.max_players)
    if lo == hi:
        return ""
    for n in range(lo, hi + 1):
        try:
            seats = list(game.seats(game.options({**options, "players": n})))
        except ThermopylaeError:
            continue
        if seat in seats:
            return _(" (with --players {n} the seats are {seats})").format(
                n=n, seats=", ".join(seats)
            )
    return _(" ({title} takes {lo} to {hi} players: choose with --players N)").format(
        title=_(game.title), lo=lo, hi=hi
    )


def _start(
    game: Any, path: Path | None, players: int | None, open_hands: bool, seed: int
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
        raise RecordError(
            _("{path} does not replay: {problem}").format(path=path, problem=report.problems[0])
        )
    loaded.seed = seed  # the steps to come are drawn from this session's seed
    return report.state, loaded


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    components: ComponentsOpt = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print every step.")] = False,
) -> None:
    """Re-run a game record: check that every step was legal and the end matches."""
    _set_language(None)
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
    if not report.ok and report.state is None:  # it cannot even begin: a malformed file
        raise _fail(f"{file}: {report.problems[0]}")
    if not report.ok:
        for problem in report.problems:
            err.print(
                _("replay failed: {problem}").format(problem=problem), markup=False, soft_wrap=True
            )
        raise typer.Exit(1)
    result = (
        _("game not over")
        if report.outcome is None
        else f"{', '.join(report.outcome.results)} ({report.outcome.reason})"
    )
    steps = ngettext("{n} step replayed", "{n} steps replayed", report.steps_checked)
    out.print(
        _("OK: {steps}, all legal; final state matches; {result}.").format(
            steps=steps.format(n=report.steps_checked), result=result
        ),
        markup=False,
    )


@app.command()
def simulate(
    game_id: GameArg,
    agent: Annotated[
        str,
        typer.Option(
            help="Agent on every seat (random, heuristic, ...), or one per seat: "
            "SEAT=AGENT,SEAT=AGENT (e.g. persia=heuristic,greece=random)."
        ),
    ] = "heuristic",
    games: Annotated[int, typer.Option(min=1, help="Number of games.")] = 1000,
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the run (same seed, same games).")] = 0,
    workers: WorkersOpt = None,
    backend: BackendOpt = "process",
    address: AddressOpt = None,
    out_file: OutOpt = None,
    replay_line: Annotated[
        str | None,
        typer.Option(
            "--replay-line",
            help="FILE:N: play the game of line N (from 1) of an --out file "
            "again and check its record digest, instead of simulating.",
        ),
    ] = None,
    record: Annotated[
        Path | None, typer.Option(help="With --replay-line: write the game's record to this file.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    components: ComponentsOpt = None,
) -> None:
    """Play many games with the same agent on every seat; report the win rate with its
    95% confidence interval. The same seed gives the same games with any --workers."""
    from thermopylae.sim.simulate import simulate as run

    game = _game(game_id, components)
    if replay_line is not None:
        _replay_line(game_id, replay_line, record, components, as_json)
        return
    if record is not None:
        raise _fail("--record goes with --replay-line")
    options = {} if players is None else {"players": players}
    try:
        options = game.options(options)
        for spec in seat_agents(agent, game.seats(options)):
            make_agent(spec, game)
    except ThermopylaeError as exc:
        raise _fail(str(exc)) from exc
    summary = _with_progress(
        f"{game_id} / {agent}",
        games,
        not as_json,
        lambda advance: run(
            game_id,
            agent,
            games,
            options,
            seed,
            workers,
            components,
            advance,
            backend,
            address,
            out_file,
        ),
    )
    if as_json:
        print(json.dumps(summary.to_json()))
        return
    out.print(
        f"{game.title}, {options}, agents {summary.agents}, seed {seed}, "
        f"{summary.workers} worker(s)"
    )
    wins, rates, cis = summary.wins, summary.win_rate, summary.ci95
    if isinstance(wins, int) and isinstance(rates, float) and isinstance(cis, tuple):
        out.print(
            f"games {summary.games}   wins {wins}   win rate "
            f"{rates:.1%} (95% CI {cis[0]:.1%} to {cis[1]:.1%})"
        )
    elif isinstance(wins, dict) and isinstance(rates, dict) and isinstance(cis, dict):
        out.print(f"games {summary.games}   draws {summary.draws}")
        for seat, w in wins.items():
            lo, hi = cis[seat]
            out.print(
                f"  {seat:<8} wins {w:6d}   win rate {rates[seat]:.1%} "
                f"(95% CI {lo:.1%} to {hi:.1%})"
            )
    out.print(
        f"mean turns {summary.mean_turns:.1f}   "
        f"{summary.games_per_second:,.0f} games/s ({summary.seconds:.1f} s)"
    )
    for reason, n in summary.reasons.items():
        out.print(f"  {n:7d}  {reason}", markup=False)
    if out_file is not None:
        out.print(f"{games} game lines written to {out_file}", markup=False)


def _replay_line(
    game_id: str, ref: str, record: Path | None, components: Path | None, as_json: bool
) -> None:
    """`simulate --replay-line FILE:N`: rebuild one game of an --out file and check it."""
    from thermopylae.sim import gamelog

    try:
        path, number = gamelog.parse_ref(ref)
        data = gamelog.read(path, number)
        if data["game"] != game_id:
            raise ThermopylaeError(f"{ref} is a game of {data['game']!r}, not {game_id!r}")
        check = gamelog.recheck(data, components)
    except ThermopylaeError as exc:
        raise _fail(str(exc)) from exc
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
        # a line that is binary, nested too deeply or holds fields of the wrong type
        raise _fail(f"{ref}: not a usable game line ({type(exc).__name__}: {exc})") from exc
    if record is not None:
        check.record.save(record)
    if as_json:
        print(
            json.dumps(
                {
                    "ok": check.ok,
                    "record_digest": check.digest,
                    "steps": len(check.record.steps),
                    "outcome": check.record.outcome,
                    "problems": check.problems,
                }
            )
        )
    elif check.ok:
        o = check.record.outcome or {}
        out.print(
            f"OK: line {number} of {path} played again: {len(check.record.steps)} "
            f"steps, {', '.join(o.get('results', []))} ({o.get('reason')}); record "
            f"digest {check.digest} matches.",
            markup=False,
        )
    else:
        for problem in check.problems:
            err.print(f"replay failed: {problem}", markup=False, soft_wrap=True)
    if not check.ok:
        raise typer.Exit(1)


@app.command()
def tournament(
    game_id: GameArg,
    agents: Annotated[
        str,
        typer.Option(
            help="Comma-separated agents, at least two, e.g. random,heuristic,"
            "ismcts:iterations=200 (a key=value after a comma belongs to the agent before)."
        ),
    ],
    games: Annotated[
        int, typer.Option(min=1, help="Games per pairing (per agent in a co-operative game).")
    ] = 100,
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the run (same seed, same games).")] = 0,
    workers: WorkersOpt = None,
    backend: BackendOpt = "process",
    address: AddressOpt = None,
    report: Annotated[
        Path | None,
        typer.Option(help="Write an HTML report with plots (PNG) to this folder: DIR/index.html."),
    ] = None,
    out_file: OutOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    components: ComponentsOpt = None,
) -> None:
    """A round robin: every agent against every other on every seat (in a co-operative
    game, every agent on the same deals). Prints win rates with 95% Wilson intervals and
    Bradley–Terry ratings (Elo scale) with 95% intervals. The same seed gives the same
    games with any --workers or --backend; docs/analysis.md explains the design."""
    from thermopylae.sim import report as reports
    from thermopylae.sim.tournament import pairings, parse_agents
    from thermopylae.sim.tournament import tournament as run

    game = _game(game_id, components)
    options = {} if players is None else {"players": players}
    try:
        options = game.options(options)
        specs = parse_agents(agents)
        for spec in specs:
            make_agent(spec, game)
        if report is not None:
            reports.check_available()
    except ThermopylaeError as exc:
        raise _fail(str(exc)) from exc
    cooperative = bool(getattr(game, "cooperative", False))
    total = len(pairings(game.seats(options), specs, cooperative, seed)) * games
    result = _with_progress(
        f"{game_id} tournament",
        total,
        not as_json,
        lambda advance: run(
            game_id,
            specs,
            games,
            options,
            seed,
            workers,
            components,
            advance,
            backend,
            address,
            out_file,
        ),
    )
    page = None
    if report is not None:
        command = shlex.join(["thermopylae", *sys.argv[1:]])
        page = reports.write(result, report, command)
    if as_json:
        print(json.dumps(result.to_json()))
        return
    _print_tournament(result)
    if page is not None:
        out.print(f"report written to {page}", markup=False)
    if out_file is not None:
        out.print(f"{result.total_games} game lines written to {out_file}", markup=False)


def _print_tournament(t: Tournament) -> None:
    design = (
        "co-operative: every agent plays every seat of the same deals"
        if t.cooperative
        else "every seat assignment, no self-play"
    )
    out.print(
        f"{t.title}, {t.options}, seed {t.seed}: {len(t.pairings)} pairings ({design}), "
        f"{t.games} games each, {t.total_games} games; {t.workers} worker(s), "
        f"backend {t.backend}",
        markup=False,
    )
    table = Table(
        "agent",
        *([] if t.cooperative else ["seat"]),
        "games",
        "wins",
        "draws",
        "win rate (95% CI)",
        title="Win rates" + ("" if t.cooperative else " (games: seats held)"),
    )
    for a in t.agent_results():
        rows = [("", a.overall)] if t.cooperative else [("all", a.overall), *a.seats.items()]
        for n, (seat, x) in enumerate(rows):
            table.add_row(
                "" if n else a.agent,
                *([] if t.cooperative else [seat]),
                str(x.games),
                str(x.wins),
                str(x.draws),
                _rate(x),
                end_section=not t.cooperative and n == len(rows) - 1,
            )
    out.print(table)
    ratings = Table(
        "agent",
        "rating",
        "95% CI",
        "comparisons",
        "mean score",
        title="Bradley–Terry ratings (Elo scale, mean 0, draws half)",
    )
    for r in sorted(t.ratings, key=lambda r: -r.rating):
        ratings.add_row(
            r.agent,
            f"{r.rating:+.0f}",
            f"{r.low:+.0f} to {r.high:+.0f}",
            str(r.comparisons),
            f"{r.score:.3f}",
        )
    out.print(ratings)
    if len(t.pairings) <= 24:
        seats = t.seats[:1] if t.cooperative else t.seats
        pair = Table(
            *(["agent"] if t.cooperative else list(seats)),
            "games",
            *(["wins"] if t.cooperative else [f"{s} wins" for s in seats]),
            "draws",
            "mean turns",
            title="Pairings",
        )
        for p in t.pairing_results():
            pair.add_row(
                *[p["agents"][s] for s in seats],
                str(p["games"]),
                *[str(p["wins"][s]) for s in seats],
                str(p["draws"]),
                f"{p['mean_turns']:.1f}",
            )
        out.print(pair)
    rate = t.total_games / t.seconds if t.seconds else 0.0
    out.print(f"mean turns {t.mean_turns():.1f}   {rate:,.1f} games/s ({t.seconds:.1f} s)")
    for reason, n in t.reasons().items():
        out.print(f"  {n:7d}  {reason}", markup=False)


def _rate(x: Tally) -> str:
    lo, hi = x.ci95
    return f"{x.win_rate:.1%} ({100 * lo:.1f}–{100 * hi:.1f})"


@app.command()
def bench(
    game_id: GameArg,
    seconds: Annotated[float, typer.Option(help="Seconds per measurement.")] = 3.0,
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    agents: Annotated[
        str, typer.Option(help="Comma-separated agents to time.")
    ] = "random,heuristic",
    ismcts: Annotated[bool, typer.Option(help="Also time ISMCTS iterations per second.")] = True,
    search: Annotated[
        str,
        typer.Option(
            help="The ISMCTS to time, a spec without a budget, e.g. ismcts:depth=20 or "
            "ismcts:playout=heuristic,depth=40,prior=1."
        ),
    ] = "ismcts",
) -> None:
    """Games per second on one core, played through the full game protocol, and ISMCTS
    iterations per second."""
    from thermopylae.sim.bench import bench as run

    game = _game(game_id, None)
    options = {} if players is None else {"players": players}
    table = Table("playout", "games/s", "steps/s", "games", "seconds")
    for name in agents.split(","):
        try:
            r = run(game, name.strip(), options, seconds)
        except ThermopylaeError as exc:
            raise _fail(str(exc)) from exc
        table.add_row(
            name,
            f"{r.games_per_second:,.0f}",
            f"{r.steps_per_second:,.0f}",
            str(r.games),
            f"{r.seconds:.1f}",
        )
    out.print(f"{game.title}, {game.options(options)}, one process")
    out.print(table)
    if ismcts:
        from thermopylae.sim.bench import ismcts_rate

        try:
            rates = ismcts_rate(game, options, seconds, spec=search)
        except ThermopylaeError as exc:
            raise _fail(str(exc)) from exc
        out.print(
            f"{search} iterations per CPU second at the start, middle and end of a "
            "random game: " + ", ".join(f"{r:,.0f}" for r in rates)
        )


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
    db: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy database URL, e.g. postgresql+psycopg://user@127.0.0.1/test "
            "(default: a SQLite file in your data folder)."
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            help="Redis URL, e.g. redis://127.0.0.1:6379/0: several server processes on one "
            "database share table updates through it."
        ),
    ] = None,
    data_dir: Annotated[
        Path | None, typer.Option("--data-dir", help="Folder of the default SQLite file.")
    ] = None,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(help="Another origin whose pages may open WebSockets (repeatable)."),
    ] = None,
    http_rate: Annotated[
        float | None,
        typer.Option(
            min=0.0,
            help="New tables and actions a second allowed per client address over "
            "HTTP (bursts of three times that, at least one), 429 past it; 0: no limit "
            "(default: the THERMOPYLAE_HTTP_RATE environment variable, else "
            "no limit).",
        ),
    ] = None,
    ai_seconds: Annotated[
        float,
        typer.Option(
            min=0.01,
            max=600.0,
            help="CPU seconds one AI decision may take; a seat asking for "
            "more (seconds=...) is refused with 422.",
        ),
    ] = 5.0,
    ai_limit: Annotated[
        list[str] | None,
        typer.Option(
            help="The largest value of an agent parameter, NAME=VALUE (repeatable); defaults: "
            "iterations=20000, samples=2000, depth=1000, c=100, prior=100."
        ),
    ] = None,
    ai_workers: Annotated[
        int,
        typer.Option(
            min=0,
            max=256,
            help="Processes (or threads) the AI seats think in; 0: the number of CPUs, at most 4.",
        ),
    ] = 0,
    ai_threads: Annotated[
        bool, typer.Option(help="Think in threads of this process instead of worker processes.")
    ] = False,
    ai_per_client: Annotated[
        int,
        typer.Option(min=1, max=1000, help="AI decisions of one client address thinking at once."),
    ] = 2,
    ai_tables_per_client: Annotated[
        int,
        typer.Option(
            min=1,
            max=10000,
            help="Tables of one client address waiting for their AI at once; 429 past it.",
        ),
    ] = 8,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="The address of a reverse proxy whose X-Forwarded-For names the client "
            "(repeatable); from any other peer the header is ignored."
        ),
    ] = None,
) -> None:
    """Run the game server: the lobby at http://HOST:PORT/, the API under /api (docs at
    /docs). Every accepted action is stored before anyone is told of it. AI seats think
    in a bounded pool of their own, within the --ai-* limits."""
    import uvicorn

    from thermopylae.server.ai_pool import DEFAULT_PARAMETERS, AiLimits
    from thermopylae.server.app import create_app
    from thermopylae.server.store import StoreError

    parameters = dict(DEFAULT_PARAMETERS)
    for item in ai_limit or ():
        key, eq, value = item.partition("=")
        try:
            number = float(value)
        except ValueError:
            number = float("nan")
        if not eq or key.strip() not in parameters or not math.isfinite(number) or number < 0:
            raise _fail(
                f"--ai-limit {item!r}: write NAME=VALUE with NAME one of "
                f"{', '.join(parameters)} and VALUE a number, 0 or more"
            )
        parameters[key.strip()] = number
    limits = AiLimits(
        seconds=ai_seconds,
        parameters=parameters,
        per_client=ai_per_client,
        tables_per_client=ai_tables_per_client,
        processes=not ai_threads,
        **({"workers": ai_workers} if ai_workers else {}),
    )
    try:
        web = create_app(
            db=db,
            redis=redis,
            data_dir=data_dir,
            origins=tuple(allow_origin or ()),
            http_rate=http_rate,
            ai=limits,
            trusted_proxies=tuple(trusted_proxy or ()),
        )
    except StoreError as exc:
        raise _fail(str(exc)) from exc
    where = db or f"the SQLite file in {data_dir or 'your data folder'}"
    err.print(
        f"thermopylae server on http://{host}:{port}/ (tables in {where}"
        f"{', updates shared through ' + redis if redis else ''})",
        markup=False,
    )
    # Forwarded headers are read by the app, and only from --trusted-proxy peers (uvicorn
    # alone would trust any loopback peer); a stop waits at most 3 s for open requests.
    uvicorn.run(
        web,
        host=host,
        port=port,
        ws_max_size=64 * 1024,
        log_level="warning",
        proxy_headers=False,
        timeout_graceful_shutdown=3,
    )


def main() -> None:
    app()
