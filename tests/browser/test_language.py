"""The texts in four languages: from the browser's language, switchable on every page,
kept across reloads."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import new_table

START = {"en": "Start", "pt": "Começar", "fr": "Commencer", "it": "Inizia"}


def test_switch_the_language_in_the_lobby(page: Page) -> None:
    page.goto("/")
    start = page.get_by_test_id("start")
    lang = page.get_by_test_id("lang")
    expect(start).to_have_text(START["en"])
    expect(lang).to_have_value("en")
    for code in ("fr", "it", "pt"):
        lang.select_option(code)
        expect(start).to_have_text(START[code])
        expect(page.locator("html")).to_have_attribute("lang", code)
    # Kept across a reload.
    page.reload()
    expect(page.get_by_test_id("start")).to_have_text(START["pt"])
    expect(page.get_by_test_id("lang")).to_have_value("pt")


def test_language_from_the_browser(browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, locale="fr-FR")
    try:
        page = context.new_page()
        page.goto("/")
        expect(page.get_by_test_id("start")).to_have_text(START["fr"])
        expect(page.get_by_test_id("lang")).to_have_value("fr")
    finally:
        context.close()


def test_switch_the_language_at_a_table(page: Page) -> None:
    new_table(page, ["me"])
    expect(page.get_by_test_id("turn")).to_contain_text("Your turn")
    page.get_by_test_id("lang").select_option("it")
    expect(page.get_by_test_id("turn")).to_contain_text("Tocca a te")
    expect(page.get_by_test_id("provisional")).to_contain_text("Componenti provvisori")
    expect(page.get_by_test_id("hand")).to_contain_text("La tua mano")
    expect(page.get_by_role("heading", name="Registro")).to_be_visible()
    # The board's buttons still play (labels from the server stay as they are).
    page.get_by_test_id("lang").select_option("pt")
    expect(page.get_by_test_id("turn")).to_contain_text("Sua vez")
    expect(page.get_by_test_id("action").first).to_be_enabled()
