"""Rulebook details found in review: sea retreats, fleet placement, the reshuffle."""

from __future__ import annotations

from typing import cast

from tests.earth_and_water.helpers import act, city, legal_texts, position
from thermopylae.games.earth_and_water import game as ew_game
from thermopylae.games.earth_and_water.actions import Draw
from thermopylae.games.earth_and_water.state import GREECE, PERSIA, PREP_BUILD


def test_defender_retreat_by_sea_carries_at_most_three_armies() -> None:
    """RB 6.5 and 7.1: a sea retreat is a naval move, which carries at most 3 armies."""
    g = ew_game()
    s = position(g, persia={"Larissa": (3, 0)}, greece={"Thebai": (4, 4)}, hands=([4], []))
    act(g, s, "move 4", "land Larissa", "armies 3", "to Thebai", "roll 3", "roll 4", "continue")
    assert g.to_act(s) == GREECE
    assert not [t for t in legal_texts(g, s) if t.startswith("retreat by sea")]
    s2 = position(g, persia={"Larissa": (3, 0)}, greece={"Thebai": (3, 4)}, hands=([4], []))
    act(g, s2, "move 4", "land Larissa", "armies 3", "to Thebai", "roll 3", "roll 4", "continue")
    assert "retreat by sea Sparta" in legal_texts(g, s2)


def test_p9_no_fleet_raised_in_own_major_city_held_by_enemy_armies() -> None:
    """Seed 002: units are placed "dans une cité (ou port) que vous contrôlez", and a major
    city is its owner's only "sans armée ennemie": with Persian armies in Athenai, Greece
    may raise neither a fleet nor an army there; an empty Athenai is Greek again."""
    g = ew_game()
    for persia, held in (
        ({"Athenai": (1, 0), "Ephesos": (2, 1)}, True),
        ({"Ephesos": (2, 1)}, False),
    ):
        s = position(g, persia=persia, greece={"Sparta": (1, 1)})
        s.phase, s.side, s.talents, s.fleets_built = PREP_BUILD, GREECE, 6, 0
        s._legal = None
        options = legal_texts(g, s)
        assert ("fleet Athenai" in options) is not held, options
        assert ("army Athenai" in options) is not held, options
        assert "fleet Sparta" in options and "army Sparta" in options


def test_p9_persia_raises_no_fleet_in_ephesos_held_by_greek_armies() -> None:
    """Seed 002, the same rule for Persia: Greek armies in Ephesos take it, and no Persian
    fleet may be raised in its port, while Abydos, empty, stays Persian."""
    g = ew_game()
    s = position(
        g, persia={"Abydos": (0, 0), "Thebai": (1, 0)}, greece={"Ephesos": (1, 0), "Sparta": (1, 1)}
    )
    s.phase, s.side, s.talents, s.fleets_built = PREP_BUILD, PERSIA, 12, 0
    s._legal = None
    options = legal_texts(g, s)
    assert "fleet Ephesos" not in options and "army Ephesos" not in options
    assert "fleet Abydos" in options and "army Abydos" in options


def test_retreat_after_a_landing_takes_back_only_the_fleets_that_landed() -> None:
    """RB 7.1: attackers who came by sea go back to their port on the fleets that brought
    them; other fleets in that port stay."""
    g = ew_game()
    s = position(
        g,
        persia={"Ephesos": (3, 2), "Eretria": (0, 1)},
        greece={"Eretria": (2, 0), "Athenai": (1, 0)},
        hands=([4, 3], []),
    )
    act(
        g,
        s,
        "move 4",
        "sea Ephesos",
        "fleets 1",
        "carry 1",
        "to Eretria",
        "roll 3",
        "roll 2",
        "retreat by sea Ephesos",
    )
    assert s.flt[PERSIA][city(g, "Eretria")] == 1
    assert s.flt[PERSIA][city(g, "Ephesos")] == 2
    assert s.arm[PERSIA][city(g, "Ephesos")] == 3


def test_discards_become_the_draw_pile_as_soon_as_it_empties() -> None:
    """RB 5.4: when the draw pile runs out, the discards are shuffled into a new one at
    once; a card discarded afterwards waits for the next reshuffle."""
    g = ew_game()
    persian = [k for k in range(1, 17) if k not in (2, 3, 7, 9)]
    s = position(g, hands=(persian, [7]), discard=[2, 3], active=GREECE)
    assert s.deck == [9]
    act(g, s, "event 7")  # Oracle of Delphi: an empty hand is discarded, one card drawn
    assert [cast(Draw, a).card for a, _ in g.chance(s)] == [9]
    act(g, s, "draw 9")  # the pile is empty: the discards (2, 3 and the Oracle) form a new one
    assert s.deck == [2, 3, 7] and s.discard == []
    assert s.hands[GREECE] == [9]


