"""`thermopylae analyse`: one entry per decision of the seat, the report, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.analysis_helpers import short_record
from tests.cli_helpers import run

GAMES = ["thermopyles", "earth-and-water", "hot-gates"]


def _saved(game_id: str, tmp_path: Path) -> tuple[Path, list[str], list[tuple[str, str]]]:
    _, rec = short_record(game_id, last=10)
    path = tmp_path / "game.json"
    rec.save(path)
    return path, rec.seats, rec.steps


@pytest.mark.parametrize("game_id", GAMES)
def test_json_has_one_entry_per_decision_and_a_report(game_id: str, tmp_path: Path) -> None:
    path, seats, steps = _saved(game_id, tmp_path)
    seat = seats[0]
    report = tmp_path / "report"
    done = run(
        "analyse",
        str(path),
        "--seat",
        seat,
        "--budget",
        "3",
        "--json",
        "-",
        "--report",
        str(report),
        "--seed",
        "2",
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    mine = [n for n, (who, _) in enumerate(steps, start=1) if who == seat]
    assert [d["step"] for d in result["decisions"]] == mine
    assert [t["step"] for t in result["timeline"]] == list(range(len(steps) + 1))
    for d in result["decisions"]:
        assert 1 <= len(d["candidates"]) <= 8
        assert d["played"] in [c["move"] for c in d["candidates"]]
        assert d["loss"] == pytest.approx(d["win_best"] - d["win_played"])
        assert d["win_best"] == max(c["win"] for c in d["candidates"])
    assert (report / "index.html").is_file() and (report / "winchance.png").is_file()
    assert "winchance.png" in (report / "index.html").read_text(encoding="utf-8")


def test_the_same_seed_gives_the_same_analysis_with_two_workers(tmp_path: Path) -> None:
    path, seats, _ = _saved("hot-gates", tmp_path)
    args = ("analyse", str(path), "--seat", seats[1], "--budget", "3", "--json", "-")
    one = run(*args, "--workers", "1")
    two = run(*args, "--workers", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert json.loads(one.stdout) == json.loads(two.stdout)


def test_errors_are_clear(tmp_path: Path) -> None:
    path, seats, _ = _saved("thermopyles", tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    cases = [
        (("analyse", str(bad), "--seat", "p1"), "not valid JSON"),
        (("analyse", str(tmp_path / "none.json"), "--seat", "p1"), "none.json"),
        (("analyse", str(path), "--seat", "xerxes"), "no seat 'xerxes'"),
        (("analyse", str(path), "--seat", seats[0], "--budget", "0"), "--budget 0"),
        (("analyse", str(path), "--seat", seats[0], "--budget", "100001"), "--budget"),
        (("analyse", str(path), "--seat", seats[0], "--agent", "nobody"), "unknown agent"),
    ]
    for args, message in cases:
        done = run(*args)
        assert done.returncode == 2, (args, done.stdout)
        assert message in done.stderr and "Traceback" not in done.stderr, done.stderr
