"""The terminal face: the board's layout and colours, the notice said once, plurals, the
`cards` command and the games' `hand_text`, seat hints for --ai, and the language."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tests.cli_helpers import flat, run
from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE
from thermopylae.engine.record import Position
from thermopylae.games.earth_and_water.cards import EFFECTS
from thermopylae.tui.board import Board, changed_lines

ESCAPE = "\x1b"


def _boards(stdout: str) -> list[list[str]]:
    """The boards of a piped transcript: the lines after each rule, up to the prompt."""
    found: list[list[str]] = []
    current: list[str] | None = None
    for line in stdout.splitlines():
        if re.fullmatch(r"-+ .* -+", line):
            current = []
            found.append(current)
        elif current is not None and line[:2] in ("  ", "* ") and not line.startswith("  ."):
            current.append(line)
        else:
            current = None
    return found


def _played_until(
    game_id: str, stop: Any, seed: int = 1, options: dict[str, Any] | None = None
) -> tuple[Any, Any]:
    """A game and a state reached by random play, the first where `stop(game, state)`."""
    game = registry.get(game_id)
    state = game.new(game.options(options or {}))
    rng = random.Random(seed)
    while not stop(game, state):
        seat = game.to_act(state)
        assert seat is not None, "the game ended first"
        action = (
            game.sample_chance(state, rng)
            if seat == CHANCE
            else rng.choice(list(game.legal(state)))
        )
        game.apply(state, action)
    return game, state


# -- the board -------------------------------------------------------------------------------


def test_p18_changed_lines_are_found_by_a_diff() -> None:
    assert changed_lines(None, ["a", "b"]) == set()
    assert changed_lines(["a", "b", "c"], ["a", "B", "c", "d"]) == {1, 3}
    assert changed_lines(["a", "b"], ["a", "b"]) == set()
    assert changed_lines(["x", "a"], ["a"]) == set()  # a removed line flags nothing


def test_p18_piped_board_is_plain_text_with_changed_lines_flagged() -> None:
    r = run("play", "thermopyles", "--players", "2", "--seed", "5", answers=["retreat", "quit"])
    assert r.returncode == 0, r.stderr
    assert ESCAPE not in r.stdout
    boards = _boards(r.stdout)
    assert len(boards) == 2
    assert not any(line.startswith("* ") for line in boards[0])  # nothing to compare with
    map_lines = [line for line in boards[1] if line[2:].startswith("Map:")]
    assert map_lines and map_lines[0].startswith("* ")  # the marker moved
    assert any(line.startswith("  ") for line in boards[1])  # the rest did not change
    assert "Thermopyles · p1 to play" in r.stdout


def test_p18_terminal_board_colours_the_seats_and_marks_the_active_one() -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, color_system="standard", width=100)
    board = Board(console, "Test", ["persia", "greece"])
    board.draw("Hand persia: 3\nHand greece: hidden\nscore 0", "greece")
    first = buffer.getvalue()
    assert "\x1b[1;31mpersia" in first  # persia bold red
    assert "\x1b[1;7;34mgreece" in first  # greece bold, reversed: it is to act
    assert "greece\x1b[0m\x1b[2m to play" in first and "╭" in first  # a panel, its subtitle
    buffer.truncate(0)
    buffer.seek(0)
    board.draw("Hand persia: 2\nHand greece: hidden\nscore 0", "persia")
    second = buffer.getvalue()
    flagged = [ln for ln in second.splitlines() if "▌" in ln]
    assert len(flagged) == 1 and "persia" in flagged[0]


def test_p18_provisional_notice_once_per_game_also_when_resuming(tmp_path: Path) -> None:
    pos = tmp_path / "pos.json"
    r = run(
        "play",
        "thermopyles",
        "--players",
        "2",
        "--seed",
        "5",
        answers=["retreat", "give p2", "board", f"position {pos}", "quit"],
    )
    assert r.returncode == 0, r.stderr
    assert len(_boards(r.stdout)) >= 3
    assert flat(r.stdout).count("provisional component values") == 1
    assert r.stdout.index("provisional component values") < r.stdout.index("Legal actions")
    again = run(
        "play",
        "thermopyles",
        "--from",
        str(pos),
        "--seed",
        "9",
        answers=["retreat", "board", "quit"],
    )
    assert again.returncode == 0, again.stderr
    assert flat(again.stdout).count("provisional component values") == 1
    assert again.stdout.index("provisional component values") < again.stdout.index("Legal")
    ew = run("play", "earth-and-water", "--seed", "2", answers=["quit"])
    assert "provisional component values" not in ew.stdout  # its values are the rulebook's


def test_p18_plurals_in_the_terminal_texts(tmp_path: Path) -> None:
    game = registry.get("thermopyles")
    options = game.options({"players": 2})
    _, state = _played_until(
        "thermopyles", lambda g, s: g.to_act(s) not in (CHANCE,), options=options
    )
    start = tmp_path / "start.json"
    Position.of(game, options, state).save(start)
    one, none = tmp_path / "one.json", tmp_path / "none.json"
    r = run(
        "play",
        "thermopyles",
        "--from",
        str(start),
        "--seed",
        "3",
        answers=[f"save {none}", "retreat", f"save {one}", "quit"],
    )
    assert r.returncode == 0, r.stderr
    out = flat(r.stdout)
    assert f"Record saved to {none} (0 steps)." in out
    assert f"Record saved to {one} (1 step)." in out
    assert len(json.loads(one.read_text())["steps"]) == 1
    rp = run("replay", str(one))
    assert rp.returncode == 0, rp.stderr
    assert rp.stdout.startswith("OK: 1 step replayed, all legal")


# -- cards -----------------------------------------------------------------------------------


def _persia_holds_cards(game: Any, state: Any) -> bool:
    v = game.view(state, 0)
    return bool(v["hands"]["persia"]["cards"]) and bool(v["hands"]["greece"]["count"])


def test_p18_earth_and_water_hand_text_shows_the_seat_cards_and_effects() -> None:
    game, state = _played_until("earth-and-water", _persia_holds_cards)
    view = game.view(state, 0)
    text = game.hand_text(view)
    assert text is not None
    cards = view["hands"]["persia"]["cards"]
    for k in cards:
        assert f"{k:2d} {view['card_names']['persia'][k]}: {EFFECTS[k][1]}" in text
    greek = game.view(state, 1)["hands"]["greece"]["cards"]
    for k in set(greek) - set(cards):  # the other hand stays hidden
        assert EFFECTS[k][1] not in text and EFFECTS[k][0] not in text
    assert "thermopylae rules earth-and-water" in text
    assert game.hand_text(game.view(state, None)) is None  # a spectator holds nothing


@pytest.mark.parametrize("game_id", ["thermopyles", "hot-gates"])
def test_p18_hand_text_of_the_other_games(game_id: str) -> None:
    def dealt(game: Any, state: Any) -> bool:
        return game.to_act(state) not in (None, CHANCE) and bool(
            game.view(state, game.to_act(state))["hands"][0]["count"]
        )

    game, state = _played_until(game_id, dealt)
    seat = game.to_act(state)
    view = game.view(state, seat)
    mine = next(h for h in view["hands"] if h["seat"] == view["seat"])
    text = game.hand_text(view)
    assert text is not None and f"({mine['seat']}, " in text
    for card in mine["cards"]:
        assert str(card["title"] if isinstance(card, dict) else card) in text
    assert game.hand_text(game.view(state, None)) is None


def test_p18_cards_command_and_help_point_to_the_card_texts() -> None:
    r = run("play", "earth-and-water", "--seed", "2", answers=["help", "cards", "quit"])
    assert r.returncode == 0, r.stderr
    out = flat(r.stdout)
    assert "cards the cards in your hand and what each one does" in out
    assert "(every card: `thermopylae rules earth-and-water`)" in out
    assert "Your hand (persia, 0 cards)" in out
    r = run("play", "thermopyles", "--seed", "2", answers=["cards", "quit"])
    hand = re.search(r"Hand p1 \(you\): ([\d ]+?)  \[", r.stdout)
    assert hand is not None
    values = hand.group(1)
    assert f"Your Spartan cards (p1, {len(values.split())} cards): {values}" in r.stdout


# -- seats and language ----------------------------------------------------------------------


def test_p19_a_missing_seat_says_how_to_get_more_seats() -> None:
    r = run("play", "thermopyles", "--ai", "p2=heuristic", answers=["quit"])
    assert r.returncode == 2
    assert r.stderr.splitlines() == [
        "error: --ai p2=heuristic: no seat 'p2'; the seats are p1 (with --players 2 the "
        "seats are p1, p2)"
    ]
    r = run("play", "hot-gates", "--ai", "sparta-b=heuristic", answers=["quit"])
    assert r.returncode == 2
    assert "(with --players 3 the seats are persia, sparta-a, sparta-b)" in flat(r.stderr)
    r = run("play", "thermopyles", "--ai", "p9=heuristic", answers=["quit"])
    assert "Thermopyles takes 1 to 4 players: choose with --players N" in flat(r.stderr)
    r = run("play", "earth-and-water", "--ai", "sparta=heuristic", answers=["quit"])
    assert "--players" not in r.stderr  # always two seats: nothing to add


def test_p19_no_players_hint_when_the_table_comes_from_a_file(tmp_path: Path) -> None:
    pos = tmp_path / "pos.json"
    run("play", "thermopyles", "--seed", "1", answers=[f"position {pos}", "quit"])
    r = run("play", "thermopyles", "--from", str(pos), "--ai", "p2=heuristic", answers=["quit"])
    assert r.returncode == 2
    assert "no seat 'p2'; the seats are p1" in r.stderr and "--players" not in r.stderr


def test_lang_option_and_environment_choose_the_language() -> None:
    pt = run("play", "thermopyles", "--seed", "1", "--lang", "pt", answers=["99", "quit"])
    assert pt.returncode == 0, pt.stderr
    assert "Ações legais:" in pt.stdout
    assert "Recusado: não há a opção 99" in pt.stdout
    fr = run(
        "play",
        "thermopyles",
        "--seed",
        "1",
        answers=["quit"],
        env={"LANG": "fr_FR.UTF-8", "LC_ALL": ""},
    )
    assert "Actions légales :" in fr.stdout
    it = run("play", "thermopyles", "--seed", "1", answers=["quit"], env={"LC_ALL": "it_IT.UTF-8"})
    assert "Azioni legali:" in it.stdout
    en = run("play", "thermopyles", "--seed", "1", answers=["quit"], env={"LC_ALL": "de_DE"})
    assert "Legal actions:" in en.stdout
    bad = run("play", "thermopyles", "--lang", "xx", answers=["quit"])
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: --lang xx: no such language")
    assert "pt (Português)" in bad.stderr
    helped = run("play", "--help")
    assert "--lang" in helped.stdout and "LANG" in flat(helped.stdout)


TERMINAL_SOURCES = [
    "cli.py",
    "cli_common.py",
    "cli_sim.py",
    "cli_serve.py",
    "tui/terminal.py",
    "tui/board.py",
    "games/earth_and_water/hand.py",
    "games/hot_gates/hand.py",
    "games/thermopyles/hand.py",
]


@pytest.mark.parametrize("lang", ["pt", "fr", "it"])
def test_terminal_catalog_translates_every_terminal_message(lang: str) -> None:
    """Every message of the terminal's sources has a translation in locale/LANG/terminal.po,
    with the same {placeholders}."""
    from babel.messages.extract import extract_from_file
    from babel.messages.pofile import read_po

    src = Path(__file__).parents[1] / "src" / "thermopylae"
    with (src / "locale" / lang / "terminal.po").open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    keywords = {"_": None, "ngettext": (1, 2), "N_": None}
    for name in TERMINAL_SOURCES:
        for _line, msgid, _comments, _context in extract_from_file(
            "python", str(src / name), keywords=keywords
        ):
            key = msgid[0] if isinstance(msgid, tuple) else msgid
            message = catalog.get(key)
            assert message is not None and message.string, (name, msgid)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            wanted = set(
                re.findall(r"{\w*}", "".join(msgid if isinstance(msgid, tuple) else (msgid,)))
            )
            for text in strings:
                assert isinstance(text, str) and text, (msgid, text)  # (babel's type: or a list)
                assert set(re.findall(r"{\w*}", text)) <= wanted, (msgid, text)
                assert set(re.findall(r"{\w*}", text)) >= wanted - {"{n}"}, (msgid, text)
