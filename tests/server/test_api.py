"""The JSON API on SQLite and on the real PostgreSQL (issue 5): the games, creating tables,
reading them as a seat or a spectator, every refusal of an action (right status, a detail
naming the problem, and nothing changed), the record, and whole games played through
POST /api/tables/{id}/actions alone."""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from tests.cli_helpers import entry_point
from tests.server.helpers import (
    Api,
    Seen,
    check_hidden,
    check_messages,
    game_counts,
    not_legal,
    options_for,
    play_random,
    player_counts,
    seat_names,
    seat_specs,
    tokens_of,
    wait_until_over,
)
from thermopylae.engine import registry
from thermopylae.engine.record import Record, replay
from thermopylae.server.db import tables as tables_table
from thermopylae.server.limits import MAX_BODY

GAMES = registry.game_ids()
COUNTS = game_counts()


def count_tables(api: Api) -> int:
    with api.store.engine.connect() as conn:
        n: int = conn.execute(select(func.count()).select_from(tables_table)).scalar_one()
        return n


def snapshot(api: Api, created: dict[str, Any]) -> dict[str, Any]:
    """Everything anyone can learn of a table: the spectator's and each seat's view, and
    the steps in the database."""
    table = created["id"]
    out: dict[str, Any] = {"spectator": api.view(table)}
    for seat, token in tokens_of(created).items():
        out[seat] = api.view(table, token)
    out["steps"] = api.steps(table)
    return out


# -- the games ------------------------------------------------------------------------------


def test_games_lists_the_registered_games(api: Api) -> None:
    r = api.client.get("/api/games")
    assert r.status_code == 200
    games = {g["id"]: g for g in r.json()}
    assert sorted(games) == GAMES
    assert games["thermopyles"]["title"] == "Thermopyles"
    assert games["earth-and-water"]["title"] == "300: Earth & Water"
    assert games["hot-gates"]["title"] == "300: The Board Game"
    for gid in GAMES:
        g = games[gid]
        counts = player_counts(gid)
        assert (g["min_players"], g["max_players"]) == (min(counts), max(counts))
        assert g["seats"] == {str(n): seat_names(gid, n) for n in counts}
        assert g["levels"] == ["easy", "normal", "hard"]
    assert games["thermopyles"]["cooperative"] is True
    assert games["earth-and-water"]["cooperative"] is False


def test_openapi_docs_and_pages(api: Api) -> None:
    assert api.client.get("/docs").status_code == 200
    paths = api.client.get("/openapi.json").json()["paths"]
    for path in (
        "/api/games",
        "/api/tables",
        "/api/tables/{table_id}",
        "/api/tables/{table_id}/actions",
        "/api/tables/{table_id}/record",
    ):
        assert path in paths
    lobby = api.client.get("/")
    assert lobby.status_code == 200 and "text/html" in lobby.headers["content-type"]
    # The client routes by path: a player's page and a leaderboard are the same page.
    for page in ("/player/alice", "/ratings/earth-and-water"):
        r = api.client.get(page)
        assert r.status_code == 200 and r.text == lobby.text, page


# -- creating tables --------------------------------------------------------------------------


def _kinds(game: str, players: int) -> list[str]:
    """Seat mixes to create: all human, and human/AI mixes (an AI first where possible)."""
    n = len(seat_names(game, players))
    mixes = ["h" * n]
    if n > 1:
        mixes.append("e" + "h" * (n - 1))
        mixes.append(("hA" * n)[:n])
    return mixes


