"""300: The Board Game records (like PGN) and positions (like FEN), for 2, 3 and 4 players:
a game played by the simulator replays, a record saved mid-game replays to the same
state, a record may start from a saved position, and a tampered record is refused with
the number of the first bad step."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests.record_helpers import refused_action, roundtrip, state_before
from thermopylae.ai.base import make_agent
from thermopylae.engine.protocol import CHANCE
from thermopylae.engine.record import (
    Position,
    Record,
    load_any,
    replay,
    seat_name,
    state_digest,
)
from thermopylae.games.hot_gates import game as hot_gates_game
from thermopylae.games.hot_gates.actions import Draw, Roll
from thermopylae.games.hot_gates.rules import HotGates
from thermopylae.sim.match import play, rngs

GAME = hot_gates_game()
SEATS = {
    2: ["persia", "sparta"],
    3: ["persia", "sparta-a", "sparta-b"],
    4: ["persia-a", "persia-b", "sparta-a", "sparta-b"],
}


@pytest.fixture
def game() -> HotGates:
    return GAME


def recorded(
    game: HotGates,
    seed: int,
    players: int = 2,
    stop: int | None = None,
    agent: str = "random",
    start: Any = None,
) -> tuple[Record, Any]:
    """A game played (up to `stop` steps) with its record, closed at the state reached."""
    options = game.options({"players": players})
    rng = random.Random(seed)
    agents = [make_agent(agent, game) for _ in range(players)]
    rec = Record.begin(game, options, seed, start)
    s = game.new(options) if start is None else game.copy(start)
    while (seat := game.to_act(s)) is not None and (stop is None or len(rec.steps) < stop):
        a = game.sample_chance(s, rng) if seat == CHANCE else agents[seat].act(game, s, rng)
        rec.add(seat_name(game, options, seat), game.format(a))
        game.apply(s, a, quiet=True)
    rec.close(game, s)
    return rec, s


# -- whole games from the simulator -----------------------------------------------------


@pytest.mark.parametrize(
    ("players", "agent", "seed"),
    [
        (2, "random", 1),
        (2, "heuristic", 2),
        (3, "random", 3),
        (3, "heuristic", 4),
        (4, "random", 5),
        (4, "heuristic", 6),
    ],
)
def test_simulator_game_record_replays(
    game: HotGates, tmp_path: Path, players: int, agent: str, seed: int
) -> None:
    options = game.options({"players": players})
    rec = Record.begin(game, options, seed=seed)
    agents = [make_agent(agent, game) for _ in range(players)]
    state, steps = play(game, options, agents, *rngs(seed, 0), record=rec)
    outcome = game.outcome(state)
    assert outcome is not None
    assert len(rec.steps) == steps
    assert rec.final == state_digest(game, state)
    assert rec.outcome == outcome.to_json()
    data = json.loads(json.dumps(rec.to_json()))
    assert data["format"] == "thermopylae-record" and data["version"] == 1
    assert data["game"] == "hot-gates"
    assert data["components"] == game.components_digest
    assert data["seats"] == SEATS[players]
    assert data["options"] == {"players": players}
    who = {w for w, _ in data["steps"]}
    assert "chance" in who and who <= {*SEATS[players], "chance"}
    assert len(who) >= 3  # chance and both sides at least
    loaded = roundtrip(rec, tmp_path)
    assert loaded == rec
    report = replay(game, loaded)
    assert report.ok, report.problems
    assert report.problems == []
    assert report.steps_checked == steps
    assert report.outcome == outcome
    assert game.state_to_json(report.state) == game.state_to_json(state)
    assert isinstance(load_any(tmp_path / "game.json"), Record)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_step_of_a_record_is_in_notation(game: HotGates, players: int) -> None:
    rec, _ = recorded(game, seed=7, players=players)
    for who, text in rec.steps:
        a = game.parse(text)
        assert game.format(a) == text
        assert (who == "chance") == isinstance(a, Draw | Roll)
        assert who in ("chance", *SEATS[players])


# -- saved mid-game -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("fraction", [0.0, 0.2, 0.5, 0.99])
def test_record_saved_mid_game_replays_to_the_same_state(
    game: HotGates, tmp_path: Path, players: int, fraction: float
) -> None:
    seed = 40 + int(fraction * 100) + players
    whole, _ = recorded(game, seed, players)
    stop = min(max(1, int(len(whole.steps) * fraction)), len(whole.steps) - 1)
    rec, s = recorded(game, seed, players, stop=stop)
    assert game.to_act(s) is not None and len(rec.steps) == stop
    assert rec.outcome is None
    assert rec.steps == whole.steps[:stop]
    loaded = roundtrip(rec, tmp_path)
    assert loaded == rec
    report = replay(game, loaded)
    assert report.ok, report.problems
    assert report.steps_checked == stop
    assert report.outcome is None
    assert state_digest(game, report.state) == state_digest(game, s) == rec.final
    assert game.state_to_json(report.state) == game.state_to_json(s)
    # a different state would not match
    other, _ = recorded(game, seed, players, stop=stop + 1)
    assert other.final != rec.final


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mid_game_position_saves_and_restores(game: HotGates, tmp_path: Path, players: int) -> None:
    rec, s = recorded(game, seed=9, players=players, stop=150)
    options = game.options({"players": players})
    path = tmp_path / "pos.json"
    Position.of(game, options, s).save(path)
    loaded = load_any(path)
    assert isinstance(loaded, Position)
    assert loaded.seats == SEATS[players] and loaded.game == "hot-gates"
    t = loaded.restore(game)
    assert game.state_to_json(t) == game.state_to_json(s)
    assert state_digest(game, t) == rec.final
    assert set(game.legal(t)) == set(game.legal(s))
    assert game.to_act(t) == game.to_act(s)
    for seat in (None, *range(players)):
        assert game.view(t, seat) == game.view(s, seat)


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13)])
def test_record_that_starts_from_a_position_replays(
    game: HotGates, tmp_path: Path, players: int, seed: int
) -> None:
    """A record begun from a position met mid-game keeps it and replays from it; the same
    steps from the opening do not replay."""
    _, start = recorded(game, seed=seed + 100, players=players, stop=200)
    start = game.state_from_json(game.state_to_json(start))  # as a saved position would be
    rec, s = recorded(game, seed, players, start=start)
    assert rec.start == game.state_to_json(start)
    assert game.outcome(s) is not None
    report = replay(game, roundtrip(rec, tmp_path))
    assert report.ok, report.problems
    assert game.state_to_json(report.state) == game.state_to_json(s)
    rec.start = None
    assert not replay(game, rec).ok


# -- tampering ------------------------------------------------------------------------------


def _index(rec: Record, where: str, players: int) -> int:
    n = len(rec.steps)
    if where == "first":
        return 1
    if where == "decision":
        return next(i for i, (w, _) in enumerate(rec.steps, 1) if w == SEATS[players][-1])
    if where == "chance":
        return next(i for i, (w, t) in enumerate(rec.steps, 1) if t.startswith("roll"))
    if where == "middle":
        return n // 2
    return n


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("where", ["first", "decision", "chance", "middle", "last"])
def test_changed_step_is_named(game: HotGates, players: int, where: str) -> None:
    rec, _ = recorded(game, seed=21, players=players)
    k = _index(rec, where, players)
    who, _ = rec.steps[k - 1]
    before = state_before(game, rec, k)
    bad = refused_action(game, before)
    rec.steps[k - 1] = (who, bad)
    report = replay(game, rec)
    assert not report.ok
    assert report.steps_checked == k - 1
    assert state_digest(game, report.state) == state_digest(game, before)  # stopped there
    assert len(report.problems) == 1
    assert report.problems[0].startswith(f"step {k} ({who}: {bad}):"), report.problems


@pytest.mark.parametrize(
    "text",
    [
        "fly away",
        "roll 99",
        "draw s27",
        "play x1",
        "move A1-A6 immortal",
        "enter C1 beast",
        "casualty hoplite",
        "",
    ],
)
def test_unreadable_step_is_named(game: HotGates, text: str) -> None:
    rec, _ = recorded(game, seed=3, players=3)
    rec.steps[4] = (rec.steps[4][0], text)
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == 4
    assert report.problems[0].startswith(f"step 5 ({rec.steps[4][0]}: {text}):")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_another_card_drawn_does_not_replay(game: HotGates, players: int) -> None:
    """The first card drawn replaced by another card of the same deck: the replay goes
    astray at a later step, or ends in another state than the recorded one."""
    rec, _ = recorded(game, seed=31, players=players)
    first = game.new(game.options({"players": players}))
    draws = [game.format(a) for a, _ in game.chance(first)]
    assert rec.steps[0][0] == "chance" and rec.steps[0][1] in draws
    rec.steps[0] = ("chance", next(c for c in draws if c != rec.steps[0][1]))
    report = replay(game, rec)
    assert not report.ok
    assert len(report.problems) == 1
    assert (
        report.problems[0].startswith("step ") and report.steps_checked > 0
    ) or "final state differs" in report.problems[0], report.problems


@pytest.mark.parametrize("players", [2, 3, 4])
def test_swapped_who_is_named(game: HotGates, players: int) -> None:
    rec, _ = recorded(game, seed=8, players=players)
    persian, spartan = SEATS[players][0], SEATS[players][-1]
    k = next(i for i, (who, _) in enumerate(rec.steps, start=1) if who == spartan)
    rec.steps[k - 1] = (persian, rec.steps[k - 1][1])
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == k - 1
    assert report.problems[0].startswith(f"step {k} ({persian}: ")
    assert spartan in report.problems[0]


def test_chance_step_claimed_by_a_player_is_named(game: HotGates) -> None:
    rec, _ = recorded(game, seed=4, players=2)
    k = next(i for i, (who, t) in enumerate(rec.steps, start=1) if t.startswith("roll"))
    rec.steps[k - 1] = ("sparta", rec.steps[k - 1][1])
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == k - 1
    assert report.problems[0].startswith(f"step {k} (sparta: roll")
    assert "chance" in report.problems[0]


def test_decision_claimed_by_chance_is_named(game: HotGates) -> None:
    rec, _ = recorded(game, seed=4, players=4)
    k = next(i for i, (who, _) in enumerate(rec.steps, start=1) if who == "sparta-b")
    rec.steps[k - 1] = ("chance", rec.steps[k - 1][1])
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == k - 1
    assert report.problems[0].startswith(f"step {k} (chance: ")


@pytest.mark.parametrize("players", [2, 4])
def test_step_after_the_end_is_named(game: HotGates, players: int) -> None:
    rec, _ = recorded(game, seed=6, players=players)
    n = len(rec.steps)
    rec.steps.append((SEATS[players][0], "pass"))
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == n
    assert report.problems[0].startswith(f"step {n + 1} ({SEATS[players][0]}: pass):")
    assert "over" in report.problems[0]


def test_cut_record_does_not_reach_its_final_state(game: HotGates) -> None:
    rec, _ = recorded(game, seed=10, players=3)
    rec.steps = rec.steps[:-1]
    report = replay(game, rec)
    assert not report.ok
    assert report.steps_checked == len(rec.steps)
    assert any("final state differs" in p for p in report.problems), report.problems


def test_changed_outcome_is_named(game: HotGates) -> None:
    rec, _ = recorded(game, seed=10, players=4)
    assert rec.outcome is not None
    rec.outcome = dict(rec.outcome, results=["win"] * 4)
    report = replay(game, rec)
    assert not report.ok
    assert any("outcome differs" in p for p in report.problems), report.problems


def test_record_for_other_components_is_refused(game: HotGates) -> None:
    rec, _ = recorded(game, seed=10, stop=30)
    rec.components = "0000000000000000"
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == 0
    assert "component set" in report.problems[0]


def test_record_with_the_wrong_seats_is_refused(game: HotGates) -> None:
    rec, _ = recorded(game, seed=10, players=3, stop=30)
    rec.seats = SEATS[2]
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == 0
    assert "seats" in report.problems[0]
    rec.seats = SEATS[3]
    rec.options = {"players": 5}
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == 0
    assert "players" in report.problems[0]


def test_record_with_a_broken_start_is_refused(game: HotGates) -> None:
    _, start = recorded(game, seed=12, players=2, stop=60)
    rec, _ = recorded(game, seed=13, players=2, start=start, stop=20)
    assert rec.start is not None
    rec.start["board"]["A1"].append("hoplite")
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == 0
    assert "hoplite" in report.problems[0]
