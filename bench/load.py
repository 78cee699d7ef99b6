"""Load test of the game server (issue 8): N concurrent tables played over the real API.

    .venv/bin/python bench/load.py --tables 100 --seconds 30
    .venv/bin/python bench/load.py --tables 500 --seconds 45 --db postgresql --processes 2 \\
                                   --redis redis://127.0.0.1:6379/0
    .venv/bin/python bench/load.py --url http://127.0.0.1:8300 --tables 10 --json

Starts real `thermopylae serve` processes on loopback (or uses running ones, `--url`), then
keeps `--tables` tables going at once for `--seconds` seconds. Every seat of every table is
a client-side player: it opens the table's WebSocket with its token (asking for updates
as patches after the first, as the browser does; `--no-patches`: whole updates; a server
that does not know patches sends whole updates anyway), waits for an update that says
it is its turn, thinks for a random time (`--think`, mean seconds), picks a random
action from the `legal` list of that update, and POSTs it with its token and the move
number. A table whose game is over is replaced by a new one, so N tables stay live.

Measured over the window (after every table has its sockets open):
- actions per second (accepted POSTs) and steps per second (moves stored, chance included);
- latency from the POST being sent to the pushed update (the first one past that move)
  arriving on each WebSocket of the table: p50/p95/p99/max; the POST's answer time too;
- errors by kind (HTTP status, WebSocket error message, closed socket, a push that never
  came within `--timeout`), and Tracebacks in the server logs;
- the RSS (VmRSS in /proc/PID/status) and CPU time of each server process.

The default game is Thermopyles with 2 human seats: two sockets per table (so every action
is fanned out to two sockets, across processes when there are several), a chance step after
most actions, and the cheapest rules and views of the three games, so the server's own
costs (HTTP, storage, WebSocket fan-out) dominate rather than the rules. `--game hot-gates`
or `earth-and-water` measures the dearer games.

With `--db postgresql` a fresh scratch database (`load_bench_<random>`) is created on the
server of `--pg` and dropped at the end; with SQLite (the default) the database is a file in
a fresh folder under /tmp, on disk, with the server's usual `synchronous=FULL`.
Progress goes to stderr every `--every` seconds; `--json` prints the report as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Coroutine
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

GAMES: dict[str, tuple[dict[str, Any], int]] = {  # game -> (options, seats)
    "thermopyles": ({"players": 2}, 2),
    "earth-and-water": ({}, 2),
    "hot-gates": ({"players": 2}, 2),
}
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"


# -- measuring -----------------------------------------------------------------------------


@dataclass
class Stats:
    measuring: bool = False
    actions: int = 0
    steps: int = 0
    push: list[float] = field(default_factory=list)  # seconds, POST sent -> push received
    answer: list[float] = field(default_factory=list)  # seconds, POST sent -> its answer
    lag: list[float] = field(default_factory=list)  # seconds this client's loop was late
    errors: Counter[str] = field(default_factory=Counter)
    tables_created: int = 0
    games_finished: int = 0

    def error(self, kind: str) -> None:
        if self.measuring:
            self.errors[kind] += 1


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list (so p50 <= p95 <= p99 <= max)."""
    n = len(sorted_values)
    return sorted_values[min(n - 1, max(0, math.ceil(q * n) - 1))]


def summary_ms(values: list[float]) -> dict[str, float | int | None]:
    v = sorted(values)
    if not v:
        return {"count": 0, "p50": None, "p95": None, "p99": None, "max": None}
    return {
        "count": len(v),
        "p50": round(percentile(v, 0.50) * 1000, 2),
        "p95": round(percentile(v, 0.95) * 1000, 2),
        "p99": round(percentile(v, 0.99) * 1000, 2),
        "max": round(v[-1] * 1000, 2),
    }


