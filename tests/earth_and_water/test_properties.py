"""Property tests for 300: Earth & Water: invariants that must hold after every step of
many random games.

Each test plays whole games from a seed drawn by Hypothesis, with uniformly random
agents or "eager" ones (which rarely pass, decline or stop, so that more events,
reactions and battles are reached), and checks the game through the public protocol
after every step: piece and card accounting, the score and campaign tracks, the
legal-action contract, chance distributions, serialisation, notation, and that views and
events never leak hidden information. The cheap checks run on hundreds of games; the
costly ones (every action of the table tried at a node) on fewer games or sampled nodes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from thermopylae.ai.base import make_agent
from thermopylae.engine.errors import IllegalAction, NotationError, RecordError
from thermopylae.engine.protocol import CHANCE, Event, visible_events
from thermopylae.games.earth_and_water import game as ew_game
from thermopylae.games.earth_and_water.actions import CHANCE_ACTIONS, Draw, Pick
from thermopylae.games.earth_and_water.serial import check

GAME = ew_game()
PERSIA, GREECE = 0, 1
SIDES = ("persia", "greece")
PIECES = {PERSIA: (24, 6), GREECE: (9, 5)}  # armies, fleets (RB 2.2)
CARDS = list(range(1, 17))
SCORE_LIMIT = 6
CAMPAIGNS = 5
PERSIA_KEEPS, GREECE_KEEPS = 1, 4
# Longest of thousands of random games: about 350 steps. Oracle of Delphi and
# Pacification keep a hand's size, so a game is bounded only in probability; 3000 steps
# is far beyond any game seen.
MAX_STEPS = 3000
PASSIVE = frozenset({"pass", "decline", "done", "skip", "spare bridge", "keep none", "buy 0"})

FIRST_CHOICE = {
    "prep-buy": "buy 0",
    "prep-build": "done",
    "operations": "pass",
    "reaction": "decline",
    "battle": "continue",
}

seeds = st.integers(min_value=0, max_value=2**32 - 1)
agents = st.sampled_from(["random", "random", "eager", "eager", "heuristic"])
cheap_fleets = st.booleans()
SETTINGS: dict[str, Any] = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow],
}

Step = Callable[[Any, int, Any, list[Event], Any], None]
TABLE = [GAME.decode(i) for i in range(GAME.num_actions)]


class Eager:
    """Random, but prefers doing something (an event, a move, a reaction, a purchase, a
    fight) to passing, declining or stopping: it reaches rarer parts of the rules."""

    name = "eager"

    def act(self, game: Any, state: Any, rng: random.Random) -> Any:
        legal = list(game.legal(state))
        active = [a for a in legal if game.format(a) not in PASSIVE]
        if active and rng.random() < 0.85:
            return active[int(rng.random() * len(active))]
        return legal[int(rng.random() * len(legal))]


def agent(name: str) -> Any:
    return Eager() if name == "eager" else make_agent(name, GAME)


def play(
    seed: int,
    names: tuple[str, str] = ("random", "random"),
    options: dict[str, Any] | None = None,
    on_step: Step | None = None,
) -> Any:
    """One whole game; `on_step(before, seat, action, events, after)` after every step,
    `before` being a copy of the state the action was chosen in."""
    game = GAME
    rng = random.Random(seed)
    players = [agent(n) for n in names]
    s = game.new(game.options(options or {}))
    steps = 0
    while (seat := game.to_act(s)) is not None:
        before = game.copy(s) if on_step is not None else None
        if seat == CHANCE:
            action = game.sample_chance(s, rng)
        else:
            action = players[seat].act(game, s, rng)
            assert action in game.legal(s), f"{names[seat]} chose an illegal {action!r}"
        events = game.apply(s, action)
        steps += 1
        if on_step is not None:
            on_step(before, seat, action, events, s)
        assert steps <= MAX_STEPS, f"game still running after {steps} steps"
    outcome = game.outcome(s)
    assert outcome is not None
    return s


def game_args(
    seed: int, a: str, b: str, cheap: bool
) -> tuple[int, tuple[str, str], dict[str, Any]]:
    return seed, (a, b), {"cheap_fleets": cheap}


# -- accounting, read from the position JSON ---------------------------------------------


def check_pieces(j: dict[str, Any]) -> None:
    """No side ever has more pieces than the box holds; none is ever negative."""
    for side in (PERSIA, GREECE):
        armies, fleets = PIECES[side]
        on_map_a, on_map_f = j["armies"][side], j["fleets"][side]
        assert min(on_map_a) >= 0 and min(on_map_f) >= 0, j
        assert j["reserve_armies"][side] >= 0 and j["reserve_fleets"][side] >= 0, j
        assert sum(on_map_a) <= armies and sum(on_map_f) <= fleets, j
        portrait_a = j["portraits"][side]
        portrait_f = j["portraits"][2] if side == PERSIA else 0
        assert sum(on_map_a) + j["reserve_armies"][side] + portrait_a <= armies, j
        assert sum(on_map_f) + j["reserve_fleets"][side] + portrait_f <= fleets, j
    # portraits: the two kings, the three Greek leaders, Artemisia's one fleet; a dead
    # king's army is on his portrait, or Persia is choosing which army goes there
    assert j["kings"] <= 2
    assert j["portraits"][0] == j["kings"] or (
        j["phase"] == "choose" and j["portraits"][0] == j["kings"] - 1
    ), j
    assert 0 <= j["portraits"][1] <= 3 and 0 <= j["portraits"][2] <= 1, j


def check_cards(j: dict[str, Any]) -> None:
    """The 16 cards are each in exactly one place: a hand, the draw pile or the discards."""
    assert sorted(j["deck"] + j["discard"] + j["hands"][0] + j["hands"][1]) == CARDS, j


def check_events(events: list[Event], action: Any) -> None:
    for e in events:
        json.dumps(e.to_json())
        assert e.to in (None, PERSIA, GREECE)
        assert GAME.describe(e)
        if e.to is not None:  # a private event names its owner
            assert e.data.get("side") == SIDES[e.to], e
    for seat in (None, PERSIA, GREECE):
        visible = visible_events(events, seat)
        assert all(e.to is None or e.to == seat for e in visible)
        assert [e for e in events if e.to is None] == [e for e in visible if e.to is None]
        mine = [e for e in events if e.to is not None and e.to == seat]
        assert mine == [e for e in visible if e.to is not None]
    private = [e for e in events if e.to is not None]
    if isinstance(action, Draw):  # the card drawn is told to its new holder only
        assert [e.data.get("card") for e in private] == [action.card]
        assert all("card" not in e.data for e in events if e.to is None)
    else:
        assert private == [], (action, private)


# -- the cheap invariants, after every step of many games ----------------------------------


@settings(max_examples=160, **SETTINGS)
@given(seed=seeds, persia=agents, greece=agents, cheap=cheap_fleets)
# Found once: landed attackers retreated by sea into a port the enemy had just entered.
@example(seed=39294574, persia="random", greece="heuristic", cheap=False)
def test_invariants_after_every_step(seed: int, persia: str, greece: str, cheap: bool) -> None:
    """Cheap checks after every step of many games: pieces, cards, tracks, budgets, the
    board, the outcome, decisions versus chance, and the events' audiences."""
    game = GAME
    first = game.new(game.options({"cheap_fleets": cheap}))
    j0 = game.state_to_json(first)
    assert game.to_act(first) == PERSIA and j0["campaign"] == 1 and j0["score"] == 0
    assert j0["hands"] == [[], []] and sorted(j0["deck"]) == list(range(1, 17))

    previous = [j0]

    def on_step(before: Any, seat: int, action: Any, events: list[Event], s: Any) -> None:
        j = game.state_to_json(s)
        b, previous[0] = previous[0], j
        check(s, game.c)  # every piece and card in one place (raises RecordError)
        check_pieces(j)
        check_cards(j)
        # the tracks
        assert -SCORE_LIMIT <= j["score"] <= SCORE_LIMIT
        assert 1 <= j["campaign"] <= CAMPAIGNS
        assert j["campaign"] - b["campaign"] in (0, 1)
        # chance outcomes are taken by chance only, decisions by the seats only
        assert (seat == CHANCE) == isinstance(action, CHANCE_ACTIONS), (seat, action)
        # a new campaign starts with the hands Supply left: Persia 1 card, Greece 4
        v = game.view(s, None)
        if j["campaign"] > b["campaign"]:
            assert j["phase"] == "prep-buy" and game.to_act(s) == PERSIA
            assert len(j["hands"][PERSIA]) <= PERSIA_KEEPS
            assert len(j["hands"][GREECE]) <= GREECE_KEEPS
            assert v["talents"] == (10 if j["hands"][PERSIA] else 12)
        if j["phase"] == "prep-buy" and b["phase"] != "prep-buy":
            # budgets: Persia 12 (10 with a kept card); Greece 6 (5 after the Acropolis
            # burned), or 3 for the extra Preparation of Mines of Laurion
            assert v["talents"] in ((10, 12) if game.to_act(s) == PERSIA else (3, 5, 6))
        check_board(v)
        for e in events:  # Persian armies in Abydos and Ephesos are always fed (RB 8.2)
            if e.kind == "attrition" and e.data["side"] == "persia":
                assert e.data["city"] not in ("Abydos", "Ephesos"), e
        # an outcome exactly when nobody is to act
        to_act = game.to_act(s)
        outcome = game.outcome(s)
        assert (outcome is None) == (to_act is not None)
        if outcome is not None:
            check_outcome(j, outcome)
            assert not list(game.legal(s)) and not game.chance(s)
            with pytest.raises(IllegalAction):
                game.apply(game.copy(s), game.parse("pass"))
        elif to_act == CHANCE:
            # a distribution over distinct outcomes; a sample lies in its support
            dist = game.chance(s)
            support = {a for a, _ in dist}
            assert dist and len(support) == len(dist)
            assert all(p > 0 for _, p in dist)
            assert abs(sum(p for _, p in dist) - 1.0) < 1e-9
            assert all(isinstance(a, CHANCE_ACTIONS) for a in support)
            assert game.sample_chance(s, random.Random(seed)) in support
            assert not list(game.legal(s))
        else:
            legal = list(game.legal(s))
            assert legal and len(set(legal)) == len(legal)
            assert not any(isinstance(a, CHANCE_ACTIONS) for a in legal)
            assert not game.chance(s)
            with pytest.raises(IllegalAction):
                game.sample_chance(s, random.Random(seed))
            # the first choice never commits to anything (what a cautious player or a
            # script answering `1` relies on)
            first = FIRST_CHOICE.get(j["phase"])
            if first is not None:
                assert game.format(legal[0]) == first, (j["phase"], legal)
        check_events(events, action)

    play(*game_args(seed, persia, greece, cheap), on_step=on_step)


