"""300: Earth & Water, one test per card event: the Greek (upper) and Persian (lower) half
of each of the 16 cards, then the reaction windows, the once-per-game leaders and their
portraits, the Sparta cards under the Carneia Festival, and what Hippias lets Persia see.

The printed card texts are not in the rulebook's text layer (only the card sample of RB
p.3: Pausanias, Ostracism), so the effects tested here are those of the rules digest
(shared/rules/earth-and-water.md §5) and of the decisions in docs/rules/earth-and-water.md.
Every test drives the public protocol from a scenario position.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.earth_and_water.helpers import act, armies, fleets, legal_texts, position, reserve, seen
from thermopylae.engine.protocol import CHANCE
from thermopylae.games.earth_and_water import game as ew_game
from thermopylae.games.earth_and_water.state import GREECE, PERSIA, State

G = ew_game()
SETUP_P = {"Abydos": (2, 0), "Ephesos": (2, 1)}
SETUP_G = {"Athenai": (1, 1), "Sparta": (1, 1), "Korinthos": (1, 0)}
SPARTA_CARDS = (6, 8, 11, 15)

# -- helpers -------------------------------------------------------------------------------


def hand(s: State, seat: int) -> list[int]:
    cards = seen(s, seat)["hands"][("persia", "greece")[seat]]["cards"]
    assert cards is not None
    return list(cards)


def events_offered(s: State) -> list[str]:
    """The `event N` actions open to the side to act."""
    return [t for t in legal_texts(G, s) if t.startswith("event")]


def outcomes(s: State) -> dict[str, Fraction]:
    return {G.format(a): Fraction(p).limit_denominator(10_000) for a, p in G.chance(s)}


def highest_of(n: int) -> dict[str, Fraction]:
    """The distribution of the highest of n dice."""
    return {f"roll {f}": Fraction(f**n - (f - 1) ** n, 6**n) for f in range(1, 7)}


def counts(events: list[Any]) -> list[int]:
    return [e.data["counts"] for e in events if e.kind == "roll"]


def with_used(s: State, used: int) -> State:
    """The same position with some once-per-game events already played (bits of
    `used`: 1 Miltiades, 2 Themistocles, 4 Leonidas, 8 Artemisia I)."""
    data = G.state_to_json(s)
    data["used"] = used
    return G.state_from_json(data)


def persian_land_attack(
    greek_hand: list[int], p: int = 3, g: int = 1, where: str = "Thebai", event: int = 0, **kw: Any
) -> State:
    """Persia (p armies in Larissa) moves into `where` (g Greek armies) by land, with card
    16 for movement, or playing `event` (1 Cavalry of Mardonius, 7 The Great King); Persia
    keeps card 14, so that Operations go on after the battle."""
    greece = {where: (g, 0), "Athenai": (1, 0)}
    hands = ([event or 16, 14], greek_hand)
    s = position(G, persia={"Larissa": (p, 0)}, greece=greece, hands=hands, **kw)
    act(
        G, s, f"event {event}" if event else "move 16", "land Larissa", f"armies {p}", f"to {where}"
    )
    return s


def greek_land_attack(
    greek_hand: list[int],
    g: int = 2,
    p: int = 1,
    persian_hand: list[int] | None = None,
    event: int = 0,
    **kw: Any,
) -> State:
    """Greece (g armies in Korinthos) moves into Thebai (p Persian armies) by land, with
    card 3 for movement, or playing `event` (8 Leonidas, 10 Evangelion); Greece keeps card
    14, so that Operations go on after the battle."""
    hands = (persian_hand or [], [event or 3, 14, *greek_hand])
    s = position(
        G,
        persia={"Thebai": (p, 0), "Ephesos": (0, 1)},
        greece={"Korinthos": (g, 0), "Athenai": (1, 0)},
        hands=hands,
        active=GREECE,
        **kw,
    )
    act(G, s, f"event {event}" if event else "move 3", "land Korinthos")
    if event != 8:  # Leonidas moves exactly one army: no count to choose
        act(G, s, f"armies {g}")
    act(G, s, "to Thebai")
    if seen(s)["phase"] == "reaction" and 4 not in greek_hand:
        act(G, s, "decline")  # the Greek window before the first round (Miltiades)
    return s


# -- card 1 ----------------------------------------------------------------------------------


def test_card_01_greek_mines_of_laurion_extra_preparation_without_fleet_limit() -> None:
    """Mines of Laurion (G): at once, an extra Greek Preparation with 3 talents (cards,
    armies, fleets as usual, but no 2-fleet limit); then it is Persia's turn."""
    s = position(G, persia=SETUP_P, greece=SETUP_G, hands=([4], [1]), active=GREECE)
    act(G, s, "event 1")
    v = seen(s)
    assert (v["phase"], v["to_act"], v["talents"]) == ("prep-buy", "greece", 3)
    assert legal_texts(G, s) == ["buy 0", "buy 1", "buy 2", "buy 3"]
    act(G, s, "buy 0", "fleet Athenai", "fleet Sparta", "fleet Athenai")
    assert fleets(s, "Athenai") == (0, 3) and fleets(s, "Sparta") == (0, 2)
    act(G, s, "done")
    assert (seen(s)["phase"], G.to_act(s)) == ("operations", PERSIA)


def test_card_01_persian_cavalry_of_mardonius_persian_dice_uncapped() -> None:
    """Cavalry of Mardonius (P): a land movement; in the battle it causes the Persian dice
    are not capped (a 6 counts 6), for the whole battle."""
    s = persian_land_attack([], event=1, g=2)
    events = act(G, s, "roll 6", "roll 5")
    assert counts(events) == [6, 5]
    assert armies(s, "Thebai") == (3, 1)
    events = act(G, s, "continue", "continue", "roll 5", "roll 4")
    assert counts(events) == [5, 4] and armies(s, "Thebai") == (3, 0)


def test_card_01_persian_cavalry_is_a_land_movement_only() -> None:
    """Cavalry of Mardonius (P): fleets cannot make this movement."""
    s = position(G, persia={"Abydos": (2, 0), "Ephesos": (0, 2)}, greece=SETUP_G, hands=([1], []))
    act(G, s, "event 1")
    assert legal_texts(G, s) == ["land Abydos"]


# -- card 2 ----------------------------------------------------------------------------------


