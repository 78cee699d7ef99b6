"""Steps the browser tests share: start a table in the lobby, play by clicking."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect


def new_table(page: Page, roles: list[str], game: str = "thermopyles") -> str:
    """Start a table from the lobby: one role per seat (`me`, `invite`, `ai-easy`, ...).
    Returns the table id, once its page shows the board."""
    page.goto("/")
    page.get_by_test_id("game-select").select_option(game)
    players = page.get_by_test_id("players-select")
    if players.is_enabled():
        players.select_option(str(len(roles)))
    for i, role in enumerate(roles):
        page.get_by_test_id(f"seat-{i}").select_option(role)
    page.get_by_test_id("start").click()
    page.wait_for_url(re.compile(r"/table/[^/#]+"))
    expect(page.get_by_test_id("board")).to_be_visible()
    expect(page.get_by_test_id("turn")).to_have_attribute("data-move", re.compile(r"^\d+$"))
    return table_id(page)


def table_id(page: Page) -> str:
    m = re.search(r"/table/([^/#?]+)", page.url)
    assert m, page.url
    return m[1]


def move(page: Page) -> int:
    """The table's move number, which the turn line keeps in `data-move` (its text says the
    turn or round in the rules' words instead)."""
    value = page.get_by_test_id("turn").get_attribute("data-move")
    assert value is not None and value.isdigit(), value
    return int(value)


def moved_past(page: Page, at: int) -> None:
    """Wait until the table is past move `at`."""
    expect(page.get_by_test_id("turn")).not_to_have_attribute("data-move", str(at))


def next_step(page: Page, timeout: float = 15_000) -> bool:
    """Wait until an action can be clicked (True) or the result shows (False)."""
    either = page.locator(
        '[data-testid="result"]:not([hidden]), '
        '[data-testid="actions"] [data-testid="action"]:enabled'
    ).first
    either.wait_for(state="visible", timeout=timeout)
    return not page.get_by_test_id("result").is_visible()


def click_first_action(page: Page) -> str:
    """Click the first action button; returns its notation."""
    button = page.locator('[data-testid="actions"] [data-testid="action"]:enabled').first
    action = button.get_attribute("data-action") or ""
    button.click()
    return action


def play_to_end(page: Page, limit: int = 300) -> list[str]:
    """Click the first action until the result shows; returns the actions clicked."""
    played: list[str] = []
    while next_step(page):
        played.append(click_first_action(page))
        assert len(played) < limit, "the game did not end"
    return played


def play_while_my_turn(page: Page, seat: str | None = None, limit: int = 50) -> list[str]:
    """Click the first action as long as this page's seat (or `seat`, when the page holds
    several) must act."""
    played: list[str] = []
    turn = page.get_by_test_id("turn")
    while True:
        page.wait_for_function("() => !document.querySelector('[data-testid=action]:disabled')")
        if turn.get_attribute("data-your-turn") != "true":
            return played
        if seat is not None and f"Your turn ({seat})" not in turn.inner_text():
            return played
        played.append(click_first_action(page))
        assert len(played) < limit


def screenshot(page: Page, folder: Path, name: str) -> Path:
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
