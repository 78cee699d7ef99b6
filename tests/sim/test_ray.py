"""The Ray backend (`--backend ray`): the same results as the process pool for the same
jobs, progress once per job, clear errors for a bad address and for Ray not installed, and
no Ray processes or files left behind.

One local Ray with 2 CPUs (`ray_cluster`, module-scoped, shut down with
`backends.shutdown_ray` in its teardown) serves every check that needs a cluster. The
suite runs with `-n auto`, which may send a module's tests to different workers, each of
which would start its own Ray (4-10 s, ~700 MB): so those checks are steps of one test,
and the other tests need no cluster.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import entry_point
from tests.sim.procs import children, workers_left
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.sim import backends
from thermopylae.sim.simulate import Summary, simulate

EW_AGENT = "ismcts:iterations=10"


def _slow_echo(job: tuple[int, float]) -> int:
    """A job that takes `job[1]` seconds: later jobs finish first."""
    time.sleep(job[1])
    return job[0]


def _processes_mentioning(marker: str) -> list[str]:
    """Command lines of the running processes that contain `marker` (Ray's processes name
    their temp folder in their arguments)."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if marker in cmdline and str(os.getpid()) != proc.name:
            found.append(f"{proc.name}: {cmdline[:160]}")
    return found


def _wait_gone(marker: str, seconds: float = 15) -> list[str]:
    deadline = time.monotonic() + seconds
    while (left := _processes_mentioning(marker)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[Any]:
    before = children()
    ray = backends.start_ray(num_cpus=2)
    temp_dir = backends._temp_dir
    assert temp_dir is not None and temp_dir.startswith(backends._temp_root())
    assert ray.cluster_resources()["CPU"] == 2
    yield ray
    backends.shutdown_ray()
    assert not ray.is_initialized()
    assert not Path(temp_dir).exists()
    assert not _wait_gone(temp_dir), "Ray processes outlived shutdown_ray"
    assert not workers_left(before, 15), "child processes outlived shutdown_ray"


def _summaries_agree(
    game: str, agent: str, games: int, seed: int, options: dict[str, Any]
) -> Summary:
    """Run on both backends and compare; the process pool's summary."""
    calls: dict[str, list[int]] = {"process": [], "ray": []}
    got = {
        backend: simulate(
            game,
            agent,
            games,
            options,
            seed=seed,
            workers=2,
            backend=backend,
            progress=calls[backend].append,
        )
        for backend in ("process", "ray")
    }
    a, b = got["process"], got["ray"]
    assert (a.wins, a.draws, a.mean_turns, a.reasons) == (
        b.wins,
        b.draws,
        b.mean_turns,
        b.reasons,
    ), game
    # progress: once per job (chunk), told the chunk's size; Ray's chunks are fewer and
    # larger (a task costs it milliseconds), the same games
    for backend in ("process", "ray"):
        assert sum(calls[backend]) == games
    assert len(calls["process"]) >= len(calls["ray"]) > (1 if games > 6 else 0)
    return a


def _order_and_progress() -> None:
    jobs = [(0, 1.0), (1, 0.0), (2, 0.3), (3, 0.0)]
    seen: list[tuple[int, float]] = []
    assert backends.run_jobs(_slow_echo, jobs, backend="ray", progress=seen.append) == [0, 1, 2, 3]
    assert sorted(seen) == jobs  # once per job
    assert seen[-1] == (0, 1.0)  # told as each one finished, not in job order
    assert backends.run_jobs(_slow_echo, [], backend="ray") == []


def _errors_from_tasks() -> None:
    # an error raised by a job reaches the caller as its own class (Ray wraps it)
    with pytest.raises(ValueError, match="invalid literal"):
        backends.run_jobs(int, ["1", "x"], backend="ray")


def _cli_json(*args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    r = subprocess.run(
        [*entry_point(), "simulate", *args, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        stdin=subprocess.DEVNULL,
    )
    assert r.returncode == 0, r.stderr
    result: dict[str, Any] = json.loads(r.stdout)
    return result


def test_ray_backend(ray_cluster: Any) -> None:
    # the same games, whatever runs them (rows gathered in job order)
    pool = _summaries_agree("earth-and-water", EW_AGENT, 6, 1, {})
    _summaries_agree("thermopyles", "heuristic", 1000, 7, {})
    _order_and_progress()
    _errors_from_tasks()

    # another process, through the CLI, connecting to this cluster by its address
    address = ray_cluster.get_runtime_context().gcs_address
    remote = _cli_json(
        "earth-and-water",
        "--agent",
        EW_AGENT,
        "--games",
        "6",
        "--seed",
        "1",
        "--backend",
        "ray",
        "--address",
        address,
    )
    assert remote["wins"] == pool.wins
    assert remote["reasons"] == pool.reasons

    # and through the CLI with a local Ray of its own: nothing left in the temp folder,
    # nothing in the home folder, no process left running
    temp = tempfile.mkdtemp(prefix="t", dir="/tmp")  # short: Ray's socket paths go under it
    home = tempfile.mkdtemp(prefix="home-")
    try:
        env = {**os.environ, "TMPDIR": temp, "HOME": home}
        for key in ("RAY_ADDRESS", "RAY_AUTH_MODE", "RAY_USAGE_STATS_ENABLED"):
            env.pop(key, None)
        own = _cli_json(
            "thermopyles",
            "--agent",
            "heuristic",
            "--games",
            "300",
            "--seed",
            "4",
            "--backend",
            "ray",
            env=env,
        )
        assert own["wins"] == simulate("thermopyles", "heuristic", 300, {}, seed=4, workers=1).wins
        assert os.listdir(temp) == []
        assert os.listdir(home) == []
        assert not _wait_gone(temp), "the CLI's local Ray outlived the command"
    finally:
        shutil.rmtree(temp, ignore_errors=True)
        shutil.rmtree(home, ignore_errors=True)


def test_bad_address_is_a_clear_error() -> None:
    started = time.monotonic()
    port = _free_port()
    with pytest.raises(ThermopylaeError, match=r"no Ray cluster answers at '127\.0\.0\.1:"):
        simulate("thermopyles", "random", 4, {}, backend="ray", address=f"127.0.0.1:{port}")
    with pytest.raises(ThermopylaeError, match="bad Ray address 'nowhere'"):
        backends.run_jobs(abs, [1], backend="ray", address="nowhere")
    with pytest.raises(ThermopylaeError, match="for the ray backend"):
        backends.run_jobs(abs, [1], backend="process", address=f"127.0.0.1:{port}")
    assert time.monotonic() - started < 20  # Ray alone would retry for many minutes


def test_ray_missing_gives_the_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails
    with pytest.raises(ThermopylaeError, match=r"pip install 'thermopylae\[ray\]'"):
        simulate("thermopyles", "random", 4, {}, backend="ray")
    # the process backend needs none of it
    assert simulate("thermopyles", "random", 4, {}, workers=1).games == 4
