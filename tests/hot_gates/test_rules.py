"""The rules of 300: The Board Game, one test per rule sentence of the rulebook (seed 000)
and per decision the project took on its open points (docs: decisions 1-21).

Provisional numbers (unit values, the Battle Chart, the dice, the Goat Path) are read
from the component set; the rulebook's own numbers are the constants below.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.hot_gates.helpers import (
    act,
    can,
    casualties,
    code,
    dice_due,
    faces_between,
    faces_for,
    fill,
    hg,
    highest,
    legal_texts,
    lowest,
    march_through,
    names,
    of_kind,
    play_on,
    position,
    roll,
    settle,
    space,
    to_march,
    units,
    variant,
)
from thermopylae.games.hot_gates import battle
from thermopylae.games.hot_gates.components import MAX_DICE, TYPE_IDS
from thermopylae.games.hot_gates.state import (
    CASUALTY,
    CONQUER,
    DEAL,
    MARCH,
    OVER,
    PULLBACK,
    RETURN,
    State,
)

G = hg()
T = G.t
C = G.components

# The rulebook's own numbers (seed 000).
COASTAL_CAPACITY = 6  # "No more than 6 Units can be present in any Coastal Plain space"
GATES_CAPACITY = 3  # "no more than 3 Units can be present in any Hot Gates space"
BEAST_PLACES = 3  # "They take up the space of 3 Persian Units"
BONUS = {"1": 12, "2": 6, "3": 3}  # "(3, 6, or 12)"; 12 for the last space (A1/B1)
GATES_PENALTY = 3  # "3 points per space entered by the Persians"
WIN_2P = 100  # "scores 100 Glory Points, he or she immediately wins"
WIN_TEAM = 50  # "If one of the Spartan players achieves 50 Glory"
DILIOS_2P = 10  # "immediately loses 10 Glory"
DILIOS_TEAM = 5  # "both Spartan Players instead lose 5 Glory"
START_HAND = 3  # "draws the top 3 cards to form his starting hand"
CAMP = 7  # "Place the remaining 7 Spartan Units in the Spartan Camp"
ROW_A = ("A1", "A2", "A3", "A4", "A5", "A6")
ROW_B = ("B1", "B2", "B3", "B4", "B5", "B6")


def atk(name: str) -> int:
    return T.attack[code(name)]


def dfn(name: str) -> int:
    return T.defense[code(name)]


def glo(name: str) -> int:
    return T.glory[code(name)]


def dice_for(*unit_names: str) -> int:
    return min(MAX_DICE, C.dice_for(sum(atk(u) for u in unit_names)))


def most(dice: int) -> int:
    return dice * highest(G)


def load(s: State, name: str) -> int:
    return T.load(s.board[space(name)])


def moves_into(s: State, name: str) -> list[str]:
    """The legal actions that put a unit on `name`."""
    return [
        a
        for a in legal_texts(G, s)
        if (a.startswith("move") and a.split()[1].endswith("-" + name))
        or a.startswith("enter " + name)
    ]


def blocked_persians(**extra: list[str]) -> dict[str, list[str]]:
    """Persians that cannot march (each row's Coastal Plain full, Spartans in space 4),
    with more spaces from `extra`."""
    board = {
        "A1": ["immortal"] * 6,
        "A2": ["cavalry"] * 6,
        "A3": ["infantry"] * 6,
        "B1": ["immortal"] * 6,
        "B2": ["cavalry"] * 6,
        "B3": ["infantry"] * 6,
        "A4": ["spartan"],
        "B4": ["spartan"],
    }
    board.update(extra)
    return board


# -- Set Up ---------------------------------------------------------------------------


def test_setup_places_the_units_of_the_diagram() -> None:
    """Set Up: "A1: 6 Persian Immortals A2: 6 Persian Cavalry ... B5: Dilios, 2 Spartans
    B6: 3 Spartans"."""
    s = G.new({"players": 2})
    want = {
        "A1": ["immortal"] * 6,
        "A2": ["cavalry"] * 6,
        "A3": ["infantry"] * 6,
        "A4": ["leonidas", "spartan", "spartan"],
        "A5": ["spartan", "spartan", "stelios"],
        "A6": ["spartan"] * 3,
        "B1": ["immortal"] * 6,
        "B2": ["cavalry"] * 6,
        "B3": ["infantry"] * 6,
        "B4": ["astinos", "captain", "spartan"],
        "B5": ["dilios", "spartan", "spartan"],
        "B6": ["spartan"] * 3,
    }
    assert {n: units(s, n) for n in ROW_A + ROW_B} == want


def test_setup_counters_are_unwounded() -> None:
    """ "always place them with their normal, Unwounded sides face up"."""
    s = G.new({"players": 2})
    pieces = [p for sp in s.board for p in sp] + s.camp + [p for b in s.boxes for p in b]
    assert pieces and not any(p & 1 for p in pieces)


def test_setup_seven_spartans_wait_in_the_camp() -> None:
    """ "Place the remaining 7 Spartan Units in the Spartan Camp"."""
    s = G.new({"players": 2})
    assert names(s.camp) == ["spartan"] * CAMP


def test_setup_two_war_beasts_in_the_first_box() -> None:
    """ "Place the 2 War Beasts in the first Reinforcements Box in the Persian Camp"."""
    s = G.new({"players": 2})
    assert [names(b) for b in s.boxes] == [["beast", "beast"]]


def test_setup_leaders_wait_in_the_persian_camp() -> None:
    """ "Place Xerxes, the Uber Immortal, and the 2 Persian Generals in the upper portion
    of the Persian Camp"."""
    s = G.new({"players": 2})
    assert sorted(TYPE_IDS[t] for t in s.leaders) == ["general", "general", "uber", "xerxes"]


def test_setup_accounts_for_all_25_spartans_and_42_persians() -> None:
    """Components: "25 Spartan Units", "42 Persian Units"; 5 Heroes, 4 Leaders."""
    s = G.new({"players": 2})
    assert T.count_units(s) == (25, 42)
    everywhere = [p for sp in s.board for p in sp if T.side[p] == 1] + s.camp
    assert sorted(set(names(everywhere)) - {"spartan"}) == sorted(
        ["leonidas", "stelios", "astinos", "dilios", "captain"]
    )


def test_setup_each_player_draws_three_cards() -> None:
    """ "Each player shuffles his appropriate Battle Deck and draws the top 3 cards"."""
    s = G.new({"players": 2})
    assert s.phase == DEAL and sorted(s.draws) == [0] * START_HAND + [1] * START_HAND
    for _ in range(2 * START_HAND):
        G.apply(s, G.chance(s)[0][0])
    assert [len(h) for h in s.hands] == [START_HAND, START_HAND]
    assert all(G.cards[c].side == "persian" for c in s.hands[0])
    assert all(G.cards[c].side == "spartan" for c in s.hands[1])
    assert [len(d) for d in s.decks] == [26 - START_HAND] * 2


def test_setup_glory_marker_on_start_and_ephialtes_on_c() -> None:
    """ "Place one of the Spartan Glory Markers on the "Start" space"; "C: Ephialtes"."""
    s = G.new({"players": 2})
    assert s.glory == [0, 0] and s.eph == 0 and s.round == 1


def test_two_player_decks_ignore_the_letters() -> None:
    """ "Ignore the letters "A" and "B" on the cards during the 2 Player Game": each player
    has all 26 cards of his side, of both letters."""
    s = G.new({"players": 2})
    for seat, side in ((0, "persian"), (1, "spartan")):
        cards = [G.cards[c] for c in s.decks[seat] + s.hands[seat]]
        assert len(cards) == 26 and {c.side for c in cards} == {side}
        assert {c.letter for c in cards} == {"A", "B"}


# -- The Game Board -------------------------------------------------------------------


def test_camps_are_not_spaces_units_enter_at_the_ends_of_the_rows() -> None:
    """ "The camps are not considered spaces": Persians come on in A1/B1 ("into spaces A1
    and B1"), Spartans from their camp in A6/B6 (decision 5)."""
    s = position(
        G, board={"A3": ["infantry"], "A5": ["spartan"], "B3": ["infantry"], "B5": ["spartan"]}
    )
    persian = [a.split()[1] for a in legal_texts(G, s) if a.startswith("enter")]
    assert persian and set(persian) == {"A1", "B1"}
    march_through(G, s)
    assert s.actor == 1
    spartan = [a.split()[1] for a in legal_texts(G, s) if a.startswith("enter")]
    assert spartan and set(spartan) == {"A6", "B6"}


def test_coastal_plain_space_holds_at_most_six_units() -> None:
    """ "No more than 6 Units can be present in any Coastal Plain space at any point"."""
    s = position(G, board=blocked_persians(A1=["immortal"] * 5, A4=["spartan"]))
    assert load(s, "A1") == COASTAL_CAPACITY - 1
    entries = moves_into(s, "A1")
    assert entries
    act(G, s, entries[0])
    assert load(s, "A1") == COASTAL_CAPACITY
    assert moves_into(s, "A1") == []


def test_hot_gates_space_holds_at_most_three_units() -> None:
    """ "no more than 3 Units can be present in any Hot Gates space at any point"."""
    s = position(
        G,
        board={"A3": ["infantry"] * 6, "A5": ["spartan"] * 3, "A6": ["spartan"], "B4": ["spartan"]},
    )
    for _ in range(GATES_CAPACITY):
        act(G, s, "move A3-A4 infantry")
    assert load(s, "A4") == GATES_CAPACITY
    assert moves_into(s, "A4") == []
    march_through(G, s)
    assert s.actor == 1
    assert not can(G, s, "move A6-A5 spartan")  # A5 holds 3 Spartans
    act(G, s, "enter A6 spartan", "enter A6 spartan")
    assert load(s, "A6") == GATES_CAPACITY and moves_into(s, "A6") == []


def test_battle_rows_a_and_b() -> None:
    """ "Spaces A1-A6 are part of Battle Row A. Spaces B1-B6 are part of Battle Row B":
    Persians in A3 and Spartans in B4 are in different rows, so no battle is fought."""
    s = position(G, board={"A3": ["infantry"] * 6, "B4": ["spartan"] * 3}, at="battle")
    assert s.rolls == [] and s.round == 2 and s.eph == 1  # straight to the next round


def test_eliminated_persians_go_to_the_next_box() -> None:
    """ "Whenever a group of Persian Units is destroyed, place it in the next Reinforcement
    Box"."""
    s = position(
        G,
        board={"A3": ["infantry"] * 6, "A4": ["leonidas", "captain", "stelios"]},
        boxes=[["beast", "beast"]],
        at="battle",
    )
    before = [names(b) for b in s.boxes]
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, lowest(G) * p) + faces_for(G, q, 2 * dfn("infantry")))
    casualties(G, s, "infantry", "infantry")
    settle(G, s)
    assert units(s, "A3") == ["infantry"] * 4
    assert [names(b) for b in s.boxes] == [*before, ["infantry"] * 2]