def check_board(v: dict[str, Any]) -> None:
    """Outside a battle the two sides never share a city (armies) or a port (fleets);
    a Major city is never neutral; fleets are only in ports."""
    for city in v["cities"]:
        if not city["port"]:
            assert city["fleets"] == {"persia": 0, "greece": 0}, city
        if city["major"] is not None and (
            city["armies"]["persia"] == 0 or city["armies"]["greece"] == 0
        ):
            assert city["control"] is not None, city
        if v["battle"] is None:
            assert not (city["armies"]["persia"] and city["armies"]["greece"]), (v, city)
            assert not (city["fleets"]["persia"] and city["fleets"]["greece"]), (v, city)


def check_outcome(j: dict[str, Any], outcome: Any) -> None:
    assert j["phase"] == "over" and outcome.reason
    assert outcome.results in (("win", "loss"), ("loss", "win"), ("draw", "draw"))
    assert sum(outcome.scores) == 1.0
    assert outcome.turns == j["turns"]
    if "5th campaign" in outcome.reason:  # the marker decides: 0 is a draw
        assert j["campaign"] == CAMPAIGNS
        expected = (
            ("draw", "draw")
            if j["score"] == 0
            else ("win", "loss")
            if j["score"] > 0
            else ("loss", "win")
        )
        assert outcome.results == expected, (j["score"], outcome)
    elif "Athenai and Sparta" in outcome.reason:
        assert outcome.results == ("win", "loss")
    else:
        assert "Abydos and Ephesos" in outcome.reason, outcome
        assert outcome.results == ("loss", "win")


