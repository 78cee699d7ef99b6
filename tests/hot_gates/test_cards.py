"""Battle Cards (seed 000, "Playing Battle Cards"; decisions 9, 10, 18 and 19): the order
of play in a window, and each effect of the card vocabulary. Card codes and amounts are
read from the component set (the card texts are provisional)."""

from __future__ import annotations

from tests.hot_gates.helpers import (
    act,
    can,
    card,
    cards_with,
    casualties,
    code,
    dice_due,
    draw,
    faces_for,
    hg,
    highest,
    legal_texts,
    lowest,
    march_through,
    of_kind,
    position,
    roll,
    units,
)
from thermopylae.games.hot_gates import battle
from thermopylae.games.hot_gates.components import MAX_DICE
from thermopylae.games.hot_gates.state import CASUALTY, DEAL, MARCH, WINDOW, State

G = hg()
T = G.t
C = G.components


def amount(code_: str) -> int:
    return G.cards[card(G, code_)].amount


def one(side: str, effect: str, *, letter: str | None = None) -> str:
    codes = cards_with(G, side, effect, letter=letter)
    assert codes, f"the component set has no {side} {effect} card"
    return codes[0]


def two(side: str, effect: str) -> list[str]:
    codes = cards_with(G, side, effect)
    assert len(codes) >= 2, f"the component set has fewer than two {side} {effect} cards"
    return codes[:2]


def atk(name: str) -> int:
    return T.attack[code(name)]


def dfn(name: str) -> int:
    return T.defense[code(name)]


QUIET = {"A1": ["immortal"], "A5": ["spartan"], "B1": ["immortal"], "B5": ["spartan"]}
BATTLE = {"A3": ["immortal"] * 3, "A4": ["spartan"] * 3}


def in_window(s: State) -> str:
    return G.phase_name(s) if s.phase == WINDOW else ""


# -- the order of play ----------------------------------------------------------------


def test_persian_plays_cards_first_then_back_and_forth() -> None:
    """ "Whenever a new Phase begins, the Persian Player has the first opportunity to play
    a Battle Card. After the Persian Player has a chance to play a card, the Spartan player
    can play a card, and so on back and forth until neither player wishes to play any more
    cards"."""
    p1, p2 = two("persian", "dice")
    p3 = one("persian", "attack")
    s1, s2 = two("spartan", "dice")
    s = position(G, board=BATTLE, hands=[[p1, p2, p3], [s1, s2]], at="battle")
    seen = []
    for text in (f"play {p1}", f"play {s1}", f"play {p2}", f"play {s2}", "pass"):
        seen.append(s.actor)
        act(G, s, text)
    assert seen == [0, 1, 0, 1, 0]
    assert s.phase == DEAL  # the Spartan has no card left: the window closed
    assert s.hands[0] == [card(G, p3)]
    base = G.components.dice_for
    assert dice_due(s) == (
        min(MAX_DICE, base(3 * atk("immortal")) + amount(p1) + amount(p2)),
        min(MAX_DICE, base(3 * atk("spartan")) + amount(s1) + amount(s2)),
    )


def test_opponent_may_still_play_after_a_pass() -> None:
    """ "If one player does not wish to play a card, his opponent can still do so"."""
    p1 = one("persian", "dice")
    s1, s2 = two("spartan", "dice")
    s = position(G, board=BATTLE, hands=[[p1], [s1, s2]], at="battle")
    act(G, s, "pass")
    assert s.actor == 1 and can(G, s, f"play {s1}")
    act(G, s, f"play {s1}")
    assert s.actor == 0 and in_window(s) == "battle cards"  # asked again after a play
    act(G, s, "pass", f"play {s2}", "pass")
    assert s.phase == DEAL and dice_due(s)[1] == min(
        MAX_DICE, C.dice_for(3 * atk("spartan")) + amount(s1) + amount(s2)
    )