def test_reinforcements_come_from_box_one_first() -> None:
    """ "they must be taken from the first Reinforcement Box (and the Units in all
    remaining Reinforcement Boxes are pushed forward toward the lower numbered boxes)"."""
    s = position(
        G, board=blocked_persians(A1=["immortal"] * 4), boxes=[["immortal"], ["beast"], ["beast"]]
    )
    entries = [
        a
        for a in legal_texts(G, s)
        if a.startswith("enter") and a.split()[2] not in ("xerxes", "uber", "general")
    ]
    assert entries == ["enter A1 immortal"]
    act(G, s, "enter A1 immortal")
    assert [names(b) for b in s.boxes][:2] == [["beast"], ["beast"]]
    assert not can(G, s, "enter A1 beast")  # one place left: the beast does not fit


def test_reinforcement_boxes_are_never_short() -> None:
    """ "If you run out of Reinforcement Boxes, then simply continue to make piles of
    Persian Reinforcements beside the board" (decision 4: no limit)."""
    full = [["beast"], ["beast"]] + [["cavalry"]] * C.boxes
    s = position(
        G,
        board={"A3": ["infantry"] * 6, "A4": ["leonidas", "captain", "stelios"]},
        boxes=full,
        at="battle",
    )
    before = len(s.boxes)
    assert before > C.boxes
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, lowest(G) * p) + [highest(G)] * q)
    casualties(G, s, "infantry")
    settle(G, s)
    assert len(s.boxes) == before + 1 and names(s.boxes[-1])[0] == "infantry"


def test_leaders_may_enter_in_place_of_other_units() -> None:
    """ "The 4 Persian Leaders ... can march onto the board in place of any other Persian
    Units at any time during the game at the Persian Player's discretion"."""
    s = position(G, board=blocked_persians(A1=["immortal"] * 5, B1=["immortal"] * 5))
    assert {"enter A1 xerxes", "enter A1 uber", "enter A1 general", "enter B1 general"} <= set(
        legal_texts(G, s)
    )
    act(G, s, "enter A1 xerxes", "enter B1 general")
    assert "xerxes" in units(s, "A1") and "general" in units(s, "B1")
    assert sorted(TYPE_IDS[t] for t in s.leaders) == ["general", "uber"]
    assert legal_texts(G, s) == [] or s.actor != 0  # A1 and B1 are full: the march ends


def test_eliminated_leaders_never_return() -> None:
    """ "if any of the Persian Leaders are eliminated, they are removed from the game
    permanently" (and still give their Glory)."""
    s = position(G, board={"A3": ["xerxes"], "A4": ["leonidas", "captain", "stelios"]}, at="battle")
    p, q = dice_due(s)
    assert most(q) >= dfn("xerxes")
    roll(G, s, faces_for(G, p, lowest(G) * p) + [highest(G)] * q)
    boxes = [names(b) for b in s.boxes]
    casualties(G, s, "xerxes")
    assert "xerxes" in names(s.dead)
    assert TYPE_IDS.index("xerxes") not in s.leaders
    assert [names(b) for b in s.boxes] == boxes
    assert s.glory[1] == glo("xerxes")
    play_on(G, s)
    assert "xerxes" in names(s.dead) and TYPE_IDS.index("xerxes") not in s.leaders


# -- Goat Path and Glory Track --------------------------------------------------------


def test_ephialtes_moves_each_round_and_wins_at_the_end() -> None:
    """ "At the end of every round, Ephialtes moves one space forward on the Goat Path. If
    he reaches the last space on the Goat Path, then the Persian Player wins the game"."""
    s = position(G, board=blocked_persians(), at="ephialtes")
    assert (s.eph, s.round) == (1, 2)
    s = position(G, board=blocked_persians(), eph=C.goat_path - 2, at="ephialtes")
    assert s.phase != OVER and s.eph == C.goat_path - 1
    s = position(G, board=blocked_persians(), eph=C.goat_path - 1, at="ephialtes")
    assert s.phase == OVER and s.winners == [0] and s.eph == C.goat_path


def test_glory_track_persian_elimination_scores_its_glory_number() -> None:
    """ "Whenever a Persian Unit is eliminated, the Spartan Player scores its Glory
    Points"."""
    s = position(
        G,
        board={"A3": ["immortal", "cavalry", "infantry"], "A4": ["leonidas", "captain", "stelios"]},
        at="battle",
    )
    p, q = dice_due(s)
    total = dfn("immortal") + dfn("cavalry") + dfn("infantry")
    assert most(q) >= total
    roll(G, s, faces_for(G, p, lowest(G) * p) + faces_for(G, q, total))
    ev = casualties(G, s, "immortal", "cavalry", "infantry")
    assert s.glory[1] == glo("immortal") + glo("cavalry") + glo("infantry")
    assert [g["change"] for g in of_kind(ev, "glory")] == [
        glo("immortal"),
        glo("cavalry"),
        glo("infantry"),
    ]


def test_hundred_glory_wins_immediately() -> None:
    """ "If the Spartan Player ever attains 100 or more Glory Points, then the Spartan
    Player immediately wins the game (even if the Persians are about to wipe them out or
    if Ephialtes is about to enter the last space on the Goat Path)"."""
    s = position(
        G,
        board={"A3": ["infantry", "immortal", "immortal"], "A4": ["leonidas"]},
        camp=0,
        glory=[0, WIN_2P - glo("infantry")],
        eph=C.goat_path - 1,
        breach=True,
        at="battle",
    )
    p, q = dice_due(s)
    assert most(p) >= dfn("leonidas") and most(q) >= dfn("infantry")
    roll(G, s, [highest(G)] * p + faces_for(G, q, dfn("infantry")))
    casualties(G, s, "infantry")
    casualties(G, s, "leonidas")  # the last Spartan falls in the same battle
    assert s.phase == OVER and s.winners == [1]
    assert s.eph == C.goat_path - 1


def test_hundred_glory_wins_at_once_from_a_glory_bonus() -> None:
    """Decision 15: the 100 Glory check also follows each glory bonus (march or
    conquest)."""
    s = position(
        G,
        board={"A1": ["immortal"], "A4": ["spartan"] * 2, "B1": ["immortal"], "B4": ["spartan"]},
        glory=[0, WIN_2P - BONUS["3"]],
    )
    march_through(G, s)
    act(G, s, "move A4-A3 spartan")
    assert s.phase == OVER and s.winners == [1]


def test_hundred_glory_wins_in_the_middle_of_a_round() -> None:
    """ "he or she immediately wins the game": the game ends after that battle, before the
    other row's battle and the Ephialtes Phase (decision 15)."""
    s = position(
        G,
        board={"A3": ["infantry"], "A4": ["leonidas"], "B3": ["infantry"], "B4": ["captain"]},
        glory=[0, WIN_2P - glo("infantry")],
        at="battle",
    )
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, lowest(G) * p) + [highest(G)] * q)
    casualties(G, s, "infantry")
    settle(G, s)
    assert s.phase == OVER and s.winners == [1] and s.round == 1
    assert units(s, "B3") == ["infantry"] and s.eph == 0


def test_glory_never_falls_below_the_start_space() -> None:
    """Decision 6: Glory never goes below 0 (the track's Start space)."""
    s = position(
        G, board={"A3": ["infantry"] * 3, "A5": ["spartan"], "B4": ["spartan"]}, glory=[0, 1]
    )
    ev = act(G, s, "move A3-A4 infantry")
    assert s.glory[1] == 0 and of_kind(ev, "glory")[0]["change"] == -GATES_PENALTY


# -- Draw Phase -----------------------------------------------------------------------


def test_draw_phase_each_player_draws_one_card() -> None:
    """ "Draw Phase: Each player draws one Battle Card from his appropriate Battle Deck"."""
    s = position(G, board=blocked_persians(), at="draw")
    assert s.phase == DEAL and s.draws == [0, 1]
    act(G, s, "draw p5", "draw s5")
    assert s.hands == [
        [G.cards.index(next(c for c in G.cards if c.code == "p5"))],
        [G.cards.index(next(c for c in G.cards if c.code == "s5"))],
    ]


def test_there_is_no_hand_limit() -> None:
    """ "There is no limit to the number of cards which a player can hold in his hand"."""
    many = [f"s{i}" for i in range(1, 21)]
    s = position(G, board=blocked_persians(), hands=[[], many], at="draw")
    act(G, s, "draw p1", "draw s21")
    assert len(s.hands[1]) == 21


def test_an_empty_deck_gives_no_more_cards() -> None:
    """Decision 8: decks are never reshuffled; an empty deck gives no more cards."""
    s = position(G, board=blocked_persians(), decks={1: []}, at="draw")
    assert s.draws == [0, 1]
    act(G, s, "draw p1")
    assert not s.draws and len(s.hands[1]) == 0 and len(s.discards[1]) == 26


# -- March Phase ----------------------------------------------------------------------


def test_persians_march_first_then_the_spartans() -> None:
    """ "The Persian Player marches his Units forward first"; "After the Persians have
    marched forward, each Spartan Unit can march"."""
    s = position(G, board={"A1": ["infantry"], "A5": ["spartan"], "B4": ["spartan"]})
    assert s.phase == MARCH and s.actor == 0
    march_through(G, s)
    assert s.phase == MARCH and s.actor == 1


def test_persians_must_march_forward_if_they_can() -> None:
    """ "The Persian Player must march his Units forward towards the Spartans if he can"
    (decision 3: `done` only when no unit that has not moved can step forward)."""
    s = position(
        G,
        board=blocked_persians(A1=["immortal"] * 6, A2=[], A4=["spartan"]),
        boxes=[["beast", "beast"]],
    )
    assert "done" not in legal_texts(G, s)
    assert can(G, s, "move A1-A2 immortal")
    for _ in range(COASTAL_CAPACITY):
        act(G, s, "move A1-A2 immortal")
    act(G, s, "enter A1 beast", "enter A1 beast")  # A1 has room: reinforcements too
    assert "done" in legal_texts(G, s) or s.actor != 0


