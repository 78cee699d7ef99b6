"""Hand-edited 300: The Board Game positions: refused with a `RecordError` that names the
problem, or played on by the rules; never another exception.

First one mutation at a time with the message it must give (a unit removed or unknown, a
card twice, a space overfilled or shared, Persians behind the line, a bad phase, actor,
window or pending step), then thousands of random mutations of positions met in random
games of 2, 3 and 4 players, each loaded and played on.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from thermopylae.engine.errors import RecordError, ThermopylaeError
from thermopylae.engine.protocol import CHANCE
from thermopylae.games.hot_gates import game as hot_gates_game
from thermopylae.games.hot_gates.actions import Done, Pass

GAME = hot_gates_game()
C = GAME.components
SIDE = {u.id: u.side for u in C.units}
LEADERS = [u.id for u in C.units if u.leader]
PHASES = ("deal", "window", "march", "casualty", "conquer", "pull-back", "return", "over")

Json = dict[str, Any]


def opening(players: int = 2) -> Json:
    """The position before the first card is dealt."""
    data: Json = json.loads(
        json.dumps(GAME.state_to_json(GAME.new(GAME.options({"players": players}))))
    )
    return data


def played_to(
    players: int, seed: int, phase: str, skip: int = 0, want: Callable[[Json], bool] | None = None
) -> Json:
    """The position of a random game when it first reaches `phase` (after `skip` such
    positions, and one that `want` accepts), as JSON; the next seeds are tried when the
    game of `seed` never gets there."""
    game = GAME
    for k in range(seed, seed + 200):
        rng = random.Random(k)
        s = game.new(game.options({"players": players}))
        left = skip
        while (seat := game.to_act(s)) is not None:
            legal = list(game.legal(s)) if seat != CHANCE else []
            # eager: rather march, play and advance than pass or stop
            active = [a for a in legal if not isinstance(a, Pass | Done)]
            a = (
                game.sample_chance(s, rng)
                if seat == CHANCE
                else rng.choice(active if active and rng.random() < 0.9 else legal)
            )
            game.apply(s, a, quiet=True)
            data: Json = json.loads(json.dumps(game.state_to_json(s)))
            if data["phase"] == phase and (want is None or want(data)):
                if left == 0:
                    return data
                left -= 1
    raise AssertionError(f"no {phase} phase in 200 games")


def refused(data: Json, *words: str) -> str:
    """The message of the RecordError that loading `data` raises; it names every word."""
    with pytest.raises(RecordError) as info:
        GAME.state_from_json(data)
    message = str(info.value)
    for w in words:
        assert w.lower() in message.lower(), message
    return message


def plays_on(data: Json, steps: int = 400, seed: int = 0) -> None:
    """The position loads and the game goes on from it (to its end, or `steps` steps)."""
    game = GAME
    s = game.state_from_json(data)
    rng = random.Random(seed)
    for _ in range(steps):
        seat = game.to_act(s)
        if seat is None:
            assert game.outcome(s) is not None
            return
        a = game.sample_chance(s, rng) if seat == CHANCE else rng.choice(list(game.legal(s)))
        game.apply(s, a, quiet=True)


def test_the_unedited_positions_load() -> None:
    """The baseline the mutations start from loads and plays on, in every phase."""
    for players in (2, 3, 4):
        plays_on(opening(players))
    for phase in PHASES[1:]:
        plays_on(played_to(2, 1, phase))


# -- one mutation at a time, one message each -----------------------------------------------


def test_a_unit_removed_from_the_board() -> None:
    data = opening()
    data["board"]["A4"].remove("leonidas")
    refused(data, "leonidas", "0", "1")
    data = opening(3)
    data["board"]["B1"].pop()
    refused(data, "immortal", "11", "12")


def test_a_unit_added_or_duplicated() -> None:
    data = opening()
    data["spartan_camp"].append("spartan")
    refused(data, "spartan", "21", "20")
    data = opening()
    data["persian_camp"].append("xerxes")
    refused(data, "xerxes", "2", "1")
    data = opening()
    data["eliminated"].append("dilios")
    refused(data, "dilios")


@pytest.mark.parametrize("word", ["hoplite", "Spartan", "beast+", "*", ""])
def test_unknown_unit_names(word: str) -> None:
    data = opening()
    data["spartan_camp"][0] = word
    refused(data, "spartan_camp", "unit")
    data = opening()
    data["boxes"][0][0] = word
    refused(data, "boxes", "unit")


def test_unknown_leader_and_space_names() -> None:
    data = opening()
    data["persian_camp"][0] = "darius"
    refused(data, "persian_camp", "darius")
    data = opening()
    data["board"]["C1"] = data["board"].pop("A1")
    refused(data, "12 spaces")
    data = opening()
    data["bonus_taken"] = ["Z9"]
    refused(data, "bonus_taken", "Z9")
    data = opening()
    data["persians_entered"] = ["A7"]
    refused(data, "persians_entered", "A7")


def test_a_card_twice_or_missing() -> None:
    def hands(d: Json) -> bool:
        return all(d["hands"])

    data = played_to(2, 3, "march", want=hands)
    card = data["hands"][0][0]
    data["discards"][0].append(card)
    refused(data, "52 Battle Cards")
    data = played_to(2, 3, "march", want=hands)
    data["decks"][1].pop()
    refused(data, "52 Battle Cards")
    data = played_to(3, 3, "march", want=hands)
    data["hands"][1].append(data["hands"][1][0])
    refused(data, "52 Battle Cards")
    data = played_to(4, 3, "march", want=hands)
    data["hands"][2].append(data["hands"][2][0])
    refused(data, "52 Battle Cards")


@pytest.mark.parametrize("code", ["s27", "p0", "x1", "S1", ""])
def test_unknown_card_codes(code: str) -> None:
    data = opening()
    data["decks"][0][0] = code
    refused(data, "decks", "card")


def test_an_overfilled_coastal_space() -> None:
    data = opening()
    data["board"]["A1"].append(data["board"]["B1"].pop())
    cap = C.rules.coastal_capacity
    refused(data, "A1", f"{cap + 1} places", f"holds {cap}")


def test_an_overfilled_hot_gates_space() -> None:
    data = opening()
    data["board"]["A4"].append(data["spartan_camp"].pop())
    cap = C.rules.gates_capacity
    refused(data, "A4", f"{cap + 1} places", f"holds {cap}")


def test_a_war_beast_fills_the_hot_gates() -> None:
    """A War Beast takes as many places as its size in the component file: with one
    more unit it overfills a Hot Gates space (3 places)."""
    beast = next(u for u in C.units if u.id == "beast")
    data = opening()
    data["spartan_camp"] += data["board"]["A4"]
    data["boxes"][0].remove("beast")
    data["board"]["A4"] = ["beast", data["board"]["A3"].pop()]
    load = beast.size + 1
    assert load > C.rules.gates_capacity
    refused(data, "A4", f"{load} places", f"holds {C.rules.gates_capacity}")
    data["board"]["A3"].append(data["board"]["A4"].pop())  # the beast alone fits
    plays_on(data)


def test_both_sides_in_one_space() -> None:
    data = opening()
    data["board"]["A3"][0] = "spartan"
    data["spartan_camp"].pop()
    data["boxes"][0].append("infantry")
    refused(data, "A3", "share")


def test_persians_behind_the_spartan_line() -> None:
    data = opening()
    data["spartan_camp"] += data["board"]["A5"]
    data["board"]["A5"] = [data["board"]["A3"].pop()]
    refused(data, "row A", "behind")
    # Persians beyond every Spartan of the row, with none in front of them
    data = opening()
    data["spartan_camp"] += data["board"]["B6"]
    data["board"]["B6"] = [data["board"]["B2"].pop()]
    refused(data, "row B", "behind")


def test_units_in_the_wrong_reserve() -> None:
    data = opening()
    data["spartan_camp"].append(data["boxes"][0].pop())
    refused(data, "spartan_camp", "spartan")
    data = opening()
    data["boxes"][0].append(data["persian_camp"].pop())
    refused(data, "boxes", "leader")
    data = opening()
    data["persian_camp"].append(data["boxes"][0].pop())
    refused(data, "persian_camp", "leader")
    data = opening()
    data["boxes"][0].append(data["spartan_camp"].pop())
    refused(data, "boxes")


@pytest.mark.parametrize("phase", ["lunch", "Deal", "", "7"])
def test_unknown_phase(phase: str) -> None:
    data = opening()
    data["phase"] = phase
    refused(data, "phase")


@pytest.mark.parametrize("phase", ["window", "march", "casualty", "conquer", "pull-back", "return"])
def test_a_phase_without_its_context(phase: str) -> None:
    """The opening (cards still to deal, no battle, no window) with its phase changed:
    the step in progress lacks what it needs."""
    data = opening()
    data["phase"] = phase
    data["actor"] = 0
    data["draws"] = []
    try:
        GAME.state_from_json(data)
    except RecordError as exc:
        assert "state" in str(exc)
        return
    plays_on(data)  # what the rules can carry on from, they play on


def test_a_deal_without_cards_or_dice() -> None:
    data = opening()
    data["draws"] = []
    refused(data, "deal", "draw")


@pytest.mark.parametrize("actor", [-1, 2, 3, 4, 9])
def test_a_bad_actor(actor: int) -> None:
    data = played_to(2, 4, "march")
    data["actor"] = actor
    refused(data, "actor")


def test_a_window_phase_without_a_window() -> None:
    data = played_to(2, 5, "window")
    data["window"] = None
    refused(data, "window")
    data = played_to(2, 5, "window")
    data["window"] = "lunch"
    refused(data, "window", "one of")


@pytest.mark.parametrize(
    "stack", [[["fly"]], [["round", 1]], [["window"]], [["battle", "A"]], [[]], [["march", 0, 0]]]
)
def test_a_bad_pending_step(stack: list[Any]) -> None:
    data = played_to(2, 6, "march")
    data["stack"] = stack
    refused(data, "stack")


def test_nothing_pending_when_a_step_ends() -> None:
    """A march with no continuation: the position cannot go on once the march ends; it
    is refused on loading or, at the latest, with a RecordError when the march ends."""
    data = played_to(2, 6, "march")
    data["stack"] = []
    try:
        s = GAME.state_from_json(data)
    except RecordError as exc:
        assert "step" in str(exc)
        return
    with pytest.raises(RecordError):
        for _ in range(200):
            legal = list(GAME.legal(s))
            GAME.apply(
                s,
                legal[-1] if GAME.to_act(s) != CHANCE else GAME.sample_chance(s, random.Random(1)),
            )


@pytest.mark.parametrize(
    ("key", "value", "word"),
    [
        ("glory", [0], "glory"),
        ("glory", [0, -3], "glory"),
        ("kills", [0, 0, 0], "kills"),
        ("extra", [-1, 0], "extra"),
        ("ephialtes", 99, "goat path"),
        ("ephialtes", -1, "ephialtes"),
        ("draws", [5], "draws"),
        ("hands", [[]], "hands"),
        ("players", 5, "players"),
        ("players", 1, "players"),
        ("round", 0, "round"),
        ("passes", -1, "passes"),
        ("breach", "yes", "breach"),
        ("board", [], "board"),
        ("colour", "red", "colour"),
    ],
)
def test_bad_values(key: str, value: Any, word: str) -> None:
    data = opening()
    data[key] = value
    refused(data, word)


def test_a_missing_key() -> None:
    for key in ("board", "hands", "stack", "glory", "phase"):
        data = opening()
        del data[key]
        refused(data, key)


def test_a_finished_game_without_winners() -> None:
    data = opening()
    data.update(phase="over", draws=[], stack=[], winners=[])
    refused(data, "winners")
    data["winners"] = [3]
    refused(data, "winners")


def refused_or_plays_on(data: Json, steps: int = 300) -> None:
    """Loading refuses with a RecordError, or the game plays on from the position with
    random legal actions and raises nothing but a clear ThermopylaeError."""
    try:
        s = GAME.state_from_json(data)
    except RecordError:
        return
    rng = random.Random(0)
    try:
        for _ in range(steps):
            seat = GAME.to_act(s)
            if seat is None:
                return
            a = GAME.sample_chance(s, rng) if seat == CHANCE else rng.choice(list(GAME.legal(s)))
            GAME.apply(s, a, quiet=True)
    except ThermopylaeError:
        return
    except Exception as exc:
        raise AssertionError(f"{type(exc).__name__}: {exc}") from exc


def _roll_pending(d: Json) -> bool:
    return len(d["rolls"]) >= 2


@pytest.mark.parametrize(
    ("name", "edit", "words"),
    [
        # 2 players, a march of round 1: a battle continuation pushed on the stack, or the
        # march of a seat the game does not have
        ("march + ['bt_rolled']", lambda d: d["stack"].append(["bt_rolled"]), ("stack", "order")),
        ("march + ['battle', 1]", lambda d: d["stack"].append(["battle", 1]), ("stack", "order")),
        (
            "march + ['march_resume', 3]",
            lambda d: d["stack"].append(["march_resume", 3]),
            ("stack", "seats are 0 to 1"),
        ),
    ],
)
def test_an_edited_stack_in_a_march_is_refused(
    name: str, edit: Callable[[Json], None], words: tuple[str, ...]
) -> None:
    """Once a crash steps after loading (IndexError in the card windows, battle.casualty_legal
    or march.march_legal); now refused on loading."""
    data = played_to(2, 1, "march")
    edit(data)
    refused(data, *words)


def test_an_edited_die_slot_is_refused() -> None:
    """Once an IndexError in battle.rolled when the die was rolled."""
    data = played_to(2, 1, "deal", want=_roll_pending)
    data["rolls"][-1] = 15  # the Spartans' 8th die
    refused(data, "rolls", "15")


@pytest.mark.parametrize(
    ("name", "edit", "words"),
    [
        (
            "a Persian card in the Spartan deck",
            lambda d: d["decks"][1].append(d["decks"][0].pop()),
            ("decks", "another seat"),
        ),
        (
            "an empty Reinforcement Box first in the queue",
            lambda d: d["boxes"].insert(0, []),
            ("boxes", "empty"),
        ),
        (
            "an Immortal among the eliminated (they go back to a box)",
            lambda d: d["eliminated"].append(d["board"]["A1"].pop()),
            ("eliminated", "box"),
        ),
    ],
)
def test_positions_against_the_rules_are_refused(
    name: str, edit: Callable[[Json], None], words: tuple[str, ...]
) -> None:
    """Unreachable positions that once loaded and played on against the rules (a Spartan
    playing a Persian card; an empty first box blocking every later reinforcement; an
    eliminated Immortal that never came back)."""
    data = opening()
    edit(data)
    refused(data, *words)


def test_a_card_of_the_other_letter_is_refused() -> None:
    """4 players: sparta-b holding a card of sparta-a's A deck."""
    data = played_to(4, 3, "march", want=lambda d: all(d["hands"]))
    data["hands"][3].append(data["hands"][2].pop())
    refused(data, "hands[4]", "another seat")