@pytest.mark.parametrize(("game", "players"), COUNTS)
def test_create_every_game_and_player_count(api: Api, game: str, players: int) -> None:
    for kinds in _kinds(game, players):
        seats = seat_specs(kinds)
        created = api.create(game, options_for(game, players), seats)
        table = created["id"]
        names = seat_names(game, players)
        assert created["game"] == game
        assert created["options"] == registry.get(game).options(options_for(game, players))
        assert isinstance(created["move"], int)
        assert [s["seat"] for s in created["seats"]] == names
        assert created["spectator_url"] == f"http://testserver/table/{table}"
        for spec, s in zip(seats, created["seats"], strict=True):
            assert s["kind"] == spec["kind"]
            if spec["kind"] == "human":
                assert isinstance(s["token"], str) and len(s["token"]) >= 20
                assert s["invite_url"] == f"http://testserver/table/{table}#token={s['token']}"
            else:
                assert s["token"] is None and s["invite_url"] is None
                assert s["level"] == spec["level"]
        tokens = tokens_of(created)
        assert len(set(tokens.values())) == len(tokens)
        spectator = api.view(table)
        assert spectator["seat"] is None and spectator["legal"] == []
        assert spectator["move"] == created["move"]
        # AI seats and chance have played: a human must act (or the AIs finished the game).
        assert spectator["to_act"] in tokens or spectator["outcome"] is not None
        for seat, token in tokens.items():
            v = api.view(table, token)
            assert v["seat"] == seat and v["view"]["seat"] == seat
            assert v["your_turn"] is (v["to_act"] == seat)
            assert bool(v["legal"]) is v["your_turn"]
            check_hidden(game, created["options"], v["view"], seat)
        check_hidden(game, created["options"], spectator["view"], None)


def test_default_options_and_seats(api: Api) -> None:
    created = api.create("thermopyles")
    assert created["options"] == {"players": 1, "open_hands": False}
    assert [(s["seat"], s["kind"]) for s in created["seats"]] == [("p1", "human")]


@pytest.mark.parametrize("game", GAMES)
def test_a_table_of_ai_seats_plays_itself_to_the_end(api: Api, game: str) -> None:
    n = min(player_counts(game))
    created = api.create(game, options_for(game, n), seat_specs("e" * n))
    assert tokens_of(created) == {}
    v = wait_until_over(api, created["id"])
    assert v["move"] >= created["move"]
    rec = api.record(created["id"])
    assert replay(registry.get(game), Record.from_json(rec)).ok


def _bad_tables() -> list[Any]:
    p = pytest.param
    return [
        p({"game": "chess"}, 422, "unknown game 'chess'", id="unknown-game"),
        p({"game": 7}, 422, "game", id="game-not-a-string"),
        p({}, 422, "game: Field required", id="no-game"),
        p({"game": "thermopyles", "options": [2]}, 422, "options", id="options-not-object"),
        p({"game": "thermopyles", "options": {"players": 5}}, 422, "players", id="players-5"),
        p(
            {"game": "thermopyles", "options": {"players": "2"}},
            422,
            "players",
            id="players-string",
        ),
        p(
            {"game": "thermopyles", "options": {"colour": "red"}},
            422,
            "colour",
            id="unknown-option",
        ),
        p(
            {"game": "earth-and-water", "options": {"players": 3}},
            422,
            "2 players",
            id="earth-and-water-3",
        ),
        p({"game": "hot-gates", "options": {"players": 1}}, 422, "players", id="hot-gates-1"),
        p(
            {"game": "thermopyles", "options": {"players": 2}, "seats": [{"kind": "human"}]},
            422,
            "seats: give one entry per seat (p1, p2)",
            id="too-few-seats",
        ),
        p(
            {"game": "thermopyles", "seats": [{"kind": "human"}] * 2},
            422,
            "seats",
            id="too-many-seats",
        ),
        p({"game": "thermopyles", "seats": [{"kind": "robot"}]}, 422, "seat p1", id="unknown-kind"),
        p({"game": "thermopyles", "seats": [{}]}, 422, "kind", id="no-kind"),
        p(
            {"game": "thermopyles", "seats": [{"kind": "ai", "level": "godlike"}]},
            422,
            "unknown AI 'godlike'",
            id="unknown-level",
        ),
        p(
            {"game": "thermopyles", "seats": [{"kind": "ai", "agent": "nope"}]},
            422,
            "unknown AI 'nope'",
            id="unknown-agent",
        ),
        p(
            {"game": "thermopyles", "seats": [{"kind": "ai", "agent": "random:x=1"}]},
            422,
            "random agent takes no parameters",
            id="bad-agent-parameter",
        ),
        p(
            {"game": "thermopyles", "seats": [{"kind": "human", "colour": 1}]},
            422,
            "seats.0.colour",
            id="unknown-seat-field",
        ),
        p({"game": "thermopyles", "seats": "human"}, 422, "seats", id="seats-not-a-list"),
        p({"game": "thermopyles", "table": "mine"}, 422, "table: Extra inputs", id="unknown-field"),
        p([], 422, "", id="not-an-object"),
        p(b'{"game": "thermopyles"', 400, "not valid JSON", id="bad-json"),
        p(b'{"game": "' + b"x" * MAX_BODY + b'"}', 413, "request body over", id="oversized"),
    ]


