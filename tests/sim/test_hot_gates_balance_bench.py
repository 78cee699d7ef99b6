"""bench/hot_gates_balance.py: candidate sets as `--set` changes, intervals and a verdict
per player count, the hard level per seat, and clear refusals of bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import BENCH, load_bench
from thermopylae.engine import registry
from thermopylae.engine.components import read_set
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.games.hot_gates.levels import INFORMED, INFORMED_SPARTA
from thermopylae.games.hot_gates.rules import HotGates

SCRIPT = BENCH / "hot_gates_balance.py"
balance = load_bench("hot_gates_balance")


def default_data() -> dict[str, Any]:
    return read_set("thermopylae.games.hot_gates", None)[0]


def test_p27_set_changes_the_named_values_only(tmp_path: Path) -> None:
    """`--set` reaches the Goat Path, the dice, a unit's number and a card, by the names
    the rules page uses (s1-s26, p1-p26), and leaves the data it was given alone."""
    data = default_data()
    changed = balance.apply_changes(
        data,
        [
            "goat_path.length=7",
            "dice.faces=0,1,2,2,3,3",
            "infantry.glory=2",
            "s6.effect=attack",
            "s6.amount=1",
            "p26.letter=A",
            "p1.letter=B",
        ],
    )
    assert changed["goat_path"]["length"] == 7
    assert changed["dice"]["faces"] == [0, 1, 2, 2, 3, 3]
    assert [u["glory"] for u in changed["unit"] if u["id"] == "infantry"] == [2]
    assert changed["spartan_card"][5]["effect"] == "attack"
    assert changed["spartan_card"][5]["amount"] == 1
    assert changed["persian_card"][0]["letter"] == "B"
    assert data["goat_path"]["length"] != 7
    path = Path(balance.component_file(None, ["goat_path.length=7"], tmp_path))
    game = registry.get("hot-gates", path)
    assert isinstance(game, HotGates)
    assert game.components.goat_path == 7
    assert game.components_digest != registry.get("hot-gates").components_digest


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("goat_path.length", "--set takes KEY=VALUE"),
        ("rules.win_glory_team=60", "the rulebook's own values"),
        ("xerxes.size=2", "not a value of the set"),
        ("s27.amount=1", "not a value of the set"),
        ("dice.faces=1,two", "whole numbers separated by commas"),
        ("chart=1-1", "FROM:DICE steps"),
    ],
)
def test_p27_bad_set_changes_are_refused_by_name(change: str, message: str) -> None:
    with pytest.raises(ThermopylaeError, match=message):
        balance.apply_changes(default_data(), [change])


def test_p27_run_reports_the_interval_and_verdict_of_each_player_count() -> None:
    """The figures of a run: the interval around the Spartan rate, the verdict against the
    target band, the set's digest; the same seed gives the same games in one process or
    in chunks."""
    for players in (2, 3, 4):
        r = balance.run(players, 6, "heuristic", None, 3, 1, (0.0, 1.0))
        assert r["players"] == players and r["games"] == 6
        assert r["ci95"][0] <= r["spartan_win_rate"] <= r["ci95"][1]
        assert r["balanced"] == "inside"
        assert r["components"] == registry.get("hot-gates").components_digest
        assert r["provisional"] is True
        assert sum(r["reasons"].values()) == 6
        assert len(r["agents"]) == players
        spartan_seats = [s for s in r["wins_by_seat"] if s.startswith("sparta")]
        assert sum(r["wins_by_seat"][s] for s in spartan_seats) >= r["spartan_wins"]
    whole = balance._chunk((2, ("heuristic",) * 2, None, 3, 0, 4))
    parts = balance._chunk((2, ("heuristic",) * 2, None, 3, 0, 2)) + balance._chunk(
        (2, ("heuristic",) * 2, None, 3, 2, 4)
    )
    assert whole == parts
    narrow = balance.run(2, 6, "heuristic", None, 3, 1, (0.499, 0.501))
    assert narrow["balanced"] in ("undecided", "outside")


def test_p27_hard_is_the_servers_hard_level_for_each_seat() -> None:
    """2 players: the informed searches of the game's hard level, which the server asks
    for (`games/hot_gates/levels.py`); 3 and 4 players: the heuristic, so that hard
    against hard there is the heuristic's own figure."""
    assert balance.seat_specs("hard", 2) == (INFORMED, INFORMED_SPARTA)
    assert balance.seat_specs("hard", 3) == ("heuristic",) * 3
    assert balance.seat_specs("hard", 4) == ("heuristic",) * 4
    assert balance.seat_specs("persia=hard,sparta=random", 2) == (INFORMED, "random")


def test_p27_script_prints_the_verdict_and_refuses_bad_input_without_a_traceback() -> None:
    out = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--games",
            "4",
            "--players",
            "2",
            "--workers",
            "1",
            "--set",
            "goat_path.length=7",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.startswith("2 players, 4 games, set ")
    assert "(provisional)" in out and "45-55%)" in out
    for args, message in (
        (["--set", "s1.amount=0"], "with the --set changes"),
        (["--set", "nothing=1"], "--set nothing: not a value of the set"),
        (["--agent", "nobody"], "unknown agent 'nobody'"),
        (["--target", "60", "40"], "--target takes LO HI"),
    ):
        bad = subprocess.run(
            [sys.executable, str(SCRIPT), "--games", "2", *args], capture_output=True, text=True
        )
        assert bad.returncode == 2, bad.stderr
        assert message in bad.stderr and "Traceback" not in bad.stderr


def test_p27_balance_section_names_the_shipped_set() -> None:
    """The figures of docs/rules/hot-gates.md ("Balance") are for the set that ships: the
    section names its digest, every player count's interval, and the command."""
    doc = (Path(__file__).parents[2] / "docs" / "rules" / "hot-gates.md").read_text()
    section = doc[doc.index("## Balance") : doc.index("## Agents")]
    assert f"`{registry.get('hot-gates').components_digest}`" in section
    assert "bench/hot_gates_balance.py --games 4000 --players 2 3 4 --workers 1" in section
    for players in (2, 3, 4):
        assert f"\n| {players} | " in section
    assert "provisional" in section