def test_card_02_greek_ionian_revolt_removes_a_persian_army_in_asia() -> None:
    """Ionian Revolt (G): one Persian army in Abydos or Ephesos goes back to reserve;
    not playable without such an army."""
    s = position(
        G,
        persia={"Abydos": (2, 0), "Ephesos": (1, 1), "Thebai": (1, 0)},
        greece=SETUP_G,
        hands=([4], [2]),
        active=GREECE,
    )
    act(G, s, "event 2")
    assert legal_texts(G, s) == ["remove Abydos", "remove Ephesos"]
    act(G, s, "remove Ephesos")
    assert armies(s, "Ephesos") == (0, 0) and reserve(s, "persia")[0] == 24 - 3
    none = position(G, persia={"Thebai": (1, 0)}, greece=SETUP_G, hands=([], [2]), active=GREECE)
    assert "event 2" not in legal_texts(G, none)


def _tribute(card: int) -> None:
    """Tribute of Earth and Water (P, cards 2, 3, 13): one Persian army from reserve into a
    city that neither side controls (Eretria and Naxos included)."""
    s = position(G, persia=SETUP_P, greece=SETUP_G, hands=([card, 14], []))
    act(G, s, f"event {card}")
    assert legal_texts(G, s) == [
        "place Delphi",
        "place Eretria",
        "place Larissa",
        "place Naxos",
        "place Pella",
        "place Thebai",
    ]
    act(G, s, "place Naxos")
    assert armies(s, "Naxos") == (1, 0) and reserve(s, "persia")[0] == 24 - 5
    full = position(
        G, persia={"Abydos": (12, 0), "Ephesos": (12, 1)}, greece=SETUP_G, hands=([card], [])
    )
    assert f"event {card}" not in legal_texts(G, full)  # no army in reserve


def test_card_02_persian_tribute_of_earth_and_water() -> None:
    _tribute(2)


# -- card 3 ----------------------------------------------------------------------------------


def test_card_03_greek_wrath_of_poseidon_removes_a_persian_fleet() -> None:
    """Wrath of Poseidon (G): one Persian fleet, from any port, goes back to reserve;
    playable only while a Persian fleet is on the map."""
    s = position(
        G,
        persia={"Abydos": (1, 2), "Naxos": (0, 1)},
        greece=SETUP_G,
        hands=([4], [3]),
        active=GREECE,
    )
    act(G, s, "event 3")
    assert legal_texts(G, s) == ["remove Abydos", "remove Naxos"]
    act(G, s, "remove Naxos")
    assert fleets(s, "Naxos") == (0, 0) and reserve(s, "persia")[1] == 4
    none = position(G, persia={"Abydos": (1, 0)}, greece=SETUP_G, hands=([], [3]), active=GREECE)
    assert "event 3" not in legal_texts(G, none)


def test_card_03_persian_tribute_of_earth_and_water() -> None:
    _tribute(3)


# -- card 4 ----------------------------------------------------------------------------------


def test_card_04_greek_miltiades_in_defence_three_dice_and_a_portrait_army() -> None:
    """Miltiades (G, lightning, once per game): played when Persia attacks by land, before
    the first round: a Greek army from reserve goes onto his portrait, and Greece rolls
    3 dice every round whatever its armies; it does not use the Greek turn."""
    s = persian_land_attack([4, 2])
    assert (G.to_act(s), legal_texts(G, s)) == (GREECE, ["decline", "react 4"])
    act(G, s, "react 4")
    v = seen(s)
    assert v["portraits"]["greece"] == 1 and reserve(s, "greece")[0] == 9 - 2 - 1
    assert "Miltiades" in v["once_used"] and v["discard"][-1] == 4
    assert legal_texts(G, s) == ["decline"]  # the window reopens for another reaction
    act(G, s, "decline")
    act(G, s, "roll 2")
    assert outcomes(s) == highest_of(3)
    act(G, s, "roll 5", "continue", "continue", "roll 1")
    assert outcomes(s) == highest_of(3)  # every round


def test_card_04_greek_miltiades_in_attack_after_a_greek_land_move() -> None:
    """Miltiades (G): also playable after the Greeks move by land into Persian armies
    (NOTES: a movement first)."""
    s = greek_land_attack([4], g=1, p=2)
    assert (G.to_act(s), legal_texts(G, s)) == (GREECE, ["decline", "react 4"])
    act(G, s, "react 4", "decline")  # the window reopens; nothing more to play
    assert outcomes(s) == highest_of(3)  # Greece, attacker, with one army
    act(G, s, "roll 3")
    assert outcomes(s) == highest_of(2)  # Persia, defender, two armies


def test_card_04_greek_miltiades_in_attack_after_a_sea_landing() -> None:
    """Decision 7.6: Miltiades may also follow a Greek naval landing into Persian armies."""
    s = position(
        G,
        persia={"Thebai": (2, 0), "Ephesos": (0, 1)},
        greece={"Athenai": (2, 2)},
        hands=([], [3, 4]),
        active=GREECE,
    )
    act(G, s, "move 3", "sea Athenai", "fleets 2", "carry 2", "to Thebai")
    assert legal_texts(G, s) == ["decline", "react 4"]


def test_card_04_persian_carneia_festival_until_the_end_of_the_campaign() -> None:
    """Carneia Festival (P): for the rest of the campaign Greece may not play Sparta
    events (RB 6.1); as RTT (decision 7.9), Greek armies in Sparta may not move by land nor
    be carried from Sparta. The effect ends with the campaign."""
    s = position(
        G, persia=SETUP_P, greece={"Sparta": (2, 2), "Korinthos": (1, 0)}, hands=([4], [8, 11, 3])
    )
    act(G, s, "event 4")
    assert seen(s)["carneia"] is True
    assert events_offered(s) == ["event 3"]  # Leonidas, Melas Zomos barred
    act(G, s, "move 3")
    assert legal_texts(G, s) == ["land Korinthos", "sea Sparta"]
    act(G, s, "sea Sparta", "fleets 2")
    assert legal_texts(G, s)[0] == "to Abydos"  # no armies carried: no carry step
    act(G, s, "to Naxos", "pass", "pass")
    assert seen(s)["carneia"] is False and seen(s)["campaign"] == 2


