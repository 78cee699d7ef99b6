"""A new table's seats: only seats given as accounts make `invited` read the database (the
others are made on the event loop, without a hand-off to a worker thread)."""

from __future__ import annotations

from typing import Any

import pytest

from thermopylae.server import new_table
from thermopylae.server.seats import TableError


class _NoDatabase:
    """A store that fails the test if it is used."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the database was used ({name})")


@pytest.mark.parametrize(
    ("seats", "names"),
    [
        ([{"kind": "human"}, {"kind": "ai", "level": "easy"}], False),
        ([{"kind": "human"}, {"kind": "account", "name": "ann"}], True),
        ([{"kind": "account"}], True),  # malformed: `invited` answers 422
        ("not a list", False),
        ([1, "x", None], False),
        ([], False),
    ],
)
def test_only_account_seats_name_accounts(seats: Any, names: bool) -> None:
    assert new_table.names_accounts(seats) is names


def test_seats_without_accounts_are_made_without_the_database() -> None:
    seats = [{"kind": "human"}, {"kind": "ai", "level": "easy"}]
    out, held = new_table.invited(_NoDatabase(), seats)  # type: ignore[arg-type]
    assert out == seats and held == {}
    assert new_table.invited(_NoDatabase(), "x") == ("x", {})  # type: ignore[arg-type]
    with pytest.raises(TableError) as err:
        new_table.invited(_NoDatabase(), [{"kind": "account"}])  # type: ignore[arg-type]
    assert err.value.status == 422
