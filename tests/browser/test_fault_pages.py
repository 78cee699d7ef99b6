"""Point 17: a table that does not exist, a link whose token holds no seat and a server
that cannot be reached each get a page of their own, translated, with a way on."""

from __future__ import annotations

from playwright.sync_api import Page, Route, expect


def test_p17_a_missing_table_gets_a_page_with_a_link_to_the_lobby(page: Page) -> None:
    page.goto("/table/nosuchtable")
    fault = page.get_by_test_id("fault")
    expect(fault).to_have_attribute("data-kind", "notFound")
    expect(fault).to_contain_text("Table not found")
    expect(fault).to_contain_text("nosuchtable")
    expect(page.get_by_test_id("board")).to_have_count(0)
    expect(page.get_by_test_id("actions")).to_have_count(0)
    page.get_by_test_id("lang").select_option("pt")
    expect(fault).to_contain_text("Mesa não encontrada")
    page.get_by_test_id("to-lobby").click()
    expect(page.get_by_test_id("start")).to_be_visible()


def test_p17_a_wrong_token_gets_a_page_that_offers_to_watch(page: Page) -> None:
    created = page.request.post("/api/tables", data={"game": "thermopyles"})
    assert created.ok, created.text()
    table = created.json()["id"]
    page.goto(f"/table/{table}#token=not-a-token-of-this-table")
    fault = page.get_by_test_id("fault")
    expect(fault).to_have_attribute("data-kind", "badToken")
    expect(fault).to_contain_text("holds no seat")
    expect(page.get_by_test_id("to-lobby")).to_be_visible()
    page.get_by_test_id("watch").click()
    expect(page.get_by_test_id("board")).to_be_visible()
    expect(page.get_by_text("You are watching as a spectator.")).to_be_visible()


def test_p17_a_server_that_cannot_be_reached_gets_a_page_to_try_again(page: Page) -> None:
    created = page.request.post("/api/tables", data={"game": "thermopyles"})
    table = created.json()["id"]

    def down(route: Route) -> None:
        route.abort("connectionrefused")

    page.route("**/api/tables/**", down)
    page.goto(f"/table/{table}")
    fault = page.get_by_test_id("fault")
    expect(fault).to_have_attribute("data-kind", "unreachable")
    expect(fault).to_contain_text("cannot be reached")
    page.get_by_test_id("lang").select_option("it")
    expect(fault).to_contain_text("Il server non è raggiungibile")
    page.unroute("**/api/tables/**")
    page.get_by_test_id("retry").click()
    expect(page.get_by_test_id("board")).to_be_visible()
    expect(page.get_by_test_id("fault")).to_have_count(0)
