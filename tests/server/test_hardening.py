"""What a hostile client found (issue 16, points 1-3 and 5-7): the AI seats' budgets and
the pool they think in, non-finite numbers, deeply nested messages, the OpenAPI document
against the real answers, the security headers, and forwarded headers."""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from tests.server.helpers import (
    Api,
    Server,
    options_for,
    run_async,
    running,
    serve_in_process,
    tokens_of,
    wait_until_over,
    ws_receive,
)
from thermopylae.ai import base as ai_base
from thermopylae.ai.ismcts import ISMCTS
from thermopylae.ai.rollout import Rollout
from thermopylae.engine import registry
from thermopylae.server.ai_pool import AiLimits, AiPool
from thermopylae.server.app import create_app
from thermopylae.server.headers import CSP

THREADS = AiLimits(processes=False)


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    db = tmp_path_factory.mktemp("hardening") / "tables.sqlite"
    yield from serve_in_process(f"sqlite:///{db}", ai=THREADS)


def _ai_table(api: Api, agent: str, game: str = "earth-and-water") -> Any:
    return api.client.post(
        "/api/tables",
        json={"game": game, "seats": [{"kind": "ai", "agent": agent}, {"kind": "human"}]},
    )


# -- 1: the AI's budget, its pool, its bounds --------------------------------------------


@pytest.mark.parametrize(
    "agent, named",
    [
        ("ismcts:seconds=20", "seconds=20 is over this server's limit of 5"),
        ("ismcts:iterations=10000000", "iterations=1e+07 is over this server's limit of 20000"),
        ("rollout:samples=100000", "samples=100000 is over this server's limit of 2000"),
        ("ismcts:iterations=100,depth=5000", "depth=5000 is over this server's limit of 1000"),
        ("ismcts:iterations=100,c=1e9", "c=1e+09 is over this server's limit of 100"),
    ],
)
def test_p1_an_ai_budget_over_the_server_limit_is_refused(api: Api, agent: str, named: str) -> None:
    before = api.client.get("/api/games").status_code
    r = _ai_table(api, agent)
    assert r.status_code == 422, r.text
    assert named in r.json()["detail"]
    assert before == 200


def test_p1_the_limits_are_server_options(tmp_path: Path) -> None:
    limits = AiLimits(seconds=0.5, parameters={"iterations": 50}, processes=False)
    with TestClient(create_app(db=f"sqlite:///{tmp_path / 't.sqlite'}", ai=limits)) as c:
        body = {"game": "thermopyles", "seats": [{"kind": "ai", "agent": "ismcts:seconds=1"}]}
        r = c.post("/api/tables", json=body)
        assert r.status_code == 422 and "limit of 0.5" in r.json()["detail"]
        body["seats"] = [{"kind": "ai", "agent": "ismcts:iterations=51"}]
        r = c.post("/api/tables", json=body)
        assert r.status_code == 422 and "limit of 50" in r.json()["detail"]
        body["seats"] = [{"kind": "ai", "agent": "ismcts:iterations=50"}]
        assert c.post("/api/tables", json=body).status_code == 201


def test_p1_the_serve_command_checks_its_ai_limits() -> None:
    from typer.testing import CliRunner

    from thermopylae.cli import app

    r = CliRunner().invoke(app, ["serve", "--ai-limit", "iterations=lots"])
    assert r.exit_code == 2 and "--ai-limit 'iterations=lots'" in r.output
    r = CliRunner().invoke(app, ["serve", "--ai-seconds", "0"])
    assert r.exit_code == 2
    for option, value in (
        ("--analysis-budget", "0"),
        ("--analysis-budget", "1001"),
        ("--analysis-jobs", "-1"),
    ):
        r = CliRunner().invoke(app, ["serve", option, value])
        assert r.exit_code == 2 and option in r.output, r.output


