"""`simulate --engine` and `balance`: the compiled kernel reached through the game contract,
and the clear messages when a game has none or the [fast] extra is missing."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_helpers import run

needs_numba = pytest.mark.skipif(
    importlib.util.find_spec("numba") is None,
    reason="the fast engine needs numba (the [fast] extra: pip install '.[fast]')",
)


@needs_numba
def test_simulate_fast_engine_json_is_seeded() -> None:
    args = ("simulate", "thermopyles", "--engine", "fast", "--games", "30000", "--json")
    first = json.loads(run(*args, "--agent", "random", "--seed", "4").stdout)
    again = json.loads(run(*args, "--agent", "random", "--seed", "4").stdout)
    other = json.loads(run(*args, "--agent", "random", "--seed", "5").stdout)
    assert first["engine"] == "fast" and first["games"] == 30000
    assert first["wins"] == again["wins"] and first["mean_turns"] == again["mean_turns"]
    assert (first["wins"], first["mean_turns"]) != (other["wins"], other["mean_turns"])
    lo, hi = first["ci95"]
    assert lo <= first["win_rate"] <= hi
    assert sum(first["reasons"].values()) == 30000


@needs_numba
def test_simulate_fast_engine_same_counts_with_any_workers() -> None:
    args = ("simulate", "thermopyles", "--engine", "fast", "--games", "250000", "--json")
    one = json.loads(run(*args, "--players", "3", "--workers", "1").stdout)
    two = json.loads(run(*args, "--players", "3", "--workers", "2").stdout)
    assert (one["workers"], two["workers"]) == (1, 2)
    for key in ("wins", "win_rate", "ci95", "mean_turns", "reasons"):
        assert one[key] == two[key], key


@needs_numba
def test_simulate_fast_engine_text_says_so() -> None:
    r = run("simulate", "thermopyles", "--engine", "fast", "--players", "2", "--games", "5000")
    assert r.returncode == 0, r.stderr
    assert "engine: fast" in r.stdout
    assert "games 5000" in r.stdout and "95% CI" in r.stdout


def test_simulate_fast_engine_of_a_game_without_one() -> None:
    r = run("simulate", "hot-gates", "--engine", "fast", "--games", "2")
    assert r.returncode == 2
    assert "hot-gates has no fast engine" in r.stderr
    pt = run(
        "simulate", "hot-gates", "--engine", "fast", "--games", "2", env={"LC_ALL": "pt_BR.UTF-8"}
    )
    assert pt.returncode == 2 and "hot-gates" in pt.stderr
    assert "has no fast engine" not in pt.stderr


def test_simulate_auto_engine_falls_back_to_python() -> None:
    r = run("simulate", "hot-gates", "--engine", "auto", "--games", "2", "--workers", "1", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["engine"] == "python"


def test_simulate_unknown_engine() -> None:
    r = run("simulate", "thermopyles", "--engine", "warp", "--games", "2")
    assert r.returncode == 2 and "the engines are python, fast and auto" in r.stderr


@needs_numba
def test_simulate_fast_engine_refuses_what_it_cannot_do() -> None:
    r = run("simulate", "thermopyles", "--engine", "fast", "--agent", "ismcts", "--games", "2")
    assert r.returncode == 2
    assert "the fast engine plays the agents random, heuristic, not ismcts" in r.stderr
    r = run("simulate", "thermopyles", "--engine", "fast", "--games", "2", "--out", "x.jsonl")
    assert r.returncode == 2 and "--engine python" in r.stderr


def test_fast_engine_without_the_extra_says_how_to_get_it() -> None:
    """numba hidden from the process: a clear message, not a traceback; the default engine
    still plays."""
    code = (
        "import sys; sys.modules['numba'] = None; sys.argv = ['thermopylae', *sys.argv[1:]]; "
        "from thermopylae.cli import main; main()"
    )
    base = [sys.executable, "-c", code, "simulate", "thermopyles", "--games", "3"]
    env = {"LC_ALL": "C.UTF-8", "NO_COLOR": "1", "PATH": "/usr/bin:/bin"}
    r = subprocess.run([*base, "--engine", "fast"], capture_output=True, text=True, env=env)
    assert r.returncode == 2, r.stderr
    assert "the fast engine needs the [fast] extra: pip install 'thermopylae[fast]'" in r.stderr
    assert "Traceback" not in r.stderr
    r = subprocess.run([*base, "--workers", "1"], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr


def variant(tmp: Path) -> Path:
    import tomllib
    from importlib.resources import files

    from thermopylae.games.thermopyles import components

    text = files(components.__package__).joinpath("components.toml").read_text()
    data = tomllib.loads(text)
    data["support_cards"]["count"] = 1
    path = tmp / "one_support.json"
    path.write_text(json.dumps(data))
    return path


@needs_numba
def test_balance_sweeps_files_player_counts_and_agents(tmp_path: Path) -> None:
    path = variant(tmp_path)
    r = run("balance", "thermopyles", str(path), "--games", "20000", "--players", "1,3", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    runs = data["runs"]
    assert [(x["components"], x["options"]["players"], x["agents"]["p1"]) for x in runs] == [
        (c, p, a) for c in (None, str(path)) for p in (1, 3) for a in ("random", "heuristic")
    ]
    for x in runs:
        assert x["engine"] == "fast" and x["games"] == 20000
        lo, hi = x["ci95"]
        assert lo <= x["win_rate"] <= hi
    # one support card instead of four: the heuristic solo player wins less often
    solo = {x["components"]: x for x in runs if x["options"]["players"] == 1}
    default = [x for x in runs if x["components"] is None and x["options"]["players"] == 1]
    fewer = [x for x in runs if x["components"] == str(path) and x["options"]["players"] == 1]
    assert solo and default[1]["ci95"][0] > fewer[1]["ci95"][1]


def test_balance_python_engine_and_table(tmp_path: Path) -> None:
    r = run(
        "balance",
        "thermopyles",
        "--engine",
        "python",
        "--games",
        "40",
        "--players",
        "2",
        "--agents",
        "random",
        "--workers",
        "1",
    )
    assert r.returncode == 0, r.stderr
    assert "default set" in r.stdout and "python" in r.stdout and "win rate (95% CI)" in r.stdout


def test_balance_bad_player_counts() -> None:
    r = run("balance", "thermopyles", "--players", "one", "--games", "2")
    assert r.returncode == 2 and "--players" in r.stderr
    r = run("balance", "thermopyles", "--players", "7", "--games", "2", "--engine", "python")
    assert r.returncode == 2 and "players must be 1, 2, 3 or 4" in r.stderr