def rss_kib(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def machine_busy() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs since boot, from /proc/stat."""
    try:
        values = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0, 0
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return sum(values) - idle, sum(values)


def load_average() -> float | None:
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


async def watch_lag(stats: Stats, stop: asyncio.Event) -> None:
    """How late this client's event loop wakes up (a busy client inflates its latencies)."""
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(0.01)
        if stats.measuring:
            stats.lag.append(time.perf_counter() - t - 0.01)


def cpu_times(pid: int) -> tuple[float, float] | None:
    """User and system CPU time of a process (its threads included), in seconds: the
    system's share is the kernel's socket, poll and file work done for the server."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


# -- the servers ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serve_command() -> list[str]:
    beside = Path(sys.executable).parent / "thermopylae"
    return [str(beside)] if beside.exists() else [sys.executable, "-m", "thermopylae"]


@dataclass
class Server:
    url: str
    pid: int | None
    proc: subprocess.Popen[bytes] | None = None
    log: Path | None = None


def launch_server(
    db: str, redis: str | None, folder: Path, index: int, extra: list[str] | None = None
) -> Server:
    """A `thermopylae serve` process, started and not waited for (`wait_server`), so that
    several start side by side; `extra`: more options of `serve`."""
    port = free_port()
    log = folder / f"server-{index}.log"
    cmd = [*serve_command(), "serve", "--host", "127.0.0.1", "--port", str(port), "--db", db]
    if redis:
        cmd += ["--redis", redis]
    cmd += extra or []
    with log.open("ab") as out:
        proc = subprocess.Popen(
            cmd,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env={**os.environ, "NO_COLOR": "1"},
        )
    return Server(f"http://127.0.0.1:{port}", proc.pid, proc, log)


def wait_server(server: Server, redis: bool, limit: float) -> None:
    """Return once the server's `/api/health` answers (with Redis when `redis`). Its exit
    is seen at once; `limit` only catches a server that hangs (on a busy machine a start-up
    can take far longer than on a quiet one)."""
    proc, log = server.proc, server.log
    assert proc is not None and log is not None
    deadline = time.monotonic() + limit
    while True:
        if proc.poll() is not None:
            raise SystemExit(
                f"the server exited with {proc.returncode}:\n"
                f"{log.read_text(errors='replace')[-3000:]}"
            )
        try:
            r = httpx.get(f"{server.url}/api/health", timeout=5.0)
            if r.status_code == 200 and (not redis or r.json().get("redis")):
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            stop_server(server)
            raise SystemExit(
                f"the server did not get ready within {limit:g} s:\n"
                f"{log.read_text(errors='replace')[-3000:]}"
            )
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(0.05)  # returns at once if it exits meanwhile


def stop_server(server: Server) -> None:
    proc = server.proc
    if proc is not None and proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def tracebacks(servers: list[Server]) -> int:
    return sum(
        s.log.read_text(errors="replace").count("Traceback")
        for s in servers
        if s.log is not None and s.log.exists()
    )


def pg_admin(admin_url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True, connect_timeout=10) as conn:
        conn.execute(sql)


# -- the players ---------------------------------------------------------------------------


class Seat:
    """One seat's WebSocket and the newest update it was pushed."""

    def __init__(self, table: Table, name: str, token: str, ws: ClientConnection) -> None:
        self.table = table
        self.name = name
        self.token = token
        self.ws = ws
        self.latest: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.timed_move = -1  # the submitted move whose push this socket has been timed for
        self.closed = False
        self.refused: str | None = None  # the server's error message to this seat's action

    async def read(self) -> None:
        stats = self.table.stats
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                m = json.loads(raw)
                if m.get("type") == "error":
                    stats.error(f"ws {m.get('status')}")
                    self.refused = f"ws {m.get('status')}"
                    self.changed.set()
                    continue
                kind = m.get("type")
                if kind == "patch" and self.latest is not None:
                    # What the players read (move, to_act, your_turn, legal) is whole in a
                    # patch when it changed: merged on top; the view is not rebuilt here.
                    m = self.latest | m
                    m["type"] = "update"
                elif kind != "update":
                    continue
                sent = self.table.submitted
                if sent is not None and m["move"] > sent[0] and self.timed_move != sent[0]:
                    self.timed_move = sent[0]
                    if stats.measuring:
                        stats.push.append(now - sent[1])
                self.latest = m
                self.changed.set()
            if not self.table.stopping:
                stats.error("ws closed")
        except ConnectionClosed:
            if not self.table.stopping:
                stats.error("ws closed")
        finally:
            self.closed = True
            self.changed.set()


class Table:
    def __init__(self, slot: int, run: Run) -> None:
        self.slot = slot
        self.run = run
        self.stats = run.stats
        self.submitted: tuple[int, float] | None = None  # (move, perf_counter at the POST)
        self.stopping = False

    async def until(self, seat: Seat, move: int) -> dict[str, Any] | None:
        """The seat's newest update once it is at `move` or later (None: timeout, closed
        socket, or the server refused this seat's action)."""
        deadline = time.monotonic() + self.run.timeout
        while seat.latest is None or seat.latest["move"] < move:
            if seat.closed or seat.refused is not None:
                return None
            seat.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                self.stats.error("push timeout")
                return None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(seat.changed.wait(), left)
        return seat.latest

    async def play_one(self) -> None:
        """Create a table, seat the players, play until the game ends or the run stops."""
        run = self.run
        opts, n = GAMES[run.game]
        home = [run.clients[(self.slot + j) % len(run.clients)] for j in range(n)]
        ws_base = [
            run.servers[(self.slot + j) % len(run.servers)].url.replace("http", "ws", 1)
            for j in range(n)
        ]
        r = await home[0].post("/api/tables", json={"game": run.game, "options": opts})
        if r.status_code != 201:
            self.stats.error(f"create {r.status_code}")
            await asyncio.sleep(1.0)
            return
        created = r.json()
        self.stats.tables_created += 1
        seats: dict[str, Seat] = {}
        readers: list[asyncio.Task[None]] = []
        try:
            for j, s in enumerate(created["seats"]):
                ws = await connect(
                    f"{ws_base[j]}/ws/tables/{created['id']}?token={s['token']}"
                    f"&patches={int(run.patches)}",
                    open_timeout=run.timeout,
                    max_size=2**22,
                )
                seat = Seat(self, s["seat"], s["token"], ws)
                seats[seat.name] = seat
                readers.append(asyncio.create_task(seat.read()))
            index = {name: j for j, name in enumerate(seats)}
            move = created["move"]
            first_seat = next(iter(seats.values()))
            first = await self.until(first_seat, move)
            if first is None:
                return
            run.ready.add(self.slot)
            to_act: str | None = first["to_act"]
            move = first["move"]
            while not run.stop.is_set():
                if to_act is None:
                    self.stats.games_finished += 1
                    return
                if to_act == "chance":  # the server draws (a new table's deal): next update
                    later = await self.until(first_seat, move + 1)
                    if later is None:
                        return
                    move, to_act = later["move"], later["to_act"]
                    continue
                seat = seats[to_act]
                mine = await self.until(seat, move)
                if mine is None:
                    return
                if not mine["your_turn"]:  # the server said this seat acts at this move
                    self.stats.error("not your turn")
                    return
                if run.think > 0:
                    await asyncio.sleep(random.uniform(0, 2 * run.think))
                    if run.stop.is_set():
                        return
                action = random.choice(mine["legal"])["action"]
                sent_move = mine["move"]
                t0 = time.perf_counter()
                self.submitted = (sent_move, t0)
                if run.via == "socket":  # as the browser plays while its socket is open
                    await seat.ws.send(
                        json.dumps({"type": "action", "move": sent_move, "action": action})
                    )
                    body = await self.until(seat, sent_move + 1)
                    if body is None:
                        return  # refused, closed or timed out (counted): a fresh table
                else:
                    try:
                        a = await home[index[seat.name]].post(
                            f"/api/tables/{created['id']}/actions",
                            json={"token": seat.token, "move": sent_move, "action": action},
                        )
                    except httpx.HTTPError as exc:
                        self.stats.error(f"http {type(exc).__name__}")
                        return
                    if a.status_code != 200:
                        self.stats.error(f"http {a.status_code}")
                        return  # a fresh table: this one's state is in doubt
                    body = a.json()
                if self.stats.measuring:
                    self.stats.answer.append(time.perf_counter() - t0)
                    self.stats.actions += 1
                    self.stats.steps += body["move"] - sent_move
                move = body["move"]
                to_act = body["to_act"]
        except (OSError, ConnectionClosed, TimeoutError) as exc:
            if not run.stop.is_set():
                self.stats.error(f"ws {type(exc).__name__}")
                await asyncio.sleep(0.5)
        finally:
            self.stopping = True
            for seat in seats.values():
                with contextlib.suppress(Exception):
                    await seat.ws.close()
            for t in readers:
                t.cancel()
            for t in readers:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await t

    async def loop(self) -> None:
        while not self.run.stop.is_set():
            self.stopping = False
            try:
                await self.play_one()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a fault of this client or an answer it did not expect
                self.stats.error(f"client {type(exc).__name__}: {exc}"[:80])
                await asyncio.sleep(0.5)


class Run:
    def __init__(self, args: argparse.Namespace, servers: list[Server]) -> None:
        self.game: str = args.game
        self.think: float = args.think
        self.via: str = args.via
        self.patches: bool = args.patches
        self.timeout: float = args.timeout
        self.servers = servers
        self.stats = Stats()
        self.stop = asyncio.Event()
        self.ready: set[int] = set()
        # Idle connections are dropped before the server's keep-alive timeout (uvicorn's 5 s)
        # would close them under a request just sent (an httpx ReadError, not a server fault).
        limits = httpx.Limits(
            max_connections=args.tables * 2 + 20,
            max_keepalive_connections=args.tables * 2 + 20,
            keepalive_expiry=2.0,
        )
        self.clients = [
            httpx.AsyncClient(base_url=s.url, timeout=args.timeout, limits=limits) for s in servers
        ]

    async def close(self) -> None:
        for c in self.clients:
            await c.aclose()


def progress(msg: str, quiet: bool) -> None:
    if not quiet:
        print(msg, file=sys.stderr, flush=True)


async def drive(
    args: argparse.Namespace,
    servers: list[Server],
    client: int = 0,
    barrier: Any = None,
    results: Any = None,
) -> dict[str, Any] | None:
    """Play this client's share of the tables (every `args.clients`-th, from `client`).
    Client 0 also samples the servers and, with several clients, merges their figures
    (sent on `results` after a common window started at `barrier`) into the report."""
    slots = range(client, args.tables, args.clients)
    run = Run(args, servers)
    stats = run.stats
    pids = [s.pid for s in servers if s.pid is not None] if client == 0 else []
    started = time.monotonic()
    tasks: list[asyncio.Task[None]] = []
    for i, slot in enumerate(slots):  # ramp up: a few tables at a time
        tasks.append(asyncio.create_task(Table(slot, run).loop()))
        if i % args.ramp == args.ramp - 1:
            await asyncio.sleep(0.05)
    while len(run.ready) < len(slots) and time.monotonic() - started < args.timeout * 6:
        await asyncio.sleep(0.1)
    setup = time.monotonic() - started
    if client == 0:
        progress(
            f"[setup] {len(run.ready)}/{len(slots)} tables seated in {setup:.1f} s"
            f"{' by client 0' if args.clients > 1 else ''}",
            args.quiet,
        )
    if barrier is not None:  # every client has seated its tables
        await asyncio.to_thread(barrier.wait, args.timeout * 6 + 120)
    if args.warmup > 0:  # the first moves of 500 fresh tables come at once: not measured
        if client == 0:
            progress(f"[warm-up] {args.warmup:g} s", args.quiet)
        await asyncio.sleep(args.warmup)
    cpu0 = {p: cpu_times(p) for p in pids}
    client0, machine0 = time.process_time(), machine_busy()
    lag_task = asyncio.create_task(watch_lag(stats, run.stop))
    rss_peak: dict[int, int] = {}
    stats.measuring = True
    t0 = time.monotonic()
    next_tick = t0 + args.every
    while True:
        now = time.monotonic()
        for p in pids:
            kib = rss_kib(p)
            if kib is not None:
                rss_peak[p] = max(rss_peak.get(p, 0), kib)
        if now - t0 >= args.seconds:
            break
        if now >= next_tick and client == 0:
            next_tick += args.every
            v = sorted(stats.push)
            p99 = f"{percentile(v, 0.99) * 1000:.1f}" if v else "-"
            mib = sum(rss_kib(p) or 0 for p in pids) / 1024
            progress(
                f"[{now - t0:5.1f} s] {'client 0: ' if args.clients > 1 else ''}"
                f"actions {stats.actions} ({stats.actions / (now - t0):.1f}/s), "
                f"push p99 {p99} ms, errors {sum(stats.errors.values())}, "
                f"games done {stats.games_finished}, server RSS {mib:.0f} MiB",
                args.quiet,
            )
        await asyncio.sleep(min(0.25, max(0.0, args.seconds - (now - t0))))
    window = time.monotonic() - t0
    stats.measuring = False
    cpu1 = {p: cpu_times(p) for p in pids}
    client_cpu, machine1 = time.process_time() - client0, machine_busy()
    load = load_average()
    rss_end = {p: rss_kib(p) for p in pids}
    run.stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, lag_task, return_exceptions=True)
    await run.close()
    raw = {
        "stats": asdict(stats),
        "seated": len(run.ready),
        "setup": setup,
        "client_cpu": client_cpu,
    }
    if client != 0:
        results.put(raw)
        return None
    parts = [raw] + [
        await asyncio.to_thread(results.get, True, 120) for _ in range(args.clients - 1)
    ]
    for part in parts[1:]:
        other = part["stats"]
        stats.actions += other["actions"]
        stats.steps += other["steps"]
        stats.push += other["push"]
        stats.answer += other["answer"]
        stats.lag += other["lag"]
        stats.errors.update(other["errors"])
        stats.tables_created += other["tables_created"]
        stats.games_finished += other["games_finished"]
    spent = [  # (user, system) seconds of each server process over the window
        (after[0] - before[0], after[1] - before[1])
        for p in pids
        if (before := cpu0.get(p)) is not None and (after := cpu1.get(p)) is not None
    ]
    cpu = [user + system for user, system in spent]
    return {
        "game": args.game,
        "tables": args.tables,
        "seated": sum(x["seated"] for x in parts),
        "seconds": round(window, 2),
        "setup_seconds": round(max(x["setup"] for x in parts), 2),
        "think": args.think,
        "warmup": args.warmup,
        "db": args.db if not args.url else "external",
        "processes": len(servers),
        "redis": args.redis,
        "clients": args.clients,
        "actions": stats.actions,
        "actions_per_second": round(stats.actions / window, 1),
        "steps_per_second": round(stats.steps / window, 1),
        "push_latency_ms": summary_ms(stats.push),
        "answer_latency_ms": summary_ms(stats.answer),
        "errors": dict(stats.errors),
        "error_count": sum(stats.errors.values()),
        "tables_created": stats.tables_created,
        "games_finished": stats.games_finished,
        "server_rss_mib": {
            "peak": round(sum(rss_peak.values()) / 1024, 1),
            "end": round(sum(v or 0 for v in rss_end.values()) / 1024, 1),
            "per_process_peak": [round(rss_peak.get(p, 0) / 1024, 1) for p in pids],
        },
        "server_cpu_percent": round(100 * sum(cpu) / window, 1) if cpu else None,
        "client_cpu_percent": round(100 * sum(x["client_cpu"] for x in parts) / window, 1),
        # what an accepted action costs each side, in CPU milliseconds (every server
        # process together; every client process together)
        "server_cpu_ms_per_action": (
            round(1000 * sum(cpu) / stats.actions, 3) if cpu and stats.actions else None
        ),
        "server_cpu_user_ms_per_action": (
            round(1000 * sum(u for u, _ in spent) / stats.actions, 3)
            if spent and stats.actions
            else None
        ),
        "server_cpu_system_ms_per_action": (
            round(1000 * sum(s for _, s in spent) / stats.actions, 3)
            if spent and stats.actions
            else None
        ),
        "client_cpu_ms_per_action": (
            round(1000 * sum(x["client_cpu"] for x in parts) / stats.actions, 3)
            if stats.actions
            else None
        ),
        "via": args.via,
        "patches": args.patches,
        "client_loop_lag_ms": summary_ms(stats.lag),
        "machine": {
            "cores": os.cpu_count(),
            "load_average_1min": load,
            "cpu_busy_percent": round(
                100 * (machine1[0] - machine0[0]) / max(1, machine1[1] - machine0[1]), 1
            ),
        },
    }


