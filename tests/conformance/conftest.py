"""The conformance suite's parameters: every registered game (the toy game of tests/toy
among them) at every player count.

The toy is registered only while a conformance test runs (the `toy_registered` fixture,
which the suite's modules use for all their tests)
and while the parameters are made, never for a whole session: test modules elsewhere read
`registry.game_ids()` when they are collected, and their per-game tables (the server's
hidden-information reading, the interop cases) know the shipped games only. Registering
it per test costs nothing (a dict entry) and keeps every other test's game list as it
is, in whichever xdist worker the tests land.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conformance.sampled import cases
from tests.toy import Toy, registered
from thermopylae.engine import registry


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """`case`: a (game, player count); `game_id`: a game (for what does not depend on the
    players, such as the action table). Only the suite's own tests ask for these."""
    if not {"case", "each_game"} & set(metafunc.fixturenames):
        return
    with registered():
        all_cases = cases()
        ids = registry.game_ids()
    if "case" in metafunc.fixturenames:
        metafunc.parametrize("case", all_cases, ids=str)
    if "each_game" in metafunc.fixturenames:
        metafunc.parametrize("each_game", ids)


@pytest.fixture
def toy_registered() -> Iterator[Toy]:
    """The toy in the registry for one test (the suite's modules use it for every test:
    `pytestmark = pytest.mark.usefixtures("toy_registered")`)."""
    with registered() as toy:
        yield toy
