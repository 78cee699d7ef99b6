"""300: Earth & Water, one test per rule of the English rulebook (RB sections cited).

Every test starts from a scenario position (`helpers.position`, or a position loaded with
`state_from_json` for the Preparation and Supply phases) and drives the game only through
its public protocol: `legal`, `apply`, `to_act`, `chance`, `outcome`, `view`. Dice are
chance outcomes `roll N` (the highest die of one side's throw: the attacker's first, then
the defender's), cards `draw N`. Where the rulebook leaves a point open, the test checks
the decision recorded in docs/rules/earth-and-water.md (section "Open points").
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.earth_and_water.helpers import act, armies, fleets, legal_texts, position, reserve, seen
from tests.earth_and_water.helpers import view_city as city
from thermopylae.engine.errors import IllegalAction
from thermopylae.engine.protocol import CHANCE
from thermopylae.games.earth_and_water import game as ew_game
from thermopylae.games.earth_and_water.state import GREECE, PERSIA, State

G = ew_game()
SETUP_P = {"Abydos": (2, 0), "Ephesos": (2, 1)}
SETUP_G = {"Athenai": (1, 1), "Sparta": (1, 1), "Korinthos": (1, 0)}

# -- helpers -------------------------------------------------------------------------------


def control(s: State, name: str) -> str | None:
    owner: str | None = city(s, name)["control"]
    return owner


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


def outcomes(s: State) -> dict[str, Fraction]:
    """The chance outcomes now due, with exact probabilities."""
    return {G.format(a): Fraction(p).limit_denominator(10_000) for a, p in G.chance(s)}


def staged(phase: str, side: int = PERSIA, talents: int = 12, **kw: Any) -> State:
    """A position in another phase than Operations (Preparation, Supply), loaded through
    the public position format."""
    data = G.state_to_json(position(G, **kw))
    data.update(phase=phase, side=side, talents=talents, fleets_built=0)
    return G.state_from_json(data)


def dest_options(s: State) -> list[str]:
    return sorted(t.removeprefix("to ") for t in legal_texts(G, s) if t.startswith("to "))


def finish_operations(s: State) -> None:
    """Pass until the Operations Phase is over (two passes, or one with both hands empty)."""
    while seen(s)["phase"] == "operations":
        act(G, s, "pass")


# -- setup (RB 2.2, 3) -------------------------------------------------------------------------


def test_setup_rb3_starting_positions_and_reserves() -> None:
    """RB 3.1, 3.2, 2.2: Persia 2 armies + 1 fleet in Ephesos, 2 armies in Abydos; Greece
    1 army + 1 fleet in Athenai and in Sparta, 1 army in Korinthos; the rest of the
    24/6 and 9/5 pieces in reserve."""
    s = G.new(G.options({}))
    placed = {
        c["name"]: (c["armies"], c["fleets"])
        for c in seen(s)["cities"]
        if any(c["armies"].values()) or any(c["fleets"].values())
    }
    assert placed == {
        "Abydos": ({"persia": 2, "greece": 0}, {"persia": 0, "greece": 0}),
        "Ephesos": ({"persia": 2, "greece": 0}, {"persia": 1, "greece": 0}),
        "Athenai": ({"persia": 0, "greece": 1}, {"persia": 0, "greece": 1}),
        "Sparta": ({"persia": 0, "greece": 1}, {"persia": 0, "greece": 1}),
        "Korinthos": ({"persia": 0, "greece": 1}, {"persia": 0, "greece": 0}),
    }
    assert reserve(s, "persia") == (20, 5)
    assert reserve(s, "greece") == (6, 3)


def test_setup_rb3_markers_bridge_and_cards() -> None:
    """RB 3.3, 3.4: campaign marker on 1, score on 0, bridge not built, the 16 cards
    shuffled face down; the game starts with the Persian Preparation."""
    s = G.new(G.options({}))
    v = seen(s)
    assert (v["campaign"], v["score"], v["bridge"]) == (1, 0, False)
    assert v["draw_pile"] == 16 and v["discard"] == []
    assert v["hands"]["persia"]["count"] == v["hands"]["greece"]["count"] == 0
    assert (v["phase"], v["to_act"]) == ("prep-buy", "persia")


# -- preparation (RB 5) ---------------------------------------------------------------------


def test_preparation_persian_budget_is_12_talents() -> None:
    """RB 5.1: the Persians have 12 talents for each campaign."""
    s = G.new(G.options({}))
    assert seen(s)["talents"] == 12


def test_preparation_persian_budget_is_10_after_keeping_a_card() -> None:
    """RB 5.1 exception, 8.1: a card kept from the previous campaign cuts the budget to 10."""
    s = position(G, hands=([4, 5], []))
    finish_operations(s)
    assert seen(s)["phase"] == "supply-keep"
    act(G, s, "keep 5")
    v = seen(s, PERSIA)
    assert (v["campaign"], v["phase"], v["talents"]) == (2, "prep-buy", 10)
    assert v["hands"]["persia"]["cards"] == [5]


def test_preparation_greek_budget_is_6_talents_after_the_persians() -> None:
    """RB 5 and 5.2: Persia prepares first, then Greece with 6 talents."""
    s = G.new(G.options({}))
    act(G, s, "buy 0", "done")
    v = seen(s)
    assert (v["phase"], v["to_act"], v["talents"]) == ("prep-buy", "greece", 6)


def test_preparation_card_costs_one_talent_at_most_six() -> None:
    """RB 5.1 table: a card costs 1 talent, at most 6 per Preparation; the cards bought
    are drawn at random from the draw pile (chance), then forces are raised."""
    s = G.new(G.options({}))
    assert legal_texts(G, s) == [f"buy {n}" for n in range(7)]
    act(G, s, "buy 2")
    assert G.to_act(s) == CHANCE
    assert outcomes(s) == {f"draw {k}": Fraction(1, 16) for k in range(1, 17)}
    act(G, s, "draw 3", "draw 9")
    v = seen(s, PERSIA)
    assert (v["phase"], v["talents"]) == ("prep-build", 10)
    assert v["hands"]["persia"]["cards"] == [3, 9]
    assert v["draw_pile"] == 14


def test_preparation_more_than_six_cards_is_refused() -> None:
    """RB 5.1 table: an illegal purchase raises and changes nothing."""
    s = G.new(G.options({}))
    with pytest.raises(IllegalAction):
        G.apply(s, G.parse("buy 7"))
    assert seen(s)["talents"] == 12 and seen(s)["phase"] == "prep-buy"


def test_preparation_card_purchase_limited_by_talents() -> None:
    """RB 5.2: Greece cannot buy more cards than its talents pay for (here 3 left)."""
    s = staged("prep-buy", GREECE, talents=3)
    assert legal_texts(G, s) == ["buy 0", "buy 1", "buy 2", "buy 3"]


def test_preparation_army_costs_one_talent_in_a_controlled_city() -> None:
    """RB 5.1 placement: an army is raised in one of your Major cities or a city you
    control (not a neutral city, not a Major city held by enemy armies)."""
    s = staged(
        "prep-build",
        persia={"Abydos": (2, 0), "Thebai": (1, 0)},
        greece={"Ephesos": (1, 0), "Athenai": (1, 1)},
    )
    placements = [t for t in legal_texts(G, s) if t.startswith("army")]
    assert placements == ["army Abydos", "army Thebai"]
    act(G, s, "army Thebai")
    assert armies(s, "Thebai") == (2, 0)
    assert seen(s)["talents"] == 11
    assert reserve(s, "persia")[0] == 24 - 3 - 1


def test_preparation_persian_fleet_costs_two_talents() -> None:
    """RB 5.1 table: a Persian fleet costs 2 talents."""
    s = staged("prep-build", persia=SETUP_P, greece=SETUP_G)
    act(G, s, "fleet Abydos")
    assert seen(s)["talents"] == 10
    assert fleets(s, "Abydos") == (1, 0)


def test_preparation_cheap_fleets_option_persian_fleet_costs_one() -> None:
    """RB 5.1 footnote (optional rule `cheap_fleets`): each fleet costs only 1 talent."""
    s = staged("prep-build", persia=SETUP_P, greece=SETUP_G, options={"cheap_fleets": True})
    act(G, s, "fleet Abydos")
    assert seen(s)["talents"] == 11


def test_preparation_greek_fleet_costs_one_talent() -> None:
    """RB 5.2 table: a Greek fleet costs 1 talent."""
    s = staged("prep-build", GREECE, talents=6, persia=SETUP_P, greece=SETUP_G)
    act(G, s, "fleet Athenai")
    assert seen(s)["talents"] == 5
    assert fleets(s, "Athenai") == (0, 2)


def test_preparation_at_most_two_fleets() -> None:
    """RB 5.1, 5.2 tables: at most 2 fleets per Preparation Phase; armies stay unlimited."""
    s = staged("prep-build", GREECE, talents=6, persia=SETUP_P, greece=SETUP_G)
    act(G, s, "fleet Athenai", "fleet Sparta")
    options = legal_texts(G, s)
    assert not [t for t in options if t.startswith("fleet")]
    assert "army Athenai" in options
    assert seen(s)["talents"] == 4


def test_preparation_fleet_placed_in_controlled_port_without_enemy_fleet() -> None:
    """RB 5.1 placement: a fleet goes to the port of a city you control, but not to a
    port holding an enemy fleet; never to a city without a port or a neutral city."""
    s = staged(
        "prep-build",
        persia={"Abydos": (1, 0), "Ephesos": (1, 0), "Korinthos": (1, 0), "Pella": (1, 0)},
        greece={"Abydos": (0, 1), "Athenai": (1, 1)},
    )
    assert [t for t in legal_texts(G, s) if t.startswith("fleet")] == [
        "fleet Ephesos",
        "fleet Pella",
    ]


def test_preparation_bridge_costs_six_and_needs_persian_control_of_abydos() -> None:
    """RB 5.1: if the Persians occupy Abydos they may build the pontoon bridge for 6
    talents; it opens the Abydos-Pella road."""
    s = staged("prep-build", persia=SETUP_P, greece=SETUP_G)
    assert "bridge" in legal_texts(G, s)
    act(G, s, "bridge")
    assert seen(s)["bridge"] is True and seen(s)["talents"] == 6
    assert "bridge" not in legal_texts(G, s)  # built once
    taken = staged(
        "prep-build", persia={"Ephesos": (2, 1)}, greece={"Abydos": (1, 0), "Athenai": (1, 1)}
    )
    assert "bridge" not in legal_texts(G, taken)


def test_preparation_bridge_occupying_abydos_read_as_controlling_it() -> None:
    """RB 5.1 says "occupy" Abydos; decision 7.4 (as RTT) reads it as Persian control, so an
    empty Abydos (a Persian Major city) suffices."""
    s = staged("prep-build", persia={"Ephesos": (2, 1)}, greece=SETUP_G)
    assert "bridge" in legal_texts(G, s)


def test_preparation_bridge_not_affordable_below_six_talents() -> None:
    """RB 5.1 table: the bridge costs 6 talents."""
    s = staged("prep-build", talents=5, persia=SETUP_P, greece=SETUP_G)
    assert "bridge" not in legal_texts(G, s)


def test_preparation_greeks_cannot_build_the_bridge() -> None:
    """RB 5.2: the Greeks cannot build a pontoon bridge (even holding Abydos)."""
    s = staged(
        "prep-build",
        GREECE,
        talents=6,
        persia={"Ephesos": (2, 1)},
        greece={"Abydos": (1, 0), "Athenai": (1, 1)},
    )
    assert "bridge" not in legal_texts(G, s)


def test_preparation_unspent_talents_are_not_required_and_are_lost() -> None:
    """RB 5.1, 5.2: spending every talent is not necessary; unspent talents are lost
    (decision 7.1: `done` is always legal)."""
    s = G.new(G.options({}))
    act(G, s, "buy 0")
    assert "done" in legal_texts(G, s)
    act(G, s, "done", "buy 0")
    assert seen(s)["talents"] == 6  # Greece: nothing carried over from anyone


def test_preparation_buying_limited_by_draw_pile_and_discards() -> None:
    """RB 5.4: with the draw pile and the discards used up, no more cards can be bought;
    so a purchase is at most what the pile and the discards hold together (here 2 + 3)."""
    s = staged("prep-buy", hands=([], list(range(1, 12))), discard=[12, 13, 14])
    assert legal_texts(G, s) == [f"buy {n}" for n in range(6)]


def test_preparation_empty_draw_pile_takes_the_shuffled_discards() -> None:
    """RB 5.4: when the draw pile is empty, the discard pile is shuffled into a new one."""
    s = staged("prep-buy", hands=([], list(range(1, 12))), discard=[12, 13, 14])
    act(G, s, "buy 3", "draw 15", "draw 16")
    assert outcomes(s) == {
        "draw 12": Fraction(1, 3),
        "draw 13": Fraction(1, 3),
        "draw 14": Fraction(1, 3),
    }
    assert seen(s)["discard"] == []
    act(G, s, "draw 13")
    v = seen(s, PERSIA)
    assert v["hands"]["persia"]["cards"] == [13, 15, 16]
    assert v["draw_pile"] == 2


# -- Sudden Death of the Great King (RB 5.3) -----------------------------------------------


def test_sudden_death_drawn_while_buying_discards_the_whole_persian_hand() -> None:
    """RB 5.3: drawing Sudden Death in 5.1, Persia discards every card in hand (the kept
    card, the cards just bought and Sudden Death); the draw pile and the discards are
    shuffled into a new draw pile; the Greek hand is untouched."""
    s = staged("prep-buy", talents=10, hands=([5], [2, 3]), discard=[7])
    act(G, s, "buy 2", "draw 11", "draw 9")
    v = seen(s, GREECE)
    assert v["hands"]["persia"]["count"] == 0
    assert v["hands"]["greece"]["cards"] == [2, 3]
    assert v["discard"] == [] and v["draw_pile"] == 14


def test_sudden_death_ends_the_campaign_no_raising_no_greek_preparation() -> None:
    """RB 5.3: the campaign ends at once: Persia raises nothing and builds no bridge, the
    Greek Preparation is skipped, play proceeds to the next campaign (Persian
    Preparation, full budget since the hand was discarded)."""
    s = staged("prep-buy", talents=10, hands=([5], []))
    events = act(G, s, "buy 2", "draw 11", "draw 9")
    v = seen(s)
    assert (v["campaign"], v["phase"], v["to_act"], v["talents"]) == (2, "prep-buy", "persia", 12)
    assert "build" not in kinds(events)
    assert not [e for e in events if e.kind == "preparation" and e.data["side"] == "greece"]


def test_sudden_death_in_preparation_skips_operations_supply_and_scoring() -> None:
    """RB 5.3: there is no scoring for the cancelled campaign, and no supply either (an
    army out of supply stays, the score marker does not move)."""
    s = staged(
        "prep-buy",
        score=3,
        persia=SETUP_P,
        greece={"Athenai": (1, 1), "Sparta": (1, 1), "Naxos": (1, 0)},
    )
    act(G, s, "buy 1", "draw 11")
    assert seen(s)["score"] == 3
    assert armies(s, "Naxos") == (0, 1)
    assert seen(s)["campaign"] == 2


def test_sudden_death_first_darius_then_xerxes_army_on_the_portrait() -> None:
    """RB 5.3: the first time Darius dies, the second time Xerxes is assassinated; each
    time a Persian army from reserve goes onto the portrait for good."""
    s = staged("prep-buy", persia=SETUP_P, greece=SETUP_G)
    events = act(G, s, "buy 1", "draw 11")
    assert [e.data["king"] for e in events if e.kind == "sudden-death"] == ["Darius"]
    v = seen(s)
    assert (v["kings_dead"], v["portraits"]["persia"]) == (1, 1)
    assert reserve(s, "persia")[0] == 24 - 4 - 1
    events = act(G, s, "buy 1", "draw 11")
    assert [e.data["king"] for e in events if e.kind == "sudden-death"] == ["Xerxes"]
    assert (seen(s)["kings_dead"], seen(s)["portraits"]["persia"]) == (2, 2)
    assert seen(s)["campaign"] == 3


def test_sudden_death_portrait_army_taken_from_the_map_when_reserve_is_empty() -> None:
    """RB 5.3: with every army raised, the Persian player chooses which army on the map
    goes onto the portrait."""
    s = staged("prep-buy", persia={"Abydos": (12, 0), "Ephesos": (12, 1)}, greece=SETUP_G)
    act(G, s, "buy 1", "draw 11")
    assert G.to_act(s) == PERSIA
    assert legal_texts(G, s) == ["remove Abydos", "remove Ephesos"]
    act(G, s, "remove Ephesos")
    assert armies(s, "Ephesos") == (11, 0)
    assert seen(s)["portraits"]["persia"] == 1
    assert seen(s)["campaign"] == 2


def test_sudden_death_in_the_fifth_campaign_ends_the_game() -> None:
    """RB 5.3: the game ends if the cancelled campaign is the fifth (on the current score)."""
    s = staged("prep-buy", campaign=5, score=-2, persia=SETUP_P, greece=SETUP_G)
    act(G, s, "buy 1", "draw 11")
    out = G.outcome(s)
    assert out is not None and out.results == ("loss", "win")
    assert G.to_act(s) is None


def test_sudden_death_third_draw_keeps_the_card_for_movement_only() -> None:
    """RB 5.3: at most twice; drawn again, the event does not occur and the Persians may
    use the card for movement."""
    s = staged("prep-buy", kings=2, persia=SETUP_P, greece=SETUP_G)
    act(G, s, "buy 1", "draw 11")
    v = seen(s, PERSIA)
    assert (v["phase"], v["campaign"], v["kings_dead"]) == ("prep-build", 1, 2)
    assert v["hands"]["persia"]["cards"] == [11]
    act(G, s, "done", "buy 0", "done")
    assert legal_texts(G, s) == ["pass", "move 11"]


def test_sudden_death_drawn_by_greece_has_no_effect() -> None:
    """RB 5.3: only the Persian player drawing the card triggers the event."""
    s = staged("prep-buy", GREECE, talents=6, persia=SETUP_P, greece=SETUP_G)
    act(G, s, "buy 1", "draw 11")
    v = seen(s, GREECE)
    assert (v["phase"], v["kings_dead"]) == ("prep-build", 0)
    assert v["hands"]["greece"]["cards"] == [11]


def test_sudden_death_via_pacification_ends_operations_then_supply_and_scoring() -> None:
    """RB 5.3: if the king dies through Pacification of Babylon or Egypt, the Operations
    Phase ends (Greece gets no further turn) but Supply and Scoring are carried out."""
    s = position(
        G,
        hands=([16, 4], [2]),
        greece={"Athenai": (1, 1), "Sparta": (1, 1), "Korinthos": (1, 0), "Naxos": (1, 0)},
        persia=SETUP_P,
    )
    act(G, s, "event 16", "done", "draw 11")
    v = seen(s, GREECE)
    assert v["kings_dead"] == 1 and v["portraits"]["persia"] == 1
    assert (v["campaign"], v["phase"], v["talents"]) == (2, "prep-buy", 12)
    assert armies(s, "Naxos") == (0, 0)  # supply was carried out
    assert v["score"] == -1  # scoring after supply: Persia 4, Greece 5 (Naxos starved)
    assert v["hands"]["greece"]["cards"] == [2]
    assert v["hands"]["persia"]["count"] == 0


def test_sudden_death_via_pacification_reshuffles_the_pile() -> None:
    """RB 5.3 (decision 7.10): the draw pile and the discards are shuffled together in
    this case too."""
    s = position(G, hands=([16, 4], []), discard=[1, 2], persia=SETUP_P, greece=SETUP_G)
    act(G, s, "event 16", "done", "draw 11")
    v = seen(s)
    assert v["discard"] == [] and v["draw_pile"] == 16


# -- operations (RB 4.3, 6.1, 6.2) ------------------------------------------------------------


def test_operations_persia_plays_first() -> None:
    """RB 6.1: after both Preparations, the Persian player decides first."""
    s = G.new(G.options({}))
    act(G, s, "buy 0", "done", "buy 0", "done")
    v = seen(s)
    assert (v["phase"], v["to_act"]) == ("operations", "persia")


def test_operations_turn_is_event_movement_or_pass() -> None:
    """RB 6.1, 6.3: a card is played for its event or for a movement; or the player passes."""
    s = position(G, hands=([4], []))
    assert legal_texts(G, s) == ["pass", "event 4", "move 4"]


def test_operations_movement_card_ignores_the_event() -> None:
    """RB 6.3: a card used for movement means its event has not occurred."""
    s = position(G, hands=([4], []))
    act(G, s, "move 4", "land Abydos", "armies 1", "to Ephesos")
    assert seen(s)["carneia"] is False
    assert armies(s, "Ephesos") == (3, 0)


def test_operations_played_card_goes_face_up_on_the_discard_pile() -> None:
    """RB 6.2: place the played card face up on the discard pile (both sides see it)."""
    s = position(G, hands=([4, 16], [2]))
    act(G, s, "event 4")
    assert seen(s, GREECE)["discard"] == [4]
    assert seen(s, PERSIA)["hands"]["persia"]["cards"] == [16]


def test_operations_players_alternate() -> None:
    """RB 6.1: once Persia has played, it is the Greek player's turn, and so on."""
    s = position(G, hands=([4, 16], [2]))
    act(G, s, "event 4")
    assert G.to_act(s) == GREECE