def test_window_closes_when_every_seat_passed_in_a_row() -> None:
    """Decision 9: the window closes when every seat has passed in a row (a play resets
    the count)."""
    p1 = one("persian", "dice")
    s1 = one("spartan", "dice")
    s = position(G, board=BATTLE, hands=[[p1], [s1]], at="battle")
    act(G, s, "pass")
    assert in_window(s) == "battle cards"
    act(G, s, "pass")
    assert s.phase == DEAL and s.rolls  # both passed: on to the Attack
    assert s.hands[0] and s.hands[1]


def test_seat_without_a_playable_card_is_not_asked() -> None:
    """Decision 9: a seat holding no playable card is passed over without a question."""
    s = position(G, board=BATTLE, hands=[[], [one("spartan", "dice")]], at="battle")
    assert in_window(s) == "battle cards" and s.actor == 1
    s = position(
        G, board=BATTLE, hands=[[one("persian", "shield")], [one("spartan", "shield")]], at="battle"
    )
    assert s.phase == DEAL  # shields wait for the casualty window: nobody is asked


def test_cards_are_played_in_the_phase_they_name() -> None:
    """ "Each Battle Card indicates the Phase in which it can be played" (decision 9: the
    windows march, battle, roll, casualty, ephialtes)."""
    windows = {
        "attack": "battle",
        "dice": "battle",
        "damage": "roll",
        "reroll": "roll",
        "shield": "casualty",
        "heal": "casualty",
        "march": "march",
        "delay": "ephialtes",
    }
    hand = [one("spartan", e) for e in windows]
    board = {
        "A3": ["immortal"] * 6,
        "A4": ["spartan"] * 3,
        "B3": ["infantry"] * 6,
        "B4": ["spartan"],
    }
    s = position(G, board=board, hands=[[], hand], at="march")
    assert in_window(s) == "march cards"
    playable = {
        G.cards[card(G, a.split()[1])].effect for a in legal_texts(G, s) if a.startswith("play")
    }
    assert playable == {e for e, w in windows.items() if w == "march"}
    act(G, s, "pass")
    march_through(G, s)  # the Persians
    march_through(G, s)  # the Spartans
    assert in_window(s) == "battle cards"
    playable = {
        G.cards[card(G, a.split()[1])].effect for a in legal_texts(G, s) if a.startswith("play")
    }
    assert playable == {e for e, w in windows.items() if w == "battle"}


def test_played_card_is_discarded_beside_its_deck() -> None:
    """ "Whenever a Battle Card is played, discard it face up beside its appropriate
    Battle Deck"."""
    p1 = one("persian", "dice")
    s = position(G, board=BATTLE, hands=[[p1], []], at="battle")
    act(G, s, f"play {p1}")
    assert s.discards[0] == [card(G, p1)] and s.hands[0] == []


def test_several_cards_in_a_round() -> None:
    """ "Each player may play several Battle Cards during each Round of the game"."""
    s1, s2 = two("spartan", "attack")
    s = position(G, board=BATTLE, hands=[[], [s1, s2]], at="battle")
    act(G, s, f"play {s1}", f"play {s2}")
    assert s.phase == DEAL
    assert battle.attack_total(s, G.t, 1) == 3 * atk("spartan") + amount(s1) + amount(s2)


def test_cards_take_effect_when_the_window_closes_in_order() -> None:
    """Decision 10: cards take effect when the window closes, in the order played."""
    p1 = one("persian", "dice")
    s1 = one("spartan", "dice")
    s = position(G, board=BATTLE, hands=[[p1], [s1]], at="battle")
    act(G, s, f"play {p1}")
    assert s.bt[battle.XDICE] == [0, 0]
    ev = act(G, s, f"play {s1}")  # nobody holds another card: the window closes
    assert s.bt[battle.XDICE] == [amount(p1), amount(s1)]
    effects = [e["card"] for e in of_kind(ev, "effect")]
    assert effects == [p1, s1]


