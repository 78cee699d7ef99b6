"""`thermopylae tournament` and `simulate --out / --replay-line`, through the real entry
point, as a user would run them."""

from __future__ import annotations

import json
import re
from functools import partial
from pathlib import Path
from typing import Any

from tests.cli_helpers import flat
from tests.cli_helpers import run as cli_run
from thermopylae.engine.components import digest

run = partial(cli_run, timeout=300)


AGENTS = "random,heuristic,ismcts:iterations=20"


def test_tournament_json_report_and_out(tmp_path: Path) -> None:
    report, out = tmp_path / "report", tmp_path / "games.jsonl"
    r = run(
        "tournament",
        "thermopyles",
        "--agents",
        AGENTS,
        "--games",
        "4",
        "--seed",
        "1",
        "--workers",
        "2",
        "--json",
        "--report",
        str(report),
        "--out",
        str(out),
    )
    assert r.returncode == 0, r.stderr
    data: dict[str, Any] = json.loads(r.stdout)
    assert data["agents"] == ["random", "heuristic", "ismcts:iterations=20"]
    assert data["cooperative"] and data["games_per_pairing"] == 4 and data["games"] == 12
    for agent in data["agents"]:
        res, rating = data["results"][agent], data["ratings"][agent]
        assert res["games"] == 4 and 0 <= res["ci95"][0] <= res["win_rate"] <= res["ci95"][1]
        assert rating["ci95"][0] <= rating["rating"] <= rating["ci95"][1]
    page = (report / "index.html").read_text()
    for name in re.findall(r'<img src="([^"]+)"', page):
        assert (report / name).stat().st_size > 0
    assert "thermopylae tournament thermopyles --agents" in page
    lines = [json.loads(t) for t in out.read_text().splitlines()]
    assert len(lines) == 12 and {d["run_seed"] for d in lines} == {1}
    one = run(
        "tournament",
        "thermopyles",
        "--agents",
        AGENTS,
        "--games",
        "4",
        "--seed",
        "1",
        "--workers",
        "1",
        "--json",
    )
    assert one.returncode == 0, one.stderr
    same = json.loads(one.stdout)
    for key in ("results", "ratings", "pairings", "mean_turns", "reasons"):
        assert same[key] == data[key], key


def test_tournament_text_output() -> None:
    r = run(
        "tournament",
        "earth-and-water",
        "--agents",
        "random,heuristic",
        "--games",
        "3",
        "--seed",
        "2",
        "--workers",
        "1",
    )
    assert r.returncode == 0, r.stderr
    out = flat(r.stdout)
    for words in (
        "2 pairings",
        "3 games each",
        "Win rates",
        "Bradley–Terry ratings",
        "persia",
        "greece",
        "Pairings",
        "games/s",
    ):
        assert words in out, words
    assert re.search(r"heuristic\s*│\s*all\s*│\s*6\s*│", r.stdout)  # 6 seats, 2 pairings


def test_tournament_errors() -> None:
    for args, words in [
        (["--agents", "random"], "at least two agents"),
        (["--agents", "random,wizard"], "unknown agent 'wizard'"),
        (["--agents", "random,heuristic", "--backend", "pigeon"], "unknown backend"),
        (["--agents", "random,heuristic", "--address", "127.0.0.1:1"], "ray backend"),
        (["--agents", "random,heuristic", "--players", "9"], "players"),
    ]:
        r = run("tournament", "thermopyles", "--games", "2", *args)
        assert r.returncode == 2, (args, r.stdout)
        assert words in flat(r.stderr), (args, r.stderr)
        assert "Traceback" not in r.stderr


def test_simulate_out_and_replay_line(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    r = run(
        "simulate",
        "earth-and-water",
        "--agent",
        "random",
        "--games",
        "5",
        "--seed",
        "3",
        "--workers",
        "1",
        "--out",
        str(out),
    )
    assert r.returncode == 0, r.stderr
    assert f"5 game lines written to {out}" in flat(r.stdout)
    lines = out.read_text().splitlines()
    assert len(lines) == 5
    record = tmp_path / "game3.json"
    r = run("simulate", "earth-and-water", "--replay-line", f"{out}:3", "--record", str(record))
    assert r.returncode == 0, r.stderr
    line = json.loads(lines[2])
    assert flat(r.stdout).startswith(f"OK: line 3 of {out} played again")
    assert line["record_digest"] in r.stdout
    assert digest(json.loads(record.read_text())) == line["record_digest"]
    r = run("replay", str(record))
    assert r.returncode == 0 and "final state matches" in r.stdout
    r = run("simulate", "earth-and-water", "--replay-line", f"{out}:3", "--json")
    assert json.loads(r.stdout)["ok"] is True
    line["index"] = 4  # another game's (seed, index) does not give this line's record
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(line) + "\n")
    r = run("simulate", "earth-and-water", "--replay-line", f"{bad}:1")
    assert r.returncode == 1 and "record digest" in flat(r.stderr)
    r = run("simulate", "thermopyles", "--replay-line", f"{out}:1")
    assert r.returncode == 2 and "not 'thermopyles'" in flat(r.stderr)
    r = run("simulate", "thermopyles", "--games", "2", "--record", str(record))
    assert r.returncode == 2 and "--replay-line" in flat(r.stderr)


def test_simulate_out_same_lines_with_any_workers(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path, workers in ((a, "1"), (b, "2")):
        r = run(
            "simulate",
            "thermopyles",
            "--agent",
            "heuristic",
            "--games",
            "40",
            "--players",
            "2",
            "--seed",
            "8",
            "--workers",
            workers,
            "--out",
            str(path),
            "--json",
        )
        assert r.returncode == 0, r.stderr
    assert a.read_text() == b.read_text()
