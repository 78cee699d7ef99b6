"""The 300: The Board Game component set: the default (provisional) values meet every fact
the rulebook prints, a user's file can replace them, and a wrong file is refused with one
clear message per problem."""

from __future__ import annotations

import copy
import json
import re
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from thermopylae.engine import registry
from thermopylae.engine.errors import ComponentError
from thermopylae.games.hot_gates import components
from thermopylae.games.hot_gates import game as hot_gates_game

DEFAULT_TOML = (
    Path(__file__).parents[2] / "src" / "thermopylae" / "games" / "hot_gates" / "components.toml"
)
# Printed in the rulebook (seed 000): the units and their counts, in the file's order.
RULEBOOK_UNITS = [
    ("spartan", "spartan", 20),
    ("leonidas", "spartan", 1),
    ("stelios", "spartan", 1),
    ("astinos", "spartan", 1),
    ("dilios", "spartan", 1),
    ("captain", "spartan", 1),
    ("immortal", "persian", 12),
    ("cavalry", "persian", 12),
    ("infantry", "persian", 12),
    ("beast", "persian", 2),
    ("xerxes", "persian", 1),
    ("uber", "persian", 1),
    ("general", "persian", 2),
]


@pytest.fixture(scope="module")
def default_data() -> dict[str, Any]:
    return tomllib.loads(DEFAULT_TOML.read_text(encoding="utf-8"))


