"""The boards of 300: Earth & Water and 300: The Board Game (hot-gates) in the browser:
several turns against the AI, played through the board's own clickable cities, units and
cards where it offers them and the action buttons otherwise; the board draws an SVG, the
turn passes to the AI and back, and no script error happens. Screenshots go to
tests/browser/artifacts/."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.helpers import click_first_action, move, new_table, next_step, screenshot

ENABLED = '[data-testid="actions"] [data-testid="action"]:enabled'


def watch_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def action_button(page: Page, action: str) -> Locator:
    return page.locator(f'{ENABLED}[data-action="{action}"]')


def shows_board(page: Page, drawing: str) -> Locator:
    """The game's own board (not the generic view) is drawn, as an SVG."""
    board = page.get_by_test_id("board")
    expect(board.locator("svg").first).to_be_visible()
    expect(board.get_by_test_id(drawing)).to_be_visible()
    expect(board.get_by_test_id("generic-view")).to_have_count(0)
    return board


def fits_phone(page: Page, artifacts: Path, name: str) -> None:
    page.set_viewport_size({"width": 375, "height": 740})
    board = page.get_by_test_id("board")
    expect(board.locator("svg").first).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page is {width} px wide at phone width"
    # Read in the page in one go: the board is drawn anew as the AI's moves arrive, and a
    # bounding box asked for through a locator can land between two drawings (None).
    svg_width = """() => {
        const svg = document.querySelector('[data-testid="board"] svg');
        return svg ? svg.getBoundingClientRect().width : 0;
    }"""
    try:
        page.wait_for_function(f"() => {{ const w = ({svg_width})(); return w > 0 && w <= 375; }}")
    except PlaywrightTimeoutError:
        raise AssertionError(
            f"the board is {page.evaluate(svg_width)} px wide at phone width"
        ) from None
    screenshot(page, artifacts, name)


# -- 300: Earth & Water ----------------------------------------------------------------


def ew_step(page: Page, builds: list[str]) -> str:
    """One of Persia's decisions: buy 3 cards, raise two units by clicking cities on the
    map, then play on through the map and the hand (a menu when a city or a card offers
    several actions), or the first action button when the board offers nothing."""
    board = page.get_by_test_id("board")
    if action_button(page, "buy 3").count():
        action_button(page, "buy 3").click()
        return "buy 3"
    if len(builds) >= 2 and action_button(page, "done").count():
        action_button(page, "done").click()
        return "done"
    cities = board.locator('[data-testid="ew-city"][role="button"]')
    cards = board.locator('button[data-testid="ew-card"]')
    target = cities.first if cities.count() else cards.first if cards.count() else None
    if target is None:
        return click_first_action(page)
    offered = target.get_attribute("aria-label") or target.get_attribute("title") or ""
    target.click()
    menu = board.get_by_test_id("board-menu")
    if menu.count():
        item = menu.locator("button[data-action]").first
        action = item.get_attribute("data-action") or ""
        item.click()
    else:  # one action: sent at once
        action = offered.rpartition(": ")[2]
    if action.startswith(("army ", "fleet ")):
        builds.append(action)
    return action


def test_earth_and_water_board_against_the_ai(page: Page, artifacts: Path) -> None:
    errors = watch_errors(page)
    new_table(page, ["me", "ai-normal"], game="earth-and-water")
    board = shows_board(page, "ew-map")
    expect(board.get_by_test_id("ew-city")).to_have_count(11)
    expect(board.locator('[data-testid="ew-city"][data-city="Athenai"]')).to_have_attribute(
        "data-control", "greece"
    )
    expect(board.locator('[data-testid="ew-city"][data-city="Ephesos"]')).to_have_attribute(
        "data-control", "persia"
    )
    expect(board.get_by_test_id("ew-tracks")).to_contain_text("Campaign")
    start = move(page)
    builds: list[str] = []
    played: list[str] = []
    for _ in range(16):
        if not next_step(page):
            break
        played.append(ew_step(page, builds))
        if len(played) == 4:
            screenshot(page, artifacts, "board-earth-and-water-build")
    next_step(page)
    assert builds, f"no unit was raised from the map: {played}"
    assert any(a.startswith(("event ", "move ")) for a in played), played
    # Greece (the AI) played in between: more moves were made than Persia clicked.
    assert move(page) - start > len(played), (move(page), start, played)
    expect(page.get_by_test_id("log")).to_contain_text(re.compile("greece", re.I))
    shows_board(page, "ew-map")
    screenshot(page, artifacts, "board-earth-and-water")
    fits_phone(page, artifacts, "board-earth-and-water-phone")
    # The board's own texts follow the language.
    page.get_by_test_id("lang").select_option("fr")
    expect(board.get_by_test_id("ew-tracks")).to_contain_text("Campagne")
    expect(board.get_by_test_id("ew-tracks")).to_contain_text("Grèce")
    assert not errors, errors