@pytest.mark.parametrize(
    "agent", [ISMCTS(iterations=20_000, playout="heuristic"), Rollout(samples=2_000, depth=4)]
)
def test_p1_a_decision_stops_at_the_cpu_limit(agent: Any) -> None:
    g = registry.get("earth-and-water")
    state = g.new(g.options({}))
    rng = random.Random(3)
    while g.to_act(state) is not None and (g.to_act(state) == -1 or len(g.legal(state)) < 3):
        g.apply(state, g.sample_chance(state, rng) if g.to_act(state) == -1 else g.legal(state)[0])
    agent.cpu_limit = 0.2
    action = agent.act(g, g.copy(state), random.Random(1))
    assert action in g.legal(state)
    done = agent.last_iterations if isinstance(agent, ISMCTS) else agent.last_samples
    assert 0 < done < (20_000 if isinstance(agent, ISMCTS) else 2_000)


def test_p1_an_all_ai_table_is_played_in_the_background(api: Api) -> None:
    r = api.client.post(
        "/api/tables",
        json={"game": "thermopyles", "seats": [{"kind": "ai", "agent": "ismcts:iterations=300"}]},
    )
    assert r.status_code == 201
    created = r.json()
    first = api.view(created["id"])
    assert first["outcome"] is None  # the POST did not play the game
    over = wait_until_over(api, created["id"])
    assert over["move"] > created["move"]


class _Probe:
    """An agent that notes the thread it thinks in."""

    name = "probe"
    threads: list[str] = []  # noqa: RUF012

    def act(self, game: Any, state: Any, rng: random.Random) -> Any:
        _Probe.threads.append(threading.current_thread().name)
        return game.legal(state)[0]


