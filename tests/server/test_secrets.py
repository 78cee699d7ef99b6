"""Secret safety (issue 5): random games of all three games, with several player counts and
human and AI seats, played through the HTTP API and the WebSocket while every human seat
and a spectator listen on their own socket. Every message anyone is sent is checked against
the engine: its `view` is `game.view` of the true state (the table's stored steps replayed)
for that seat at that move, no other seat's hand or any deck's content is in it, and its
log holds exactly the lines that seat may see, never another seat's private draws."""

from __future__ import annotations

import copy
import random
import time
from contextlib import ExitStack
from typing import Any

import pytest
from starlette.testclient import WebSocketTestSession

from tests.server.helpers import (
    Api,
    Seen,
    Truth,
    check_messages,
    jsonable,
    options_for,
    seat_names,
    seat_specs,
    tokens_of,
    ws_receive,
    ws_silent,
)
from thermopylae.engine import registry
from thermopylae.server.app import BURST, RATE

# (game, options, seats, games to play): 32 games in all. 300: The Board Game's games are
# the longest (some 300 steps); Thermopyles has the most private events (each seat's draws).
PLANS = [
    ("thermopyles", {"players": 1}, "h", 2),
    ("thermopyles", {"players": 2}, "hh", 5),
    ("thermopyles", {"players": 3}, "hhh", 3),
    ("thermopyles", {"players": 3}, "hAh", 2),
    ("thermopyles", {"players": 4}, "hhhh", 3),
    ("thermopyles", {"players": 4}, "AhhA", 2),
    ("thermopyles", {"players": 2, "open_hands": True}, "hh", 2),
    ("earth-and-water", {}, "hh", 3),
    ("earth-and-water", {}, "Ah", 2),
    ("earth-and-water", {}, "hA", 2),
    ("hot-gates", {"players": 2}, "hh", 1),
    ("hot-gates", {"players": 2}, "Ah", 1),
    ("hot-gates", {"players": 3}, "hAh", 1),
    ("hot-gates", {"players": 3}, "Ahh", 1),
    ("hot-gates", {"players": 4}, "hAhA", 1),
    ("hot-gates", {"players": 4}, "AhAh", 1),
]
assert sum(n for *_x, n in PLANS) >= 30
assert {g for g, *_x in PLANS} == set(registry.game_ids()), "every game needs its plans"


class Table:
    """One table in play: a socket per human seat and one for a spectator, and every
    message sent to any of them."""

    def __init__(
        self, api: Api, stack: ExitStack, game: str, options: dict[str, Any], kinds: str
    ) -> None:
        self.api = api
        self.game = game
        self.created = api.create(game, options, seat_specs(kinds))
        self.id = self.created["id"]
        self.options = self.created["options"]
        self.tokens = tokens_of(self.created)
        self.seen: list[Seen] = []
        self.sockets: dict[str | None, WebSocketTestSession] = {}
        self.last: dict[str | None, int | None] = {}  # move of each socket's last message
        # The server lets a socket send RATE messages a second (BURST at once): keep to it.
        self.allowance = dict.fromkeys(self.tokens, BURST)
        self.stamp = dict.fromkeys(self.tokens, time.monotonic())
        first = api.view(self.id)
        self.seen.append(Seen(None, None, first, "http"))
        self.move = first["move"]
        self.state = first
        for seat in [*self.tokens, None]:
            query = "" if seat is None else f"?token={self.tokens[seat]}"
            url = f"/ws/tables/{self.id}{query}"
            ws = stack.enter_context(api.test_client.websocket_connect(url))
            self.sockets[seat] = ws
            self.last[seat] = None
            m = self.receive(seat)
            assert m["move"] == self.move

    def receive(self, seat: str | None) -> dict[str, Any]:
        m = ws_receive(self.sockets[seat])
        assert m["type"] == "update", m
        self.seen.append(Seen(seat, self.last[seat], m, "ws"))
        self.last[seat] = m["move"]
        return m

    def settled(self, m: dict[str, Any]) -> bool:
        """No AI and no chance must act: the server waits for a human (or the game ended)."""
        return m["outcome"] is not None or m["to_act"] in self.tokens

    def drain(self, move: int) -> None:
        """Read every socket up to `move`, the table's settled move."""
        for seat in self.sockets:
            while self.last[seat] != move:
                last = self.last[seat]
                assert last is None or last < move, f"{seat} is past move {move}"
                self.receive(seat)

    def step(self, rng: random.Random) -> None:
        seat = self.state["to_act"]
        assert seat in self.tokens
        # The acting seat's socket holds its legal actions at the current move.
        mine = next(s.msg for s in reversed(self.seen) if s.seat == seat and s.channel == "ws")
        assert mine["move"] == self.move and mine["your_turn"]
        action = rng.choice(mine["legal"])["action"]
        how = rng.random()
        now = time.monotonic()
        self.allowance[seat] = min(BURST, self.allowance[seat] + (now - self.stamp[seat]) * RATE)
        self.stamp[seat] = now
        if how < 0.5 or self.allowance[seat] < 3:
            r = self.api.act(self.id, self.tokens[seat], self.move, action)
            assert r.status_code == 200, r.text
            answer = r.json()
            self.seen.append(Seen(seat, self.move, answer, "http"))
        else:
            self.allowance[seat] -= 1
            self.sockets[seat].send_json({"type": "action", "move": self.move, "action": action})
            while True:
                answer = self.receive(seat)
                if answer["move"] > self.move and self.settled(answer):
                    break
        assert self.settled(answer)
        self.move = answer["move"]
        self.state = answer
        self.drain(self.move)
        if how > 0.9:  # now and then a seat or the spectator reloads
            who = rng.choice([*self.tokens, None])
            v = self.api.view(self.id, None if who is None else self.tokens[who])
            self.seen.append(Seen(who, None, v, "http"))

    def play(self, rng: random.Random) -> None:
        while self.state["outcome"] is None:
            self.step(rng)
        time.sleep(0.05)
        for ws in self.sockets.values():  # nothing more once the game is over
            assert ws_silent(ws, 0.001)

    def check(self) -> int:
        return check_messages(self.game, self.options, self.api.steps(self.id), self.seen)