def test_card_04_carneia_before_the_festival_sparta_events_are_open() -> None:
    """RB 6.1: until Persia plays the Carneia Festival, Sparta events may be played."""
    s = position(
        G,
        persia=SETUP_P,
        greece={"Sparta": (2, 2), "Korinthos": (1, 0)},
        hands=([], [8, 11, 3]),
        active=GREECE,
    )
    assert events_offered(s) == ["event 3", "event 8", "event 11"]


# -- card 5 ----------------------------------------------------------------------------------


def test_card_05_greek_themistocles_fleets_move_before_the_persian_naval_move() -> None:
    """Themistocles (G, lightning, once per game): after Persia declares a naval move,
    a Greek army goes onto his portrait and Greece first makes a naval move of fleets
    only, from any port but the Persian destination; here it reinforces the port under
    attack. Neither side may retreat in the naval battles of that turn (decision 23)."""
    s = position(
        G,
        persia={"Ephesos": (2, 2)},
        greece={"Athenai": (1, 1), "Sparta": (0, 2)},
        hands=([4, 16], [5, 2]),
    )
    act(G, s, "move 4", "sea Ephesos", "fleets 2", "carry 1", "to Athenai")
    assert (G.to_act(s), legal_texts(G, s)) == (GREECE, ["decline", "react 5"])
    act(G, s, "react 5")
    assert seen(s)["portraits"]["greece"] == 1 and "Themistocles" in seen(s)["once_used"]
    assert legal_texts(G, s) == ["sea Sparta"]  # not from the Persian destination
    act(G, s, "sea Sparta", "fleets 2")
    assert "carry 1" not in legal_texts(G, s)  # fleets only: straight to the destination
    act(G, s, "to Athenai")
    assert fleets(s, "Athenai") == (2, 3)
    assert G.to_act(s) == CHANCE
    act(G, s, "roll 3")
    assert outcomes(s) == highest_of(3)  # three Greek fleets defend
    act(G, s, "roll 4", "decline")  # Persia lost a fleet: Artemisia's window, declined
    assert G.to_act(s) == CHANCE  # no retreat offered to either side


def test_card_05_greek_themistocles_may_attack_another_port_first() -> None:
    """Themistocles (G): sailing to another port holding Persian fleets, Greece fights a
    naval battle there first, as attacker; then the Persian move resolves."""
    s = position(
        G,
        persia={"Ephesos": (2, 1), "Naxos": (0, 1)},
        greece={"Athenai": (1, 1), "Sparta": (0, 1)},
        hands=([4, 16], [5]),
    )
    act(
        G,
        s,
        "move 4",
        "sea Ephesos",
        "fleets 1",
        "carry 1",
        "to Eretria",
        "react 5",
        "sea Sparta",
        "fleets 1",
    )
    events = act(G, s, "to Naxos")
    assert [(e.data["city"], e.data["attacker"]) for e in events if e.kind == "battle"] == [
        ("Naxos", "greece")
    ]
    events = act(G, s, "roll 6", "roll 1")  # the Persian fleet of Naxos sinks
    assert fleets(s, "Naxos") == (0, 1)
    assert armies(s, "Eretria") == (1, 0)  # then the Persian move landed


def test_p10_themistocles_fleets_join_the_one_battle_at_the_persian_destination() -> None:
    """Themistocles (G), decision 34: Greek fleets sent to the Persian destination, where
    Persian fleets already lie, fight no battle of their own on arrival; the Persian move
    then attacks them there, with every Persian fleet of the port, in one naval battle."""
    s = position(
        G,
        persia={"Ephesos": (2, 2), "Naxos": (0, 1)},
        greece={"Athenai": (1, 0), "Sparta": (1, 2)},
        hands=([4, 16], [5]),
    )
    act(
        G,
        s,
        "move 4",
        "sea Ephesos",
        "fleets 2",
        "carry 1",
        "to Naxos",
        "react 5",
        "sea Sparta",
        "fleets 2",
    )
    events = act(G, s, "to Naxos")
    assert [(e.data["city"], e.data["attacker"]) for e in events if e.kind == "battle"] == [
        ("Naxos", "persia")
    ]
    assert fleets(s, "Naxos") == (3, 2)
    assert outcomes(s) == highest_of(3)  # three Persian fleets attack
    act(G, s, "roll 6", "roll 1")
    assert G.to_act(s) == CHANCE  # no retreat in a Themistocles naval battle
    act(G, s, "roll 6", "roll 1")  # the last Greek fleet sinks
    assert fleets(s, "Naxos") == (3, 0) and armies(s, "Naxos") == (1, 0)
    assert G.to_act(s) == GREECE  # one battle only; the Greek turn follows


def test_p11_themistocles_no_retreat_only_in_naval_battles() -> None:
    """Themistocles (G), decision 23: the no-retreat rule covers the naval battles of the
    turn; the land battle after the Persian landing has the usual retreats (RB 7.1)."""
    s = position(
        G,
        persia={"Ephesos": (3, 3)},
        greece={"Athenai": (2, 1), "Sparta": (1, 1)},
        hands=([4, 16], [5]),
    )
    act(
        G,
        s,
        "move 4",
        "sea Ephesos",
        "fleets 3",
        "carry 2",
        "to Athenai",
        "react 5",
        "sea Sparta",
        "fleets 1",
        "to Athenai",
    )
    act(G, s, "roll 6", "roll 1")
    assert G.to_act(s) == CHANCE  # the naval battle: no retreat offered
    act(G, s, "roll 6", "roll 1")  # the Greek fleets are gone; two Persian armies land
    assert seen(s)["battle"]["kind"] == "land" and armies(s, "Athenai") == (2, 2)
    act(G, s, "roll 6", "roll 1")
    assert G.to_act(s) == PERSIA
    assert legal_texts(G, s) == ["continue", "retreat by sea Ephesos"]
    act(G, s, "retreat by sea Ephesos")
    assert armies(s, "Ephesos") == (3, 0) and fleets(s, "Ephesos") == (3, 0)


