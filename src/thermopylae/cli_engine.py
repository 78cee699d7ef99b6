"""`--engine`, shared by `simulate` and `balance`: which engine plays a command's games,
the rules engine or the game's compiled kernel. In a module of its own so that `simulate`
does not import the `balance` command to read its option."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from thermopylae.cli_common import fail
from thermopylae.engine.protocol import BatchSimulator, GenericGame, MissingExtra
from thermopylae.i18n import _

ENGINES = ("python", "fast", "auto")

EngineOpt = Annotated[
    str,
    typer.Option(
        help="python (the rules engine, any agent), fast (the game's compiled kernel: "
        "random and heuristic agents, needs the [fast] extra) or auto (fast where it can, "
        "else python). Both play the same game; their random sources differ, so a seed "
        "gives other games on each, with the same win rates."
    ),
]


def fast_batch(
    game: GenericGame, options: dict[str, Any], engine: str, specs: tuple[str, ...]
) -> BatchSimulator | None:
    """The game's compiled kernel for `--engine fast` or `auto`; None for `python`, and
    for `auto` when there is none (or it cannot play `specs`). `fast` without one fails
    with a message saying why."""
    if engine not in ENGINES:
        raise fail(
            _("--engine {engine}: the engines are python, fast and auto").format(engine=engine)
        )
    if engine == "python":
        return None
    try:
        batch = game.batch_simulator(options)
    except MissingExtra as exc:
        if engine == "auto":
            return None
        raise fail(
            _(
                "the fast engine needs the [{extra}] extra: pip install 'thermopylae[{extra}]'"
            ).format(extra=exc.extra)
        ) from exc
    if batch is None:
        if engine == "auto":
            return None
        raise fail(_("{game} has no fast engine").format(game=game.id))
    others = sorted({s for s in specs if s not in batch.policies})
    if others:
        if engine == "auto":
            return None
        raise fail(
            _("the fast engine plays the agents {policies}, not {agents}").format(
                policies=", ".join(batch.policies), agents=", ".join(others)
            )
        )
    return batch
