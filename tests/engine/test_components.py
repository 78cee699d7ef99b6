"""The Thermopyles component set: the default (provisional) values meet every known fact,
a user's file can replace them, and a wrong file is refused with one message per problem."""

from __future__ import annotations

import copy
import json
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from thermopylae.engine import registry
from thermopylae.engine.errors import ComponentError
from thermopylae.games.thermopyles import components
from thermopylae.games.thermopyles import game as thermopyles_game

DEFAULT_TOML = (
    Path(__file__).parents[2] / "src" / "thermopylae" / "games" / "thermopyles" / "components.toml"
)


@pytest.fixture(scope="module")
def default_data() -> dict[str, Any]:
    return tomllib.loads(DEFAULT_TOML.read_text(encoding="utf-8"))


def write_json(tmp_path: Path, data: dict[str, Any], name: str = "set.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def problems_of(path: Path) -> list[str]:
    with pytest.raises(ComponentError) as info:
        components.load(path)
    assert info.value.source == str(path)
    assert str(len(info.value.problems)) in str(info.value)
    for p in info.value.problems:
        assert p in str(info.value)
    return info.value.problems


# -- the default set ------------------------------------------------------------------------


def test_default_spartan_cards() -> None:
    c = components.load()
    values = Counter(c.spartan)
    assert len(c.spartan) == 20
    assert all(10 <= v <= 20 for v in c.spartan)
    assert sum(c.spartan) == 300  # "300 Spartans gathered in 20 units"
    assert values[20] == 1
    assert values[10] >= 1 and values[11] >= 1
    assert list(c.spartan) == sorted(c.spartan)


def test_default_persian_cards() -> None:
    c = components.load()
    kinds = [c.persian_kinds[k] for k in c.persian]
    assert len(kinds) == 28
    assert all(k.annihilation >= k.combat for k in kinds)
    values = {v for k in kinds for v in (k.combat, k.annihilation)}
    assert {16, 19, 21} <= values
    highest = max(values)
    assert highest == 22
    assert sum(k.combat == 22 or k.annihilation == 22 for k in kinds) == 1
    assert any(k.bonus for k in kinds) and not all(k.bonus for k in kinds)
    assert len(set(c.persian_kinds)) == len(c.persian_kinds)


def test_default_table() -> None:
    c = components.load()
    assert c.support == 4
    assert [loc.number for loc in c.locations] == list(range(1, 8))
    assert c.die_locations == frozenset({3, 6})
    assert c.location_name(3) == "The Hot Gates"
    assert c.location_name(6) == "The Last Stand"
    assert c.location_name(2) == "Location 2"


def test_default_set_is_labelled_provisional() -> None:
    c = components.load()
    assert c.provisional
    assert c.sources["provisional"] > 0
    assert set(c.sources) <= {"rulebook", "public-source", "provisional"}
    assert "provisional" in c.title.lower()
    game = thermopyles_game()
    assert game.provisional
    assert "PROVISIONAL" in game.rules_text()
    # the board no longer repeats it (point 18): the command line says it once
    assert "provisional" not in game.render(game.view(game.new(game.options()), 0)).lower()
    assert c.origin == "default"


def test_default_digest_is_stable() -> None:
    a, b = components.load(), components.load()
    assert a.digest == b.digest == thermopyles_game().components_digest
    assert len(a.digest) == 16 and int(a.digest, 16) >= 0


# -- a user's file --------------------------------------------------------------------------


def test_custom_toml_loads_and_changes_the_digest(tmp_path: Path) -> None:
    text = DEFAULT_TOML.read_text(encoding="utf-8")
    old = "{ combat = 10, annihilation = 16 },"
    assert old in text
    path = tmp_path / "mybox.toml"
    path.write_text(
        text.replace(old, "{ combat = 10, annihilation = 18, bonus = true },"), encoding="utf-8"
    )
    c = components.load(path)
    assert c.digest != components.load().digest
    assert c.origin == str(path)
    texts = [c.persian_kinds[k].text for k in c.persian]
    assert texts.count("10/18^") == 1 and "10/16" not in texts
    game = thermopyles_game(path)
    assert game.components_digest == c.digest
    assert registry.get("thermopyles", path).components_digest == c.digest
    assert game.parse("reveal 10/18^") in [a for a, _ in game.chance(game.new(game.options()))]


def test_custom_json_with_the_same_values_has_the_same_digest(
    tmp_path: Path, default_data: dict[str, Any]
) -> None:
    data = copy.deepcopy(default_data)
    data["spartan"].reverse()  # order does not matter
    data["persian"].reverse()
    data["title"] = "My box"
    data["note"] = "entered by hand"
    c = components.load(write_json(tmp_path, data))
    assert c.digest == components.load().digest
    assert c.title == "My box"


def test_printed_values_are_not_provisional(tmp_path: Path, default_data: dict[str, Any]) -> None:
    data = copy.deepcopy(default_data)
    data["default_source"] = "rulebook"
    for card in data["spartan"] + data["persian"]:
        card["source"] = "rulebook"
    c = components.load(write_json(tmp_path, data))
    assert not c.provisional
    assert set(c.sources) == {"rulebook"}
    assert "PROVISIONAL" not in thermopyles_game(tmp_path / "set.json").rules_text()


@pytest.mark.parametrize("change", ["spartan", "persian", "support", "die", "name"])
def test_every_value_is_part_of_the_digest(
    tmp_path: Path, default_data: dict[str, Any], change: str
) -> None:
    data = copy.deepcopy(default_data)
    if change == "spartan":
        data["spartan"][0]["value"] = 12
    elif change == "persian":
        data["persian"][0]["bonus"] = not data["persian"][0].get("bonus", False)
    elif change == "support":
        data["support_cards"]["count"] = 3
    elif change == "die":
        data["map"][1]["die"] = True
    else:
        data["map"][0]["name"] = "Alpenoi"
    assert components.load(write_json(tmp_path, data)).digest != components.load().digest


# -- a wrong file ---------------------------------------------------------------------------


def test_nineteen_spartan_cards(tmp_path: Path, default_data: dict[str, Any]) -> None:
    data = copy.deepcopy(default_data)
    data["spartan"].pop()
    problems = problems_of(write_json(tmp_path, data))
    assert len(problems) == 1
    assert problems[0].startswith("spartan:") and "20" in problems[0] and "19" in problems[0]


def test_spartan_value_nine(tmp_path: Path, default_data: dict[str, Any]) -> None:
    data = copy.deepcopy(default_data)
    data["spartan"][4]["value"] = 9
    problems = problems_of(write_json(tmp_path, data))
    assert len(problems) == 1
    assert problems[0].startswith("spartan[5].value:") and "10" in problems[0]
    assert "9" in problems[0]


def test_annihilation_below_combat(tmp_path: Path, default_data: dict[str, Any]) -> None:
    data = copy.deepcopy(default_data)
    data["persian"][2] = {"combat": 15, "annihilation": 14}
    problems = problems_of(write_json(tmp_path, data))
    assert len(problems) == 1
    assert problems[0].startswith("persian[3]")
    assert "14" in problems[0] and "15" in problems[0] and "annihilation" in problems[0]


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ((), "colour:"),
        (("persian", 6), "persian[7].colour:"),
        (("spartan", 0), "spartan[1].colour:"),
        (("support_cards",), "support_cards.colour:"),
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
    ("where", "expected"),
    [
        ("default_source", "default_source:"),
        ("spartan", "spartan[3].source:"),
        ("persian", "persian[3].source:"),
    ],
)
def test_bad_source_tag(
    tmp_path: Path, default_data: dict[str, Any], where: str, expected: str
) -> None:
    data = copy.deepcopy(default_data)
    if where == "default_source":
        data["default_source"] = "wikipedia"
    else:
        data[where][2]["source"] = "wikipedia"
    problems = problems_of(write_json(tmp_path, data))
    assert len(problems) == 1
    assert problems[0].startswith(expected)
    assert "wikipedia" in problems[0] and "rulebook" in problems[0]