@pytest.fixture(scope="module")
def api(sqlite_api: Api) -> Api:
    """Secrets do not depend on the database: SQLite (test_api runs both)."""
    return sqlite_api


@pytest.mark.parametrize(
    ("game", "options", "kinds", "count"),
    PLANS,
    ids=[f"{g}-{k}{'-open' if o.get('open_hands') else ''}" for g, o, k, _n in PLANS],
)
def test_no_message_holds_a_secret(
    api: Api, game: str, options: dict[str, Any], kinds: str, count: int
) -> None:
    rng = random.Random(f"secrets/{game}/{options}/{kinds}")
    checked = 0
    for _ in range(count):
        with ExitStack() as stack:
            table = Table(api, stack, game, options, kinds)
            table.play(rng)
            checked += table.check()
    assert checked > count * 3


def test_private_draw_lines_reach_only_their_seat(api: Api) -> None:
    """The check has teeth: in a 2-player Thermopyles game each seat is told its own
    draws ("p2 drew 15"), and the other seat and the spectator are not."""
    rng = random.Random(3)
    with ExitStack() as stack:
        table = Table(api, stack, "thermopyles", {"players": 2}, "hh")
        table.play(rng)
        table.check()
    rec = api.record(table.id)
    truth = Truth("thermopyles", table.options, rec["steps"])
    truth.at(len(rec["steps"]))
    private = {
        seat: truth.private_lines_of_others(None if seat is None else truth.seats.index(seat))
        for seat in ("p1", "p2", None)
    }
    drew = {line for line in private[None] if " drew " in line}
    assert any(line.startswith("p1 drew") for line in drew)
    assert any(line.startswith("p2 drew") for line in drew)
    told: dict[str | None, set[str]] = {"p1": set(), "p2": set(), None: set()}
    for s in table.seen:
        told[s.seat] |= set(s.msg["log"])
    assert {x for x in told["p1"] if x.startswith("p1 drew")}, "p1 is told its own draws"
    assert not {x for x in told["p1"] if x.startswith("p2 drew")}
    assert not {x for x in told["p2"] if x.startswith("p1 drew")}
    assert not {x for x in told[None] if " drew " in x}


def test_hands_of_other_seats_are_never_sent(api: Api) -> None:
    """A 4-player 300: The Board Game table: at every message, a seat sees its own hand's
    cards and only the sizes of the other three, the spectator no card at all."""
    with ExitStack() as stack:
        table = Table(api, stack, "hot-gates", options_for("hot-gates", 4), "hhhh")
        rng = random.Random(11)
        for _ in range(40):
            if table.state["outcome"] is not None:
                break
            table.step(rng)
        table.check()
    names = seat_names("hot-gates", 4)
    for s in table.seen:
        hands = {h["seat"]: h for h in s.msg["view"]["hands"]}
        assert sorted(hands) == sorted(names)
        for name, h in hands.items():
            if name == s.seat:
                assert h["cards"] is not None and len(h["cards"]) == h["count"]
            else:
                assert h["cards"] is None


def test_the_check_catches_leaks(api: Api) -> None:
    """The checks above can fail: a message doctored to show another seat's hand, another
    seat's draw, or a seat's view sent to the spectator is caught."""
    with ExitStack() as stack:
        table = Table(api, stack, "thermopyles", {"players": 2}, "hh")
        table.play(random.Random(8))
    steps = table.api.steps(table.id)
    assert check_messages("thermopyles", table.options, steps, table.seen)
    truth = Truth("thermopyles", table.options, steps)
    g = truth.game
    p1 = [i for i, s in enumerate(table.seen) if s.seat == "p1"]
    spectator = [i for i, s in enumerate(table.seen) if s.seat is None]

    def doctored(i: int, change: Any) -> list[Seen]:
        s = table.seen[i]
        msg = copy.deepcopy(s.msg)
        change(msg, Truth("thermopyles", table.options, steps).at(msg["move"]))
        return [*table.seen[:i], Seen(s.seat, s.since, msg, s.channel), *table.seen[i + 1 :]]

    def show_p2_hand(msg: dict[str, Any], state: Any) -> None:
        msg["view"]["hands"][1]["cards"] = g.view(state, 1)["hands"][1]["cards"]

    def tell_p2_draw(msg: dict[str, Any], state: Any) -> None:
        truth.at(len(steps))
        msg["log"].append(sorted(x for x in truth.private[1] if x.startswith("p2 drew"))[0])

    def spectator_sees_p1(msg: dict[str, Any], state: Any) -> None:
        msg["view"] = jsonable(g.view(state, 0))

    for i, change in [
        (p1[len(p1) // 2], show_p2_hand),
        (p1[-1], tell_p2_draw),
        (spectator[-1], spectator_sees_p1),
    ]:
        with pytest.raises(AssertionError):
            check_messages("thermopyles", table.options, steps, doctored(i, change))
