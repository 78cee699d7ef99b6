"""The process pool of `simulate` (`sim/backends.py`): workers forked where that is safe
and spawned otherwise, started once per run, the same results with any number of workers
and either start method, and no worker process left behind, on errors too.

Children are read from /proc (Linux): the tests that need it are skipped elsewhere.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

from tests.sim.procs import TRACKER, children, workers_left
from tests.toy import GAME_ID, registered
from thermopylae.sim import backends
from thermopylae.sim.simulate import Summary, simulate

linux = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


@pytest.fixture(params=["fork", "spawn"])
def method(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each start method in turn (fork only where the platform has it)."""
    name = str(request.param)
    if name == "fork" and sys.platform != "linux":
        pytest.skip("fork is used on Linux only")
    monkeypatch.setattr(backends, "start_method", lambda: name)
    return name


def key(s: Summary) -> tuple[object, ...]:
    return (s.wins, s.draws, s.win_rate, s.ci95, s.mean_turns, s.reasons)


@linux
def test_no_worker_left_behind_after_simulate(method: str) -> None:
    before = children()
    s = simulate("thermopyles", "random", 600, {"players": 2}, seed=3, workers=2)
    assert s.workers == 2 and s.games == 600
    assert not workers_left(before), method


@linux
def test_no_worker_left_behind_when_a_job_fails(method: str) -> None:
    before = children()
    with pytest.raises(ZeroDivisionError):
        backends.run_jobs(_fail_on_three, list(range(8)), workers=2)
    assert not workers_left(before), method


def _fail_on_three(job: int) -> int:
    return 1 // (job - 3)


@linux
def test_process_pool_starts_its_workers_once_before_its_block(method: str) -> None:
    before = children()
    with backends.process_pool(2) as pool:
        started = {p for p in children() if p not in before and TRACKER not in children()[p]}
        if method == "fork":  # forked: every worker at once, before the block runs
            assert len(started) == 2
        one = simulate("thermopyles", "random", 300, {}, seed=5, workers=2, pool=pool)
        two = simulate("thermopyles", "random", 300, {}, seed=5, workers=2, pool=pool)
        assert key(one) == key(two)
        # the same workers served both runs
        assert {p for p in children() if p not in before and TRACKER not in children()[p]} >= (
            started
        )
    assert not workers_left(before)


def test_same_results_for_any_workers_and_start_method(method: str) -> None:
    one = simulate("thermopyles", "random", 700, {"players": 3}, seed=9, workers=1)
    for workers in (2, 3):
        assert key(simulate("thermopyles", "random", 700, {"players": 3}, 9, workers)) == key(one)


def test_a_game_registered_at_run_time_reaches_the_workers(method: str) -> None:
    """Forked workers inherit it; spawned ones adopt it from the pool's initializer."""
    with registered():
        one = simulate(GAME_ID, "random", 60, {"players": 2}, seed=4, workers=1)
        two = simulate(GAME_ID, "random", 60, {"players": 2}, seed=4, workers=2)
    assert key(two) == key(one)


@pytest.mark.skipif(sys.platform != "linux", reason="fork is used on Linux only")
def test_fork_only_while_no_other_thread_runs() -> None:
    """A process forked while another thread holds a lock keeps that lock held forever."""
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    if threading.active_count() == 1:
        assert backends.start_method() == "fork"
    thread.start()
    try:
        assert backends.start_method() == "spawn"
    finally:
        stop.set()
        thread.join()


def _frozen(_job: int) -> int:
    import gc

    return gc.get_freeze_count()


def test_forked_workers_inherit_the_heap_frozen_and_the_parent_thaws(method: str) -> None:
    """Forked, the workers' collections pass the inherited objects by (so do not copy the
    pages they sit on); this process collects as before once the workers are started."""
    import gc

    before = gc.get_freeze_count()  # another module's freeze (the server's) is left alone
    with backends.process_pool(2) as pool:
        assert gc.get_freeze_count() == before
        frozen = pool.submit(_frozen, 0).result()
    assert (frozen > 0) == (method == "fork")