def write_json(tmp_path: Path, data: dict[str, Any], name: str = "set.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def problems_of(path: Path) -> list[str]:
    """The problems a broken file is refused with; each is in the error's text, and the
    game itself cannot be built from the file either."""
    with pytest.raises(ComponentError) as info:
        components.load(path)
    assert info.value.source == str(path)
    assert f"{len(info.value.problems)} problem(s)" in str(info.value)
    for p in info.value.problems:
        assert p in str(info.value)
    assert len(set(info.value.problems)) == len(info.value.problems)  # each once
    with pytest.raises(ComponentError):
        hot_gates_game(path)
    problems: list[str] = info.value.problems
    return problems


def _first(cards: list[dict[str, Any]], **match: Any) -> int:
    return next(i for i, c in enumerate(cards) if all(c.get(k) == v for k, v in match.items()))


# -- the default set ------------------------------------------------------------------------


def test_default_units_are_the_rulebooks() -> None:
    c = components.load()
    assert [(u.id, u.side, u.count) for u in c.units] == RULEBOOK_UNITS
    assert sum(u.count for u in c.units if u.side == "spartan") == 25
    assert sum(u.count for u in c.units if u.side == "persian") == 42
    assert {u.id for u in c.units if u.hero} == {
        "leonidas",
        "stelios",
        "astinos",
        "dilios",
        "captain",
    }
    assert {u.id for u in c.units if u.leader} == {"xerxes", "uber", "general"}
    sizes = {u.id: u.size for u in c.units}
    assert sizes.pop("beast") == 3  # "They take up the space of 3 Persian Units"
    assert set(sizes.values()) == {1}
    # "Infantry and Cavalry say "Dead" on their reverse side"
    assert {u.id for u in c.units if u.dead_back} == {"infantry", "cavalry"}


def test_default_rules_are_the_rulebooks() -> None:
    r = components.load().rules
    assert (r.coastal_capacity, r.gates_capacity) == (6, 3)
    assert r.glory_bonus == [12, 6, 3]  # spaces 1, 2, 3
    assert r.gates_penalty == 3
    assert (r.win_glory_2p, r.win_glory_team) == (100, 50)
    assert (r.dilios_2p, r.dilios_team) == (10, 5)
    assert r.start_hand == 3
    assert r.source == "rulebook"


def test_default_cards() -> None:
    c = components.load()
    assert len(c.cards) == 52
    for side, key in (("spartan", "s"), ("persian", "p")):
        mine = [k for k in c.cards if k.side == side]
        assert [k.code for k in mine] == [f"{key}{i}" for i in range(1, 27)]
        assert Counter(k.letter for k in mine) == {"A": 13, "B": 13}
    assert [k.number for k in c.cards] == list(range(52))
    assert all(k.title and k.text for k in c.cards)
    # Ephialtes: only the Spartans delay him, only the Persians hasten him
    assert {k.side for k in c.cards if k.effect == "delay"} <= {"spartan"}
    assert {k.side for k in c.cards if k.effect == "hasten"} <= {"persian"}
    for k in c.cards:  # each card in the window its effect belongs to
        assert k.window in components.EFFECTS[k.effect]


def test_default_chart_and_dice_are_well_formed() -> None:
    c = components.load()
    froms = [f for f, _ in c.chart]
    dice = [d for _, d in c.chart]
    assert froms == sorted(set(froms)) and dice == sorted(dice)
    assert max(dice) <= 6  # "the 6 Battle Dice"
    assert min(c.faces) >= 0 and len(c.faces) == 6
    assert c.dice_for(froms[0] - 1) == 0  # below the chart: no die
    for f, d in c.chart:
        assert c.dice_for(f) == d
    assert c.goat_path >= 1


def test_default_set_is_labelled_provisional() -> None:
    c = components.load()
    assert c.provisional
    assert c.sources["provisional"] > 0
    assert c.sources["rulebook"] > 0
    assert set(c.sources) <= {"rulebook", "public-source", "provisional"}
    assert c.origin == "default"
    assert "provisional" in c.note.lower()
    game = hot_gates_game()
    assert game.provisional
    text = game.rules_text()
    assert "PROVISIONAL" in text
    for card in c.cards:  # the rules page lists every card
        assert f"{card.code:>4} {card.letter} [{card.window}] {card.title}" in text
    v = game.view(game.new(game.options({"players": 2})), 0)
    assert v["provisional"] is True
    assert "PROVISIONAL" not in game.render(v)  # the command line says it once, not the board


def test_default_digest_is_stable() -> None:
    a, b = components.load(), components.load()
    assert a.digest == b.digest == hot_gates_game().components_digest
    assert len(a.digest) == 16 and int(a.digest, 16) >= 0


# -- a user's file --------------------------------------------------------------------------


def test_custom_toml_loads_through_game_path(tmp_path: Path) -> None:
    """A copy of the default file with the Goat Path one space longer and a card renamed:
    `game(path)` plays with it."""
    text = DEFAULT_TOML.read_text(encoding="utf-8")
    default = components.load()
    m = re.search(r"\[goat_path\]\nlength = (\d+)", text)
    assert m is not None and int(m[1]) == default.goat_path
    text = text.replace(m[0], f"[goat_path]\nlength = {default.goat_path + 1}")
    title = default.cards[0].title
    text = text.replace(f'title = "{title}"', 'title = "Spartans! What is your profession?"', 1)
    path = tmp_path / "mybox.toml"
    path.write_text(text, encoding="utf-8")
    c = components.load(path)
    assert c.goat_path == default.goat_path + 1
    assert c.cards[0].title == "Spartans! What is your profession?"
    assert c.digest != default.digest
    assert c.origin == str(path)
    game = hot_gates_game(path)
    assert game.components_digest == c.digest
    assert registry.get("hot-gates", path).components_digest == c.digest
    assert game.components.goat_path == default.goat_path + 1
    s = game.new(game.options({"players": 2}))
    assert game.view(s, None)["goat_path"]["length"] == default.goat_path + 1
    assert "Spartans! What is your profession?" in game.rules_text()


def test_custom_json_with_the_same_values_has_the_same_digest(
    tmp_path: Path, default_data: dict[str, Any]
) -> None:
    data = copy.deepcopy(default_data)
    data["title"] = "My box"
    data["note"] = "entered by hand"
    c = components.load(write_json(tmp_path, data))
    assert c.digest == components.load().digest
    assert c.title == "My box"


def test_printed_values_are_not_provisional(tmp_path: Path, default_data: dict[str, Any]) -> None:
    data = copy.deepcopy(default_data)
    data["default_source"] = "rulebook"
    for key in ("rules", "goat_path", "chart", "dice"):
        data[key]["source"] = "rulebook"
    for item in data["unit"] + data["spartan_card"] + data["persian_card"]:
        item["source"] = "rulebook"
    path = write_json(tmp_path, data)
    c = components.load(path)
    assert not c.provisional
    assert set(c.sources) == {"rulebook"}
    game = hot_gates_game(path)
    assert "PROVISIONAL" not in game.rules_text()
    assert "PROVISIONAL" not in game.render(game.view(game.new(game.options({})), None))


@pytest.mark.parametrize("change", ["unit", "card", "chart", "dice", "rules"])
def test_every_value_is_part_of_the_digest(
    tmp_path: Path, default_data: dict[str, Any], change: str
) -> None:
    data = copy.deepcopy(default_data)
    if change == "unit":
        data["unit"][6]["attack"] += 1
    elif change == "card":
        data["persian_card"][0]["amount"] = data["persian_card"][0].get("amount", 1) % 3 + 1
    elif change == "chart":
        data["chart"]["steps"][-1]["from"] += 1
    elif change == "dice":
        data["dice"]["faces"][-1] += 1
    else:
        data["rules"]["start_hand"] += 1
    assert components.load(write_json(tmp_path, data)).digest != components.load().digest


# -- a wrong file ---------------------------------------------------------------------------


def test_wrong_unit_count(tmp_path: Path, default_data: dict[str, Any]) -> None:
    data = copy.deepcopy(default_data)
    data["unit"][0]["count"] = 19
    data["unit"][7]["count"] = 13
    problems = problems_of(write_json(tmp_path, data))
    assert sorted(problems) == [
        "unit cavalry: the game has 12, not 13",
        "unit spartan: the game has 20, not 19",
    ]


def test_unit_missing(tmp_path: Path, default_data: dict[str, Any]) -> None:
    data = copy.deepcopy(default_data)
    del data["unit"][4]  # Dilios
    problems = problems_of(write_json(tmp_path, data))
    assert len(problems) == 1
    assert problems[0].startswith("unit:") and "13 unit types" in problems[0]
    assert "dilios" in problems[0]


def test_unit_on_the_wrong_side(tmp_path: Path, default_data: dict[str, Any]) -> None:
    data = copy.deepcopy(default_data)
    data["unit"][1]["side"] = "persian"
    problems = problems_of(write_json(tmp_path, data))
    assert problems == ["unit leonidas: it is a spartan unit, not persian"]


def test_twenty_five_spartan_cards(tmp_path: Path, default_data: dict[str, Any]) -> None:
    data = copy.deepcopy(default_data)
    data["spartan_card"].pop()
    problems = problems_of(write_json(tmp_path, data))
    assert len(problems) == 1
    assert problems[0].startswith("spartan_card:")
    assert "26" in problems[0] and "25" in problems[0]


def test_twenty_seven_persian_cards(tmp_path: Path, default_data: dict[str, Any]) -> None:
    data = copy.deepcopy(default_data)
    data["persian_card"].append(copy.deepcopy(data["persian_card"][0]))
    problems = problems_of(write_json(tmp_path, data))
    assert len(problems) == 1
    assert problems[0].startswith("persian_card:") and "27" in problems[0]


def test_fourteen_a_letters(tmp_path: Path, default_data: dict[str, Any]) -> None:
    data = copy.deepcopy(default_data)
    data["persian_card"][_first(data["persian_card"], letter="B")]["letter"] = "A"
    problems = problems_of(write_json(tmp_path, data))
    assert len(problems) == 1
    assert problems[0].startswith("persian_card:")
    assert "13" in problems[0] and "14 A" in problems[0]


def test_heal_card_in_the_battle_window(tmp_path: Path, default_data: dict[str, Any]) -> None:
    data = copy.deepcopy(default_data)
    i = _first(data["spartan_card"], window="battle")
    data["spartan_card"][i].update(effect="heal", amount=1)
    problems = problems_of(write_json(tmp_path, data))
    assert len(problems) == 1
    assert problems[0].startswith(f"spartan_card[{i + 1}]")
    assert "heal" in problems[0] and "casualty" in problems[0] and "battle" in problems[0]


def test_persian_delay_card(tmp_path: Path, default_data: dict[str, Any]) -> None:
    data = copy.deepcopy(default_data)
    i = _first(data["persian_card"], effect="hasten")
    data["persian_card"][i]["effect"] = "delay"
    problems = problems_of(write_json(tmp_path, data))
    assert problems == [f"persian_card[{i + 1}]: only a spartan card can delay Ephialtes"]


def test_spartan_hasten_card(tmp_path: Path, default_data: dict[str, Any]) -> None:
    data = copy.deepcopy(default_data)
    data["spartan_card"][0].update(window="ephialtes", effect="hasten", amount=1)
    problems = problems_of(write_json(tmp_path, data))
    assert problems == ["spartan_card[1]: only a persian card can hasten Ephialtes"]


def test_chart_not_rising(tmp_path: Path, default_data: dict[str, Any]) -> None:
    data = copy.deepcopy(default_data)
    steps = data["chart"]["steps"]
    steps[1]["dice"], steps[2]["dice"] = steps[2]["dice"], steps[1]["dice"]
    problems = problems_of(write_json(tmp_path, data))
    assert len(problems) == 1
    assert problems[0].startswith("chart") and "rise" in problems[0]
    data = copy.deepcopy(default_data)
    data["chart"]["steps"][1]["from"] = data["chart"]["steps"][0]["from"]
    problems = problems_of(write_json(tmp_path, data, "same.json"))
    assert len(problems) == 1 and "rise" in problems[0]


def test_negative_die_face(tmp_path: Path, default_data: dict[str, Any]) -> None:
    data = copy.deepcopy(default_data)
    data["dice"]["faces"][0] = -1
    problems = problems_of(write_json(tmp_path, data))
    assert len(problems) == 1
    assert problems[0].startswith("dice") and "negative" in problems[0]
    assert "-1" in problems[0]


def test_unknown_effect_and_window(tmp_path: Path, default_data: dict[str, Any]) -> None:
    data = copy.deepcopy(default_data)
    data["spartan_card"][2]["effect"] = "teleport"
    data["persian_card"][3]["window"] = "lunch"
    problems = problems_of(write_json(tmp_path, data))
    assert len(problems) == 2
    assert any(p.startswith("spartan_card[3].effect") and "teleport" in p for p in problems)
    assert any(p.startswith("persian_card[4].window") and "lunch" in p for p in problems)


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ((), "colour:"),
        (("unit", 9), "unit[10].colour:"),
        (("spartan_card", 0), "spartan_card[1].colour:"),
        (("rules",), "rules.colour:"),
    ],
)
def test_unknown_key(
    tmp_path: Path, default_data: dict[str, Any], where: tuple[Any, ...], expected: str
) -> None:
    data = copy.deepcopy(default_data)
    target: Any = data
    for step in where:
        target = target[step]
    target["colour"] = "red"
    problems = problems_of(write_json(tmp_path, data))
    assert len(problems) == 1
    assert problems[0].startswith(expected)


