"""The proof that the contract is complete (issue 17): the toy game of tests/toy, which
no module of thermopylae knows, is served and simulated like the shipped games once it
is registered. (Its learning interfaces: test_toy_learning.py.)"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.helpers import Api, play_random, serve_in_process, tokens_of, wait_until_over
from tests.toy import GAME_ID, Toy
from thermopylae.engine.record import Record, replay
from thermopylae.sim.match import replay_indexed
from thermopylae.sim.simulate import simulate

pytestmark = pytest.mark.usefixtures("toy_registered")


@pytest.fixture
def api(tmp_path: Path, toy_registered: Toy) -> Iterator[Api]:
    """A server in this process, started once the toy is registered."""
    yield from serve_in_process(f"sqlite:///{tmp_path / 'tables.db'}")


def test_the_server_lists_the_toy(api: Api) -> None:
    listed = {g["id"]: g for g in api.client.get("/api/games").json()}
    toy = listed[GAME_ID]
    assert toy["title"] == Toy.title
    assert (toy["min_players"], toy["max_players"]) == (2, 3)
    assert toy["seats"] == {"2": ["p1", "p2"], "3": ["p1", "p2", "p3"]}
    assert toy["cooperative"] is False


@pytest.mark.parametrize("players", [2, 3])
def test_a_human_plays_a_toy_table_against_the_ai_to_the_end(api: Api, players: int) -> None:
    """Created through POST /api/tables with one AI seat and the others human; the humans
    play through POST .../actions; the table ends with the engine's outcome, and its
    record replays."""
    seats = [{"kind": "ai", "level": "easy"}] + [{"kind": "human"}] * (players - 1)
    created = api.create(GAME_ID, {"players": players}, seats)
    assert [s["kind"] for s in created["seats"]] == [s["kind"] for s in seats]
    assert set(tokens_of(created)) == {f"p{k}" for k in range(2, players + 1)}
    last, played = play_random(api, created, random.Random(players))
    assert last["outcome"] is not None
    assert played, "the humans played"
    # what the human sees: its own hand, no other
    mine = api.view(created["id"], tokens_of(created)["p2"])
    hands = {h["seat"]: h["cards"] for h in mine["view"]["hands"]}
    assert all(cards is None for seat, cards in hands.items() if seat != "p2")
    # the record the server kept is a toy record that replays to the same outcome
    rec = Record.from_json(json.loads(json.dumps(api.record(created["id"]))))
    assert rec.game == GAME_ID and len(rec.steps) == 10 * 2
    report = replay(Toy(), rec)
    assert report.ok, report.problems
    assert report.outcome is not None
    assert report.outcome.to_json()["results"] == last["outcome"]["results"]


def test_an_ai_only_toy_table_plays_itself(api: Api) -> None:
    created = api.create(GAME_ID, {"players": 3}, [{"kind": "ai", "level": "easy"}] * 3)
    assert wait_until_over(api, created["id"])["outcome"] is not None


@pytest.mark.parametrize("players", [2, 3])
def test_the_simulator_plays_many_toy_games(players: int) -> None:
    summary = simulate(GAME_ID, "random", 200, {"players": players}, seed=3, workers=1)
    assert summary.game == GAME_ID and summary.games == 200
    assert set(summary.agents) == {f"p{k}" for k in range(1, players + 1)}
    assert isinstance(summary.wins, dict)
    assert sum(summary.wins.values()) + summary.draws <= 200
    assert summary.mean_turns == 10  # every card is played
    assert set(summary.reasons) <= {"the most points", "level on the most points"}
    # a game of the run can be played again, and its record replays
    rec = replay_indexed(Toy(), {"players": players}, ["random"] * players, 3, 17)
    assert replay(Toy(), rec).ok


def test_worker_processes_know_a_game_registered_at_run_time() -> None:
    """Spawned workers import only the shipped games; the registry hands them the toy."""
    one = simulate(GAME_ID, "random", 60, {"players": 2}, seed=4, workers=1)
    two = simulate(GAME_ID, "random", 60, {"players": 2}, seed=4, workers=2)
    assert (two.wins, two.draws, two.reasons) == (one.wins, one.draws, one.reasons)