def test_card_05_persian_the_immortals_bring_back_the_starting_armies() -> None:
    """The Immortals (P, lightning): after a land round that wiped out the Persian armies
    in the city, as many armies as Persia had there at the start of the battle (at most
    3) come back from reserve, and the battle goes on."""
    s = greek_land_attack([], g=3, p=2, persian_hand=[5, 16])
    act(G, s, "roll 6", "roll 1", "continue", "roll 6", "roll 1")
    assert armies(s, "Thebai") == (0, 3)
    assert (G.to_act(s), legal_texts(G, s)) == (PERSIA, ["decline", "react 5"])
    act(G, s, "react 5")
    assert armies(s, "Thebai") == (2, 3)
    assert seen(s)["phase"] == "battle" and G.to_act(s) == GREECE  # the battle goes on


def test_card_05_persian_the_immortals_also_in_attack_once_per_battle() -> None:
    """The Immortals (P): Persia may be the attacker; the card works once per battle."""
    s = position(
        G,
        persia={"Larissa": (1, 0)},
        greece={"Thebai": (3, 0), "Athenai": (1, 0)},
        hands=([4, 5, 16], []),
    )
    act(G, s, "move 4", "land Larissa", "armies 1", "to Thebai", "roll 1", "roll 6")
    assert legal_texts(G, s) == ["decline", "react 5"]
    act(G, s, "react 5")
    assert armies(s, "Thebai") == (1, 3)
    act(G, s, "continue", "continue", "roll 1", "roll 6")
    assert armies(s, "Thebai") == (0, 3)
    assert legal_texts(G, s) == ["decline"]  # the window opens, but not for a second use


def test_card_05_persian_the_immortals_not_after_xerxes_is_dead() -> None:
    """The Immortals (P, decision 7.17 as RTT): not playable once Xerxes is assassinated."""
    s = greek_land_attack([], g=3, p=1, persian_hand=[5, 16], kings=2)
    act(G, s, "roll 6", "roll 1")
    assert legal_texts(G, s) == ["decline"]


# -- card 6 ----------------------------------------------------------------------------------


def test_card_06_greek_pausanias_cancels_the_cavalry_bonus() -> None:
    """Pausanias (G, lightning, Sparta card; RB p.3 card text): in immediate response to
    the Cavalry of Mardonius, before the first round, the Persian dice are capped again."""
    s = persian_land_attack([6], event=1, g=2)
    assert legal_texts(G, s) == ["decline", "react 6"]
    act(G, s, "react 6")
    events = act(G, s, "roll 6", "roll 5")
    assert counts(events) == [4, 5]


def test_card_06_greek_pausanias_only_against_the_cavalry() -> None:
    """Pausanias (G): there is no bonus to cancel in an ordinary Persian attack."""
    s = persian_land_attack([6])
    assert legal_texts(G, s) == ["decline"]


def test_card_06_persian_ostracism_discards_a_random_greek_card() -> None:
    """Ostracism (P; RB p.3 card text): a card picked at random from the Greek hand is
    discarded; playable only against a non-empty Greek hand."""
    s = position(G, persia=SETUP_P, greece=SETUP_G, hands=([6], [2, 7, 13]))
    act(G, s, "event 6")
    assert G.to_act(s) == CHANCE
    assert outcomes(s) == {
        "lot 2": Fraction(1, 3),
        "lot 7": Fraction(1, 3),
        "lot 13": Fraction(1, 3),
    }
    act(G, s, "lot 7")
    assert hand(s, GREECE) == [2, 13] and seen(s)["discard"] == [6, 7]
    empty = position(G, persia=SETUP_P, greece=SETUP_G, hands=([6], []))
    assert "event 6" not in legal_texts(G, empty)


# -- card 7 ----------------------------------------------------------------------------------


def test_card_07_greek_oracle_of_delphi_discard_the_hand_draw_one_more() -> None:
    """Oracle of Delphi (G): Greece discards its other cards (n) and draws n+1."""
    s = position(G, persia=SETUP_P, greece=SETUP_G, hands=([4], [7, 2, 3]), active=GREECE)
    act(G, s, "event 7")
    assert seen(s)["discard"] == [7, 2, 3]
    assert G.to_act(s) == CHANCE
    act(G, s, "draw 9", "draw 10", "draw 12")
    assert hand(s, GREECE) == [9, 10, 12]
    assert (seen(s)["phase"], G.to_act(s)) == ("operations", PERSIA)


def test_card_07_greek_oracle_with_too_few_cards_draws_what_there_is() -> None:
    """Decision 7.15: with the pile and the discards short, draw what there is."""
    many = [k for k in range(1, 17) if k not in (7, 2)]
    s = position(G, persia=SETUP_P, greece=SETUP_G, hands=(many, [7, 2]), active=GREECE)
    act(G, s, "event 7", "draw 2", "draw 7")
    assert hand(s, GREECE) == [2, 7]
    assert (seen(s)["phase"], G.to_act(s)) == ("operations", PERSIA)


def test_card_07_persian_the_great_king_point_for_clearing_the_city() -> None:
    """The Great King (P): a land movement; when its battle ends, +1 to Persia if no Greek
    army remains in the city."""
    s = persian_land_attack([], event=7, g=1, score=2)
    act(G, s, "roll 4", "roll 1")
    assert seen(s)["score"] == 3


def test_card_07_persian_the_great_king_point_to_greece_if_persia_fails() -> None:
    """The Great King (P): +1 to Greece if Persia does not control the city at the end."""
    s = persian_land_attack([], event=7, g=2, score=2)
    act(G, s, "roll 1", "roll 4", "retreat Larissa")
    assert seen(s)["score"] == 1


def test_card_07_persian_the_great_king_both_adjustments_when_both_armies_fall() -> None:
    """The Great King (P): both adjustments can apply (a tie empties the city)."""
    s = persian_land_attack([], event=7, p=1, g=1, score=2)
    act(G, s, "roll 3", "roll 3")
    assert armies(s, "Thebai") == (0, 0) and seen(s)["score"] == 2


def test_card_07_persian_the_great_king_and_card_10_evangelion_no_battle_no_points() -> None:
    """The Great King (P), Evangelion (G): a movement that causes no battle scores nothing."""
    s = position(G, persia={"Larissa": (2, 0)}, greece=SETUP_G, hands=([7, 14], [10, 2]), score=0)
    act(G, s, "event 7", "land Larissa", "armies 2", "to Thebai")
    act(G, s, "event 10", "land Korinthos", "armies 1", "to Athenai")
    assert seen(s)["score"] == 0 and seen(s)["phase"] == "operations"


# -- card 8 ----------------------------------------------------------------------------------


