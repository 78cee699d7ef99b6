"""The client's safety nets: errors from the server are shown, a game without a board
module falls back to the generic view, a missing table says so."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, Route, WebSocketRoute, expect

from tests.browser.helpers import (
    click_first_action,
    move,
    moved_past,
    new_table,
    next_step,
    screenshot,
)


def test_a_refused_action_shows_the_servers_reason(page: Page) -> None:
    """The socket is routed so that the first action carries a stale move number: the
    server refuses it and the page shows why; the next action goes through."""
    spoiled: list[str] = []

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "action" and not spoiled:
                data["move"] -= 1
                spoiled.append(data["action"])
            server.send(json.dumps(data))

        ws.on_message(from_page)

    page.route_web_socket("**/ws/tables/**", route)
    new_table(page, ["me"])
    at = move(page)
    click_first_action(page)
    error = page.get_by_test_id("error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("stale move number")
    assert move(page) == at
    next_step(page)
    click_first_action(page)
    moved_past(page, at)
    expect(error).to_be_hidden()


def test_a_game_without_board_module_uses_the_generic_view(page: Page, artifacts: Path) -> None:
    def missing(route: Route) -> None:
        route.fulfill(status=404, body="not found")

    page.route("**/static/boards/earth-and-water.js", missing)
    new_table(page, ["me", "ai-easy"], game="earth-and-water")
    expect(page.get_by_test_id("generic-view")).to_be_visible()
    expect(page.get_by_test_id("generic-view")).to_contain_text("cities")
    screenshot(page, artifacts, "generic-earth-and-water")
    at = move(page)
    next_step(page)
    click_first_action(page)
    moved_past(page, at)
    expect(page.get_by_test_id("error")).to_be_hidden()


def test_a_missing_table_says_so(page: Page) -> None:
    page.goto("/table/nosuchtable")
    expect(page.get_by_test_id("fault")).to_contain_text("nosuchtable")


def test_the_page_reconnects_when_the_socket_closes(page: Page) -> None:
    """The first socket is closed after its first message: the page says so, opens a new
    one by itself and plays on."""
    opened: list[WebSocketRoute] = []

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        opened.append(ws)
        if len(opened) == 1:

            def first(message: str | bytes) -> None:
                ws.send(message)
                ws.close(code=1001, reason="going away")

            server.on_message(first)

    page.route_web_socket("**/ws/tables/**", route)
    new_table(page, ["me"])
    for _ in range(200):  # the page waits a little before it reconnects
        if len(opened) >= 2:
            break
        page.wait_for_timeout(25)
    assert len(opened) >= 2, "the page did not reconnect"
    expect(page.get_by_test_id("connection")).to_have_text("Connected")
    at = move(page)
    next_step(page)
    click_first_action(page)
    moved_past(page, at)
