"""The process pool of `simulate` (`sim/backends.py`): workers forked where that is safe
and spawned otherwise, started once per run, the same results with any number of workers
and either start method, and no worker process left behind, on errors too.

Children are read from /proc (Linux): the tests that need it are skipped elsewhere.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.sim.procs import TRACKER, children, workers_left
from tests.toy import GAME_ID, registered
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.sim import backends
from thermopylae.sim.forkpool import ForkPool, WorkerDied
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
        if method == "fork":  # forked: this process and one child, before the block runs
            assert len(started) == 1
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


def _meet(folder: str) -> tuple[int, int]:
    """A job that waits (up to a minute) until two processes run jobs at once: proof
    that both play; returns its process and its garbage collector's freeze count."""
    import gc

    Path(folder, str(os.getpid())).touch()
    deadline = time.monotonic() + 60
    while len(list(Path(folder).iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    return os.getpid(), gc.get_freeze_count()


def test_forked_workers_inherit_the_heap_frozen_and_the_parent_thaws(
    method: str, tmp_path: Path
) -> None:
    """Forked, the workers' collections pass the inherited objects by (so do not copy the
    pages they sit on); this process collects as before once the workers are started."""
    import gc

    before = gc.get_freeze_count()  # another module's freeze (the server's) is left alone
    with backends.process_pool(2) as pool:
        assert gc.get_freeze_count() == before
        met = backends.run_jobs(_meet, [str(tmp_path)] * 2, pool=pool)
    frozen = [count for pid, count in met if pid != os.getpid()]
    assert frozen and all((count > 0) == (method == "fork") for count in frozen)


@linux
def test_this_process_plays_a_share_beside_one_forked_child(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With 2 workers on Linux: one child forked, and this process runs jobs at the same
    time as it (the jobs wait for each other), instead of waiting for two children."""
    # forked as in a command (a test worker may run another test's thread, then `spawn`)
    monkeypatch.setattr(backends, "start_method", lambda: "fork")
    with backends.process_pool(2) as pool:
        assert isinstance(pool, ForkPool)
        met = backends.run_jobs(_meet, [str(tmp_path)] * 2, pool=pool)
    pids = {pid for pid, _ in met}
    assert os.getpid() in pids and len(pids) == 2


def _square_or_fail(job: tuple[int, int]) -> int:
    """`job[0]` squared; raises in any process but `job[1]` (0: never), which is slow
    (so that the others get jobs)."""
    if job[1] and os.getpid() != job[1]:
        raise ValueError(f"job {job[0]} refused")
    if job[1]:
        time.sleep(0.02)
    return job[0] * job[0]


@linux
def test_fork_pool_results_in_job_order_over_waves_and_runs() -> None:
    """Results in job order whoever ran each job; a run longer than the ticket pipe runs
    in waves; one pool serves several runs."""
    with ForkPool(3) as pool:
        pool._wave = 7  # small waves: the same code as a run of a million jobs
        jobs = [(i, 0) for i in range(50)]
        seen: list[tuple[int, int]] = []
        assert pool.run(_square_or_fail, jobs, seen.append) == [i * i for i in range(50)]
        assert sorted(seen) == jobs
        assert pool.run(_square_or_fail, jobs[:3]) == [0, 1, 4]
        assert pool.run(_square_or_fail, []) == []


@linux
def test_a_failed_job_in_a_child_says_so_and_closes_the_pool() -> None:
    """The child's exception is raised here with the child's traceback as a note; the
    children are reaped and the pool refuses further runs."""
    before = children()
    pool = ForkPool(2)
    with pytest.raises(ValueError, match="refused") as caught:
        pool.run(_square_or_fail, [(i, os.getpid()) for i in range(40)])
    assert any("in a worker process" in note for note in caught.value.__notes__)
    assert not workers_left(before)
    with pytest.raises(ThermopylaeError, match="closed"):
        pool.run(_square_or_fail, [(1, 0)])
    pool.close()  # a second close does nothing


def _die(parent: int) -> int:
    """Killed in a child; slow in the parent (so that a child gets a job)."""
    if os.getpid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.05)
    return parent


@linux
def test_a_child_that_dies_ends_the_run_with_a_clear_error() -> None:
    before = children()
    with ForkPool(2) as pool, pytest.raises(WorkerDied, match="ended in the middle"):
        pool.run(_die, [os.getpid()] * 40)
    assert not workers_left(before)


@linux
def test_a_child_killed_between_runs_is_a_clear_error_at_the_next() -> None:
    before = children()
    with ForkPool(2) as pool:
        assert pool.run(_square_or_fail, [(2, 0)]) == [4]
        os.kill(pool._children[0].pid, signal.SIGKILL)
        with pytest.raises(WorkerDied):
            pool.run(_square_or_fail, [(3, 0)] * 4)
    assert not workers_left(before)


def test_a_game_registered_after_the_pool_started_reaches_its_workers(method: str) -> None:
    with backends.process_pool(2) as pool, registered():
        one = simulate(GAME_ID, "random", 60, {"players": 2}, seed=4, workers=1)
        two = simulate(GAME_ID, "random", 60, {"players": 2}, seed=4, workers=2, pool=pool)
    assert key(two) == key(one)