@pytest.mark.parametrize(
    ("phase", "players"),
    [("casualty", 2), ("casualty", 4), ("conquer", 3), ("pull-back", 2), ("return", 4)],
)
def test_dice_to_roll_outside_the_deal_are_refused_or_play_on(phase: str, players: int) -> None:
    data = played_to(players, 1, phase)
    data["rolls"] = [0]
    refused_or_plays_on(data)


@pytest.mark.parametrize(
    ("phase", "players", "step"),
    [
        ("casualty", 2, ["bt_attack"]),
        ("casualty", 4, ["bt_rolled"]),
        ("conquer", 3, ["bt_casualties"]),
        ("conquer", 2, ["bt_casualties"]),
    ],
)
def test_a_battle_step_pushed_during_a_battle_is_refused_or_plays_on(
    phase: str, players: int, step: list[str]
) -> None:
    data = played_to(players, 1, phase)
    data["stack"].append(step)
    refused_or_plays_on(data)


# -- random mutations of real positions ----------------------------------------------------


def positions() -> list[Json]:
    """About 400 positions from random games of 2, 3 and 4 players, every phase."""
    game = GAME
    out: list[Json] = []
    for seed in range(24):
        players = (2, 3, 4)[seed % 3]
        rng = random.Random(seed)
        s = game.new(game.options({"players": players}))
        while (seat := game.to_act(s)) is not None:
            a = game.sample_chance(s, rng) if seat == CHANCE else rng.choice(list(game.legal(s)))
            game.apply(s, a, quiet=True)
            if rng.random() < 0.05:
                out.append(json.loads(json.dumps(game.state_to_json(s))))
        out.append(json.loads(json.dumps(game.state_to_json(s))))
    return out


