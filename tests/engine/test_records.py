"""Game records (like PGN) and positions (like FEN): save, load, replay, and refuse
anything tampered with, naming what is wrong."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import position
from tests.record_helpers import refused_action, roundtrip, state_before
from thermopylae.ai.base import make_agent
from thermopylae.engine.errors import RecordError
from thermopylae.engine.protocol import CHANCE
from thermopylae.engine.record import (
    Position,
    Record,
    load_any,
    replay,
    seat_name,
    state_digest,
)
from thermopylae.games.thermopyles import game as thermopyles_game
from thermopylae.games.thermopyles.rules import Thermopyles

DEFAULT_TOML = (
    Path(__file__).parents[2] / "src" / "thermopylae" / "games" / "thermopyles" / "components.toml"
)


def recorded(
    game: Thermopyles,
    options: dict[str, Any],
    seed: int,
    stop: int | None = None,
    agent: str = "random",
    start: Any = None,
) -> tuple[Record, Any]:
    """A game played (up to `stop` steps) with its record, closed at the state reached."""
    options = game.options(options)
    rng = random.Random(seed)
    player = make_agent(agent, game)
    rec = Record.begin(game, options, seed, start)
    s = game.new(options) if start is None else game.copy(start)
    while (seat := game.to_act(s)) is not None and (stop is None or len(rec.steps) < stop):
        a = game.sample_chance(s, rng) if seat == CHANCE else player.act(game, s, rng)
        rec.add(seat_name(game, options, seat), game.format(a))
        game.apply(s, a, quiet=True)
    rec.close(game, s)
    return rec, s


# -- saving and replaying -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "fraction"), [(1, 0.0), (1, 0.2), (1, 0.6), (2, 0.5), (3, 0.7), (4, 0.99)]
)
def test_record_saved_mid_game_replays_to_the_same_state(
    game: Thermopyles, tmp_path: Path, players: int, fraction: float
) -> None:
    seed = players * 100 + int(fraction * 100)
    whole, _ = recorded(game, {"players": players}, seed)
    stop = min(max(1, int(len(whole.steps) * fraction)), len(whole.steps) - 1)
    rec, s = recorded(game, {"players": players}, seed, stop=stop)
    assert game.to_act(s) is not None and len(rec.steps) == stop
    assert rec.outcome is None
    loaded = roundtrip(rec, tmp_path)
    assert loaded == rec
    report = replay(game, loaded)
    assert report.ok, report.problems
    assert report.problems == []
    assert report.steps_checked == stop
    assert report.outcome is None
    assert state_digest(game, report.state) == state_digest(game, s)
    assert game.state_to_json(report.state) == game.state_to_json(s)
    # a different state would not match
    other, _ = recorded(game, {"players": players}, seed, stop=stop + 1)
    assert other.final != rec.final


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("agent", ["random", "heuristic"])
def test_full_game_record_replays(
    game: Thermopyles, tmp_path: Path, players: int, agent: str
) -> None:
    rec, s = recorded(
        game, {"players": players, "open_hands": players == 3}, seed=players, agent=agent
    )
    outcome = game.outcome(s)
    assert outcome is not None
    assert rec.outcome == outcome.to_json()
    assert rec.final == state_digest(game, s)
    data = json.loads(json.dumps(rec.to_json()))
    assert data["format"] == "thermopylae-record" and data["version"] == 1
    assert data["game"] == "thermopyles" and data["components"] == game.components_digest
    assert all(isinstance(step, list) and len(step) == 2 for step in data["steps"])
    report = replay(game, roundtrip(rec, tmp_path))
    assert report.ok, report.problems
    assert report.steps_checked == len(rec.steps)
    assert report.outcome == outcome
    assert isinstance(load_any(tmp_path / "game.json"), Record)


def test_record_written_by_the_simulator_replays(game: Thermopyles) -> None:
    from thermopylae.sim.match import play, rngs

    options = game.options({"players": 2})
    rec = Record.begin(game, options, seed=11)
    agents = [make_agent("heuristic", game) for _ in range(2)]
    state, steps = play(game, options, agents, *rngs(11, 0), record=rec)
    assert len(rec.steps) == steps
    report = replay(game, Record.from_json(json.loads(json.dumps(rec.to_json()))))
    assert report.ok, report.problems
    assert state_digest(game, report.state) == state_digest(game, state)


def test_record_that_starts_from_a_position_replays(game: Thermopyles, tmp_path: Path) -> None:
    start = position(game, hands=[[10, 14], [17, 20]], marker=3, support=2)
    rec, s = recorded(game, {"players": 2}, seed=5, start=start)
    assert rec.start == game.state_to_json(start)
    report = replay(game, roundtrip(rec, tmp_path))
    assert report.ok, report.problems
    assert game.state_to_json(report.state) == game.state_to_json(s)
    # the same steps from the standard opening do not replay
    rec.start = None
    assert not replay(game, rec).ok


# -- tampering ------------------------------------------------------------------------------


@pytest.mark.parametrize("where", [1, 3, 0.5, -1])
def test_changed_step_is_named(game: Thermopyles, where: float) -> None:
    rec, _ = recorded(game, {"players": 2}, seed=21)
    n = len(rec.steps)
    k = int(where) if where >= 1 else (n if where == -1 else int(n * where))
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


@pytest.mark.parametrize("text", ["fly away", "roll 7", "draw 9", "reveal 99/99", ""])
def test_unreadable_step_is_named(game: Thermopyles, text: str) -> None:
    rec, _ = recorded(game, {"players": 1}, seed=3)
    rec.steps[4] = (rec.steps[4][0], text)
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == 4
    assert report.problems[0].startswith(f"step 5 (chance: {text}):")


def test_swapped_who_is_named(game: Thermopyles) -> None:
    rec, _ = recorded(game, {"players": 2}, seed=8)
    k = next(i for i, (who, _) in enumerate(rec.steps, start=1) if who == "p2")
    rec.steps[k - 1] = ("p1", rec.steps[k - 1][1])
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == k - 1
    assert report.problems[0].startswith(f"step {k} (p1: ")
    assert "p2" in report.problems[0]


def test_chance_step_claimed_by_a_player_is_named(game: Thermopyles) -> None:
    rec, _ = recorded(game, {"players": 1}, seed=4)
    rec.steps[0] = ("p1", rec.steps[0][1])
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == 0
    assert report.problems[0].startswith("step 1 (p1: reveal")
    assert "chance" in report.problems[0]


def test_step_after_the_end_is_named(game: Thermopyles) -> None:
    rec, _ = recorded(game, {"players": 1}, seed=6)
    n = len(rec.steps)
    rec.steps.append(("p1", "retreat"))
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == n
    assert report.problems[0].startswith(f"step {n + 1} (p1: retreat):")
    assert "over" in report.problems[0]


def test_missing_last_step_is_caught(game: Thermopyles) -> None:
    rec, _ = recorded(game, {"players": 1}, seed=9)
    rec.steps.pop()
    report = replay(game, rec)
    assert not report.ok
    assert any("final state" in p for p in report.problems)


def test_tampered_final_digest_and_outcome_are_caught(game: Thermopyles) -> None:
    rec, _ = recorded(game, {"players": 1}, seed=10)
    assert rec.outcome is not None
    rec.final = "0" * 16
    report = replay(game, rec)
    assert not report.ok and report.problems == [
        "the final state differs from the one the record was saved with"
    ]
    rec2, _ = recorded(game, {"players": 1}, seed=10)
    assert rec2.outcome is not None
    flipped = "loss" if rec2.outcome["results"][0] == "win" else "win"
    rec2.outcome = {**rec2.outcome, "results": [flipped]}
    report = replay(game, rec2)
    assert not report.ok
    assert any("outcome differs" in p for p in report.problems)


def test_wrong_components_digest_is_refused(game: Thermopyles, tmp_path: Path) -> None:
    rec, _ = recorded(game, {"players": 1}, seed=12, stop=20)
    rec.components = "0123456789abcdef"
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == 0
    assert "component set 0123456789abcdef" in report.problems[0]
    # a record made with the default set, replayed with another set
    rec2, _ = recorded(game, {"players": 1}, seed=12, stop=20)
    custom = tmp_path / "custom.toml"
    custom.write_text(
        DEFAULT_TOML.read_text().replace(
            "{ combat = 10, annihilation = 16 },", "{ combat = 10, annihilation = 15 },"
        )
    )
    other = thermopyles_game(custom)
    assert other.components_digest != game.components_digest
    report = replay(other, rec2)
    assert not report.ok and "--components" in report.problems[0]


def test_wrong_game_is_refused(game: Thermopyles) -> None:
    rec, _ = recorded(game, {"players": 1}, seed=12, stop=5)
    rec.game = "earth-and-water"
    report = replay(game, rec)
    assert not report.ok and "earth-and-water" in report.problems[0]


def test_seats_that_do_not_match_the_options_fail(game: Thermopyles) -> None:
    rec, _ = recorded(game, {"players": 2}, seed=13, stop=5)
    rec.seats = ["p1", "p2", "p3"]
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == 0
    assert "seats" in report.problems[0]


def test_bad_options_fail(game: Thermopyles) -> None:
    rec, _ = recorded(game, {"players": 2}, seed=13, stop=5)
    rec.options = {"players": 7, "open_hands": False}
    report = replay(game, rec)
    assert not report.ok
    assert "players" in report.problems[0]


def test_truncated_json_is_refused(game: Thermopyles, tmp_path: Path) -> None:
    rec, _ = recorded(game, {"players": 1}, seed=14)
    path = tmp_path / "cut.json"
    rec.save(path)
    text = path.read_text()
    path.write_text(text[: len(text) // 2])
    with pytest.raises(RecordError, match="not valid JSON"):
        Record.load(path)
    with pytest.raises(RecordError, match="not valid JSON"):
        load_any(path)


def test_unreadable_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        Record.load(tmp_path / "missing.json")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(RecordError):
        Record.load(binary)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"format": "thermopylae-recording"}, "format"),
        ({"format": None}, "format"),
        ({"version": 2}, "version"),
        ({"steps": [["chance", "reveal 16/21", "extra"]]}, "steps"),
        ({"steps": "retreat"}, "steps"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_malformed_record_is_refused(
    game: Thermopyles, tmp_path: Path, change: dict[str, Any], field: str
) -> None:
    rec, _ = recorded(game, {"players": 1}, seed=15, stop=10)
    data = {**rec.to_json(), **change}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match=field) as info:
        Record.load(path)
    assert str(path) in str(info.value)


def test_record_without_steps_is_refused(game: Thermopyles) -> None:
    rec, _ = recorded(game, {"players": 1}, seed=15, stop=10)
    data = rec.to_json()
    del data["steps"]
    with pytest.raises(RecordError, match="steps"):
        Record.from_json(data)
    with pytest.raises(RecordError):
        Record.from_json([1, 2, 3])


def test_position_file_passed_as_a_record_is_refused(game: Thermopyles, tmp_path: Path) -> None:
    _, s = recorded(game, {"players": 2}, seed=16, stop=30)
    path = tmp_path / "position.json"
    Position.of(game, game.options({"players": 2}), s).save(path)
    with pytest.raises(RecordError, match="position file, not a game record"):
        Record.load(path)
    rec_path = tmp_path / "record.json"
    recorded(game, {"players": 2}, seed=16, stop=30)[0].save(rec_path)
    with pytest.raises(RecordError, match="position"):
        Position.load(rec_path)


def test_record_with_a_corrupt_start_fails(game: Thermopyles) -> None:
    start = position(game, hands=[[10, 14, 20]])
    rec, _ = recorded(game, {"players": 1}, seed=17, start=start, stop=10)
    assert rec.start is not None
    rec.start["hands"] = [[10, 14, 20, 20]]
    report = replay(game, rec)
    assert not report.ok and report.steps_checked == 0
    assert "Spartan" in report.problems[0]


# -- positions ------------------------------------------------------------------------------


def states_in_every_phase(game: Thermopyles) -> dict[str, tuple[dict[str, Any], Any]]:
    found: dict[str, tuple[dict[str, Any], Any]] = {}
    for seed in range(400):
        options = game.options({"players": seed % 4 + 1, "open_hands": seed % 5 == 0})
        rng = random.Random(seed)
        s = game.new(options)
        while True:
            phase = game.view(s, None)["phase"]
            found.setdefault(phase, (options, game.copy(s)))
            seat = game.to_act(s)
            if seat is None:
                break
            a = game.sample_chance(s, rng) if seat == CHANCE else rng.choice(list(game.legal(s)))
            game.apply(s, a, quiet=True)
        if len(found) == 9:
            break
    return found


def test_positions_round_trip_in_every_phase(game: Thermopyles, tmp_path: Path) -> None:
    found = states_in_every_phase(game)
    assert set(found) == {
        "setup",
        "turn",
        "roll",
        "refill",
        "recipient",
        "full-hand",
        "draw",
        "discard",
        "over",
    }
    for phase, (options, s) in found.items():
        path = tmp_path / f"{phase}.json"
        Position.of(game, options, s).save(path)
        loaded = load_any(path)
        assert isinstance(loaded, Position)
        restored = loaded.restore(game)
        assert game.state_to_json(restored) == game.state_to_json(s), phase
        assert state_digest(game, restored) == state_digest(game, s)
        assert game.to_act(restored) == game.to_act(s)
        assert list(game.legal(restored)) == list(game.legal(s))
        # the game goes on from the restored state exactly as from the original
        a, b = game.copy(s), restored
        rng_a, rng_b = random.Random(1), random.Random(1)
        while (seat := game.to_act(a)) is not None:
            assert game.to_act(b) == seat
            pick = (
                game.sample_chance(a, rng_a)
                if seat == CHANCE
                else rng_a.choice(list(game.legal(a)))
            )
            pick_b = (
                game.sample_chance(b, rng_b)
                if seat == CHANCE
                else rng_b.choice(list(game.legal(b)))
            )
            assert pick == pick_b
            game.apply(a, pick)
            game.apply(b, pick)
        assert game.outcome(a) == game.outcome(b)


def edited_position(game: Thermopyles, tmp_path: Path, edit: Any) -> Path:
    s = position(
        game,
        hands=[[10, 14], [17, 20]],
        slots=("13/19", "16/21"),
        graveyard=["10/16"],
        pdiscard=["12/18"],
    )
    path = tmp_path / "edited.json"
    Position.of(game, game.options({"players": 2}), s).save(path)
    data = json.loads(path.read_text())
    edit(data["state"])
    path.write_text(json.dumps(data, indent=1))
    return path


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda st: st["hands"][0].append(20), ["Spartan", "extra: 20"]),
        (lambda st: st["hands"][1].append(14), ["Spartan", "extra: 14"]),
        (lambda st: st["spartan_deck"].append(st["spartan_deck"][0]), ["Spartan", "extra"]),
        (lambda st: st["graveyard"].append("16/21"), ["Persian", "extra: 16/21"]),
        (lambda st: st["persian_discard"].append(st["slots"][0]), ["Persian", "extra: 13/19"]),
        (lambda st: st["hands"][0].remove(10), ["Spartan", "missing: 10"]),
        (lambda st: st["persian_deck"].pop(), ["Persian", "missing"]),
        (lambda st: st["graveyard"].append("99/99"), ["graveyard", "99/99"]),
        (lambda st: st.update(phase="lunch"), ["phase"]),
        (lambda st: st.update(active="p3"), ["active", "p3"]),
        (lambda st: st.update(marker=9), ["marker"]),
        (lambda st: st.update(support=5), ["support"]),
        (lambda st: st.update(hands=[[10, 14]]), ["hands"]),
        (lambda st: st.update(result="win"), ["result"]),
        (lambda st: st.pop("turn"), ["turn"]),
    ],
)
def test_hand_edited_position_is_refused_naming_the_problem(
    game: Thermopyles, tmp_path: Path, edit: Any, words: list[str]
) -> None:
    path = edited_position(game, tmp_path, edit)
    loaded = Position.load(path)
    with pytest.raises(RecordError) as info:
        loaded.restore(game)
    for word in words:
        assert word in str(info.value)


def test_unedited_position_loads(game: Thermopyles, tmp_path: Path) -> None:
    path = edited_position(game, tmp_path, lambda st: None)
    s = Position.load(path).restore(game)
    assert s.hands == [[10, 14], [17, 20]]


def test_position_from_another_component_set_is_refused(game: Thermopyles, tmp_path: Path) -> None:
    path = edited_position(game, tmp_path, lambda st: None)
    data = json.loads(path.read_text())
    data["components"] = "ffffffffffffffff"
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match="component set"):
        Position.load(path).restore(game)


def test_position_with_an_empty_slot_in_a_turn_is_refused_or_plays_consistently(
    game: Thermopyles, tmp_path: Path
) -> None:
    """A hand-edited position may leave slot 2 empty during a turn (which play never
    reaches). Either the loader refuses it, or the rules must still keep every card
    accounted for when the active player fights."""

    def empty_slot_2(st: dict[str, Any]) -> None:
        st["persian_deck"].append(st["slots"][1])
        st["slots"][1] = None

    path = edited_position(game, tmp_path, empty_slot_2)
    try:
        s = Position.load(path).restore(game)
    except RecordError as exc:
        assert "slot" in str(exc)
        return
    # p1 charges with 14 and every support card, and rolls four 6s: a total of 38
    assert game.parse("fight 14 support 4") in game.legal(s)
    for text in ("fight 14 support 4", "roll 6", "roll 6", "roll 6", "roll 6"):
        game.apply(s, game.parse(text))
    game.state_from_json(game.state_to_json(s))  # still a consistent position
