"""What a command imports: the game it plays, not the others, and no NumPy or Babel when
it needs none (issue 21: the start-up cost decides whether a second worker pays).

Each command runs in a new interpreter through the real entry point, then lists the
modules it left in `sys.modules`."""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from thermopylae import cli

RUN = """
import json, sys
from thermopylae.cli import app
try:
    app(sys.argv[1:])
except SystemExit as exc:
    assert not exc.code, exc.code
print(json.dumps(sorted(sys.modules)))
"""


def imported(*args: str, bytecode: Path | None = None) -> tuple[str, set[str]]:
    """The command's output and the modules imported once it has run (in English); with
    `bytecode`, as an installed package runs: bytecode (and the default sets' caches)
    written and read under that folder."""
    gone = ("LC_ALL", "LC_MESSAGES", "LANG", "PYTHONDONTWRITEBYTECODE")
    env = {k: v for k, v in os.environ.items() if k not in gone}
    if bytecode is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env["PYTHONPYCACHEPREFIX"] = str(bytecode)
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
    assert not {m for m in modules if m.startswith("rich")}  # it printed JSON
    assert "typer._adapters" not in modules  # Typer coerced every value without pydantic


def test_a_simulation_imports_no_other_command_nor_the_games_observer_or_saving() -> None:
    """`simulate` reads `--engine` from cli_engine, not from the `balance` command, and
    playing needs neither the game's observation layout nor its save format."""
    out, modules = imported("simulate", "thermopyles", "--games", "2", "--workers", "1", "--json")
    assert json.loads(out)["games"] == 2
    commands = {m for m in modules if m.startswith("thermopylae.cli_")}
    assert commands == {"thermopylae.cli_common", "thermopylae.cli_engine", "thermopylae.cli_sim"}
    assert "thermopylae.games.thermopyles.observe" not in modules
    assert "thermopylae.engine.observation" not in modules
    assert "thermopylae.games.thermopyles.serial" not in modules
    assert "shlex" not in modules


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


VALUES = ["5", "0", "-3", "007", "1.0", " 4", "+2", "1_0", "abc", "", "x.toml", 3, 0, 2.5, "3.0"]


def _coerced(runtime: Any, value: Any, param: Any, ctx: Any) -> tuple[str, Any]:
    try:
        return "ok", runtime.coerce(value, param=param, ctx=ctx)
    except Exception as exc:  # the message a user would read
        return type(exc).__name__, str(exc)


@pytest.mark.skipif(not cli.DEFER, reason="a Typer that builds no pydantic validators")
def test_deferred_coercion_coerces_as_typer_does() -> None:
    """Every parameter of every command, given values of every shape (and none): the
    coercion that `cli` defers gives the value or the error that Typer's own gives."""
    import typer.main
    from typer._coercion import build_runtime_param

    group: Any = typer.main.get_command(cli.app)
    ctx = group.make_context("thermopylae", ["games"])
    checked = 0
    for name in cli.ORDER:
        command = cli.load_command(name) if name in cli.LAZY else group.commands[name]
        params: list[Any] = command.get_params(ctx)
        for param in params:
            descriptor = getattr(param, "type_descriptor", None)
            if descriptor is None:
                continue
            deferred = cli._Deferred(
                parameter_info=descriptor.parameter_info, annotation=descriptor.annotation
            )
            for value in [None, param.default, *VALUES]:
                if param.multiple and isinstance(value, str):
                    value = (value,)
                want = _coerced(build_runtime_param(descriptor), value, param, ctx)
                param._runtime_param = deferred
                got = _coerced(deferred, value, param, ctx)
                assert got == want, (name, param.name, value)
                checked += 1
    assert checked > 500


def _set_spartan(value: Any) -> None:
    value["spartan"][0] = 99


def _set_army_price(value: Any) -> None:
    value["prices"]["army"] = 99


def _set_die_face(value: Any) -> None:
    value["dice"]["faces"][0] = 99


