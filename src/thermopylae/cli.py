"""The `thermopylae` command line: list, learn, play, replay, simulate and benchmark games,
and run tournaments between agents. The commands that play many games are in `cli_sim`,
the server's in `cli_serve`, what all share in `cli_common`.

The other modules' commands are imported only when one of them runs (`_Commands`): a
command pays for its own imports, not every command's (the server's, the analysis'), and
`--help` lists them from their first lines kept here.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
import typer.core
import typer.main
import typer.models

from thermopylae.ai.base import Agent, agent_names, make_agent
from thermopylae.cli_common import (
    ComponentsOpt,
    GameArg,
    err,
    fail,
    load_game,
    out,
    set_language,
)
from thermopylae.engine import registry
from thermopylae.engine.errors import RecordError, ThermopylaeError
from thermopylae.engine.protocol import GenericGame
from thermopylae.i18n import _, ngettext

if TYPE_CHECKING:
    from typer._click import Command, Context, Parameter  # the click that typer carries

    from thermopylae.engine.record import Record

LAZY: dict[str, tuple[str, str, str]] = {
    "simulate": (
        "thermopylae.cli_sim",
        "simulate",
        "Play many games with the same agent on every seat; report the win rate with "
        "its 95% confidence interval. The same seed gives the same games with any "
        "--workers.",
    ),
    "tournament": (
        "thermopylae.cli_sim",
        "tournament",
        "A round robin: every agent against every other on every seat (in a "
        "co-operative game, every agent on the same deals). Prints win rates with 95% "
        "Wilson intervals and Bradley–Terry ratings (Elo scale) with 95% intervals. The "
        "same seed gives the same games with any --workers or --backend; "
        "docs/analysis.md explains the design.",
    ),
    "balance": (
        "thermopylae.cli_balance",
        "balance",
        "A balance sweep: each component file's win rate with its 95% Wilson interval, "
        "for each agent and player count, on the game's compiled kernel where it has "
        "one (--engine auto).",
    ),
    "bench": (
        "thermopylae.cli_sim",
        "bench",
        "Games per second on one core (CPU time), played as `simulate` plays them, and "
        "ISMCTS iterations per second; each with its ratio to the "
        "reference loop (a tight special-purpose Python loop of Thermopyles random "
        "play, sim/reference.py) measured in the same run, rounds in turn. Ratios carry "
        "between machines; absolute figures do not.",
    ),
    "analyse": (
        "thermopylae.cli_analyse",
        "analyse",
        "Estimate the seat's win chance along a finished game and mark its mistakes.",
    ),
    "serve": (
        "thermopylae.cli_serve",
        "serve",
        "Run the game server: the lobby at http://HOST:PORT/, the API under /api (docs "
        "at /docs). Every accepted action is stored before anyone is told of it. AI "
        "seats think in a bounded pool of their own, within the --ai-* limits.",
    ),
    "export": (
        "thermopylae.cli_export",
        "export",
        "Write a server's finished games of one game as JSON lines, oldest first: each "
        "line is the game's record (what GET /api/tables/ID/record answers), which "
        "`thermopylae replay` checks and `thermopylae play --from` continues. "
        "Unfinished games are left out (their records would show the hands). The "
        "database is only read.",
    ),
    "ladder": (
        "thermopylae.cli_export",
        "ladder",
        'Let the server\'s bot levels play each other and move their ratings ("bot:hard" '
        "as Persia, ...), both sides being bots: a human's first rated game against a "
        "bot then meets a rating that means something. Each game's pairing of levels "
        "goes round every combination of the levels over the seats.",
    ),
}
"""The commands of other modules: name -> (module, function, the first paragraph of its
docstring, which `--help` shows; tests/test_cli.py holds it to the docstring)."""

ORDER = (
    "games",
    "rules",
    "play",
    "replay",
    "simulate",
    "tournament",
    "balance",
    "bench",
    "analyse",
    "agents",
    "serve",
    "export",
    "ladder",
)
"""The commands in the order of `thermopylae --help`."""


def load_command(name: str) -> Command:
    """The command `name` of `LAZY`, its module imported now."""
    module, function, _help = LAZY[name]
    callback = getattr(importlib.import_module(module), function)
    return typer.main.get_command_from_info(
        typer.models.CommandInfo(name=name, callback=callback),
        pretty_exceptions_short=True,
        rich_markup_mode=app.rich_markup_mode,
    )


def command_help(name: str) -> str:
    """What `--help` says of a command of `LAZY`: its docstring's first paragraph."""
    import inspect

    module, function, _help = LAZY[name]
    doc = inspect.getdoc(getattr(importlib.import_module(module), function)) or ""
    return doc.split("\n\n")[0].replace("\n", " ")