def test_a_game_always_ends() -> None:
    """Many quick games without callbacks: each ends within the step bound."""
    rng = random.Random(2024)
    for i in range(120):
        names = (rng.choice(["random", "eager"]), rng.choice(["random", "eager"]))
        play(rng.randrange(2**32), names, {"cheap_fleets": i % 2 == 1})


# -- legal equals what apply accepts ----------------------------------------------------


def accepted_actions(s: Any) -> set[Any]:
    """Every action of the table that `apply` accepts at `s` (each tried on a copy);
    a refused one must raise `IllegalAction` and leave the state as it was."""
    game = GAME
    original = game.state_to_json(s)
    expected = set(game.legal(s)) if game.to_act(s) != CHANCE else {a for a, _ in game.chance(s)}
    accepted = set()
    refused = game.copy(s)  # refusals change nothing, so they can share one copy
    for a in TABLE:
        if a in expected:
            game.apply(game.copy(s), a, quiet=True)  # must not raise
            accepted.add(a)
            continue
        try:
            game.apply(refused, a, quiet=True)
        except IllegalAction:
            continue
        accepted.add(a)
        refused = game.copy(s)
    assert game.state_to_json(refused) == original, "a refused action changed the state"
    return accepted


def check_legal_contract(s: Any, rng: random.Random) -> None:
    game = GAME
    to_act = game.to_act(s)
    if to_act is None:
        assert accepted_actions(s) == set()
        return
    accepted = accepted_actions(s)
    if to_act == CHANCE:
        assert accepted == {a for a, _ in game.chance(s)}
    else:
        assert accepted == set(game.legal(s))
    # a refused action in place (not on a copy) leaves the state as it was
    original = game.state_to_json(s)
    refused = [a for a in TABLE if a not in accepted]
    for a in rng.sample(refused, min(3, len(refused))):
        with pytest.raises(IllegalAction):
            game.apply(s, a)
        assert game.state_to_json(s) == original
    # and a legal one still applies afterwards
    if to_act != CHANCE:
        game.apply(game.copy(s), next(iter(game.legal(s))))