@pytest.mark.parametrize(
    ("game", "stale"),
    [
        ("thermopyles", _set_spartan),
        ("earth_and_water", _set_army_price),
        ("hot_gates", _set_die_face),
    ],
)
def test_the_default_set_is_validated_once_then_read_from_the_cache(
    game: str, stale: Callable[[Any], None], component_cache: Path
) -> None:
    from thermopylae.engine import components as engine

    components = importlib.import_module(f"thermopylae.games.{game}.components")
    assert components.__file__ is not None and components.__package__ is not None
    shipped = Path(components.__file__).with_name("components.toml")
    fresh = dataclasses.replace(components.load(shipped), origin="default")  # validated now
    assert components.load() == fresh  # derived, then written
    kept = engine.cache_path(components.__package__)
    assert kept is not None and kept.is_relative_to(component_cache) and kept.exists()
    assert components.load() == fresh  # read back: the same tables and digest
    data = json.loads(kept.read_text())
    stale(data["value"])  # a cache of other bytes or code is not used
    data["key"] = "0" * 64
    kept.write_text(json.dumps(data))
    assert components.load() == fresh
    assert json.loads(kept.read_text())["key"] != "0" * 64  # and is replaced
    kept.write_text("{not json")
    assert components.load() == fresh


def test_no_cache_without_bytecode_or_where_it_cannot_be_written(
    component_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from thermopylae.engine import components as engine
    from thermopylae.games.thermopyles import components

    fresh = components._build(*engine.read_set(components.__package__, None))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert components.load() == fresh
    assert not list(component_cache.iterdir())
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    blocked = component_cache / "a-file"
    blocked.write_text("")
    monkeypatch.setattr(sys, "pycache_prefix", str(blocked))
    assert components.load() == fresh
    assert blocked.read_text() == ""


def test_the_cache_follows_the_file_and_the_code(
    component_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A package of its own (not the shipped one, which other tests read meanwhile):
    its set is derived again when its file or its module changes, not otherwise."""
    from thermopylae.engine import components as engine

    package = component_cache / "src" / "toyset"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "components.py").write_text("# derives the set\n")
    (package / "components.toml").write_text('title = "one"\n')
    monkeypatch.syspath_prepend(str(package.parent))
    __import__("toyset")
    derived: list[str] = []

    def derive(data: dict[str, Any]) -> str:
        derived.append(data["title"])
        return str(data["title"])

    def changed(name: str, text: str) -> None:
        path = package / name
        before = path.stat().st_mtime_ns
        path.write_text(text)
        os.utime(path, ns=(before + 10**9, before + 10**9))

    assert engine.default_cached("toyset", derive) == "one"
    assert engine.default_cached("toyset", derive) == "one"
    changed("components.toml", 'title = "two"\n')
    assert engine.default_cached("toyset", derive) == "two"
    changed("components.py", "# derives the set, otherwise\n")
    assert engine.default_cached("toyset", derive) == "two"
    assert engine.default_cached("toyset", derive) == "two"
    assert derived == ["one", "two", "two"]
    # a module that shapes the value too (a schema's), named: its change derives anew
    (package / "schema.py").write_text("# checks the file\n")
    assert engine.default_cached("toyset", derive, ("schema.py",)) == "two"
    assert engine.default_cached("toyset", derive, ("schema.py",)) == "two"
    changed("schema.py", "# checks the file, otherwise\n")
    assert engine.default_cached("toyset", derive, ("schema.py",)) == "two"
    assert derived == ["one", "two", "two", "two", "two"]


@pytest.mark.parametrize("game", ["thermopyles", "earth-and-water", "hot-gates"])
def test_a_simulation_with_the_default_set_cached_imports_no_pydantic(
    game: str, tmp_path: Path
) -> None:
    """The first run validates the default set (pydantic) and caches it; the next reads
    the cache, and neither the set nor the position schema needs pydantic then."""
    command = ("simulate", game, "--games", "2", "--workers", "1", "--json")
    first, modules = imported(*command, bytecode=tmp_path)
    assert "pydantic" in modules
    again, modules = imported(*command, bytecode=tmp_path)
    timed = ("seconds", "games_per_second")
    same = [{k: v for k, v in json.loads(o).items() if k not in timed} for o in (first, again)]
    assert same[0] == same[1]  # the same games from the same component set
    assert "pydantic" not in modules