def _units(d: Json) -> list[list[str]]:
    """Every list of unit names in a position (the board's spaces, camps, boxes...)."""
    return [
        *d["board"].values(),
        d["spartan_camp"],
        d["persian_camp"],
        d["eliminated"],
        d["pulled_back"],
        *d["boxes"],
    ]


def _cards(d: Json) -> list[list[str]]:
    return [*d["hands"], *d["decks"], *d["discards"]]


def _unit_words() -> list[str]:
    ids = [u.id for u in C.units]
    return ids + [f"{i}*" for i in ids] + [f"{i}+" for i in ids] + ["hoplite", "", "+"]


UNIT_WORDS = _unit_words()
CARD_CODES = [c.code for c in C.cards]


def _move_unit(d: Json, rng: random.Random) -> None:
    groups = [g for g in _units(d) if g]
    src = rng.choice(groups)
    rng.choice(_units(d)).append(src.pop(rng.randrange(len(src))))


def _move_card(d: Json, rng: random.Random) -> None:
    groups = [g for g in _cards(d) if g]
    src = rng.choice(groups)
    rng.choice(_cards(d)).append(src.pop(rng.randrange(len(src))))


def _add_unit(d: Json, rng: random.Random) -> None:
    rng.choice(_units(d)).append(rng.choice(UNIT_WORDS))