def test_persian_march_order_is_his_choice() -> None:
    """Decision 3: the order of moves is the Persian's choice (reinforcements before the
    march forward), and a unit may switch rows instead of advancing."""
    s = position(
        G, board={"A1": ["infantry"] * 3, "A5": ["spartan"], "B1": ["infantry"], "B5": ["spartan"]}
    )
    legal = set(legal_texts(G, s))
    assert {"move A1-A2 infantry", "enter A1 immortal", "move A1-B1 infantry"} <= legal
    act(G, s, "move A1-B1 infantry")
    assert "done" not in legal_texts(G, s)  # the other units still owe their march


def test_each_unit_marches_one_space() -> None:
    """ "Each Persian Unit can move forward one space"; "each Spartan Unit can march
    forward one space"."""
    s = position(
        G,
        board={
            "A1": ["immortal"],
            "A6": ["leonidas"],
            "B1": ["immortal"] * 6,
            "B2": ["cavalry"] * 6,
            "B3": ["infantry"] * 6,
            "B4": ["spartan"],
        },
        boxes=[["beast"] * 2],
    )
    act(G, s, "move A1-A2 immortal")
    assert not can(G, s, "move A2-A3 immortal")
    march_through(G, s)
    act(G, s, "move A6-A5 leonidas")
    assert not can(G, s, "move A5-A4 leonidas")
    assert not can(G, s, "move A5-B5 leonidas")


def test_no_side_marches_into_a_space_with_enemy_units() -> None:
    """ "The Persians cannot march into a space that contains Spartan Units (and vice
    versa)"."""
    s = position(
        G,
        board={"A2": ["immortal"], "A3": ["spartan"], "B2": ["spartan"], "B1": ["immortal"]},
        bonus_taken=["A3", "B2"],
    )
    assert not can(G, s, "move A2-A3 immortal")
    assert not can(G, s, "move A2-B2 immortal")
    march_through(G, s)
    assert s.actor == 1
    assert not can(G, s, "move A3-A2 spartan")
    assert not can(G, s, "move B2-B1 spartan")


def test_persians_must_bring_reinforcements_when_there_is_room() -> None:
    """ "If there is room on the Board, the Persians must bring reinforcements from the
    Reinforcement Boxes ... into spaces A1 and B1"."""
    s = position(
        G,
        board=blocked_persians(A1=["immortal"] * 4, B1=["immortal"] * 5),
        boxes=[["immortal"] * 3],
    )
    assert "done" not in legal_texts(G, s)
    act(G, s, "enter A1 immortal", "enter A1 immortal")
    assert "done" not in legal_texts(G, s)  # B1 still has room
    act(G, s, "enter B1 immortal")
    assert s.actor != 0 or "done" in legal_texts(G, s)


def test_persians_arrange_reinforcements_as_they_see_fit() -> None:
    """ "If there is a lot of room, then the Persian Player can arrange the Units from the
    lowest Reinforcement Boxes into spaces A1 and B1 however he sees fit"."""
    s = position(
        G,
        board={"A2": ["cavalry"], "A3": ["spartan"], "B2": ["cavalry"], "B3": ["spartan"]},
        bonus_taken=["A3", "B3"],
        boxes=[["immortal", "infantry"], ["beast"]],
    )
    legal = set(legal_texts(G, s))
    assert {
        "enter A1 immortal",
        "enter B1 immortal",
        "enter A1 infantry",
        "enter B1 infantry",
    } <= legal
    act(G, s, "enter B1 infantry", "enter A1 immortal")
    assert units(s, "A1") == ["immortal"] and units(s, "B1") == ["infantry"]
    assert can(G, s, "enter A1 beast") and can(G, s, "enter B1 beast")  # box 2 moved up


def test_first_box_that_does_not_fit_stops_the_reinforcements() -> None:
    """Decision 4: reinforcements come only from the first non-empty box; when none of its
    units fits, no more come (later boxes cannot jump ahead)."""
    s = position(
        G,
        board=blocked_persians(A1=["immortal"] * 4, B1=["immortal"] * 4),
        boxes=[["beast"], ["immortal"]],
    )
    legal = legal_texts(G, s)
    assert "done" in legal
    assert not any(a.startswith("enter") and a.endswith(("immortal", "beast")) for a in legal)


def test_leaders_are_optional() -> None:
    """Decision 3: Leaders are optional; the Persian may end his march with Leaders still
    able to enter."""
    s = position(
        G, board=blocked_persians(A1=["immortal"] * 4, B1=["immortal"] * 4), boxes=[["beast"]]
    )
    legal = legal_texts(G, s)
    assert "enter A1 xerxes" in legal and "done" in legal
    act(G, s, "done")
    assert s.actor == 1 and len(s.leaders) == 4


def test_war_beast_takes_three_places() -> None:
    """ "They take up the space of 3 Persian Units. So if you place a Persian War Beast on a
    Coastal Road space, no more than 3 additional Persian Units (or one other War Beast)
    can fit in that space"."""
    s = position(
        G,
        board=blocked_persians(A1=["beast"], B1=["immortal"] * 6),
        boxes=[["beast", "immortal", "immortal", "immortal", "immortal"]],
    )
    assert load(s, "A1") == BEAST_PLACES
    assert {"enter A1 beast", "enter A1 immortal"} <= set(legal_texts(G, s))
    t = s.copy()
    act(G, t, "enter A1 beast")
    assert units(t, "A1") == ["beast", "beast"] and moves_into(t, "A1") == []
    act(G, s, "enter A1 immortal")
    assert not can(G, s, "enter A1 beast")
    act(G, s, "enter A1 immortal", "enter A1 immortal")
    assert len(s.board[space("A1")]) == 4 and moves_into(s, "A1") == []


def test_war_beast_fills_a_whole_hot_gates_space() -> None:
    """ "Inside the Hot Gates, a single Persian War Beast takes up an entire space"."""
    s = position(
        G, board={"A3": ["beast", "infantry", "infantry"], "A5": ["spartan"], "B4": ["spartan"]}
    )
    t = s.copy()
    act(G, s, "move A3-A4 beast")
    assert not can(G, s, "move A3-A4 infantry")
    act(G, t, "move A3-A4 infantry")
    assert not can(G, t, "move A3-A4 beast")


def test_spartans_are_never_forced_to_march() -> None:
    """ "The Spartans are never forced to march forward"."""
    s = position(
        G, board={"A1": ["immortal"], "A5": ["spartan"] * 3, "B4": ["spartan"], "B1": ["immortal"]}
    )
    march_through(G, s)
    assert s.actor == 1 and can(G, s, "move A5-A4 spartan")
    assert "done" in legal_texts(G, s)
    before = [units(s, n) for n in ROW_A + ROW_B]
    act(G, s, "done")
    assert s.phase != MARCH and [units(s, n) for n in ROW_A + ROW_B] == before


def test_spartans_fit_six_units_on_the_coastal_plain() -> None:
    """ "If the Spartans march outside of the Hot Gates, they can fit 6 Units into a
    Coastal Plain space just like the Persians can"."""
    s = position(
        G,
        board={
            "A1": ["immortal"],
            "A3": ["spartan"] * 5,
            "A4": ["spartan"] * 2,
            "B4": ["spartan"],
            "B1": ["immortal"],
        },
        bonus_taken=["A3"],
    )
    march_through(G, s)
    act(G, s, "move A4-A3 spartan")
    assert load(s, "A3") == COASTAL_CAPACITY
    assert not can(G, s, "move A4-A3 spartan")


def test_spartan_reinforcements_enter_either_row() -> None:
    """ "The Spartan player can march any of his 7 Spartan reinforcements out of the
    Spartan Camp into either of his Battle Rows if there is room"."""
    s = position(
        G,
        board={
            "A1": ["immortal"],
            "A5": ["spartan"],
            "B1": ["immortal"],
            "B5": ["spartan"],
            "B6": ["spartan"] * 3,
        },
        camp=CAMP,
    )
    march_through(G, s)
    legal = legal_texts(G, s)
    assert "enter A6 spartan" in legal and "enter B6 spartan" not in legal  # B6 is full
    act(G, s, "move B6-A6 spartan")  # room appears in B6
    act(G, s, "enter B6 spartan", "enter A6 spartan")
    assert names(s.camp) == ["spartan"] * (CAMP - 2)


def test_spartan_camp_stays_empty_once_the_last_reinforcement_left() -> None:
    """ "Once the last reinforcement leaves the Spartan Camp, the camp remains empty for the
    remainder of the game"."""
    s = position(
        G,
        board={"A1": ["immortal"], "A5": ["spartan"], "B1": ["immortal"], "B5": ["spartan"]},
        camp=1,
    )
    march_through(G, s)
    act(G, s, "enter A6 spartan")
    assert s.camp == [] and not any(a.startswith("enter") for a in legal_texts(G, s))
    act(G, s, "done")
    play_on(G, s)
    assert s.camp == []


def test_switching_rows() -> None:
    """ "Instead of marching forward, a Unit can switch to a friendly row that is beside it
    (for example, a Spartan Unit can move from space B5 to space A5)"."""
    s = position(
        G,
        board={
            "A1": ["immortal"] * 2,
            "A5": ["spartan"],
            "B1": ["immortal"],
            "B5": ["leonidas"],
            "B6": ["spartan"],
        },
    )
    act(G, s, "move A1-B1 immortal")
    assert units(s, "B1") == ["immortal", "immortal"]
    march_through(G, s)
    act(G, s, "move B5-A5 leonidas")
    assert units(s, "A5") == ["leonidas", "spartan"] and units(s, "B5") == []


def test_switching_rows_uses_the_units_march() -> None:
    """ "Instead of marching forward": a unit that switched rows marches no further."""
    s = position(
        G, board={"A1": ["immortal"], "A5": ["spartan"], "B1": ["immortal"], "B5": ["leonidas"]}
    )
    march_through(G, s)
    act(G, s, "move B5-A5 leonidas")
    assert not can(G, s, "move A5-A4 leonidas") and not can(G, s, "move A5-B5 leonidas")