def test_operations_a_player_who_passed_may_play_again() -> None:
    """RB 6.1 (playing after passing): if the opponent does not pass after you pass, it is
    your turn again, and you may play a card."""
    s = position(G, hands=([4], [3]))
    act(G, s, "pass", "move 3", "land Korinthos", "armies 1", "to Thebai")
    assert G.to_act(s) == PERSIA
    assert legal_texts(G, s) == ["pass", "event 4", "move 4"]


def test_operations_two_passes_in_succession_end_the_phase() -> None:
    """RB 4.3, 6.1: when both players pass in succession the Operations Phase ends,
    whatever cards remain."""
    s = position(G, hands=([4], [3]))
    act(G, s, "pass")
    assert seen(s)["phase"] == "operations"
    act(G, s, "pass")
    assert seen(s)["phase"] == "supply-keep"


def test_operations_empty_hand_must_pass() -> None:
    """RB 6.1 (passing): a player with no cards must pass."""
    s = position(G, hands=([4], []), active=GREECE)
    assert legal_texts(G, s) == ["pass"]


def test_operations_end_when_both_hands_are_empty() -> None:
    """RB 6.1: if both players have no cards left, the Operations Phase ends."""
    s = position(G, hands=([4], []), persia=SETUP_P, greece=SETUP_G)
    act(G, s, "event 4")
    v = seen(s)
    assert v["campaign"] == 2 and v["phase"] == "prep-buy"
    assert v["score"] == -1  # supply and scoring were carried out


