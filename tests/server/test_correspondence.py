"""Issue 18's acceptance: a correspondence game of Earth & Water between two accounts over
HTTP, one told by a webhook on loopback (`allow_private_webhooks`), the other by email
through a local SMTP server (aiosmtpd). Each "your turn" arrives once; a server restart
between moves loses neither the clock nor a notification; a timeout with `forfeit` ends
the game for time (and both are told); with `ai` a bot moves for the absent seat. No
notice carries a token or anything a spectator may not see."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, func, select, update

from tests.server.helpers import Server
from tests.server.notify_helpers import Receiver, mail_server, receiving
from thermopylae.server.db import notices as db_notices
from thermopylae.server.db import tables as db_tables
from thermopylae.server.store import Store

CORRESPONDENCE = {"initial_s": 259200, "increment_s": 43200, "cap_s": 432000}
ALLOWED = {"event", "game", "title", "table", "link", "text", "seat"}


def wait_for(check: Callable[[], bool], seconds: float = 10.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.05)
    return check()


def headers(c: httpx.Client) -> dict[str, str]:
    return {"X-CSRF-Token": c.get("/api/me").json()["csrf"]}


def log_in(c: httpx.Client, name: str, sign_up: bool) -> None:
    path = "/api/accounts" if sign_up else "/api/login"
    r = c.post(path, json={"name": name, "password": "a long secret"})
    assert r.status_code in (200, 201), r.text


def turn_starts(steps: list[list[str]], seat: str, now_to_act: str | None) -> int:
    """How many turns `seat` was given after the first decision: a decision of `seat`
    after another seat's, and the turn it is given now."""
    decisions = [who for who, _ in steps if who != "chance"]
    n = sum(1 for a, b in itertools.pairwise(decisions) if b == seat and a != b)
    if now_to_act == seat and decisions and decisions[-1] != seat:
        n += 1
    return n


def play(spectator: httpx.Client, table: str, decisions: int, by: dict[str, httpx.Client]) -> None:
    """`decisions` decisions, each by whichever account must act, through its login."""
    for _ in range(decisions):
        seat = spectator.get(f"/api/tables/{table}").json()["to_act"]
        if seat is None:
            return
        who = by[seat]
        m = who.get(f"/api/tables/{table}").json()
        assert m["your_turn"], m
        legal = [x["action"] for x in m["legal"]]
        action = next((a for a in legal if a.startswith("pass") or a == "done"), legal[0])
        r = who.post(
            f"/api/tables/{table}/actions",
            json={"move": m["move"], "action": action},
            headers=headers(who),
        )
        assert r.status_code == 200, r.text


def pending_notices(db: str) -> int:
    """Notices queued or in delivery, not yet marked sent (or failed)."""
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count()).where(db_notices.c.status == "pending")
                ).scalar_one()
            )
    finally:
        engine.dispose()


def webhook_bodies(hook: Receiver, event: str) -> list[dict[str, Any]]:
    with hook.lock:
        return [b for path, b in hook.posts if path == "/alice" and b.get("event") == event]


def emails(box: Any, words: str) -> list[Any]:
    return [m for _to, m in box.got if words in m.get_body().get_content()]


def clients(server: Server) -> tuple[httpx.Client, httpx.Client, httpx.Client]:
    return tuple(httpx.Client(base_url=server.url, timeout=30) for _ in range(3))  # type: ignore[return-value]


def expire_soon(db: str, table: str) -> None:
    """The deciding seat's bank runs out a moment from now (days of waiting, skipped)."""
    store = Store(db)
    with store.engine.begin() as conn:
        conn.execute(
            update(db_tables).where(db_tables.c.id == table).values(deadline=time.time() + 0.2)
        )
    store.dispose()