@settings(max_examples=40, **SETTINGS)
@given(seed=seeds, persia=agents, greece=agents, cheap=cheap_fleets)
def test_legal_is_what_apply_accepts_at_sampled_nodes(
    seed: int, persia: str, greece: str, cheap: bool
) -> None:
    """The same contract at about one node in ten of many more games, every rarer
    decision (reactions, battles, event choices, the bridge) included."""
    rng = random.Random(seed ^ 0xACC)
    common = (
        "prep-buy",
        "prep-build",
        "operations",
        "draw",
        "move-origin",
        "move-count",
        "move-destination",
        "roll",
    )

    def on_step(before: Any, seat: int, action: Any, events: list[Event], s: Any) -> None:
        if GAME.view(s, None)["phase"] not in common or rng.random() < 0.1:
            check_legal_contract(s, rng)

    play(*game_args(seed, persia, greece, cheap), on_step=on_step)


# -- serialisation and notation ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "buy -1",
        "buy 25",
        "event 0",
        "event 17",
        "roll 0",
        "roll 7",
        "to Babylon",
        "retreat by sea",
        "keep",
        "armies x",
        "fly away",
        "",
    ],
)
def test_bad_notation_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        GAME.parse(text)


def test_corrupt_positions_are_refused() -> None:
    """`check` catches a missing or extra piece or card; loading refuses it by name."""
    game = GAME
    j = game.state_to_json(game.new(game.options({})))
    extra_army = json.loads(json.dumps(j))
    extra_army["reserve_armies"][GREECE] += 1
    lost_fleet = json.loads(json.dumps(j))
    lost_fleet["reserve_fleets"][PERSIA] -= 1
    twice = json.loads(json.dumps(j))
    twice["discard"] = [twice["deck"][0]]
    missing = json.loads(json.dumps(j))
    missing["deck"] = missing["deck"][1:]
    for bad, word in (
        (extra_army, "armies"),
        (lost_fleet, "fleets"),
        (twice, "cards"),
        (missing, "cards"),
    ):
        with pytest.raises(RecordError, match=word):
            game.state_from_json(bad)


def _opening(**changes: Any) -> dict[str, Any]:
    j: dict[str, Any] = json.loads(json.dumps(GAME.state_to_json(GAME.new(GAME.options({})))))
    for key, value in changes.items():
        j[key] = value
    return j


@pytest.mark.parametrize(
    ("name", "data"),
    [
        # the totals add up, but a reserve is negative or a portrait holds too many armies
        ("negative reserve", _opening(reserve_armies=[20, -1], portraits=[0, 7, 0])),
        ("too many portraits", _opening(reserve_armies=[20, 2], portraits=[0, 4, 0])),
        (
            "kings and portraits disagree",
            _opening(reserve_armies=[18, 6], portraits=[2, 0, 0], kings=0),
        ),
        # the phase needs a battle, a move or a reaction window that the position lacks
        ("dice with no battle", _opening(phase="roll")),
        ("battle choice with no battle", _opening(phase="battle")),
        ("destination with no move", _opening(phase="move-destination")),
        ("reaction with no window", _opening(phase="reaction")),
    ],
)
def test_impossible_positions_are_refused(name: str, data: dict[str, Any]) -> None:
    """A position file that no game can reach is refused on load with a `RecordError`
    (not accepted, to crash later with an IndexError at the first step)."""
    with pytest.raises(RecordError):
        GAME.state_from_json(data)