# -- each effect ----------------------------------------------------------------------


def test_attack_card_adds_to_the_attack_total() -> None:
    """Decision 19: "attack +N"."""
    s1 = one("spartan", "attack")
    s = position(G, board=BATTLE, hands=[[], [s1]], at="battle")
    act(G, s, f"play {s1}")
    total = 3 * atk("spartan") + amount(s1)
    assert battle.attack_total(s, G.t, 1) == total
    assert dice_due(s)[1] == min(MAX_DICE, C.dice_for(total))


def test_attack_card_adds_after_the_narrow_entrance() -> None:
    """Decision 7 and 19: the narrow entrance picks 3 units; the card's Attack is added."""
    p1 = one("persian", "attack")
    s = position(
        G, board={"A3": ["immortal"] * 6, "A4": ["spartan"]}, hands=[[p1], []], at="battle"
    )
    act(G, s, f"play {p1}")
    assert battle.attack_total(s, G.t, 0) == 3 * atk("immortal") + amount(p1)


def test_dice_card_adds_battle_dice() -> None:
    """Decision 19: "dice +N (never more than 6 dice a side)"."""
    p1 = one("persian", "dice")
    s = position(G, board=BATTLE, hands=[[p1], []], at="battle")
    act(G, s, f"play {p1}")
    assert dice_due(s)[0] == min(MAX_DICE, C.dice_for(3 * atk("immortal")) + amount(p1))


def test_damage_card_adds_to_the_damage() -> None:
    """Decision 19: "damage +N"."""
    s1 = one("spartan", "damage")
    s = position(G, board=BATTLE, hands=[[], [s1]], at="battle")
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, lowest(G) * p) + faces_for(G, q, lowest(G) * q))
    assert in_window(s) == "roll cards"
    ev = act(G, s, f"play {s1}")
    assert of_kind(ev, "damage")[0]["to_persian"] == lowest(G) * q + amount(s1)


def test_reroll_card_rerolls_the_lowest_dice() -> None:
    """Decision 19: "reroll your N lowest dice (automatic)"."""
    s1 = one("spartan", "reroll")
    n = amount(s1)
    s = position(
        G,
        board={"A3": ["immortal"] * 6, "A4": ["leonidas", "captain", "stelios"]},
        hands=[[], [s1]],
        at="battle",
    )
    p, q = dice_due(s)
    assert q > n
    faces = sorted(set(C.faces))
    spartan = [faces[-1]] * (q - n) + [faces[0]] * n
    roll(G, s, [faces[0]] * p + spartan)
    act(G, s, f"play {s1}")
    assert s.phase == DEAL and len(s.rolls) == n and all(r >= 8 for r in s.rolls)
    ev = roll(G, s, [faces[-1]] * n)
    assert s.bt[battle.DICE + 1] == [faces[-1]] * q
    assert of_kind(ev, "damage")[0]["to_persian"] == faces[-1] * q


def test_shield_card_reduces_the_damage_taken() -> None:
    """Decision 19: "shield N (take N less damage)"."""
    s1 = one("spartan", "shield")
    s = position(G, board=BATTLE, hands=[[], [s1]], at="battle")
    p, q = dice_due(s)
    damage = highest(G) * p
    assert damage > amount(s1)
    roll(G, s, [highest(G)] * p + faces_for(G, q, lowest(G) * q))
    assert in_window(s) == "casualty cards"
    ev = act(G, s, f"play {s1}")
    assert of_kind(ev, "damage")[0]["to_spartan"] == damage - amount(s1)


