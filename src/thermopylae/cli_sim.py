"""The commands that study games by playing many of them: `simulate` (one agent per seat,
win rates), `tournament` (a round robin with ratings) and `bench` (speed)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from thermopylae.ai.base import make_agent, seat_agents
from thermopylae.cli_common import (
    AddressOpt,
    BackendOpt,
    ComponentsOpt,
    GameArg,
    OutOpt,
    WorkersOpt,
    err,
    fail,
    load_game,
    out,
    set_language,
    with_progress,
)
from thermopylae.cli_engine import EngineOpt, fast_batch
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import GenericGame
from thermopylae.i18n import _, ngettext

if TYPE_CHECKING:
    from thermopylae.sim.backends import Pool
    from thermopylae.sim.simulate import Summary
    from thermopylae.sim.tournament import Tally, Tournament


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
    engine: EngineOpt = "python",
) -> None:
    """Play many games with the same agent on every seat; report the win rate with its
    95% confidence interval. The same seed gives the same games with any --workers."""
    from thermopylae.sim.backends import process_pool
    from thermopylae.sim.simulate import simulate as run

    game = load_game(game_id, components)
    if replay_line is not None:
        _replay_line(game_id, replay_line, record, components, as_json)
        return
    if record is not None:
        raise fail("--record goes with --replay-line")
    options = {} if players is None else {"players": players}
    try:
        options = game.options(options)
        for spec in seat_agents(agent, game.seats(options)):
            make_agent(spec, game)
    except ThermopylaeError as exc:
        raise fail(str(exc)) from exc
    play_many = _engine(game, options, engine, agent, out_file, backend) or run
    count = max(1, workers or os.cpu_count() or 1)
    with ExitStack() as stack:
        # the workers start before the progress bar's thread: forked where that is safe
        pool = (
            stack.enter_context(process_pool(count))
            if backend == "process" and count > 1 and games > 1
            else None
        )
        summary = with_progress(
            f"{game_id} / {agent}",
            games,
            not as_json,
            lambda advance: play_many(
                game_id,
                agent,
                games,
                options,
                seed,
                count,
                components,
                advance,
                backend,
                address,
                out_file,
                pool,
            ),
        )
    if as_json:
        print(json.dumps(summary.to_json()))
        return
    # plain lines, printed at once: Rich (its import, ~20 ms of start-up) adds nothing
    # to text without styles, markup or wrapping
    lines = [
        f"{game.title}, {options}, agents {summary.agents}, seed {seed}, "
        f"{summary.workers} worker(s)"
    ]
    if summary.engine != "python":
        lines.append(
            _(
                "engine: fast, the game's compiled kernel (its own random sources: other "
                "games than --engine python plays for this seed, the same win rates)"
            )
        )
    wins, rates, cis = summary.wins, summary.win_rate, summary.ci95
    digits = 2 if summary.games >= 100_000 else 1  # an interval narrower than 0.1% shows
    if isinstance(wins, int) and isinstance(rates, float) and isinstance(cis, tuple):
        lines.append(
            f"games {summary.games}   wins {wins}   win rate "
            f"{rates:.{digits}%} (95% CI {cis[0]:.{digits}%} to {cis[1]:.{digits}%})"
        )
    elif isinstance(wins, dict) and isinstance(rates, dict) and isinstance(cis, dict):
        lines.append(f"games {summary.games}   draws {summary.draws}")
        for seat, w in wins.items():
            lo, hi = cis[seat]
            lines.append(
                f"  {seat:<8} wins {w:6d}   win rate {rates[seat]:.1%} "
                f"(95% CI {lo:.1%} to {hi:.1%})"
            )
    lines.append(
        f"mean turns {summary.mean_turns:.1f}   "
        f"{summary.games_per_second:,.0f} games/s ({summary.seconds:.1f} s)"
    )
    lines += [f"  {n:7d}  {reason}" for reason, n in summary.reasons.items()]
    if out_file is not None:
        lines.append(f"{games} game lines written to {out_file}")
    print("\n".join(lines))


def _engine(
    game: GenericGame,
    options: dict[str, Any],
    engine: str,
    agent: str,
    out_file: Path | None,
    backend: str,
) -> Callable[..., Summary] | None:
    """`simulate --engine fast` (or `auto` where the game's kernel can): a function that
    plays the run on the kernel, called as `sim.simulate.simulate` is; None for the
    Python engine."""
    from thermopylae.sim.simulate import simulate_batch

    set_language(None)  # its messages in the user's language
    specs = tuple(seat_agents(agent, game.seats(options)))
    batch = fast_batch(game, options, engine, specs)
    if batch is None:
        return None
    if out_file is not None or backend != "process":
        raise fail(_("--out and --backend ray need --engine python"))
    batch.run(1, 0, specs)  # compiled (or loaded) here, before the pool's workers fork

    def play(
        game_id: str,
        agent: str,
        games: int,
        options: dict[str, Any],
        seed: int = 0,
        workers: int | None = None,
        components: Path | None = None,
        progress: Callable[[int], None] | None = None,
        backend: str = "process",
        address: str | None = None,
        out: Path | None = None,
        pool: Pool | None = None,
    ) -> Summary:
        return simulate_batch(
            game, batch, agent, games, options, seed, progress, workers or 1, pool
        )

    return play


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
        raise fail(str(exc)) from exc
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
        # a line that is binary, nested too deeply or holds fields of the wrong type
        raise fail(f"{ref}: not a usable game line ({type(exc).__name__}: {exc})") from exc
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

    game = load_game(game_id, components)
    options = {} if players is None else {"players": players}
    try:
        options = game.options(options)
        specs = parse_agents(agents)
        for spec in specs:
            make_agent(spec, game)
        if report is not None:
            reports.check_available()
    except ThermopylaeError as exc:
        raise fail(str(exc)) from exc
    cooperative = game.cooperative
    total = len(pairings(game.seats(options), specs, cooperative, seed)) * games
    result = with_progress(
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
        import shlex

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
    from rich.table import Table

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


def bench(
    game_id: GameArg,
    seconds: Annotated[float, typer.Option(help="CPU seconds per measurement.")] = 3.0,
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
    rounds: Annotated[
        int,
        typer.Option(
            min=1,
            help="Rounds of the reference loop and each figure in turn; a figure's ratio is "
            "the median of its rounds'.",
        ),
    ] = 5,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Games per second on one core (CPU time), played as `simulate` plays them, and
    ISMCTS iterations per second; each with its ratio to the reference loop (a tight
    special-purpose Python loop of Thermopyles random play, sim/reference.py) measured in
    the same run, rounds in turn. Ratios carry between machines; absolute figures do not."""
    from thermopylae.sim.bench import Yardstick, compare, ismcts_compare

    set_language(None)
    game = load_game(game_id, None)
    try:
        options = game.options({} if players is None else {"players": players})
        names = [name.strip() for name in agents.split(",")]
        stick = Yardstick.of(game, options)
        figures = compare(game, names, options, seconds, rounds, yardstick=stick)
        rates = (
            ismcts_compare(game, options, seconds, spec=search, yardstick=stick) if ismcts else []
        )
    except ThermopylaeError as exc:
        raise fail(str(exc)) from exc
    ref = figures[0].reference if figures else stick.measure(seconds / rounds)
    if as_json:
        data = {
            "game": game_id,
            "options": options,
            "rounds": rounds,
            "reference": {
                "what": "thermopyles random play, sim/reference.py",
                "players": stick.players,
                "games": ref.games,
                "cpu_seconds": ref.seconds,
                "games_per_second": ref.games_per_second,
            },
            "playouts": [f.to_json() for f in figures],
            "ismcts": {
                "spec": search,
                "iterations_per_second": [r for r, _ in rates],
                "ratios": [x for _, x in rates],
            }
            if ismcts
            else None,
        }
        print(json.dumps(data))
        return
    out.print(f"{game.title}, {options}, one process", markup=False)
    out.print(
        ngettext(
            "Reference: a tight Python loop of Thermopyles random play ({players} player, "
            "sim/reference.py), {rate} games per CPU second in this run. Each ratio is the "
            "median over {rounds} rounds of the figure over the reference of its round.",
            "Reference: a tight Python loop of Thermopyles random play ({players} players, "
            "sim/reference.py), {rate} games per CPU second in this run. Each ratio is the "
            "median over {rounds} rounds of the figure over the reference of its round.",
            stick.players,
        ).format(players=stick.players, rate=f"{ref.games_per_second:,.0f}", rounds=rounds),
        markup=False,
    )
    from rich.table import Table

    table = Table("playout", "games/s", _("× reference"), "steps/s", "games", _("CPU seconds"))
    for f in figures:
        r = f.result
        table.add_row(
            r.agent,
            f"{r.games_per_second:,.0f}",
            f"{f.ratio:.3g}",
            f"{r.steps_per_second:,.0f}",
            str(r.games),
            f"{r.seconds:.1f}",
        )
    out.print(table)
    if ismcts:
        figures_text = ", ".join(
            _("{rate} ({ratio} × reference)").format(rate=f"{r:,.0f}", ratio=f"{x:.3g}")
            for r, x in rates
        )
        out.print(
            _(
                "{search} iterations per CPU second at the start, middle and end of a random "
                "game: {figures}"
            ).format(search=search, figures=figures_text),
            markup=False,
        )