def test_switching_rows_only_behind_the_enemy_line() -> None:
    """Decision 2: a unit may switch only into a space without enemies, on its own side of
    the enemy line in that row."""
    s = position(
        G,
        board={"A2": ["immortal"], "A3": ["spartan"], "B4": ["infantry"] * 3, "B5": ["spartan"]},
        bonus_taken=["A3"],
        gates_entered=["B4"],
    )
    assert not can(G, s, "move B4-A4 infantry")  # behind the Spartans of row A
    march_through(G, s)
    assert s.actor == 1
    assert not can(G, s, "move A3-B3 spartan")  # behind the Persians of row B
    assert can(G, s, "move B5-A5 spartan")


def test_switching_rows_gives_no_glory_bonus() -> None:
    """Decision 2: "Switching is not 'advancing': no glory bonus"."""
    s = position(
        G,
        board={"A1": ["immortal"], "A3": ["spartan"], "B1": ["immortal"] * 6, "B4": ["spartan"]},
        bonus_taken=["A3"],
    )
    march_through(G, s)
    act(G, s, "move A3-B3 spartan")
    assert s.glory[1] == 0


def test_persians_switching_into_the_hot_gates_cost_glory() -> None:
    """Decision 2: "Persians entering a Hot Gates space by switching do cost the Spartans
    3 glory, the first time"."""
    s = position(
        G,
        board={"A4": ["infantry", "infantry"], "A5": ["spartan"], "B5": ["spartan"]},
        gates_entered=["A4"],
        glory=[0, 20],
    )
    act(G, s, "move A4-B4 infantry")
    assert s.glory[1] == 20 - GATES_PENALTY
    act(G, s, "move A4-B4 infantry")
    assert s.glory[1] == 20 - GATES_PENALTY


def test_march_with_nothing_to_do_asks_no_question() -> None:
    """Decision 20: a march in which the seat has nothing at all to do asks no question
    (the set-up: nobody can move, so the game goes straight to the battles)."""
    s = position(G, board=None)
    assert s.phase == DEAL and s.rolls and not s.draws


# -- Battle Phase ---------------------------------------------------------------------


def test_battle_spaces_are_adjacent_spaces_of_the_same_row() -> None:
    """ "If the Spartans are adjacent to the Persians in a particular Battle Row, then both
    of those spaces are considered Battle Spaces"."""
    s = position(G, board={"A2": ["infantry"], "A4": ["spartan"]}, at="battle")
    assert not s.rolls and s.round == 2
    s = position(G, board={"A3": ["infantry"], "A4": ["spartan"]}, at="battle")
    assert s.rolls and s.bt[battle.PSP] == space("A3") and s.bt[battle.SSP] == space("A4")


def test_row_a_battle_is_resolved_before_row_b() -> None:
    """ "If there are Battle Spaces in Row A, then that Battle is resolved first ...
    Completely resolve the Battle in Row A before starting the Battle in Row B"."""
    s = position(
        G,
        board={
            "A3": ["immortal"],
            "A4": ["leonidas", "stelios"],
            "B3": ["immortal"],
            "B4": ["captain*"],
        },
        at="battle",
    )
    assert s.bt[battle.ROW] == 0
    p, q = dice_due(s)
    ev = roll(G, s, faces_for(G, p, lowest(G) * p) + faces_for(G, q, dfn("immortal")))
    ev += casualties(G, s, "immortal")
    ev += settle(G, s)
    assert s.phase == CONQUER and s.bt[battle.ROW] == 0  # row A's Conquer step first
    ev += act(G, s, "done")
    ev += play_on(G, s)
    kinds = [(e.kind, e.data.get("row")) for e in ev if e.kind in ("battle", "eliminated")]
    assert kinds == [("eliminated", None), ("battle", "B")]
    assert [e.kind for e in ev].index("ephialtes") > [e.kind for e in ev].index("battle")


def test_damage_is_dealt_by_both_sides_before_casualties() -> None:
    """ "After both players receive Damage from their opponents, they each remove Units":
    Persians who fall still deal their Damage."""
    s = position(
        G, board={"A3": ["immortal"] * 3, "A4": ["leonidas", "captain", "stelios"]}, at="battle"
    )
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, dfn("spartan")) + faces_for(G, q, 3 * dfn("immortal")))
    casualties(G, s, "immortal", "immortal", "immortal")
    assert units(s, "A3") == [] and s.phase == CASUALTY and s.actor == 1
    assert s.bt[battle.LEFT][1] == dfn("spartan")


def test_battle_start_opens_a_card_window() -> None:
    """ "Battle Start: Each player can play Battle Cards that say "Battle Start""."""
    s = position(G, board={"A3": ["infantry"], "A4": ["spartan"]}, hands=[["p1"], []], at="battle")
    assert G.phase_name(s) == "battle cards" and s.actor == 0
    assert s.rolls == []


def test_battle_chart_gives_dice() -> None:
    """ "Each player adds up the Attack Numbers of all the Units in his Battle Space, and
    then consults the Battle Chart on the board to determine how many Battle Dice"."""
    for persians, spartans in (
        (["immortal", "immortal"], ["spartan"]),
        (["cavalry"] * 6, ["leonidas", "captain", "stelios"]),
        (["infantry"], ["spartan", "spartan*", "dilios"]),
        (["immortal"] * 3 + ["beast"], ["spartan"] * 5 + ["leonidas"]),
    ):
        s = position(G, board={"A2": persians, "A3": spartans}, bonus_taken=["A3"], at="battle")
        assert dice_due(s) == (dice_for(*persians), dice_for(*spartans)), (persians, spartans)


def test_battle_dice_add_up_to_the_damage() -> None:
    """ "The players then roll their Battle Dice and add up the totals to determine how much
    Damage they inflict"."""
    s = position(
        G, board={"A2": ["immortal"] * 6, "A3": ["spartan"] * 6}, bonus_taken=["A3"], at="battle"
    )
    p, q = dice_due(s)
    faces = sorted(set(C.faces))
    rolled = [faces[i % len(faces)] for i in range(p + q)]
    ev = roll(G, s, rolled)
    damage = of_kind(ev, "damage")[0]
    assert damage == {"to_spartan": sum(rolled[:p]), "to_persian": sum(rolled[p:])}


def test_no_more_than_six_battle_dice() -> None:
    """Components: "6 Battle Dice" (decision 19: never more than 6 dice a side)."""
    s = position(
        G,
        board={"A2": ["immortal"] * 3 + ["beast"], "A3": ["spartan"]},
        bonus_taken=["A3"],
        hands=[["p1", "p2", "p3", "p4"], []],
        at="battle",
    )
    for c in ("p1", "p2", "p3", "p4"):
        act(G, s, f"play {c}")
    assert dice_due(s)[0] == MAX_DICE == 6


def test_narrow_entrance_counts_three_units_or_one_war_beast() -> None:
    """ "Whenever the Persians attack from a Coastal Plain space into a Hot Gates space, the
    Persian player only gets to add up the Attack Numbers on 3 Units (or 1 War Beast) of
    his choice" (decision 7: the best choice, automatically)."""
    cases = (
        ["infantry"] * 6,
        ["immortal", "immortal", "cavalry", "infantry", "infantry", "infantry"],
        ["beast", "infantry", "infantry", "infantry"],
        ["beast", "immortal", "immortal", "immortal"],
        ["beast", "beast"],
    )
    for persians in cases:
        s = position(G, board={"A3": persians, "A4": ["spartan"]}, at="battle")
        values = sorted((atk(u) for u in persians if u != "beast"), reverse=True)
        beasts = [atk(u) for u in persians if u == "beast"]
        best = max(sum(values[:3]), max(beasts, default=0))
        assert battle.attack_total(s, G.t, 0) == best, persians
        assert dice_due(s)[0] == min(MAX_DICE, C.dice_for(best))


def test_narrow_entrance_only_from_the_coastal_plain_into_the_hot_gates() -> None:
    """ "from a Coastal Plain space into a Hot Gates space": elsewhere, and for the
    Spartans, every unit of the Battle Space counts."""
    persians = ["immortal"] * 6
    s = position(G, board={"A2": persians, "A3": ["spartan"] * 6}, bonus_taken=["A3"], at="battle")
    assert battle.attack_total(s, G.t, 0) == 6 * atk("immortal")
    assert battle.attack_total(s, G.t, 1) == 6 * atk("spartan")
    s = position(
        G, board={"A4": ["immortal"] * 3, "A5": ["spartan"]}, gates_entered=["A4"], at="battle"
    )
    assert battle.attack_total(s, G.t, 0) == 3 * atk("immortal")


def test_all_six_persians_may_be_casualties_at_the_narrow_entrance() -> None:
    """ "even though the Persian Player can only attack with 3 Units into the Hot Gates, all
    6 of his Units are eligible to be Casualties ... all 6 Units can be wiped out"."""
    persians = ["infantry", "infantry", "infantry", "immortal", "immortal", "immortal"]
    s = position(G, board={"A3": persians, "A4": ["leonidas", "captain", "stelios"]}, at="battle")
    p, q = dice_due(s)
    need = 3 * dfn("infantry") + 3 * dfn("immortal")
    assert most(q) >= need
    roll(G, s, faces_for(G, p, lowest(G) * p) + faces_for(G, q, need))
    # the infantry did not attack (the immortals are the best three), yet may fall first
    assert set(legal_texts(G, s)) == {"casualty infantry", "casualty immortal"}
    casualties(G, s, "infantry", "infantry", "infantry", "immortal", "immortal", "immortal")
    assert units(s, "A3") == []


def test_persian_chooses_casualties_first() -> None:
    """ "First the Persian player chooses his own Casualties, and then the Spartan player
    chooses his own Casualties"."""
    s = position(G, board={"A3": ["immortal"] * 3, "A4": ["spartan"] * 3}, at="battle")
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, dfn("spartan")) + faces_for(G, q, dfn("immortal")))
    assert s.phase == CASUALTY and s.actor == 0
    assert legal_texts(G, s) == ["casualty immortal"]
    casualties(G, s, "immortal")
    assert s.phase == CASUALTY and s.actor == 1
    assert legal_texts(G, s) == ["casualty spartan"]