def test_heal_card_heals_the_strongest_wounded_hero_first() -> None:
    """Decision 19: "heal N (your wounded units in this battle space with the highest
    Defense turn back first, automatic)"; "cards which apply to "Spartan Units" apply to
    Heroes also"."""
    s1 = one("spartan", "heal")
    n = amount(s1)
    wounded = sorted(["leonidas*", "spartan*", "dilios*"], key=lambda u: -dfn(u.rstrip("*")))
    s = position(G, board={"A3": ["infantry"], "A4": wounded}, hands=[[], [s1]], at="battle")
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, lowest(G) * p) + faces_for(G, q, lowest(G) * q))
    act(G, s, f"play {s1}")
    healed = [u.rstrip("*") for u in wounded[:n]]
    assert units(s, "A4") == sorted(healed + wounded[n:])


def test_heal_card_works_on_persian_leaders() -> None:
    """ "These counters are also considered Units for card text purposes" (Leaders)."""
    p1 = one("persian", "heal")
    n = amount(p1)
    wounded = sorted(
        ["xerxes*", "infantry", "immortal*", "general*"], key=lambda u: -dfn(u.rstrip("*"))
    )
    s = position(G, board={"A3": wounded, "A4": ["spartan"]}, hands=[[p1], []], at="battle")
    p, q = dice_due(s)
    roll(G, s, faces_for(G, p, lowest(G) * p) + faces_for(G, q, lowest(G) * q))
    act(G, s, f"play {p1}")
    hurt = [u for u in wounded if u.endswith("*")]
    assert "xerxes*" in hurt[:n]
    want = sorted([u for u in wounded if u not in hurt[:n]] + [u[:-1] for u in hurt[:n]])
    assert units(s, "A3") == want


def test_draw_card_draws_cards() -> None:
    """Decision 19: "draw N"."""
    s1 = one("spartan", "draw")
    s = position(G, board=QUIET, hands=[[], [s1]])
    act(G, s, f"play {s1}")
    assert s.phase == DEAL and s.draws == [1] * amount(s1)
    deck = [G.cards[c].code for c in s.decks[1]][: amount(s1)]
    draw(G, s, deck)
    assert sorted(G.cards[c].code for c in s.hands[1]) == sorted(deck)
    assert s.phase == MARCH


def test_march_card_lets_units_march_once_more() -> None:
    """Decision 19: "march N (N units that already marched may march once more this
    phase)"."""
    s1 = one("spartan", "march")
    s = position(G, board=QUIET, hands=[[], [s1]])
    act(G, s, f"play {s1}")
    march_through(G, s)
    act(G, s, "move A5-A4 spartan")
    assert can(G, s, "move A4-A3 spartan")
    act(G, s, "move A4-A3 spartan")
    assert units(s, "A3") == ["spartan"] and s.extra[1] == amount(s1) - 1


def test_march_card_gives_each_unit_only_one_more_march() -> None:
    """Decision 19: "N units that already marched may march once more this phase"."""
    s1 = one("spartan", "march")
    assert amount(s1) >= 2
    s = position(
        G, board={"A6": ["spartan"], "B1": ["immortal"] * 6, "B5": ["spartan"]}, hands=[[], [s1]]
    )
    act(G, s, f"play {s1}")
    march_through(G, s)
    assert units(s, "A2") == []
    act(G, s, "move A6-A5 spartan", "move A5-A4 spartan")  # its march, then once more
    assert not can(G, s, "move A4-A3 spartan")


def test_march_card_extra_marches_end_with_the_march_phase() -> None:
    """Decision 19: "this phase"."""
    s1 = one("spartan", "march")
    s = position(G, board=QUIET, hands=[[], [s1]])
    act(G, s, f"play {s1}")
    march_through(G, s)
    act(G, s, "done")
    assert s.extra == [0, 0]


def test_delay_card_keeps_ephialtes_in_place() -> None:
    """Decision 18: "delay" sets the move to 0."""
    s1 = one("spartan", "delay")
    s = position(G, board=QUIET, hands=[[], [s1]], eph=2, at="ephialtes")
    assert in_window(s) == "ephialtes cards"
    act(G, s, f"play {s1}")
    assert s.eph == 2 and s.round == 2 and s.eph_move == 1