@pytest.mark.parametrize(("body", "status", "detail"), _bad_tables())
def test_create_refused_names_the_problem_and_creates_nothing(
    api: Api, body: Any, status: int, detail: str
) -> None:
    before = count_tables(api)
    if isinstance(body, bytes):
        r = api.client.post(
            "/api/tables", content=body, headers={"content-type": "application/json"}
        )
    else:
        r = api.client.post("/api/tables", json=body)
    assert r.status_code == status, r.text
    assert detail in r.json()["detail"]
    assert count_tables(api) == before


# -- reading a table ---------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), [(g, max(player_counts(g))) for g in GAMES])
def test_get_table_as_seat_spectator_or_wrong_token(api: Api, game: str, players: int) -> None:
    created = api.create(game, options_for(game, players))
    other = api.create(game, options_for(game, players))
    table = created["id"]
    tokens = tokens_of(created)
    spectator = api.view(table)
    assert spectator["seat"] is None and spectator["your_turn"] is False
    assert spectator["legal"] == [] and spectator["view"]["seat"] is None
    check_hidden(game, created["options"], spectator["view"], None)
    seen = [Seen(None, None, spectator, "http")]
    for seat, token in tokens.items():
        v = api.view(table, token)
        seen.append(Seen(seat, None, v, "http"))
        assert v["seat"] == seat
        assert [s["seat"] for s in v["seats"]] == seat_names(game, players)
        assert all("token" not in s and "token_hash" not in s for s in v["seats"])
    for token, status, detail in [
        ("not-a-token", 403, "this token holds no seat at this table"),
        (next(iter(tokens_of(other).values())), 403, "this token holds no seat"),
    ]:
        r = api.client.get(f"/api/tables/{table}", params={"token": token})
        assert r.status_code == status and detail in r.json()["detail"]
    r = api.client.get("/api/tables/no-such-table")
    assert r.status_code == 404 and r.json()["detail"] == "no table 'no-such-table'"
    r = api.client.get("/api/tables/no-such-table", params={"token": next(iter(tokens.values()))})
    assert r.status_code == 404
    # What the seats were told is the engine's view of the stored steps.
    steps = api.steps(table)
    check_messages(game, created["options"], steps, seen)


# -- refused actions change nothing --------------------------------------------------------------


@dataclass
class Ctx:
    """A table in play, for one refused request."""

    api: Api
    game: str
    created: dict[str, Any]
    move: int
    to_act: str
    token: str  # of the seat that must act
    idle_token: str  # of a seat that need not act
    legal: list[str]
    other_token: str  # a seat token of another table

    @property
    def url(self) -> str:
        return f"/api/tables/{self.created['id']}/actions"

    def body(self, **change: Any) -> dict[str, Any]:
        b: dict[str, Any] = {"token": self.token, "move": self.move, "action": self.legal[0]}
        b.update(change)
        return {k: v for k, v in b.items() if v is not _DROP}

    def post(self, body: Any) -> Any:
        return self.api.client.post(self.url, json=body)

    def raw(self, content: Any, url: str | None = None) -> Any:
        return self.api.client.post(
            url or self.url, content=content, headers={"content-type": "application/json"}
        )


_DROP = object()


