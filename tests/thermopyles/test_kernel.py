"""The compiled kernel (games/thermopyles/kernel.py) is a second implementation of the
rules held equal to the engine: fed the same chance outcomes and the same agent choices
(the numbers the engine's two random sources give each game), it plays the same game to
the same end, game by game, on more than 10,000 games of each policy, with the default
components and with another component set; and its own seeded games give win rates that
agree with the engine's within their 95% intervals."""

from __future__ import annotations

import json
import tomllib
from importlib.resources import files
from pathlib import Path
from statistics import NormalDist
from typing import Any

import pytest

pytest.importorskip(
    "numba", reason="the compiled kernel needs numba (the [fast] extra: pip install '.[fast]')"
)

import numpy as np

from thermopylae.ai.base import make_agent
from thermopylae.engine import registry
from thermopylae.engine.protocol import BatchCounts
from thermopylae.games.thermopyles import components as comp
from thermopylae.games.thermopyles import kernel
from thermopylae.games.thermopyles.rules import Thermopyles
from thermopylae.sim.match import play, rngs
from thermopylae.sim.stats import wilson

# numbers drawn from each source per game: more than any game takes (about 70 and 40 at
# most; a game that would need more fails the test as an overflow)
CHANCE_WIDTH, AGENT_WIDTH = 100, 64
Z = NormalDist().inv_cdf(1 - 0.05 / 8 / 2)  # two-sided, 8 comparisons
GAMES = 2_600  # per player count and policy: 10,400 games of each policy


def variant(tmp: Path) -> Path:
    """Another component set: 2 support cards, the location die on 2, 4 and 6, other
    Spartan values, more bonus symbols, weaker Persians."""
    data = tomllib.loads(files(comp.__package__).joinpath("components.toml").read_text())
    data["support_cards"]["count"] = 2
    for loc in data["map"]:
        loc["die"] = loc["number"] in (2, 4, 6)
    data["spartan"] = [{"value": v} for v in [10, 11, 12, 12, 13, 14, 15, 15, 16, 16] * 2]
    for i, card in enumerate(data["persian"]):
        card["bonus"] = i % 3 == 0
        card["combat"] = max(1, card["combat"] - 2)
    path = tmp / "variant.json"
    path.write_text(json.dumps(data))
    return path


def engine_and_kernel(
    components: Path | None, players: int, policy: str, seed: int, games: int
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Each game as the engine plays it and as the kernel plays it from the numbers the
    engine's sources gave: result, reason, turns, steps, marker, support cards left,
    graveyard, deck sizes, and the next number each source would give."""
    game = registry.get("thermopyles", components)
    assert isinstance(game, Thermopyles)
    options = game.options({"players": players})
    agents = [make_agent(policy, game) for _ in range(players)]
    chance = np.empty((games, CHANCE_WIDTH))
    agent = np.empty((games, AGENT_WIDTH))
    expected = []
    for i in range(games):
        c, a = rngs(seed, i)
        chance[i] = [c.random() for _ in range(CHANCE_WIDTH)]
        agent[i] = [a.random() for _ in range(AGENT_WIDTH)]
        c, a = rngs(seed, i)
        state, steps = play(game, options, agents, c, a)
        o = game.outcome(state)
        assert o is not None
        expected.append(
            (
                o.results[0] == "win",
                o.reason,
                o.turns,
                steps,
                state.marker,
                state.support,
                len(state.graveyard),
                len(state.sdeck),
                len(state.pdeck),
                c.random(),
                a.random(),
            )
        )
    rows = kernel.play_streams(game.components, players, [policy], chance, agent)
    f = {name: i for i, name in enumerate(kernel.FIELDS)}
    assert (rows[:, f["chance_draws"]] < CHANCE_WIDTH).all(), "more chance numbers than drawn"
    assert (rows[:, f["agent_draws"]] < AGENT_WIDTH).all(), "more agent numbers than drawn"
    assert not rows[:, f["overflow"]].any()
    got = [
        (
            bool(r[f["result"]] == 1),
            kernel.REASONS[r[f["reason"]]],
            int(r[f["turns"]]),
            int(r[f["steps"]]),
            int(r[f["marker"]]),
            int(r[f["support"]]),
            int(r[f["graveyard"]]),
            int(r[f["spartan_deck"]]),
            int(r[f["persian_deck"]]),
            float(chance[i, r[f["chance_draws"]]]),
            float(agent[i, r[f["agent_draws"]]]),
        )
        for i, r in enumerate(rows)
    ]
    return expected, got


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_same_chance_outcomes_same_games_and_win_rates_within_intervals(policy: str) -> None:
    """10,400 games of each policy (2,600 at each player count, 1 to 4), every field of
    every game equal, down to the numbers each source would give next. Then the kernel's
    own seeded games (its SplitMix64 sources, 100,000 games at each player count) against
    the engine's (its Mersenne Twister sources, these 2,600): their Wilson intervals
    overlap, each at the level that makes the 8 comparisons (2 policies x 4 player counts)
    together a 95% test (Bonferroni)."""
    game = registry.get("thermopyles")
    total = 0
    for players in (1, 2, 3, 4):
        expected, got = engine_and_kernel(None, players, policy, 21 + players, GAMES)
        for i, (e, g) in enumerate(zip(expected, got, strict=True)):
            assert g == e, f"{policy}, {players} player(s), game {i}: engine {e}, kernel {g}"
        total += len(got)
        batch = game.batch_simulator({"players": players})
        assert batch is not None
        counts = batch.run(100_000, 7, [policy])
        lo, hi = wilson(sum(e[0] for e in expected), len(expected), Z)
        klo, khi = wilson(counts.wins[0], counts.games, Z)
        assert klo <= hi and lo <= khi, (policy, players, (lo, hi), (klo, khi))
    assert total >= 10_000


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_same_games_with_another_component_set(policy: str, tmp_path: Path) -> None:
    path = variant(tmp_path)
    for players in (1, 3):
        expected, got = engine_and_kernel(path, players, policy, 5, 500)
        assert got == expected


def test_batches_of_any_size_give_the_same_counts() -> None:
    batch = registry.get("thermopyles").batch_simulator({"players": 2})
    assert batch is not None
    whole = batch.run(3_000, 11, ["heuristic"])
    parts = batch.run(1_000, 11, ["heuristic"]) + batch.run(2_000, 11, ["heuristic"], start=1_000)
    assert isinstance(whole, BatchCounts)
    assert whole == parts
    assert whole.games == 3_000 == sum(whole.reasons.values())
    assert batch.run(3_000, 12, ["heuristic"]) != whole  # another seed, other games


def test_one_policy_per_seat_and_unknown_policies() -> None:
    batch = registry.get("thermopyles").batch_simulator({"players": 2})
    assert batch is not None
    assert batch.policies == ("random", "heuristic")
    mixed = batch.run(2_000, 3, ["heuristic", "random"])
    assert mixed.games == 2_000
    with pytest.raises(ValueError, match="plays random and heuristic, not ismcts"):
        batch.run(10, 3, ["ismcts"])
    with pytest.raises(ValueError, match="3 policies for 2 seats"):
        batch.run(10, 3, ["random"] * 3)