def test_hasten_card_moves_ephialtes_further() -> None:
    """Decision 18: "hasten" adds to Ephialtes's move; reaching the end wins."""
    p1 = one("persian", "hasten")
    s = position(G, board=QUIET, hands=[[p1], []], at="ephialtes")
    act(G, s, f"play {p1}")
    assert s.eph == 1 + amount(p1)
    s = position(G, board=QUIET, hands=[[p1], []], eph=C.goat_path - 1 - amount(p1), at="ephialtes")
    act(G, s, f"play {p1}")
    assert s.eph == C.goat_path and s.winners == [0]


def test_delay_holds_ephialtes_whatever_the_order_of_hasten() -> None:
    """Decision 18: "delay": Ephialtes does not move this round, even with a "hasten"
    card played before or after it (only a cancel answers a delay)."""
    p1 = one("persian", "hasten")
    s1 = one("spartan", "delay")
    s = position(G, board=QUIET, hands=[[p1], [s1]], at="ephialtes")
    act(G, s, f"play {p1}", f"play {s1}")
    assert s.eph == 0
    s = position(G, board=QUIET, hands=[[p1], [s1]], at="ephialtes")
    act(G, s, "pass", f"play {s1}", f"play {p1}")
    assert s.eph == 0


def test_cancel_card_cancels_the_last_card_of_the_opponent() -> None:
    """Decision 10: "cancel" cards cancel the last card still in force played by an
    opponent in the same window."""
    p1, p2 = two("persian", "dice")
    s1 = one("spartan", "cancel")
    s = position(G, board=BATTLE, hands=[[p1, p2], [s1]], at="battle")
    act(G, s, f"play {p1}")
    act(G, s, "pass")  # the Spartan waits
    act(G, s, f"play {p2}", f"play {s1}")
    assert s.bt[battle.XDICE][0] == amount(p1)  # p2 was cancelled, p1 stands
    assert card(G, s1) in s.discards[1]


def test_a_second_cancel_hits_the_last_card_still_in_force() -> None:
    """Decision 10: "the last card still in force played by an opponent"."""
    p1, p2 = two("persian", "dice")
    c1, c2 = two("spartan", "cancel")
    s = position(G, board=BATTLE, hands=[[p1, p2], [c1, c2]], at="battle")
    act(G, s, f"play {p1}", "pass", f"play {p2}")
    ev = act(G, s, f"play {c1}", f"play {c2}")  # the Persian holds no card: not asked
    assert [e["cancels"] for e in of_kind(ev, "play")] == [p2, p1]
    assert s.phase == DEAL and s.bt[battle.XDICE] == [0, 0]


def test_cancel_of_a_cancel_restores_its_target() -> None:
    """Decision 10: "cancelling a cancel restores its target"."""
    p1 = one("persian", "dice")
    pc = one("persian", "cancel")
    s1 = one("spartan", "cancel")
    s = position(G, board=BATTLE, hands=[[p1, pc], [s1]], at="battle")
    ev = act(G, s, f"play {p1}", f"play {s1}")
    assert [e.get("cancels") for e in of_kind(ev, "play")] == [None, p1]
    ev = act(G, s, f"play {pc}")
    assert of_kind(ev, "play")[0]["cancels"] == s1
    assert s.phase == DEAL  # nobody holds a card any more
    assert s.bt[battle.XDICE][0] == amount(p1)


def test_cancel_is_playable_only_against_a_card() -> None:
    """Decision 10: "A cancel is playable only when there is such a target" (an
    opponent's card in this window)."""
    p1 = one("persian", "dice")
    s1 = one("spartan", "cancel")
    s = position(G, board=BATTLE, hands=[[], [s1]], at="battle")
    assert s.phase == DEAL  # nothing to cancel: the Spartan is not even asked
    s = position(G, board=BATTLE, hands=[[p1], [s1]], at="battle")
    assert s.actor == 0 and not any(a.startswith("play s") for a in legal_texts(G, s))
    act(G, s, "pass")
    assert s.phase == DEAL
    s = position(G, board=QUIET, hands=[[one("persian", "march")], [s1]])
    act(G, s, f"play {one('persian', 'march')}")
    assert s.actor == 1 and can(G, s, f"play {s1}")  # a cancel answers any window


