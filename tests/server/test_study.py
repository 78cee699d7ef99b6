"""Studying games over HTTP: hints for the seat to move, replay frames of a finished game,
record files opened on the replay board, and "play from here" (routes_study.py)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.server.helpers import Api, play_random, seat_names, tokens_of
from thermopylae.engine import registry
from thermopylae.engine.protocol import visible_events
from thermopylae.engine.record import Record, replay, replay_to
from thermopylae.server import replays
from thermopylae.server.live import Live
from thermopylae.server.store import TableRow

GAME = "thermopyles"  # hands hidden from the other seats, short games
TWO = {"players": 2}


def new_table(api: Api, **terms: Any) -> dict[str, Any]:
    body = {"game": GAME, "options": TWO, **terms}
    r = api.client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def finished(api: Api, seed: int) -> tuple[dict[str, Any], Record]:
    made = new_table(api)
    play_random(api, made, random.Random(seed))
    return made, Record.from_json(api.record(made["id"]))


def state_after(rec: Record, step: int) -> Any:
    game = registry.get(rec.game)
    report = replay_to(game, rec, step)
    assert report.ok, report.problems
    return report.state


# -- hints ------------------------------------------------------------------------------


def test_a_table_says_whether_it_allows_hints(sqlite_api: Api) -> None:
    assert new_table(sqlite_api)["terms"]["hints"] is False
    made = new_table(sqlite_api, hints=True)
    assert made["terms"]["hints"] is True
    assert sqlite_api.view(made["id"])["terms"]["hints"] is True


def test_hints_are_never_allowed_in_a_rated_game(sqlite_api: Api) -> None:
    r = sqlite_api.client.post(
        "/api/tables",
        json={
            "game": "earth-and-water",
            "rated": True,
            "hints": True,
            "seats": [{"kind": "open"}, {"kind": "ai", "level": "easy"}],
        },
    )
    assert r.status_code == 422
    assert "hints" in r.json()["detail"]


def test_a_hint_gives_up_to_three_legal_moves_with_their_chances(sqlite_api: Api) -> None:
    made = new_table(sqlite_api, hints=True)
    tokens = tokens_of(made)
    m = sqlite_api.view(made["id"])
    seat = m["to_act"]
    mine = sqlite_api.view(made["id"], tokens[seat])
    r = sqlite_api.client.post(f"/api/tables/{made['id']}/hint", json={"token": tokens[seat]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["seat"] == seat and body["move"] == mine["move"]
    legal = {a["action"]: a["label"] for a in mine["legal"]}
    assert 1 <= len(body["hints"]) <= 3
    for h in body["hints"]:
        assert legal[h["action"]] == h["label"]
        assert 0 <= h["win"] <= 1 and h["playouts"] > 0 and h["stderr"] >= 0
    wins = [h["win"] for h in body["hints"]]
    assert wins == sorted(wins, reverse=True)
    again = sqlite_api.client.post(f"/api/tables/{made['id']}/hint", json={"token": tokens[seat]})
    assert again.json() == body  # the same position, the same seed: the same hint


def test_a_hint_is_refused_on_a_table_without_hints(sqlite_api: Api) -> None:
    made = new_table(sqlite_api)
    seat = sqlite_api.view(made["id"])["to_act"]
    r = sqlite_api.client.post(
        f"/api/tables/{made['id']}/hint", json={"token": tokens_of(made)[seat]}
    )
    assert r.status_code == 403
    assert "does not allow hints" in r.json()["detail"]


def test_a_hint_is_for_the_seat_to_move_only(sqlite_api: Api) -> None:
    made = new_table(sqlite_api, hints=True)
    tokens = tokens_of(made)
    seat = sqlite_api.view(made["id"])["to_act"]
    other = next(s for s in tokens if s != seat)
    url = f"/api/tables/{made['id']}/hint"
    assert sqlite_api.client.post(url, json={"token": tokens[other]}).status_code == 409
    assert sqlite_api.client.post(url, json={}).status_code == 403  # a spectator
    assert sqlite_api.client.post(url, json={"token": "nope"}).status_code == 403
    assert sqlite_api.client.post(url, json={"token": 5}).status_code == 422


def test_hints_are_rate_limited_per_seat(sqlite_api: Api) -> None:
    made = new_table(sqlite_api, hints=True)
    seat = sqlite_api.view(made["id"])["to_act"]
    body = {"token": tokens_of(made)[seat]}
    codes = [
        sqlite_api.client.post(f"/api/tables/{made['id']}/hint", json=body).status_code
        for _ in range(5)
    ]
    assert codes[:3] == [200, 200, 200] and codes[3:] == [429, 429]


# -- replay frames ----------------------------------------------------------------------


def test_the_replay_opens_once_the_game_is_over(sqlite_api: Api) -> None:
    made = new_table(sqlite_api)
    r = sqlite_api.client.get(f"/api/tables/{made['id']}/steps/0")
    assert r.status_code == 409
    assert "once the game is over" in r.json()["detail"]


def test_replay_frames_show_each_step_as_each_viewer_saw_it(sqlite_api: Api) -> None:
    made, rec = finished(sqlite_api, 1)
    game = registry.get(GAME)
    total = len(rec.steps)
    names = seat_names(GAME, 2)
    for step in sorted({0, 1, 2, total // 2, total - 1, total}):
        state = state_after(rec, step)
        url = f"/api/tables/{made['id']}/steps/{step}"
        whole = sqlite_api.client.get(url).json()
        assert whole["type"] == "replay" and whole["step"] == step and whole["steps"] == total
        assert whole["as"] == "all"
        assert whole["view"] == json.loads(json.dumps(game.open_view(state)))
        assert (whole["who"], whole["action"]) == (
            tuple(rec.steps[step - 1]) if step else (None, None)
        )
        assert (whole["outcome"] is not None) == (step == total)
        spectator = sqlite_api.client.get(url, params={"as": "spectator"}).json()
        assert spectator["view"] == json.loads(json.dumps(game.view(state, None)))
        for i, name in enumerate(names):
            seen = sqlite_api.client.get(url, params={"as": name}).json()
            assert seen["view"] == json.loads(json.dumps(game.view(state, i)))
            assert seen["seat"] == name and seen["legal"] == []


def test_a_replay_log_holds_only_what_the_viewer_could_read(sqlite_api: Api) -> None:
    made, rec = finished(sqlite_api, 2)
    game = registry.get(GAME)
    total = len(rec.steps)
    state = game.new(game.options(rec.options))
    events = []
    for _who, text in rec.steps:
        events += game.apply(state, game.parse(text))
    url = f"/api/tables/{made['id']}/steps/{total}"
    spectator = sqlite_api.client.get(url, params={"as": "spectator"}).json()
    expected = [game.describe(e) for e in visible_events(events, None)][-120:]
    assert spectator["log"] == expected
    first = seat_names(GAME, 2)[0]
    seat_log = sqlite_api.client.get(url, params={"as": first}).json()["log"]
    assert seat_log == [game.describe(e) for e in visible_events(events, 0)][-120:]


def test_replay_frames_refuse_a_bad_step_or_viewer(sqlite_api: Api) -> None:
    made, rec = finished(sqlite_api, 3)
    url = f"/api/tables/{made['id']}/steps"
    assert sqlite_api.client.get(f"{url}/{len(rec.steps) + 1}").status_code == 422
    assert sqlite_api.client.get(f"{url}/-1").status_code == 422
    assert sqlite_api.client.get(f"{url}/x").status_code == 422
    r = sqlite_api.client.get(f"{url}/0", params={"as": "persia"})
    assert r.status_code == 422 and "spectator" in r.json()["detail"]
    assert sqlite_api.client.get("/api/tables/nosuch/steps/0").status_code == 404


def test_snapshots_give_the_state_of_every_step() -> None:
    """`Frames.state_at` starts from the nearest snapshot: every step, across snapshot
    boundaries, is the state a plain replay gives."""
    game = registry.get(GAME)
    rec = _random_record(game, 5)
    row = TableRow("t", GAME, game.components_digest, rec.options, [], 0.0, True)
    live = Live(row, game, rec.options, game.new(rec.options), steps=list(rec.steps))
    frames = replays.Frames()
    for step in range(len(rec.steps) + 1):
        expected = game.state_to_json(state_after(rec, step))
        assert game.state_to_json(frames.state_at(live, step)) == expected


def _random_record(game: Any, seed: int) -> Record:
    rng = random.Random(seed)
    options = game.options(TWO)
    state = game.new(options)
    rec = Record.begin(game, options)
    names = list(game.seats(options))
    while game.to_act(state) is not None:
        seat = game.to_act(state)
        if seat < 0:
            action = game.sample_chance(state, rng)
            who = "chance"
        else:
            action = rng.choice(game.legal(state))
            who = names[seat]
        rec.add(who, game.format(action))
        game.apply(state, action, quiet=True)
    rec.close(game, state)
    assert len(rec.steps) > replays.EVERY
    return rec


# -- record files -----------------------------------------------------------------------


def test_a_record_file_opens_on_the_replay_board(sqlite_api: Api) -> None:
    made, rec = finished(sqlite_api, 4)
    r = sqlite_api.client.post("/api/replays", json=rec.to_json())
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["url"] == f"/table/{body['id']}/replay" and body["steps"] == len(rec.steps)
    again = sqlite_api.client.post("/api/replays", json=rec.to_json())
    assert again.status_code == 200 and again.json()["id"] == body["id"]
    for step in (0, len(rec.steps) // 2, len(rec.steps)):
        a = sqlite_api.client.get(f"/api/tables/{made['id']}/steps/{step}").json()
        b = sqlite_api.client.get(f"/api/tables/{body['id']}/steps/{step}").json()
        assert a["view"] == b["view"] and a["log"] == b["log"] and a["outcome"] == b["outcome"]
    m = sqlite_api.view(body["id"])
    assert m["kind"] == "record" and m["legal"] == [] and m["outcome"] is not None
    assert sqlite_api.record(body["id"]) == rec.to_json()


def test_a_record_file_that_is_not_a_finished_game_is_refused(sqlite_api: Api) -> None:
    _made, rec = finished(sqlite_api, 6)
    post = sqlite_api.client.post
    assert post("/api/replays", content=b"{not json").status_code == 400
    r = post("/api/replays", json={"format": "thermopylae-record"})
    assert r.status_code == 422 and "record" in r.json()["detail"]
    unfinished = rec.to_json() | {
        "steps": rec.to_json()["steps"][:5],
        "final": None,
        "outcome": None,
    }
    r = post("/api/replays", json=unfinished)
    assert r.status_code == 422 and "not over" in r.json()["detail"]
    edited = rec.to_json()
    edited["steps"][3] = [edited["steps"][3][0], "nonsense"]
    r = post("/api/replays", json=edited)
    assert r.status_code == 422 and "step 4" in r.json()["detail"]
    r = post("/api/replays", json=rec.to_json() | {"game": "chess"})
    assert r.status_code == 422 and "unknown game" in r.json()["detail"]
    huge = json.dumps(rec.to_json() | {"pad": "x" * (replays.MAX_RECORD + 1)})
    r = post("/api/replays", content=huge, headers={"content-type": "application/json"})
    assert r.status_code == 413


# -- play from here ---------------------------------------------------------------------


def _dealable(state: Any) -> bool:
    """Whether seat 1's hand is likely to be dealt otherwise from seat 0's view: it holds
    cards, and the deck holds several, one of them unlike any in the hand (a re-deal then
    gives the same hand at most one time in seven)."""
    hand, deck = state.hands[1], state.sdeck
    return bool(hand) and len(deck) >= 6 and any(card not in hand for card in deck)


def test_play_from_here_deals_anew_what_the_seat_could_not_see(sqlite_api: Api) -> None:
    made, rec = finished(sqlite_api, 7)
    game = registry.get(GAME)
    names = seat_names(GAME, 2)
    # a decision from the second half of the game (the first half if none) where the cards
    # the seat cannot see can be dealt otherwise: the other hand is not empty and the deck
    # holds cards besides it (late in a game the unseen cards may be that hand alone)
    decisions = [n for n in range(len(rec.steps)) if rec.steps[n][0] != "chance"]
    half = len(rec.steps) // 2
    dealable = [n for n in decisions if _dealable(state_after(rec, n))]
    step = next((n for n in dealable if n >= half), dealable[0])
    truth = state_after(rec, step)
    dealt = []
    for _ in range(6):
        r = sqlite_api.client.post(
            f"/api/tables/{made['id']}/branch", json={"step": step, "seat": names[0]}
        )
        assert r.status_code == 201, r.text
        new = r.json()
        kinds = [s["kind"] for s in new["seats"]]
        assert kinds == ["human", "ai"]
        m = sqlite_api.view(new["id"])
        assert m["start_step"] == {"from": made["id"], "step": step}
        assert m["terms"]["hints"] is False and m["terms"]["rated"] is False
        position = game.state_from_json(_start(sqlite_api, new))
        assert game.view(position, 0) == game.view(truth, 0)  # what the seat knew is kept
        dealt.append(game.view(position, 1))
    assert any(v != game.view(truth, 1) for v in dealt), "the other hand was never re-dealt"


def test_play_from_here_with_the_true_cards_after_the_end(sqlite_api: Api) -> None:
    made, rec = finished(sqlite_api, 8)
    game = registry.get(GAME)
    names = seat_names(GAME, 2)
    r = sqlite_api.client.post(
        f"/api/tables/{made['id']}/branch",
        json={
            "step": 3,
            "seat": names[1],
            "true_cards": True,
            "hints": True,
            "seats": [{"kind": "human"}, {"kind": "human"}],
        },
    )
    assert r.status_code == 201, r.text
    new = r.json()
    assert sqlite_api.view(new["id"])["terms"]["hints"] is True
    assert _start(sqlite_api, new) == game.state_to_json(state_after(rec, 3))


def test_play_from_here_on_a_game_in_play_is_for_its_players_as_themselves(
    sqlite_api: Api,
) -> None:
    made = new_table(sqlite_api)
    tokens = tokens_of(made)
    names = seat_names(GAME, 2)
    play_random(sqlite_api, made, random.Random(9), max_actions=6)
    url = f"/api/tables/{made['id']}/branch"
    assert sqlite_api.client.post(url, json={"step": 2, "seat": names[0]}).status_code == 403
    r = sqlite_api.client.post(url, json={"step": 2, "seat": names[1], "token": tokens[names[0]]})
    assert r.status_code == 403 and f"only as {names[0]}" in r.json()["detail"]
    r = sqlite_api.client.post(
        url, json={"step": 2, "seat": names[0], "token": tokens[names[0]], "true_cards": True}
    )
    assert r.status_code == 403
    r = sqlite_api.client.post(url, json={"step": 2, "seat": names[0], "token": tokens[names[0]]})
    assert r.status_code == 201, r.text
    r = sqlite_api.client.get(f"/api/tables/{made['id']}/record")
    assert r.status_code == 409  # the game in play still tells nobody its cards


def test_play_from_here_refuses_a_bad_step_or_seat(sqlite_api: Api) -> None:
    made, rec = finished(sqlite_api, 10)
    url = f"/api/tables/{made['id']}/branch"
    names = seat_names(GAME, 2)
    r = sqlite_api.client.post(url, json={"step": len(rec.steps), "seat": names[0]})
    assert r.status_code == 422 and "over" in r.json()["detail"]
    r = sqlite_api.client.post(url, json={"step": len(rec.steps) + 1, "seat": names[0]})
    assert r.status_code == 422
    r = sqlite_api.client.post(url, json={"step": 1, "seat": "persia"})
    assert r.status_code == 422 and names[0] in r.json()["detail"]
    assert sqlite_api.client.post(url, json={"step": -1, "seat": names[0]}).status_code == 422


def test_a_game_played_from_here_replays_from_its_start(sqlite_api: Api) -> None:
    made, _rec = finished(sqlite_api, 11)
    names = seat_names(GAME, 2)
    r = sqlite_api.client.post(
        f"/api/tables/{made['id']}/branch",
        json={"step": 4, "seat": names[0], "seats": [{"kind": "human"}, {"kind": "human"}]},
    )
    new = r.json()
    play_random(sqlite_api, new, random.Random(12))
    record = Record.from_json(sqlite_api.record(new["id"]))
    assert record.start is not None
    assert replay(registry.get(GAME), record).ok
    frame = sqlite_api.client.get(f"/api/tables/{new['id']}/steps/0").json()
    game = registry.get(GAME)
    assert frame["view"] == json.loads(
        json.dumps(game.open_view(game.state_from_json(record.start)))
    )


def _start(api: Api, new: dict[str, Any]) -> dict[str, Any]:
    """The position a branched table starts from, as stored."""
    row = api.store.table(new["id"])
    assert row is not None and row.start is not None
    out: dict[str, Any] = row.start["position"]
    return out


@pytest.mark.parametrize("backend", ["postgresql"])
def test_the_study_columns_are_kept_on_postgresql(
    backend: str, request: pytest.FixtureRequest, tmp_path: Any
) -> None:
    from tests.server.conftest import database_url
    from tests.server.helpers import serve_in_process

    url = database_url(backend, request, tmp_path)
    for api in serve_in_process(url):
        made, rec = finished(api, 13)
        names = seat_names(GAME, 2)
        new = api.client.post(
            f"/api/tables/{made['id']}/branch",
            json={"step": 2, "seat": names[0], "hints": True},
        ).json()
        uploaded = api.client.post("/api/replays", json=rec.to_json()).json()
    for api in serve_in_process(url):  # a new server reads them from the database
        m = api.view(new["id"])
        assert m["terms"]["hints"] is True
        assert m["start_step"] == {"from": made["id"], "step": 2}
        assert api.view(uploaded["id"])["kind"] == "record"
        assert api.client.get(f"/api/tables/{uploaded['id']}/steps/0").status_code == 200


def test_record_files_stay_out_of_the_archive_of_games_played(sqlite_api: Api) -> None:
    from thermopylae.server import archive

    made, rec = finished(sqlite_api, 14)
    uploaded = sqlite_api.client.post("/api/replays", json=rec.to_json()).json()
    with sqlite_api.store.engine.connect() as conn:
        ids = {row.id for row in archive.finished(conn, GAME)}
    assert made["id"] in ids and uploaded["id"] not in ids
