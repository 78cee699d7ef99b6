"""What a command imports: the game it plays, not the others, and no NumPy or Babel when
it needs none (issue 21: the start-up cost decides whether a second worker pays).

Each command runs in a new interpreter through the real entry point, then lists the
modules it left in `sys.modules`."""

from __future__ import annotations

import json
import os
import subprocess
import sys

RUN = """
import json, sys
from thermopylae.cli import app
try:
    app(sys.argv[1:])
except SystemExit as exc:
    assert not exc.code, exc.code
print(json.dumps(sorted(sys.modules)))
"""


def imported(*args: str) -> tuple[str, set[str]]:
    """The command's output and the modules imported once it has run (in English)."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    r = subprocess.run(
        [sys.executable, "-c", RUN, *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env=env | {"LANG": "C.UTF-8"},
    )
    *output, modules = r.stdout.splitlines()
    return "\n".join(output), set(json.loads(modules))


def packages(modules: set[str], prefix: str) -> set[str]:
    """The packages under `prefix` with a module imported."""
    return {m[len(prefix) :].split(".")[0] for m in modules if m.startswith(prefix)}


def test_a_simulation_imports_its_game_only_and_no_numpy() -> None:
    out, modules = imported("simulate", "thermopyles", "--games", "2", "--workers", "1", "--json")
    assert json.loads(out)["games"] == 2
    assert "thermopylae.games.thermopyles.rules" in modules  # it did play
    assert packages(modules, "thermopylae.games.") - {"wording"} == {"thermopyles"}
    assert "numpy" not in modules
    assert "babel" not in modules


def test_listing_the_games_imports_none() -> None:
    out, modules = imported("games")
    for title in ("Thermopyles", "300: Earth & Water", "300: The Board Game"):
        assert title in out
    assert packages(modules, "thermopylae.games.") <= {"wording"}
    assert not {"numpy", "babel"} & modules


def test_help_imports_no_game() -> None:
    out, modules = imported("--help")
    assert "simulate" in out
    assert packages(modules, "thermopylae.games.") <= {"wording"}
    assert not {"numpy", "babel"} & modules


def test_the_observation_type_is_there_at_run_time() -> None:
    """`Obs`, which the learning interfaces import, imports NumPy when it is asked for."""
    import numpy as np
    import numpy.typing as npt

    from thermopylae.engine import observation
    from thermopylae.engine.observation import Obs

    assert Obs == npt.NDArray[np.float32]
    assert "Obs" in observation.__all__
