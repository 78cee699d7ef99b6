"""The contract's `batch_simulator` capability, for every registered game: None, or a
kernel that plays the agents it names and counts every game it plays (the kernel's own
equality with the rules is each game's test: tests/thermopyles/test_kernel.py)."""

from __future__ import annotations

import pytest

from tests.conformance.sampled import Case, options_for
from thermopylae.ai.base import make_agent
from thermopylae.engine import registry
from thermopylae.engine.protocol import MissingExtra

pytestmark = pytest.mark.usefixtures("toy_registered")


def test_batch_simulator_is_none_or_counts_every_game(case: Case) -> None:
    game = registry.get(case.game_id)
    options = options_for(game, case.players)
    try:
        batch = game.batch_simulator(options)
    except MissingExtra as exc:
        assert exc.extra and "pip install" in str(exc)
        return
    if batch is None:
        return
    assert batch.policies
    for policy in batch.policies:
        make_agent(policy, game)  # a spec the game knows
        counts = batch.run(300, 1, [policy])
        assert counts.games == 300 == sum(counts.reasons.values())
        assert len(counts.wins) == case.players
        assert all(0 <= w <= 300 for w in counts.wins)
        assert counts.turns >= 300 and counts.steps >= counts.turns
        assert batch.run(300, 1, [policy]) == counts  # seeded