def test_p1_the_ai_thinks_in_its_own_pool(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(ai_base.GENERIC, "probe", lambda **_: _Probe())
    _Probe.threads.clear()
    created = api.client.post(
        "/api/tables", json={"game": "thermopyles", "seats": [{"kind": "ai", "agent": "probe"}]}
    ).json()
    wait_until_over(api, created["id"])
    assert _Probe.threads and all(t.startswith("thermopylae-ai") for t in _Probe.threads)


def test_p1_the_process_pool_answers_and_closes() -> None:
    g = registry.get("thermopyles")
    state = g.new(g.options({}))
    rng = random.Random(1)
    while g.to_act(state) == -1:
        g.apply(state, g.sample_chance(state, rng))

    async def go() -> str:
        pool = AiPool(AiLimits(workers=1))
        try:
            return await pool.think(g.id, "heuristic", state, 5, "127.0.0.1")
        finally:
            pool.close()

    text = run_async(go())
    assert g.parse(text) in g.legal(state)


def test_p1_tables_waiting_for_the_ai_are_bounded_per_client(tmp_path: Path) -> None:
    limits = AiLimits(processes=False, per_client=1, tables_per_client=2, workers=1)
    with TestClient(create_app(db=f"sqlite:///{tmp_path / 't.sqlite'}", ai=limits)) as c:
        body = {
            "game": "earth-and-water",
            "seats": [{"kind": "ai", "agent": "ismcts:seconds=2"}] * 2,
        }
        assert c.post("/api/tables", json=body).status_code == 201
        assert c.post("/api/tables", json=body).status_code == 201
        r = c.post("/api/tables", json=body)
        assert r.status_code == 429 and "waiting for the AI" in r.json()["detail"]
        assert r.headers.get("retry-after") == "1"
        # a table of humans only is still welcome
        assert c.post("/api/tables", json={"game": "thermopyles"}).status_code == 201


def test_p1_human_tables_are_dealt_whatever_the_clients_ai_tables_wait_for(
    tmp_path: Path,
) -> None:
    """A new table's deal is a chance step, not AI work: it is drawn at once even while
    the client's tables waiting for the AI are at their bound (such tables were left at
    "chance" for good, the stall the load bench met at 100 tables)."""
    limits = AiLimits(processes=False, per_client=1, tables_per_client=2, workers=1)
    with TestClient(create_app(db=f"sqlite:///{tmp_path / 't.sqlite'}", ai=limits)) as c:
        ai = {"game": "earth-and-water", "seats": [{"kind": "ai", "agent": "ismcts:seconds=2"}] * 2}
        assert c.post("/api/tables", json=ai).status_code == 201
        assert c.post("/api/tables", json=ai).status_code == 201
        for _ in range(3):
            r = c.post("/api/tables", json={"game": "thermopyles", "options": {"players": 2}})
            assert r.status_code == 201
            assert r.json()["move"] > 0  # the deal is stored
            token = r.json()["seats"][0]["token"]
            table = c.get(f"/api/tables/{r.json()['id']}", params={"token": token}).json()
            assert table["to_act"] not in (None, "chance")


def test_p1_seven_slow_ai_tables_stall_nothing_and_sigterm_stops(tmp_path: Path) -> None:
    """The stall of the issue, on a real server: seven all-AI tables thinking at the
    limit; an action on another table is answered while they all still think, and SIGTERM
    ends the server (a hang would be caught by the generous wait)."""
    server = Server(["--db", f"sqlite:///{tmp_path / 't.sqlite'}"], tmp_path / "server.log")
    with running(server):
        body = {
            "game": "earth-and-water",
            "seats": [{"kind": "ai", "agent": "ismcts:seconds=5"}] * 2,
        }
        results: list[int] = []

        def post() -> None:
            results.append(
                httpx.post(f"{server.url}/api/tables", json=body, timeout=60).status_code
            )

        threads = [threading.Thread(target=post) for _ in range(7)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert results == [201] * 7
        created = httpx.post(
            f"{server.url}/api/tables", json={"game": "thermopyles", "options": {"players": 2}}
        ).json()
        table, tokens = created["id"], tokens_of(created)
        view = httpx.get(f"{server.url}/api/tables/{table}").json()
        token = tokens[view["to_act"]]
        legal = httpx.get(f"{server.url}/api/tables/{table}", params={"token": token}).json()[
            "legal"
        ]
        started = time.monotonic()
        r = httpx.post(
            f"{server.url}/api/tables/{table}/actions",
            timeout=60,
            json={"token": token, "move": view["move"], "action": legal[0]["action"]},
        )
        took = time.monotonic() - started
        assert r.status_code == 200, r.text
        ids = httpx.get(f"{server.url}/api/health").json()
        assert ids["ok"]
        print(f"an action beside seven thinking AI tables took {took:.3f} s")
        assert server.proc is not None
        server.proc.terminate()
        server.proc.wait(20)  # a server that ignored SIGTERM would time out here
        assert server.proc.returncode is not None


def test_p1_resume_all_lets_no_slow_table_hold_up_the_others(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.sqlite'}"
    limits = AiLimits(processes=False, workers=2)
    with TestClient(create_app(db=db, ai=limits)) as c:
        slow = c.post(
            "/api/tables",
            json={
                "game": "earth-and-water",
                "seats": [{"kind": "ai", "agent": "ismcts:seconds=2"}] * 2,
            },
        ).json()["id"]
        fast = c.post(
            "/api/tables",
            json={"game": "thermopyles", "seats": [{"kind": "ai", "agent": "random"}]},
        ).json()["id"]
        # leave at once: both tables unfinished in the database (the fast one may be over)
    with TestClient(create_app(db=db, ai=limits)) as c:
        api = Api(c, db)
        over = wait_until_over(api, fast, timeout=60)
        assert over["outcome"] is not None
        assert api.view(slow)["outcome"] is None  # still thinking: it held nobody up
        api.close()


# -- 2: numbers that are not numbers -------------------------------------------------------


@pytest.mark.parametrize(
    "agent",
    [
        "ismcts:iterations=inf",
        "rollout:samples=inf",
        "ismcts:depth=inf",
        "ismcts:c=nan",
        "ismcts:seconds=-inf",
        "ismcts:iterations=1e400",
        "ismcts:prior=Infinity",
        "rollout:samples=nan",
        "ismcts:seconds=nan",
    ],
)
def test_p2_non_finite_numbers_are_refused(api: Api, agent: str) -> None:
    r = _ai_table(api, agent)
    assert r.status_code == 422, r.text
    assert "finite" in r.json()["detail"]


@pytest.mark.parametrize(
    "options",
    [
        {"players": float("inf")},
        {"players": float("nan")},
        {"players": 10**400},
        {"players": -1e308},
    ],
)
def test_p2_out_of_range_options_are_refused(api: Api, options: dict[str, Any]) -> None:
    body = json.dumps({"game": "thermopyles", "options": options})
    r = api.client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code in (400, 422), r.text
    assert r.json()["detail"]


# -- 3: messages nested too deeply ---------------------------------------------------------


def test_p3_a_deeply_nested_ws_message_gets_an_error_and_the_socket_stays_open(api: Api) -> None:
    created = api.create("thermopyles", {"players": 2})
    table = created["id"]
    with api.test_client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws_receive(ws)
        ws.send_text("[" * 1200 + "]" * 1200)
        err = ws_receive(ws)
        assert err["type"] == "error" and err["status"] == 400
        ws.send_text(json.dumps({"type": "ping"}))
        assert ws_receive(ws) == {"type": "pong"}
        deep = '{"type": "action", "move": 0, "action": ' + "[" * 1500 + "]" * 1500 + "}"
        ws.send_text(deep)
        assert ws_receive(ws)["type"] == "error"
        ws.send_text(json.dumps({"type": "ping"}))
        assert ws_receive(ws) == {"type": "pong"}


@pytest.mark.parametrize("where", ["options", "seats"])
def test_p3_a_deeply_nested_http_body_is_refused_in_words(api: Api, where: str) -> None:
    nested = "[" * 3000 + "]" * 3000
    body = '{"game": "thermopyles", "%s": %s}' % (where, nested)  # noqa: UP031
    r = api.client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500, r.text
    assert isinstance(r.json()["detail"], str)


# -- 5: the OpenAPI document tells the truth ----------------------------------------------


def test_p5_the_schema_declares_the_real_error_bodies(api: Api) -> None:
    doc = api.client.get("/openapi.json").json()
    create = doc["paths"]["/api/tables"]["post"]
    for code in ("400", "413", "422", "429", "503"):
        ref = create["responses"][code]["content"]["application/json"]["schema"]["$ref"]
        assert ref.endswith("/ErrorOut"), (code, ref)
    action = doc["paths"]["/api/tables/{table_id}/actions"]["post"]["responses"]
    assert {"400", "403", "404", "409", "413", "422", "429", "503"} <= set(action)
    assert doc["components"]["schemas"]["ErrorOut"]["properties"]["detail"]["type"] == "string"
    assert "HTTPValidationError" not in doc["components"]["schemas"]
    game = doc["components"]["schemas"]["TableIn"]["properties"]["game"]
    assert game["enum"] == registry.game_ids()
    r = api.client.post("/api/tables", json={"game": "thermopyles", "seats": "x"})
    assert r.status_code == 422 and isinstance(r.json()["detail"], str)


def test_p5_schemathesis_finds_no_mismatch_and_no_server_error(tmp_path: Path) -> None:
    schemathesis = pytest.importorskip("schemathesis")
    quick = AiLimits(processes=False, seconds=0.05, reply_wait=2.0)
    app = create_app(db=f"sqlite:///{tmp_path / 't.sqlite'}", ai=quick)
    with TestClient(app):  # the lifespan runs: the tables exist
        schema = schemathesis.openapi.from_asgi("/openapi.json", app)
        failures: list[str] = []
        for op in schema.get_all_operations():
            operation = op.ok()
            check = _checker(
                operation, CROSS_FIELD.get(f"{operation.method.upper()} {operation.path}")
            )
            try:
                check()
            except Exception as exc:  # collect every operation's failure, then report
                failures.append(f"{operation.method.upper()} {operation.path}: {exc}")
        assert not failures, "\n\n".join(failures)


CROSS_FIELD = {
    "POST /api/tables": r"cap_s must be at least initial_s|a rated( bot)? game|not rated",
    "POST /api/accounts": r"reserved|must not be the account's name|may hold only",
    "GET /api/players/{name}/games": r"is not a side of",
    "POST /api/tables/{table_id}/takeback": r'"to" goes with "request" only',
    "POST /api/tables/{table_id}/chat": r"text is empty|a message holds at most|control character",
    # a record file: what makes a game record (and one that replays to its end) is the
    # record format's and the game's rules, beyond the body's JSON schema
    "POST /api/replays": r"not a valid game record|does not replay|is not over|unknown game",
}
"""The operations with rules across fields, and the texts of their 422 answers."""


def _checker(operation: Any, cross: str | None) -> Any:
    """The property test of one operation. Rules across fields that a schema cannot state
    (a cap below the initial time, a reserved or look-alike name): a 422 naming that rule
    is right, so the positive-data check is replaced by that one there."""
    from hypothesis import HealthCheck, settings
    from schemathesis.checks import positive_data_acceptance

    @settings(
        max_examples=25,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @schemathesis_given(operation)  # type: ignore[untyped-decorator]  # schemathesis's is untyped
    def check(case: Any) -> None:
        if cross is None:
            case.call_and_validate()
            return
        r = case.call_and_validate(excluded_checks=[positive_data_acceptance])
        if r.status_code == 422:
            assert re.search(cross, r.json()["detail"]), r.text

    return check


def schemathesis_given(operation: Any) -> Any:
    from hypothesis import given

    return given(case=operation.as_strategy())


# -- 6: security headers -----------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/", "/table/abc", "/static/app.js", "/api/games", "/api/tables/nope"]
)
def test_p6_every_answer_carries_the_security_headers(api: Api, path: str) -> None:
    r = api.client.get(path)
    assert r.headers["content-security-policy"] == CSP
    assert "frame-ancestors 'none'" in CSP and "script-src 'self'" in CSP
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"


def test_p6_the_pages_hold_no_inline_script(api: Api) -> None:
    html = api.client.get("/").text
    assert "<script" in html
    for tag in html.split("<script")[1:]:
        assert "src=" in tag.split(">")[0], "an inline <script>"
    assert re.search(r"<[^>]*\son[a-z]+\s*=", html) is None, "an inline event handler"
    assert "style=" not in html


# -- 7: forwarded headers only from a trusted proxy ---------------------------------------


def test_p7_x_forwarded_for_is_ignored_unless_the_proxy_is_trusted(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.sqlite'}"
    body = {"game": "thermopyles"}
    with TestClient(create_app(db=url, http_rate=0.01, http_burst=1, ai=THREADS)) as c:
        assert (
            c.post("/api/tables", json=body, headers={"x-forwarded-for": "10.0.0.1"}).status_code
            == 201
        )
        r = c.post("/api/tables", json=body, headers={"x-forwarded-for": "10.0.0.2"})
        assert r.status_code == 429 and "testclient" in r.json()["detail"]
    with TestClient(
        create_app(
            db=url, http_rate=0.01, http_burst=1, ai=THREADS, trusted_proxies=("testclient",)
        )
    ) as c:
        assert (
            c.post("/api/tables", json=body, headers={"x-forwarded-for": "10.0.0.1"}).status_code
            == 201
        )
        assert (
            c.post("/api/tables", json=body, headers={"x-forwarded-for": "10.0.0.2"}).status_code
            == 201
        )
        r = c.post("/api/tables", json=body, headers={"x-forwarded-for": "10.0.0.2"})
        assert r.status_code == 429 and "10.0.0.2" in r.json()["detail"]


def test_p7_a_real_server_ignores_forwarded_for_from_loopback(tmp_path: Path) -> None:
    server = Server(
        ["--db", f"sqlite:///{tmp_path / 't.sqlite'}", "--http-rate", "0.01"],
        tmp_path / "server.log",
    )
    with running(server):
        body = {"game": "thermopyles"}
        codes = [
            httpx.post(
                f"{server.url}/api/tables", json=body, headers={"x-forwarded-for": f"10.0.0.{i}"}
            ).status_code
            for i in range(3)
        ]
        assert codes[0] == 201 and 429 in codes
        r = httpx.post(
            f"{server.url}/api/tables", json=body, headers={"x-forwarded-for": "10.9.9.9"}
        )
        assert "127.0.0.1" in r.json()["detail"]
        head = httpx.head(f"{server.url}/")  # what `curl -sI` asks
        assert head.status_code == 200
        assert head.headers["content-security-policy"] == CSP
        assert head.headers["x-frame-options"] == "DENY"


# -- start-up: two servers on one empty database ---------------------------------------


def test_two_servers_starting_at_once_on_an_empty_database_both_open_it(postgres: Any) -> None:
    """Both find the tables missing and race to make them; neither may fail (one used to
    exit on a duplicate key in pg_type)."""
    from thermopylae.server.store import Store

    for _ in range(6):
        url = postgres.new_url()
        barrier = threading.Barrier(2)
        errors: list[BaseException] = []

        def open_store(
            url: str = url,
            barrier: threading.Barrier = barrier,
            errors: list[BaseException] = errors,
        ) -> None:
            barrier.wait()
            try:
                Store(url).dispose()
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=open_store) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not errors, errors


# -- 12 (the server's part): texts built in Python in the client's language ---------------


@pytest.mark.parametrize("game", registry.game_ids())
def test_p12_log_labels_and_reason_come_in_the_language_asked_for(api: Api, game: str) -> None:
    n = registry.summary(game)[1]
    created = api.client.post(
        "/api/tables",
        json={
            "game": game,
            "options": options_for(game, n),
            "seats": [{"kind": "ai", "agent": "heuristic"}] * n,
        },
    ).json()
    over = wait_until_over(api, created["id"])
    english = api.client.get(f"/api/tables/{created['id']}", params={"lang": "en"}).json()
    assert english["outcome"]["reason_text"] == over["outcome"]["reason"]
    for lang in ("pt", "fr", "it"):
        m = api.client.get(f"/api/tables/{created['id']}", params={"lang": lang}).json()
        assert m["outcome"]["reason"] == english["outcome"]["reason"]  # the data stays
        assert m["outcome"]["reason_text"] != english["outcome"]["reason_text"], lang
        assert m["log"] != english["log"], lang
        by_header = api.client.get(
            f"/api/tables/{created['id']}", headers={"accept-language": f"{lang}-XX;q=0.9"}
        ).json()
        assert by_header["log"] == m["log"]


def test_p12_action_labels_come_in_the_language_and_actions_stay_notation(api: Api) -> None:
    created = api.create("earth-and-water")
    table, tokens = created["id"], tokens_of(created)
    seat = api.view(table)["to_act"]
    en = api.client.get(f"/api/tables/{table}", params={"token": tokens[seat], "lang": "en"})
    fr = api.client.get(f"/api/tables/{table}", params={"token": tokens[seat], "lang": "fr"})
    en_legal, fr_legal = en.json()["legal"], fr.json()["legal"]
    assert [a["action"] for a in en_legal] == [a["action"] for a in fr_legal]
    assert [a["label"] for a in en_legal] != [a["label"] for a in fr_legal]