def test_operations_lightning_cards_are_not_turn_events() -> None:
    """RB 6.1: lightning cards are played against an operation or an event, not on a
    turn; they may still be played for movement."""
    s = position(G, hands=([], [4, 5, 6, 9, 12, 15]), active=GREECE)
    assert [t for t in legal_texts(G, s) if t.startswith("event")] == []
    assert "move 12" in legal_texts(G, s)


# -- control (RB 5, "Control of cities") ---------------------------------------------------


def test_control_a_city_occupied_by_an_army() -> None:
    """RB control: a city occupied by at least one of your armies is yours."""
    s = position(G, persia={"Thebai": (1, 0)}, greece={"Delphi": (1, 0)})
    assert control(s, "Thebai") == "persia" and control(s, "Delphi") == "greece"


def test_control_major_city_without_army_belongs_to_its_side() -> None:
    """RB control: without enemy armies each side controls its Major cities."""
    s = position(G, persia={"Naxos": (1, 0)}, greece={"Naxos": (0, 1)})
    assert [control(s, n) for n in ("Abydos", "Ephesos", "Athenai", "Sparta")] == [
        "persia",
        "persia",
        "greece",
        "greece",
    ]


def test_control_city_without_army_is_not_controlled() -> None:
    """RB control: a (non-Major) city with no occupying army is not controlled."""
    s = position(G, persia=SETUP_P, greece=SETUP_G)
    assert control(s, "Thebai") is None and control(s, "Naxos") is None


def test_control_fleet_alone_gives_no_control() -> None:
    """RB control (bold): a fleet in a port does not control the city."""
    s = position(G, persia={"Naxos": (0, 2), "Athenai": (0, 1)}, greece={"Athenai": (0, 1)})
    assert control(s, "Naxos") is None
    assert control(s, "Athenai") == "greece"


def test_control_enemy_army_in_a_major_city_takes_it() -> None:
    """RB control: a Major city holding an enemy army belongs to the enemy."""
    s = position(G, persia={"Athenai": (1, 0)}, greece={"Sparta": (1, 0)})
    assert control(s, "Athenai") == "persia"


# -- land movement (RB 6.3, 6.4) -------------------------------------------------------------


def test_land_move_one_or_all_armies_of_one_city() -> None:
    """RB 6.4: move one or more (or all) armies from one city; none need stay behind."""
    s = position(G, persia={"Abydos": (3, 0)}, greece=SETUP_G, hands=([4], []))
    act(G, s, "move 4", "land Abydos")
    assert legal_texts(G, s) == ["armies 1", "armies 2", "armies 3"]
    act(G, s, "armies 3", "to Ephesos")
    assert armies(s, "Abydos") == (0, 0) and armies(s, "Ephesos") == (3, 0)


def test_land_move_stops_on_entering_an_empty_city_it_does_not_control() -> None:
    """RB 6.4: armies must stop in a city without armies that they do not control."""
    s = position(G, persia={"Abydos": (2, 0)}, greece=SETUP_G, bridge=True, hands=([4], []))
    act(G, s, "move 4", "land Abydos", "armies 2")
    assert dest_options(s) == ["Ephesos", "Pella"]


