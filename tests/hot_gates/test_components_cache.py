"""300's default component set is validated once, then read from its cache: a command
that plays with it needs neither the file's schema nor pydantic for it (a simulation's
imports: tests/test_startup.py)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from thermopylae.engine import components as engine
from thermopylae.games.hot_gates import components

DEFAULT = Path(components.__file__).with_name("components.toml")


def fresh() -> components.Components:
    """The default set validated now, from its file, bypassing the cache."""
    return dataclasses.replace(components.load(DEFAULT), origin="default")


def test_the_default_set_is_validated_once_then_read_from_the_cache(component_cache: Path) -> None:
    want = fresh()
    assert components.load() == want  # derived, then written
    kept = engine.cache_path(components.__package__)
    assert kept is not None and kept.is_relative_to(component_cache) and kept.exists()
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
