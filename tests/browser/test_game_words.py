"""What the boards say about the game, in the rules' words: Earth & Water's cards with
their movement and both events (p13), the turn line's turn, round or campaign instead of
a move count (p14), Earth & Water's result with its reason and the score track (p15) and
300's counter of what leaves the game (p16)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, WebSocketRoute, expect

from tests.browser.helpers import new_table

CATALOGS = Path(__file__).parents[2] / "src" / "thermopylae" / "server" / "web" / "i18n"
EN = json.loads((CATALOGS / "en.json").read_text(encoding="utf-8"))
PT = json.loads((CATALOGS / "pt.json").read_text(encoding="utf-8"))


def rewrite_updates(page: Page, change: Callable[[dict[str, Any]], None]) -> None:
    """Every table message from the server passes through `change` on its way to the page."""

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "update":
                change(data)
            ws.send(json.dumps(data))

        server.on_message(from_server)

    page.route_web_socket("**/ws/tables/**", route)


def test_p13_earth_and_water_cards_show_movement_and_both_events(page: Page) -> None:
    # Persia's hand is set in the messages: the server's chance is not seeded, and 3 times
    # in 16 a card drawn at the first buy is Sudden Death of the Great King, which empties
    # the hand (the rules' drawing of cards has its own tests).
    def holding(data: dict[str, Any]) -> None:
        data["view"]["hands"]["persia"] = {"count": 3, "cards": [1, 6, 11]}

    rewrite_updates(page, holding)
    new_table(page, ["me", "ai-easy"], game="earth-and-water")
    cards = page.get_by_test_id("ew-hand").get_by_test_id("ew-card")
    expect(cards).to_have_count(3)
    for i in range(cards.count()):
        card = cards.nth(i)
        n = card.get_attribute("data-card")
        for half in ("greece", "persia"):
            expect(card).to_contain_text(EN[f"earth-and-water.card.{n}.{half}"])
            expect(card).to_contain_text(EN[f"earth-and-water.card.{n}.{half}.effect"])
        expect(card.get_by_test_id("ew-card-movement")).to_have_text(EN["earth-and-water.movement"])
    page.get_by_test_id("lang").select_option("pt")
    n = cards.first.get_attribute("data-card")
    expect(cards.first).to_contain_text(PT[f"earth-and-water.card.{n}.persia.effect"])
    expect(cards.first.get_by_test_id("ew-card-movement")).to_have_text(
        PT["earth-and-water.movement"]
    )


def test_p14_the_turn_line_names_the_turn_round_or_campaign(page: Page) -> None:
    turn = page.get_by_test_id("turn")
    new_table(page, ["me"])
    expect(turn).to_have_text("Your turn (p1) · Turn 1")
    new_table(page, ["me", "ai-easy"], game="earth-and-water")
    expect(turn).to_have_text(re.compile(r"^Your turn \(Persia\) · Campaign 1 of 5 · Preparation"))
    new_table(page, ["ai-easy", "me"], game="hot-gates")
    expect(turn).to_contain_text(re.compile(r"^Your turn \(Sparta\) · Round 1 · "))
    expect(turn).not_to_contain_text("move")
    page.get_by_test_id("lang").select_option("fr")
    expect(turn).to_contain_text(re.compile(r"^À vous de jouer \(Sparte\) · Tour 1 · "))


def test_p15_earth_and_water_result_gives_the_reason_and_the_track(page: Page) -> None:
    reason = "Greece leads after the 5th campaign"

    def finished(data: dict[str, Any]) -> None:
        data["view"]["score"] = -6
        data["view"]["result"] = {"winner": "greece", "reason": reason}
        data["outcome"] = {
            "results": ["loss", "win"],
            "scores": [0.0, 1.0],
            "reason": reason,
            "turns": 40,
        }
        data["legal"] = []
        data["your_turn"] = False
        data["to_act"] = None

    rewrite_updates(page, finished)
    new_table(page, ["me", "ai-easy"], game="earth-and-water")
    result = page.get_by_test_id("result")
    expect(result).to_be_visible()
    expect(result.get_by_test_id("result-reason")).to_have_text(f"Why: {reason}")
    expect(result.get_by_test_id("result-detail")).to_have_text("Score track: Greece 6")
    expect(result).to_contain_text("Greece: Victory")
    expect(result).not_to_contain_text("score 1")
    page.get_by_test_id("lang").select_option("it")
    expect(result.get_by_test_id("result-detail")).to_have_text("Tracciato dei punti: Grecia 6")


def test_p16_hot_gates_counts_what_leaves_the_game(page: Page) -> None:
    new_table(page, ["ai-easy", "me"], game="hot-gates")
    out = page.get_by_test_id("hg-out")
    expect(out).to_contain_text("Out of the game: Spartans 0 · Persian leaders 0")
    expect(page.get_by_test_id("board")).not_to_contain_text("Eliminated")


def test_p16_the_counter_follows_the_views_eliminated_units(page: Page) -> None:
    def two_out(data: dict[str, Any]) -> None:
        data["view"]["eliminated"] = [
            {"unit": "spartan", "name": "Spartan", "wounded": False, "code": "spartan"},
            {"unit": "stelios", "name": "Stelios", "wounded": False, "code": "stelios"},
            {"unit": "xerxes", "name": "Xerxes", "wounded": False, "code": "xerxes"},
        ]

    rewrite_updates(page, two_out)
    new_table(page, ["ai-easy", "me"], game="hot-gates")
    out = page.get_by_test_id("hg-out")
    expect(out).to_have_attribute("data-spartans", "2")
    expect(out).to_have_attribute("data-leaders", "1")
    expect(out).to_contain_text("Spartans 2 · Persian leaders 1")
    expect(out.locator("title")).to_have_text(EN["hot-gates.outNote"])