def test_land_move_passes_through_cities_it_controls_no_distance_limit() -> None:
    """RB 6.4 and its example: from Ephesos through Abydos, over the bridge, through Pella
    and Larissa (Persian armies there), to Delphi (enemy: battle) or Thebai (must stop)."""
    s = position(
        G,
        persia={"Ephesos": (3, 0), "Pella": (1, 0), "Larissa": (1, 0)},
        greece={"Delphi": (1, 0), "Athenai": (1, 1), "Abydos": (0, 1)},
        bridge=True,
        hands=([4], []),
    )
    act(G, s, "move 4", "land Ephesos", "armies 3")
    assert dest_options(s) == ["Abydos", "Delphi", "Larissa", "Pella", "Thebai"]


def test_land_move_passes_through_own_major_city_without_army() -> None:
    """RB 6.4: armies may pass cities under their control: an empty own Major city."""
    s = position(G, persia={"Pella": (2, 0)}, greece=SETUP_G, bridge=True, hands=([4], []))
    act(G, s, "move 4", "land Pella", "armies 2")
    assert dest_options(s) == ["Abydos", "Ephesos", "Larissa"]


def test_land_move_not_stopped_by_enemy_fleet_in_a_controlled_city() -> None:
    """RB 6.4: if the city has only enemy fleets in port and you control it, you need not
    stop (the RB example's Greek fleet at Abydos)."""
    s = position(
        G,
        persia={"Pella": (2, 0)},
        greece={"Abydos": (0, 2), "Athenai": (1, 0)},
        bridge=True,
        hands=([4], []),
    )
    act(G, s, "move 4", "land Pella", "armies 2")
    assert "Ephesos" in dest_options(s)


def test_land_move_stops_in_empty_enemy_major_city_and_takes_it() -> None:
    """RB 6.4: an empty enemy Major city is not controlled by the mover: the armies stop
    there (no battle) and take control."""
    s = position(
        G,
        persia={"Ephesos": (1, 1)},
        greece={"Pella": (2, 0), "Athenai": (1, 0)},
        bridge=True,
        hands=([], [4]),
        active=GREECE,
    )
    act(G, s, "move 4", "land Pella", "armies 2")
    assert dest_options(s) == ["Abydos", "Larissa"]
    events = act(G, s, "to Abydos")
    assert "battle" not in kinds(events)
    assert control(s, "Abydos") == "greece"


def test_land_move_into_enemy_army_stops_and_fights() -> None:
    """RB 6.4, 7: entering a city occupied by an enemy army, armies stop and a land battle
    takes place at once."""
    s = position(
        G, persia={"Thebai": (2, 0)}, greece={"Delphi": (1, 0), "Athenai": (1, 0)}, hands=([4], [])
    )
    events = act(G, s, "move 4", "land Thebai", "armies 2", "to Delphi")
    assert [e.data for e in events if e.kind == "battle"] == [
        {"kind": "land", "city": "Delphi", "attacker": "persia"}
    ]
    assert G.to_act(s) == CHANCE


def test_land_move_over_the_bridge_only_while_it_stands() -> None:
    """RB 2.1, 6.4: no army may use the Abydos-Pella road unless the bridge is built."""
    s = position(G, persia={"Abydos": (2, 0)}, greece=SETUP_G, hands=([4], []))
    act(G, s, "move 4", "land Abydos", "armies 2")
    assert dest_options(s) == ["Ephesos"]


def test_land_move_greeks_may_cross_the_bridge_too() -> None:
    """RB 6.4: the bridge opens the road, for armies of either side (digest 1.3)."""
    s = position(
        G,
        persia={"Ephesos": (1, 0)},
        greece={"Pella": (1, 0), "Athenai": (1, 0)},
        bridge=True,
        hands=([], [4]),
        active=GREECE,
    )
    act(G, s, "move 4", "land Pella", "armies 1")
    assert "Abydos" in dest_options(s)


def test_land_move_not_from_a_city_without_roads() -> None:
    """RB 2.1: Eretria and Naxos have no road: their armies cannot move by land."""
    s = position(G, persia={"Naxos": (2, 0)}, greece=SETUP_G, hands=([4], []))
    assert legal_texts(G, s) == ["pass", "event 4"]  # no land move, no fleet: no movement


def test_carneia_greek_armies_in_sparta_cannot_move_by_land() -> None:
    """Carneia Festival (decision 7.9, as RTT): Greek armies in Sparta may not move by land
    for the rest of the campaign."""
    s = position(
        G,
        persia=SETUP_P,
        greece={"Sparta": (2, 1), "Korinthos": (1, 0)},
        carneia=True,
        hands=([], [3]),
        active=GREECE,
    )
    act(G, s, "move 3")
    assert legal_texts(G, s) == ["land Korinthos", "sea Sparta"]


# -- naval movement (RB 6.5) ---------------------------------------------------------------


def test_naval_move_from_a_port_to_any_other_port() -> None:
    """RB 6.5: fleets sail from their port to the port of your choice (not along roads)."""
    s = position(G, persia={"Ephesos": (0, 2)}, greece=SETUP_G, hands=([4], []))
    act(G, s, "move 4", "sea Ephesos", "fleets 1")
    assert dest_options(s) == ["Abydos", "Athenai", "Eretria", "Naxos", "Pella", "Sparta", "Thebai"]


def test_naval_move_transports_one_army_per_fleet() -> None:
    """RB 6.5: each moving fleet can carry one army of its port city."""
    s = position(G, persia={"Ephesos": (5, 3)}, greece=SETUP_G, hands=([4], []))
    act(G, s, "move 4", "sea Ephesos", "fleets 2")
    assert legal_texts(G, s) == ["carry 0", "carry 1", "carry 2"]


def test_naval_move_transports_at_most_three_armies() -> None:
    """RB 6.5: at most three armies, even with four or more fleets moving."""
    s = position(G, persia={"Ephesos": (5, 5)}, greece=SETUP_G, hands=([4], []))
    act(G, s, "move 4", "sea Ephesos", "fleets 5")
    assert legal_texts(G, s) == ["carry 0", "carry 1", "carry 2", "carry 3"]


def test_naval_move_carried_armies_land_in_the_destination_city() -> None:
    """RB 6.5: with no enemy fleet at the destination, carried armies land at once."""
    s = position(G, persia={"Ephesos": (3, 2)}, greece=SETUP_G, hands=([4], []))
    act(G, s, "move 4", "sea Ephesos", "fleets 2", "carry 2", "to Naxos")
    assert armies(s, "Naxos") == (2, 0) and fleets(s, "Naxos") == (2, 0)
    assert armies(s, "Ephesos") == (1, 0)


def test_naval_move_no_battle_between_fleets_and_armies() -> None:
    """RB 6.5, 7: sailing into the port of an enemy-held city with no enemy fleet causes
    no battle; the city stays the enemy's."""
    s = position(
        G, persia={"Ephesos": (1, 1)}, greece={"Thebai": (2, 0), "Athenai": (1, 0)}, hands=([4], [])
    )
    events = act(G, s, "move 4", "sea Ephesos", "fleets 1", "carry 0", "to Thebai")
    assert "battle" not in kinds(events)
    assert fleets(s, "Thebai") == (1, 0) and control(s, "Thebai") == "greece"


def test_naval_move_into_enemy_fleet_naval_battle_then_landing_then_land_battle() -> None:
    """RB 6.5, 7.2: an enemy fleet at the destination means a naval battle first; the
    armies of the surviving fleets then land, and fight the enemy armies there."""
    s = position(G, persia={"Ephesos": (2, 2)}, greece={"Athenai": (1, 1)}, hands=([4], []))
    events = act(G, s, "move 4", "sea Ephesos", "fleets 2", "carry 2", "to Athenai")
    assert [e.data["kind"] for e in events if e.kind == "battle"] == ["naval"]
    events = act(G, s, "roll 4", "roll 2")  # Persia 4, Greece 2: the Greek fleet sinks
    assert fleets(s, "Athenai") == (2, 0)
    assert [e.data["kind"] for e in events if e.kind == "battle"] == ["land"]
    assert armies(s, "Athenai") == (2, 1)
    assert G.to_act(s) == CHANCE


def test_naval_move_group_travels_together_from_one_port() -> None:
    """RB 6.5: all moving fleets come from one port and go to the same port."""
    s = position(G, persia={"Ephesos": (0, 2), "Abydos": (0, 1)}, greece=SETUP_G, hands=([4], []))
    act(G, s, "move 4", "sea Ephesos", "fleets 2", "to Naxos")
    assert fleets(s, "Naxos") == (2, 0) and fleets(s, "Abydos") == (1, 0)


# -- land battles (RB 7.1) ---------------------------------------------------------------