def test_card_08_greek_leonidas_moves_one_army_that_rolls_two_dice() -> None:
    """Leonidas (G, Sparta card, once per game): a Greek army goes onto his portrait; then
    exactly one Greek army moves by land; in its battle Greece rolls 2 dice every round."""
    s = greek_land_attack([], g=3, p=2, event=8)
    v = seen(s)
    assert v["portraits"]["greece"] == 1 and "Leonidas" in v["once_used"]
    assert armies(s, "Korinthos") == (0, 2) and armies(s, "Thebai") == (2, 1)
    assert outcomes(s) == highest_of(2)  # the Greek attacker, one army, two dice
    act(G, s, "roll 2", "roll 1")
    assert armies(s, "Thebai") == (1, 1)


def test_card_08_greek_leonidas_once_per_game() -> None:
    """RB 6.2: the leader's event happens once; afterwards the card only moves."""
    s = with_used(position(G, persia=SETUP_P, greece=SETUP_G, hands=([], [8]), active=GREECE), 4)
    assert legal_texts(G, s) == ["pass", "move 8"]


def test_card_08_persian_the_royal_road_removes_greek_armies_in_asia() -> None:
    """The Royal Road (P): choose Abydos or Ephesos: Greek armies there are all removed."""
    s = position(
        G, persia={"Ephesos": (1, 1)}, greece={"Abydos": (3, 0), "Athenai": (1, 0)}, hands=([8], [])
    )
    act(G, s, "event 8")
    assert legal_texts(G, s) == ["place Abydos", "place Ephesos"]
    act(G, s, "place Abydos")
    assert armies(s, "Abydos") == (0, 0) and reserve(s, "greece")[0] == 9 - 1


def test_card_08_persian_the_royal_road_brings_one_to_three_armies() -> None:
    """The Royal Road (P): otherwise 1 to 3 Persian armies from reserve arrive there."""
    s = position(G, persia=SETUP_P, greece=SETUP_G, hands=([8], []))
    act(G, s, "event 8", "place Ephesos")
    assert legal_texts(G, s) == ["count 1", "count 2", "count 3"]
    act(G, s, "count 3")
    assert armies(s, "Ephesos") == (5, 0)


# -- card 9 ----------------------------------------------------------------------------------


def test_card_09_greek_artemisia_one_more_persian_fleet_for_good() -> None:
    """Artemisia I (G, lightning, once per game): after a naval round in which Persia lost
    a fleet and still has fleets, one more Persian fleet flees onto her portrait (not to
    the reserve); an attacker with fewer fleets than carried armies loses an army too."""
    s = position(
        G,
        persia={"Ephesos": (3, 3)},
        greece={"Naxos": (0, 2), "Athenai": (1, 0)},
        hands=([4, 16], [9]),
    )
    act(
        G,
        s,
        "move 4",
        "sea Ephesos",
        "fleets 3",
        "carry 2",
        "to Naxos",
        "decline",
        "roll 1",
        "roll 6",
    )
    assert fleets(s, "Naxos") == (2, 2)  # the empty fleet went first
    assert legal_texts(G, s) == ["decline", "react 9"]
    act(G, s, "react 9")
    v = seen(s)
    assert fleets(s, "Naxos") == (1, 2)
    assert v["portraits"]["artemisia"] == 1 and "Artemisia I" in v["once_used"]
    assert reserve(s, "persia") == (24 - 3 + 1, 6 - 3 + 1)


def test_card_09_greek_artemisia_not_when_persia_has_no_fleet_left() -> None:
    """Artemisia I (G): no window once the Persian fleets there are gone."""
    s = position(
        G,
        persia={"Ephesos": (0, 1)},
        greece={"Naxos": (0, 2), "Athenai": (1, 0)},
        hands=([4, 16], [9]),
    )
    act(G, s, "move 4", "sea Ephesos", "fleets 1", "to Naxos", "decline", "roll 1", "roll 6")
    assert (seen(s)["phase"], G.to_act(s)) == ("operations", GREECE)


def test_card_09_persian_hippias_persia_sees_the_greek_hand_and_picks_a_card() -> None:
    """Hippias (P): Persia looks at the Greek hand and chooses a card to discard; the Greek
    hand is shown to Persia only during that choice."""
    s = position(G, persia=SETUP_P, greece=SETUP_G, hands=([9, 4], [2, 13]))
    assert seen(s, PERSIA)["hands"]["greece"]["cards"] is None
    act(G, s, "event 9")
    assert seen(s, PERSIA)["hands"]["greece"]["cards"] == [2, 13]
    assert seen(s, None)["hands"]["greece"]["cards"] is None
    assert seen(s, GREECE)["hands"]["persia"]["cards"] is None
    assert legal_texts(G, s) == ["pick 2", "pick 13"]
    act(G, s, "pick 13")
    assert hand(s, GREECE) == [2] and seen(s)["discard"][-1] == 13
    assert seen(s, PERSIA)["hands"]["greece"]["cards"] is None


# -- card 10 ---------------------------------------------------------------------------------


def test_card_10_greek_evangelion_point_for_clearing_the_city() -> None:
    """Evangelion (G): a land movement; when its battle ends, +1 to Greece if no Persian
    army remains."""
    s = greek_land_attack([], g=2, p=1, event=10, score=1)
    act(G, s, "roll 5", "roll 1")
    assert seen(s)["score"] == 0


def test_card_10_greek_evangelion_point_to_persia_if_greece_fails() -> None:
    """Evangelion (G): +1 to Persia if Greece does not control the city at the end."""
    s = greek_land_attack([], g=2, p=2, event=10, score=1)
    act(G, s, "roll 1", "roll 5", "retreat Korinthos")
    assert seen(s)["score"] == 2


def test_card_10_persian_separate_peace_greece_loses_its_sparta_cards() -> None:
    """Separate Peace (P): each side rolls a die, Greece first; if Persia rolls higher,
    Greece discards all its Sparta cards (6, 8, 11, 15)."""
    s = position(G, persia=SETUP_P, greece=SETUP_G, hands=([10], [6, 8, 2, 15]))
    act(G, s, "event 10")
    assert outcomes(s) == {f"roll {f}": Fraction(1, 6) for f in range(1, 7)}
    act(G, s, "roll 3")
    assert outcomes(s) == {f"roll {f}": Fraction(1, 6) for f in range(1, 7)}
    act(G, s, "roll 4")
    assert hand(s, GREECE) == [2]
    assert sorted(seen(s)["discard"]) == [6, 8, 10, 15]


