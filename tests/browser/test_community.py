"""The community in the browser (issue 19).

The acceptance test: a public table appears in another context's lobby, is joined in one
click, played to the end, rematched with sides swapped; a takeback request is accepted
and the board goes back; a takeback past a die roll is refused. Besides: chat between two
players with a mute, a quick match played rated to the end, after which the player's page
and the leaderboard show the ratings; every new page fits a phone.

Earth & Water is the game: clicking the first action ends it in 25 decisions (5
campaigns of buying nothing), with no chance step on the way. Hot Gates rolls dice, so
it serves the refused takeback.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect
from pytest_playwright.pytest_playwright import CreateContextCallback

from tests.browser.helpers import click_first_action, move, new_table, screenshot, table_id
from tests.browser.test_accounts import fits_phone, fresh_name, sign_up
from tests.browser.test_csp import watch_csp

GAME = "earth-and-water"


def my_turn(page: Page) -> bool:
    return page.get_by_test_id("turn").get_attribute("data-your-turn") == "true"


def settled(page: Page) -> None:
    """Wait until no action of this page is on its way to the server."""
    page.wait_for_function("() => !document.querySelector('[data-testid=action]:disabled')")


def play_both_to_end(pages: list[Page], limit: int = 120) -> int:
    """Click the first action on whichever page must act until both show the result;
    returns the number of actions clicked."""
    clicks = 0
    while True:
        for page in pages:
            settled(page)
        if all(p.get_by_test_id("result").is_visible() for p in pages):
            return clicks
        acting = [p for p in pages if my_turn(p)]
        if not acting:
            pages[0].wait_for_timeout(100)
            continue
        at = move(acting[0])
        click_first_action(acting[0])
        clicks += 1
        assert clicks < limit, "the game did not end"
        expect(acting[0].get_by_test_id("turn")).not_to_have_attribute("data-move", str(at))


def new_public_table(page: Page) -> str:
    """Persia is the logged-in player's own seat, Greece an open seat; listed in the lobby."""
    page.goto("/")
    page.get_by_test_id("game-select").select_option(GAME)
    expect(page.get_by_test_id("seat-0")).to_have_value("account")
    page.get_by_test_id("seat-1").select_option("open")
    page.get_by_test_id("terms-public").check()
    expect(page.get_by_test_id("terms-takebacks")).to_be_checked()
    page.get_by_test_id("start").click()
    page.wait_for_url(re.compile(r"/table/[^/#]+$"))
    return table_id(page)


def join_from_lobby(page: Page, table: str, seat: str = "greece") -> None:
    page.goto("/")
    row = page.get_by_test_id("open-list").locator(f'[data-table="{table}"]')
    expect(row).to_be_visible()
    row.locator(f'[data-testid="join"][data-seat="{seat}"]').click()
    page.wait_for_url(re.compile(rf"/table/{table}$"))