def test_casualty_window_comes_before_the_casualties() -> None:
    """Decision 9: "casualty" (before casualties)."""
    s1 = one("spartan", "shield")
    s = position(G, board=BATTLE, hands=[[], [s1]], at="battle")
    p, q = dice_due(s)
    roll(G, s, [highest(G)] * p + faces_for(G, q, dfn("immortal")))
    assert in_window(s) == "casualty cards"
    act(G, s, "pass")
    assert s.phase == CASUALTY and s.actor == 0
    casualties(G, s, "immortal")


# -- 3 and 4 players ------------------------------------------------------------------


def test_battle_windows_belong_to_the_rows_players() -> None:
    """Decision 9: battle windows (battle/roll/casualty) involve only the row's Persian
    and Spartan players."""
    sa = one("spartan", "attack", letter="A")
    sb = one("spartan", "attack", letter="B")
    s = position(
        G,
        players=3,
        board={"B3": ["immortal"] * 3, "B4": ["spartan"] * 3},
        hands=[[], [sa], [sb]],
        at="battle",
    )
    assert in_window(s) == "battle cards" and s.actor == 2
    act(G, s, f"play {sb}")
    assert s.phase == DEAL and s.hands[1] == [card(G, sa)]


def test_other_windows_go_round_every_seat_persians_first() -> None:
    """Decision 9: the other windows involve all seats, Persians first, alternating (4p
    order persia-a, sparta-a, persia-b, sparta-b)."""
    pa = one("persian", "march", letter="A")
    pb = one("persian", "draw", letter="B")
    sa = one("spartan", "draw", letter="A")
    sb = one("spartan", "draw", letter="B")
    s = position(G, players=4, board=QUIET, hands=[[pa], [pb], [sa], [sb]])
    asked = []
    while s.phase == WINDOW:
        asked.append(s.actor)
        act(G, s, "pass")
    assert asked == [0, 2, 1, 3]
    s = position(G, players=3, board=QUIET, hands=[[pa], [sa], [sb]])
    asked = []
    while s.phase == WINDOW:
        asked.append(s.actor)
        act(G, s, "pass")
    assert asked == [0, 1, 2]


# -- pointless plays (decision 35) ------------------------------------------------------


def sensible_texts(s: State) -> list[str]:
    return [G.format(a) for a in G.sensible(s)]


def test_p24_march_card_is_pointless_at_the_set_up() -> None:
    """At the set-up nobody can march, so "N units that already marched may march once
    more" cannot apply: the card stays legal, but `sensible` leaves it out."""
    pm, pd, sm = one("persian", "march"), one("persian", "draw"), one("spartan", "march")
    s = position(G, hands=[[pm, pd], [sm]])  # the rulebook's set-up
    assert in_window(s) == "march cards" and s.actor == 0
    assert legal_texts(G, s) == ["pass", f"play {pm}", f"play {pd}"]
    assert sensible_texts(s) == ["pass", f"play {pd}"]
    act(G, s, "pass")
    assert s.actor == 1 and legal_texts(G, s) == ["pass", f"play {sm}"]
    assert sensible_texts(s) == ["pass"]


BLOCKED_PERSIANS = {
    "A1": ["immortal"] * 6,
    "A2": ["cavalry"] * 6,
    "A3": ["infantry"] * 6,
    "B1": ["immortal"] * 6,
    "B2": ["cavalry"] * 6,
    "B3": ["infantry"] * 6,
    "A4": ["spartan"] * 3,
    "A6": ["leonidas", "stelios", "spartan"],
    "B4": ["spartan"] * 3,
    "B5": ["astinos", "captain", "spartan"],
    "B6": ["dilios", "spartan", "spartan"],
}