@pytest.mark.parametrize(
    "text",
    [
        "title = \n",
        'title = "x"\n[support_cards\ncount = 4\n',
        'title = "x"\ntitle = "y"\n',
    ],
)
def test_malformed_toml(tmp_path: Path, text: str) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    problems = problems_of(path)
    assert len(problems) == 1
    assert problems[0].startswith("not valid TOML")
    assert "line" in problems[0]


def test_malformed_json(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"title": "x",', encoding="utf-8")
    problems = problems_of(path)
    assert len(problems) == 1 and problems[0].startswith("not valid JSON")


def test_not_a_table_and_not_a_file(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    path.write_text("[1, 2, 3]", encoding="utf-8")
    assert len(problems_of(path)) == 1
    assert problems_of(tmp_path / "missing.toml")[0].startswith("cannot read")


def test_values_of_the_wrong_type(tmp_path: Path, default_data: dict[str, Any]) -> None:
    data = copy.deepcopy(default_data)
    data["spartan"][0]["value"] = "12"
    data["persian"][0]["bonus"] = "yes"
    data["support_cards"]["count"] = 5
    problems = problems_of(write_json(tmp_path, data))
    assert len(problems) == 3
    assert sorted(p.split(":")[0] for p in problems) == [
        "persian[1].bonus",
        "spartan[1].value",
        "support_cards.count",
    ]


def test_map_out_of_order(tmp_path: Path, default_data: dict[str, Any]) -> None:
    data = copy.deepcopy(default_data)
    data["map"][0], data["map"][1] = data["map"][1], data["map"][0]
    problems = problems_of(write_json(tmp_path, data))
    assert len(problems) == 1 and "1 to 7" in problems[0]


def test_every_problem_of_a_file_is_listed_once(
    tmp_path: Path, default_data: dict[str, Any]
) -> None:
    """One file with five distinct problems gets exactly five messages, one each."""
    data = copy.deepcopy(default_data)
    data["spartan"].pop()  # 19 Spartan cards
    data["spartan"][1]["value"] = 9  # a value below 10
    data["persian"][0] = {"combat": 15, "annihilation": 14}  # annihilation < combat
    data["colour"] = "red"  # an unknown key
    data["persian"][5]["source"] = "wikipedia"  # a bad source tag
    problems = problems_of(write_json(tmp_path, data))
    assert sorted(p.split(":")[0] for p in problems) == sorted(
        ["spartan", "spartan[2].value", "persian[1]", "colour", "persian[6].source"]
    ), problems


def test_toml_with_several_problems(tmp_path: Path) -> None:
    text = DEFAULT_TOML.read_text(encoding="utf-8")
    text = text.replace("{ value = 10 }, { value = 10 }", "{ value = 9 }, { value = 10 }", 1)
    text = text.replace(
        "{ combat = 12, annihilation = 18 },", "{ combat = 12, annihilation = 11 },", 1
    )
    text = text.replace(
        'default_source = "provisional"', 'default_source = "provisional"\nedition = 2'
    )
    path = tmp_path / "three.toml"
    path.write_text(text, encoding="utf-8")
    problems = problems_of(path)
    assert len(problems) == 3
    assert sorted(p.split(":")[0] for p in problems) == [
        "edition",
        "persian[5]",
        "spartan[1].value",
    ]
    with pytest.raises(ComponentError):
        thermopyles_game(path)