def test_each_casualty_subtracts_its_defense_number() -> None:
    """ "Each Unit that is removed from the board subtracts its Defense Number from the
    amount of Damage that was inflicted. When there is no more Damage left ... the player
    is done"."""
    s = position(
        G,
        board={"A3": ["cavalry", "immortal", "infantry"], "A4": ["leonidas", "captain", "stelios"]},
        at="battle",
    )
    p, q = dice_due(s)
    need = dfn("cavalry") + dfn("immortal")
    roll(G, s, faces_for(G, p, lowest(G) * p) + faces_for(G, q, need))
    casualties(G, s, "cavalry")
    assert s.bt[battle.LEFT][0] == need - dfn("cavalry") and s.actor == 0
    casualties(G, s, "immortal")
    assert units(s, "A3") == ["infantry"]  # no Damage left: the Persian is done
    assert s.phase != CASUALTY or s.actor == 1


def test_casualties_end_when_no_units_are_left() -> None:
    """ "When there is no more Damage left (or if there are no more Units left), then the
    player is done removing Casualties"."""
    s = position(
        G, board={"A3": ["infantry"], "A4": ["leonidas", "captain", "stelios"]}, at="battle"
    )
    p, q = dice_due(s)
    assert most(q) > dfn("infantry")
    roll(G, s, faces_for(G, p, lowest(G) * p) + [highest(G)] * q)
    casualties(G, s, "infantry")
    assert units(s, "A3") == [] and (s.phase != CASUALTY or s.actor == 1)


def test_defense_above_remaining_damage_wounds_instead_of_killing() -> None:
    """ "If any Unit chosen by a player has a Defense Number higher than the remaining
    amount of Damage, then that Unit is not eliminated. Simply flip that Unit over to its
    red-bordered Wounded side"."""
    s = position(G, board={"A3": ["immortal"], "A4": ["spartan"]}, at="battle")
    p, q = dice_due(s)
    assert dfn("immortal") > 1 and dfn("spartan") > 1
    roll(G, s, faces_for(G, p, 1) + faces_for(G, q, 1))
    ev = casualties(G, s, "immortal")
    ev += casualties(G, s, "spartan")
    assert units(s, "A3") == ["immortal*"] and units(s, "A4") == ["spartan*"]
    assert of_kind(ev, "eliminated") == [] and len(of_kind(ev, "wounded")) == 2


def test_wounded_unit_dies_to_one_damage() -> None:
    """ "If, however, a piece was already Wounded, then if it receives another Wound (even
    from 1 Damage), then that Unit is eliminated"."""
    hero = max(("leonidas*", "stelios*", "captain*", "astinos*"), key=dfn)
    assert dfn(hero) > 1
    s = position(G, board={"A3": ["immortal*", "infantry"], "A4": [hero, "spartan"]}, at="battle")
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, 1) + faces_for(G, q, 1))
    casualties(G, s, "immortal*")
    casualties(G, s, hero)
    assert units(s, "A3") == ["infantry"] and units(s, "A4") == ["spartan"]
    assert hero.rstrip("*") in names(s.dead)
    assert names(s.boxes[-1]) == ["immortal"]


def test_dead_backed_units_always_die(tmp_path: Path) -> None:
    """ "Since Persian Infantry and Cavalry say "Dead" on their reverse side, they are
    always eliminated when selected as Casualties" (checked with a Defense Number that
    would otherwise only wound)."""
    g = variant(tmp_path, {"cavalry": {"defense": 4}, "infantry": {"defense": 4}})
    assert g.t.dead_back[code("cavalry")] and g.t.dead_back[code("infantry")]
    s = position(g, board={"A3": ["cavalry", "infantry"], "A4": ["spartan"]}, at="battle")
    p, q = dice_due(s)
    roll(g, s, faces_for(g, p, min(g.components.faces) * p) + faces_for(g, q, 1))
    ev = casualties(g, s, "cavalry")
    assert units(s, "A3") == ["infantry"] and of_kind(ev, "wounded") == []
    assert s.glory[1] == g.t.glory[code("cavalry")]


def test_defense_equal_to_the_remaining_damage_eliminates() -> None:
    """ "a Defense Number higher than the remaining amount of Damage" wounds: an equal one
    does not, the unit is eliminated."""
    s = position(G, board={"A3": ["immortal"] * 3, "A4": ["spartan", "leonidas"]}, at="battle")
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, dfn("spartan")) + faces_for(G, q, lowest(G) * q))
    settle(G, s, 0)
    ev = casualties(G, s, "spartan")
    assert units(s, "A4") == ["leonidas"] and len(of_kind(ev, "eliminated")) == 1


def test_damage_cannot_be_spread_out() -> None:
    """ "Players aren't allowed to "spread out" the Damage among all their pieces. Each piece
    is chosen one at a time and must absorb as much of the remaining Damage as possible"."""
    s = position(G, board={"A3": ["immortal"] * 3, "A4": ["spartan"] * 3}, at="battle")
    p, q = dice_due(s)
    damage = 2 * dfn("spartan") - 1  # kills one, then wounds one: never wounds two
    roll(G, s, faces_for(G, p, damage) + faces_for(G, q, lowest(G) * q))
    settle(G, s, 0)
    casualties(G, s, "spartan")
    assert units(s, "A4") == ["spartan", "spartan"]  # the first absorbed all it could
    casualties(G, s, "spartan")
    assert units(s, "A4") == ["spartan", "spartan*"]
    assert s.phase != CASUALTY


def test_merely_wounding_gives_no_glory() -> None:
    """ "Merely wounding a Persian Unit does not provide the Spartans with any Glory"."""
    s = position(G, board={"A3": ["xerxes"], "A4": ["spartan"]}, glory=[0, 7], at="battle")
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, lowest(G) * p) + faces_between(G, q, 1, dfn("xerxes") - 1))
    ev = casualties(G, s, "xerxes")
    assert units(s, "A3") == ["xerxes*"] and s.glory[1] == 7 and of_kind(ev, "glory") == []


def test_eliminated_persians_return_unwounded_and_score_glory() -> None:
    """ "stack them in the next lowest Reinforcements Box ... However, make sure the
    Spartan Player scores Glory Points for each eliminated Persian Unit" (decision 4:
    they come back unwounded)."""
    s = position(
        G,
        board={"A3": ["immortal*", "beast*"], "A4": ["leonidas", "captain", "stelios"]},
        at="battle",
    )
    p, q = dice_due(s)
    need = dfn("immortal*") + dfn("beast*")
    assert most(q) >= need
    roll(G, s, faces_for(G, p, lowest(G) * p) + faces_for(G, q, need))
    casualties(G, s, "immortal*", "beast*")
    assert names(s.boxes[-1]) == ["beast", "immortal"]
    assert s.glory[1] == glo("immortal") + glo("beast")


def test_eliminated_spartans_are_removed_from_the_game() -> None:
    """ "Whenever a Spartan Unit is eliminated, it is always removed from the game"."""
    s = position(
        G, board={"A3": ["immortal"] * 3, "A4": ["spartan", "stelios"]}, camp=3, at="battle"
    )
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, dfn("spartan")) + faces_for(G, q, lowest(G) * q))
    settle(G, s, 0)
    dead = len(s.dead)
    casualties(G, s, "spartan")
    assert len(s.dead) == dead + 1 and names(s.camp) == ["spartan"] * 3
    play_on(G, s)
    assert len(s.dead) == dead + 1 and len(s.camp) <= 3


def test_each_battles_dead_persians_form_one_box() -> None:
    """Decision 4: each battle's eliminated Persians form ONE new box at the end of the
    queue."""
    s = position(
        G,
        board={
            "A3": ["infantry"] * 2,
            "A4": ["leonidas", "captain", "stelios"],
            "B3": ["cavalry"] * 2,
            "B4": ["astinos", "spartan", "spartan"],
        },
        boxes=[["beast", "beast"]],
        at="battle",
    )
    first = len(s.boxes)
    for _ in range(2):
        p, q = dice_due(s)
        assert most(q) >= 2 * max(dfn("infantry"), dfn("cavalry"))
        roll(G, s, faces_for(G, p, lowest(G) * p) + [highest(G)] * q)
        settle(G, s)
        while s.phase == CONQUER:
            act(G, s, "done")
    assert [names(b) for b in s.boxes[first:]] == [["infantry"] * 2, ["cavalry"] * 2]


# -- Conquer --------------------------------------------------------------------------


def _spartans_wipe_out_a3(**kw: Any) -> State:
    s = position(
        G,
        board={
            "A3": ["infantry"],
            "A4": ["leonidas", "spartan", "spartan"],
            "A5": ["spartan"] * 3,
            "A6": ["astinos"],
        },
        camp=0,
        at="battle",
        **kw,
    )
    p, q = dice_due(s)
    assert most(q) >= dfn("infantry")
    roll(G, s, faces_for(G, p, lowest(G) * p) + [highest(G)] * q)
    casualties(G, s, "infantry")
    settle(G, s)
    return s


def test_conquer_is_optional() -> None:
    """ "Neither player (Spartan or Persian) is forced to immediately advance into a
    conquered space if he doesn't want to"."""
    s = _spartans_wipe_out_a3()
    assert s.phase == CONQUER and s.actor == 1
    assert "done" in legal_texts(G, s) and can(G, s, "move A4-A3 leonidas")
    act(G, s, "done")
    assert s.phase != CONQUER and units(s, "A3") == [] and s.glory[1] == glo("infantry")


def test_conquer_gives_the_space_behind_a_free_move() -> None:
    """ "If a player's Units advance into a conquered space, then all the Units in the space
    right behind them also get a free movement forward"."""
    s = _spartans_wipe_out_a3()
    act(G, s, "move A4-A3 leonidas", "move A4-A3 spartan", "done")
    assert s.phase == CONQUER
    assert set(legal_texts(G, s)) == {"move A5-A4 spartan", "done"}
    act(G, s, "move A5-A4 spartan", "move A5-A4 spartan")
    assert units(s, "A4") == ["spartan"] * 3 and s.phase != CONQUER


def test_free_move_only_for_the_space_right_behind() -> None:
    """ "This only applies to the Units in the space right behind, not any Units that are
    2 or more spaces behind"."""
    s = _spartans_wipe_out_a3()
    act(G, s, "move A4-A3 leonidas", "move A4-A3 spartan", "move A4-A3 spartan")
    assert s.phase == CONQUER and s.bt[battle.STAGE] == 1  # A4 is empty: the follow-up
    assert not any(a.startswith("move A6") for a in legal_texts(G, s))
    act(G, s, "move A5-A4 spartan", "done")
    assert units(s, "A6") == ["astinos"] and units(s, "A5") == ["spartan", "spartan"]


