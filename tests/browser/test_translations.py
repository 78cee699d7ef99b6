"""Point 12, the client's half: in Portuguese the page's frame and the boards show no
English (the log lines and action labels are the server's, written in the language the
client asks for with `lang`), and every request about a table carries that language."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Page, WebSocket, expect

from tests.browser.helpers import click_first_action, new_table, next_step, table_id

CATALOGS = Path(__file__).parents[2] / "src" / "thermopylae" / "server" / "web" / "i18n"
EN = json.loads((CATALOGS / "en.json").read_text(encoding="utf-8"))
PT = json.loads((CATALOGS / "pt.json").read_text(encoding="utf-8"))
# What the client draws itself: the page's frame and the board (not the log, whose lines,
# and not the action buttons, whose labels, the server writes).
FRAME = (
    "header.site-header",
    ".table-head",
    '[data-testid="turn"]',
    "#actions-heading",
    "#log-heading",
    ".seat-list",
    ".links",
    '[data-testid="board"]',
)
ENGLISH = [
    "Your turn",
    "Waiting",
    "Actions",
    "Log",
    "Board",
    "Seats",
    "Spectator link",
    "Connected",
    "Lobby",
    "Language",
    "table",
    "Campaign",
    "Score",
    "Reserve",
    "Your hand",
    "Greek",
    "Persian",
    "Movement",
    "Phase",
    "Draw pile",
    "Discard",
    "Bridge",
    "Round",
    "Glory",
    "Goat Path",
    "Camp",
    "Coastal Plain",
    "Hot Gates",
    "Eliminated",
    "Out of the game",
    "Turn",
    "Support",
    "Piles",
    "Graveyard",
    "player",
    "Persia",
    "Greece",
    "AI",
    "easy",
    "you",
    "cards",
    "Board Game",
    "Earth",
]


def frame_text(page: Page) -> str:
    return "\n".join(page.locator(sel).first.inner_text() for sel in FRAME)


def english_in(text: str, own: list[str]) -> list[str]:
    """The English words (and the English names in `own`) found in `text`."""
    found = [w for w in ENGLISH if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]
    return found + [name for name in own if name in text]


def own_names(page: Page) -> list[str]:
    """The English names and effects of the cards the board shows, where Portuguese
    differs from them."""
    keys = []
    for n in page.locator('[data-testid="ew-card"]').evaluate_all(
        "els => els.map(e => e.dataset.card)"
    ):
        for half in ("greece", "persia"):
            keys += [f"earth-and-water.card.{n}.{half}", f"earth-and-water.card.{n}.{half}.effect"]
    for code in page.locator('[data-testid="hg-card"]').evaluate_all(
        "els => els.map(e => e.dataset.card)"
    ):
        keys.append(f"hot-gates.card.{code}")
    return [EN[k] for k in keys if EN[k] != PT[k]]


def test_p12_a_portuguese_page_shows_no_english_in_its_frame_and_board(page: Page) -> None:
    page.goto("/")
    page.get_by_test_id("lang").select_option("pt")
    expect(page.get_by_test_id("start")).to_have_text("Começar")
    for game, roles in (
        ("thermopyles", ["me", "ai-easy"]),
        ("earth-and-water", ["me", "ai-easy"]),
        ("hot-gates", ["ai-easy", "me"]),
    ):
        new_table(page, roles, game=game)
        expect(page.get_by_test_id("turn")).to_contain_text("Sua vez")
        for _ in range(3):
            if next_step(page):
                click_first_action(page)
        next_step(page)
        text = frame_text(page)
        assert not english_in(text, own_names(page)), (game, english_in(text, own_names(page)))


def test_p12_every_table_request_carries_the_language(page: Page) -> None:
    gets: list[str] = []
    sockets: list[str] = []
    page.on("request", lambda r: gets.append(r.url) if "/api/tables/" in r.url else None)

    def on_socket(ws: WebSocket) -> None:
        sockets.append(ws.url)

    page.on("websocket", on_socket)
    page.goto("/")
    page.get_by_test_id("lang").select_option("pt")
    new_table(page, ["me"])
    assert any(re.search(r"/api/tables/[^/?]+\?.*lang=pt", u) for u in gets), gets
    assert sockets and all("lang=pt" in u for u in sockets), sockets
    # A new language: a new socket in it, which brings the log again.
    opened = len(sockets)
    page.get_by_test_id("lang").select_option("fr")
    expect(page.get_by_test_id("turn")).to_contain_text("À vous de jouer")
    for _ in range(100):
        if len(sockets) > opened:
            break
        page.wait_for_timeout(25)
    assert len(sockets) > opened and "lang=fr" in sockets[-1], sockets
    expect(page.get_by_test_id("log")).not_to_be_empty()
    # An action by HTTP (when the socket is down) carries it too.
    table = table_id(page)
    token = page.evaluate("() => new URLSearchParams(location.hash.slice(1)).get('token')")
    move = int(page.get_by_test_id("turn").get_attribute("data-move") or "0")
    action = page.locator('[data-testid="action"]').first.get_attribute("data-action")
    with page.expect_request("**/actions*") as sent:
        page.evaluate(
            "([t, k, m, a]) => import('/static/api.js').then((api) => api.api.act(t, k, m, a))",
            [table, token, move, action],
        )
    assert "lang=fr" in sent.value.url, sent.value.url
    response = sent.value.response()
    assert response is not None and response.ok