_TYPER = object()
"""What `_plain` answers for a value it leaves to Typer's own coercion."""
_DECIMAL = re.compile(r"-?(0|[1-9][0-9]{0,17})")


def _plain(value: Any, annotation: Any, info: typer.models.ParameterInfo) -> Any:
    """`value` as Typer's coercion would return it, where that needs no more than its type
    (a string option; a default of the option's type; an integer written in plain
    decimal, within the option's bounds), or `_TYPER` for Typer to coerce it."""
    if info.parser is not None or info.clamp:
        return _TYPER
    if annotation is str and type(value) is str:
        return value
    if annotation is int and (
        type(value) is int or (type(value) is str and _DECIMAL.fullmatch(value))
    ):
        number = int(value)
        if (info.min is None or number >= info.min) and (info.max is None or number <= info.max):
            return number
    if annotation is float and type(value) is float and info.min is None and info.max is None:
        return value
    return _TYPER


try:
    from typer._coercion import RuntimeParam, build_runtime_param
except ImportError:  # a Typer that coerces with click's types: nothing to defer
    DEFER = False
else:
    DEFER = True


def _defer_coercion(params: list[Parameter]) -> None:
    """Typer (0.2x) builds a pydantic validator for each parameter of the command that
    runs, its help option included, given or not (importing pydantic, ~40 ms, and ~2 ms a
    parameter): this builds it only for a value that needs more than `_plain`, which
    coerces the others as it would."""
    if not DEFER:
        return
    for param in params:
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is not None and getattr(param, "_runtime_param", _TYPER) is None:
            param._runtime_param = _Deferred(  # type: ignore[attr-defined]
                parameter_info=descriptor.parameter_info, annotation=descriptor.annotation
            )


if DEFER:

    class _Deferred(RuntimeParam):
        """Typer's coercion of one parameter, built when a value first needs it."""

        def _coerce_value(self, value: Any, param: Any, ctx: Context) -> Any:
            plain = _plain(value, self.annotation, self.parameter_info)
            if plain is not _TYPER:
                return plain
            param._runtime_param = real = build_runtime_param(param.type_descriptor)
            return real._coerce_value(value, param=param, ctx=ctx)


class _StandIn(typer.core.TyperCommand):
    """A command of `LAZY` not loaded yet: its name and first paragraph, for `--help`."""