@pytest.mark.parametrize("persia_roll", [3, 2])
def test_card_10_persian_separate_peace_tie_or_lower_has_no_effect(persia_roll: int) -> None:
    """Separate Peace (P): a tie, or a lower Persian roll, changes nothing."""
    s = position(G, persia=SETUP_P, greece=SETUP_G, hands=([10], [6, 8, 2]))
    act(G, s, "event 10", "roll 3", f"roll {persia_roll}")
    assert hand(s, GREECE) == [2, 6, 8]


# -- card 11 ---------------------------------------------------------------------------------


def test_card_11_greek_melas_zomos_one_army_into_sparta() -> None:
    """Melas Zomos (G, Sparta card): one Greek army from reserve into Sparta; needs an army
    in reserve and Greek control of Sparta."""
    s = position(G, persia=SETUP_P, greece=SETUP_G, hands=([], [11]), active=GREECE)
    act(G, s, "event 11")
    assert armies(s, "Sparta") == (0, 2)
    taken = position(
        G, persia={"Sparta": (1, 1)}, greece={"Athenai": (1, 0)}, hands=([], [11]), active=GREECE
    )
    assert "event 11" not in legal_texts(G, taken)


def test_card_11_persian_sudden_death_is_never_played_as_an_event() -> None:
    """Sudden Death of the Great King (P): it strikes when drawn (RB 5.3), never as a
    played event; the card can only move."""
    s = position(G, persia=SETUP_P, greece=SETUP_G, hands=([11], []), kings=2)
    assert legal_texts(G, s) == ["pass", "move 11"]


# -- card 12 ---------------------------------------------------------------------------------


def test_card_12_greek_molon_labe_answers_the_tribute() -> None:
    """Molon Labe (G, lightning): right after a Tribute army is placed, it is removed and
    Greece may make a land movement (decision 7.8: optional); then the Greek turn comes."""
    s = position(
        G, persia=SETUP_P, greece={"Korinthos": (2, 0), "Athenai": (1, 1)}, hands=([2, 4], [12, 3])
    )
    act(G, s, "event 2", "place Thebai")
    assert (G.to_act(s), legal_texts(G, s)) == (GREECE, ["decline", "react 12"])
    act(G, s, "react 12")
    assert armies(s, "Thebai") == (0, 0) and reserve(s, "persia")[0] == 24 - 4
    assert "skip" in legal_texts(G, s) and "land Korinthos" in legal_texts(G, s)
    act(G, s, "land Korinthos", "armies 2", "to Thebai")
    assert armies(s, "Thebai") == (0, 2)
    assert (seen(s)["phase"], G.to_act(s)) == ("operations", GREECE)
    assert "event 3" in legal_texts(G, s) or "move 3" in legal_texts(G, s)


def test_card_12_greek_molon_labe_movement_may_be_skipped() -> None:
    """Decision 7.8: the free movement is optional."""
    s = position(
        G, persia=SETUP_P, greece={"Korinthos": (2, 0), "Athenai": (1, 1)}, hands=([2, 4], [12, 3])
    )
    act(G, s, "event 2", "place Thebai", "react 12", "skip")
    assert armies(s, "Korinthos") == (0, 2)
    assert (seen(s)["phase"], G.to_act(s)) == ("operations", GREECE)


def test_card_12_persian_defection_of_thebes_greeks_leave_persians_arrive() -> None:
    """Defection of Thebes (P): Greek armies in Thebai all move to another Greek city of
    Greece's choice (no road needed); then a Persian army from reserve goes to Thebai."""
    s = position(
        G,
        persia=SETUP_P,
        greece={"Thebai": (2, 0), "Sparta": (1, 1), "Naxos": (1, 0)},
        hands=([12, 14], []),
    )
    act(G, s, "event 12")
    assert G.to_act(s) == GREECE
    assert legal_texts(G, s) == ["place Athenai", "place Sparta", "place Naxos"]
    act(G, s, "place Naxos")
    assert armies(s, "Naxos") == (0, 3) and armies(s, "Thebai") == (1, 0)


def test_card_12_persian_defection_of_thebes_empty_thebai() -> None:
    """Defection of Thebes (P): with no Greek army in Thebai, a Persian army arrives."""
    s = position(G, persia=SETUP_P, greece=SETUP_G, hands=([12, 14], []))
    act(G, s, "event 12")
    assert armies(s, "Thebai") == (1, 0)


# -- card 13 ---------------------------------------------------------------------------------


def test_card_13_greek_triremes_two_naval_movements_of_fleets_only() -> None:
    """Triremes (G): two naval movements, fleets only (no transport); the second may move
    the same fleets, and (decision 7.8) may be skipped."""
    s = position(
        G,
        persia=SETUP_P,
        greece={"Athenai": (2, 2), "Sparta": (1, 1)},
        hands=([4], [13]),
        active=GREECE,
    )
    act(G, s, "event 13", "sea Athenai", "fleets 2")
    assert legal_texts(G, s)[0] == "to Abydos"  # no carry step
    act(G, s, "to Naxos")
    assert "skip" in legal_texts(G, s)
    act(G, s, "sea Naxos", "fleets 2", "to Eretria")
    assert fleets(s, "Eretria") == (0, 2) and armies(s, "Athenai") == (0, 2)
    assert G.to_act(s) == PERSIA


def test_card_13_persian_tribute_of_earth_and_water() -> None:
    _tribute(13)


# -- card 14 ---------------------------------------------------------------------------------


def test_card_14_greek_support_from_syracuse_all_reserve_fleets_arrive() -> None:
    """Support from Syracuse (G): every Greek fleet in reserve is placed, one at a time, in
    the port of a Greek city (decision 7.12: not one holding a Persian fleet)."""
    s = position(
        G,
        persia={"Abydos": (1, 0), "Athenai": (0, 1)},
        greece={"Athenai": (1, 0), "Sparta": (1, 1), "Korinthos": (1, 0)},
        hands=([4], [14]),
        active=GREECE,
    )
    assert reserve(s, "greece")[1] == 4
    act(G, s, "event 14")
    assert legal_texts(G, s) == ["place Sparta"]  # Korinthos has no port; Athenai blocked
    act(G, s, "place Sparta", "place Sparta", "place Sparta", "place Sparta")
    assert fleets(s, "Sparta") == (0, 5) and reserve(s, "greece")[1] == 0
    assert G.to_act(s) == PERSIA