def _persian_attack(p: int, g: int, where: str = "Thebai", **kw: Any) -> State:
    """Persia (p armies in Larissa) attacks `where` (g Greek armies) by land."""
    persia = {"Larissa": (p, 0)}
    greece = {where: (g, 0), "Athenai": (1, 0)}
    s = position(G, persia=persia, greece=greece, hands=([4, 3], []), **kw)
    act(G, s, "move 4", "land Larissa", f"armies {p}", f"to {where}")
    return s


def test_land_battle_one_die_per_army_at_most_three() -> None:
    """RB 7.1: each player rolls one die per army in the battle, at most three; only the
    highest die counts (so a throw is its highest die)."""
    s = _persian_attack(5, 1)
    assert outcomes(s) == {f"roll {f}": Fraction(f**3 - (f - 1) ** 3, 216) for f in range(1, 7)}
    act(G, s, "roll 1")
    assert outcomes(s) == {f"roll {f}": Fraction(1, 6) for f in range(1, 7)}
    s = _persian_attack(2, 1)
    assert outcomes(s)["roll 6"] == Fraction(11, 36)


def test_land_battle_higher_die_wins_loser_removes_one_army() -> None:
    """RB 7.1: the higher result wins the round; the loser removes one army to reserve."""
    s = _persian_attack(3, 2)
    act(G, s, "roll 2", "roll 3")
    assert armies(s, "Thebai") == (2, 2)
    assert reserve(s, "persia")[0] == 24 - 3 + 1


def test_land_battle_persian_die_counts_at_most_four() -> None:
    """RB 7.1: a Persian roll of 4 or more is worth only 4 (a 6 counts 4 outside Asia):
    a Persian 6 loses to a Greek 5."""
    s = _persian_attack(3, 2)
    events = act(G, s, "roll 6", "roll 5")
    assert [e.data["counts"] for e in events if e.kind == "roll"] == [4, 5]
    assert armies(s, "Thebai") == (2, 2)


def test_land_battle_persian_die_counts_at_most_five_in_abydos_and_ephesos() -> None:
    """RB 7.1 exception: at Ephesos or Abydos, attacking or defending, a Persian 5 or more
    is a 5: a Persian 6 ties a Greek 5 there and beats a Greek 4."""
    s = position(
        G,
        persia={"Ephesos": (2, 0)},
        greece={"Abydos": (2, 0), "Athenai": (1, 0)},
        hands=([], [4]),
        active=GREECE,
    )
    act(G, s, "move 4", "land Abydos", "armies 2", "to Ephesos")
    events = act(G, s, "roll 5", "roll 6")
    assert [e.data["counts"] for e in events if e.kind == "roll"] == [5, 5]
    assert armies(s, "Ephesos") == (1, 1)  # a tie
    act(G, s, "continue", "continue", "roll 4", "roll 6")
    assert armies(s, "Ephesos") == (1, 0)


def test_land_battle_greek_dice_are_not_capped() -> None:
    """RB 7.1: only Persian dice are capped: a Greek 6 beats a Persian 6 even in Ephesos."""
    s = position(
        G,
        persia={"Ephesos": (1, 0)},
        greece={"Abydos": (1, 0), "Athenai": (1, 0)},
        hands=([], [4, 3]),
        active=GREECE,
    )
    act(G, s, "move 4", "land Abydos", "armies 1", "to Ephesos", "decline", "roll 6", "roll 6")
    assert armies(s, "Ephesos") == (0, 1)
    assert control(s, "Ephesos") == "greece"


def test_land_battle_tie_both_sides_remove_an_army() -> None:
    """RB 7.1: if the results are equal, each player removes one army."""
    s = _persian_attack(3, 2)
    act(G, s, "roll 3", "roll 3")
    assert armies(s, "Thebai") == (2, 1)


def test_land_battle_ends_when_one_side_is_eliminated() -> None:
    """RB 7.1: the battle ends when all the armies of one or both sides are gone."""
    s = _persian_attack(2, 1)
    act(G, s, "roll 4", "roll 1")
    assert armies(s, "Thebai") == (2, 0) and control(s, "Thebai") == "persia"
    assert (seen(s)["phase"], G.to_act(s)) == ("operations", GREECE)


def test_land_battle_tie_can_eliminate_both_sides() -> None:
    """RB 7.1: when both sides lose their last army the city is left empty."""
    s = _persian_attack(1, 1)
    act(G, s, "roll 2", "roll 2")
    assert armies(s, "Thebai") == (0, 0) and control(s, "Thebai") is None


def test_land_battle_after_each_round_attacker_then_defender_may_retreat() -> None:
    """RB 7.1 retreat: after a round the attacker, then the defender, may retreat; if both
    go on, a new round is rolled."""
    s = _persian_attack(3, 2)
    act(G, s, "roll 3", "roll 2")
    assert (G.to_act(s), legal_texts(G, s)) == (PERSIA, ["continue", "retreat Larissa"])
    act(G, s, "continue")
    assert G.to_act(s) == GREECE
    assert legal_texts(G, s) == ["continue", "retreat Athenai"]
    act(G, s, "continue")
    assert G.to_act(s) == CHANCE


def test_land_battle_attacker_retreats_to_the_adjacent_city_it_came_from() -> None:
    """RB 7.1: a retreating attacker returns to the adjacent city it came from."""
    s = _persian_attack(3, 2)
    act(G, s, "roll 3", "roll 3", "retreat Larissa")
    assert armies(s, "Larissa") == (2, 0) and armies(s, "Thebai") == (0, 1)
    assert seen(s)["phase"] == "operations"


def test_land_battle_attacker_retreat_after_a_long_move_only_to_the_last_city_on_its_route() -> (
    None
):
    """RB 7.1 (decision 7.5): after a long move the attacker goes back to the adjacent city
    it came from: the last city of its route, not any adjacent city it controls."""
    s = position(
        G,
        persia={"Pella": (3, 0), "Larissa": (1, 0), "Korinthos": (1, 0)},
        greece={"Thebai": (2, 0), "Athenai": (1, 0)},
        hands=([4], []),
    )
    act(G, s, "move 4", "land Pella", "armies 3", "to Thebai", "roll 3", "roll 3")
    assert legal_texts(G, s) == ["continue", "retreat Larissa"]


def test_land_battle_attacker_landed_by_sea_retreats_to_the_embarkation_port() -> None:
    """RB 7.1: armies transported by fleets return to the port city where they embarked."""
    s = position(
        G,
        persia={"Ephesos": (3, 2)},
        greece={"Eretria": (2, 0), "Athenai": (1, 0)},
        hands=([4, 3], []),
    )
    act(G, s, "move 4", "sea Ephesos", "fleets 2", "carry 2", "to Eretria", "roll 3", "roll 3")
    assert legal_texts(G, s) == ["continue", "retreat by sea Ephesos"]
    act(G, s, "retreat by sea Ephesos")
    assert armies(s, "Ephesos") == (2, 0) and fleets(s, "Ephesos") == (2, 0)
    assert armies(s, "Eretria") == (0, 1) and fleets(s, "Eretria") == (0, 0)


def test_land_battle_defender_retreats_by_road_to_adjacent_city_it_controls() -> None:
    """RB 7.1: the defender retreats by road to an adjacent city it controls, never to a
    city neither side controls."""
    s = position(
        G,
        persia={"Larissa": (3, 0)},
        greece={"Thebai": (2, 0), "Korinthos": (1, 0), "Athenai": (0, 0)},
        hands=([4], []),
    )
    act(G, s, "move 4", "land Larissa", "armies 3", "to Thebai", "roll 3", "roll 2", "continue")
    assert legal_texts(G, s) == ["continue", "retreat Athenai", "retreat Korinthos"]
    act(G, s, "retreat Korinthos")
    assert armies(s, "Korinthos") == (0, 2) and armies(s, "Thebai") == (3, 0)


def test_land_battle_defender_retreat_by_sea_needs_as_many_fleets_as_armies() -> None:
    """RB 7.1: retreating armies may board the defender's fleets in port for a port city it
    controls, only if every army can be carried: no naval retreat with fewer fleets."""
    s = position(
        G,
        persia={"Larissa": (3, 0)},
        greece={"Thebai": (2, 1), "Naxos": (1, 0), "Athenai": (0, 0)},
        hands=([4], []),
    )
    act(G, s, "move 4", "land Larissa", "armies 3", "to Thebai", "roll 3", "roll 4", "continue")
    by_sea = [t for t in legal_texts(G, s) if "by sea" in t]
    assert by_sea == []  # 2 armies, 1 fleet
    s = position(
        G,
        persia={"Larissa": (3, 0)},
        greece={"Thebai": (2, 3), "Naxos": (1, 0), "Athenai": (0, 0)},
        hands=([4], []),
    )
    act(G, s, "move 4", "land Larissa", "armies 3", "to Thebai", "roll 3", "roll 4", "continue")
    assert [t for t in legal_texts(G, s) if "by sea" in t] == [
        "retreat by sea Athenai",
        "retreat by sea Sparta",
        "retreat by sea Naxos",
    ]
    act(G, s, "retreat by sea Naxos")
    assert armies(s, "Naxos") == (0, 3) and fleets(s, "Naxos") == (0, 3)  # all fleets go
    assert fleets(s, "Thebai") == (0, 0)


