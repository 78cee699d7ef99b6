"""Several seats: an invited friend in another browser, hot seat in one browser, and a
spectator who sees no hand."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Page, expect
from pytest_playwright.pytest_playwright import CreateContextCallback

from tests.browser.helpers import (
    click_first_action,
    move,
    moved_past,
    new_table,
    next_step,
    play_while_my_turn,
    screenshot,
)


def test_invite_a_second_seat_and_play_a_turn_from_each_browser(
    page: Page, new_context: CreateContextCallback, artifacts: Path
) -> None:
    table = new_table(page, ["me", "invite"])
    link = page.get_by_test_id("invite-link")
    expect(link).to_have_count(1)
    url = link.input_value()
    assert re.search(rf"/table/{table}#token=.+", url), url

    friend = new_context().new_page()
    friend.goto(url)
    expect(friend.get_by_test_id("turn")).to_contain_text("Waiting for p1")
    expect(friend.get_by_test_id("hand")).to_contain_text("Your hand (p2)")
    expect(friend.get_by_test_id("hand").get_by_test_id("hand-card")).to_have_count(3)
    expect(friend.get_by_test_id("actions").get_by_test_id("action")).to_have_count(0)
    # p1 sees p2's hand size only.
    p2_row = page.get_by_test_id("other-hands").locator('[data-seat="p2"]')
    expect(p2_row).to_contain_text("p2: 3 cards")
    expect(p2_row.locator(".th-open")).to_have_count(0)

    played = play_while_my_turn(page)
    assert played
    expect(friend.get_by_test_id("turn")).to_contain_text("Your turn (p2)")
    at = move(friend)
    screenshot(friend, artifacts, "thermopyles-invited-friend")
    next_step(friend)
    played_by_friend = play_while_my_turn(friend)
    assert played_by_friend
    moved_past(page, at)
    assert move(page) > at
    # Each browser keeps its own seat.
    assert held_seats(page) == {"p1"}
    assert held_seats(friend) == {"p2"}


def test_hot_seat_two_seats_in_one_browser(page: Page, artifacts: Path) -> None:
    new_table(page, ["me", "me"])
    switch = page.get_by_test_id("seat-switch")
    expect(switch.locator("option")).to_have_count(2)
    expect(page.get_by_test_id("turn")).to_contain_text("Your turn (p1)")
    expect(page.get_by_test_id("hand")).to_contain_text("Your hand (p1)")

    play_while_my_turn(page, "p1")
    # p1's turn is over: the page switches to p2 by itself.
    expect(page.get_by_test_id("turn")).to_contain_text("Your turn (p2)")
    expect(page.get_by_test_id("hand")).to_contain_text("Your hand (p2)")
    expect(switch).to_have_value(re.compile(".+"))
    assert "#token=" in page.url
    screenshot(page, artifacts, "thermopyles-hot-seat")

    # Switching by hand shows p1, who waits for p2.
    switch.select_option(label="p1")
    expect(page.get_by_test_id("turn")).to_contain_text("Waiting for p2")
    expect(page.get_by_test_id("actions").get_by_test_id("action")).to_have_count(0)
    switch.select_option(label="p2 — to play")
    expect(page.get_by_test_id("turn")).to_contain_text("Your turn (p2)")
    played = play_while_my_turn(page, "p2")
    assert played
    expect(page.get_by_test_id("turn")).to_contain_text("Your turn (p1)")


def test_spectator_sees_no_hand(
    page: Page, new_context: CreateContextCallback, artifacts: Path
) -> None:
    table = new_table(page, ["me", "ai-normal"])
    expect(page.get_by_test_id("hand").get_by_test_id("hand-card")).to_have_count(3)

    watcher = new_context().new_page()
    watcher.goto(f"/table/{table}")
    expect(watcher.get_by_test_id("board")).to_be_visible()
    expect(watcher.get_by_test_id("turn")).to_contain_text("Waiting for p1")
    expect(watcher.get_by_text("You are watching as a spectator.")).to_be_visible()
    expect(watcher.get_by_test_id("hand")).to_contain_text("Spectators do not see")
    expect(watcher.get_by_test_id("hand-card")).to_have_count(0)
    expect(watcher.locator(".th-open")).to_have_count(0)
    expect(watcher.get_by_test_id("other-hands")).to_contain_text("p1: 3 cards")
    expect(watcher.get_by_test_id("actions").get_by_test_id("action")).to_have_count(0)
    expect(watcher.get_by_test_id("seat-switch")).to_have_count(0)
    screenshot(watcher, artifacts, "thermopyles-spectator")

    # The spectator follows the game live.
    at = move(watcher)
    click_first_action(page)
    moved_past(watcher, at)


def held_seats(page: Page) -> set[str]:
    """The seats this browser keeps tokens for (parsed: ids and tokens are random text)."""
    tables = json.loads(page.evaluate("localStorage.getItem('thermopylae.tables')") or "[]")
    return {t["seat"] for t in tables}