def test_card_14_persian_alliance_with_carthage_is_never_played_as_an_event() -> None:
    """Alliance with Carthage (P, decision 7.14 as RTT): no playable event; movement only."""
    s = position(G, persia=SETUP_P, greece=SETUP_G, hands=([14], [2]))
    assert legal_texts(G, s) == ["pass", "move 14"]


# -- card 15 ---------------------------------------------------------------------------------


def test_card_15_greek_300_spartans_three_dice_against_a_persian_attack() -> None:
    """300 Spartans (G, lightning, Sparta card): against a Persian land attack, before the
    first round, Greece rolls 3 dice every round, in any city; unlimited use."""
    s = persian_land_attack([15], g=1, where="Delphi")
    assert legal_texts(G, s) == ["decline", "react 15"]
    act(G, s, "react 15", "roll 1")
    assert outcomes(s) == highest_of(3)
    assert seen(s)["once_used"] == []


def test_card_15_greek_300_spartans_does_not_combine_with_miltiades() -> None:
    """RTT: Miltiades and 300 Spartans exclude each other in one battle."""
    s = persian_land_attack([15, 4], g=1)
    act(G, s, "react 15")
    assert legal_texts(G, s) == ["decline"]


def test_card_15_persian_acropolis_on_fire_athenai_scores_nothing_greek_budget_five() -> None:
    """Acropolis on Fire (P): needs Persian armies in Athenai; in this campaign's Scoring
    Athenai scores for neither side, and Greece has 5 talents in the next Preparation."""
    s = position(
        G,
        persia={**SETUP_P, "Athenai": (1, 1)},
        greece={"Sparta": (1, 1), "Korinthos": (1, 0)},
        hands=([15], []),
    )
    act(G, s, "event 15")
    assert seen(s)["score"] == 1  # Persia 4, Greece 3: Athenai counted for no one
    act(G, s, "buy 0", "done")
    assert (seen(s)["to_act"], seen(s)["talents"]) == ("greece", 5)
    act(G, s, "buy 0", "done")
    assert seen(s)["acropolis_penalty"] is False
    not_there = position(G, persia=SETUP_P, greece=SETUP_G, hands=([15], []))
    assert "event 15" not in legal_texts(G, not_there)


def test_card_15_persian_acropolis_penalty_lapses_if_sudden_death_cancels_the_campaign() -> None:
    """Decision 7.11: a Sudden Death in the next Persian Preparation cancels the campaign,
    and with it the Greek talent penalty."""
    s = position(
        G,
        persia={**SETUP_P, "Athenai": (1, 1)},
        greece={"Sparta": (1, 1), "Korinthos": (1, 0)},
        hands=([15], []),
    )
    act(G, s, "event 15", "buy 1", "draw 11", "buy 0", "done")
    assert (seen(s)["campaign"], seen(s)["to_act"], seen(s)["talents"]) == (3, "greece", 6)


# -- card 16 ---------------------------------------------------------------------------------


def test_card_16_greek_desertion_of_greek_soldiers_removes_a_persian_army() -> None:
    """Desertion of Greek Soldiers (G): one Persian army, from any city, to reserve."""
    s = position(
        G,
        persia={"Abydos": (2, 0), "Thebai": (1, 0)},
        greece=SETUP_G,
        hands=([4], [16]),
        active=GREECE,
    )
    act(G, s, "event 16")
    assert legal_texts(G, s) == ["remove Abydos", "remove Thebai"]
    act(G, s, "remove Thebai")
    assert armies(s, "Thebai") == (0, 0)
    none = position(G, persia={"Abydos": (0, 1)}, greece=SETUP_G, hands=([4], [16]), active=GREECE)
    assert "event 16" not in legal_texts(G, none)


def test_card_16_persian_pacification_discard_some_draw_one_more() -> None:
    """Pacification of Babylon or Egypt (P): Persia discards any number of cards, then
    draws that number plus one."""
    s = position(G, persia=SETUP_P, greece=SETUP_G, hands=([16, 4, 9], []))
    act(G, s, "event 16")
    assert legal_texts(G, s) == ["done", "discard 4", "discard 9"]
    act(G, s, "discard 9", "done")
    assert G.to_act(s) == CHANCE
    act(G, s, "draw 2", "draw 3")
    assert hand(s, PERSIA) == [2, 3, 4]
    assert seen(s)["discard"] == [16, 9]


# -- reactions: windows, information, portraits ------------------------------------------------


def test_reaction_window_opens_even_without_a_fitting_card() -> None:
    """Lightning cards (RB 6.1; RTT device): the reactor holding any card is asked, so the
    pause tells the opponent nothing; it can only decline."""
    s = persian_land_attack([2])
    assert (G.to_act(s), legal_texts(G, s)) == (GREECE, ["decline"])


def test_reaction_does_not_cost_the_reacting_player_its_turn() -> None:
    """RB 6.1: playing a lightning card does not make the player lose its turn."""
    s = persian_land_attack([15, 2], p=1, g=1)
    act(G, s, "react 15", "decline", "roll 4", "roll 6", "decline")  # Persia: Immortals
    assert (seen(s)["phase"], G.to_act(s)) == ("operations", GREECE)
    assert legal_texts(G, s) == ["pass", "move 2"]


def test_miltiades_once_per_game() -> None:
    """RB 6.2: Miltiades' event happens only once in the game."""
    s = with_used(persian_land_attack([4, 15], g=1), 1)
    assert legal_texts(G, s) == ["decline", "react 15"]


def test_themistocles_once_per_game() -> None:
    """RB 6.2: Themistocles' event happens only once in the game."""
    s = position(
        G,
        persia={"Ephesos": (2, 2)},
        greece={"Athenai": (1, 1), "Sparta": (0, 2)},
        hands=([4, 16], [5, 2]),
    )
    s = with_used(s, 2)
    act(G, s, "move 4", "sea Ephesos", "fleets 1", "carry 0", "to Naxos")
    assert legal_texts(G, s) == ["decline"]


