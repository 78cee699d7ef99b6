"""What the server's tenth pass keeps between updates (server/messages.py): the legal
actions' entries per game, language and action, the log lines described once for all the
table's sockets, and the seats' list until the row's seats, stand-ins or names change.
Over random games of every game and player count, in every language, every seat's and a
spectator's update equals the one built without any of it, whatever order the sockets
ask in; the kept seats follow a name changed in place."""

from __future__ import annotations

import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.server.helpers import game_counts
from tests.server.test_patches import create, play_one, tables_of
from thermopylae import i18n
from thermopylae.engine.protocol import visible_events
from thermopylae.server import messages
from thermopylae.server.app import json_text
from thermopylae.server.live import Live

MOVES = 60  # actions played a game (the whole game when shorter)


def fresh(live: Live, seat: int | None, since: int) -> dict[str, Any]:
    """The update as built before anything was kept: every part made anew."""
    g = live.game
    events = [e for n, e in live.log if n > since]
    lines = [g.describe(e) for e in visible_events(events, seat)]
    message = messages.update(live, seat, since)
    mine = message["your_turn"]
    legal = [{"action": g.format(a), "label": g.label(a)} for a in g.legal(live.state)]
    return {
        **message,
        "seats": messages.seats(live),
        "legal": legal if mine else [],
        "log": lines,
    }


@pytest.mark.parametrize(("game", "players"), game_counts())
def test_kept_parts_make_the_same_updates(client: TestClient, game: str, players: int) -> None:
    created = create(client, game, players)
    t = tables_of(client)
    rng = random.Random(7)
    langs = list(i18n.LANGUAGES)
    last = t.live[created["id"]].move
    told = 0
    for _ in range(MOVES):
        if not play_one(client, created, rng):
            break
        live = t.live[created["id"]]
        seats: list[int | None] = [*range(len(live.row.seats)), None]
        rng.shuffle(seats)  # sockets wake in any order
        lang = rng.choice(langs)
        with i18n.language(lang):
            for s in seats:
                kept = t.message(live, s, since=last)
                assert json_text(kept) == json_text(fresh(live, s, last)), (s, lang)
                told += bool(kept["log"])
        last = live.move
    assert told > 0


def test_a_legal_entry_is_made_once_and_shared(client: TestClient) -> None:
    created = create(client, "thermopyles", 2)
    t = tables_of(client)
    live = t.live[created["id"]]
    seat = live.to_act()
    assert seat is not None and seat >= 0
    first = t.message(live, seat, since=live.move)["legal"]
    again = t.message(live, seat, since=live.move)["legal"]
    assert first and all(a is b for a, b in zip(first, again, strict=True))
    with i18n.language("fr"):  # another language: other entries
        french = t.message(live, seat, since=live.move)["legal"]
    assert [e["action"] for e in french] == [e["action"] for e in first]
    assert all(a is not b for a, b in zip(first, french, strict=True))


def test_kept_seats_follow_a_name_changed_in_place(client: TestClient) -> None:
    created = create(client, "thermopyles", 2)
    t = tables_of(client)
    live = t.live[created["id"]]
    before = t.message(live, None)["seats"]
    assert t.message(live, None)["seats"] is before  # nothing changed: the same list
    seats = [dict(s) for s in live.row.seats]
    seats[0]["account"] = 41
    live.row = live.row.with_values({"seats": seats})
    live.names = {41: "Leonidas"}
    assert t.message(live, None)["seats"][0]["player"] == "Leonidas"
    live.names[41] = "Gorgo"  # changed in place, as a renamed or deleted account is
    assert t.message(live, None)["seats"][0]["player"] == "Gorgo"
    live.row = live.row.with_values({"standin": [0]})
    assert t.message(live, None)["seats"][0]["standin"] is True
