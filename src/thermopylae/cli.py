"""The `thermopylae` command line: list, learn, play, replay, simulate and benchmark games,
and run tournaments between agents. This module holds only the app and its table of
commands (`LAZY`); the commands are in modules of their own: those that describe games in
`cli_info`, those that play one game in `cli_play`, those that play many in `cli_sim`, the
server's in `cli_serve`, what all share in `cli_common`.

A command's module is imported only when it runs (`_Commands`): a command pays for its own
imports, not every command's (the server's, the analysis'), Typer builds only its
parameters, and `--help` lists the commands from their first lines kept here.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import re
from typing import TYPE_CHECKING, Any

import typer
import typer.core
import typer.main
import typer.models

if TYPE_CHECKING:
    from typer._click import Command, Context, Parameter  # the click that typer carries


LAZY: dict[str, tuple[str, str, str]] = {
    "games": ("thermopylae.cli_info", "games", "List the games and their player counts."),
    "rules": (
        "thermopylae.cli_info",
        "rules",
        "Summarise a game's rules and list its components, each value with its source.",
    ),
    "play": (
        "thermopylae.cli_play",
        "play",
        "Play a game at the terminal (answers may also be piped in, one per line).",
    ),
    "replay": (
        "thermopylae.cli_play",
        "replay_cmd",  # not `replay`: the name of engine.record's function, which it calls
        "Re-run a game record: check that every step was legal and the end matches.",
    ),
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
    "agents": ("thermopylae.cli_info", "agents", "List the agents that can play a game."),
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


@app.callback()
def _group() -> None:
    """The app's own step before any command (none): Typer makes a group of an app that
    has a callback, though every command is a stand-in of `LAZY` until it runs."""


def main() -> None:
    """The `thermopylae` command. When the process ends, after the exit handlers that the
    command registered (Ray's shutdown, the pools'), what is left is frozen out of the
    garbage collector: the collections the interpreter runs while it tears its modules
    down cost a command up to ~45 ms (a quarter of `simulate`'s CPU) and find nothing
    that matters then (nothing waits on a finalizer at exit: files are closed by `with`,
    pools and Ray shut down by their handlers)."""
    atexit.register(gc.freeze)  # before the command's handlers, so it runs after them
    app()