def client_process(
    args: argparse.Namespace, servers: list[Server], client: int, barrier: Any, results: Any
) -> None:
    """Another client process (`--clients`): plays its share of the tables."""
    if args.seed is not None:
        random.seed(args.seed * 1000 + client)
    run_async(drive(args, servers, client, barrier, results))


def measure(args: argparse.Namespace, servers: list[Server]) -> dict[str, Any]:
    if args.clients == 1:
        report = run_async(drive(args, servers))
        assert report is not None
        return report
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(args.clients)
    results = ctx.Queue()
    bare = [Server(s.url, s.pid) for s in servers]  # no process handles: they stay here
    others = [
        ctx.Process(target=client_process, args=(args, bare, i, barrier, results), daemon=True)
        for i in range(1, args.clients)
    ]
    for proc in others:
        proc.start()
    try:
        report = run_async(drive(args, servers, 0, barrier, results))
    finally:
        for proc in others:
            proc.join(30)
            if proc.is_alive():
                proc.terminate()
    assert report is not None
    return report


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="bench/load.py",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Drive N concurrent tables of real `thermopylae serve` processes over "
        "HTTP + WebSocket with random client-side players; report actions/s, "
        "push latency percentiles, errors and server memory.",
        epilog="examples:\n"
        "  bench/load.py --tables 100 --seconds 30\n"
        "  bench/load.py --tables 500 --db postgresql --processes 2 "
        "--redis redis://127.0.0.1:6379/0\n"
        "  bench/load.py --url http://127.0.0.1:8300 --server-pid 1234 --json",
    )
    p.add_argument("--tables", type=int, default=100, help="concurrent tables (default 100)")
    p.add_argument(
        "--seconds",
        type=float,
        default=30.0,
        help="length of the measured window, after set-up (default 30)",
    )
    p.add_argument(
        "--game",
        choices=sorted(GAMES),
        default="thermopyles",
        help="game of every table, 2 human seats (default thermopyles)",
    )
    p.add_argument(
        "--warmup",
        type=float,
        default=5.0,
        help="seconds played after set-up before the window opens (default 5)",
    )
    p.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean think time of a player in seconds, uniform in [0, 2*think] "
        "(default 1.0; 0: act as soon as it is your turn)",
    )
    p.add_argument(
        "--via",
        choices=["socket", "http"],
        default="socket",
        help="how a player sends its action: over the table's WebSocket, as the browser "
        "does while its socket is open (default), or by POST /api/tables/{id}/actions",
    )
    p.add_argument(
        "--patches",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="ask the table's socket for updates as patches after the first, as the "
        "browser does (default); --no-patches: whole updates",
    )
    p.add_argument(
        "--db",
        choices=["sqlite", "postgresql"],
        default="sqlite",
        help="database of the servers started here (default sqlite)",
    )
    p.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes to start; more than one needs --db postgresql "
        "and --redis (default 1)",
    )
    p.add_argument(
        "--redis", default=None, help="Redis URL for the servers, e.g. redis://127.0.0.1:6379/0"
    )
    p.add_argument(
        "--pg",
        default=PG_ADMIN,
        help=f"PostgreSQL server to create the scratch database on (default {PG_ADMIN})",
    )
    p.add_argument(
        "--url",
        action="append",
        default=[],
        help="use this running server instead of starting one (repeatable)",
    )
    p.add_argument(
        "--server-pid",
        type=int,
        action="append",
        default=[],
        help="with --url: the pid of that server, for its memory and CPU",
    )
    p.add_argument(
        "--clients",
        type=int,
        default=1,
        help="client processes sharing the tables (default 1); one process "
        "drives a few hundred sockets before its own event loop lags",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=15.0,
        help="seconds to wait for a push or an answer before counting an error (default 15)",
    )
    p.add_argument(
        "--start-limit",
        type=float,
        default=300.0,
        help="seconds a server may take to get ready before it counts as hung "
        "(default 300: a busy machine starts servers slowly)",
    )
    p.add_argument(
        "--ramp",
        type=int,
        default=10,
        help="tables started every 50 ms while setting up (default 10)",
    )
    p.add_argument("--every", type=float, default=5.0, help="seconds between progress lines")
    p.add_argument("--seed", type=int, default=None, help="seed of the players' choices")
    p.add_argument(
        "--nice",
        type=int,
        default=0,
        help="change this client's and its servers' niceness by N (e.g. -10, as "
        "root) to measure on a machine that other work keeps busy; the "
        "database and Redis servers are not changed (default 0)",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    p.add_argument(
        "--serve-option",
        action="append",
        default=[],
        help="an option of `thermopylae serve` for the servers started here (repeatable), "
        "e.g. --serve-option=--no-ws-compression",
    )
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument(
        "--keep", action="store_true", help="keep the scratch database / folder and the server logs"
    )
    args = p.parse_args(argv)
    if args.processes > 1 and not args.url and (args.db != "postgresql" or not args.redis):
        p.error("--processes > 1 needs --db postgresql and --redis")
    if args.tables < 1 or args.seconds <= 0 or not 1 <= args.clients <= args.tables:
        p.error(
            "--tables must be at least 1, --seconds positive, and --clients between 1 and --tables"
        )
    return args


def print_report(r: dict[str, Any]) -> None:
    push, answer = r["push_latency_ms"], r["answer_latency_ms"]
    print(
        f"{r['tables']} tables of {r['game']} ({r['seated']} seated in "
        f"{r['setup_seconds']} s, {r['clients']} client process(es)), "
        f"{r['processes']} server process(es) on {r['db']}"
        f"{' + Redis' if r['redis'] else ''}, think {r['think']} s, {r['seconds']} s measured"
    )
    print(
        f"  actions        {r['actions']} ({r['actions_per_second']}/s; "
        f"{r['steps_per_second']} steps/s with chance)"
    )
    print(
        f"  push latency   p50 {push['p50']} ms, p95 {push['p95']} ms, p99 {push['p99']} ms, "
        f"max {push['max']} ms ({push['count']} pushes)"
    )
    print(
        f"  answer latency p50 {answer['p50']} ms, p95 {answer['p95']} ms, p99 {answer['p99']} ms"
    )
    print(f"  errors         {r['error_count']} {r['errors'] or ''}")
    print(
        f"  server         RSS peak {r['server_rss_mib']['peak']} MiB "
        f"{r['server_rss_mib']['per_process_peak']}, end {r['server_rss_mib']['end']} MiB, "
        f"CPU {r['server_cpu_percent']}% of a core, "
        f"{r['server_cpu_ms_per_action']} ms of CPU per accepted action (user "
        f"{r['server_cpu_user_ms_per_action']}, system {r['server_cpu_system_ms_per_action']})"
    )
    lag, m = r["client_loop_lag_ms"], r["machine"]
    print(
        f"  client         CPU {r['client_cpu_percent']}% of a core "
        f"({r['client_cpu_ms_per_action']} ms per action, actions by {r['via']}), "
        "event loop late by "
        f"p99 {lag['p99']} ms; machine {m['cores']} cores {m['cpu_busy_percent']}% busy, "
        f"load average {m['load_average_1min']}{', nice ' + str(r['nice']) if r['nice'] else ''}"
    )
    print(
        f"  games          {r['games_finished']} finished, {r['tables_created']} tables "
        f"created; server Tracebacks {r['server_tracebacks']}"
    )


def run_async(coro: Coroutine[Any, Any, dict[str, Any] | None]) -> dict[str, Any] | None:
    """With uvloop when it is installed (it comes with uvicorn[standard]): a leaner client
    leaves more of the machine to the servers it measures."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


def _stop_on_sigterm(signum: int, frame: object) -> None:
    """A SIGTERM (a script or `timeout` ending the bench) ends it as Ctrl-C does: through
    `main`'s cleanup, so that the servers it started are stopped, not left running."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    if args.nice:
        os.nice(args.nice)  # the servers started below inherit it
    if args.seed is not None:
        random.seed(args.seed)
    servers: list[Server] = []
    scratch = Path(tempfile.mkdtemp(prefix="load_bench_"))
    dbname: str | None = None
    try:
        if args.url:
            pids = args.server_pid + [None] * (len(args.url) - len(args.server_pid))
            servers = [Server(u.rstrip("/"), pid) for u, pid in zip(args.url, pids, strict=True)]
        else:
            if args.db == "postgresql":
                dbname = f"load_bench_{secrets.token_hex(4)}"
                pg_admin(args.pg, f'CREATE DATABASE "{dbname}"')
                base = args.pg.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://")
                db = f"{base}/{dbname}"
            else:
                db = f"sqlite:///{scratch / 'tables.db'}"
            progress(f"[start] {args.processes} server process(es) on {db}", args.quiet)
            servers = [
                launch_server(db, args.redis, scratch, i, args.serve_option)
                for i in range(args.processes)
            ]
            for server in servers:
                wait_server(server, bool(args.redis), args.start_limit)
        report = measure(args, servers)
        report["nice"] = args.nice
        report["server_tracebacks"] = tracebacks(servers)
    finally:
        for s in servers:
            stop_server(s)
        if dbname is not None and not args.keep:
            with contextlib.suppress(Exception):
                pg_admin(args.pg, f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
        if args.keep:
            progress(f"[kept] {scratch}{' and database ' + dbname if dbname else ''}", args.quiet)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the servers are stopped by now
        sys.exit("load.py: interrupted; the servers it started are stopped")