def test_c19_a_public_table_is_joined_played_taken_back_and_rematched(
    new_context: CreateContextCallback, artifacts: Path
) -> None:
    alice_name, bob_name = fresh_name("alice"), fresh_name("bob")
    alice = new_context().new_page()
    bob = new_context().new_page()
    violations = watch_csp(alice) + watch_csp(bob)
    sign_up(alice, alice_name)
    sign_up(bob, bob_name)

    # Alice opens a public table with an open seat: she waits for a player.
    table = new_public_table(alice)
    expect(alice.get_by_test_id("waiting-players")).to_contain_text("Waiting for players: Greece")
    expect(alice.get_by_test_id("terms")).to_contain_text("public")
    expect(alice.get_by_test_id("terms")).to_contain_text("takebacks allowed")
    expect(alice.get_by_test_id("terms")).to_contain_text("unrated")

    # Bob sees it in his lobby, with who waits there, and joins in one click.
    bob.goto("/")
    row = bob.get_by_test_id("open-list").locator(f'[data-table="{table}"]')
    expect(row).to_contain_text("Earth & Water")
    expect(row).to_contain_text(alice_name)
    expect(row).to_contain_text("no clock")
    fits_phone(bob, artifacts, "community-lobby-phone")
    row.locator('[data-testid="join"][data-seat="greece"]').click()
    bob.wait_for_url(re.compile(rf"/table/{table}$"))
    expect(bob.get_by_text("You play Greece.")).to_be_visible()
    expect(alice.get_by_test_id("waiting-players")).to_be_hidden()
    expect(alice.get_by_test_id("turn")).to_have_attribute("data-your-turn", "true")
    # The table left the open games once full.
    bob.goto("/")
    expect(bob.get_by_test_id("open-list")).not_to_contain_text(table)
    bob.goto(f"/table/{table}")
    expect(bob.get_by_text("You play Greece.")).to_be_visible()

    # Alice plays, then asks to take it back; Bob accepts; the board goes back.
    before = move(alice)
    first = click_first_action(alice)
    expect(alice.get_by_test_id("turn")).not_to_have_attribute("data-move", str(before))
    alice.get_by_test_id("takeback-request").click()
    expect(bob.get_by_test_id("takeback-pending")).to_contain_text("Persia asks to take back")
    expect(alice.get_by_test_id("takeback-cancel")).to_be_visible()
    screenshot(bob, artifacts, "community-takeback-request")
    bob.get_by_test_id("takeback-accept").click()
    expect(alice.get_by_test_id("turn")).to_have_attribute("data-move", str(before))
    expect(bob.get_by_test_id("turn")).to_have_attribute("data-move", str(before))
    expect(alice.get_by_test_id("takeback-pending")).to_be_hidden()
    expect(alice.locator(f'[data-testid="action"][data-action="{first}"]')).to_be_enabled()

    # Played to the end.
    play_both_to_end([alice, bob])
    expect(alice.get_by_test_id("result")).to_be_visible()
    screenshot(alice, artifacts, "community-result")

    # Alice offers a rematch with the sides swapped; Bob accepts and goes there by himself.
    alice.get_by_test_id("rematch-swap").click()
    expect(alice.get_by_test_id("rematch-offered")).to_be_visible()
    expect(bob.get_by_test_id("rematch-offer")).to_contain_text("sides swapped")
    bob.get_by_test_id("rematch-accept").click()
    bob.wait_for_url(lambda url: "/table/" in url and table not in url)
    rematch = table_id(bob)
    assert rematch != table
    expect(bob.get_by_text("You play Persia.")).to_be_visible()
    link = alice.get_by_test_id("rematch-link")
    expect(link).to_have_attribute("href", f"/table/{rematch}")
    link.click()
    expect(alice.get_by_text("You play Greece.")).to_be_visible()
    expect(bob.get_by_test_id("turn")).to_have_attribute("data-your-turn", "true")
    assert not violations, violations


def test_c19_a_takeback_past_a_die_roll_is_refused(page: Page) -> None:
    """Against a bot a takeback happens at once; once a die was rolled after the seat's
    last decision, the server refuses it and the page says why."""
    new_table(page, ["me", "ai-easy"], game="hot-gates")
    log = page.get_by_test_id("log")
    rolled = False
    for _ in range(40):
        expect(page.get_by_test_id("turn")).to_have_attribute("data-your-turn", "true")
        settled(page)
        lines = log.locator("li").count()
        at = move(page)
        click_first_action(page)
        expect(page.get_by_test_id("turn")).not_to_have_attribute("data-move", str(at))
        expect(page.get_by_test_id("turn")).to_have_attribute("data-your-turn", "true")
        settled(page)
        new = log.locator("li").all_inner_texts()[lines:]
        if any(re.search(r"\bdie: \d", line) for line in new):
            rolled = True
            break
    assert rolled, "no die was rolled"
    at = move(page)
    page.get_by_test_id("takeback-request").click()
    refusal = page.get_by_test_id("takeback-error")
    expect(refusal).to_contain_text("No takeback:")
    expect(refusal).to_contain_text(re.compile("die|reveal", re.I))
    expect(page.get_by_test_id("turn")).to_have_attribute("data-move", str(at))