def _remove_unit(d: Json, rng: random.Random) -> None:
    groups = [g for g in _units(d) if g]
    g = rng.choice(groups)
    g.pop(rng.randrange(len(g)))


def _rename_unit(d: Json, rng: random.Random) -> None:
    groups = [g for g in _units(d) if g]
    g = rng.choice(groups)
    g[rng.randrange(len(g))] = rng.choice(UNIT_WORDS)


def _card_twice(d: Json, rng: random.Random) -> None:
    rng.choice(_cards(d)).append(rng.choice(CARD_CODES))


def _swap_spaces(d: Json, rng: random.Random) -> None:
    a, b = rng.sample(sorted(d["board"]), 2)
    d["board"][a], d["board"][b] = d["board"][b], d["board"][a]


def _phase(d: Json, rng: random.Random) -> None:
    d["phase"] = rng.choice(PHASES)


def _actor(d: Json, rng: random.Random) -> None:
    d["actor"] = rng.randrange(-1, d["players"] + 1)


def _window(d: Json, rng: random.Random) -> None:
    d["window"] = rng.choice([None, "march", "battle", "roll", "casualty", "ephialtes"])


def _stack(d: Json, rng: random.Random) -> None:
    items = [
        ["round"],
        ["round_end"],
        ["ephialtes"],
        ["window", rng.randrange(5)],
        ["battle_end"],
        ["battle", rng.randrange(2)],
        ["march", rng.randrange(5)],
        ["march_resume", rng.randrange(4)],
        ["bt_attack"],
        ["bt_rolled"],
        ["bt_casualties"],
        ["window", 9],
        ["battle", 7],
    ]
    st = d["stack"]
    choice = rng.randrange(3)
    if choice == 0 and st:
        st.pop(rng.randrange(len(st)))
    elif choice == 1:
        st.insert(rng.randrange(len(st) + 1), rng.choice(items))
    else:
        rng.shuffle(st)


