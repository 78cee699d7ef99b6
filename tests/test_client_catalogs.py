"""The browser client's translation catalogs (server/web/i18n/<lang>.json): every language
has every key, every key the JavaScript asks for has an English text, the placeholders of
a text are the same in every language, and the texts live in the catalogs, not in code.

The games' names for their phases, cards and units are checked against the games
themselves, so a card or phase added to a game without a text fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from thermopylae.engine.registry import get
from thermopylae.games.hot_gates.rules import HotGates

WEB = Path(__file__).parent.parent / "src" / "thermopylae" / "server" / "web"
LANGS = ("en", "pt", "fr", "it")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# t("key"), ctx.t("key"), T("key") and T.or("key", ...), with a plain or a template key.
CALL = re.compile(r"""(?<![\w$.])(ctx\.t|t|T|T\.or|Tm|Tm\.or|tOr)\(\s*(["'`])((?:(?!\2).)*)\2""")
GAME = re.compile(r'^const GAME = "([a-z-]+)";', re.M)


def catalogs() -> dict[str, dict[str, str]]:
    out = {}
    for code in LANGS:
        data = json.loads((WEB / "i18n" / f"{code}.json").read_text(encoding="utf-8"))
        assert isinstance(data, dict), code
        out[code] = data
    return out


def used_keys() -> list[tuple[str, str]]:
    """(file, key) for every text key the client's modules ask for; a template key
    (`lobby.status.${status}`) is given up to its first `${`, ending in "*"."""
    found = []
    for path in sorted(WEB.rglob("*.js")):
        src = path.read_text(encoding="utf-8")
        game = GAME.search(src)
        for fn, quote, key in CALL.findall(src):
            if quote == "`" and "${" in key:
                key = key[: key.index("${")] + "*"
            if fn.startswith(("T", "Tm")):
                assert game, f"{path.name} calls {fn}() without a GAME prefix"
                key = f"{game[1]}.{key}"
            found.append((path.name, key))
    return found


def test_p12_every_language_has_every_key() -> None:
    texts = catalogs()
    english = set(texts["en"])
    assert len(english) > 300
    for code in LANGS[1:]:
        missing = sorted(english - set(texts[code]))
        extra = sorted(set(texts[code]) - english)
        assert not missing, f"{code}.json lacks {missing}"
        assert not extra, f"{code}.json has keys English lacks: {extra}"
    for code, data in texts.items():
        bad = [k for k, v in data.items() if not isinstance(v, str) or not v.strip()]
        assert not bad, f"{code}.json: empty or non-text values for {bad}"


def test_p12_every_key_the_client_uses_has_an_english_text() -> None:
    english = catalogs()["en"]
    uses = used_keys()
    assert len(uses) > 200, len(uses)
    missing = []
    for name, key in uses:
        if key.endswith("*"):
            if not any(k.startswith(key[:-1]) for k in english):
                missing.append(f"{name}: {key}")
        elif key not in english:
            missing.append(f"{name}: {key}")
    assert not missing, "keys with no English text: " + ", ".join(missing)


def test_p12_placeholders_are_the_same_in_every_language() -> None:
    texts = catalogs()
    wrong = []
    for key, text in texts["en"].items():
        want = sorted(set(PLACEHOLDER.findall(text)))
        for code in LANGS[1:]:
            got = sorted(set(PLACEHOLDER.findall(texts[code][key])))
            if got != want:
                wrong.append(f"{code} {key}: {got} != {want}")
    assert not wrong, "; ".join(wrong)


def test_p12_the_games_phases_cards_and_units_have_texts() -> None:
    from thermopylae.games.earth_and_water.state import PHASES as EW_PHASES
    from thermopylae.games.hot_gates.components import EFFECTS, TYPE_IDS
    from thermopylae.games.hot_gates.state import PHASES as HG_PHASES
    from thermopylae.games.hot_gates.state import WINDOWS
    from thermopylae.games.thermopyles.state import PHASES as TH_PHASES

    english = catalogs()["en"]
    want = [f"th.phase.{p}" for p in TH_PHASES]
    want += [f"earth-and-water.phase.{p}" for p in EW_PHASES]
    want += [f"hot-gates.phase.{p}" for p in HG_PHASES]
    want += [f"hot-gates.window.{w}" for w in WINDOWS]
    want += [f"hot-gates.effect.{e}" for e in EFFECTS]
    want += [f"hot-gates.unit.{u}" for u in TYPE_IDS] + [f"hot-gates.short.{u}" for u in TYPE_IDS]
    ew = get("earth-and-water")
    names = ew.view(ew.new({}), None)["card_names"]
    for half in ("greece", "persia"):
        for n in range(1, len(names[half])):
            want += [f"earth-and-water.card.{n}.{half}", f"earth-and-water.card.{n}.{half}.effect"]
    hg = get("hot-gates")
    assert isinstance(hg, HotGates)
    want += [f"hot-gates.card.{c.code}" for c in hg.cards]
    missing = [k for k in want if k not in english]
    assert not missing, f"no English text for {missing}"


def test_p12_the_english_card_names_are_the_games_own() -> None:
    """The catalog names a card by its number: its English must stay the game's name."""
    english = catalogs()["en"]
    ew = get("earth-and-water")
    names = ew.view(ew.new({}), None)["card_names"]
    for half in ("greece", "persia"):
        for n in range(1, len(names[half])):
            assert english[f"earth-and-water.card.{n}.{half}"] == names[half][n]
    hg = get("hot-gates")
    assert isinstance(hg, HotGates)
    for c in hg.cards:
        assert english[f"hot-gates.card.{c.code}"] == c.title


def test_p12_no_translation_is_written_in_the_javascript() -> None:
    """The texts of the other languages are data: none of them appears in a module."""
    texts = catalogs()
    sources = {p.name: p.read_text(encoding="utf-8") for p in WEB.rglob("*.js")}
    found = []
    for code in LANGS[1:]:
        for key, text in texts[code].items():
            if len(text) < 12 or text == texts["en"][key]:
                continue
            found += [
                f"{name}: {code} {key}"
                for name, src in sources.items()
                if json.dumps(text, ensure_ascii=False) in src
            ]
    assert not found, found


@pytest.mark.parametrize("code", LANGS)
def test_p12_catalogs_are_plain_json_objects_of_texts(code: str) -> None:
    raw = (WEB / "i18n" / f"{code}.json").read_text(encoding="utf-8")
    data = json.loads(raw)
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in data.items())