# -- hidden information -----------------------------------------------------------------


def hippias_choice(s: Any) -> bool:
    """Persia is choosing which Greek card Hippias discards (it sees the Greek hand)."""
    game = GAME
    return (
        game.to_act(s) == PERSIA
        and game.view(s, None)["phase"] == "choose"
        and all(isinstance(a, Pick) for a in game.legal(s))
    )


def swapped(s: Any, owner: int, hand_card: int, deck_card: int) -> Any:
    """`s` with a card of `owner`'s hand exchanged for a card of the draw pile."""
    t = GAME.copy(s)
    t.hands[owner] = sorted([*(k for k in t.hands[owner] if k != hand_card), deck_card])
    t.deck = sorted([*(k for k in t.deck if k != deck_card), hand_card])
    GAME.state_from_json(GAME.state_to_json(t))  # still a consistent position
    return t


def check_views(s: Any, rng: random.Random) -> None:
    game = GAME
    j = game.state_to_json(s)
    hippias = hippias_choice(s)
    views = {seat: game.view(s, seat) for seat in (None, PERSIA, GREECE)}
    for seat, v in views.items():
        json.dumps(v)
        assert v["seat"] == (None if seat is None else SIDES[seat])
        assert isinstance(v["draw_pile"], int) and v["draw_pile"] == len(j["deck"])
        assert v["discard"] == j["discard"]  # the discard pile is face up
        assert game.render(v)
        for owner, side in enumerate(SIDES):
            h = v["hands"][side]
            assert h["count"] == len(j["hands"][owner])
            if seat == owner or (hippias and seat == PERSIA and owner == GREECE):
                assert sorted(h["cards"]) == sorted(j["hands"][owner])
            else:
                assert h["cards"] is None, f"{seat} sees the {side} hand ({j['phase']})"
    assert "hidden" in game.render(views[None])
    # the order of the draw pile is never seen
    t = game.copy(s)
    t.deck.reverse()
    rng.shuffle(t.deck)
    for seat, v in views.items():
        assert game.view(t, seat) == v
    # exchanging a card of one hand with the draw pile changes only what its owner sees
    # (and what Persia sees of the Greek hand while choosing for Hippias)
    to_act = game.to_act(s)
    for owner in (PERSIA, GREECE):
        pairs = [(x, y) for x in j["hands"][owner] for y in j["deck"]]
        if not pairs:
            continue
        t = swapped(s, owner, *rng.choice(pairs))
        for seat, v in views.items():
            sees = seat == owner or (hippias and seat == PERSIA and owner == GREECE)
            if sees:
                assert game.view(t, seat) != v  # the test can tell the states apart
            else:
                assert game.view(t, seat) == v, f"{seat} can tell the {SIDES[owner]} hand"
                if to_act == seat:  # nor does it get other choices
                    assert list(game.legal(t)) == list(game.legal(s))


@settings(max_examples=20, **SETTINGS)
@given(seed=seeds, persia=agents, greece=agents, cheap=cheap_fleets)
def test_views_leak_nothing(seed: int, persia: str, greece: str, cheap: bool) -> None:
    rng = random.Random(seed ^ 0x5EED)

    def on_step(before: Any, seat: int, action: Any, events: list[Event], s: Any) -> None:
        check_views(s, rng)

    play(*game_args(seed, persia, greece, cheap), on_step=on_step)


def test_hippias_shows_persia_the_greek_hand_only_while_it_chooses() -> None:
    """Eager games reach Hippias often: while Persia picks, its view lists the Greek
    hand (and nobody else's does); the step after, it no longer does."""
    game = GAME
    seen: list[int] = []

    def on_step(before: Any, seat: int, action: Any, events: list[Event], s: Any) -> None:
        if hippias_choice(before):
            greek = game.view(before, PERSIA)["hands"]["greece"]["cards"]
            assert greek == sorted(before.hands[GREECE])
            assert isinstance(action, Pick) and action.card in greek
            assert game.view(before, None)["hands"]["greece"]["cards"] is None
            assert game.view(s, PERSIA)["hands"]["greece"]["cards"] is None
            assert action.card in game.state_to_json(s)["discard"]
            seen.append(action.card)

    for seed in range(40):
        play(seed, ("eager", "eager"), {}, on_step)
    assert len(seen) >= 3  # the exception was exercised
