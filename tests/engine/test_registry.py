"""The registry: the shipped games listed from its table before their packages are
imported, each imported on its first use, and games registered at run time as before."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

from tests.toy import GAME_ID as TOY_ID
from tests.toy import registered
from thermopylae.engine import registry
from thermopylae.engine.errors import ThermopylaeError


def in_fresh_process(code: str) -> object:
    """What `code` leaves in `result`, run in a new interpreter (JSON)."""
    r = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport json\nprint(json.dumps(result))"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(r.stdout.splitlines()[-1])


@pytest.mark.parametrize("game_id", sorted(registry._BUILTIN))
def test_each_table_entry_is_what_its_package_registers(game_id: str) -> None:
    module, title, lo, hi = registry._BUILTIN[game_id]
    importlib.import_module(module)
    assert registry._SUMMARIES[game_id] == (title, lo, hi)
    game = registry.get(game_id)
    assert game.title == title
    assert type(game).__module__.startswith(module + ".")


def test_listing_imports_no_game_and_a_get_imports_only_its_own() -> None:
    result = in_fresh_process(
        "import sys\n"
        "from thermopylae.engine import registry\n"
        "def games():\n"
        "    return sorted({m.split('.')[2] for m in sys.modules\n"
        "                   if m.startswith('thermopylae.games.')})\n"
        "listed = [[g, *registry.summary(g)] for g in registry.game_ids()]\n"
        "before = games()\n"
        "title = registry.get('earth-and-water').title\n"
        "result = [listed, before, title, games(),\n"
        "          [[g, *registry.summary(g)] for g in registry.game_ids()]]"
    )
    assert isinstance(result, list)
    listed, before, title, after, listed_after = result
    assert listed == [
        ["earth-and-water", "300: Earth & Water", 2, 2],
        ["hot-gates", "300: The Board Game", 2, 4],
        ["thermopyles", "Thermopyles", 1, 4],
    ]
    assert [g for g in before if g != "wording"] == []
    assert title == "300: Earth & Water"
    assert [g for g in after if g != "wording"] == ["earth_and_water"]
    assert listed_after == listed


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(ThermopylaeError, match="unknown game 'chess'") as info:
        registry.get("chess")
    for gid in ("earth-and-water", "hot-gates", "thermopyles"):
        assert gid in str(info.value)


def test_a_game_registered_at_run_time_is_listed_and_handed_to_workers() -> None:
    for gid in registry._BUILTIN:
        registry.get(gid)  # the shipped games imported: never among the registrations
    assert TOY_ID not in registry.game_ids()
    with registered() as toy:
        assert TOY_ID in registry.game_ids()
        assert registry.get(TOY_ID) is toy
        assert registry.summary(TOY_ID) == (toy.title, toy.min_players, toy.max_players)
        games = registry.registrations()
        assert [g[0] for g in games] == [TOY_ID]
    assert TOY_ID not in registry.game_ids()
    registry.adopt(games)  # as a worker's initializer does
    try:
        assert registry.get(TOY_ID) is toy
    finally:
        registry.unregister(TOY_ID)
    assert sorted(registry.game_ids()) == sorted(registry._BUILTIN)