def test_land_battle_defender_who_cannot_retreat_fights_on() -> None:
    """RB 7.1: if the defender cannot retreat, the battle goes on until one side (or both)
    is eliminated."""
    s = _persian_attack(3, 2, where="Delphi")
    act(G, s, "roll 3", "roll 4", "continue")
    assert G.to_act(s) == CHANCE  # Greece in Delphi has nowhere to go


# -- naval battles (RB 7.2) --------------------------------------------------------------


def _naval_attack(pf: int, carry: int, gf: int, where: str = "Naxos", ga: int = 0) -> State:
    """Persia sails pf fleets from Ephesos (3 armies), carrying `carry`, against gf Greek
    fleets (and ga armies) at `where`."""
    greece = {"Athenai": (1, 0), where: (ga, gf)}
    s = position(G, persia={"Ephesos": (3, pf)}, greece=greece, hands=([4, 3], []))
    act(G, s, "move 4", "sea Ephesos", f"fleets {pf}", f"carry {carry}", f"to {where}")
    return s


def test_naval_battle_one_die_per_fleet_at_most_three_persian_cap() -> None:
    """RB 7.2: dice per fleet, at most three; the highest counts; Persian 4+ is 4."""
    s = _naval_attack(4, 0, 1)
    assert outcomes(s)["roll 6"] == Fraction(91, 216)
    events = act(G, s, "roll 6", "roll 5")
    assert [e.data["counts"] for e in events if e.kind == "roll"] == [4, 5]
    assert fleets(s, "Naxos") == (3, 1)


def test_naval_battle_persian_die_counts_five_at_abydos_and_ephesos() -> None:
    """RB 7.1, 7.2 exception: at Abydos or Ephesos a Persian 5+ at sea counts 5."""
    s = position(
        G,
        persia={"Abydos": (1, 1)},
        greece={"Naxos": (0, 1), "Athenai": (1, 0)},
        hands=([], [4]),
        active=GREECE,
    )
    act(G, s, "move 4", "sea Naxos", "fleets 1", "to Abydos")
    events = act(G, s, "roll 5", "roll 6")
    assert [e.data["counts"] for e in events if e.kind == "roll"] == [5, 5]
    assert fleets(s, "Abydos") == (0, 0)


def test_naval_battle_loser_removes_a_fleet_not_carrying_an_army_first() -> None:
    """RB 7.2: with carrying and empty fleets, the loss is an empty fleet."""
    s = _naval_attack(3, 2, 1)
    act(G, s, "roll 1", "roll 6")
    assert fleets(s, "Naxos") == (2, 1)
    assert reserve(s, "persia")[0] == 24 - 3  # no army lost
    assert armies(s, "Ephesos") == (1, 0)


def test_naval_battle_army_sinks_with_its_fleet() -> None:
    """RB 7.2: if the eliminated fleet was carrying an army, that army is lost too."""
    s = _naval_attack(2, 2, 2)
    act(G, s, "roll 1", "roll 6")
    assert fleets(s, "Naxos") == (1, 2)
    assert reserve(s, "persia") == (24 - 3 + 1, 6 - 2 + 1)
    act(G, s, "retreat by sea Ephesos")
    assert armies(s, "Ephesos") == (2, 0)  # one army was left home, one came back


def test_naval_battle_lost_sinks_every_carried_army() -> None:
    """RB 7.2: an attacker losing all its fleets loses the armies they carried; nothing
    lands."""
    s = _naval_attack(1, 1, 1, where="Thebai", ga=1)
    events = act(G, s, "roll 2", "roll 5")
    assert fleets(s, "Thebai") == (0, 1)
    assert armies(s, "Thebai") == (0, 1)
    assert reserve(s, "persia") == (24 - 2, 6)
    assert "land" not in [e.data["kind"] for e in events if e.kind == "battle"]


def test_naval_battle_tie_both_lose_a_fleet() -> None:
    """RB 7.2: equal results, each player eliminates a fleet."""
    s = _naval_attack(2, 0, 2)
    act(G, s, "roll 3", "roll 3")
    assert fleets(s, "Naxos") == (1, 1)


def test_naval_battle_attacker_retreat_disembarks_armies_at_origin() -> None:
    """RB 7.2: a retreating attacker's fleets return to the port the move started from,
    and the carried armies land in that city."""
    s = _naval_attack(3, 2, 2)
    act(G, s, "roll 3", "roll 3")
    assert legal_texts(G, s) == ["continue", "retreat by sea Ephesos"]
    act(G, s, "retreat by sea Ephesos")
    assert fleets(s, "Ephesos") == (2, 0) and armies(s, "Ephesos") == (3, 0)
    assert armies(s, "Naxos") == (0, 0)


def test_naval_battle_defender_retreats_to_a_port_city_it_controls_without_armies() -> None:
    """RB 7.2: the defender's fleets retreat to any port city it controls; unlike a land
    retreat they cannot carry armies."""
    s = position(
        G,
        persia={"Ephesos": (3, 2)},
        greece={"Thebai": (2, 2), "Athenai": (1, 0), "Naxos": (1, 0)},
        hands=([4], []),
    )
    act(
        G,
        s,
        "move 4",
        "sea Ephesos",
        "fleets 2",
        "carry 2",
        "to Thebai",
        "roll 3",
        "roll 2",
        "continue",
    )
    assert [t for t in legal_texts(G, s) if t != "continue"] == [
        "retreat by sea Athenai",
        "retreat by sea Sparta",
        "retreat by sea Naxos",
    ]
    events = act(G, s, "retreat by sea Naxos")
    assert fleets(s, "Naxos") == (0, 1) and armies(s, "Naxos") == (0, 1)  # one sank
    assert [e.data["kind"] for e in events if e.kind == "battle"] == ["land"]
    assert armies(s, "Thebai") == (2, 2)  # Persians landed; the Greek armies fight


def test_naval_battle_defender_may_not_retreat_into_a_port_with_enemy_fleets() -> None:
    """Decision 7.3: no retreat into a controlled port holding enemy fleets (naval
    defenders and land defenders by sea alike)."""
    s = position(
        G,
        persia={"Ephesos": (0, 2), "Sparta": (0, 1)},
        greece={"Naxos": (0, 2), "Athenai": (1, 0)},
        hands=([4], []),
    )
    act(G, s, "move 4", "sea Ephesos", "fleets 2", "to Naxos", "roll 3", "roll 2", "continue")
    assert legal_texts(G, s) == ["continue", "retreat by sea Athenai"]


def test_land_defender_may_not_retreat_by_sea_into_a_port_with_enemy_fleets() -> None:
    """Decision 7.3, land-battle side: the sea retreat avoids ports with enemy fleets."""
    s = position(
        G,
        persia={"Larissa": (3, 0), "Sparta": (0, 1)},
        greece={"Thebai": (1, 2), "Athenai": (0, 0)},
        hands=([4, 3], []),
    )
    act(G, s, "move 4", "land Larissa", "armies 3", "to Thebai", "roll 3", "roll 4", "continue")
    assert [t for t in legal_texts(G, s) if "by sea" in t] == ["retreat by sea Athenai"]


def test_destroyed_units_return_to_reserve_and_can_be_raised_again() -> None:
    """RB 7.1, 7.2: an eliminated army or fleet can be raised again next campaign."""
    s = _naval_attack(1, 0, 1)
    act(G, s, "roll 1", "roll 6")
    assert reserve(s, "persia")[1] == 6


# -- bridge destruction (RB 7.1) ----------------------------------------------------------


def test_bridge_greeks_may_destroy_it_after_winning_abydos_in_a_land_battle() -> None:
    """RB 7.1: after a land battle giving the Greeks control of Abydos, they may destroy the
    pontoon bridge at once."""
    s = position(
        G,
        persia={"Abydos": (1, 0), "Ephesos": (1, 0)},
        greece={"Pella": (2, 0), "Athenai": (1, 0)},
        bridge=True,
        hands=([], [4, 3]),
        active=GREECE,
    )
    act(G, s, "move 4", "land Pella", "armies 2", "to Abydos", "decline", "roll 6", "roll 1")
    assert (G.to_act(s), legal_texts(G, s)) == (GREECE, ["destroy bridge", "spare bridge"])
    act(G, s, "destroy bridge")
    assert seen(s)["bridge"] is False
    assert seen(s)["phase"] == "operations" and G.to_act(s) == PERSIA