class _Commands(typer.core.TyperGroup):
    """The app's commands: those of `LAZY` are stand-ins until one runs (or its own help
    is asked for), when `resolve_command` loads it in its place."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, (_module, _function, text) in LAZY.items():
            self.commands.setdefault(name, _StandIn(name, help=text))

    def list_commands(self, ctx: Context) -> list[str]:
        return sorted(self.commands, key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER))

    def resolve_command(
        self, ctx: Context, args: list[str]
    ) -> tuple[str | None, Command | None, list[str]]:
        if args and isinstance(self.commands.get(args[0]), _StandIn):
            self.commands[args[0]] = load_command(args[0])
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None:
            _defer_coercion(command.get_params(ctx))
        return name, command, rest

    def get_params(self, ctx: Context) -> list[Parameter]:
        params = super().get_params(ctx)
        _defer_coercion(params)
        return params


app = typer.Typer(
    cls=_Commands,
    help="Play and study the three '300' board games: Thermopyles, 300: The Board Game, "
    "300: Earth & Water.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.command()
def games() -> None:
    """List the games and their player counts."""
    from rich.table import Table

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
    game = load_game(game_id, components)
    out.print(game.rules_text(), markup=False)


def _parse_ai(
    specs: list[str], game: GenericGame, options: dict[str, Any], fixed: bool = False
) -> dict[int, Agent]:
    """The agents of `--ai SEAT=AGENT`, by seat index; `fixed` when the table comes from a
    file, so that `--players` cannot add seats."""
    seats = list(game.seats(options))
    agents: dict[int, Agent] = {}
    for spec in specs:
        seat, eq, agent = spec.partition("=")
        if not eq:
            raise fail(
                _("--ai takes SEAT=AGENT (e.g. {example}), not {spec}").format(
                    example=f"{seats[0]}=heuristic", spec=repr(spec)
                )
            )
        if seat not in seats:
            raise fail(
                _("--ai {spec}: no seat {seat}; the seats are {seats}").format(
                    spec=spec, seat=repr(seat), seats=", ".join(seats)
                )
                + ("" if fixed else _more_seats(game, options, seat))
            )
        try:
            agents[seats.index(seat)] = make_agent(agent, game)
        except ThermopylaeError as exc:
            raise fail(str(exc)) from exc
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
    step: Annotated[
        int | None,
        typer.Option(
            "--step",
            min=0,
            help="With --from RECORD: play on from the position after this step (what if?). "
            "What --as cannot have seen then (the others' hands, the order of the decks) is "
            "dealt anew, consistently with what it saw, so nobody learns the real cards.",
        ),
    ] = None,
    as_seat: Annotated[
        str | None,
        typer.Option(
            "--as",
            help="With --step: the seat whose knowledge the position keeps (default: the "
            "seat that decides at that step).",
        ),
    ] = None,
    true_cards: Annotated[
        bool,
        typer.Option(
            "--true-cards",
            help="With --step on a finished game: keep the real hidden cards instead of "
            "dealing them anew (the game is over: nothing is left to hide).",
        ),
    ] = False,
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
    clock: Annotated[
        str | None,
        typer.Option(
            "--clock",
            help="A clock for each human player: BANK, BANK+INCREMENT or "
            "BANK+INCREMENT/CAP, e.g. 10m (ten minutes each), 5m+5s (five more seconds after "
            "each turn), 3d+12h/5d (the bank never above five days); units s, m, h, d, "
            "combined as 1h30m. A player is charged "
            "from the prompt to the answer (agents and chance cost nothing); whoever runs "
            "out of time loses the game.",
        ),
    ] = None,
) -> None:
    """Play a game at the terminal (answers may also be piped in, one per line).

    Type `help` at the prompt for the commands: undo, save FILE, position FILE, board,
    cards (in games with hands), quit. On a terminal the board is in colour, each seat in
    its own, and the lines that changed since it was last drawn are flagged (with `*` in
    a pipe).
    """
    import secrets

    from thermopylae.engine.clock import ClockError, parse_clock
    from thermopylae.tui.terminal import Session

    set_language(lang)
    try:
        control = None if clock is None else parse_clock(clock)
    except ClockError as exc:
        raise fail(f"--clock: {exc}") from exc
    game = load_game(game_id, components)
    if seed is None:
        seed = secrets.randbelow(2**31)
    try:
        if step is not None:
            if from_file is None:
                raise RecordError(_("--step needs --from RECORD (the game to play on from)"))
            state, rec = _what_if(game, from_file, step, as_seat, true_cards, seed)
        else:
            state, rec = _start(game, from_file, players, open_hands, seed)
    except ThermopylaeError as exc:
        raise fail(str(exc)) from exc
    options = rec.options
    agents = _parse_ai(ai or [], game, options, fixed=from_file is not None)
    session = Session(
        game, options, state, rec, agents, seed, out, sys.stdin, game.render, record, control
    )
    session.opening(seed)
    session.run()


def _more_seats(game: GenericGame, options: dict[str, Any], seat: str) -> str:
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
    game: GenericGame, path: Path | None, players: int | None, open_hands: bool, seed: int
) -> tuple[Any, Record]:
    """The state to play from and the record that leads to it (new, from a position, or
    a saved record continued)."""
    from thermopylae.engine.record import Position, Record, load_any, replay

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


def _what_if(
    game: GenericGame, path: Path, step: int, as_seat: str | None, true_cards: bool, seed: int
) -> tuple[Any, Record]:
    """The position after `step` steps of a record, as a new game's start: the hidden
    information `as_seat` could not see dealt anew (unless the game is over and the true
    cards are asked for)."""
    from thermopylae.engine.record import Record, replay, replay_to

    loaded = Record.load(path)
    if loaded.game != game.id:
        raise RecordError(
            _("{path} is a record of {other}, not of {game}").format(
                path=path, other=loaded.game, game=game.id
            )
        )
    report = replay_to(game, loaded, step)
    if not report.ok:
        raise RecordError(
            _("{path} does not replay: {problem}").format(path=path, problem=report.problems[0])
        )
    options = game.options(loaded.options)
    state = report.state
    seats = list(game.seats(options))
    if true_cards:
        finished = replay(game, loaded)
        if not finished.ok or finished.outcome is None:
            raise RecordError(_("--true-cards is for a finished game; this one is not over"))
        return state, Record.begin(game, options, seed, start=state)
    if as_seat is None:
        to_act = game.to_act(state)
        if to_act is None or to_act < 0:
            raise RecordError(
                _(
                    "at step {step} no seat decides: say whose knowledge to keep with --as SEAT"
                ).format(step=step)
            )
        seat = to_act
    elif as_seat in seats:
        seat = seats.index(as_seat)
    else:
        raise RecordError(
            _("--as {seat}: not a seat of this game (seats: {seats})").format(
                seat=as_seat, seats=", ".join(seats)
            )
        )
    import random

    dealt = game.determinize(state, seat, random.Random(seed))
    return dealt, Record.begin(game, options, seed, start=dealt)


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    components: ComponentsOpt = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print every step.")] = False,
    step: Annotated[
        int | None,
        typer.Option(
            "--step",
            min=0,
            help="Show the board after this step (0: before the first) instead of checking "
            "the whole record.",
        ),
    ] = None,
    seat: Annotated[
        str | None,
        typer.Option(
            "--seat",
            help="With --step or --interactive: the board as this seat saw it (default: a "
            "spectator).",
        ),
    ] = None,
    interactive: Annotated[
        bool,
        typer.Option(
            "--interactive",
            "-i",
            help="Step through the record: n (or Enter) next, p previous, g first, G last, "
            "a number to go to that step, s SEAT the board as that seat saw it, a every hand "
            "(a finished game), q quit; starts at --step if given. Keys may be piped in, "
            "one a line.",
        ),
    ] = False,
) -> None:
    """Re-run a game record: check that every step was legal and the end matches.

    With --step, show the board after one step; with --interactive, step through the game.
    """
    from thermopylae.engine.record import Record, replay

    set_language(None)
    try:
        rec = Record.load(file)
    except ThermopylaeError as exc:
        raise fail(str(exc)) from exc
    game = load_game(rec.game, components)
    if interactive:
        _view(game, rec, step, seat)
        return
    if step is not None:
        _show_step(game, rec, step, seat)
        return
    if verbose:
        for n, (who, action) in enumerate(rec.steps, start=1):
            out.print(f"{n:4d} {who}: {action}", markup=False)
    try:
        report = replay(game, rec)
    except ThermopylaeError as exc:
        raise fail(str(exc)) from exc
    if not report.ok and report.state is None:  # it cannot even begin: a malformed file
        raise fail(f"{file}: {report.problems[0]}")
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


def _view(game: GenericGame, rec: Record, step: int | None, seat_name_: str | None) -> None:
    """The interactive viewer (`tui.viewer`), from `step` (default: the start) and as
    `seat_name_` saw the game (default: a spectator)."""
    from thermopylae.tui.viewer import Viewer, replay_steps

    seats = list(rec.seats)
    if seat_name_ is not None and seat_name_ not in seats:
        raise fail(
            _("--seat {seat}: not a seat of this game (seats: {seats})").format(
                seat=seat_name_, seats=", ".join(seats)
            )
        )
    if step is not None and step > len(rec.steps):
        raise fail(
            _("--step {step}: the record has steps 0 to {total}").format(
                step=step, total=len(rec.steps)
            )
        )
    try:
        replayed = replay_steps(game, rec)
    except ThermopylaeError as exc:
        raise fail(str(exc)) from exc
    seat = None if seat_name_ is None else seats.index(seat_name_)
    Viewer(game, replayed, out, sys.stdin, step or 0, seat).run()


def _show_step(game: GenericGame, rec: Record, step: int, seat_name_: str | None) -> None:
    """The board after `step` steps, as `seat_name_` (or a spectator) saw it then."""
    from thermopylae.engine.record import replay_to

    try:
        report = replay_to(game, rec, step)
    except ThermopylaeError as exc:
        raise fail(str(exc)) from exc
    if not report.ok:
        raise fail(report.problems[0])
    seats = list(rec.seats)
    if seat_name_ is not None and seat_name_ not in seats:
        raise fail(
            _("--seat {seat}: not a seat of this game (seats: {seats})").format(
                seat=seat_name_, seats=", ".join(seats)
            )
        )
    seat = None if seat_name_ is None else seats.index(seat_name_)
    last = rec.steps[step - 1] if step > 0 else None
    head = _("Step {step} of {total}").format(step=step, total=len(rec.steps))
    if last is not None:
        head += f" ({last[0]}: {last[1]})"
    out.print(head, markup=False)
    out.print(game.render(game.view(report.state, seat)), markup=False)


@app.command()
def agents(game_id: GameArg) -> None:
    """List the agents that can play a game."""
    game = load_game(game_id, None)
    for name in agent_names(game):
        out.print(name)


def main() -> None:
    """The `thermopylae` command. When the process ends, after the exit handlers that the
    command registered (Ray's shutdown, the pools'), what is left is frozen out of the
    garbage collector: the collections the interpreter runs while it tears its modules
    down cost a command up to ~45 ms (a quarter of `simulate`'s CPU) and find nothing
    that matters then (nothing waits on a finalizer at exit: files are closed by `with`,
    pools and Ray shut down by their handlers)."""
    atexit.register(gc.freeze)  # before the command's handlers, so it runs after them
    app()
