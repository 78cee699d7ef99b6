"""The commands that describe the games: `games` (the list), `rules` (a game's rules and
components, each value with its source) and `agents` (who can play a game)."""

from __future__ import annotations

from thermopylae.ai.base import agent_names
from thermopylae.cli_common import ComponentsOpt, GameArg, load_game, out
from thermopylae.engine import registry


def games() -> None:
    """List the games and their player counts."""
    from rich.table import Table

    table = Table("id", "title", "players")
    for gid in registry.game_ids():
        title, lo, hi = registry.summary(gid)
        table.add_row(gid, title, f"{lo}-{hi}" if lo != hi else str(lo))
    out.print(table)


def rules(game_id: GameArg, components: ComponentsOpt = None) -> None:
    """Summarise a game's rules and list its components, each value with its source.

    With --components, the file is checked first and every problem in it is listed.
    """
    game = load_game(game_id, components)
    out.print(game.rules_text(), markup=False)


def agents(game_id: GameArg) -> None:
    """List the agents that can play a game."""
    game = load_game(game_id, None)
    for name in agent_names(game):
        out.print(name)