def test_artemisia_once_per_game() -> None:
    """RB 6.2: Artemisia's event happens only once in the game."""
    s = position(
        G,
        persia={"Ephesos": (3, 3)},
        greece={"Naxos": (0, 2), "Athenai": (1, 0)},
        hands=([4, 16], [9]),
    )
    s = with_used(s, 8)
    act(
        G,
        s,
        "move 4",
        "sea Ephesos",
        "fleets 3",
        "carry 0",
        "to Naxos",
        "decline",
        "roll 1",
        "roll 6",
    )
    assert legal_texts(G, s) == ["decline"]


def test_leader_portrait_army_taken_from_the_map_when_the_reserve_is_empty() -> None:
    """RB 6.2: with all 9 Greek armies on the map, Greece removes one of its choice onto
    the leader's portrait (Leonidas here)."""
    s = position(
        G,
        persia={"Thebai": (1, 0)},
        greece={"Korinthos": (3, 0), "Athenai": (4, 1), "Sparta": (2, 1)},
        hands=([], [8]),
        active=GREECE,
    )
    act(G, s, "event 8")
    assert (G.to_act(s), legal_texts(G, s)) == (
        GREECE,
        ["remove Athenai", "remove Sparta", "remove Korinthos"],
    )
    act(G, s, "remove Athenai")
    assert armies(s, "Athenai") == (0, 3) and seen(s)["portraits"]["greece"] == 1


def test_miltiades_portrait_army_from_the_battle_city_only_if_two_are_there() -> None:
    """Digest card 4 (RTT): with an empty reserve, the portrait army may come from the
    battle city only if at least 2 Greek armies are there."""
    s = position(
        G,
        persia={"Larissa": (3, 0)},
        greece={"Thebai": (1, 0), "Athenai": (6, 1), "Sparta": (2, 1)},
        hands=([16, 14], [4]),
    )
    act(G, s, "move 16", "land Larissa", "armies 3", "to Thebai", "react 4")
    assert legal_texts(G, s) == ["remove Athenai", "remove Sparta"]


@pytest.mark.parametrize("card", [6, 15])
def test_sparta_reaction_cards_barred_under_carneia(card: int) -> None:
    """RB 6.1: after the Carneia Festival, the Sparta lightning cards (Pausanias, 300
    Spartans) cannot be played; Miltiades, not a Sparta card, still can."""
    s = persian_land_attack([card, 4], event=1, g=1, carneia=True)
    assert legal_texts(G, s) == ["decline", "react 4"]


@pytest.mark.parametrize("card", SPARTA_CARDS)
def test_sparta_cards_barred_as_events_under_carneia_but_move(card: int) -> None:
    """RB 6.1: no Sparta event under the Carneia Festival; the card may still move."""
    s = position(G, persia=SETUP_P, greece=SETUP_G, hands=([], [card]), carneia=True, active=GREECE)
    assert f"event {card}" not in legal_texts(G, s)
    assert f"move {card}" in legal_texts(G, s)


def test_themistocles_needs_greek_fleets_outside_the_persian_destination() -> None:
    """Digest card 5: with Greek fleets only at the Persian destination there is nothing
    to move first: the window offers nothing but declining."""
    s = position(G, persia={"Ephesos": (2, 2)}, greece={"Athenai": (1, 2)}, hands=([4, 16], [5]))
    act(G, s, "move 4", "sea Ephesos", "fleets 2", "carry 0", "to Athenai")
    assert legal_texts(G, s) == ["decline"]


def test_immortals_restart_keeps_the_battle_effects_in_force() -> None:
    """Decision 7.7: after The Immortals the battle continues: the Cavalry bonus and 300
    Spartans stay in force, and no new pre-battle window opens."""
    s = position(
        G,
        persia={"Larissa": (1, 0)},
        greece={"Thebai": (2, 0), "Athenai": (1, 0)},
        hands=([1, 5, 16], [15, 2]),
    )
    act(
        G,
        s,
        "event 1",
        "land Larissa",
        "armies 1",
        "to Thebai",
        "react 15",
        "decline",
        "roll 1",
        "roll 6",
        "react 5",
    )
    assert armies(s, "Thebai") == (1, 2)
    act(G, s, "continue", "continue")
    assert G.to_act(s) == CHANCE  # straight to the next round
    events = act(G, s, "roll 6")
    assert outcomes(s) == highest_of(3)  # 300 Spartans still
    events += act(G, s, "roll 5")
    assert counts(events) == [6, 5]  # Cavalry still


def test_immortals_evangelion_scored_only_at_the_real_end_of_the_battle() -> None:
    """Decision 7.7: Evangelion (and The Great King) score when the battle really ends,
    not when the Persian armies are first wiped out."""
    s = greek_land_attack([], g=3, p=1, event=10, persian_hand=[5, 16], score=0)
    act(G, s, "roll 6", "roll 1", "react 5", "retreat Korinthos")
    assert seen(s)["score"] == 1  # Persia +1: Greece does not hold Thebai; no Greek point


def test_acropolis_penalty_not_cleared_by_mines_of_laurion() -> None:
    """Decision 7.11: the Mines of Laurion Preparation (3 talents) does not clear the
    Acropolis on Fire: Athenai still scores for no one and Greece still gets 5 talents."""
    s = position(
        G,
        persia={**SETUP_P, "Athenai": (1, 1)},
        greece={"Sparta": (1, 1), "Korinthos": (1, 0)},
        hands=([15], [1]),
    )
    act(G, s, "event 15", "event 1")
    assert seen(s)["talents"] == 3
    act(G, s, "buy 0", "done")  # both hands are empty: Operations end, then Scoring
    assert seen(s)["score"] == 1
    act(G, s, "buy 0", "done")
    assert seen(s)["talents"] == 5


def test_miltiades_not_added_to_a_leonidas_battle() -> None:
    """Decision 7.6 (RTT): Miltiades does not combine with Leonidas in one battle."""
    s = greek_land_attack([4], g=2, p=1, event=8)
    assert legal_texts(G, s) == ["decline"]


def test_event_points_are_clamped_at_six() -> None:
    """Decision 7.18: points from The Great King go onto the track at once, within ±6."""
    s = persian_land_attack([], event=7, g=1, score=6)
    act(G, s, "roll 4", "roll 1")
    assert seen(s)["score"] == 6
