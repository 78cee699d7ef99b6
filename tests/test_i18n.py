"""The games' words in every language: complete catalogs, texts built in the language of
the moment, English unchanged, plurals (hardening points 12, 18 and 20).

The completeness test extracts the messages from the whole `src/thermopylae` tree with
the mapping in `babel.cfg` (the one `pybabel extract` reads), so a text marked anywhere
in the program, by any part, must be in the merged catalog (every `.po` file of
`locale/<lang>/`) of every language.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, cast

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from tests.earth_and_water.helpers import act, position
from thermopylae import i18n
from thermopylae.engine.protocol import Event
from thermopylae.engine.registry import get
from thermopylae.extraction import extract_toml
from thermopylae.games.earth_and_water.rules import EarthAndWater
from thermopylae.games.earth_and_water.state import PERSIA
from thermopylae.games.hot_gates.rules import HotGates

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "thermopylae"
LOCALE = SRC / "locale"
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT]
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")

Msgid = str | tuple[str, str]

MappingCfg = tuple[list[tuple[str, str]], dict[str, dict[str, Any]]]
read_mapping_cfg: Callable[[IO[str]], MappingCfg] = parse_mapping_cfg
"""babel's `parse_mapping_cfg` with the types of what it returns (its module has none)."""


def extracted() -> dict[Msgid, str]:
    """Every message marked in the source and the component files: msgid -> where."""
    with (ROOT / "babel.cfg").open() as fh:
        method_map, options_map = read_mapping_cfg(fh)
    out: dict[Msgid, str] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
        str(SRC), method_map, options_map
    ):
        if isinstance(message, tuple):  # ngettext: (singular, plural)
            message = (message[0], message[1])
        out.setdefault(message, f"{filename}:{lineno}")
    return out


def merged(lang: str, locale: Path = LOCALE) -> dict[Msgid, tuple[str, ...]]:
    """Every translated, non-fuzzy message of every `.po` file of `lang`."""
    files = sorted((locale / lang).glob("*.po"))
    out: dict[Msgid, tuple[str, ...]] = {}
    for po in files:
        with po.open("rb") as fh:
            catalog = read_po(fh, locale=lang)
        for m in catalog:
            if not m.id or m.fuzzy:
                continue
            strings = tuple(m.string) if isinstance(m.string, tuple) else (m.string,)
            if all(strings):
                key = (m.id[0], m.id[1]) if isinstance(m.id, tuple) else m.id
                # babel types an id and a string as a str, a tuple or a list (a string also
                # None); read_po gives a str, or a tuple for a plural, and none is empty here
                out[cast(Msgid, key)] = cast(tuple[str, ...], strings)
    return out


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_p12_extraction_finds_the_games_texts_and_component_names() -> None:
    ids = extracted()
    for msgid in (
        "{seat} retreats to location {marker}",  # a Thermopyles log line
        ("{n} card", "{n} cards"),  # a plural
        "The Hot Gates",  # a location, from thermopyles/components.toml
        "Physicians of Babylon",  # a card title, from hot_gates/components.toml
        "Sudden Death of the Great King",  # a card name, earth_and_water
        "Remove one Persian army from the map.",  # an effect, N_ in cards.py
        "the 12th Persian card entered the graveyard",
    ):  # an outcome reason
        assert msgid in ids, msgid
    assert len(ids) > 400


@pytest.mark.parametrize("lang", TRANSLATED)
def test_p12_every_message_has_a_translation_in_every_language(lang: str) -> None:
    """A missing, empty or fuzzy translation of any extracted message fails, in any
    language, whichever `.po` file of the language should hold it."""
    assert (LOCALE / lang).is_dir(), f"no catalog folder locale/{lang}"
    have = merged(lang)
    missing = [f"{where}: {msgid!r}" for msgid, where in extracted().items() if msgid not in have]
    assert not missing, f"{lang}: {len(missing)} untranslated:\n" + "\n".join(missing)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_p12_translations_keep_the_placeholders(lang: str) -> None:
    have = merged(lang)
    wrong = []
    for msgid in extracted():
        strings = have.get(msgid, ())
        source = msgid if isinstance(msgid, str) else msgid[1]
        for s in strings:
            if placeholders(s) != placeholders(source):
                wrong.append(f"{msgid!r} -> {s!r}")
    assert not wrong, f"{lang}:\n" + "\n".join(wrong)