def test_no_free_move_without_an_advance() -> None:
    """Decision 12: only if at least one unit advanced may the space right behind move."""
    s = position(
        G,
        board={"A3": ["infantry"], "A4": ["leonidas", "spartan"], "A5": ["spartan"] * 3},
        at="battle",
    )
    p, q = dice_due(s)
    assert most(q) >= dfn("infantry")
    roll(G, s, faces_for(G, p, lowest(G) * p) + [highest(G)] * q)
    casualties(G, s, "infantry")
    settle(G, s)
    assert s.phase == CONQUER
    act(G, s, "done")  # A4 has room, but nobody advanced: no follow-up
    assert s.phase != CONQUER and units(s, "A5") == ["spartan"] * 3


def test_persians_conquering_into_the_hot_gates_move_at_most_three() -> None:
    """ "if a Persian army conquers a space in the Hot Gates, the Persian army can only move
    up to 3 Units (or 1 War Beast) into that space"."""
    for persians, most_in in (
        (["immortal"] * 6, ["immortal"] * 3),
        (["beast", "immortal", "immortal", "immortal"], ["beast"]),
    ):
        s = position(G, board={"A3": persians, "A4": ["spartan"]}, at="battle")
        p, q = dice_due(s)
        assert most(p) >= dfn("spartan")
        roll(G, s, faces_for(G, p, dfn("spartan")) + faces_for(G, q, lowest(G) * q))
        settle(G, s)
        assert s.phase == CONQUER and s.actor == 0
        while s.phase == CONQUER and s.bt[battle.STAGE] == 0:
            move = next(
                a
                for a in legal_texts(G, s)
                if a.endswith(most_in[0]) and a.startswith("move A3-A4")
            )
            act(G, s, move)
        assert units(s, "A4") == most_in


def test_no_conquest_when_both_battle_spaces_are_wiped_out() -> None:
    """Decision 12: both wiped out: no conquest."""
    s = position(G, board={"A3": ["infantry"], "A4": ["spartan"]}, at="battle")
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, dfn("spartan")) + faces_for(G, q, dfn("infantry")))
    casualties(G, s, "infantry")
    casualties(G, s, "spartan")
    assert s.phase != CONQUER and units(s, "A3") == units(s, "A4") == []


# -- Glory Bonuses --------------------------------------------------------------------


def test_spartans_advancing_onto_the_coastal_plain_score_the_bonus() -> None:
    """ "Whenever the Spartans advance into a space out on the Coastal Plain, they receive
    Bonus Glory as indicated in that space (3, 6, or 12)" (A1 = 12: see the pull-back)."""
    assert C.rules.glory_bonus == [BONUS["1"], BONUS["2"], BONUS["3"]]
    s = position(
        G, board={"A1": ["immortal"], "A4": ["spartan"], "B1": ["immortal"], "B4": ["spartan"]}
    )
    march_through(G, s)
    ev = act(G, s, "move A4-A3 spartan")
    assert s.glory[1] == BONUS["3"]
    assert [g["change"] for g in of_kind(ev, "glory")] == [BONUS["3"]]
    s = position(
        G,
        board={"A2": ["infantry"], "A3": ["leonidas", "captain", "stelios"]},
        bonus_taken=["A3"],
        at="battle",
    )
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, lowest(G) * p) + [highest(G)] * q)
    casualties(G, s, "infantry")
    settle(G, s)
    ev = act(G, s, "move A3-A2 leonidas")
    assert s.glory[1] == glo("infantry") + BONUS["2"]
    assert [g["change"] for g in of_kind(ev, "glory")] == [BONUS["2"]]


def test_glory_bonus_only_the_first_time() -> None:
    """ "This only applies the first time they move into a particular space"."""
    s = position(
        G,
        board={"A1": ["immortal"], "A4": ["spartan"] * 2, "B1": ["immortal"], "B3": ["spartan"]},
        bonus_taken=["B3"],
    )
    march_through(G, s)
    act(G, s, "move A4-A3 spartan")
    assert s.glory[1] == BONUS["3"]
    act(G, s, "move A4-A3 spartan")  # a second unit into the same space
    assert s.glory[1] == BONUS["3"] and s.bonus_taken & 1 << space("A3")
    s2 = position(
        G,
        board={"A1": ["immortal"], "A4": ["spartan"], "B1": ["immortal"], "B4": ["spartan"]},
        bonus_taken=["A3"],
        glory=[0, 5],
    )
    march_through(G, s2)
    act(G, s2, "move A4-A3 spartan")  # an earlier round already took it
    assert s2.glory[1] == 5


def test_glory_bonus_for_a_conquest() -> None:
    """ "Whenever the Spartans advance into a space out on the Coastal Plain" (by conquest
    too)."""
    s = _spartans_wipe_out_a3()
    glory = s.glory[1]
    act(G, s, "move A4-A3 leonidas")
    assert s.glory[1] == glory + BONUS["3"]


def test_persians_entering_hot_gates_cost_three_glory_once_per_space() -> None:
    """ "if the Persians enter the Hot Gates, then the Spartans lose Glory (3 points per
    space entered by the Persians). This also only applies the first time"."""
    s = position(
        G, board={"A3": ["infantry"] * 3, "A6": ["spartan"], "B4": ["spartan"]}, glory=[0, 20]
    )
    ev = act(G, s, "move A3-A4 infantry")
    assert s.glory[1] == 20 - GATES_PENALTY
    ev += act(G, s, "move A3-A4 infantry")
    assert s.glory[1] == 20 - GATES_PENALTY
    assert [g["change"] for g in of_kind(ev, "glory")] == [-GATES_PENALTY]
    # a later round: A4 was entered already, A5 was not
    s = position(
        G,
        board={"A4": ["infantry"] * 3, "A6": ["spartan"], "B4": ["spartan"]},
        glory=[0, 20],
        gates_entered=["A4"],
        round_=3,
    )
    act(G, s, "move A4-A5 infantry")
    assert s.glory[1] == 20 - GATES_PENALTY
    s = position(
        G,
        board={"A3": ["infantry"] * 3, "A5": ["spartan"], "B4": ["spartan"]},
        glory=[0, 20],
        gates_entered=["A4"],
        round_=3,
    )
    act(G, s, "move A3-A4 infantry")
    assert s.glory[1] == 20


def test_persians_conquering_into_the_hot_gates_cost_glory() -> None:
    """ "if the Persians enter the Hot Gates, then the Spartans lose Glory" (by conquest)."""
    s = position(G, board={"A3": ["immortal"] * 3, "A4": ["spartan"]}, glory=[0, 10], at="battle")
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, dfn("spartan")) + faces_for(G, q, lowest(G) * q))
    settle(G, s)
    act(G, s, "move A3-A4 immortal")
    assert s.glory[1] == 10 - GATES_PENALTY


# -- Conquering the Last Space in a Row -----------------------------------------------


def _spartans_conquer_a1(**kw: Any) -> State:
    board = {
        "A1": ["infantry"],
        "A2": ["leonidas", "captain", "spartan"],
        "A3": ["spartan", "spartan"],
        "A5": ["stelios"],
    }
    board.update(kw.pop("board", {}))
    s = position(G, board=board, bonus_taken=["A2", "A3"], at="battle", **kw)
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, lowest(G) * p) + [highest(G)] * q)
    casualties(G, s, "infantry")
    settle(G, s)
    assert s.phase == CONQUER
    return s


def test_last_space_pull_back_and_persian_return() -> None:
    """ "If the Spartan Units in one row make it all the way to the last space on the
    Coastal Plain, then after the Spartans score their 12 Bonus Glory, they immediately
    pull that row of Units back into the Hot Gates and can rearrange their Units in that
    row however they see fit. The Persians must then immediately march Units from their
    Reinforcements Boxes back up to the Hot Gates" (decision 11)."""
    s = _spartans_conquer_a1()
    glory = s.glory[1]
    act(G, s, "move A2-A1 leonidas")
    assert s.glory[1] == glory + BONUS["1"]
    act(G, s, "done", "move A3-A2 spartan", "done")
    assert s.phase == PULLBACK and s.actor == 1
    assert names(s.pool) == ["captain", "leonidas", "spartan", "spartan", "spartan", "stelios"]
    assert all(units(s, n) == [] for n in ROW_A)
    targets = {a.split()[1] for a in legal_texts(G, s)}
    assert targets == {"A4", "A5", "A6"}
    act(G, s, "enter A6 leonidas", "enter A6 stelios", "enter A6 captain")
    assert not any(a.startswith("enter A6") for a in legal_texts(G, s))
    act(G, s, "enter A4 spartan", "enter A4 spartan", "enter A5 spartan")
    assert s.phase == RETURN and s.actor == 0
    assert "done" not in legal_texts(G, s) and can(G, s, "enter A1 xerxes")
    assert {a.split()[1] for a in legal_texts(G, s)} == {"A1", "A2", "A3"}
    fill(G, s)
    assert s.phase != RETURN
    assert sum(load(s, n) for n in ("A1", "A2", "A3")) == 3 * COASTAL_CAPACITY
    assert units(s, "A6") == ["captain", "leonidas", "stelios"]


def test_bonuses_available_again_after_pull_back() -> None:
    """ "Once this has occurred, the Spartans are once again eligible to gain the Glory
    Bonuses for the spaces in that row again"."""
    s = _spartans_conquer_a1()
    act(G, s, "move A2-A1 leonidas", "done", "done")
    fill(G, s)  # the Spartans place their units
    fill(G, s)  # the Persians come back
    view = {b["space"]: b["bonus"] for b in G.view(s, None)["board"]}
    assert [view[n] for n in ("A1", "A2", "A3")] == [BONUS["1"], BONUS["2"], BONUS["3"]]
    assert s.bonus_taken & 0b111 == 0


def test_pulled_back_units_without_room_return_to_the_camp() -> None:
    """Decision 11: units that find no room in the row's Hot Gates return to the Spartan
    Camp."""
    s = _spartans_conquer_a1(
        board={"A3": ["spartan"] * 6, "A4": ["spartan"] * 3, "A5": ["stelios"]}, camp=0
    )
    act(G, s, "move A2-A1 leonidas", "done", "done")
    assert s.phase == PULLBACK and len(s.pool) == 13
    fill(G, s)
    assert sum(len(s.board[space(n)]) for n in ("A4", "A5", "A6")) == 3 * GATES_CAPACITY
    assert len(s.camp) == 13 - 3 * GATES_CAPACITY