def test_bridge_not_offered_when_the_greeks_fail_to_take_abydos() -> None:
    """RB 7.1: no destruction if the Greeks do not control Abydos after the battle."""
    s = position(
        G,
        persia={"Abydos": (2, 0), "Ephesos": (1, 0)},
        greece={"Pella": (1, 0), "Athenai": (1, 0)},
        bridge=True,
        hands=([], [4, 3]),
        active=GREECE,
    )
    act(G, s, "move 4", "land Pella", "armies 1", "to Abydos", "decline", "roll 1", "roll 5")
    assert seen(s)["phase"] == "operations" and seen(s)["bridge"] is True


def test_bridge_destruction_after_a_greek_move_into_empty_abydos() -> None:
    """Decision 7.4 (RTT, NOTES): the bridge may be burnt after any Greek move ending with
    Greek control of Abydos, battle or not."""
    s = position(
        G,
        persia={"Ephesos": (1, 0)},
        greece={"Pella": (1, 0), "Athenai": (1, 0)},
        bridge=True,
        hands=([], [4]),
        active=GREECE,
    )
    act(G, s, "move 4", "land Pella", "armies 1", "to Abydos")
    assert legal_texts(G, s) == ["destroy bridge", "spare bridge"]
    act(G, s, "spare bridge")
    assert seen(s)["bridge"] is True


def test_bridge_may_be_rebuilt_once_persia_controls_abydos_again() -> None:
    """RB 7.1: if the Persians regain control of Abydos, they may rebuild the bridge."""
    s = staged("prep-build", persia={"Abydos": (1, 0)}, greece={"Pella": (1, 0)})
    assert "bridge" in legal_texts(G, s)


# -- supply (RB 8) -------------------------------------------------------------------------


def test_supply_persia_keeps_at_most_one_card() -> None:
    """RB 8.1: the Persian player discards all cards but may keep one."""
    s = position(G, persia=SETUP_P, greece=SETUP_G, hands=([4, 5, 6], []))
    finish_operations(s)
    assert legal_texts(G, s) == ["keep none", "keep 4", "keep 5", "keep 6"]
    act(G, s, "keep 6")
    assert seen(s, PERSIA)["hands"]["persia"]["cards"] == [6]
    assert sorted(seen(s)["discard"]) == [4, 5]


def test_supply_persia_may_keep_none() -> None:
    """RB 8.1: keeping no card gives the full 12 talents next time."""
    s = position(G, persia=SETUP_P, greece=SETUP_G, hands=([4], []))
    finish_operations(s)
    act(G, s, "keep none")
    assert seen(s)["talents"] == 12 and seen(s)["campaign"] == 2


def test_supply_greece_keeps_up_to_four_cards() -> None:
    """RB 8.1: the Greek player keeps at most 4 cards, discarding the rest (chosen)."""
    s = position(G, persia=SETUP_P, greece=SETUP_G, hands=([], [1, 2, 3, 5, 6, 7]))
    finish_operations(s)
    assert (G.to_act(s), seen(s)["phase"]) == (GREECE, "supply-keep")
    assert legal_texts(G, s) == [
        "discard 1",
        "discard 2",
        "discard 3",
        "discard 5",
        "discard 6",
        "discard 7",
    ]
    act(G, s, "discard 1", "discard 7")
    assert seen(s, GREECE)["hands"]["greece"]["cards"] == [2, 3, 5, 6]
    assert seen(s)["campaign"] == 2


def test_supply_greece_with_four_cards_or_fewer_keeps_them_all() -> None:
    """RB 8.1: with fewer than 5 cards the Greek player keeps them without choosing."""
    s = position(G, persia=SETUP_P, greece=SETUP_G, hands=([], [1, 2, 3, 5]))
    finish_operations(s)
    assert seen(s)["campaign"] == 2
    assert seen(s, GREECE)["hands"]["greece"]["cards"] == [1, 2, 3, 5]


def test_supply_persian_attrition_counts_amphorae_outside_abydos_and_ephesos() -> None:
    """RB 8.2: Persian supply is the amphorae of the Persian cities other than Abydos and
    Ephesos, against the armies outside them; the excess, chosen by Persia, is removed
    from those cities (not from Abydos or Ephesos)."""
    s = position(
        G,
        persia={"Abydos": (6, 0), "Ephesos": (6, 1), "Thebai": (2, 0), "Naxos": (2, 1)},
        greece=SETUP_G,
    )
    finish_operations(s)
    assert (seen(s)["phase"], G.to_act(s)) == ("supply-remove", PERSIA)
    assert legal_texts(G, s) == ["remove Naxos", "remove Thebai"]
    act(G, s, "remove Thebai")
    assert legal_texts(G, s) == ["remove Naxos", "remove Thebai"]
    act(G, s, "remove Thebai")
    assert armies(s, "Thebai") == (0, 0) and armies(s, "Naxos") == (2, 0)
    assert armies(s, "Abydos") == (6, 0)


def test_supply_persian_armies_in_abydos_and_ephesos_are_always_fed() -> None:
    """RB 8.2: the Persians may have as many armies as they want in Ephesos and Abydos."""
    s = position(G, persia={"Abydos": (12, 0), "Ephesos": (12, 1)}, greece=SETUP_G)
    finish_operations(s)
    assert armies(s, "Abydos") == (12, 0) and armies(s, "Ephesos") == (12, 0)
    assert seen(s)["campaign"] == 2


def test_supply_greek_attrition_counts_every_controlled_city() -> None:
    """RB 8.2: Greek supply is the amphorae of all Greek cities (Athenai and Sparta
    included) against all Greek armies on the map."""
    s = position(
        G, persia=SETUP_P, greece={"Athenai": (4, 1), "Sparta": (1, 1), "Korinthos": (1, 0)}
    )
    finish_operations(s)
    assert (seen(s)["phase"], G.to_act(s)) == ("supply-remove", GREECE)
    assert legal_texts(G, s) == ["remove Athenai", "remove Sparta", "remove Korinthos"]
    act(G, s, "remove Athenai")
    assert armies(s, "Athenai") == (0, 3) and seen(s)["campaign"] == 2


def test_supply_line_of_communication_through_neutral_cities_and_the_bridge() -> None:
    """RB 8.2 and its example: Delphi - Larissa (neutral) - Pella - bridge - Abydos is a
    line of communication."""
    s = position(
        G, persia={"Abydos": (2, 0), "Delphi": (1, 0), "Pella": (1, 0)}, greece=SETUP_G, bridge=True
    )
    finish_operations(s)
    assert armies(s, "Delphi") == (1, 0) and armies(s, "Pella") == (1, 0)


def test_supply_without_a_line_of_communication_all_armies_of_the_city_are_removed() -> None:
    """RB 8.2 example: without the bridge the line is broken and the armies of Delphi (all
    of them) and Pella are removed."""
    s = position(G, persia={"Abydos": (2, 0), "Delphi": (1, 0), "Pella": (1, 0)}, greece=SETUP_G)
    finish_operations(s)
    assert armies(s, "Delphi") == (0, 0) and armies(s, "Pella") == (0, 0)
    assert reserve(s, "persia")[0] == 24 - 2


def test_supply_line_of_communication_blocked_by_enemy_controlled_city() -> None:
    """RB 8.2: the line may not go through enemy-controlled cities, including an enemy
    Major city with no army."""
    s = position(
        G,
        persia={"Abydos": (1, 0), "Larissa": (1, 0)},
        greece={"Pella": (1, 0), "Sparta": (1, 0)},
        bridge=True,
    )
    finish_operations(s)
    assert armies(s, "Larissa") == (0, 0)  # Greek Pella cuts the road to Abydos
    s = position(G, persia={"Thebai": (0, 1)}, greece={"Ephesos": (1, 0)}, bridge=True)
    finish_operations(s)
    assert armies(s, "Ephesos") == (0, 0)  # the empty Persian Abydos cuts the line
    s = position(
        G, persia={"Thebai": (0, 1)}, greece={"Ephesos": (1, 0), "Abydos": (1, 0)}, bridge=True
    )
    finish_operations(s)
    assert armies(s, "Ephesos") == (0, 1)  # through Greek Abydos, Pella, Larissa, Thebai


def test_supply_maritime_connection_fleet_in_the_port() -> None:
    """RB 8.2 (maritime connection): a city without a land line keeps its armies if one
    of its side's fleets is in its port (the example's fleet at Pella)."""
    s = position(G, persia={"Abydos": (2, 0), "Delphi": (1, 0), "Pella": (1, 1)}, greece=SETUP_G)
    finish_operations(s)
    assert armies(s, "Pella") == (1, 0) and armies(s, "Delphi") == (0, 0)