def test_p12_the_completeness_check_fails_on_a_missing_key(tmp_path: Path) -> None:
    """The check above reads the catalogs as the program does: a message dropped from a
    copy of a catalog is no longer found."""
    po = (LOCALE / "pt" / "games.po").read_text(encoding="utf-8")
    cut = po.replace(
        'msgid "{seat} retreats to location {marker}"', 'msgid "something else entirely"'
    )
    assert cut != po
    (tmp_path / "pt").mkdir()
    (tmp_path / "pt" / "games.po").write_text(cut, encoding="utf-8")
    assert "{seat} retreats to location {marker}" not in merged("pt", tmp_path)
    assert "{seat} retreats to location {marker}" in merged("pt")


def _calls_in_fstrings(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            for inner in ast.walk(node):
                if (
                    isinstance(inner, ast.Call)
                    and isinstance(inner.func, ast.Name)
                    and inner.func.id in ("_", "ngettext", "N_")
                    and inner.args
                    and isinstance(inner.args[0], ast.Constant)
                ):
                    lines.append(inner.lineno)
    return lines


def test_p12_no_marked_literal_hides_inside_an_f_string() -> None:
    """Babel's extractor does not look inside f-strings: a literal marked there would be
    shown untranslated without the completeness test noticing."""
    found = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in sorted(SRC.rglob("*.py"))
        for n in _calls_in_fstrings(ast.parse(p.read_text(encoding="utf-8")))
    ]
    assert not found, found


def test_p12_the_component_extractor_reads_the_keys_it_is_given() -> None:
    data = b'title = "A set"\nnote = ""\n[[card]]\ngreece = "One"\npersia = "Two"\n'
    from io import BytesIO

    got = [
        (line, msg)
        for line, _f, msg, _c in extract_toml(
            BytesIO(data), {}, [], {"keys": "title note card.greece card.persia unit.name"}
        )
    ]
    assert got == [(1, "A set"), (4, "One"), (5, "Two")]


# -- the texts in the language of the moment --------------------------------------------


def _thermopyles() -> tuple[Any, Any]:
    g = get("thermopyles")
    s = g.new(g.options({"players": 2}))
    for text in (
        "reveal 10/16^",
        "reveal 19/22",
        "draw 10",
        "draw 14",
        "draw 20",
        "draw 11",
        "draw 15",
        "draw 16",
    ):
        g.apply(s, g.parse(text))
    return g, s


EXPECTED = {
    "pt": {
        "retreat": "recuar",
        "log": "p1 recua para o local 2",
        "card": "O Portão Quente",
        "board": "Termópilas, 2 jogadores, turno 1",
        "hand": "[3 cartas]",
    },
    "fr": {
        "retreat": "reculer",
        "log": "p1 recule jusqu'au lieu 2",
        "card": "Les Portes Chaudes",
        "board": "Thermopyles, 2 joueurs, tour 1",
        "hand": "[3 cartes]",
    },
    "it": {
        "retreat": "ritirarsi",
        "log": "p1 si ritira alla posizione 2",
        "card": "Hot Gates",
        "board": "Termopili, 2 giocatori, turno 1",
        "hand": "[3 carte]",
    },
}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_p12_thermopyles_log_label_board_in_the_language(lang: str) -> None:
    g, s = _thermopyles()
    retreat = g.legal(s)[0]
    (event,) = [e for e in g.apply(g.copy(s), retreat) if e.kind == "retreat"]
    want = EXPECTED[lang]
    with i18n.language(lang):
        assert g.label(retreat) == want["retreat"]
        assert g.describe(event) == want["log"]
        board = g.render(g.view(s, 0))
        assert want["board"] in board and want["hand"] in board
        assert want["card"] in board
        assert want["card"] in g.rules_text()
    # outside the block, English as before
    assert g.label(retreat) == "retreat"
    assert g.describe(event) == "p1 retreats to location 2"
    board = g.render(g.view(s, 0))
    assert "Thermopyles, 2 players, turn 1" in board and "3 The Hot Gates" in board


CARD_NAMES = {
    "pt": ("Médicos da Babilônia", "Morte Súbita do Grande Rei"),
    "fr": ("Médecins de Babylone", "Mort soudaine du grand Roi"),
    "it": ("Medici di Babilonia", "Morte improvvisa del Gran Re"),
}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_p12_card_names_and_effects_in_the_language(lang: str) -> None:
    hg, ew = get("hot-gates"), get("earth-and-water")
    assert isinstance(hg, HotGates)
    physicians = next(c for c in hg.cards if c.title == "Physicians of Babylon")
    play = next(a for a in hg.notation.play if a.card == physicians.number)
    event = Event("effect", {"seat": "persia", "card": physicians.code, "text": physicians.text})
    with i18n.language(lang):
        assert CARD_NAMES[lang][0] in hg.label(play)
        assert physicians.text != "1 wounded unit of yours in this battle heals"
        assert physicians.text in hg.describe(event)
        assert CARD_NAMES[lang][1] in ew.rules_text()
    assert hg.label(play).endswith(
        "Physicians of Babylon (1 wounded unit of yours in this battle heals)"
    )
    assert "11: Melas Zomos / Sudden Death of the Great King" in ew.rules_text()