def test_pull_back_happens_before_the_other_rows_battle() -> None:
    """Decision 11: the pull-back and the Persian return happen before the other row's
    battle."""
    s = _spartans_conquer_a1(board={"B3": ["infantry"], "B4": ["astinos*"]})
    assert s.rolls == [] and s.bt[battle.ROW] == 0
    act(G, s, "move A2-A1 leonidas", "done", "done")
    assert s.phase == PULLBACK
    fill(G, s)
    fill(G, s)
    assert s.phase == DEAL and s.bt[battle.ROW] == 1 and s.rolls


def test_persians_conquering_last_space_win_at_end_of_round() -> None:
    """ "If the Persians ever conquer the last space in a Spartan Row, then if the Spartans
    do not earn 100 Glory by the end of that round, the Persians enter the Spartan Camp
    ... winning the game" (decision 13)."""
    s = position(
        G,
        board={"A5": ["immortal"] * 3, "A6": ["spartan"], "B4": ["spartan"]},
        gates_entered=["A4", "A5"],
        at="battle",
    )
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, dfn("spartan")) + faces_for(G, q, lowest(G) * q))
    settle(G, s)
    act(G, s, "move A5-A6 immortal")
    assert s.breach and s.phase != OVER
    ev = play_on(G, s)
    assert s.phase == OVER and s.winners == [0]
    kinds = [e.kind for e in ev]
    assert kinds.index("ephialtes") < kinds.index("end")


def test_persians_in_the_last_space_lose_if_the_spartans_reach_hundred() -> None:
    """ "if the Spartans do not earn 100 Glory by the end of that round": they did."""
    s = position(
        G,
        board={"A6": ["immortal"], "B3": ["infantry"], "B4": ["leonidas"]},
        breach=True,
        glory=[0, WIN_2P - glo("infantry")],
        at="battle",
    )
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, lowest(G) * p) + [highest(G)] * q)
    casualties(G, s, "infantry")
    settle(G, s)
    assert s.phase == OVER and s.winners == [1]


def test_persians_marching_into_the_last_space_also_win() -> None:
    """Decision 13: any Persian unit entering space 6 of a row (conquest or march) sets
    `breach`."""
    s = position(G, board={"A5": ["infantry"], "B4": ["spartan"]}, gates_entered=["A5"])
    act(G, s, "move A5-A6 infantry")
    assert s.breach
    play_on(G, s)
    assert s.phase == OVER and s.winners == [0]


# -- Ephialtes Phase ------------------------------------------------------------------


def test_ephialtes_phase_comes_after_both_battles_then_a_new_round() -> None:
    """ "After the Battles in both Row A and Row B have been resolved, Ephialtes moves one
    space forward ... Otherwise, a new round begins, starting with a new Draw Phase"."""
    s = position(
        G,
        board={"A3": ["immortal"], "A4": ["leonidas"], "B3": ["immortal"], "B4": ["captain"]},
        at="battle",
    )
    ev = play_on(G, s)
    kinds = [e.kind for e in ev]
    last_battle = max(i for i, k in enumerate(kinds) if k == "damage")
    assert kinds.index("ephialtes") > last_battle
    assert kinds[-1] == "round" or "round" in kinds[kinds.index("ephialtes") :]
    assert s.phase == DEAL and s.draws == [0, 1] and s.round == 2 and s.eph == 1


# -- Dilios ---------------------------------------------------------------------------


def test_dilios_eliminated_costs_ten_glory() -> None:
    """ "If Dilios the Storyteller is ever eliminated from the game, the Spartan Player
    immediately loses 10 Glory"."""
    s = position(G, board={"A3": ["immortal"] * 3, "A4": ["dilios"]}, glory=[0, 30], at="battle")
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, dfn("dilios")) + faces_for(G, q, lowest(G) * q))
    settle(G, s, 0)
    casualties(G, s, "dilios")
    assert s.glory[1] == 30 - DILIOS_2P


def test_dilios_loss_counted_before_a_hundred_glory_win_in_the_same_battle() -> None:
    """ "If the Spartans achieve 100 Glory during a Battle but are about to lose Dilios
    during that same Battle, then they must lose the points for Dilios before determining
    if they have won the game"."""
    start = WIN_2P - glo("infantry")
    s = position(G, board={"A3": ["infantry"], "A4": ["dilios"]}, glory=[0, start], at="battle")
    p, q = dice_due(s)
    assert most(p) >= dfn("dilios") and most(q) >= dfn("infantry")
    roll(G, s, faces_for(G, p, dfn("dilios")) + faces_for(G, q, dfn("infantry")))
    casualties(G, s, "infantry")
    assert s.glory[1] == WIN_2P and s.phase != OVER  # not yet: Dilios is about to fall
    casualties(G, s, "dilios")
    assert s.phase != OVER and s.glory[1] == WIN_2P - DILIOS_2P


# -- The end --------------------------------------------------------------------------


def test_persians_win_by_wiping_out_the_spartans() -> None:
    """ "If the Persian Player can wipe out the Spartans before they achieve 100 Glory ...
    then the Persian player wins the game" (decision 14: at once)."""
    s = position(G, board={"A3": ["immortal"] * 3, "A4": ["spartan"]}, camp=0, at="battle")
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, dfn("spartan")) + faces_for(G, q, lowest(G) * q))
    settle(G, s, 0)
    casualties(G, s, "spartan")
    assert s.phase == OVER and s.winners == [0] and s.eph == 0


def test_spartans_in_the_camp_are_not_wiped_out() -> None:
    """Decision 14: "no Spartan unit on the board, in the camp or being pulled back"."""
    s = position(G, board={"A3": ["immortal"] * 3, "A4": ["spartan"]}, camp=1, at="battle")
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, dfn("spartan")) + faces_for(G, q, lowest(G) * q))
    settle(G, s, 0)
    casualties(G, s, "spartan")
    assert s.phase != OVER


def test_wipe_out_comes_after_the_glory_check_of_that_battle() -> None:
    """Decision 14: the wipe-out wins for the Persians "after the Spartans' glory check of
    that battle"."""
    s = position(
        G,
        board={"A3": ["infantry"], "A4": ["spartan"]},
        camp=0,
        glory=[0, WIN_2P - glo("infantry")],
        at="battle",
    )
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, dfn("spartan")) + faces_for(G, q, dfn("infantry")))
    casualties(G, s, "infantry")
    casualties(G, s, "spartan")
    assert s.phase == OVER and s.winners == [1]


# -- 3 Player Game --------------------------------------------------------------------


def test_three_player_seats_and_rows() -> None:
    """ "The first Spartan Player controls the Spartan forces in Row A, and the second
    Spartan Player controls the Spartan forces in Row B" (decision 1)."""
    assert G.seats({"players": 3}) == ("persia", "sparta-a", "sparta-b")
    s = position(
        G,
        players=3,
        board={"A1": ["immortal"], "A5": ["spartan"], "B1": ["immortal"], "B5": ["spartan"]},
    )
    march_through(G, s)
    assert s.actor == 1
    assert all(" A" in a or a == "done" or a.startswith("move A") for a in legal_texts(G, s))
    act(G, s, "done")
    assert s.actor == 2
    assert all(a.startswith(("move B", "enter B")) or a == "done" for a in legal_texts(G, s))


def test_three_player_decks_split_a_b() -> None:
    """ "the Spartan Players separate the Spartan Battle Deck into "A" and "B" decks ... The
    Spartan Player controlling Row A takes the "A Deck" and the other player receives the
    "B Deck""."""
    s = G.new({"players": 3})
    decks = [[G.cards[c] for c in d] for d in s.decks]
    assert len(decks[0]) == 26 and {c.side for c in decks[0]} == {"persian"}
    assert len(decks[1]) == 13 and {(c.side, c.letter) for c in decks[1]} == {("spartan", "A")}
    assert len(decks[2]) == 13 and {(c.side, c.letter) for c in decks[2]} == {("spartan", "B")}


def test_three_player_persian_starts_with_four_draws_two() -> None:
    """ "Each Spartan Player draws 3 cards at the start of the game as normal. The Persian
    Player gets to start with 4 cards. During the Draw Phase, each Spartan Player draws 1
    card as normal. The Persian Player gets to draw 2 cards" (decision 21)."""
    s = G.new({"players": 3})
    assert sorted(s.draws) == [0] * (START_HAND + 1) + [1] * START_HAND + [2] * START_HAND
    s = position(G, players=3, board=blocked_persians(), at="draw")
    assert sorted(s.draws) == [0, 0, 1, 2]


def test_three_player_row_a_spartan_marches_before_row_b() -> None:
    """ "During the March Phase, the Spartan Player in Row A marches his forces before the
    Spartan Player in Row B"."""
    s = position(
        G,
        players=3,
        board={"A1": ["immortal"], "A5": ["spartan"], "B1": ["immortal"], "B5": ["spartan"]},
    )
    order = []
    while s.phase == MARCH:
        order.append(s.actor)
        march_through(G, s)
    assert order == [0, 1, 2]


def test_three_player_glory_goes_to_the_rows_spartan() -> None:
    """ "each Spartan Player places his own Glory Marker on the Glory Track" (decision 17:
    glory, bonuses and penalties go to the Spartan player of the row)."""
    s = position(
        G,
        players=3,
        board={"A3": ["infantry"] * 2, "A5": ["spartan"], "B1": ["immortal"], "B4": ["spartan"]},
        glory=[0, 10, 10],
    )
    act(G, s, "move A3-A4 infantry")
    assert s.glory == [0, 10 - GATES_PENALTY, 10]
    march_through(G, s)
    march_through(G, s)  # sparta-a: nothing
    act(G, s, "move B4-B3 spartan")
    assert s.glory == [0, 10 - GATES_PENALTY, 10 + BONUS["3"]]


def test_three_player_switching_hands_the_unit_to_the_other_row() -> None:
    """Decision 1: a unit that switches rows passes to the other row's player."""
    s = position(
        G,
        players=3,
        board={
            "A1": ["immortal"],
            "A5": ["leonidas", "spartan"],
            "B1": ["immortal"],
            "B5": ["spartan"],
        },
        camp=0,
    )
    march_through(G, s)
    assert s.actor == 1
    act(G, s, "move A5-B5 leonidas", "done")
    play_on(G, s)
    to_march(G, s)
    march_through(G, s)
    assert s.actor == 1 and not any("leonidas" in a for a in legal_texts(G, s))
    act(G, s, "done")
    assert s.actor == 2 and can(G, s, "move B5-B4 leonidas")