def test_supply_maritime_connection_blocked_by_enemy_fleets_in_own_major_ports() -> None:
    """RB 8.2: enemy fleets in the ports of your Major cities prevent maritime supply
    (decision 7.2: blocked only when no controlled Major port of yours is free)."""
    one = position(G, persia={"Athenai": (0, 1)}, greece={"Naxos": (1, 1), "Athenai": (1, 0)})
    finish_operations(one)
    assert armies(one, "Naxos") == (0, 1)  # Sparta's port is free
    blocked = position(
        G,
        persia={"Athenai": (0, 1), "Sparta": (0, 1)},
        greece={"Naxos": (1, 1), "Korinthos": (1, 0)},
    )
    finish_operations(blocked)
    assert armies(blocked, "Naxos") == (0, 0)
    assert armies(blocked, "Korinthos") == (0, 1)  # by road


def test_supply_fleets_need_no_supply() -> None:
    """RB 4.4: fleets do not need to be supplied."""
    s = position(G, persia={"Abydos": (1, 0), "Naxos": (0, 2)}, greece=SETUP_G)
    finish_operations(s)
    assert fleets(s, "Naxos") == (2, 0)


def test_supply_persia_first_then_greece() -> None:
    """RB 8: the Persians supply first, then the Greeks."""
    s = position(
        G, persia={"Abydos": (1, 0), "Thebai": (3, 0)}, greece={"Athenai": (4, 0), "Sparta": (1, 0)}
    )
    finish_operations(s)
    assert G.to_act(s) == PERSIA and seen(s)["phase"] == "supply-remove"
    act(G, s, "remove Thebai", "remove Thebai")
    assert G.to_act(s) == GREECE and seen(s)["phase"] == "supply-remove"


# -- scoring (RB 4.5, 9, 10) --------------------------------------------------------------


def test_scoring_one_point_per_city_two_per_major_city() -> None:
    """RB 4.5 example: Greece with Athenai, Sparta, Korinthos against Persia with Abydos
    and Ephesos moves the marker 1 toward Greece; with Athenai Persian, 3 toward Persia."""
    s = position(G, persia=SETUP_P, greece=SETUP_G)
    finish_operations(s)
    assert seen(s)["score"] == -1
    s = position(
        G, persia={**SETUP_P, "Athenai": (1, 1)}, greece={"Sparta": (1, 1), "Korinthos": (1, 0)}
    )
    finish_operations(s)
    assert seen(s)["score"] == 3


def test_scoring_score_track_stops_at_six() -> None:
    """RB 4.5: the track's maximum is 6; the marker goes no further."""
    s = position(
        G,
        score=5,
        persia={**SETUP_P, "Athenai": (1, 1)},
        greece={"Sparta": (1, 1), "Korinthos": (1, 0)},
    )
    finish_operations(s)
    assert seen(s)["score"] == 6
    s = position(
        G,
        score=-5,
        persia={"Naxos": (0, 1)},
        greece={"Ephesos": (1, 1), "Thebai": (1, 0), "Athenai": (1, 0)},
    )
    finish_operations(s)
    assert seen(s)["score"] == -6


def test_scoring_advances_the_campaign_marker() -> None:
    """RB 4.1: after Scoring the next campaign begins."""
    s = position(G, persia=SETUP_P, greece=SETUP_G, campaign=3)
    finish_operations(s)
    assert (seen(s)["campaign"], seen(s)["phase"]) == (4, "prep-buy")


def test_automatic_victory_persia_controls_athenai_and_sparta() -> None:
    """RB 9, 10: a side that has lost both its Major cities to the enemy in the Scoring
    Phase loses, whatever the score."""
    s = position(
        G,
        score=-6,
        persia={**SETUP_P, "Athenai": (1, 1), "Sparta": (1, 1)},
        greece={"Korinthos": (1, 0)},
    )
    finish_operations(s)
    out = G.outcome(s)
    assert out is not None and out.results == ("win", "loss")


def test_automatic_victory_greece_controls_abydos_and_ephesos() -> None:
    """RB 9, 10: the same for Greece holding Abydos and Ephesos."""
    s = position(
        G,
        score=6,
        persia={"Thebai": (1, 0)},
        greece={**SETUP_G, "Abydos": (1, 1), "Ephesos": (1, 1)},
    )
    finish_operations(s)
    out = G.outcome(s)
    assert out is not None and out.results == ("loss", "win")


def test_automatic_victory_in_the_fifth_campaign_beats_the_score() -> None:
    """Decision 7.18: automatic victory is checked before the points, in campaign 5 too."""
    s = position(
        G,
        campaign=5,
        score=-6,
        persia={**SETUP_P, "Athenai": (1, 1), "Sparta": (1, 1)},
        greece={"Korinthos": (1, 0)},
    )
    finish_operations(s)
    out = G.outcome(s)
    assert out is not None and out.results == ("win", "loss")
    assert seen(s)["score"] == -6


def test_automatic_victory_checked_only_in_the_scoring_phase() -> None:
    """RB 4.5, 9: control of both enemy Major cities wins in the Scoring Phase, not
    during Operations."""
    s = position(
        G,
        persia={**SETUP_P, "Athenai": (1, 0), "Korinthos": (2, 0)},
        greece={"Sparta": (1, 1)},
        hands=([4], [3]),
    )
    act(G, s, "move 4", "land Korinthos", "armies 2", "to Sparta", "decline", "roll 4", "roll 1")
    assert control(s, "Sparta") == "persia" and control(s, "Athenai") == "persia"
    assert G.outcome(s) is None and G.to_act(s) == GREECE


def test_automatic_victory_lost_again_before_scoring_does_not_count() -> None:
    """RB 9: only control at the Scoring Phase counts (here Sparta's Persian army starves
    in Supply before Scoring)."""
    s = position(
        G,
        persia={"Abydos": (1, 0), "Athenai": (1, 0), "Sparta": (1, 0)},
        greece={"Korinthos": (1, 0), "Thebai": (1, 0)},
    )
    finish_operations(s)
    assert G.outcome(s) is None
    assert armies(s, "Sparta") == (0, 0) and seen(s)["campaign"] == 2


def test_game_ends_after_the_fifth_campaign_leader_wins() -> None:
    """RB 4.1, 10: after the fifth campaign's Scoring, the side the score favours wins,
    even by 1 point."""
    s = position(G, campaign=5, score=0, persia=SETUP_P, greece=SETUP_G)
    finish_operations(s)
    out = G.outcome(s)
    assert out is not None and out.results == ("loss", "win")
    assert seen(s)["score"] == -1 and G.to_act(s) is None
    with pytest.raises(IllegalAction):
        G.apply(s, G.parse("pass"))


def test_game_ends_after_the_fifth_campaign_score_zero_is_a_tie() -> None:
    """RB 4, 10: a score of 0 after the fifth campaign is a tie."""
    s = position(G, campaign=5, score=1, persia=SETUP_P, greece=SETUP_G)
    finish_operations(s)
    out = G.outcome(s)
    assert out is not None and out.results == ("draw", "draw")
    assert out.scores == (0.5, 0.5)


def test_game_does_not_end_before_the_fifth_campaign() -> None:
    """RB 4.1: up to 5 campaigns: after the fourth the game goes on, whatever the score."""
    s = position(G, campaign=4, score=-6, persia=SETUP_P, greece=SETUP_G)
    finish_operations(s)
    assert G.outcome(s) is None and seen(s)["campaign"] == 5


def test_scoring_acropolis_on_fire_athenai_scores_for_no_one() -> None:
    """Acropolis on Fire (digest 5, card 15): in this campaign's Scoring Athenai scores for
    neither side, even once Persia has left it."""
    s = position(
        G,
        persia={**SETUP_P, "Athenai": (1, 1)},
        greece={"Sparta": (1, 1), "Thebai": (1, 0)},
        hands=([15, 4], []),
    )
    act(G, s, "event 15", "pass", "move 4", "sea Athenai", "fleets 1", "carry 1", "to Naxos")
    # Athenai is Greek again (an empty Major city) but scores for no one: Persia Abydos 2,
    # Ephesos 2, Naxos 1; Greece Sparta 2, Thebai 1.
    assert seen(s)["score"] == 2


# -- hidden information --------------------------------------------------------------------


def test_hands_and_draw_pile_are_hidden_from_the_opponent() -> None:
    """RB 5.1, 2.3: cards are drawn face down into a hand; only their number is public."""
    s = position(G, hands=([4, 5], [6]))
    assert seen(s, PERSIA)["hands"]["greece"] == {"count": 1, "cards": None}
    assert seen(s, GREECE)["hands"]["persia"] == {"count": 2, "cards": None}
    assert seen(s, None)["hands"]["persia"]["cards"] is None
    assert seen(s, PERSIA)["hands"]["persia"]["cards"] == [4, 5]
    assert seen(s, GREECE)["draw_pile"] == 13