def _battle(d: Json, rng: random.Random) -> None:
    bt = d["battle"]
    if not bt or rng.random() < 0.2:
        d["battle"] = rng.choice([[], [0], [1], [0, 2, 3], [rng.randrange(2)] * 14])
        return
    i = rng.randrange(len(bt))
    if isinstance(bt[i], list):
        if bt[i] and rng.random() < 0.5:
            j = rng.randrange(len(bt[i]))
            bt[i][j] += rng.choice([-3, -1, 1, 5])
        else:
            bt[i] = bt[i][:-1] if bt[i] else [1, 2]
    else:
        bt[i] += rng.choice([-12, -2, -1, 1, 2, 11])


def _numbers(
    d: Json,
    rng: random.Random,
    keys: tuple[str, ...] = (
        "glory",
        "kills",
        "extra",
        "draws",
        "ephialtes",
        "ephialtes_moves",
        "passes",
        "round",
        "steps",
        "winners",
        "played",
    ),
) -> None:
    key = rng.choice(keys)
    v = d[key]
    if isinstance(v, int):
        d[key] = v + rng.choice([-2, -1, 1, 3, 40])
    elif v and isinstance(v[0], int):
        i = rng.randrange(len(v))
        v[i] += rng.choice([-1, 1, 5, 30])
    elif v and isinstance(v[0], list) and v[0]:
        entry = rng.choice(v)
        entry[rng.randrange(len(entry))] += rng.choice([-1, 1, 2, 60])
    else:
        d[key] = [rng.randrange(-1, 9)]


