"""300's default component set is validated once, then read from its cache: a command
that plays with it needs neither the file's schema nor pydantic for it."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from thermopylae.engine import components as engine
from thermopylae.games.hot_gates import components

SCHEMA = "thermopylae.games.hot_gates.component_file"
DEFAULT = Path(components.__file__).with_name("components.toml")
# Runs the CLI in a fresh interpreter, then prints the modules it imported.
RUN = """
import json, sys
from thermopylae.cli import app
try:
    app(sys.argv[1:])
except SystemExit as exc:
    assert not exc.code, exc.code
print(json.dumps(sorted(sys.modules)))
"""


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The derived default set's cache under `tmp_path` (where bytecode would go too)."""
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return tmp_path


def fresh() -> components.Components:
    """The default set validated now, from its file, bypassing the cache."""
    return dataclasses.replace(components.load(DEFAULT), origin="default")


def test_the_default_set_is_validated_once_then_read_from_the_cache(cache: Path) -> None:
    want = fresh()
    assert components.load() == want  # derived, then written
    kept = engine.cache_path(components.__package__)
    assert kept is not None and kept.is_relative_to(cache) and kept.exists()
    assert components.load() == want  # read back
    assert components.load().digest == want.digest
    data = json.loads(kept.read_text())
    data["value"]["dice"]["faces"][0] = 99  # a cache of other bytes or code is not used
    data["key"] = "0" * 64
    kept.write_text(json.dumps(data))
    assert components.load() == want
    assert json.loads(kept.read_text())["key"] != "0" * 64  # and is replaced
    kept.write_text("{not json")
    assert components.load() == want


def test_the_set_keeps_no_pydantic_objects() -> None:
    """Built from plain JSON values, so the cached and the fresh sets compare equal."""
    c = fresh()
    assert type(c.rules) is components.Rules
    assert all(type(u) is components.Unit for u in c.units)
    assert c.rules.glory_bonus == [12, 6, 3]


def simulate(prefix: Path) -> tuple[dict[str, object], set[str]]:
    """`simulate hot-gates` in a fresh interpreter that writes bytecode (and so the cache)
    under `prefix`: its JSON output and the modules it imported."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    args = ["simulate", "hot-gates", "--games", "2", "--workers", "1", "--json"]
    r = subprocess.run(
        [sys.executable, "-c", RUN, *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env=env | {"PYTHONPYCACHEPREFIX": str(prefix)},
    )
    *output, modules = r.stdout.splitlines()
    return json.loads("\n".join(output)), set(json.loads(modules))


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[set[str]]:
    """The modules two simulations imported, the first with no cache yet."""
    prefix = tmp_path_factory.mktemp("pycache")
    out = []
    for _ in range(2):
        result, modules = simulate(prefix)
        assert result["games"] == 2
        out.append(modules)
    return out


def test_a_simulation_validates_the_default_set_only_once(runs: list[set[str]]) -> None:
    first, second = runs
    assert SCHEMA in first
    assert "thermopylae.games.hot_gates.rules" in second  # it did play
    assert SCHEMA not in second


def test_a_simulation_imports_no_pydantic(runs: list[set[str]]) -> None:
    assert "pydantic" not in runs[1]
