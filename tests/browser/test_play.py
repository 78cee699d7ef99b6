"""Playing Thermopyles in the browser: solo to the end, the board's own controls, the
keyboard, reloading in the middle, the phone width."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.helpers import (
    click_first_action,
    move,
    new_table,
    next_step,
    play_to_end,
    screenshot,
    table_id,
)


def test_solo_table_played_to_the_end_by_clicking(page: Page, artifacts: Path) -> None:
    table = new_table(page, ["me"])
    board = page.get_by_test_id("board")
    expect(page.get_by_test_id("turn")).to_contain_text("Your turn (p1)")
    expect(board.get_by_test_id("provisional")).to_be_visible()
    expect(board.get_by_test_id("slot-1")).to_be_visible()
    expect(board.get_by_test_id("slot-2")).to_be_visible()
    expect(page.get_by_test_id("hand").get_by_test_id("hand-card")).to_have_count(4)
    expect(page.get_by_test_id("log")).to_contain_text("revealed into slot 1")
    screenshot(page, artifacts, "thermopyles-solo-start")

    played = play_to_end(page)

    assert played, "no action was clicked"
    result = page.get_by_test_id("result")
    expect(result).to_contain_text(re.compile("Victory|Defeat"))
    expect(page.get_by_test_id("turn")).to_contain_text("Game over")
    expect(page.get_by_test_id("actions").get_by_test_id("action")).to_have_count(0)
    screenshot(page, artifacts, "thermopyles-solo-end")
    # The server agrees: the game is over and its record is published.
    record = page.request.get(f"/api/tables/{table}/record")
    assert record.ok, record.text()
    assert record.json()["game"] == "thermopyles"
    # The lobby lists the table, to resume it.
    page.goto("/")
    row = page.get_by_test_id("my-tables").locator(f'[data-table="{table}"]')
    expect(row).to_contain_text("p1")
    expect(row).to_contain_text("finished")


def test_board_cards_fight_with_the_chosen_support(page: Page, artifacts: Path) -> None:
    new_table(page, ["me"])
    before = move(page)
    hand = page.get_by_test_id("hand")
    expect(page.get_by_test_id("support")).to_contain_text("4 of 4 left")
    hand.get_by_role("button", name="2", exact=True).click()
    card = hand.locator('button[data-testid="hand-card"]').first
    value = card.get_attribute("data-value")
    expect(card).to_have_attribute("data-action", f"fight {value} support 2")
    screenshot(page, artifacts, "thermopyles-support-chosen")
    card.click()
    expect(page.get_by_test_id("support")).to_contain_text("2 of 4 left")
    assert move(page) > before
    expect(page.get_by_test_id("error")).to_be_hidden()


def test_keyboard_plays_and_focus_stays_on_the_actions(page: Page) -> None:
    new_table(page, ["me"])
    before = move(page)
    first = page.locator('[data-testid="actions"] [data-testid="action"]').first
    first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => Number(document.querySelector('[data-testid=turn]').dataset.move) > {before}"
    )
    next_step(page)
    # The focus comes back to an action button, so the keyboard can go on playing.
    page.wait_for_function("() => document.activeElement?.dataset.action", timeout=5_000)
    page.keyboard.press("Enter")  # the focused action plays again
    page.wait_for_function(
        f"() => Number(document.querySelector('[data-testid=turn]').dataset.move) > {before + 1}"
    )


def test_reload_in_the_middle_and_continue(page: Page, artifacts: Path) -> None:
    table = new_table(page, ["me"])
    for _ in range(3):
        if not next_step(page):
            break
        click_first_action(page)
    next_step(page)
    at = move(page)
    cards = page.get_by_test_id("hand").get_by_test_id("hand-card").count()

    page.reload()
    expect(page.get_by_test_id("turn")).to_have_attribute("data-move", str(at))
    expect(page.get_by_test_id("hand").get_by_test_id("hand-card")).to_have_count(cards)
    expect(page.get_by_test_id("log")).not_to_be_empty()

    # Without the token in the address, the browser's saved seat is used.
    page.goto(f"/table/{table}")
    expect(page.get_by_test_id("turn")).to_have_attribute("data-move", str(at))
    expect(page.get_by_test_id("turn")).to_contain_text("Your turn (p1)")
    screenshot(page, artifacts, "thermopyles-reloaded")
    play_to_end(page)
    expect(page.get_by_test_id("result")).to_be_visible()
    assert table_id(page) == table


def test_phone_width(page: Page, artifacts: Path) -> None:
    page.set_viewport_size({"width": 375, "height": 740})
    new_table(page, ["me", "ai-easy"])
    expect(page.get_by_test_id("hand").get_by_test_id("hand-card")).to_have_count(3)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page is {width} px wide at phone width"
    # Every action button is at least 44 px high (a finger's width).
    heights = page.eval_on_selector_all(
        '[data-testid="action"]', "els => els.map(e => e.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 43.5
    screenshot(page, artifacts, "thermopyles-phone")
