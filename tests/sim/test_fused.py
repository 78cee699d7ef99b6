"""Tables of random agents played by the game's `random_legal_playout` (`sim.match.play`:
its fused `random_playout` where `sensible` is `legal`, 300's own fused loop over `legal`)
give the same games as the protocol loop, draw for draw: the same outcome, steps and final
state for the same seed and index."""

from __future__ import annotations

from pathlib import Path

import pytest

from thermopylae.ai.base import RandomAgent, make_agent
from thermopylae.engine import play as engine_play
from thermopylae.engine import registry
from thermopylae.engine.play import plays_legal
from thermopylae.sim import match
from thermopylae.sim.simulate import simulate


@pytest.mark.parametrize(
    ("game_id", "players", "games"),
    [
        ("thermopyles", 1, 1000),
        ("thermopyles", 2, 300),
        ("thermopyles", 4, 1000),
        ("earth-and-water", 2, 40),
        ("hot-gates", 2, 60),
        ("hot-gates", 4, 60),
    ],
)
def test_random_tables_play_the_protocol_loops_games(
    game_id: str, players: int, games: int
) -> None:
    game = registry.get(game_id)
    options = game.options({"players": players})
    agents = [RandomAgent() for _ in game.seats(options)]
    assert match.all_random(agents)
    for index in range(games):
        chance_rng, agent_rng = match.rngs(7, index)
        fused, steps = match.play(game, options, agents, chance_rng, agent_rng)
        chance_rng, agent_rng = match.rngs(7, index)
        state = game.new(options)
        expected = engine_play.play(game, state, agents, chance_rng, agent_rng)
        assert steps == expected
        assert game.outcome(fused) == game.outcome(state)
        assert game.state_to_json(fused) == game.state_to_json(state)


def test_only_tables_of_random_agents_and_300_s_random_games_choose_among_legal() -> None:
    thermopyles = registry.get("thermopyles")
    assert plays_legal(thermopyles)
    assert match.all_random([RandomAgent(), RandomAgent()])
    assert not match.all_random([make_agent("heuristic", thermopyles)])
    assert not match.all_random([RandomAgent(), make_agent("heuristic", thermopyles)])
    hot_gates = registry.get("hot-gates")  # its sensible leaves out pointless cards
    assert not plays_legal(hot_gates)
    # so its random tables play `legal`, card plays that cannot apply included: a seed
    # whose games differ between the two playouts shows they are not the same loop
    options = hot_gates.options({"players": 2})
    differ = 0
    for seed in range(20):
        a, b = hot_gates.new(options), hot_gates.new(options)
        hot_gates.random_legal_playout(a, *match.rngs(seed, 0))
        hot_gates.random_playout(b, *match.rngs(seed, 0))
        differ += hot_gates.state_to_json(a) != hot_gates.state_to_json(b)
    assert differ


def test_recorded_runs_give_the_fused_runs_results(tmp_path: Path) -> None:
    """With --out every game is recorded, so played through the protocol loop: the
    summary is the fused run's, and each line's record replays (`replay_indexed`)."""
    out = tmp_path / "games.jsonl"
    plain = simulate("thermopyles", "random", 300, {"players": 4}, seed=3, workers=1)
    recorded = simulate("thermopyles", "random", 300, {"players": 4}, seed=3, workers=1, out=out)
    assert (plain.wins, plain.mean_turns, plain.reasons) == (
        recorded.wins,
        recorded.mean_turns,
        recorded.reasons,
    )
    game = registry.get("thermopyles")
    options = game.options({"players": 4})
    rec = match.replay_indexed(game, options, ["random"] * 4, 3, 17)
    chance_rng, agent_rng = match.rngs(3, 17)
    state, _ = match.play(game, options, [RandomAgent()] * 4, chance_rng, agent_rng)
    outcome = game.outcome(state)
    assert outcome is not None
    assert rec.to_json()["outcome"] == outcome.to_json()
