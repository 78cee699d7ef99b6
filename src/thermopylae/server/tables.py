"""Live tables: the rules applied on the server, every step stored before anyone is told.

A table in memory is a cache of its record in the database: the state is rebuilt by
replaying the stored steps, and before each action the cache catches up with steps another
server process may have stored. Chance is drawn here with the system's secure random
source and stored as steps, so a table's record replays exactly. AI seats think in the AI
pool (`ai_pool.py`) on a copy of the state, outside the table's lock: a slow agent never
blocks the event loop, the database threads or the other tables. Each table owed moves by
chance or its AI seats has one runner task that plays them, one stored step at a time.

Why one module of over 600 lines: loading, catching up, committing and the runner all hold
the same per-table lock and cache invariants (`live.move` equals the stored steps of the
row's epoch); split apart, each part would need the others' internals. What does not
touch the cache lives beside it: seats.py, messages.py, new_table.py, timekeeper.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
import random
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from thermopylae.engine import registry
from thermopylae.engine.errors import NotationError, ThermopylaeError
from thermopylae.engine.play import advance
from thermopylae.engine.protocol import CHANCE, Event
from thermopylae.server import chat, endings, messages, new_table, notices, timekeeper
from thermopylae.server.account_store import Accounts
from thermopylae.server.ai_pool import AiBusy, AiLimits, AiPool
from thermopylae.server.live import LOG_KEPT, Batch, Live, first_state
from thermopylae.server.seats import TableError, seat_rows, token_hash
from thermopylae.server.store import Conflict, Store, StoreError, TableRow, now
from thermopylae.server.workers import Workers

log = logging.getLogger("thermopylae.server")

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
MAX_LIVE = 2000  # tables kept in memory, least recently used dropped first (unless watched)
IDLE_AFTER = 600.0  # seconds unused after which a table nobody watches leaves memory ...
FINISHED_AFTER = 60.0  # ... or, once its game is over, after this many
DB_THREADS = min(32, (os.cpu_count() or 1) + 4)  # as asyncio.to_thread's, for the reads
STALE_TRIES = 8  # times an action is checked again after another process changed the table


Publish = Callable[[str, int], Awaitable[None]]


class Tables:
    """The tables this server process serves. `live` is a cache: a table nobody watches
    (`pinned`) leaves memory once unused for `idle_after` seconds (`finished_after` once its
    game is over) or when more than `max_live` are held (`evict`), and is rebuilt from its
    stored steps when next asked for."""

    def __init__(
        self,
        store: Store,
        publish: Publish | None = None,
        shared: bool = False,
        pinned: Callable[[str], bool] | None = None,
        max_live: int = MAX_LIVE,
        idle_after: float = IDLE_AFTER,
        finished_after: float = FINISHED_AFTER,
        ai: AiPool | None = None,
    ) -> None:
        self.store = store
        self.ai = ai if ai is not None else AiPool(AiLimits(processes=False))
        self.shared = shared  # other processes may store steps of our tables
        self.live: OrderedDict[str, Live] = OrderedDict()  # least recently used first
        self.pinned = pinned  # tables that must stay in memory (watched by a socket)
        self.max_live = max_live
        self.idle_after = idle_after
        self.finished_after = finished_after
        self.publish = publish
        self.chance_rng = random.SystemRandom()
        self._loading = asyncio.Lock()
        # The database calls run in threads of their own (workers.py). SQLite lets one
        # writer in at a time and makes the others sleep and retry (its busy handler
        # sleeps up to 100 ms at a time, which made the tail latency of actions seconds
        # under load): this process's writes go through one thread, which stores the
        # moves that queue up meanwhile together.
        sqlite = str(getattr(store, "url", "")).startswith("sqlite")
        self._reads = Workers(store, DB_THREADS, "thermopylae-db")
        self._writes = (
            Workers(store, 1, "thermopylae-db-write", group=True) if sqlite else self._reads
        )
        self._running: dict[str, asyncio.Task[None]] = {}  # a runner per table owed moves
        self.closing = False
        self.on_notice: Callable[[], None] | None = None  # notices queued: wake delivery
        self.timekeeper: timekeeper.Timekeeper | None = None  # set by the app
        self.link_base: str | None = None  # the site's address, for links in notices

    # -- creating and loading ---------------------------------------------------------

    async def create(
        self,
        game_id: Any,
        options: Any,
        seats: Any,
        client: str = "server",
        clock: Any = None,
        creator: int | None = None,
        link_base: str | None = None,
        terms: new_table.Terms | None = None,
        table_id: str | None = None,
        start: dict[str, Any] | None = None,
    ) -> tuple[Live, list[str | None]]:
        """A new table; returns it and one token per seat (None for AI seats). A table
        with a human seat answers once a human must act; a table of AI seats only is
        played in the background and answers at once. `start`: the position it starts
        from ("play from here": `{"position": state JSON, "from": id, "step": n}`)."""
        game, options, tc = new_table.checked(game_id, options, clock)
        if new_table.names_accounts(seats):  # their accounts are read from the database
            seats, held = await self._reads.call(
                self._store_call, new_table.invited, self.store, seats
            )
        else:  # nothing to read: no hand-off to a worker thread (80 us of CPU on a VM)
            seats, held = new_table.invited(self.store, seats)
        rows, tokens = seat_rows(game, list(game.seats(options)), seats, self.ai.limits)
        for i, account in held.items():
            rows[i]["account"] = account.id
            tokens[i] = None  # the account acts through its session: no link to leak
        terms = terms or new_table.Terms()
        new_table.check_terms(game, terms, rows)
        if any(r["kind"] == "ai" for r in rows):
            self._admit(client)
        if table_id is None:
            table_id = secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")
        t = now()
        row = TableRow(
            table_id,
            game.id,
            game.components_digest,
            options,
            rows,
            t,
            False,
            updated=t,  # as stored (Store.create): the row held here is the stored one
            clock=None if tc is None else tc.to_json(),
            public_link=f"{self.link_base or link_base or ''}/table/{table_id}",
            open_seats=sum(r["kind"] == "open" for r in rows),
            start=start,
            **terms.columns(),
        )
        live = Live(row, game, options, first_state(game, row), client=client)
        live.names = {a.id: a.name for a in held.values()}
        live.shares = {a.id: a.low_share for a in held.values()}
        self._make_agents(live)
        deal = None
        if not row.open_seats:  # with open seats the game (and its clock) waits for them
            deal = self._deal(live)
            to_act = live.to_act() if deal is None else game.to_act(deal.state)
            live.row = row.with_values(timekeeper.after(live, to_act, now()))
        writer = notices.invitation(live, creator)
        played = None if deal is None else deal.steps
        await self._write(self._store_call, self.store.create, live.row, writer, played)
        if deal is not None:
            live.state = deal.state
            _record(live, deal.steps, deal.events)
        self.live[table_id] = live
        self._evict_over_cap()
        runner = self._kick(live)
        if runner is not None and any(r["kind"] == "human" for r in rows):
            await self._wait_for(runner)
        return live, tokens

    def _deal(self, live: Live) -> Batch | None:
        """The chance steps a new table starts with (its deal), drawn on a copy and stored
        with the table in one transaction, as the runner would have stored them right
        after it (one commit and one hand-off to the writer thread less a table). None:
        no chance first, or a deal that ends the game (no game's does; the runner would
        draw it again and store it with the game's ending, as any step that ends one)."""
        if live.to_act() != CHANCE:
            return None
        deal = self._then_chance(live, [])
        return None if live.game.outcome(deal.state) is not None else deal

    def _admit(self, client: str) -> None:
        """429 for a client whose tables already wait for the AI as many as it may."""
        try:
            self.ai.admit(client)
        except AiBusy as exc:
            raise TableError(429, str(exc)) from exc

    def _make_agents(self, live: Live) -> None:
        live.agents.clear()
        for i, seat in enumerate(live.row.seats):
            if seat["kind"] == "ai":
                live.agents[i] = seat["agent"]
        for i in live.row.standin:  # their time ran out: a bot plays until they are back
            agent = timekeeper.standin_agent(live, i)
            if agent is not None:
                live.agents[i] = agent

    def _load_names(self, live: Live) -> None:
        held = [a for a in live.row.accounts().values()]
        found = Accounts(self.store).by_ids(held)
        live.names = {i: a.name for i, a in found.items()}
        live.shares = {i: a.low_share for i, a in found.items()}

    async def get(self, table_id: str, catch_up: bool = True) -> Live:
        """The table, loaded from the database if this process does not hold it yet; with
        other processes sharing the database, caught up with their steps (`catch_up=False`
        for a caller that catches up itself, under the table's lock)."""
        # Only well-formed ids are ever held: a held one needs no pattern match (every
        # push looks its table up here).
        live = self.live.get(table_id) if isinstance(table_id, str) else None
        if live is None and (not isinstance(table_id, str) or not TABLE_ID.fullmatch(table_id)):
            raise TableError(404, f"no table {table_id!r}")
        if live is not None:
            live.used = time.monotonic()
            self.live.move_to_end(table_id)
            if self.shared and catch_up:  # the row too: another process may have ended it
                async with live.lock:
                    await self._catch_up(live, row_too=True)
            return live
        live = await self._load(table_id)
        if live.to_act() == CHANCE:  # a step the server died before drawing
            async with live.lock:
                if live.to_act() == CHANCE:
                    with contextlib.suppress(TableError):  # the next request tries again
                        await self._commit(live, self._then_chance(live, []))
        self._kick(live)  # AI seats owed a move play on in the background
        return live

    async def _load(self, table_id: str) -> Live:
        """The table from the database: its steps replayed."""
        async with self._loading:
            live = self.live.get(table_id)
            if live is not None:
                return live
            row = await self._reads.call(self._store_call, self.store.table, table_id)
            if row is None:
                raise TableError(404, f"no table {table_id!r}")
            try:
                game = registry.get(row.game)
            except ThermopylaeError as exc:
                raise TableError(500, f"table {table_id}: {exc}") from exc
            live = Live(row, game, dict(row.options), first_state(game, row))
            self._make_agents(live)
            if row.accounts():
                await self._reads.call(self._store_call, self._load_names, live)
            await self._catch_up(live)
            live.chat_last = await self._reads.call(
                self._store_call, chat.last_id, self.store, table_id
            )
            self.live[table_id] = live
            self._evict_over_cap()
            return live

    def _owes_a_move(self, live: Live) -> bool:
        """Chance or an AI seat must act: the server owes the table its next steps."""
        to_act = live.to_act()
        return to_act == CHANCE or (to_act is not None and to_act in live.agents)

    # -- leaving memory -----------------------------------------------------------------

    def _evictable(self, live: Live) -> bool:
        tid = live.row.id
        return not (
            live.lock.locked()
            or tid in self._running
            or (self.pinned is not None and self.pinned(tid))
        )

    def evict(self, now: float | None = None) -> list[str]:
        """Drop from memory the tables nobody watches that were unused for `idle_after`
        seconds (`finished_after` once over), then the least recently used ones past
        `max_live`; each is rebuilt from the database when next asked for. Returns their
        ids."""
        now = time.monotonic() if now is None else now
        dropped = []
        for tid, live in list(self.live.items()):
            over = live.to_act() is None
            if now - live.used >= (
                self.finished_after if over else self.idle_after
            ) and self._evictable(live):
                del self.live[tid]
                dropped.append(tid)
        return dropped + self._evict_over_cap()

    def _evict_over_cap(self) -> list[str]:
        dropped: list[str] = []
        excess = len(self.live) - self.max_live
        if excess <= 0:
            return dropped
        for tid, live in list(self.live.items()):  # least recently used first
            if len(dropped) >= excess:
                break
            if self._evictable(live):
                del self.live[tid]
                dropped.append(tid)
        return dropped

    async def _catch_up(self, live: Live, row_too: bool = False, chat_too: bool = False) -> bool:
        """Apply the steps other processes (or an earlier life of this one) stored; with
        new steps (or `row_too`) the table's row is read again too (its clock, a forfeit,
        a stand-in); with `chat_too`, the row and the id of its last chat message, in the
        same transaction."""
        if chat_too:
            new, row, last = await self._reads.call(
                self._store_call, self.store.since_and_chat, live.row.id, live.move
            )
            if last != live.chat_last:  # a message was posted there
                live.chat_last = last
                live.changes += 1
            row_too = True
        else:
            new, row = await self._reads.call(
                self._store_call, self.store.since, live.row.id, live.move, row_too
            )
        if new or row_too:
            await self._apply_caught(live, new, row)
        return bool(new)

    async def _apply_caught(
        self, live: Live, new: list[tuple[str, str]], row: TableRow | None
    ) -> None:
        """Apply what another process stored: the `new` steps from `live.move` on, read
        before the table's `row` (or under its lock)."""
        if row is not None and row.epoch != live.row.epoch:  # moves were taken back
            await self._rebuild(live, row)
            return
        for who, text in new:  # read before the row: steps of the epoch it holds
            self._apply(live, who, text)
        if row is not None and row != live.row:
            live.row = row
            live.changes += 1
            self._make_agents(live)
            if set(row.accounts().values()) - set(live.names):  # a seat claimed there
                await self._reads.call(self._store_call, self._load_names, live)

    async def _rebuild(self, live: Live, row: TableRow) -> None:
        """Another process took moves back (the row's epoch grew): the table is replayed
        from its stored steps. The row is read before the steps: were moves taken back
        again in between, the older epoch kept here makes the next catch-up rebuild again
        (and refuses a move stored from this copy meanwhile, see Store.append)."""
        stored = await self._reads.call(self._store_call, self.store.steps, live.row.id)
        live.row = row
        self.replay(live, stored)
        self._make_agents(live)

    def replay(self, live: Live, stored: list[tuple[str, str]]) -> None:
        """Make `stored` the table's steps, replayed from the start (after a takeback);
        `live.version` still grows, so every screen is told."""
        before = live.version
        live.state = first_state(live.game, live.row)
        live.steps, live.log = [], []
        for who, text in stored:
            self._apply(live, who, text)
        live.changes += max(1, before + 1 - live.version)

    def _apply(self, live: Live, who: str, text: str) -> None:
        g = live.game
        _record(live, [(who, text)], [g.apply(live.state, g.parse(text))])

    async def _write(self, fn: Callable[..., Any], *args: Any) -> Any:
        """A database write, in the writer thread (SQLite) or any database thread."""
        return await self._writes.call(fn, *args)

    def _store_call(self, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return fn(*args)
        except StoreError as exc:
            raise TableError(503, f"{exc}; nothing was stored or changed, try again") from exc

    # -- playing ------------------------------------------------------------------------

    def seat_of(self, live: Live, token: str | None, account: int | None = None) -> int | None:
        """The seat a token holds, or else a seat the logged-in `account` holds (the one
        that must act first, if it holds several); None: a spectator. A wrong token is
        refused."""
        if (token is None or token == "") and account is not None:
            mine = [i for i, a in live.row.accounts().items() if a == account]
            if not mine:
                return None
            to_act = live.to_act()
            return to_act if to_act in mine else mine[0]
        if token is None or token == "":
            return None
        if not isinstance(token, str):
            raise TableError(403, "the token must be a string")
        h = token_hash(token)
        for i, seat in enumerate(live.row.seats):
            if seat["token_hash"] and hmac.compare_digest(seat["token_hash"], h):
                return i
        raise TableError(403, "this token holds no seat at this table")

    async def submit(
        self,
        table_id: str,
        token: Any,
        move: Any,
        action: Any,
        client: str = "server",
        account: int | None = None,
    ) -> Live:
        """A seat's action: applied only if the seat must act now, the move number is the
        table's and the action is legal; otherwise refused and nothing changes. Answers
        once the AI seats that follow have played (or a human must act)."""
        live = await self.get(table_id, catch_up=False)
        if account is None and (not isinstance(token, str) or not token):
            raise TableError(
                403, "a seat token is required to act (or a login that holds the seat)"
            )
        if not isinstance(move, int) or isinstance(move, bool):
            raise TableError(422, "move must be the table's move number (an integer)")
        if not isinstance(action, str) or not action.strip():
            raise TableError(422, "action must be a non-empty string in the game's notation")
        async with live.lock:
            # Alone on its database, this process holds every step already. Sharing it, the
            # move is checked against the table as held here and stored only if the table is
            # still so (`_commit`); a move refused, or a table changed meanwhile, is checked
            # again against the stored table, so nothing is refused on a stale copy.
            fresh = not self.shared
            for _attempt in range(STALE_TRIES):
                try:
                    seat, parsed = self._check(live, token, account, move, action)
                except TableError:
                    if fresh:
                        raise
                    await self._catch_up(live, row_too=True)
                    fresh = True
                    continue
                if live.agents:
                    self._admit(client)
                # The action and the chance steps it leads to are stored in one transaction
                # and told in one update (a commit and a push per action, not two).
                batch = self._then_chance(live, [(live.seat_names[seat], parsed)])
                if await self._commit(live, batch):
                    break
                fresh = True
            else:
                raise TableError(409, "the table kept changing meanwhile; reload and try again")
            live.client = client
        runner = self._kick(live)
        if runner is not None:
            await self._wait_for(runner)
        return live

    def _check(
        self, live: Live, token: Any, account: int | None, move: int, action: str
    ) -> tuple[int, Any]:
        """The acting seat and its parsed action, if the seat must act now at move `move`
        and the action is legal on the table as held here; else TableError."""
        seat = self.seat_of(live, token, account)
        g = live.game
        to_act = live.to_act()
        if to_act is None:
            raise TableError(409, "the game is over")
        if live.row.open_seats:
            raise TableError(409, f"waiting for players: {', '.join(live.open_seats())}")
        if move != live.move:
            raise TableError(
                409,
                f"stale move number {move}: the table is at move {live.move}; reload and try again",
            )
        if seat is None or to_act != seat:
            who = live.seat_names[to_act] if to_act != CHANCE else "chance"
            raise TableError(409, f"it is not your turn: {who} must act")
        timekeeper.too_late(live, seat)
        if seat in live.row.standin:
            raise TableError(409, "a bot plays this seat since its time ran out; reload")
        try:
            parsed = g.parse(action)
        except NotationError as exc:
            raise TableError(400, f"not an action: {exc}") from exc
        if parsed not in g.legal(live.state):
            legal = ", ".join(g.format(a) for a in list(g.legal(live.state))[:12])
            raise TableError(400, f"illegal action {action!r}; legal now: {legal}")
        return seat, parsed

    async def _commit(self, live: Live, batch: Batch) -> bool:
        """Store the `batch` of steps (played on a copy), then make its state the table's.
        Sharing the database, the batch is stored only if the table is still as held here
        (Store.append's `seen`): else nothing is stored, what changed is applied, and
        False is returned for the caller to look again."""
        g = live.game
        new, trial = batch.steps, batch.state
        outcome = g.outcome(trial)
        over = outcome is not None
        to_act = None if over else g.to_act(trial)
        start = live.move
        t = now()
        values = timekeeper.after(live, to_act, t)
        if outcome is not None:
            values.update(endings.columns(outcome, t))
        values["takeback"] = None  # a move played is a "no" to a pending takeback request
        values["updated"] = t  # the row held here is then the stored one
        writer = notices.combine(
            notices.your_turn(live, new, to_act),
            notices.game_over(live, live.row.id) if over else None,
            None if outcome is None else endings.settle(live.row, g, outcome, t),
        )
        seen = live.row if self.shared else None
        try:
            caught = await self._writes.append(
                live.row.id,
                start,
                new,
                over,
                values,
                writer,
                live.row.epoch,
                seen,
            )
        except Conflict as exc:
            self.live.pop(live.row.id, None)  # another server moved first: reload next time
            raise TableError(409, f"{exc}; reload and try again") from exc
        except StoreError as exc:
            if exc.maybe_stored:  # the commit's outcome is unknown: read the table again
                self.live.pop(live.row.id, None)
                raise TableError(
                    503,
                    f"{exc}; the action may or may not have been stored: "
                    "reload the table once the database is back",
                ) from exc
            raise TableError(503, f"{exc}; the action was not stored, try again") from exc
        if caught is not None:  # another process changed the table: nothing was stored
            if caught[1] is None:
                raise TableError(404, f"no table {live.row.id!r}")
            await self._apply_caught(live, *caught)
            return False
        live.state = trial
        _record(live, new, batch.events)
        values["over"] = over
        live.row = live.row.with_values(values)
        if writer is not None and self.on_notice is not None:
            self.on_notice()
        if self.publish is not None:
            await self.publish(live.row.id, live.version)
        return True

    async def changed(self, live: Live) -> None:
        """The table's row changed without a step (a forfeit, a stand-in): tell screens
        and other processes, and let the runner play if a bot now must."""
        if self.on_notice is not None:
            self.on_notice()
        if self.publish is not None:
            await self.publish(live.row.id, live.version)
        self._kick(live)

    async def back(self, live: Live, seat: int) -> None:
        """The player of `seat` is back: the timekeeper gives the seat back."""
        if self.timekeeper is not None:
            await self.timekeeper.give_back(live, seat)

    def _then_chance(self, live: Live, new: list[tuple[str, Any]]) -> Batch:
        """The seats' actions `new` (seat name, action) followed by the chance steps that
        come after them, drawn now, played once on a copy of the table's state: `_commit`
        stores them and makes that copy the table's state."""
        g = live.game
        state = g.copy(live.state)
        batch = Batch(state)
        for who, action in new:
            batch.steps.append((who, g.format(action)))
            batch.events.append(g.apply(state, action))
        for step in advance(g, state, self.chance_rng):  # chance only: no agents
            batch.steps.append(("chance", g.format(step.action)))
            batch.events.append(step.events)
        return batch

    # -- chance and the AI, in the background -----------------------------------------

    def _kick(self, live: Live) -> asyncio.Task[None] | None:
        """The table's runner, started if chance or an AI seat owes it a move (None: a
        human must act, or the game is over). One runner per table at a time."""
        tid = live.row.id
        task = self._running.get(tid)
        if task is not None and not task.done():
            return task
        to_act = live.to_act()
        if self.closing or to_act is None or (to_act != CHANCE and to_act not in live.agents):
            return None
        if live.row.open_seats:  # nothing moves before every seat is taken
            return None
        task = asyncio.create_task(self._run(live), name=f"table {tid}")
        self._running[tid] = task
        task.add_done_callback(
            lambda _t: self._running.pop(tid, None) if self._running.get(tid) is _t else None
        )
        return task

    async def _wait_for(self, runner: asyncio.Task[None]) -> None:
        """Wait for a runner without owning it, at most `reply_wait` seconds: a client that
        leaves does not stop the table, a failure of the runner is the runner's to retry,
        and an AI turn longer than that is told over the WebSocket (or the next GET)."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(runner), self.ai.limits.reply_wait)

    async def _run(self, live: Live) -> None:
        """Play chance and the AI seats until a human must act or the game ends. A step
        the database cannot store now is tried again with growing delays (the step before
        it, a seat's action or the table's creation, stands)."""
        delay = 0.5
        # Only a table with AI seats waits for the AI, and counts against its client's
        # bound: the chance steps of human tables (a new table's deal) are drawn at once,
        # however many tables that client has (they were left undealt past the bound).
        waiting = self.ai.table(live.client) if live.agents else contextlib.nullcontext()
        try:
            with waiting:
                while not self.closing:
                    try:
                        if not await self._step(live):
                            return
                        delay = 0.5
                    except TableError as exc:
                        if exc.status != 503:
                            log.warning("table %s: %s", live.row.id, exc.detail)
                            return
                        await asyncio.sleep(delay)
                        delay = min(delay * 2, 10.0)
                        with contextlib.suppress(TableError):
                            async with live.lock:
                                await self._catch_up(live)
                        # A commit of unknown outcome dropped the table from memory: once
                        # caught up this copy is the table again, unless a reader has
                        # loaded another (whose own runner then plays).
                        current = self.live.setdefault(live.row.id, live)
                        if current is not live:
                            self._running.pop(live.row.id, None)
                            self._kick(current)
                            return
        except AiBusy:  # resumed tables of one address past its bound wait for a request
            return
        except (asyncio.CancelledError, BrokenProcessPool):
            return
        except Exception:  # a defect: logged, and the table waits for its next request
            log.exception("table %s: the runner stopped", live.row.id)

    async def _step(self, live: Live) -> bool:
        """One stored step of the runner: chance, or an AI seat's decision and the chance
        after it. False when there is nothing to do."""
        g = live.game
        async with live.lock:
            seat = live.to_act()
            if self.shared and seat != CHANCE:  # chance is stored only if the table is
                await self._catch_up(live)  # still as held here (`_commit`)
                seat = live.to_act()
            if seat is None:
                return False
            if seat == CHANCE:
                await self._commit(live, self._then_chance(live, []))
                return True
            spec = live.agents.get(seat)
            if spec is None:
                return False  # a human's turn
            state, move, epoch = g.copy(live.state), live.move, live.row.epoch
        # Thinking happens outside the lock: the table's readers and its other seats are
        # not held up, and nothing can change the state meanwhile but another process.
        try:
            text = await self.ai.think(g.id, spec, state, live.rng.getrandbits(63), live.client)
        except ThermopylaeError as exc:
            raise TableError(500, f"the AI of {live.seat_names[seat]} failed: {exc}") from exc
        async with live.lock:
            if self.shared:  # a player may have taken the seat back in another process
                await self._catch_up(live, row_too=True)
            if live.move != move or live.row.epoch != epoch or live.agents.get(seat) != spec:
                # The table moved on (or moves were taken back), or the player took the seat
                # back from a stand-in bot while it thought: the bot's move is dropped.
                return True
            parsed = g.parse(text)
            if parsed not in g.legal(live.state):
                raise TableError(
                    500, f"the AI of {live.seat_names[seat]} chose {text!r}, which is not legal"
                )
            await self._commit(live, self._then_chance(live, [(live.seat_names[seat], parsed)]))
        return True

    async def resume_all(self) -> None:
        """After a restart: tables with AI seats are loaded, and those whose AI or chance
        must act go on by themselves, each in its own runner (a slow one holds up no
        other). Tables of human seats only are left in the database until asked for (a
        chance step owed is drawn then, by `get`): start-up does not replay every
        unfinished game."""
        ids = await self._reads.call(self._store_call, self.store.unfinished)
        for table_id in ids:
            if self.closing:
                return
            try:
                row = await self._reads.call(self._store_call, self.store.table, table_id)
                if row is None or not any(s["kind"] == "ai" for s in row.seats):
                    continue
                await self.get(table_id)  # loads the table and starts its runner
            except (TableError, ThermopylaeError):
                continue

    async def close(self) -> None:
        """Stop playing: runners are cancelled and the AI pool's searches ended."""
        self.closing = True
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        self.ai.close()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 2)
        self._writes.close()
        self._reads.close()

    async def refresh(self, table_id: str) -> Live | None:
        """Another process stored steps of a table we hold: catch up."""
        live = self.live.get(table_id)
        if live is None:
            return None
        async with live.lock:
            await self._catch_up(live, row_too=True, chat_too=True)
        self._kick(live)
        return live

    # -- what a seat is told (messages.py) ---------------------------------------------

    def message(self, live: Live, seat: int | None, since: int | None = None) -> dict[str, Any]:
        return messages.update(live, seat, since)

    def record(self, live: Live) -> dict[str, Any]:
        return messages.record(live)


def _record(live: Live, steps: list[tuple[str, str]], events: list[list[Event]]) -> None:
    """Add `steps` (already played on `live.state`) to the table, and each step's
    `events` to its log: a step's lines carry the move count it makes; the last
    `LOG_KEPT` lines are kept."""
    first = live.move + 1
    live.steps += steps
    live.log += [(first + i, e) for i, step in enumerate(events) for e in step]
    if len(live.log) > LOG_KEPT:
        del live.log[: len(live.log) - LOG_KEPT]
