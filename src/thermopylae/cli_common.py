"""What every command of the `thermopylae` command line shares: the consoles, the option
types, how a command fails (a message on stderr and an exit code), its language and its
progress bar, and loading a game by id."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar, cast

import typer

from thermopylae import i18n
from thermopylae.engine import registry
from thermopylae.engine.errors import ComponentError, ThermopylaeError
from thermopylae.engine.protocol import GenericGame
from thermopylae.i18n import _, ngettext

if TYPE_CHECKING:
    from rich.console import Console


class _OnFirstUse:
    """A rich console made when it is first used: a command that prints none (`simulate
    --json`) does not import rich's console (~18 ms of its start-up)."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Console | None = None

    @property
    def console(self) -> Console:
        """The console itself, made now if it was not yet."""
        if self._console is None:
            from rich.console import Console

            self._console = Console(**self._options)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.console, name)

    # Python looks special methods up on the type, never through __getattr__: rich's live
    # displays (the progress bar) enter the console as a context manager.
    def __enter__(self) -> Console:
        return self.console.__enter__()

    def __exit__(self, *exc: Any) -> None:
        self.console.__exit__(*exc)


out = cast("Console", _OnFirstUse(highlight=False, soft_wrap=True))
err = cast("Console", _OnFirstUse(stderr=True, highlight=False, soft_wrap=True))

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


def fail(message: str, code: int = 2) -> typer.Exit:
    err.print(_("error: {message}").format(message=message), markup=False, soft_wrap=True)
    return typer.Exit(code)


def set_language(lang: str | None) -> None:
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
        raise fail(
            _("--lang {lang}: no such language; the languages are {known}").format(
                lang=lang, known=known
            )
        )
    i18n.set_language(lang)


def with_progress(
    label: str, total: int, wanted: bool, work: Callable[[Callable[[int], None]], R]
) -> R:
    """`work(advance)` under a progress bar on stderr (when `wanted` and stderr is a
    terminal); its errors end the command with their message. Without a bar, rich's
    progress module is not even imported (a start-up cost of its own)."""
    try:
        if not (wanted and sys.stderr.isatty()):
            return work(_ignore)
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=err,
        ) as bar:
            task = bar.add_task(label, total=total)
            return work(lambda n: bar.advance(task, n))
    except ThermopylaeError as exc:
        raise fail(str(exc)) from exc


def _ignore(n: int) -> None:
    """The progress of work no bar shows."""


def load_game(game_id: str, components: Path | None) -> GenericGame:
    try:
        return registry.get(game_id, components)
    except ComponentError as exc:
        if len(exc.problems) == 1:  # a file that does not parse: one line
            raise fail(f"{exc.source}: {exc.problems[0]}") from exc
        count = ngettext("{n} problem", "{n} problems", len(exc.problems))
        lines = "".join(f"\n  - {p}" for p in exc.problems)
        raise fail(f"{exc.source}: {count.format(n=len(exc.problems))}{lines}") from exc
    except ThermopylaeError as exc:
        raise fail(str(exc)) from exc
