"""The client under the strict Content-Security-Policy of the hardening issue: no inline
script or style, no style attributes. A game of each kind is played for a few moves (in
two languages, and at phone width) and any violation the browser reports fails the test."""

from __future__ import annotations

from playwright.sync_api import ConsoleMessage, Page, expect

from tests.browser.helpers import click_first_action, new_table, next_step

# Every page records the violations it sees; they survive in the test's list below.
WATCH = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`
    + ` ${e.sourceFile}:${e.lineNumber}`);
});
"""


def watch_csp(page: Page) -> list[str]:
    seen: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        text = message.text
        if "Content Security Policy" in text or "CSP violation" in text:
            seen.append(text)

    page.on("console", on_console)
    page.add_init_script(WATCH)
    return seen


def play_a_few(page: Page, moves: int) -> None:
    for _ in range(moves):
        if not next_step(page):
            return
        click_first_action(page)


def test_p6_the_pages_send_the_policy(page: Page) -> None:
    response = page.goto("/")
    assert response is not None
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy and "style-src 'self'" in policy, policy


def test_p6_no_csp_violation_while_each_game_is_played(page: Page) -> None:
    violations = watch_csp(page)
    for game, roles in (
        ("thermopyles", ["me"]),
        ("earth-and-water", ["me", "ai-easy"]),
        ("hot-gates", ["ai-easy", "me"]),
    ):
        new_table(page, roles, game=game)
        expect(page.get_by_test_id("board").locator("svg").first).to_be_visible()
        play_a_few(page, 4)
        page.get_by_test_id("lang").select_option("fr")
        expect(page.get_by_test_id("board").locator("svg").first).to_be_visible()
        page.set_viewport_size({"width": 375, "height": 740})
        play_a_few(page, 2)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.get_by_test_id("lang").select_option("en")
    page.goto("/table/nosuchtable")
    expect(page.get_by_test_id("fault")).to_be_visible()
    assert not violations, violations
