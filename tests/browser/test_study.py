"""Studying a game in the browser (issue 20).

The acceptance test: a finished game's replay is opened, stepped through with the keyboard,
analysed (progress, then the win-chance graph), and a click on the graph shows the board
of that step; a hint appears on a table that allows hints and is refused (403) on one
without. Besides: a record file chosen or dropped on /replay opens its replay, "Play from
here" opens a new table at the position shown, and the pages fit a phone under the CSP.

The finished game is a solo Thermopyles table played to the end over HTTP with random
legal actions (a few dozen requests, no browser): the fastest way to a finished game.
"""

from __future__ import annotations

import json
import random
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import FilePayload, Page, expect

from tests.browser.helpers import screenshot, table_id
from tests.browser.test_accounts import fresh_name, sign_up
from tests.browser.test_csp import watch_csp

GAME = "thermopyles"


def call(base: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        req.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def new_solo(base: str, **terms: Any) -> tuple[str, str]:
    """A solo Thermopyles table (one human seat): its id and the seat's token."""
    status, made = call(base, "POST", "/api/tables", {"game": GAME, **terms})
    assert status == 201, made
    return made["id"], made["seats"][0]["token"]


def play_out(base: str, table: str, token: str, seed: int = 7) -> int:
    """Play the table to the end with random legal actions; the number of steps."""
    rng = random.Random(seed)
    status, m = call(base, "GET", f"/api/tables/{table}?token={token}")
    assert status == 200, m
    for _ in range(2000):
        if m["outcome"] is not None:
            return int(m["move"])
        assert m["legal"], m
        action = rng.choice(m["legal"])["action"]
        status, m = call(
            base,
            "POST",
            f"/api/tables/{table}/actions",
            {"token": token, "move": m["move"], "action": action},
        )
        assert status == 200, m
    raise AssertionError("the game did not end")


@pytest.fixture(scope="module")
def finished(server: str) -> dict[str, Any]:
    """A finished solo game: id, token, steps, and its frame 0."""
    table, token = new_solo(server)
    steps = play_out(server, table, token)
    status, frame = call(server, "GET", f"/api/tables/{table}/steps/0")
    assert status == 200, frame
    assert frame["steps"] == steps
    return {"id": table, "token": token, "steps": steps, "seat": frame["seats"][0]["seat"]}


def shown_step(page: Page) -> int:
    value = page.get_by_test_id("replay-step").get_attribute("data-step")
    assert value is not None
    return int(value)


def at_step(page: Page, n: int) -> None:
    """The page shows step n: its counter, the line of the step and the board drawn from
    that step's frame."""
    expect(page.get_by_test_id("replay-step")).to_have_attribute("data-step", str(n))
    expect(page.get_by_test_id("replay-move")).to_have_attribute("data-step", str(n))
    expect(page.get_by_test_id("board")).to_have_attribute("data-step", str(n))


def watch(page: Page) -> list[str]:
    """CSP violations and uncaught script errors seen by the page."""
    seen = watch_csp(page)
    page.on("pageerror", lambda err: seen.append(f"page error: {err}"))
    return seen


def fits_phone(page: Page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 380, f"the page is {width} px wide at phone width"


def test_s20_a_replay_stepped_by_keys_analysed_and_its_graph_clicked(
    page: Page, server: str, finished: dict[str, Any], artifacts: Path
) -> None:
    violations = watch(page)
    table, steps, seat = finished["id"], finished["steps"], finished["seat"]
    # The finished table links to its replay.
    page.goto(f"/table/{table}#token={finished['token']}")
    expect(page.get_by_test_id("result")).to_be_visible()
    page.get_by_test_id("replay-link").click()
    page.wait_for_url(re.compile(rf"/table/{table}/replay"))
    at_step(page, 0)
    expect(page.get_by_test_id("replay-move")).to_contain_text("Start of the game")
    expect(page.get_by_test_id("board").locator("svg").first).to_be_visible()
    expect(page.get_by_test_id("replay-as")).to_have_value("all")

    # The keyboard: → three times, ←, End, Home; ← at the start stays there.
    page.evaluate("() => document.activeElement?.blur()")
    for n in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        at_step(page, n)
    page.keyboard.press("ArrowLeft")
    at_step(page, 2)
    _, frame2 = call(server, "GET", f"/api/tables/{table}/steps/2")
    expect(page.get_by_test_id("replay-move")).to_contain_text(frame2["action"])
    expect(page.get_by_test_id("log").locator("li")).to_have_count(len(frame2["log"]))
    page.keyboard.press("End")
    at_step(page, steps)
    expect(page.get_by_test_id("result")).to_be_visible()
    expect(page.get_by_test_id("replay-forward")).to_be_disabled()
    page.keyboard.press("Home")
    at_step(page, 0)
    page.keyboard.press("ArrowLeft")
    at_step(page, 0)
    # The field jumps; the select shows the game as the seat saw it.
    page.get_by_test_id("replay-jump").fill("5")
    page.get_by_test_id("replay-jump").press("Enter")
    at_step(page, 5)
    page.get_by_test_id("replay-as").select_option(seat)
    expect(page.get_by_test_id("board")).to_have_attribute("data-as", seat)
    page.get_by_test_id("replay-as").select_option("all")
    expect(page.get_by_test_id("board")).to_have_attribute("data-as", "all")

    # The analysis: progress, then the graph.
    page.get_by_test_id("analysis-seat").select_option(seat)
    page.get_by_test_id("analyse").click()
    expect(page.get_by_test_id("analysis-status")).to_be_visible()
    graph = page.get_by_test_id("win-graph")
    expect(graph).to_be_visible(timeout=90_000)
    expect(page.get_by_test_id("analysis-status")).to_have_attribute("data-status", "done")
    expect(graph.locator("polyline")).to_have_count(1)  # one line per seat: solo
    # A click on the graph's right half shows a later step, board and all.
    box = graph.bounding_box()
    assert box is not None
    graph.click(position={"x": box["width"] * 0.75, "y": box["height"] / 2})
    picked = int(graph.get_attribute("data-step") or "-1")
    assert steps // 2 < picked <= steps, picked
    at_step(page, picked)
    _, frame = call(server, "GET", f"/api/tables/{table}/steps/{picked}")
    expect(page.get_by_test_id("replay-move")).to_contain_text(frame["action"])
    expect(page.get_by_test_id("graph-now")).to_contain_text(f"After step {picked}")
    # A marked decision: the move played and the better one with their chances.
    _, analysis = call(server, "GET", f"/api/tables/{table}/analysis?seat={seat}")
    marked = [d for d in analysis["result"]["decisions"] if d["mark"]]
    if marked:
        d = marked[0]
        page.get_by_test_id("marked-decisions").locator(f'button[data-step="{d["step"]}"]').click()
        at_step(page, d["step"])
        note = page.get_by_test_id("decision-note")
        expect(note).to_contain_text(d["played"])
        expect(note).to_contain_text(d["best"])
        expect(note).to_contain_text(f"({int(d['win_best'] * 100 + 0.5)}%)")  # as Math.round
    screenshot(page, artifacts, "study-replay-analysed")
    # Opened again, the page shows the analysis at once.
    page.goto(f"/table/{table}/replay#step=4")  # the same page: it goes to that step
    at_step(page, 4)
    page.reload()
    at_step(page, 4)
    expect(page.get_by_test_id("win-graph")).to_be_visible()
    assert not violations, violations


def test_s20_a_hint_on_a_table_with_hints_and_a_403_without(
    page: Page, server: str, artifacts: Path
) -> None:
    violations = watch(page)
    # The lobby's box: off by default, sent as "hints".
    page.goto("/")
    page.get_by_test_id("game-select").select_option(GAME)
    page.get_by_test_id("seat-0").select_option("me")
    box = page.get_by_test_id("terms-hints")
    expect(box).not_to_be_checked()
    box.check()
    page.get_by_test_id("start").click()
    page.wait_for_url(re.compile(r"/table/[^/#]+#token="))
    table = table_id(page)
    _, m = call(server, "GET", f"/api/tables/{table}")
    assert m["terms"]["hints"] is True
    expect(page.get_by_test_id("turn")).to_have_attribute("data-your-turn", "true")
    before = page.get_by_test_id("turn").get_attribute("data-move")
    page.get_by_test_id("hint").click()
    rows = page.get_by_test_id("hint-row")
    expect(rows.first).to_be_visible(timeout=60_000)
    assert 1 <= rows.count() <= 3
    screenshot(page, artifacts, "study-hints")
    expect(rows.first.get_by_test_id("hint-win")).to_contain_text(re.compile(r"\d+% ± \d+"))
    action = rows.first.get_attribute("data-hint")
    legal = page.locator(f'[data-testid="actions"] [data-action="{action}"]')
    expect(legal).to_have_count(1)  # the hint is one of the legal actions
    rows.first.get_by_test_id("hint-play").click()
    expect(page.get_by_test_id("turn")).not_to_have_attribute("data-move", before or "")
    expect(page.get_by_test_id("hint-row")).to_have_count(0)  # a hint is for one move

    # A table without hints: no button, and the server says 403.
    plain, token = new_solo(server)
    page.goto(f"/table/{plain}#token={token}")
    expect(page.get_by_test_id("turn")).to_have_attribute("data-your-turn", "true")
    expect(page.get_by_test_id("hint")).to_have_count(0)
    status, answer = call(server, "POST", f"/api/tables/{plain}/hint", {"token": token})
    assert status == 403, answer
    assert "hints" in answer["detail"]
    assert not violations, violations


def test_s20_hints_are_never_rated_and_a_login_asks_for_them(page: Page, server: str) -> None:
    violations = watch(page)
    sign_up(page, fresh_name("hint"))
    page.get_by_test_id("game-select").select_option(GAME)
    expect(page.get_by_test_id("seat-0")).to_have_value("account")
    hints = page.get_by_test_id("terms-hints")
    hints.check()
    page.get_by_test_id("terms-rated").check()
    expect(hints).to_be_disabled()
    expect(hints).not_to_be_checked()
    page.get_by_test_id("terms-rated").uncheck()
    expect(hints).to_be_enabled()
    hints.check()
    page.get_by_test_id("start").click()
    page.wait_for_url(re.compile(r"/table/[^/#]+$"))
    # The account's seat asks with its cookie and CSRF header (no token in the page).
    expect(page.get_by_test_id("turn")).to_have_attribute("data-your-turn", "true")
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("hint-row").first).to_be_visible(timeout=60_000)
    assert not violations, violations


def test_s20_a_record_file_chosen_or_dropped_opens_its_replay(
    page: Page, server: str, finished: dict[str, Any]
) -> None:
    violations = watch(page)
    with urllib.request.urlopen(f"{server}/api/tables/{finished['id']}/record") as r:
        text = r.read()
    page.goto("/")
    page.locator("#nav-replay").click()
    page.wait_for_url(re.compile(r"/replay$"))
    # A file that is no record: the server's words, and the page stays.
    page.get_by_test_id("record-file").set_input_files(
        files=FilePayload(name="bad.json", mimeType="application/json", buffer=b'{"format": 1}')
    )
    expect(page.get_by_test_id("drop-status")).to_contain_text("cannot be replayed")
    # Chosen.
    page.get_by_test_id("record-file").set_input_files(
        files=FilePayload(name="game.json", mimeType="application/json", buffer=text)
    )
    page.wait_for_url(re.compile(r"/table/[^/]+/replay"))
    record_table = table_id(page)
    assert record_table != finished["id"]
    expect(page.get_by_test_id("replay-origin")).to_contain_text("record file")
    at_step(page, 0)
    page.keyboard.press("End")
    at_step(page, finished["steps"])
    expect(page.get_by_test_id("to-table")).to_have_count(0)
    # Dropped (the same file: the same table).
    page.goto("/replay")
    expect(page.get_by_test_id("drop-zone")).to_be_visible()  # the page draws it first
    page.evaluate(
        """(text) => {
          const zone = document.querySelector('[data-testid="drop-zone"]');
          const dt = new DataTransfer();
          dt.items.add(new File([text], "dropped.json", { type: "application/json" }));
          const how = { dataTransfer: dt, bubbles: true, cancelable: true };
          zone.dispatchEvent(new DragEvent("dragover", how));
          zone.dispatchEvent(new DragEvent("drop", how));
        }""",
        text.decode(),
    )
    page.wait_for_url(re.compile(rf"/table/{record_table}/replay"))
    expect(page.get_by_test_id("board").locator("svg").first).to_be_visible()
    # In another language: the page's words and the server's log lines.
    page.keyboard.press("End")
    at_step(page, finished["steps"])
    page.get_by_test_id("lang").select_option("pt")
    expect(page.get_by_test_id("replay-step")).to_contain_text(f"Passo {finished['steps']} de")
    expect(page.get_by_test_id("branch")).to_contain_text("Jogar a partir daqui")
    expect(page.get_by_test_id("replay-origin")).to_contain_text("ficheiro de registo")
    assert not violations, violations


def test_s20_play_from_here_opens_a_new_table_at_that_step_at_phone_width(
    page: Page, server: str, finished: dict[str, Any], artifacts: Path
) -> None:
    violations = watch(page)
    page.set_viewport_size({"width": 375, "height": 740})
    table = finished["id"]
    # A step where the seat decides (not the last: the game is over there).
    _, frame0 = call(server, "GET", f"/api/tables/{table}/steps/0")
    decision = next(n for n in frame0["decisions"] if 3 <= n < finished["steps"])
    step = decision - 1  # the position where that decision was due
    page.goto(f"/table/{table}/replay#step={step}")
    at_step(page, step)
    fits_phone(page)
    screenshot(page, artifacts, "study-replay-phone")
    expect(page.get_by_test_id("branch-start")).to_contain_text(f"step {step}")
    page.get_by_test_id("branch-start").click()
    page.wait_for_url(re.compile(r"/table/[^/#]+#token="))
    new = table_id(page)
    assert new != table
    expect(page.get_by_test_id("start-step")).to_contain_text(f"step {step} of table {table}")
    expect(page.get_by_test_id("turn")).to_have_attribute("data-your-turn", "true")
    expect(page.get_by_test_id("actions").get_by_test_id("action").first).to_be_visible()
    _, m = call(server, "GET", f"/api/tables/{new}")
    assert m["start_step"] == {"from": table, "step": step}
    assert m["terms"]["hints"] is False and m["terms"]["rated"] is False
    fits_phone(page)
    # The drop page fits a phone too.
    page.goto("/replay")
    expect(page.get_by_test_id("drop-zone")).to_be_visible()
    fits_phone(page)
    screenshot(page, artifacts, "study-drop-phone")
    assert not violations, violations