def test_a_correspondence_game_between_two_accounts_with_webhook_and_email(
    tmp_path: Path,
) -> None:
    db = f"sqlite:///{tmp_path / 'corr.sqlite'}"
    with receiving() as hook, mail_server() as (box, port):
        args = ["--db", db, "--ai-threads", "--allow-private-webhooks"]
        args += ["--smtp", f"127.0.0.1:{port}", "--public-url", "http://games.example"]
        server = Server(args, tmp_path / "server.log")
        server.start()
        try:
            alice, bob, spectator = clients(server)
            log_in(alice, "Alice", sign_up=True)
            log_in(bob, "Bob", sign_up=True)
            r = alice.put(
                "/api/me/notifications",
                json={"webhook": hook.url("/alice"), "events": ["your_turn", "game_over"]},
                headers=headers(alice),
            )
            assert r.status_code == 200, r.text
            events = ["your_turn", "invitation", "game_over"]
            r = bob.put(
                "/api/me/notifications",
                json={"email": "bob@example.org", "events": events},
                headers=headers(bob),
            )
            assert r.status_code == 200, r.text
            seats = [{"kind": "account", "name": "Alice"}, {"kind": "account", "name": "Bob"}]
            created = alice.post(
                "/api/tables",
                json={"game": "earth-and-water", "seats": seats, "clock": CORRESPONDENCE},
                headers=headers(alice),
            ).json()
            table = created["id"]
            assert wait_for(lambda: len(emails(box, "invited")) == 1)
            by = {"persia": alice, "greece": bob}
            play(spectator, table, 7, by)
            before = spectator.get(f"/api/tables/{table}").json()
            # Delivery is at least once: a kill between a webhook's POST and its "sent" mark
            # sends it again after the restart. The notices owed so far are let out first,
            # so that every one of them is counted once below.
            store = Store(db)
            so_far = [list(s) for s in store.steps(table)]
            store.dispose()
            owed = turn_starts(so_far, "persia", before["to_act"])
            assert wait_for(lambda: len(webhook_bodies(hook, "your_turn")) >= owed)
            owed_mail = turn_starts(so_far, "greece", before["to_act"])
            assert wait_for(lambda: len(emails(box, "Your turn")) >= owed_mail)
            # ... and marked sent: a POST that arrived is not yet a notice marked sent.
            assert wait_for(lambda: pending_notices(db) == 0), pending_notices(db)
            # The server dies between moves and starts again: clock and notices stand.
            server.kill()
            server.start()
            after = spectator.get(f"/api/tables/{table}").json()
            assert after["move"] == before["move"]
            assert after["clock"]["deadline"] == before["clock"]["deadline"]
            assert after["clock"]["running"] == before["clock"]["running"]
            assert alice.get("/api/me").status_code == 200  # sessions survive too
            play(spectator, table, 7, by)
            now = spectator.get(f"/api/tables/{table}").json()
            assert now["outcome"] is None and now["to_act"] in by
            store = Store(db)
            steps = [list(s) for s in store.steps(table)]
            store.dispose()
            want_alice = turn_starts(steps, "persia", now["to_act"])
            want_bob = turn_starts(steps, "greece", now["to_act"])
            assert want_alice >= 2 and want_bob >= 2
            assert wait_for(lambda: len(webhook_bodies(hook, "your_turn")) >= want_alice), (
                want_alice,
                hook.posts,
                server.output(),
            )
            assert wait_for(lambda: len(emails(box, "Your turn")) >= want_bob), (
                want_bob,
                [m.get_body().get_content() for _t, m in box.got],
                server.output(),
            )
            time.sleep(1.0)  # anything sent twice would have arrived by now
            mine = webhook_bodies(hook, "your_turn")
            assert len(mine) == want_alice  # once per turn, not once per step
            assert len(emails(box, "Your turn")) == want_bob
            for body in mine:
                assert set(body) <= ALLOWED
                assert body["link"] == f"http://games.example/table/{table}"
            # Days pass: the time of the seat to move runs out; it loses for time.
            expire_soon(db, table)
            assert wait_for(lambda: spectator.get(f"/api/tables/{table}").json()["outcome"], 5)
            over = spectator.get(f"/api/tables/{table}").json()
            assert over["outcome"]["reason"] == "time"
            loser = over["seats"].index(
                next(s for s in over["seats"] if s["seat"] == now["to_act"])
            )
            assert over["outcome"]["results"][loser] == "loss"
            assert wait_for(lambda: len(webhook_bodies(hook, "game_over")) == 1)
            assert wait_for(lambda: len(emails(box, "is over")) == 1)
            record = spectator.get(f"/api/tables/{table}/record").json()
            assert record["forfeit"]["reason"] == "time"
            # Nothing a spectator may not see left the server in a notice.
            with hook.lock:
                sent = json.dumps([b for _p, b in hook.posts])
            sent += "".join(m.get_body().get_content() for _t, m in box.got)
            for cookie in (*alice.cookies.values(), *bob.cookies.values()):
                assert cookie not in sent
            assert "token" not in sent and '"hand' not in sent
        finally:
            server.stop()


def test_a_timeout_with_ai_lets_a_bot_move_for_the_absent_account(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'ai.sqlite'}"
    server = Server(["--db", db, "--ai-threads"], tmp_path / "server.log")
    server.start()
    try:
        alice, bob, spectator = clients(server)
        log_in(alice, "Artemisia", sign_up=True)
        log_in(bob, "Leonidas", sign_up=True)
        clock = {**CORRESPONDENCE, "on_timeout": "ai"}
        # Greece is an account with days on its clock: after the stand-in's moves the game
        # waits for it (against an AI seat the two bots could finish the game at once)
        seats = [{"kind": "account", "name": "Artemisia"}, {"kind": "account", "name": "Leonidas"}]
        created = alice.post(
            "/api/tables",
            json={"game": "earth-and-water", "seats": seats, "clock": clock},
            headers=headers(alice),
        ).json()
        table = created["id"]
        assert spectator.get(f"/api/tables/{table}").json()["to_act"] == "persia"
        expire_soon(db, table)
        assert wait_for(lambda: spectator.get(f"/api/tables/{table}").json()["move"] > 0, 10)
        seen = spectator.get(f"/api/tables/{table}").json()
        assert seen["seats"][0]["standin"] is True and seen["outcome"] is None
        assert seen["log"]  # the bot played persia's moves
        back = alice.get(f"/api/tables/{table}").json()  # the player is back
        assert back["seats"][0]["standin"] is False
    finally:
        server.stop()