def _rolls(d: Json, rng: random.Random) -> None:
    _numbers(d, rng, ("rolls",))


def _flags(d: Json, rng: random.Random) -> None:
    key = rng.choice(["breach", "bonus_taken", "persians_entered"])
    if key == "breach":
        d["breach"] = not d["breach"]
    else:
        space = f"{rng.choice('AB')}{rng.randrange(1, 7)}"
        if space in d[key]:
            d[key].remove(space)
        else:
            d[key].append(space)


def _players(d: Json, rng: random.Random) -> None:
    d["players"] = rng.choice([2, 3, 4])


# What a pending step needs: the phase, the continuations, the battle, the dice to roll.
PENDING = ("phase", "stack", "battle", "rolls")


def _generic(d: Json, rng: random.Random, pending: bool = False) -> None:
    key = rng.choice([k for k in sorted(d) if pending or k not in PENDING])
    v = d[key]
    if isinstance(v, bool):
        d[key] = not v
    elif isinstance(v, int):
        d[key] = v + rng.choice([-2, -1, 1, 2, 7])
    elif isinstance(v, list) and v:
        i = rng.randrange(len(v))
        if isinstance(v[i], list) and v[i] and isinstance(v[i][-1], int):
            v[i][-1] += rng.choice([-1, 1, 3])
        elif isinstance(v[i], int):
            v[i] += rng.choice([-1, 1, 5])
        else:
            v.pop(i)
    elif isinstance(v, str):
        d[key] = "x"
    elif isinstance(v, dict):
        d[key] = {}
    elif v is None:
        d[key] = 0


def _generic_pending(d: Json, rng: random.Random) -> None:
    _generic(d, rng, pending=True)