def test_landed_attackers_cannot_retreat_to_a_port_the_enemy_sailed_into() -> None:
    """Decision 33: the fleets that brought the attackers sail back to their port only if
    no enemy fleet or army has come there meanwhile (here, Persian fleets retreating from
    the naval battle of the same move)."""
    g = ew_game()
    s = position(
        g,
        persia={"Ephesos": (2, 2), "Pella": (1, 0)},
        greece={"Abydos": (2, 2), "Athenai": (1, 0), "Sparta": (1, 0)},
        hands=([], [5]),
        active=GREECE,
    )
    act(
        g,
        s,
        "move 5",
        "sea Abydos",
        "fleets 2",
        "carry 2",
        "to Ephesos",
        "roll 6",
        "roll 1",
        "continue",
        "retreat by sea Abydos",
    )
    assert s.flt[PERSIA][city(g, "Abydos")] == 1  # the Persian fleet sailed back there
    act(g, s, "roll 1", "roll 6")  # the land battle: the Greeks lose an army
    assert g.to_act(s) == PERSIA  # Greece is not asked: it has nowhere to retreat
    assert all("Abydos" not in g.format(a) or "by sea" not in g.format(a) for a in g.legal(s))


def test_p8_naval_attacker_may_retreat_to_origin_holding_enemy_armies() -> None:
    """Seed 002: attackers go back to their port of departure, and fleets and armies never
    fight: Greek fleets that carried no armies may sail back to Abydos although Persian
    armies hold the city, as they may to a port the Greeks hold."""
    g = ew_game()
    for start, persian in (
        ("Abydos", {"Abydos": (2, 0), "Ephesos": (2, 3)}),
        ("Naxos", {"Ephesos": (2, 3)}),
    ):
        s = position(
            g,
            persia=persian,
            greece={start: (0, 2), "Athenai": (1, 0), "Sparta": (1, 0)},
            hands=([], [4]),
            active=GREECE,
        )
        act(g, s, "move 4", f"sea {start}", "fleets 2", "to Ephesos", "roll 3", "roll 2")
        assert g.to_act(s) == GREECE, start
        assert f"retreat by sea {start}" in legal_texts(g, s), start
    act(g, s, "retreat by sea Naxos")
    s = position(
        g,
        persia={"Abydos": (2, 0), "Ephesos": (2, 3)},
        greece={"Abydos": (0, 2), "Athenai": (1, 0), "Sparta": (1, 0)},
        hands=([], [4]),
        active=GREECE,
    )
    act(
        g,
        s,
        "move 4",
        "sea Abydos",
        "fleets 2",
        "to Ephesos",
        "roll 3",
        "roll 2",
        "retreat by sea Abydos",
    )
    assert s.flt[GREECE][city(g, "Abydos")] == 2 and s.arm[PERSIA][city(g, "Abydos")] == 2
    assert s.arm[GREECE][city(g, "Abydos")] == 0  # the fleets alone went back
    assert g.to_act(s) == PERSIA  # the battle ended; the Persian turn follows


def test_p8_naval_attacker_carrying_armies_may_not_retreat_where_enemy_armies_are() -> None:
    """Seed 002: a retreating attacker's armies "débarquent dans la cité de son port de
    départ"; a retreat fights no battle, so enemy armies there bar fleets that still carry
    armies. (Play cannot bring enemy armies there during the move; the position is made
    by hand.)"""
    g = ew_game()
    s = position(
        g,
        persia={"Ephesos": (2, 3), "Abydos": (1, 0)},
        greece={"Naxos": (2, 2), "Athenai": (1, 0), "Sparta": (1, 0)},
        hands=([], [4]),
        active=GREECE,
    )
    act(g, s, "move 4", "sea Naxos", "fleets 2", "carry 2", "to Ephesos", "roll 3")
    data = g.state_to_json(s)  # a Persian army appears in Naxos, emptied by the move
    data["armies"][PERSIA][city(g, "Naxos")] = 1
    data["armies"][PERSIA][city(g, "Abydos")] = 0
    s = g.state_from_json(data)
    act(g, s, "roll 2")
    assert g.to_act(s) != GREECE  # no retreat to offer the Greeks: the battle goes on
