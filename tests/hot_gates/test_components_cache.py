"""300's default component set holds plain values, so the set read from its cache equals
the one validated now (the cache itself and a simulation's imports: tests/test_startup.py)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from thermopylae.games.hot_gates import components

DEFAULT = Path(components.__file__).with_name("components.toml")


def fresh() -> components.Components:
    """The default set validated now, from its file, bypassing the cache."""
    return dataclasses.replace(components.load(DEFAULT), origin="default")


def test_the_set_keeps_no_pydantic_objects() -> None:
    """Built from plain JSON values, so the cached and the fresh sets compare equal."""
    c = fresh()
    assert type(c.rules) is components.Rules
    assert all(type(u) is components.Unit for u in c.units)
    assert c.rules.glory_bonus == [12, 6, 3]
