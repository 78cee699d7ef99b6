"""Ratings: the model (per side, teams, ranks), settling a finished rated table once
(humans, bot games, what is never rated, two games at once), and the leaderboard and
players' pages over HTTP, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient

from tests.server.conftest import BACKENDS, database_url
from tests.server.rating_helpers import bot, human, settle, store_finished
from thermopylae.engine import registry
from thermopylae.engine.record import Record, replay
from thermopylae.server import rating_store
from thermopylae.server.account_store import Accounts
from thermopylae.server.ai_pool import AiLimits
from thermopylae.server.app import create_app
from thermopylae.server.db import rating_events, ratings
from thermopylae.server.db import steps as db_steps
from thermopylae.server.names import name_key
from thermopylae.server.ratings import (
    MU,
    NEW,
    SIGMA,
    Entrant,
    NotRated,
    Rating,
    entrants,
    rate,
    sides,
)
from thermopylae.server.store import Conflict, Store

EW = "earth-and-water"


ON_BOTH = pytest.mark.parametrize("url", BACKENDS, indirect=True)
"""The tests that also run on PostgreSQL (the others: SQLite only, to keep the suite short)."""


@pytest.fixture(params=["sqlite"])  # PostgreSQL too where a test asks (ON_BOTH)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return database_url(request.param, request, tmp_path)


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    s = Store(url)
    yield s
    s.dispose()


def account(store: Store, name: str) -> int:
    return Accounts(store).create(name, name_key(name), "not a hash", "en").id


def rows(store: Store, subject: str | None = None) -> dict[tuple[str, str, str], Any]:
    with store.engine.begin() as conn:
        q = select(ratings)
        if subject is not None:
            q = q.where(ratings.c.subject == subject)
        return {(r.subject, r.game, r.side): r for r in conn.execute(q)}


def events(store: Store) -> int:
    with store.engine.begin() as conn:
        return int(conn.execute(select(func.count()).select_from(rating_events)).scalar() or 0)


# -- the model ----------------------------------------------------------------------------


def test_the_winner_gains_what_the_loser_loses_and_both_grow_surer() -> None:
    a = Entrant("account:1", "persia", (0,), False)
    b = Entrant("account:2", "greece", (1,), False)
    new = rate([a, b], ["win", "loss"], {})
    assert new[a.key].mu > MU > new[b.key].mu
    assert new[a.key].mu - MU == pytest.approx(MU - new[b.key].mu)
    assert new[a.key].sigma < SIGMA and new[b.key].sigma < SIGMA


def test_a_draw_between_equals_moves_no_mu_and_an_upset_moves_more() -> None:
    a = Entrant("account:1", "persia", (0,), False)
    b = Entrant("account:2", "greece", (1,), False)
    drawn = rate([a, b], ["draw", "draw"], {})
    assert drawn[a.key].mu == pytest.approx(MU) and drawn[b.key].mu == pytest.approx(MU)
    strong = {a.key: Rating(35.0, 3.0), b.key: Rating(15.0, 3.0)}
    expected = rate([a, b], ["win", "loss"], strong)[a.key].mu - 35.0
    upset = rate([a, b], ["loss", "win"], strong)[b.key].mu - 15.0
    assert upset > expected > 0


def test_a_side_of_two_seats_is_one_team_and_its_rating_is_per_side() -> None:
    g = registry.get("hot-gates")
    options = g.options({"players": 3})
    seats = [human(1), human(2), human(3)]
    for s, name in zip(seats, g.seats(options), strict=True):
        s["seat"] = name
    people = entrants(g, options, seats)
    assert sorted(e.key for e in people) == [
        ("account:1", "persia"),
        ("account:2", "sparta"),
        ("account:3", "sparta"),
    ]
    new = rate(people, ["loss", "win", "win"], {})
    assert new[("account:2", "sparta")].mu > MU and new[("account:1", "persia")].mu < MU
    # one player on both Spartan seats is one member of the team
    people = entrants(g, options, [human(1), human(2), human(2)])
    assert sorted(e.key for e in people) == [("account:1", "persia"), ("account:2", "sparta")]
    assert next(e for e in people if e.subject == "account:2").seats == (1, 2)


@pytest.mark.parametrize(
    ("game_id", "players", "seats", "why"),
    [
        ("thermopyles", 2, [human(1), human(2)], "co-operative"),
        (EW, None, [human(1), {"kind": "human"}], "held by no account"),
        (EW, None, [human(1), bot(level=None, agent="heuristic")], "not a server level"),
        ("hot-gates", 4, [human(1), human(2), human(1), human(3)], "more than one side"),
    ],
)
def test_what_is_never_rated(
    game_id: str, players: int | None, seats: list[dict[str, Any]], why: str
) -> None:
    g = registry.get(game_id)
    options = g.options({} if players is None else {"players": players})
    with pytest.raises(NotRated, match=why):
        entrants(g, options, seats)


def test_the_sides_of_each_game() -> None:
    assert sides(registry.get(EW)) == ["persia", "greece"]
    assert sorted(sides(registry.get("hot-gates"))) == ["persia", "sparta"]


# -- settling -------------------------------------------------------------------------


@ON_BOTH
def test_settling_a_rated_game_moves_both_accounts_once(store: Store) -> None:
    a, b = account(store, "Xerxes"), account(store, "Themistocles")
    row, out = store_finished(store, EW, [human(a), human(b)], at=500.0)
    winner = out.results.index("win")
    settle(store, row, out)
    settle(store, row, out)  # the same end told twice (or by two processes): once
    got = rows(store)
    assert set(got) == {(f"account:{a}", EW, "persia"), (f"account:{b}", EW, "greece")}
    won = got[(f"account:{(a, b)[winner]}", EW, ("persia", "greece")[winner])]
    lost = got[(f"account:{(a, b)[1 - winner]}", EW, ("persia", "greece")[1 - winner])]
    assert won.mu > MU > lost.mu
    assert (won.games, won.wins, lost.games, lost.wins) == (1, 1, 1, 0)
    assert events(store) == 2
    settled = store.table(row.id)
    assert settled is not None and settled.rated_at == 500.0
    # a later settle with the row as it was (rated_at unset) still finds it claimed
    settle(store, row, out, at=900.0)
    assert events(store) == 2 and rows(store) == got


def test_settling_in_the_last_steps_transaction_stands_or_falls_with_it(store: Store) -> None:
    """As the core calls it: inside `Store.append`'s transaction. A last step another
    server stored first (Conflict) rolls the settle back with it."""
    a, b = account(store, "Xerxes"), account(store, "Themistocles")
    row, out = store_finished(store, EW, [human(a), human(b)])
    game = registry.get(EW)
    last = store.steps(row.id)[-1]
    with pytest.raises(Conflict):
        store.append(
            row.id,
            len(store.steps(row.id)) - 1,
            [last],
            over=True,
            notices=lambda conn: rating_store.settle(conn, row, game, out, 700.0),
        )
    assert rows(store) == {} and events(store) == 0
    t = store.table(row.id)
    assert t is not None and t.rated_at is None
    n = len(store.steps(row.id)) - 1
    with store.engine.begin() as conn:  # the last step not stored yet: now it is
        conn.execute(db_steps.delete().where(db_steps.c.table_id == row.id, db_steps.c.n == n))
    store.append(
        row.id,
        n,
        [last],
        over=True,
        notices=lambda conn: rating_store.settle(conn, row, game, out, 800.0),
    )
    assert events(store) == 2
    t = store.table(row.id)
    assert t is not None and t.rated_at == 800.0


def test_an_unrated_game_moves_nothing(store: Store) -> None:
    a, b = account(store, "Xerxes"), account(store, "Themistocles")
    row, out = store_finished(store, EW, [human(a), human(b)], rated=False)
    settle(store, row, out)
    assert rows(store) == {} and events(store) == 0
    t = store.table(row.id)
    assert t is not None and t.rated_at is None


def test_a_table_made_unrated_since_its_row_was_read_moves_nothing(store: Store) -> None:
    """A takeback sets `rated` False in the database: a settle holding the row as it was
    before finds nothing to claim."""
    a, b = account(store, "Xerxes"), account(store, "Themistocles")
    row, out = store_finished(store, EW, [human(a), human(b)])
    store.change(row.id, {"rated": False})
    settle(store, row, out)
    assert rows(store) == {} and events(store) == 0


def test_a_co_operative_game_rated_by_mistake_moves_nothing(store: Store) -> None:
    a, b = account(store, "Xerxes"), account(store, "Themistocles")
    row, out = store_finished(store, "thermopyles", [human(a), human(b)], players=2)
    settle(store, row, out)
    assert rows(store) == {} and events(store) == 0


def test_a_bot_game_moves_the_bot_level_and_not_the_human(store: Store) -> None:
    a = account(store, "Xerxes")
    row, out = store_finished(store, EW, [human(a), bot("hard")])
    settle(store, row, out)
    got = rows(store)
    assert set(got) == {("bot:hard", EW, "greece")}
    expected = "win" if out.results[1] == "win" else "loss"
    assert (got[("bot:hard", EW, "greece")].mu > MU) is (expected == "win")
    assert events(store) == 1


def test_a_forfeit_rates_as_its_outcome(store: Store) -> None:
    a, b = account(store, "Xerxes"), account(store, "Themistocles")
    row, out = store_finished(
        store, EW, [human(a), human(b)], forfeit={"seat": 0, "reason": "time"}
    )
    assert out.results == ("loss", "win")
    settle(store, row, out)
    got = rows(store)
    assert got[(f"account:{a}", EW, "persia")].mu < MU < got[(f"account:{b}", EW, "greece")].mu


def test_ratings_carry_from_game_to_game(store: Store) -> None:
    a, b = account(store, "Xerxes"), account(store, "Themistocles")
    for at in (100.0, 200.0, 300.0):
        row, out = store_finished(store, EW, [human(a), human(b)], at=at)
        settle(store, row, out)
    won = out.results.index("win")
    subject = f"account:{(a, b)[won]}"
    side = ("persia", "greece")[won]
    r = rows(store)[(subject, EW, side)]
    assert (r.games, r.wins) == (3, 3)
    with store.engine.begin() as conn:
        h = rating_store.history(conn, subject, EW, side)
    assert [p["at"] for p in h] == [100.0, 200.0, 300.0]
    assert h[0]["mu"] < h[1]["mu"] < h[2]["mu"] == r.mu
    assert h[2]["sigma"] < h[0]["sigma"] < NEW.sigma


@ON_BOTH
def test_two_games_of_the_same_new_players_settle_at_once(store: Store) -> None:
    """Two processes end games of the same two new players at the same moment: both
    rows are made once (no duplicate key), and both games count."""
    a, b = account(store, "Xerxes"), account(store, "Themistocles")
    tables = [store_finished(store, EW, [human(a), human(b)], seed=s) for s in (0, 1)]
    barrier = threading.Barrier(2)
    failures: list[BaseException] = []

    def end(row: Any, out: Any) -> None:
        try:
            barrier.wait()
            settle(store, row, out)
        except BaseException as exc:  # reported below
            failures.append(exc)

    threads = [threading.Thread(target=end, args=t) for t in tables]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    got = rows(store)
    assert [r.games for r in got.values()] == [2, 2]
    assert events(store) == 4


# -- over HTTP ----------------------------------------------------------------------------


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db=url, ai=AiLimits(processes=False))) as c:
        yield c


@pytest.fixture
def league(client: TestClient, url: str) -> Iterator[tuple[Store, dict[str, int]]]:
    """Three players: Xerxes beat Leonidas twice as Persia... as the random games went;
    a bot game and a co-operative one besides."""
    store = Store(url)
    ids = {n: account(store, n) for n in ("Xerxes", "Leonidas", "Gorgo")}
    yield store, ids
    store.dispose()


@ON_BOTH
def test_the_leaderboard_orders_each_side_by_the_conservative_rating(
    client: TestClient, league: tuple[Store, dict[str, int]]
) -> None:
    store, ids = league
    x, lo, g = ids["Xerxes"], ids["Leonidas"], ids["Gorgo"]
    for at, seats in ((100.0, [x, lo]), (200.0, [x, lo]), (300.0, [g, lo])):
        row, out = store_finished(store, EW, [human(seats[0]), human(seats[1])], at=at)
        settle(store, row, out)
    row, out = store_finished(store, EW, [bot("easy"), human(lo)], at=400.0)
    settle(store, row, out)
    r = client.get(f"/api/ratings/{EW}")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["game"] == EW and set(body["sides"]) == {"persia", "greece"}
    persia = body["sides"]["persia"]
    assert sorted(p["player"] for p in persia) == ["Gorgo", "Xerxes"]
    assert [p["rank"] for p in persia] == [1, 2]
    ordinal = [p["mu"] - 3 * p["sigma"] for p in persia]
    assert ordinal == sorted(ordinal, reverse=True)
    assert [p["player"] for p in body["sides"]["greece"]] == ["Leonidas"]
    assert body["sides"]["greece"][0]["games"] == 3  # the bot game did not count for him
    assert [b["level"] for b in body["bots"]["persia"]] == ["easy"]
    assert client.get(f"/api/ratings/{EW}", params={"limit": 1}).json()["sides"]["persia"] == [
        persia[0]
    ]


def test_the_leaderboard_refuses_an_unknown_game_and_a_bad_limit(client: TestClient) -> None:
    r = client.get("/api/ratings/chess")
    assert r.status_code == 404 and "unknown game 'chess'" in r.json()["detail"]
    for bad in ("0", "501", "many"):
        r = client.get(f"/api/ratings/{EW}", params={"limit": bad})
        assert r.status_code == 422 and "limit" in r.json()["detail"], bad
    coop = client.get("/api/ratings/thermopyles").json()
    assert coop == {"game": "thermopyles", "cooperative": True, "sides": {}, "bots": {}}


@ON_BOTH
def test_a_player_page_shows_ratings_history_opponents_the_nearest_bot_and_team(
    client: TestClient, league: tuple[Store, dict[str, int]]
) -> None:
    store, ids = league
    x, lo, g = ids["Xerxes"], ids["Leonidas"], ids["Gorgo"]
    results = []
    for at in (100.0, 200.0):
        row, out = store_finished(store, EW, [human(x), human(lo)], at=at)
        settle(store, row, out)
        results.append(out.results[0])
    for level, at in (("easy", 300.0), ("hard", 310.0)):
        row, out = store_finished(store, EW, [bot(level), human(g)], at=at, seed=2)
        settle(store, row, out)
    row, out = store_finished(store, "thermopyles", [human(x), human(g)], players=2, at=400.0)
    page = client.get("/api/players/xerxes")  # any case: the name's key
    assert page.status_code == 200, page.text
    p = page.json()
    assert p["player"] == "Xerxes"
    persia = p["ratings"][EW]["persia"]
    assert persia["games"] == 2 and persia["wins"] == results.count("win")
    assert [h["at"] for h in persia["history"]] == [100.0, 200.0]
    assert persia["history"][-1]["mu"] == persia["mu"]
    with store.engine.begin() as conn:
        bots = {b["level"]: b["mu"] for b in rating_store.bots(conn, EW)["persia"]}
    nearest = min(bots, key=lambda lv: abs(bots[lv] - persia["mu"]))
    assert persia["like_bot"] == nearest
    wins = results.count("win")
    assert p["opponents"] == [
        {"player": "Leonidas", "game": EW, "wins": wins, "losses": 2 - wins, "draws": 0}
    ]
    assert p["team"] == {
        "thermopyles": {
            "games": 1,
            "wins": {"2": int(out.results[0] == "win")},
            "best": out.scores[0],
        }
    }


def test_an_unknown_or_deleted_player_is_not_found(
    client: TestClient, league: tuple[Store, dict[str, int]]
) -> None:
    store, ids = league
    row, out = store_finished(store, EW, [human(ids["Gorgo"]), human(ids["Xerxes"])])
    settle(store, row, out)
    assert len(client.get(f"/api/ratings/{EW}").json()["sides"]["persia"]) == 1
    assert client.get("/api/players/Nobody").status_code == 404
    assert client.get("/api/players/" + "x" * 300).status_code == 404
    Accounts(store).delete(ids["Gorgo"])
    for path in ("", "/games", "/games.jsonl"):
        r = client.get(f"/api/players/Gorgo{path}")
        assert r.status_code == 404 and "no player" in r.json()["detail"], path
    assert client.get("/api/players/deleted player").status_code == 404
    assert client.get(f"/api/ratings/{EW}").json()["sides"]["persia"] == []  # off the board
    greece = client.get(f"/api/ratings/{EW}").json()["sides"]["greece"]
    assert [p["player"] for p in greece] == ["Xerxes"]


def test_a_players_games_filter_by_game_side_and_result_a_page_at_a_time(
    client: TestClient, league: tuple[Store, dict[str, int]]
) -> None:
    store, ids = league
    x, lo = ids["Xerxes"], ids["Leonidas"]
    made = []
    for i, seats in enumerate(([x, lo], [lo, x], [x, lo])):
        row, out = store_finished(store, EW, [human(seats[0]), human(seats[1])], at=100.0 + i)
        made.append((row, out, seats.index(x)))
    old, old_out = store_finished(  # ended before the server wrote scores: replayed
        store, "hot-gates", [human(x), bot("normal")], scores=False, at=50.0
    )
    r = client.get("/api/players/Xerxes/games")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["total"] == 4
    assert [g["id"] for g in body["games"]] == [m[0].id for m in made[::-1]] + [old.id]
    first = body["games"][0]
    row, out, seat = made[2]
    assert first == {
        "id": row.id,
        "game": EW,
        "title": registry.get(EW).title,
        "ended": 102.0,
        "side": "persia",
        "seat": "persia",
        "result": out.results[seat],
        "opponents": ["Leonidas"],
        "partners": [],
        "rated": True,
        "record_url": f"/api/tables/{row.id}/record",
        "replay_url": f"/table/{row.id}/replay",
    }
    last = body["games"][-1]
    assert last["result"] == old_out.results[0] and last["opponents"] == ["bot:normal"]
    greece = client.get("/api/players/Xerxes/games", params={"game": EW, "side": "greece"})
    assert [g["id"] for g in greece.json()["games"]] == [made[1][0].id]
    for result in ("win", "loss"):
        got = client.get("/api/players/Xerxes/games", params={"result": result}).json()
        assert got["total"] == sum(1 for g in body["games"] if g["result"] == result), result
        assert all(g["result"] == result for g in got["games"])
    page = client.get("/api/players/Xerxes/games", params={"limit": 2, "offset": 1}).json()
    assert page["total"] == 4 and [g["id"] for g in page["games"]] == [
        g["id"] for g in body["games"][1:3]
    ]


BAD_FILTERS = [
    ({"game": "chess"}, "unknown game 'chess'"),
    ({"result": "won"}, "result: 'won' is not one of win, loss, draw"),
    ({"game": EW, "side": "sparta"}, "side: 'sparta' is not a side of earth-and-water"),
    ({"side": "atlantis"}, "not a side of any game"),
    ({"limit": "101"}, "limit"),
    ({"limit": "0"}, "limit"),
    ({"offset": "-1"}, "offset"),
    ({"game": "x" * 41}, "game"),
]


def test_bad_filters_are_refused_naming_them(
    client: TestClient, league: tuple[Store, dict[str, int]]
) -> None:
    for params, text in BAD_FILTERS:
        r = client.get("/api/players/Xerxes/games", params=params)
        assert r.status_code == 422 and text in r.json()["detail"], (params, r.text)


def test_games_jsonl_holds_every_finished_record_as_the_table_gives_it(
    client: TestClient, league: tuple[Store, dict[str, int]]
) -> None:
    store, ids = league
    x, lo = ids["Xerxes"], ids["Leonidas"]
    a, _ = store_finished(store, EW, [human(x), human(lo)], at=100.0)
    b, _ = store_finished(
        store, EW, [human(lo), human(x)], forfeit={"seat": 1, "reason": "time"}, at=200.0
    )
    c, _ = store_finished(store, "hot-gates", [human(x), bot("easy")], scores=False, at=300.0)
    store_finished(store, EW, [human(lo), human(ids["Gorgo"])], at=400.0)  # not his
    r = client.get("/api/players/Xerxes/games.jsonl")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    lines = [line for line in r.text.split("\n") if line]
    records = [json.loads(line) for line in lines]
    assert len(records) == 3
    for rec, row in zip(records, (a, b, c), strict=True):
        assert rec == client.get(f"/api/tables/{row.id}/record").json()
        report = replay(registry.get(row.game), Record.from_json(rec))
        assert report.ok, report.problems
    assert records[1]["forfeit"] == {"seat": 1, "reason": "time"}
