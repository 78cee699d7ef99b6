"""`thermopylae analyse`: one entry per decision of the seat, the report, clear errors."""

from __future__ import annotations

import json
import sys
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


def test_a_record_that_does_not_replay_is_refused(tmp_path: Path) -> None:
    path, seats, _ = _saved("hot-gates", tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["steps"] = data["steps"][:-1]  # the saved final state no longer matches
    path.write_text(json.dumps(data), encoding="utf-8")
    done = run("analyse", str(path), "--seat", seats[0], "--budget", "1")
    assert done.returncode == 2
    assert "does not replay" in done.stderr and "Traceback" not in done.stderr


def test_the_report_lists_the_marked_decisions(tmp_path: Path) -> None:
    from thermopylae.cli_analyse import write_report

    decision = {
        "step": 3,
        "played": "<b>bad</b>",
        "win_played": 0.2,
        "best": "good",
        "win_best": 0.6,
        "loss": 0.4,
        "mark": "blunder",
        "candidates": [],
    }
    result = {
        "game": "hot-gates",
        "seat": "sparta",
        "seats": ["persia", "sparta"],
        "budget": 3,
        "agent": "heuristic",
        "seed": 1,
        "components": "x",
        "outcome": None,
        "thresholds": {"blunder": 0.2, "mistake": 0.1, "inaccuracy": 0.05},
        "decisions": [decision, {**decision, "step": 5, "mark": None, "loss": 0.0}],
        "timeline": [{"step": i, "win": {"persia": 0.5, "sparta": 0.5}} for i in range(6)],
    }
    page = write_report(result, tmp_path / "r").read_text(encoding="utf-8")
    assert "blunder" in page and "&lt;b&gt;bad&lt;/b&gt;" in page  # escaped by the template
    assert page.count('<tr class="blunder">') == 1
    assert (tmp_path / "r" / "winchance.png").stat().st_size > 0


def test_the_backend_is_checked_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from thermopylae.cli import app

    path, seats, _ = _saved("thermopyles", tmp_path)
    args = ["analyse", str(path), "--seat", seats[0], "--budget", "1"]
    cases = [
        (["--backend", "dask"], "--backend dask: no such backend"),
        (["--address", "127.0.0.1:1"], "--address is for the ray backend"),
    ]
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    cases.append((["--backend", "ray"], "pip install 'thermopylae[ray]'"))
    for extra, message in cases:
        done = CliRunner().invoke(app, [*args, *extra], env={"NO_COLOR": "1", "COLUMNS": "400"})
        assert done.exit_code == 2, done.output
        assert message in " ".join(done.output.split()), done.output
        assert isinstance(done.exception, SystemExit), done.exception


def test_ray_gives_the_same_analysis_as_the_process_backend(tmp_path: Path) -> None:
    """One local Ray, started and stopped by the command (some seconds)."""
    pytest.importorskip("ray")
    path, seats, _ = _saved("hot-gates", tmp_path)
    args = ("analyse", str(path), "--seat", seats[1], "--budget", "1", "--json", "-")
    pool = run(*args)
    ray = run(*args, "--backend", "ray")
    assert pool.returncode == ray.returncode == 0, pool.stderr + ray.stderr
    assert json.loads(ray.stdout) == json.loads(pool.stdout)
