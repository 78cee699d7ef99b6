"""The command line, through the real entry point (a subprocess), as a user or a script
would run it: answers are piped in one per line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main

from tests.cli_helpers import flat, run
from tests.helpers import position
from thermopylae import cli
from thermopylae.engine.errors import ComponentError
from thermopylae.engine.record import Position
from thermopylae.games.thermopyles import components
from thermopylae.games.thermopyles import game as thermopyles_game

DEFAULT_TOML = (
    Path(__file__).parents[1] / "src" / "thermopylae" / "games" / "thermopyles" / "components.toml"
)


# -- listing and rules ----------------------------------------------------------------------


def test_games_lists_thermopyles() -> None:
    r = run("games")
    assert r.returncode == 0, r.stderr
    line = next(ln for ln in r.stdout.splitlines() if "thermopyles" in ln)
    assert "Thermopyles" in line and "1-4" in line


def test_module_entry_point() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "thermopylae", "games"], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0 and "thermopyles" in r.stdout


def test_rules_say_provisional() -> None:
    r = run("rules", "thermopyles")
    assert r.returncode == 0, r.stderr
    assert "PROVISIONAL" in r.stdout
    out = flat(r.stdout)
    assert "Spartan cards (20, total 300)" in out
    assert "Persian cards (28" in out


def test_rules_with_a_good_components_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        DEFAULT_TOML.read_text().replace(
            "{ combat = 10, annihilation = 16 },", "{ combat = 10, annihilation = 17 },"
        )
    )
    r = run("rules", "thermopyles", "--components", str(path))
    assert r.returncode == 0, r.stderr
    assert components.load(path).digest in flat(r.stdout)
    assert "10/17" in r.stdout


def test_rules_with_a_bad_components_file_lists_every_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    text = DEFAULT_TOML.read_text()
    text = text.replace("{ value = 10 }, { value = 10 }", "{ value = 9 }, { value = 10 }", 1)
    text = text.replace(
        "{ combat = 12, annihilation = 18 },", "{ combat = 12, annihilation = 11 },", 1
    )
    text = text.replace(
        'default_source = "provisional"', 'default_source = "provisional"\nedition = 2'
    )
    text = text.replace(
        '{ value = 20, source = "public-source" }', '{ value = 20, source = "a friend" }'
    )
    bad.write_text(text)
    with pytest.raises(ComponentError) as info:
        components.load(bad)
    problems = info.value.problems
    assert len(problems) == 4
    r = run("rules", "thermopyles", "--components", str(bad))
    assert r.returncode != 0
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    for problem in problems:  # each problem whole, on its own line
        assert f"  - {problem}" in lines, (problem, r.stderr)
    assert len([ln for ln in lines if ln.startswith("  - ")]) == 4


def test_rules_with_malformed_toml(tmp_path: Path) -> None:
    bad = tmp_path / "broken.toml"
    bad.write_text("title = \n")
    r = run("rules", "thermopyles", "--components", str(bad))
    assert r.returncode != 0
    assert "not valid TOML" in flat(r.stderr)


def test_agents_lists_random_and_heuristic() -> None:
    r = run("agents", "thermopyles")
    assert r.returncode == 0
    assert {"random", "heuristic"} <= set(r.stdout.split())


@pytest.mark.parametrize(
    "command", [[], ["games"], ["rules"], ["play"], ["replay"], ["simulate"], ["bench"], ["agents"]]
)
def test_help(command: list[str]) -> None:
    r = run(*command, "--help")
    assert r.returncode == 0, r.stderr
    assert "Usage" in r.stdout
    if command:
        assert command[0] in r.stdout


# -- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["play", "nogame"],
        ["rules", "nogame"],
        ["simulate", "nogame", "--games", "1"],
        ["bench", "nogame", "--seconds", "0.1"],
        ["agents", "nogame"],
    ],
)
def test_unknown_game(command: list[str]) -> None:
    r = run(*command)
    assert r.returncode != 0
    err = flat(r.stderr)
    assert "unknown game 'nogame'" in err and "thermopyles" in err
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("heuristic", ["SEAT=AGENT"]),
        ("p9=heuristic", ["p9", "p1"]),
        ("p1=wizard", ["unknown agent 'wizard'", "heuristic", "random"]),
        ("p1=heuristic:depth=3", ["heuristic", "depth"]),
        ("p1=random:x", ["key=value"]),
    ],
)
def test_bad_ai_spec(spec: str, words: list[str]) -> None:
    r = run("play", "thermopyles", "--seed", "1", "--ai", spec, answers=["quit"])
    assert r.returncode != 0
    err = flat(r.stderr)
    assert err.startswith("error:")
    for word in words:
        assert word in err
    assert "Traceback" not in r.stderr


def test_simulate_unknown_agent() -> None:
    r = run("simulate", "thermopyles", "--agent", "wizard", "--games", "2")
    assert r.returncode != 0
    assert "unknown agent 'wizard'" in flat(r.stderr)


def test_bad_option_values() -> None:
    r = run("play", "thermopyles", "--players", "5", "--seed", "1", answers=["quit"])
    assert r.returncode != 0
    assert "players" in flat(r.stderr)
    assert "Traceback" not in r.stderr


# -- playing, saving, replaying -----------------------------------------------------------


def test_ai_game_to_the_end_then_save_and_replay(tmp_path: Path) -> None:
    rec = tmp_path / "ai.json"
    r = run(
        "play",
        "thermopyles",
        "--seed",
        "3",
        "--ai",
        "p1=heuristic",
        answers=[f"save {rec}", "quit"],
    )
    assert r.returncode == 0, r.stderr
    assert "Game over:" in r.stdout
    assert f"Record saved to {rec}" in flat(r.stdout)
    data = json.loads(rec.read_text())
    assert data["outcome"] is not None and data["final"] is not None
    assert data["seed"] == 3
    rp = run("replay", str(rec))
    assert rp.returncode == 0, rp.stderr
    assert rp.stdout.startswith("OK:")
    assert f"{len(data['steps'])} steps replayed" in flat(rp.stdout)


def test_ai_table_of_four_with_record_option(tmp_path: Path) -> None:
    rec = tmp_path / "four.json"
    r = run(
        "play",
        "thermopyles",
        "--players",
        "4",
        "--seed",
        "8",
        "--record",
        str(rec),
        "--ai",
        "p1=heuristic",
        "--ai",
        "p2=random",
        "--ai",
        "p3=heuristic",
        "--ai",
        "p4=random",
        answers=["quit"],
    )
    assert r.returncode == 0, r.stderr
    assert "Game over:" in r.stdout
    data = json.loads(rec.read_text())
    assert data["seats"] == ["p1", "p2", "p3", "p4"]
    rp = run("replay", str(rec), "--verbose")
    assert rp.returncode == 0, rp.stderr
    assert "OK:" in rp.stdout
    assert f"   1 chance: {data['steps'][0][1]}" in rp.stdout


def human_answers() -> list[str]:
    """Fight with the weakest card whenever possible, else take the first choice."""
    return ["2", "1"] * 200


def test_human_solo_game_to_the_end_then_save_and_replay(tmp_path: Path) -> None:
    rec = tmp_path / "human.json"
    r = run(
        "play", "thermopyles", "--seed", "11", answers=[*human_answers(), f"save {rec}", "quit"]
    )
    assert r.returncode == 0, r.stderr
    out = flat(r.stdout)
    assert "Game over:" in out
    assert "The game is over: save FILE" in out  # answers after the end are not actions
    assert f"Record saved to {rec}" in out
    data = json.loads(rec.read_text())
    assert data["outcome"] is not None
    assert any(who == "p1" and text.startswith("fight") for who, text in data["steps"])
    rp = run("replay", str(rec))
    assert rp.returncode == 0, rp.stderr
    assert rp.stdout.startswith("OK:")
    assert data["outcome"]["results"][0] in flat(rp.stdout)


def test_human_three_player_game_to_the_end(tmp_path: Path) -> None:
    rec = tmp_path / "three.json"
    r = run(
        "play",
        "thermopyles",
        "--players",
        "3",
        "--seed",
        "12",
        answers=[*human_answers(), f"save {rec}", "quit"],
    )
    assert r.returncode == 0, r.stderr
    assert "Game over:" in r.stdout
    assert {"p1", "p2", "p3"} <= {who for who, _ in json.loads(rec.read_text())["steps"]}
    assert run("replay", str(rec)).returncode == 0


def test_tampered_record_fails_replay(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    run(
        "play",
        "thermopyles",
        "--seed",
        "3",
        "--ai",
        "p1=heuristic",
        answers=[f"save {rec}", "quit"],
    )
    data = json.loads(rec.read_text())
    k = next(i for i, (who, _) in enumerate(data["steps"]) if who == "p1")
    data["steps"][k][1] = "give p4"
    rec.write_text(json.dumps(data))
    r = run("replay", str(rec))
    assert r.returncode == 1
    assert r.stdout == ""
    assert flat(r.stderr).startswith(f"replay failed: step {k + 1} (p1: give p4)")


def test_replay_refuses_broken_files(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    run(
        "play",
        "thermopyles",
        "--seed",
        "3",
        "--ai",
        "p1=heuristic",
        answers=[f"save {rec}", "quit"],
    )
    good = rec.read_text()
    cut = tmp_path / "cut.json"
    cut.write_text(good[: len(good) // 3])
    r = run("replay", str(cut))
    assert r.returncode != 0 and "not valid JSON" in flat(r.stderr)
    data = json.loads(good)
    data["components"] = "0000000000000000"
    other = tmp_path / "other.json"
    other.write_text(json.dumps(data))
    r = run("replay", str(other))
    assert r.returncode != 0 and "component set" in flat(r.stderr)
    r = run("replay", str(tmp_path / "missing.json"))
    assert r.returncode != 0 and "cannot read" in flat(r.stderr)
    assert "Traceback" not in r.stderr


def test_illegal_and_unreadable_answers_are_refused(tmp_path: Path) -> None:
    game = thermopyles_game()
    options = game.options({"players": 2})
    start = tmp_path / "start.json"
    Position.of(game, options, position(game, hands=[[10, 14, 16], [11, 17, 20]])).save(start)
    rec, after = tmp_path / "r.json", tmp_path / "after.json"
    answers = [
        "fight 99",
        "fight 15 support 9",
        "fly away",
        "99",
        "0",
        "give p2",
        "fight 20",
        "",
        f"position {after}",
        f"save {rec}",
        "quit",
    ]
    r = run("play", "thermopyles", "--from", str(start), "--seed", "5", answers=answers)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    refusals = [i for i, ln in enumerate(lines) if ln.startswith("Refused")]
    assert len(refusals) == 7
    assert "Choose one of the legal actions" in r.stdout
    for i in refusals:  # each refusal is followed by the list of legal actions
        assert lines[i + 1] == "Legal actions:"
    out = flat(r.stdout)
    assert "p1 holds no 20 (hand: 10 14 16)" in out
    assert "there is no choice 99" in out and "there is no choice 0" in out
    assert "'give p2' is not legal now" in out
    assert "'fly away' is not a Thermopyles action" in out
    assert out.count("1) retreat") == len(refusals) + 4  # first ask, refusals, '', 2 saves
    # nothing changed: the position is the same, no step was recorded, no new table drawn
    assert Position.load(after).state == Position.load(start).state
    assert json.loads(rec.read_text())["steps"] == []
    assert out.count("turn 1") == 1 and "turn 2" not in out


def test_undo_takes_back_a_decision(tmp_path: Path) -> None:
    rec = tmp_path / "undo.json"
    answers = ["retreat", "undo", "undo", "fight 99", "retreat", "give p2", f"save {rec}", "quit"]
    r = run("play", "thermopyles", "--players", "2", "--seed", "5", answers=answers)
    assert r.returncode == 0, r.stderr
    out = flat(r.stdout)
    assert "Undone: retreat." in out
    assert "Nothing to undo" in out
    data = json.loads(rec.read_text())
    decisions = [(who, text) for who, text in data["steps"] if who != "chance"]
    assert decisions[:2] == [("p1", "retreat"), ("p1", "give p2")]
    assert [text for _, text in data["steps"]].count("retreat") == 1
    # the table after the undo is the one before the retreat (less the changed-line flag)
    boards = r.stdout.split("Thermopyles, 2 players, ")
    before, after = boards[1].split("\n")[1], boards[3].split("\n")[1]  # the map lines
    assert before[2:] == after[2:] and "[1]" in after
    assert after.startswith("* ") and before.startswith("  ")  # it changed again on undo
    assert run("replay", str(rec)).returncode == 0


def test_undo_after_a_card_is_revealed_is_refused(tmp_path: Path) -> None:
    rec = tmp_path / "r.json"
    r = run(
        "play", "thermopyles", "--seed", "4", answers=["retreat", "undo", f"save {rec}", "quit"]
    )
    assert r.returncode == 0
    assert "Nothing to undo" in r.stdout
    assert [t for _, t in json.loads(rec.read_text())["steps"]].count("retreat") == 1


def test_play_from_a_saved_position_continues(tmp_path: Path) -> None:
    pos = tmp_path / "pos.json"
    r = run(
        "play",
        "thermopyles",
        "--players",
        "2",
        "--seed",
        "5",
        answers=["retreat", "give p2", f"position {pos}", "quit"],
    )
    assert r.returncode == 0, r.stderr
    assert f"Position saved to {pos}" in flat(r.stdout)
    game = thermopyles_game()
    saved = Position.load(pos).restore(game)
    assert saved.marker == 2
    to_act = game.to_act(saved)
    assert to_act is not None
    rec = tmp_path / "cont.json"
    r2 = run(
        "play",
        "thermopyles",
        "--from",
        str(pos),
        "--seed",
        "9",
        answers=["retreat", f"save {rec}", "quit"],
    )
    assert r2.returncode == 0, r2.stderr
    board = r2.stdout.split("Legal actions:")[0]
    hand = " ".join(map(str, saved.hands[to_act]))
    assert f"Hand p{to_act + 1} (you): {hand} " in board
    assert f"turn {saved.turn + 1}" in board
    data = json.loads(rec.read_text())
    assert data["start"] == game.state_to_json(saved)
    assert data["steps"][0] == [f"p{to_act + 1}", "retreat"]
    rp = run("replay", str(rec))
    assert rp.returncode == 0, rp.stderr


def test_play_from_a_saved_record_continues(tmp_path: Path) -> None:
    first = tmp_path / "first.json"
    run(
        "play",
        "thermopyles",
        "--players",
        "2",
        "--seed",
        "5",
        answers=["retreat", "give p2", f"save {first}", "quit"],
    )
    before = json.loads(first.read_text())["steps"]
    second = tmp_path / "second.json"
    r = run(
        "play",
        "thermopyles",
        "--from",
        str(first),
        "--seed",
        "9",
        answers=["retreat", f"save {second}", "quit"],
    )
    assert r.returncode == 0, r.stderr
    after = json.loads(second.read_text())["steps"]
    assert after[: len(before)] == before and len(after) > len(before)
    rp = run("replay", str(second))
    assert rp.returncode == 0, rp.stderr


def test_continuing_a_record_that_began_from_a_position(tmp_path: Path) -> None:
    """A record started with `--from POSITION` and continued with `--from RECORD` must
    keep its starting position, or the new record cannot replay."""
    pos = tmp_path / "pos.json"
    run(
        "play",
        "thermopyles",
        "--players",
        "2",
        "--seed",
        "5",
        answers=["retreat", "give p2", f"position {pos}", "quit"],
    )
    first = tmp_path / "first.json"
    run(
        "play",
        "thermopyles",
        "--from",
        str(pos),
        "--seed",
        "9",
        answers=["retreat", f"save {first}", "quit"],
    )
    assert run("replay", str(first)).returncode == 0
    second = tmp_path / "second.json"
    r = run(
        "play",
        "thermopyles",
        "--from",
        str(first),
        "--seed",
        "10",
        answers=[f"save {second}", "quit"],
    )
    assert r.returncode == 0, r.stderr
    assert json.loads(second.read_text())["start"] == json.loads(first.read_text())["start"]
    rp = run("replay", str(second))
    assert rp.returncode == 0, rp.stderr


def test_play_from_a_bad_file_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "thermopylae-position", "version": 1}')
    r = run("play", "thermopyles", "--from", str(bad), answers=["quit"])
    assert r.returncode != 0
    assert "not a valid position" in flat(r.stderr)
    assert "Traceback" not in r.stderr


# -- simulation and benchmark ---------------------------------------------------------------


def simulate(*extra: str) -> dict[str, Any]:
    r = run(
        "simulate",
        "thermopyles",
        "--agent",
        "random",
        "--games",
        "2000",
        "--seed",
        "7",
        "--json",
        *extra,
    )
    assert r.returncode == 0, r.stderr
    data: dict[str, Any] = json.loads(r.stdout)
    return data


def test_simulate_json_is_the_same_with_any_number_of_workers() -> None:
    default = simulate()
    two = simulate("--workers", "2")
    one = simulate("--workers", "1")
    for data in (default, two, one):
        assert {"games", "wins", "win_rate", "ci95", "mean_turns", "games_per_second"} <= set(data)
        assert data["games"] == 2000
        assert data["win_rate"] == pytest.approx(data["wins"] / 2000)
        lo, hi = data["ci95"]
        assert 0 <= lo <= data["win_rate"] <= hi <= 1
        assert 0 < data["mean_turns"] <= 26
        assert data["games_per_second"] > 0
    assert two["workers"] == 2 and one["workers"] == 1
    assert default["wins"] == two["wins"] == one["wins"]
    assert default["mean_turns"] == two["mean_turns"] == one["mean_turns"]


def test_simulate_text_output() -> None:
    r = run(
        "simulate",
        "thermopyles",
        "--agent",
        "heuristic",
        "--games",
        "50",
        "--seed",
        "1",
        "--players",
        "2",
        "--workers",
        "1",
    )
    assert r.returncode == 0, r.stderr
    out = flat(r.stdout)
    assert "games 50" in out and "win rate" in out and "95% CI" in out


def test_bench_runs() -> None:
    r = run("bench", "thermopyles", "--seconds", "0.3")
    assert r.returncode == 0, r.stderr
    assert "random" in r.stdout and "heuristic" in r.stdout and "games/s" in r.stdout


def test_bench_times_the_search_it_is_given_and_refuses_a_budget() -> None:
    r = run(
        "bench",
        "earth-and-water",
        "--seconds",
        "0.3",
        "--agents",
        "random",
        "--search",
        "ismcts:depth=5",
    )
    assert r.returncode == 0, r.stderr
    assert "ismcts:depth=5 iterations per CPU second" in flat(r.stdout)
    r = run(
        "bench",
        "earth-and-water",
        "--seconds",
        "0.3",
        "--agents",
        "random",
        "--search",
        "ismcts:iterations=9",
    )
    assert r.returncode != 0 and "without a budget" in flat(r.stderr)
    r = run(
        "bench",
        "earth-and-water",
        "--seconds",
        "0.3",
        "--agents",
        "random",
        "--search",
        "ismcts:depth=-2",
    )
    assert r.returncode != 0 and "depth must be" in flat(r.stderr)


# -- 300: Earth & Water ---------------------------------------------------------------------

EW_CARDS = [
    "Mines of Laurion / Cavalry of Mardonius",
    "Ionian Revolt / Tribute of Earth and Water",
    "Wrath of Poseidon / Tribute of Earth and Water",
    "Miltiades / Carneia Festival",
    "Themistocles / The Immortals",
    "Pausanias / Ostracism",
    "Oracle of Delphi / The Great King",
    "Leonidas / The Royal Road",
    "Artemisia I / Hippias",
    "Evangelion / Separate Peace",
    "Melas Zomos / Sudden Death of the Great King",
    "Molon Labe / Defection of Thebes",
    "Triremes / Tribute of Earth and Water",
    "Support from Syracuse / Alliance with Carthage",
    "300 Spartans / Acropolis on Fire",
    "Desertion of Greek Soldiers / Pacification of Babylon or Egypt",
]


def test_games_lists_earth_and_water() -> None:
    r = run("games")
    assert r.returncode == 0, r.stderr
    line = next(ln for ln in r.stdout.splitlines() if "earth-and-water" in ln)
    assert "300: Earth & Water" in line
    cells = [word for word in line.split() if word not in ("│", "┃", "|")]
    assert cells[-1] == "2"  # players: exactly 2


def test_rules_earth_and_water_list_the_16_cards() -> None:
    r = run("rules", "earth-and-water")
    assert r.returncode == 0, r.stderr
    out = flat(r.stdout)
    assert "PROVISIONAL" not in r.stdout
    for number, card in enumerate(EW_CARDS, start=1):
        assert f"{number}: {card}" in out, card
    assert "17:" not in out
    for city in ("Abydos", "Ephesos", "Athenai", "Sparta", "Eretria", "Naxos"):
        assert city in out


def test_agents_earth_and_water() -> None:
    r = run("agents", "earth-and-water")
    assert r.returncode == 0, r.stderr
    assert {"random", "heuristic"} <= set(r.stdout.split())


@pytest.mark.parametrize("seed", [5, 17])
def test_earth_and_water_human_against_ai_to_the_end_then_replay(tmp_path: Path, seed: int) -> None:
    """Persia at the keyboard always answers 1: the first legal action is always a safe
    one (buy 0, done, pass, decline, continue, keep none, ...)."""
    rec = tmp_path / "ew.json"
    r = run(
        "play",
        "earth-and-water",
        "--ai",
        "greece=heuristic",
        "--seed",
        str(seed),
        answers=["1"] * 400 + [f"save {rec}", "quit"],
    )
    assert r.returncode == 0, r.stderr
    out = flat(r.stdout)
    assert "Game over:" in out
    assert "Refused" not in out
    assert f"Record saved to {rec}" in out
    assert "Traceback" not in r.stderr
    # the human is Persia: the Greek hand is never shown, nor Greek draws logged
    greek_hand = [ln for ln in r.stdout.splitlines() if ln[2:].startswith("Hand greece")]
    assert greek_hand and all("hidden" in ln for ln in greek_hand)
    assert "greece drew" not in r.stdout
    data = json.loads(rec.read_text())
    assert data["game"] == "earth-and-water" and data["seats"] == ["persia", "greece"]
    assert data["seed"] == seed
    assert data["outcome"] is not None and data["final"] is not None
    assert {"persia", "greece", "chance"} <= {who for who, _ in data["steps"]}
    rp = run("replay", str(rec))
    assert rp.returncode == 0, rp.stderr
    assert rp.stdout.startswith("OK:")
    assert f"{len(data['steps'])} steps replayed" in flat(rp.stdout)


def test_earth_and_water_ai_against_ai_runs_to_the_end(tmp_path: Path) -> None:
    rec = tmp_path / "ai.json"
    r = run(
        "play",
        "earth-and-water",
        "--ai",
        "persia=random",
        "--ai",
        "greece=random",
        "--seed",
        "9",
        "--record",
        str(rec),
    )
    assert r.returncode == 0, r.stderr
    assert "Game over:" in r.stdout
    assert "Traceback" not in r.stderr
    data = json.loads(rec.read_text())
    assert data["outcome"] is not None
    rp = run("replay", str(rec))
    assert rp.returncode == 0, rp.stderr
    assert rp.stdout.startswith("OK:")


def test_earth_and_water_tampered_record_fails_replay(tmp_path: Path) -> None:
    rec = tmp_path / "ew.json"
    run(
        "play",
        "earth-and-water",
        "--ai",
        "persia=random",
        "--ai",
        "greece=random",
        "--seed",
        "9",
        "--record",
        str(rec),
    )
    data = json.loads(rec.read_text())
    k = next(i for i, (who, _) in enumerate(data["steps"]) if who == "greece")
    data["steps"][k][1] = "bridge"
    rec.write_text(json.dumps(data))
    r = run("replay", str(rec))
    assert r.returncode == 1
    assert r.stdout == ""
    assert flat(r.stderr).startswith(f"replay failed: step {k + 1} (greece: bridge)")


def test_simulate_earth_and_water_json() -> None:
    r = run(
        "simulate", "earth-and-water", "--agent", "random", "--games", "50", "--seed", "3", "--json"
    )
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert {"games", "wins", "win_rate", "ci95", "mean_turns", "games_per_second"} <= set(data)
    assert data["games"] == 50
    assert data["mean_turns"] > 0 and data["games_per_second"] > 0
    wins, rates, cis = data["wins"], data["win_rate"], data["ci95"]
    if isinstance(wins, dict):  # a two-sided game: per seat, and the draws
        assert set(wins) == set(rates) == set(cis) == {"persia", "greece"}
        assert sum(wins.values()) + data.get("draws", 0) == 50
        checks = [(wins[s], rates[s], cis[s]) for s in wins]
    else:
        checks = [(wins, rates, cis)]
    for w, rate, (lo, hi) in checks:
        assert 0 <= w <= 50
        assert rate == pytest.approx(w / 50)
        assert 0 <= lo <= rate <= hi <= 1
    again = run(
        "simulate",
        "earth-and-water",
        "--agent",
        "random",
        "--games",
        "50",
        "--seed",
        "3",
        "--json",
        "--workers",
        "1",
    )
    assert again.returncode == 0, again.stderr
    same = json.loads(again.stdout)
    assert same["wins"] == data["wins"] and same["mean_turns"] == data["mean_turns"]


# -- commands loaded when they run ------------------------------------------------------------


def test_lazy_commands_help_is_their_docstring() -> None:
    """`--help` lists the other modules' commands without importing them: what it says of
    each must be its docstring's first paragraph."""
    for name in cli.LAZY:
        assert cli.LAZY[name][2] == cli.command_help(name), name


def test_help_lists_every_command_in_order() -> None:
    r = run("--help")
    assert r.returncode == 0, r.stderr
    listed = [line.split()[1] for line in r.stdout.splitlines() if line.startswith("│ ")]
    names = [n for n in listed if n in cli.ORDER]
    assert names == list(cli.ORDER)
    assert set(typer.main.get_group(cli.app).commands) == set(cli.ORDER)


def test_cli_imports_no_command_module() -> None:
    code = "import sys, thermopylae.cli; print(sorted(m for m in sys.modules if 'cli_' in m))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["[]"]  # not even cli_common: the commands import it