# -- 300: The Board Game -------------------------------------------------------------------


def hg_step(page: Page) -> str:
    """One decision through the board: a unit that may march (then one of the spaces it
    may reach), a casualty, a card to play; else the first action button."""
    board = page.get_by_test_id("board")
    units = board.locator('[data-testid="hg-unit"][role="button"]')
    cards = board.locator('button[data-testid="hg-card"]')
    if units.count():
        unit = units.first
        name = unit.get_attribute("aria-label") or ""
        unit.click()
        if board.get_by_test_id("hg-hint").count():
            space = board.locator('[data-testid="hg-space"][role="button"]').first
            name = space.get_attribute("aria-label") or ""
            space.click()
        return name
    if cards.count():
        card = cards.first
        name = card.get_attribute("title") or ""
        card.click()
        return name
    return click_first_action(page)


def play_hot_gates(page: Page, steps: int) -> list[str]:
    played: list[str] = []
    for _ in range(steps):
        if not next_step(page):
            break
        played.append(hg_step(page))
    next_step(page)
    return played


def test_hot_gates_two_players_sparta_against_the_ai(page: Page, artifacts: Path) -> None:
    errors = watch_errors(page)
    new_table(page, ["ai-normal", "me"], game="hot-gates")
    board = shows_board(page, "hg-board")
    expect(board.get_by_test_id("hg-space")).to_have_count(12)
    expect(board.locator('[data-testid="hg-space"][data-space="A4"]')).to_be_visible()
    expect(board.get_by_test_id("hg-goat-path")).to_be_visible()
    expect(board.get_by_test_id("hg-glory")).to_have_count(1)
    expect(page.get_by_test_id("provisional")).to_be_visible()
    start = move(page)
    played = play_hot_gates(page, 14)
    assert any(a.startswith(("move ", "casualty ", "play ", "enter ")) for a in played), played
    assert move(page) - start > len(played), (move(page), start, played)
    expect(page.get_by_test_id("log")).to_contain_text(re.compile("persia", re.I))
    shows_board(page, "hg-board")
    expect(board.get_by_test_id("hg-hands")).to_contain_text("Sparta")
    screenshot(page, artifacts, "board-hot-gates-2p")
    fits_phone(page, artifacts, "board-hot-gates-2p-phone")
    assert not errors, errors


def test_hot_gates_four_players_one_human(page: Page, artifacts: Path) -> None:
    errors = watch_errors(page)
    new_table(page, ["ai-easy", "ai-easy", "me", "ai-easy"], game="hot-gates")
    board = shows_board(page, "hg-board")
    expect(board.get_by_test_id("hg-glory")).to_have_count(2)
    expect(board.get_by_test_id("hg-kills")).to_contain_text("Persia A")
    start = move(page)
    played = play_hot_gates(page, 8)
    assert played
    assert move(page) - start > len(played), (move(page), start, played)
    shows_board(page, "hg-board")
    expect(board.get_by_test_id("hg-hands")).to_contain_text("Sparta A")
    screenshot(page, artifacts, "board-hot-gates-4p")
    page.get_by_test_id("lang").select_option("it")
    expect(board.get_by_test_id("hg-board")).to_contain_text("Sentiero delle capre")
    expect(board.get_by_test_id("hg-board")).to_contain_text("Campo spartano")
    assert not errors, errors