def test_p24_persian_march_card_needs_a_persian_march() -> None:
    """The Persians march first, so only a Persian march can make a Persian's second
    march possible; a Spartan's card counts every march (a Persian moving off may open
    the way)."""
    pm, sm = one("persian", "march"), one("spartan", "march")
    s = position(G, board=BLOCKED_PERSIANS, hands=[[pm], [sm]])
    assert not G.could_march(s, [0]) and G.could_march(s, [1])  # A6 -> A5
    assert sensible_texts(s) == ["pass"] and f"play {pm}" in legal_texts(G, s)
    act(G, s, "pass")
    assert sensible_texts(s) == ["pass", f"play {sm}"]
    quiet = position(G, board=QUIET, hands=[[pm], [sm]])  # A1 -> A2 is open
    assert sensible_texts(quiet) == ["pass", f"play {pm}"]


def test_p24_draw_card_from_an_empty_deck_is_pointless() -> None:
    """Decks are never reshuffled (decision 8): a draw from an empty deck draws nothing."""
    pd = one("persian", "draw")
    empty = position(G, board=QUIET, hands=[[pd], []], decks={0: []})
    assert f"play {pd}" in legal_texts(G, empty) and sensible_texts(empty) == ["pass"]
    full = position(G, board=QUIET, hands=[[pd], []])
    assert sensible_texts(full) == ["pass", f"play {pd}"]


def test_p24_shield_without_damage_and_heal_without_wounded_are_pointless() -> None:
    sh, he = one("spartan", "shield"), one("spartan", "heal")
    zero = min(C.faces)
    assert zero == 0, "the test needs a blank die face"
    s = position(
        G,
        board={"A3": ["infantry"], "A4": ["leonidas", "spartan", "dilios*"]},
        hands=[[], [sh, he]],
        at="battle",
    )
    p, q = dice_due(s)
    roll(G, s, [zero] * p + faces_for(G, q, lowest(G) * q))  # the Persians deal nothing
    assert in_window(s) == "casualty cards" and s.actor == 1
    assert legal_texts(G, s) == ["pass", f"play {sh}", f"play {he}"]
    assert sensible_texts(s) == ["pass", f"play {he}"]  # a Wounded Dilios: heal applies
    s = position(
        G,
        board={"A3": ["immortal"] * 3, "A4": ["leonidas", "spartan", "dilios"]},
        hands=[[], [sh, he]],
        at="battle",
    )
    p, q = dice_due(s)
    roll(G, s, [highest(G)] * p + faces_for(G, q, lowest(G) * q))
    assert in_window(s) == "casualty cards"
    assert sensible_texts(s) == ["pass", f"play {sh}"]  # Damage to take, nobody Wounded


def test_p24_more_dice_or_attack_at_six_dice_is_pointless() -> None:
    """ "6 Battle Dice": a side that already rolls all six gains nothing from more."""
    sd, sa, pd = one("spartan", "dice"), one("spartan", "attack"), one("persian", "dice")
    six = ["leonidas", "captain", "stelios", "spartan", "spartan", "spartan"]
    assert sum(atk(u) for u in six) >= min(i for i in range(40) if C.dice_for(i) >= MAX_DICE)
    s = position(G, board={"A2": ["infantry"], "A3": six}, hands=[[pd], [sd, sa]], at="battle")
    assert in_window(s) == "battle cards" and s.actor == 0
    assert sensible_texts(s) == ["pass", f"play {pd}"]  # one Persian die: more helps
    act(G, s, "pass")
    assert sorted(legal_texts(G, s)) == sorted(["pass", f"play {sd}", f"play {sa}"])
    assert sensible_texts(s) == ["pass"]