Mutation = Callable[[Json, random.Random], None]
# Units, cards, seats, tracks and flags: what a player edits in a position.
TABLE_MUTATIONS: list[Mutation] = [
    _move_unit,
    _move_unit,
    _move_card,
    _add_unit,
    _remove_unit,
    _rename_unit,
    _card_twice,
    _swap_spaces,
    _actor,
    _window,
    _numbers,
    _numbers,
    _flags,
    _players,
    _generic,
    _generic,
]
# The step in progress: phase, pending continuations, battle context, dice to roll.
PENDING_MUTATIONS: list[Mutation] = [_phase, _stack, _battle, _rolls, _generic_pending]


def mutate(d: Json, rng: random.Random, mutations: list[Mutation]) -> Json:
    d = copy.deepcopy(d)
    for _ in range(1 if rng.random() < 0.8 else 2):
        rng.choice(mutations)(d, rng)
    return d


def crashes_after_loading(
    mutations: list[Mutation], count: int, seed: int, base: list[Json]
) -> tuple[int, list[str]]:
    """Mutate, load and play on: (positions loaded, the exceptions other than a clear
    ThermopylaeError met while playing on)."""
    g = GAME
    rng = random.Random(seed)
    loaded = 0
    crashes: list[str] = []
    for n in range(count):
        data = mutate(rng.choice(base), rng, mutations)
        try:
            s = g.state_from_json(data)
        except RecordError as exc:
            assert str(exc)  # a message naming what is wrong
            continue
        loaded += 1
        play = random.Random(n)
        try:
            for _ in range(150):
                seat = g.to_act(s)
                if seat is None:
                    break
                if seat == CHANCE:
                    dist = g.chance(s)
                    assert dist and abs(sum(p for _, p in dist) - 1) < 1e-9
                    a = g.sample_chance(s, play)
                else:
                    legal = list(g.legal(s))
                    assert legal, "a loaded position where the seat to act has no choice"
                    a = play.choice(legal)
                g.apply(s, a, quiet=True)
                g.view(s, None)
        except ThermopylaeError:
            pass  # refused clearly along the way
        except Exception as exc:  # report every kind at once
            crashes.append(f"mutation {n} of {data['phase']!r}: {type(exc).__name__}: {exc}")
    return loaded, crashes


@pytest.fixture(scope="module")
def base() -> list[Json]:
    return positions()


def test_mutated_positions_are_refused_or_play_on(base: list[Json]) -> None:
    """1,500 edits of units, cards, seats, tracks and flags in 400-odd positions. Loading
    either refuses with a RecordError (with a message), or gives a state that plays on:
    150 steps of random legal actions raise no IndexError, KeyError or the like."""
    phases = Counter(d["phase"] for d in base)
    assert len(phases) >= 6, phases  # positions of nearly every phase are mutated
    loaded, crashes = crashes_after_loading(TABLE_MUTATIONS, 1500, 7, base)
    assert loaded > 150  # many mutations are harmless and must still load
    assert not crashes, f"{len(crashes)} loaded positions crashed, e.g. {crashes[:5]}"


def test_mutated_pending_steps_are_refused_or_play_on(base: list[Json]) -> None:
    """The same for edits of the step in progress (phase, continuations, battle, dice)."""
    loaded, crashes = crashes_after_loading(PENDING_MUTATIONS, 1000, 8, base)
    assert loaded > 100
    assert not crashes, f"{len(crashes)} loaded positions crashed, e.g. {crashes[:5]}"


def test_mutated_positions_refused_only_with_record_error(base: list[Json]) -> None:
    """Whatever the mutation, loading raises nothing but a RecordError (a
    ThermopylaeError), never a KeyError, TypeError or IndexError."""
    g = GAME
    rng = random.Random(11)
    for _ in range(1500):
        data = mutate(rng.choice(base[::3]), rng, TABLE_MUTATIONS + PENDING_MUTATIONS)
        try:
            g.state_from_json(data)
        except ThermopylaeError as exc:
            assert isinstance(exc, RecordError), type(exc)