def test_c19_two_players_chat_and_one_mutes_the_other(
    new_context: CreateContextCallback, artifacts: Path
) -> None:
    alice_name, bob_name = fresh_name("alice"), fresh_name("bob")
    alice = new_context().new_page()
    bob = new_context().new_page()
    violations = watch_csp(alice) + watch_csp(bob)
    sign_up(alice, alice_name)
    sign_up(bob, bob_name)
    table = new_public_table(alice)
    join_from_lobby(bob, table)

    # Text stays text: markup typed into the chat is shown as typed, never built.
    alice.get_by_test_id("chat-input").fill("hello <b>Bob</b>")
    alice.get_by_test_id("chat-send").click()
    said = bob.get_by_test_id("chat-list").get_by_test_id("chat-line")
    expect(said).to_have_count(1)
    expect(said.first).to_contain_text(alice_name)
    expect(said.first).to_contain_text("hello <b>Bob</b>")
    assert bob.get_by_test_id("chat-list").locator("b").count() == 0
    bob.get_by_test_id("chat-input").fill("hi Alice")
    bob.get_by_test_id("chat-input").press("Enter")
    expect(alice.get_by_test_id("chat-list").get_by_test_id("chat-line")).to_have_count(2)
    fits_phone(alice, artifacts, "community-chat-phone")

    # Alice mutes Bob: his messages leave her chat, and new ones never come.
    alice.locator(f'[data-testid="mute"][data-player="{bob_name}"]').click()
    expect(alice.locator(f'[data-testid="unmute"][data-player="{bob_name}"]')).to_be_visible()
    lines = alice.get_by_test_id("chat-list").get_by_test_id("chat-line")
    expect(lines).to_have_count(1)
    bob.get_by_test_id("chat-input").fill("are you there?")
    bob.get_by_test_id("chat-send").click()
    expect(bob.get_by_test_id("chat-list").get_by_test_id("chat-line")).to_have_count(3)
    alice.get_by_test_id("chat-input").fill("quiet now")
    alice.get_by_test_id("chat-send").click()
    expect(bob.get_by_test_id("chat-list").get_by_test_id("chat-line")).to_have_count(4)
    expect(lines).to_have_count(2)
    expect(alice.get_by_test_id("chat-list")).not_to_contain_text("are you there?")

    # A spectator of this table (its terms keep the chat for the players) reads none of it.
    watcher = new_context().new_page()
    watcher.goto(f"/table/{table}")
    expect(watcher.get_by_test_id("chat-note")).to_have_text(
        "Only the players read this table’s chat."
    )
    expect(watcher.get_by_test_id("chat-input")).to_be_hidden()
    expect(watcher.get_by_test_id("chat-line")).to_have_count(0)

    # Writing too fast: the server's refusal shows in words.
    # (Five messages in ten seconds are allowed: on a busy machine a send may take a
    # while, so Bob sends until the server refuses, at most a dozen.)
    error = bob.get_by_test_id("chat-error")
    for n in range(12):
        bob.get_by_test_id("chat-input").fill(f"spam {n}")
        bob.get_by_test_id("chat-send").click()
        expect(bob.get_by_test_id("chat-send")).to_be_enabled()
        if error.is_visible():
            break
    expect(error).to_contain_text("Too many messages")
    expect(bob.get_by_test_id("chat-input")).to_have_value(f"spam {n}")  # kept to send again
    screenshot(bob, artifacts, "community-chat")
    assert not violations, violations


def test_c19_the_new_table_form_offers_rated_games_to_players_only(page: Page) -> None:
    """A guest is told to log in for a rated game; a player who ticks Rated finds the
    takebacks unticked (a takeback would unrate the game), until ticking them by hand."""
    page.goto("/")
    expect(page.get_by_test_id("terms-rated-login")).to_contain_text("Log in")
    expect(page.get_by_test_id("terms-rated")).to_have_count(0)
    expect(page.get_by_test_id("match-login")).to_be_visible()
    sign_up(page, fresh_name("carol"))
    page.get_by_test_id("game-select").select_option(GAME)
    expect(page.get_by_test_id("terms-takebacks")).to_be_checked()
    page.get_by_test_id("terms-rated").check()
    expect(page.get_by_test_id("terms-takebacks")).not_to_be_checked()
    page.get_by_test_id("terms-takebacks").check()
    page.get_by_test_id("terms-rated").uncheck()
    page.get_by_test_id("terms-rated").check()
    expect(page.get_by_test_id("terms-takebacks")).to_be_checked()  # chosen by hand: kept
    # A rated table against a bot level, agreed with takebacks: the table says so.
    page.get_by_test_id("seat-1").select_option("ai-easy")
    page.get_by_test_id("start").click()
    page.wait_for_url(re.compile(r"/table/[^/#]+$"))
    expect(page.get_by_test_id("terms")).to_have_text(re.compile(r"^rated · takebacks allowed"))


