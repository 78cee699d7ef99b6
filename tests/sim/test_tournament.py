"""Tournaments: the pairings, the same results whatever the workers, the tallies."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from thermopylae.engine.errors import ThermopylaeError
from thermopylae.sim.simulate import simulate
from thermopylae.sim.tournament import pairing_seed, pairings, parse_agents, tournament

ISMCTS = "ismcts:iterations=20"


def test_two_seats_three_agents_every_ordered_pair_once() -> None:
    plan = pairings(("persia", "greece"), ["a", "b", "c"], cooperative=False, seed=1)
    assert len(plan) == 6
    assert {p.agents for p in plan} == {
        ("a", "b"),
        ("b", "a"),
        ("a", "c"),
        ("c", "a"),
        ("b", "c"),
        ("c", "b"),
    }
    assert [p.number for p in plan] == list(range(6))
    for seat in range(2):  # each agent on each seat equally often
        assert Counter(p.agents[seat] for p in plan) == {"a": 2, "b": 2, "c": 2}
    assert len({p.seed for p in plan}) == 6
    assert all(p.seed == pairing_seed(1, p.agents) for p in plan)


def test_more_seats_than_agents_every_assignment_but_self_play() -> None:
    plan = pairings(("persia", "sparta-a", "sparta-b"), ["a", "b"], cooperative=False, seed=0)
    assert len(plan) == 2**3 - 2
    assert ("a", "a", "a") not in {p.agents for p in plan}
    for seat in range(3):
        assert Counter(p.agents[seat] for p in plan) == {"a": 3, "b": 3}
    four = pairings(("1", "2", "3", "4"), ["a", "b", "c"], cooperative=False, seed=0)
    assert len(four) == 3**4 - 3


def test_cooperative_every_agent_alone_on_the_same_seed() -> None:
    plan = pairings(("p1", "p2"), ["a", "b", "c"], cooperative=True, seed=7)
    assert [p.agents for p in plan] == [("a", "a"), ("b", "b"), ("c", "c")]
    assert {p.seed for p in plan} == {7}


def test_pairing_seeds_are_stable_and_depend_on_seed_and_agents() -> None:
    assert pairing_seed(1, ["a", "b"]) == pairing_seed(1, ("a", "b"))
    assert pairing_seed(1, ["a", "b"]) == 109137563658514  # the same in every process
    assert pairing_seed(1, ["a", "b"]) != pairing_seed(1, ["b", "a"])
    assert pairing_seed(1, ["a", "b"]) != pairing_seed(2, ["a", "b"])
    assert 0 <= pairing_seed(-5, ["a", "b"]) < 2**48


def test_parse_agents() -> None:
    assert parse_agents("random, heuristic") == ["random", "heuristic"]
    assert parse_agents("random,ismcts:iterations=20,c=1.4,heuristic") == [
        "random",
        "ismcts:iterations=20,c=1.4",
        "heuristic",
    ]
    for bad, words in [
        ("random", "at least two"),
        ("random,random", "twice"),
        ("c=1,random", "parameter"),
        ("random,,heuristic", "empty"),
        ("ismcts:iterations=20,ismcts:iterations=20", "twice"),
    ]:
        with pytest.raises(ThermopylaeError, match=words):
            parse_agents(bad)


def _same(a: object, b: object) -> None:
    assert a == b


@pytest.mark.parametrize(
    "game_id, agents, games, options",
    [
        ("earth-and-water", ["random", "heuristic"], 6, {}),
        ("thermopyles", ["random", "heuristic", ISMCTS], 8, {"players": 2}),
        ("hot-gates", ["random", "heuristic"], 2, {"players": 3}),
    ],
)
def test_same_results_with_one_or_two_workers(
    game_id: str, agents: list[str], games: int, options: dict[str, int]
) -> None:
    one = tournament(game_id, agents, games, options, seed=5, workers=1)
    two = tournament(game_id, agents, games, options, seed=5, workers=2)
    assert one.rows == two.rows
    assert one.ratings == two.ratings
    one_json, two_json = one.to_json(), two.to_json()
    for key in ("seconds", "games_per_second", "workers"):
        del one_json[key], two_json[key]
    assert one_json == two_json
    assert one.total_games == len(one.pairings) * games
    assert all(len(rows) == games for rows in one.rows)
    assert all([r.index for r in rows] == list(range(games)) for rows in one.rows)


def test_tallies_of_a_game_with_sides() -> None:
    t = tournament("earth-and-water", ["random", "heuristic"], 5, {}, seed=3, workers=1)
    assert not t.cooperative and len(t.pairings) == 2
    results = {a.agent: a for a in t.agent_results()}
    for a in results.values():
        assert a.overall.games == 10  # 2 pairings x 5 games, one seat each
        assert set(a.seats) == {"persia", "greece"}
        assert sum(s.games for s in a.seats.values()) == 10
        assert sum(s.wins for s in a.seats.values()) == a.overall.wins
        lo, hi = a.overall.ci95
        assert lo <= a.overall.win_rate <= hi
    decided = sum(a.overall.wins for a in results.values())
    draws = sum(r.results[0] == "draw" for rows in t.rows for r in rows)
    assert decided + draws == 10
    assert results["heuristic"].overall.wins > results["random"].overall.wins
    ratings = {r.agent: r for r in t.ratings}
    assert ratings["heuristic"].rating > ratings["random"].rating
    assert ratings["heuristic"].rating == pytest.approx(-ratings["random"].rating)
    units, strata = t.comparisons()
    assert len(units) == 10 and sorted(set(strata)) == [0, 1]
    data = t.to_json()
    assert data["games"] == 10 and set(data["results"]) == set(data["ratings"])
    assert [p["agents"] for p in data["pairings"]] == [
        {"persia": "random", "greece": "heuristic"},
        {"persia": "heuristic", "greece": "random"},
    ]


def test_a_cooperative_tournament_is_one_simulate_run_per_agent() -> None:
    agents = ["random", "heuristic"]
    t = tournament("thermopyles", agents, 40, {}, seed=9, workers=1)
    assert t.cooperative
    results = {a.agent: a for a in t.agent_results()}
    for agent in agents:
        s = simulate("thermopyles", agent, 40, {}, seed=9, workers=1)
        assert results[agent].overall.wins == s.wins
        assert results[agent].overall.games == 40
        assert results[agent].seats == {}
    units, strata = t.comparisons()
    assert len(units) == 40 and set(strata) == {0}  # one unit per deal
    assert all(len(u) == 1 for u in units)  # two agents: one comparison per deal


def test_out_lines_of_a_tournament(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    t = tournament("earth-and-water", ["random", "heuristic"], 3, {}, seed=4, workers=1, out=out)
    lines = out.read_text().splitlines()
    assert len(lines) == t.total_games == 6


def test_bad_agent_and_backend() -> None:
    with pytest.raises(ThermopylaeError, match="unknown agent"):
        tournament("thermopyles", ["random", "wizard"], 2, {})
    with pytest.raises(ThermopylaeError, match="backend"):
        tournament("thermopyles", ["random", "heuristic"], 2, {}, backend="carrier-pigeon")
    with pytest.raises(ThermopylaeError, match="address"):
        tournament("thermopyles", ["random", "heuristic"], 2, {}, address="127.0.0.1:1")