def _chunks(total: int) -> Iterator[bytes]:
    """A JSON body of `total` bytes sent in chunks, without a Content-Length."""
    yield b'{"token": "t", "move": 1, "action": "'
    for _ in range(total // 1000):
        yield b"x" * 1000
    yield b'"}'


Request = Callable[[Ctx], Any]
REFUSALS: list[Any] = [
    pytest.param(lambda c: c.raw(b'{"token": "x", "move": '), 400, "not valid JSON", id="bad-json"),
    pytest.param(lambda c: c.raw(b"\xff\xfe{}"), 400, "not valid JSON", id="not-utf8"),
    pytest.param(lambda c: c.post([c.body()]), 422, "valid dictionary", id="not-an-object"),
    pytest.param(
        lambda c: c.post(c.body(token=_DROP)),
        403,
        "a seat token is required",
        id="no-token",
    ),
    pytest.param(lambda c: c.post(c.body(move=_DROP)), 422, "move: Field required", id="no-move"),
    pytest.param(
        lambda c: c.post(c.body(action=_DROP)), 422, "action: Field required", id="no-action"
    ),
    pytest.param(lambda c: c.post(c.body(token=5)), 422, "token:", id="token-a-number"),
    pytest.param(lambda c: c.post(c.body(move="three")), 422, "move:", id="move-a-word"),
    pytest.param(lambda c: c.post(c.body(move=1.5)), 422, "move:", id="move-a-fraction"),
    pytest.param(lambda c: c.post(c.body(move=None)), 422, "move:", id="move-null"),
    pytest.param(lambda c: c.post(c.body(action=7)), 422, "action:", id="action-a-number"),
    pytest.param(lambda c: c.post(c.body(action=["x"])), 422, "action:", id="action-a-list"),
    pytest.param(
        lambda c: c.post(c.body(action="")), 422, "action must be a non-empty", id="action-empty"
    ),
    pytest.param(
        lambda c: c.post(c.body(seat="p1")), 422, "seat: Extra inputs", id="unknown-field"
    ),
    pytest.param(
        lambda c: c.api.client.post("/api/tables/nope/actions", json=c.body()),
        404,
        "no table 'nope'",
        id="unknown-table",
    ),
    pytest.param(
        lambda c: c.post(c.body(token="not-a-token")),
        403,
        "this token holds no seat",
        id="wrong-token",
    ),
    pytest.param(
        lambda c: c.post(c.body(token="")), 403, "a seat token is required", id="empty-token"
    ),
    pytest.param(
        lambda c: c.post(c.body(token=c.other_token)),
        403,
        "this token holds no seat",
        id="token-of-another-table",
    ),
    pytest.param(
        lambda c: c.post(c.body(token=c.idle_token)), 409, "it is not your turn", id="not-your-turn"
    ),
    pytest.param(
        lambda c: c.post(c.body(token=c.idle_token, move=c.move - 1)),
        409,
        "stale move number",
        id="not-your-turn-and-stale",
    ),
    pytest.param(
        lambda c: c.post(c.body(move=c.move - 1)), 409, "stale move number", id="stale-move"
    ),
    pytest.param(
        lambda c: c.post(c.body(move=c.move + 1)), 409, "stale move number", id="future-move"
    ),
    pytest.param(lambda c: c.post(c.body(move=-1)), 409, "stale move number", id="negative-move"),
    pytest.param(
        lambda c: c.post(c.body(action=not_legal(c.game, c.legal))),
        400,
        "illegal action",
        id="illegal-action",
    ),
    pytest.param(
        lambda c: c.post(c.body(action="fly to the moon")),
        400,
        "not an action",
        id="unparseable-action",
    ),
    pytest.param(
        lambda c: c.post(c.body(action="x" * (MAX_BODY + 10))),
        413,
        f"request body over {MAX_BODY} bytes",
        id="oversized",
    ),
    pytest.param(
        lambda c: c.raw(_chunks(MAX_BODY + 5000)), 413, "request body over", id="oversized-chunked"
    ),
    pytest.param(lambda c: c.post(c.body(move=str(c.move))), 422, "move:", id="move-a-string"),
    pytest.param(lambda c: c.post(c.body(move=bool(c.move))), 422, "move:", id="move-a-boolean"),
]


@pytest.fixture(params=GAMES)
def ctx(api: Api, request: pytest.FixtureRequest) -> Ctx:
    game = request.param
    counts = player_counts(game)
    created = api.create(game, options_for(game, 2 if 2 in counts else min(counts)))
    other = api.create("thermopyles", {"players": 2})
    tokens = tokens_of(created)
    m = api.view(created["id"])
    to_act = m["to_act"]
    mine = api.view(created["id"], tokens[to_act])
    idle = next(t for s, t in tokens.items() if s != to_act)
    return Ctx(
        api,
        game,
        created,
        m["move"],
        to_act,
        tokens[to_act],
        idle,
        [x["action"] for x in mine["legal"]],
        next(iter(tokens_of(other).values())),
    )


@pytest.mark.parametrize(("request_", "status", "detail"), REFUSALS)
def test_refused_action_answers_status_and_changes_nothing(
    ctx: Ctx, request_: Request, status: int, detail: str
) -> None:
    before = snapshot(ctx.api, ctx.created)
    r = request_(ctx)
    assert r.status_code == status, r.text
    assert detail in r.json()["detail"], r.json()
    assert snapshot(ctx.api, ctx.created) == before
    # ... and the table still takes the right action afterwards.
    ok = ctx.post(ctx.body())
    assert ok.status_code == 200, ok.text
    assert ok.json()["move"] > ctx.move


@pytest.fixture(scope="module")
def finished(api: Api) -> dict[str, Any]:
    """A Thermopyles table played to the end by its one human seat."""
    created = api.create("thermopyles", {"players": 1})
    last, _ = play_random(api, created, random.Random(5))
    assert last["outcome"] is not None
    return created


def test_action_after_the_game_is_over_is_refused(api: Api, finished: dict[str, Any]) -> None:
    table = finished["id"]
    token = tokens_of(finished)["p1"]
    before = snapshot(api, finished)
    move = before["p1"]["move"]
    for action in ("retreat", "fight 1", "fly"):
        r = api.act(table, token, move, action)
        assert r.status_code == 409, r.text
        assert r.json()["detail"] == "the game is over"
    assert api.act(table, "wrong", move, "retreat").status_code == 403
    assert snapshot(api, finished) == before


# -- the record --------------------------------------------------------------------------------


def test_record_is_refused_before_the_end(api: Api) -> None:
    created = api.create("earth-and-water")
    r = api.client.get(f"/api/tables/{created['id']}/record")
    assert r.status_code == 409
    assert r.json()["detail"] == "the record is published once the game is over"
    r = api.client.get("/api/tables/nope/record")
    assert r.status_code == 404 and r.json()["detail"] == "no table 'nope'"


def check_record(
    api: Api,
    created: dict[str, Any],
    played: list[tuple[int, str, str]],
    folder: Path | None = None,
) -> dict[str, Any]:
    """The record replays with the engine (and with `thermopylae replay` when `folder` is
    given) and holds every accepted action at its move number."""
    rec = api.record(created["id"])
    game = registry.get(created["game"])
    report = replay(game, Record.from_json(rec))
    assert report.ok, report.problems
    assert rec["outcome"] is not None and report.outcome is not None
    assert rec["steps"] == api.steps(created["id"])
    for move, seat, action in played:
        assert rec["steps"][move] == [seat, action]
    if folder is not None:
        path = folder / f"{created['id']}.json"
        path.write_text(json.dumps(rec))
        r = subprocess.run(
            [*entry_point(), "replay", str(path)],
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
        )
        assert r.returncode == 0, r.stderr
        assert r.stdout.startswith(f"OK: {len(rec['steps'])} steps replayed, all legal")
    return rec


# -- whole games through POST .../actions alone -------------------------------------------------


def _whole_game_plans() -> list[tuple[str, str]]:
    """(game, seats) for every game and player count: humans alone up to 2 seats, beyond
    that a human at each end and AI seats between (fewer requests per game, and tables
    that mix humans and AI)."""
    return [(g, "h" * n if n <= 2 else "h" + "A" * (n - 2) + "h") for g, n in COUNTS]


@pytest.mark.parametrize(("game", "kinds"), _whole_game_plans())
def test_play_a_whole_game_through_actions(api: Api, game: str, kinds: str, tmp_path: Path) -> None:
    created = api.create(game, options_for(game, len(kinds)), seat_specs(kinds))
    rng = random.Random(f"{game}/{kinds}")
    seen: list[Seen] = []
    last, played = play_random(api, created, rng, seen=seen)
    assert last["outcome"] is not None
    assert played, "no human action was played"
    moves = [m for m, _s, _a in played]
    assert moves == sorted(set(moves))
    # Every answer was the engine's view of the true state for the seat that played.
    rec = check_record(api, created, played, tmp_path if kinds in ("h", "hh") else None)
    final = api.view(created["id"])
    assert final["move"] == len(rec["steps"])
    assert final["outcome"] == {**rec["outcome"], "reason_text": rec["outcome"]["reason"]}
    seen.append(Seen(None, None, final, "http"))
    assert check_messages(game, created["options"], rec["steps"], seen) == len(played) + 1


def test_a_table_id_with_a_nul_byte_is_no_table(api: Api, request: pytest.FixtureRequest) -> None:
    token = next(iter(tokens_of(api.create("thermopyles")).values()))
    for r in (
        api.client.get("/api/tables/a%00b"),
        api.client.get("/api/tables/a%00b/record"),
        api.client.post(
            "/api/tables/a%00b/actions", json={"token": token, "move": 0, "action": "retreat"}
        ),
    ):
        assert r.status_code == 404, r.text
        assert r.json()["detail"] == "no table 'a\\x00b'"


def test_hard_level_is_the_strongest_measured_agent_per_game_player_count_and_seat() -> None:
    """docs/ai.md: what beat the heuristic most (ISMCTS in Thermopyles, in two-player 300
    and for Persia in Earth & Water; the rollout for Greece), the heuristic where nothing
    was measured to. Each game names its levels; the server asks it (`seats.level_agent`)."""
    from thermopylae.ai.base import make_agent
    from thermopylae.engine import registry
    from thermopylae.games.earth_and_water.levels import INFORMED_PERSIA, ROLLOUT
    from thermopylae.games.hot_gates.levels import INFORMED, INFORMED_SPARTA
    from thermopylae.server.seats import level_agent

    def hard(game_id: str, players: int, seat: str, level: str = "hard") -> str | None:
        return level_agent(registry.get(game_id), level, players, seat)

    assert hard("thermopyles", 1, "p1") == "ismcts:iterations=2000"
    assert hard("earth-and-water", 2, "greece") == ROLLOUT
    assert hard("earth-and-water", 2, "persia") == INFORMED_PERSIA
    assert hard("hot-gates", 2, "persia") == INFORMED
    assert hard("hot-gates", 2, "sparta") == INFORMED_SPARTA
    assert INFORMED != INFORMED_SPARTA
    assert hard("hot-gates", 3, "sparta-a") == "heuristic"
    assert hard("hot-gates", 4, "persia-a") == "heuristic"
    assert hard("hot-gates", 2, "sparta", "normal") == "heuristic"
    assert hard("hot-gates", 2, "sparta", "impossible") is None
    for game_id in registry.game_ids():
        game = registry.get(game_id)
        for players in range(game.min_players, game.max_players + 1):
            for seat in game.seats(game.options({"players": players})):
                for level in ("easy", "normal", "hard"):
                    spec = level_agent(game, level, players, seat)
                    assert spec is not None
                    make_agent(spec, game)  # a valid agent for that game


def test_a_hard_seat_of_two_player_300_gets_its_own_search(api: Api) -> None:
    """The lobby's `hard` level gives the Persian and the Spartan seat of two-player 300
    each its own agent (the Spartan search keeps closer to its stronger heuristic)."""
    from thermopylae.games.hot_gates.levels import INFORMED, INFORMED_SPARTA

    for seats, want in (
        (seat_specs("hH"), {"sparta": INFORMED_SPARTA}),
        (seat_specs("Hh"), {"persia": INFORMED}),
    ):
        created = api.create("hot-gates", {"players": 2}, seats)
        shown = {
            s["seat"]: s["agent"] for s in api.view(created["id"])["seats"] if s["kind"] == "ai"
        }
        assert shown == want