def test_c19_a_quick_rated_match_then_the_player_page_and_the_leaderboard(
    new_context: CreateContextCallback, artifacts: Path
) -> None:
    alice_name, bob_name = fresh_name("alice"), fresh_name("bob")
    alice = new_context().new_page()
    bob = new_context().new_page()
    violations = watch_csp(alice) + watch_csp(bob)
    sign_up(alice, alice_name)
    sign_up(bob, bob_name)

    # Both ask for a rated quick match of the same game without a clock: paired.
    for page in (alice, bob):
        page.get_by_test_id("match-game").select_option(GAME)
        page.get_by_test_id("match-clock").select_option("none")
        expect(page.get_by_test_id("match-rated")).to_be_checked()
    alice.get_by_test_id("match-start").click()
    expect(alice.get_by_test_id("match-waiting")).to_be_visible()
    bob.get_by_test_id("match-start").click()
    bob.wait_for_url(re.compile(r"/table/[^/#]+$"))
    alice.wait_for_url(re.compile(r"/table/[^/#]+$"))
    table = table_id(alice)
    assert table_id(bob) == table
    expect(alice.get_by_test_id("terms")).to_have_text(re.compile(r"^rated · no takebacks"))
    expect(alice.get_by_test_id("takeback-request")).to_have_count(0)
    play_both_to_end([alice, bob])
    fits_phone(alice, artifacts, "community-result-phone")

    # Alice's page: a rating per side played, its history, the game with its record.
    alice.get_by_test_id("player-link").filter(has_text=alice_name).first.click()
    alice.wait_for_url(re.compile(rf"/player/{alice_name}$"))
    expect(alice.get_by_test_id("player-name")).to_contain_text(alice_name)
    rating = alice.get_by_test_id("rating").first
    expect(rating.get_by_test_id("rating-value")).to_have_text(re.compile(r"^\d+\.\d ± \d+\.\d$"))
    expect(rating).to_contain_text("1 games")
    expect(rating.get_by_test_id("rating-plot")).to_have_attribute("data-points", "1")
    expect(alice.get_by_test_id("opponents-table")).to_contain_text(bob_name)
    game = alice.get_by_test_id("finished-games").locator(f'[data-table="{table}"]')
    expect(game).to_be_visible()
    expect(game.get_by_test_id("record-link")).to_have_attribute(
        "href", f"/api/tables/{table}/record"
    )
    expect(game.get_by_test_id("replay-link")).to_have_attribute("href", f"/table/{table}/replay")
    with alice.expect_download() as download:
        alice.get_by_test_id("download-all").click()
    lines = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 and '"earth-and-water"' in lines[0], lines
    # The filters: the game's result as Alice had it shows; the other one leaves it out.
    mine = game.get_by_test_id("game-result").get_attribute("data-result")
    other = "loss" if mine == "win" else "win"
    alice.get_by_test_id("filter-result").select_option(other)
    expect(alice.get_by_test_id("finished-games")).not_to_contain_text(table)
    alice.get_by_test_id("filter-result").select_option(mine)
    expect(
        alice.get_by_test_id("finished-games").locator(f'[data-table="{table}"]')
    ).to_be_visible()
    screenshot(alice, artifacts, "community-player")
    fits_phone(alice, artifacts, "community-player-phone")

    # The leaderboard: a table per side, both players on it.
    alice.get_by_test_id("leaderboard-link").first.click()
    alice.wait_for_url(re.compile(rf"/ratings/{GAME}$"))
    sides = alice.get_by_test_id("leaderboard-side")
    expect(sides).to_have_count(2)
    board = alice.get_by_test_id("leaderboard")
    expect(board).to_contain_text(alice_name)
    expect(board).to_contain_text(bob_name)
    expect(board.get_by_test_id("leaderboard-player").first).to_contain_text("±")
    screenshot(alice, artifacts, "community-leaderboard")
    fits_phone(alice, artifacts, "community-leaderboard-phone")
    assert not violations, violations