def test_three_player_camp_is_shared_first_come_first_served() -> None:
    """Decision 5: in 3-4p the camp is shared, first come first served; row A's player
    marches first."""
    s = position(
        G,
        players=3,
        board={"A1": ["immortal"], "A5": ["spartan"], "B1": ["immortal"], "B5": ["spartan"]},
        camp=4,
    )
    march_through(G, s)
    assert s.actor == 1 and not any(" B6 " in a + " " for a in legal_texts(G, s))
    act(G, s, "enter A6 spartan", "enter A6 spartan", "enter A6 spartan", "done")
    assert s.actor == 2
    act(G, s, "enter B6 spartan")
    assert s.camp == [] and not any(a.startswith("enter") for a in legal_texts(G, s))


def test_fifty_glory_ends_after_the_battle_phase_most_glory_wins() -> None:
    """ "If one Spartan Player ever achieves 50 Glory Points during the Battle Phase, then
    finish that Battle Phase completely ... the Spartan Player with the most Glory
    immediately wins the game ... Ephialtes does not get to advance"."""
    s = position(
        G,
        players=3,
        board={"A3": ["infantry"], "A4": ["leonidas"], "B3": ["infantry"], "B4": ["captain"]},
        glory=[0, WIN_TEAM - glo("infantry"), 0],
        at="battle",
    )
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, lowest(G) * p) + [highest(G)] * q)
    casualties(G, s, "infantry")
    settle(G, s)
    while s.phase == CONQUER:
        act(G, s, "done")
    assert s.phase != OVER and s.glory[1] >= WIN_TEAM
    assert s.bt[battle.ROW] == 1  # row B's battle is still fought
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, lowest(G) * p) + [highest(G)] * q)
    casualties(G, s, "infantry")
    settle(G, s)
    while s.phase == CONQUER:
        act(G, s, "done")
    assert s.phase == OVER and s.winners == [1] and s.eph == 0
    assert s.glory[2] == glo("infantry")


def test_fifty_glory_from_any_source_counts_at_the_end_of_the_battle_phase() -> None:
    """Decision 15: "at the end of every Battle Phase, if a Spartan has >= 50 (glory from
    any source)"."""
    s = position(
        G,
        players=3,
        board={
            "A1": ["immortal"] * 6,
            "A4": ["spartan"] * 2,
            "B1": ["immortal"] * 6,
            "B4": ["spartan"],
        },
        glory=[0, WIN_TEAM - BONUS["3"], 0],
    )
    march_through(G, s)
    act(G, s, "move A4-A3 spartan")
    assert s.glory[1] == WIN_TEAM and s.phase != OVER
    play_on(G, s)
    assert s.phase == OVER and s.winners == [1] and s.eph == 0


def test_three_player_fifty_lost_before_the_end_of_the_battle_phase() -> None:
    """ "If at the end of that Battle Phase at least one Spartan Player still has 50 or more
    Glory" (Dilios may take it away)."""
    s = position(
        G,
        players=3,
        board={"A3": ["infantry"], "A4": ["leonidas"], "B3": ["immortal"] * 3, "B4": ["dilios"]},
        glory=[0, WIN_TEAM - glo("infantry"), 30],
        at="battle",
    )
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, lowest(G) * p) + [highest(G)] * q)
    casualties(G, s, "infantry")
    settle(G, s)
    while s.phase == CONQUER:
        act(G, s, "done")
    assert s.glory[1] == WIN_TEAM
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, dfn("dilios")) + faces_for(G, q, lowest(G) * q))
    settle(G, s, 0)
    casualties(G, s, "dilios")
    assert s.glory == [0, WIN_TEAM - DILIOS_TEAM, 30 - DILIOS_TEAM]
    play_on(G, s)
    assert s.phase != OVER and s.eph == 1


def test_three_player_tie_shares_victory() -> None:
    """ "in case of a tie, both players share the victory"."""
    s = position(
        G,
        players=3,
        board=blocked_persians(A4=[], B4=[], A5=["spartan"], B5=["spartan"]),
        glory=[0, WIN_TEAM + 4, WIN_TEAM + 4],
        at="battle",
    )
    assert s.phase == OVER and s.winners == [1, 2]
    s = position(
        G,
        players=3,
        board=blocked_persians(A4=[], B4=[], A5=["spartan"], B5=["spartan"]),
        glory=[0, WIN_TEAM + 4, WIN_TEAM + 5],
        at="battle",
    )
    assert s.phase == OVER and s.winners == [2]


def test_three_player_glory_below_fifty_does_not_win() -> None:
    """ "If one of the Spartan players achieves 50 Glory, then that player wins": 49 is
    not enough."""
    s = position(
        G,
        players=3,
        board={"A3": ["infantry"], "A4": ["leonidas"]},
        glory=[0, WIN_TEAM - 1, 0],
        at="ephialtes",
    )
    assert s.phase != OVER and s.round == 2


def test_three_player_dilios_costs_each_spartan_five() -> None:
    """ "In a 3 or 4 Player Game, both Spartan Players instead lose 5 Glory if Dilios is
    eliminated" (decision 17)."""
    s = position(
        G,
        players=3,
        board={"B3": ["immortal"] * 3, "B4": ["dilios"]},
        glory=[0, 20, 20],
        at="battle",
    )
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, dfn("dilios")) + faces_for(G, q, lowest(G) * q))
    settle(G, s, 0)
    assert s.actor == 2
    casualties(G, s, "dilios")
    assert s.glory == [0, 20 - DILIOS_TEAM, 20 - DILIOS_TEAM]


# -- 4 Player Game --------------------------------------------------------------------


def test_four_player_seats_and_decks() -> None:
    """ "one Persian Player controls the Persian forces in Row A, and the other Persian
    Player controls the Persian forces in Row B. During Set Up, separate both the Spartan
    and Persian Battle Decks into "A" and "B" decks ... Each player draws 3 cards"."""
    assert G.seats({"players": 4}) == ("persia-a", "persia-b", "sparta-a", "sparta-b")
    s = G.new({"players": 4})
    want = [("persian", "A"), ("persian", "B"), ("spartan", "A"), ("spartan", "B")]
    for seat, (side, letter) in enumerate(want):
        cards = [G.cards[c] for c in s.decks[seat]]
        assert len(cards) == 13 and {(c.side, c.letter) for c in cards} == {(side, letter)}
    assert sorted(s.draws) == sorted([0, 1, 2, 3] * START_HAND)


def test_four_player_each_player_draws_one_card() -> None:
    """ "During the Draw Phase, each player draws 1 card"."""
    s = position(G, players=4, board=blocked_persians(), at="draw")
    assert sorted(s.draws) == [0, 1, 2, 3]


def test_four_player_row_a_persian_marches_first() -> None:
    """ "During the March Phase, the Persian Player in Row A marches his forces (and draws
    from the Reinforcements Boxes) before the Persian Player in Row B"."""
    s = position(
        G,
        players=4,
        board={"A1": ["infantry"], "A5": ["spartan"], "B1": ["infantry"], "B5": ["spartan"]},
        boxes=[["beast", "beast"]],
    )
    assert s.actor == 0
    assert all(a.startswith(("move A", "enter A")) for a in legal_texts(G, s))
    act(G, s, "move A1-A2 infantry", "enter A1 beast", "enter A1 beast")
    assert s.actor == 1  # persia-a has nothing left to do
    assert not any(a.endswith("beast") for a in legal_texts(G, s))
    order = [1]
    march_through(G, s)
    while s.phase == MARCH:
        order.append(s.actor)
        march_through(G, s)
    assert order == [1, 2, 3]


def test_four_player_kills_count_for_the_rows_persian() -> None:
    """ "Each time a Persian Player eliminates a Spartan Unit, place that Unit in front of
    that Persian Player" (decision 16)."""
    s = position(G, players=4, board={"B3": ["immortal"] * 3, "B4": ["spartan"]}, at="battle")
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, dfn("spartan")) + faces_for(G, q, lowest(G) * q))
    settle(G, s, 0)
    assert s.actor == 3
    casualties(G, s, "spartan")
    assert s.kills == [0, 1, 0, 0]


def test_four_player_persian_with_most_kills_wins() -> None:
    """ "the Persian Player with the most defeated Spartan Units wins the game"."""
    s = position(
        G,
        players=4,
        board=blocked_persians(),
        kills=[2, 3, 0, 0],
        eph=C.goat_path - 1,
        at="ephialtes",
    )
    assert s.phase == OVER and s.winners == [1]


def test_four_player_persians_with_equal_kills_share_the_victory() -> None:
    """ "If both Persian Players have the same number of defeated Spartan Units, then both
    Persian Players share the victory"."""
    s = position(
        G,
        players=4,
        board=blocked_persians(),
        kills=[2, 2, 0, 0],
        eph=C.goat_path - 1,
        at="ephialtes",
    )
    assert s.phase == OVER and s.winners == [0, 1]


def test_four_player_wipe_out_most_kills_wins() -> None:
    """ "If the Spartans are completely wiped out ... the Persian Player with the most
    defeated Spartan Units wins"."""
    s = position(
        G,
        players=4,
        board={"A3": ["immortal"] * 3, "A4": ["spartan"]},
        camp=0,
        kills=[3, 3, 0, 0],
        at="battle",
    )
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, dfn("spartan")) + faces_for(G, q, lowest(G) * q))
    settle(G, s, 0)
    casualties(G, s, "spartan")
    assert s.phase == OVER and s.winners == [0] and s.kills == [4, 3, 0, 0]


def test_four_player_spartans_win_at_fifty() -> None:
    """ "The victory conditions for the 2 Spartan Players remain the same"."""
    quiet = blocked_persians(A4=[], B4=[], A5=["spartan"], B5=["spartan"])
    s = position(G, players=4, board=quiet, glory=[0, 0, WIN_TEAM - 1, 0], at="battle")
    assert s.phase != OVER
    s = position(G, players=4, board=quiet, glory=[0, 0, 0, WIN_TEAM], at="battle")
    assert s.phase == OVER and s.winners == [3]
