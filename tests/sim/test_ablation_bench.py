"""bench/ablation.py: the heuristic with one kind of decision made at random."""

from __future__ import annotations

import random
import subprocess
import sys

from tests.helpers import BENCH, decision_positions, load_bench
from thermopylae.engine import registry
from thermopylae.games.hot_gates.rules import HotGates
from thermopylae.sim.match import play, rngs

SCRIPT = BENCH / "ablation.py"
ablation = load_bench("ablation")


def test_without_a_kind_it_is_the_heuristic() -> None:
    """No ablated kind: the same games as the heuristic itself, decision for decision."""
    g = registry.get("hot-gates")
    options = g.options({"players": 2})
    h = g.agents()["heuristic"]
    for n in range(3):
        plain, _ = play(g, options, [h(), h()], *rngs(4, n))
        me = ablation.Ablated(h(), None)
        ablated, _ = play(g, options, [h(), me], *rngs(4, n))
        assert g.state_to_json(ablated) == g.state_to_json(plain)
        assert me.seen["march"] > 0 and me.seen["casualty"] > 0


def test_only_the_ablated_kind_is_random() -> None:
    """Decisions of the ablated kind are drawn from the random source; the others stay
    the heuristic's."""
    g = registry.get("hot-gates")
    assert isinstance(g, HotGates)
    h = g.agents()["heuristic"]
    heuristic = h()
    me = ablation.Ablated(h(), "march")
    differs = {"march": 0, "other": 0}
    for s in decision_positions("hot-gates", {"players": 2}, 6, every=1):
        if g.to_act(s) != 1 or len(g.legal(s)) == 1:
            continue
        kind = "march" if g.phase_name(s) == "march" else "other"
        differs[kind] += me.act(g, g.copy(s), random.Random(3)) != heuristic.act(
            g, g.copy(s), random.Random(3)
        )
    assert differs["other"] == 0
    assert differs["march"] > 0


def test_script_prints_a_row_per_kind_and_refuses_a_bad_seat() -> None:
    out = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "hot-gates",
            "sparta",
            "--games",
            "6",
            "--kinds",
            "march",
            "casualty",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.startswith("hot-gates, sparta: heuristic throughout ")
    rows = [line.split()[0] for line in out.splitlines()[2:]]
    assert rows == ["march", "casualty"]
    bad = subprocess.run(
        [sys.executable, str(SCRIPT), "hot-gates", "xerxes"], capture_output=True, text=True
    )
    assert bad.returncode == 2 and "seat 'xerxes' is not one of persia, sparta" in bad.stderr
