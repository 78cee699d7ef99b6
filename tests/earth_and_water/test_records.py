"""Earth & Water game records (like PGN) and positions (like FEN): a game played by the
simulator replays, a record saved mid-game replays to the same state, and a tampered
record is refused with the number of the first bad step."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests.earth_and_water.helpers import position
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
from thermopylae.games.earth_and_water import game as ew_game
from thermopylae.games.earth_and_water.actions import CHANCE_ACTIONS
from thermopylae.games.earth_and_water.rules import EarthAndWater
from thermopylae.sim.match import play, rngs

GAME = ew_game()


@pytest.fixture
def game() -> EarthAndWater:
    return GAME


def recorded(
    game: EarthAndWater,
    seed: int,
    stop: int | None = None,
    agents: tuple[str, str] = ("random", "random"),
    start: Any = None,
    options: dict[str, Any] | None = None,
) -> tuple[Record, Any]:
    """A game played (up to `stop` steps) with its record, closed at the state reached."""
    options = game.options(options or {})
    rng = random.Random(seed)
    players = [make_agent(a, game) for a in agents]
    rec = Record.begin(game, options, seed, start)
    s = game.new(options) if start is None else game.copy(start)
    while (seat := game.to_act(s)) is not None and (stop is None or len(rec.steps) < stop):
        a = game.sample_chance(s, rng) if seat == CHANCE else players[seat].act(game, s, rng)
        rec.add(seat_name(game, options, seat), game.format(a))
        game.apply(s, a, quiet=True)
    rec.close(game, s)
    return rec, s


# -- a whole game from the simulator ------------------------------------------------------


@pytest.mark.parametrize(
    ("persia", "greece", "seed", "cheap"),
    [
        ("random", "random", 1, False),
        ("random", "random", 2, True),
        ("heuristic", "random", 3, False),
        ("random", "heuristic", 4, False),
        ("heuristic", "heuristic", 5, True),
    ],
)
def test_simulator_game_record_replays(
    game: EarthAndWater, tmp_path: Path, persia: str, greece: str, seed: int, cheap: bool
) -> None:
    options = game.options({"cheap_fleets": cheap})
    rec = Record.begin(game, options, seed=seed)
    agents = [make_agent(persia, game), make_agent(greece, game)]
    state, steps = play(game, options, agents, *rngs(seed, 0), record=rec)
    outcome = game.outcome(state)
    assert outcome is not None
    assert len(rec.steps) == steps
    assert rec.final == state_digest(game, state)
    assert rec.outcome == outcome.to_json()
    data = json.loads(json.dumps(rec.to_json()))
    assert data["format"] == "thermopylae-record" and data["version"] == 1
    assert data["game"] == "earth-and-water"
    assert data["components"] == game.components_digest
    assert data["seats"] == ["persia", "greece"]
    assert data["options"] == {"cheap_fleets": cheap}
    assert {who for who, _ in data["steps"]} == {"persia", "greece", "chance"}
    loaded = roundtrip(rec, tmp_path)
    assert loaded == rec
    report = replay(game, loaded)
    assert report.ok, report.problems
    assert report.problems == []
    assert report.steps_checked == steps
    assert report.outcome == outcome
    assert state_digest(game, report.state) == state_digest(game, state)
    assert game.state_to_json(report.state) == game.state_to_json(state)
    assert isinstance(load_any(tmp_path / "game.json"), Record)


def test_every_step_of_a_record_is_in_notation(game: EarthAndWater) -> None:
    rec, _ = recorded(game, seed=7)
    for who, text in rec.steps:
        a = game.parse(text)
        assert game.format(a) == text
        assert (who == "chance") == isinstance(a, CHANCE_ACTIONS)


# -- saved mid-game -------------------------------------------------------------------------


@pytest.mark.parametrize("fraction", [0.0, 0.1, 0.33, 0.5, 0.8, 0.99])
def test_record_saved_mid_game_replays_to_the_same_state(
    game: EarthAndWater, tmp_path: Path, fraction: float
) -> None:
    seed = 40 + int(fraction * 100)
    whole, _ = recorded(game, seed)
    stop = min(max(1, int(len(whole.steps) * fraction)), len(whole.steps) - 1)
    rec, s = recorded(game, seed, stop=stop)
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
    other, _ = recorded(game, seed, stop=stop + 1)
    assert other.final != rec.final


def test_mid_game_position_saves_and_restores(game: EarthAndWater, tmp_path: Path) -> None:
    rec, s = recorded(game, seed=9, stop=120)
    path = tmp_path / "pos.json"
    Position.of(game, game.options({}), s).save(path)
    loaded = load_any(path)
    assert isinstance(loaded, Position)
    t = loaded.restore(game)
    assert game.state_to_json(t) == game.state_to_json(s)
    assert state_digest(game, t) == rec.final
    assert list(game.legal(t)) == list(game.legal(s))


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_record_that_starts_from_a_position_replays(
    game: EarthAndWater, tmp_path: Path, seed: int
) -> None:
    """A record begun from a position keeps it and replays from it (the game is in its
    last campaign, where Supply discards what is left of the hands)."""
    start = position(
        game,
        persia={"Abydos": (4, 1), "Ephesos": (3, 2), "Pella": (2, 0)},
        greece={"Athenai": (2, 1), "Sparta": (2, 1), "Thebai": (1, 0)},
        hands=([16, 7, 2], [13, 8, 3, 1]),
        campaign=5,
        score=-1,
    )
    rec, s = recorded(game, seed, start=start)
    assert rec.start == game.state_to_json(start)
    assert game.outcome(s) is not None
    report = replay(game, roundtrip(rec, tmp_path))
    assert report.ok, report.problems
    assert game.state_to_json(report.state) == game.state_to_json(s)
    # the same steps from the standard opening do not replay
    rec.start = None
    assert not replay(game, rec).ok


def test_record_from_a_position_replays_when_the_hands_are_discarded(
    game: EarthAndWater, tmp_path: Path
) -> None:
    """The same, deterministically: both sides pass at once in the last campaign, so
    Supply discards both hands onto the (public, ordered) discard pile. The record must
    replay from its stored start to the very state the game reached: the order of the
    cards in a hand, which the position does not keep, must not matter."""
    start = position(
        game,
        persia={"Abydos": (4, 1), "Ephesos": (3, 2), "Pella": (2, 0)},
        greece={"Athenai": (2, 1), "Sparta": (2, 1), "Thebai": (1, 0)},
        hands=([16, 7, 2], [13, 8, 3, 1]),
        campaign=5,
        score=-1,
    )
    options = game.options({})
    rec = Record.begin(game, options, seed=1, start=start)
    s = game.copy(start)
    while (seat := game.to_act(s)) is not None:
        a = game.parse("pass") if len(rec.steps) < 2 else game.legal(s)[0]
        rec.add(seat_name(game, options, seat), game.format(a))
        game.apply(s, a)
    rec.close(game, s)
    assert [t for _, t in rec.steps[:2]] == ["pass", "pass"]
    report = replay(game, roundtrip(rec, tmp_path))
    assert report.ok, report.problems
    assert game.state_to_json(report.state) == game.state_to_json(s)


# -- tampering ------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["first", "decision", "chance", "middle", "last"])
def test_changed_step_is_named(game: EarthAndWater, where: str) -> None:
    rec, _ = recorded(game, seed=21)
    n = len(rec.steps)
    k = {
        "first": 1,
        "decision": next(i for i, (w, _) in enumerate(rec.steps, 1) if w == "greece"),
        "chance": next(i for i, (w, _) in enumerate(rec.steps, 1) if w == "chance"),
        "middle": n // 2,
        "last": n,
    }[where]
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


@pytest.mark.parametrize("text", ["fly away", "roll 7", "draw 17", "to Babylon", "buy x", ""])
def test_unreadable_step_is_named(game: EarthAndWater, text: str) -> None:
    rec, _ = recorded(game, seed=3)
    rec.steps[4] = (rec.steps[4][0], text)
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == 4
    assert report.problems[0].startswith(f"step 5 ({rec.steps[4][0]}: {text}):")


def test_other_legal_step_does_not_replay(game: EarthAndWater) -> None:
    """The first step (how many cards Persia buys) replaced by another legal count: the
    replay goes astray at a later step, or ends in another state than the recorded one."""
    rec, _ = recorded(game, seed=31)
    first = game.new(game.options({}))
    counts = [game.format(a) for a in game.legal(first)]
    assert rec.steps[0][0] == "persia" and rec.steps[0][1] in counts
    rec.steps[0] = ("persia", next(c for c in counts if c != rec.steps[0][1]))
    report = replay(game, rec)
    assert not report.ok
    assert len(report.problems) == 1
    assert (
        report.problems[0].startswith("step ") and report.steps_checked > 0
    ) or "final state differs" in report.problems[0], report.problems


def test_swapped_who_is_named(game: EarthAndWater) -> None:
    rec, _ = recorded(game, seed=8)
    k = next(i for i, (who, _) in enumerate(rec.steps, start=1) if who == "greece")
    rec.steps[k - 1] = ("persia", rec.steps[k - 1][1])
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == k - 1
    assert report.problems[0].startswith(f"step {k} (persia: ")
    assert "greece" in report.problems[0]


def test_chance_step_claimed_by_a_player_is_named(game: EarthAndWater) -> None:
    rec, _ = recorded(game, seed=4)
    k = next(i for i, (who, _) in enumerate(rec.steps, start=1) if who == "chance")
    rec.steps[k - 1] = ("persia", rec.steps[k - 1][1])
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == k - 1
    assert report.problems[0].startswith(f"step {k} (persia: draw")
    assert "chance" in report.problems[0]


def test_step_after_the_end_is_named(game: EarthAndWater) -> None:
    rec, _ = recorded(game, seed=6)
    n = len(rec.steps)
    rec.steps.append(("persia", "pass"))
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == n
    assert report.problems[0].startswith(f"step {n + 1} (persia: pass):")
    assert "over" in report.problems[0]


def test_cut_record_does_not_reach_its_final_state(game: EarthAndWater) -> None:
    rec, _ = recorded(game, seed=10)
    rec.steps = rec.steps[:-1]
    report = replay(game, rec)
    assert not report.ok
    assert report.steps_checked == len(rec.steps)
    assert any("final state differs" in p for p in report.problems), report.problems


def test_changed_outcome_is_named(game: EarthAndWater) -> None:
    rec, _ = recorded(game, seed=10)
    assert rec.outcome is not None
    rec.outcome = dict(rec.outcome, reason="Sparta surrendered")
    report = replay(game, rec)
    assert not report.ok
    assert any("outcome differs" in p for p in report.problems), report.problems


def test_record_for_other_components_is_refused(game: EarthAndWater) -> None:
    rec, _ = recorded(game, seed=10, stop=30)
    rec.components = "0000000000000000"
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == 0
    assert "component set" in report.problems[0]