@pytest.mark.parametrize("lang", TRANSLATED)
def test_p12_hot_gates_and_earth_and_water_boards_in_the_language(lang: str) -> None:
    hg, ew = get("hot-gates"), get("earth-and-water")
    hs, es = hg.new(hg.options({})), ew.new(ew.options({}))
    english = hg.render(hg.view(hs, 0)), ew.render(ew.view(es, 0))
    with i18n.language(lang):
        boards = hg.render(hg.view(hs, 0)), ew.render(ew.view(es, 0))
    assert english == (hg.render(hg.view(hs, 0)), ew.render(ew.view(es, 0)))
    for board, eng in zip(boards, english, strict=True):
        assert board != eng
        assert board.count("\n") == eng.count("\n")
    assert "Spartan Camp:" in english[0] and "Bridge: not built" in english[1]
    assert "Spartan Camp:" not in boards[0] and "Bridge: not built" not in boards[1]


def test_p12_the_language_is_read_when_the_text_is_built() -> None:
    """Two clients in two languages, one after the other, in one process."""
    g, s = _thermopyles()
    with i18n.language("fr"):
        fr = g.render(g.view(s, 0))
    with i18n.language("it"):
        it = g.render(g.view(s, 0))
    assert "joueurs" in fr and "giocatori" in it and fr != it


# -- point 18: plurals, and no banner before every board -----------------------------


def test_p18_plurals_in_english() -> None:
    g, s = _thermopyles()
    board = g.render(g.view(s, 0))
    assert "[3 cards]" in board and "card(s)" not in board and "player(s)" not in board
    ew = get("earth-and-water")
    assert (
        ew.describe(
            Event("land-move", {"side": "persia", "armies": 1, "from": "Abydos", "to": "Ephesos"})
        )
        == "persia moves 1 army Abydos -> Ephesos"
    )
    assert (
        ew.describe(
            Event("land-move", {"side": "persia", "armies": 2, "from": "Abydos", "to": "Ephesos"})
        )
        == "persia moves 2 armies Abydos -> Ephesos"
    )
    assert (
        ew.describe(Event("roll", {"side": "greece", "dice": 1, "highest": 4, "counts": 4}))
        == "greece rolls 1 die: highest 4, counts 4"
    )
    assert ew.describe(Event("buy", {"side": "greece", "cards": 1})) == "greece buys 1 card"
    assert (
        ew.describe(Event("loss", {"side": "greece", "unit": "army", "city": "Thebai"}))
        == "greece loses an army in Thebai"
    )
    hg = get("hot-gates")
    assert (
        hg.describe(
            Event("attack", {"persian": 9, "persian_dice": 1, "spartan": 12, "spartan_dice": 3})
        )
        == "Attack: Persians 9 (1 die), Spartans 12 (3 dice)"
    )
    assert (
        hg.describe(Event("to-camp", {"units": 1}))
        == "1 unit finds no room and returns to the Spartan Camp"
    )


def test_p18_plurals_in_portuguese() -> None:
    ew = get("earth-and-water")
    with i18n.language("pt"):
        one = ew.describe(Event("buy", {"side": "greece", "cards": 1}))
        two = ew.describe(Event("buy", {"side": "greece", "cards": 2}))
    assert (one, two) == ("greece compra 1 carta", "greece compra 2 cartas")


@pytest.mark.parametrize("game_id", ["thermopyles", "hot-gates"])
def test_p18_the_board_prints_no_provisional_banner(game_id: str) -> None:
    """The command line says once, at the start, that the values are provisional."""
    g = get(game_id)
    assert g.provisional
    board = g.render(g.view(g.new(g.options({})), 0))
    assert "PROVISIONAL" not in board
    assert "PROVISIONAL" in g.rules_text()  # `thermopylae rules` still says it


# -- point 20: Sudden Death of the Great King, twice ---------------------------------------


def _sudden_deaths() -> list[str]:
    """Persia draws card 11 in two Preparations in a row: Darius, then Xerxes."""
    g = get("earth-and-water")
    assert isinstance(g, EarthAndWater)
    s = position(
        g,
        persia={"Abydos": (2, 0), "Ephesos": (2, 1)},
        greece={"Athenai": (1, 1), "Sparta": (1, 1), "Korinthos": (1, 0)},
    )
    data = g.state_to_json(s)
    data.update(phase="prep-buy", side=PERSIA, talents=12, fleets_built=0)
    s = g.state_from_json(data)
    events = act(g, s, "buy 2", "draw 11", "draw 9")
    events += act(g, s, "buy 1", "draw 11")
    return [g.describe(e) for e in events]


