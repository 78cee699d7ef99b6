"""The benchmarks' reference loop (`sim/reference.py`) plays the same game as the engine:
the same random sources give the same games, and, on independent sources, win rates and
game lengths agree within their 95% intervals."""

from __future__ import annotations

import json
import math
import random

import pytest

from tests.cli_helpers import run
from thermopylae.ai.base import make_agent
from thermopylae.engine import registry
from thermopylae.sim import reference
from thermopylae.sim.bench import Yardstick, compare, ismcts_compare
from thermopylae.sim.match import play_indexed, rngs
from thermopylae.sim.stats import wilson

Z = 1.959964  # 95%


def engine_games(players: int, games: int, seed: int) -> list[tuple[bool, int]]:
    game = registry.get("thermopyles")
    options = game.options({"players": players})
    agents = [make_agent("random", game) for _ in range(players)]
    out = []
    for i in range(games):
        o = play_indexed(game, options, agents, seed, i).outcome
        out.append((o.results[0] == "win", o.turns))
    return out


def reference_games(players: int, games: int, seed: int) -> list[tuple[bool, int]]:
    deck = reference.Deck.of()
    return [reference.play(deck, players, *rngs(seed, i)) for i in range(games)]


def mean_and_variance(xs: list[int]) -> tuple[float, float]:
    m = sum(xs) / len(xs)
    return m, sum((x - m) ** 2 for x in xs) / (len(xs) - 1)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_same_random_sources_same_games(players: int) -> None:
    """Fed the engine's two random sources, the loop draws in the engine's order."""
    assert reference_games(players, 400, 5) == engine_games(players, 400, 5)


@pytest.mark.parametrize("players", [1, 4])
def test_win_rate_and_length_agree_with_the_engine(players: int) -> None:
    """Independent seeds: each difference lies within its own 95% interval (Wilson
    intervals overlap for the win rates; a normal interval of the difference of the means
    for the game lengths)."""
    n = 3000
    engine = engine_games(players, n, seed=11)
    ref = reference_games(players, n, seed=12)  # another seed: independent games
    ew, rw = sum(w for w, _ in engine), sum(w for w, _ in ref)
    e_lo, e_hi = wilson(ew, n)
    r_lo, r_hi = wilson(rw, n)
    assert e_lo <= r_hi and r_lo <= e_hi, (ew, rw)
    # the difference of the rates within its interval too
    pe, pr = ew / n, rw / n
    assert abs(pe - pr) <= Z * math.sqrt(pe * (1 - pe) / n + pr * (1 - pr) / n) + 1 / n
    me, ve = mean_and_variance([t for _, t in engine])
    mr, vr = mean_and_variance([t for _, t in ref])
    assert abs(me - mr) <= Z * math.sqrt(ve / n + vr / n), (me, mr)


def test_same_seed_same_result() -> None:
    deck = reference.Deck.of()
    for players in (1, 3):
        a = [reference.play(deck, players, *rngs(3, i)) for i in range(50)]
        b = [reference.play(deck, players, *rngs(3, i)) for i in range(50)]
        assert a == b
        assert len(set(a)) > 1  # the games differ from one another


def test_run_counts_games_and_cpu_seconds() -> None:
    rate = reference.run(0.05, rng=random.Random(1))
    assert rate.games > 0 and rate.seconds >= 0.05
    assert rate.games_per_second == rate.games / rate.seconds


def test_bench_compares_each_figure_with_the_reference_of_its_round() -> None:
    game = registry.get("thermopyles")
    options = game.options({"players": 2})
    stick = Yardstick.of(game, options)
    assert stick.players == 2  # Thermopyles: the reference at the table's size
    assert Yardstick.of(registry.get("hot-gates"), {"players": 2}).players == 1
    (f,) = compare(game, ["random"], options, seconds=0.15, rounds=3, yardstick=stick)
    assert len(f.ratios) == 3 and min(f.ratios) <= f.ratio <= max(f.ratios)
    assert f.result.games > 0 and f.reference.games > 0
    data = f.to_json()
    assert data["ratio"] == f.ratio and data["reference_games_per_second"] > 0
    rates = ismcts_compare(game, options, 0.15, positions=2, yardstick=stick)
    assert len(rates) == 2 and all(r > 0 and x > 0 for r, x in rates)


def test_bench_command_prints_the_ratios() -> None:
    r = run("bench", "thermopyles", "--seconds", "0.2", "--agents", "random", "--no-ismcts")
    assert r.returncode == 0, r.stderr
    assert "Reference: a tight Python loop" in r.stdout and "× reference" in r.stdout
    r = run("bench", "thermopyles", "--seconds", "0.2", "--rounds", "2", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["reference"]["games_per_second"] > 0 and data["rounds"] == 2
    assert [p["agent"] for p in data["playouts"]] == ["random", "heuristic"]
    assert all(len(p["ratios"]) == 2 for p in data["playouts"])
    assert len(data["ismcts"]["ratios"]) == 3
