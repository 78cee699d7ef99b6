"""A short record of any game for the analysis tests: the last steps of a heuristic game,
as a record that starts from the position before them."""

from __future__ import annotations

import random
from typing import Any

from thermopylae.ai.base import make_agent
from thermopylae.engine import registry
from thermopylae.engine.play import play
from thermopylae.engine.record import Record


def short_record(game_id: str, last: int = 12, seed: int = 3) -> tuple[Any, Record]:
    """(game, record of the last `last` steps of a heuristic-vs-heuristic game)."""
    game = registry.get(game_id)
    options = game.options({})
    state = game.new(options)
    actions: list[tuple[int, Any]] = []
    agents = [make_agent("heuristic", game) for _ in game.seats(options)]
    play(
        game,
        game.copy(state),
        agents,
        random.Random(seed),
        random.Random(seed + 1),
        on_step=lambda seat, a: actions.append((seat, a)),
    )
    cut = max(0, len(actions) - last)
    for _, a in actions[:cut]:
        game.apply(state, a, quiet=True)
    rec = Record.begin(game, options, start=state)
    for seat, a in actions[cut:]:
        who = "chance" if seat < 0 else game.seats(options)[seat]
        rec.add(who, game.format(a))
        game.apply(state, a, quiet=True)
    rec.close(game, state)
    return game, rec