def test_p20_each_sudden_death_names_the_king_and_what_persia_loses() -> None:
    lines = _sudden_deaths()
    deaths = [line for line in lines if "Sudden Death of the Great King" in line]
    assert deaths == [
        "Persia drew card 11, Sudden Death of the Great King: Darius dies (the first of "
        "the 2 Great Kings). Persia discards its whole hand (2 cards); an army from the "
        "Persian reserve goes onto his portrait.",
        "Persia drew card 11, Sudden Death of the Great King: Xerxes is assassinated (the "
        "last Great King: card 11 is only a move card from now on). Persia discards its "
        "whole hand (1 card); an army from the Persian reserve goes onto his portrait.",
    ]


def test_p20_the_log_says_why_the_campaign_ended_and_that_it_may_strike_again() -> None:
    lines = _sudden_deaths()
    ends = [line for line in lines if line.startswith("Sudden Death ends")]
    assert ends == [
        "Sudden Death ends campaign 1 at once: no raising, no Greek preparation, no "
        "operations, supply or scoring; the draw pile and the discards, card 11 among "
        "them, are shuffled into a new draw pile of 16 cards (if Persia draws it again, "
        "the other king dies too).",
        "Sudden Death ends campaign 2 at once: no raising, no Greek preparation, no "
        "operations, supply or scoring; the draw pile and the discards, card 11 among "
        "them, are shuffled into a new draw pile of 16 cards.",
    ]
    # the next campaign follows each end
    assert lines[lines.index(ends[0]) + 1] == "campaign 2: persia prepares with 12 talents"


def test_p20_sudden_death_during_operations_says_supply_and_scoring_follow() -> None:
    g = get("earth-and-water")
    assert isinstance(g, EarthAndWater)
    s = position(
        g,
        persia={"Abydos": (2, 0), "Ephesos": (2, 1)},
        greece={"Athenai": (1, 1), "Sparta": (1, 1), "Korinthos": (1, 0)},
        hands=([16, 4], []),
    )
    events = act(g, s, "event 16", "done", "draw 11")
    lines = [g.describe(e) for e in events]
    assert (
        "Sudden Death ends the operations of campaign 1 at once; supply and scoring "
        "follow; the draw pile and the discards, card 11 among them, are shuffled into "
        "a new draw pile of 16 cards (if Persia draws it again, the other king dies "
        "too)."
    ) in lines


def test_p20_the_board_says_which_kings_are_dead_and_what_card_11_still_does() -> None:
    g = get("earth-and-water")
    assert isinstance(g, EarthAndWater)
    s = position(g, kings=1)
    assert (
        "Kings dead: 1 (Darius; card 11 drawn by Persia kills Xerxes and ends the phase)"
    ) in g.render(g.view(s, 0))
    s = position(g, kings=2)
    assert "Kings dead: 2 (Darius, Xerxes; card 11 is now only a move card)" in g.render(
        g.view(s, 0)
    )
    with i18n.language("fr"):
        assert "Rois morts : 1 (Darius ; la carte 11" in g.render(g.view(position(g, kings=1), 0))


@pytest.mark.parametrize("game_id", ["thermopyles", "hot-gates", "earth-and-water"])
def test_p12_a_random_game_reads_in_every_language(game_id: str) -> None:
    """Every line, button and board of a random game builds in each language (no missing
    placeholder, no English sentence left where the catalog has one)."""
    import random

    from thermopylae.engine.protocol import CHANCE

    g = get(game_id)
    s = g.new(g.options({}))
    rng = random.Random(7)
    events: list[Event] = []
    boards, labels = [], []
    for _step in range(600):
        who = g.to_act(s)
        if who is None:
            break
        if who == CHANCE:
            action = g.sample_chance(s, rng)
        else:
            legal = list(g.legal(s))
            labels += legal
            action = rng.choice(legal)
        events += g.apply(s, action)
        boards.append(g.view(s, 0))
    label = getattr(g, "label", g.format)
    worded = [e for e in events if e.kind not in ("move", "enter")]  # "persia: inf A1 -> A2"
    english = {g.describe(e) for e in worded} | {g.render(v) for v in boards[::25]}
    for lang in TRANSLATED:
        with i18n.language(lang):
            texts = (
                [g.describe(e) for e in worded]
                + [g.render(v) for v in boards[::25]]
                + [label(a) for a in labels[::10]]
                + [g.rules_text()]
            )
        assert not [t for t in texts if re.search(r"\{\w+\}", t)]
        same = [t for t in texts if t in english]
        assert len(same) < len(texts) / 20, (lang, same[:5])