@pytest.mark.parametrize(
    "text",
    [
        "title = \n",
        'title = "x"\n[rules\ncoastal_capacity = 6\n',
        'title = "x"\ntitle = "y"\n',
    ],
)
def test_bad_toml(tmp_path: Path, text: str) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    problems = problems_of(path)
    assert len(problems) == 1
    assert problems[0].startswith("not valid TOML")
    assert "line" in problems[0]


def test_missing_file(tmp_path: Path) -> None:
    problems = problems_of(tmp_path / "missing.toml")
    assert len(problems) == 1 and problems[0].startswith("cannot read")


def test_every_problem_of_a_file_is_listed_once(tmp_path: Path) -> None:
    """One TOML file with six distinct problems gets exactly six messages, one each."""
    data = tomllib.loads(DEFAULT_TOML.read_text(encoding="utf-8"))
    data["unit"][8]["count"] = 11  # 11 Infantry
    data["spartan_card"].pop()  # 25 Spartan cards
    data["persian_card"][_first(data["persian_card"], letter="B")]["letter"] = "A"  # 14 A
    i = _first(data["persian_card"], window="battle")
    data["persian_card"][i]["effect"] = "heal"  # a heal card at Battle Start
    data["chart"]["steps"].reverse()  # a chart falling
    data["dice"]["faces"][-1] = -2  # a negative face
    problems = problems_of(write_json(tmp_path, data))
    assert len(problems) == 6, problems
    assert sorted(p.split(":")[0] for p in problems) == sorted(
        ["unit infantry", "spartan_card", "persian_card", f"persian_card[{i + 1}]", "chart", "dice"]
    ), problems
    text = " ".join(problems)
    for word in ("12, not 11", "26 of these, not 25", "14 A", "a heal card", "rise", "negative"):
        assert word in text, word
