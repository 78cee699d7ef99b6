"""One test per rule sentence of the two seed texts, plus the project's decisions on open points.

Seed 001 is the Portuguese multiplayer rulebook, seed 003 the Italian summary of the solo
game on Board Game Arena (both in /work/shared/seeds). Each docstring quotes the few words
of the seed that the test checks. Every test drives the game through its public protocol
(`legal`, `apply`, `to_act`, `outcome`, `view`, `chance`) from a scenario position.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any, cast

import pytest

from tests.helpers import act, position
from thermopylae.engine.errors import ComponentError, IllegalAction, NotationError
from thermopylae.engine.protocol import CHANCE, visible_events
from thermopylae.games.thermopyles import game as thermopyles_game
from thermopylae.games.thermopyles.actions import Draw, Fight, Give, Reveal, Roll
from thermopylae.games.thermopyles.rules import Thermopyles
from thermopylae.games.thermopyles.state import State

# -- helpers -----------------------------------------------------------------------------


def seen(game: Thermopyles, s: State, seat: int | None = None) -> dict[str, Any]:
    """What `seat` (default: a spectator) sees of the table."""
    return game.view(s, seat)


def legal_texts(game: Thermopyles, s: State) -> list[str]:
    return [game.format(a) for a in game.legal(s)]


def chance_verbs(game: Thermopyles, s: State) -> set[str]:
    """The kind of chance event that is due: {'roll'}, {'draw'}, {'reveal'} or set()."""
    return {game.format(a).split()[0] for a, _ in game.chance(s)}


def slots(game: Thermopyles, s: State) -> list[str | None]:
    return [c["text"] if c else None for c in seen(game, s)["slots"]]


def hand(game: Thermopyles, s: State, seat: int) -> list[int]:
    cards = seen(game, s, seat)["hands"][seat]["cards"]
    assert cards is not None
    return list(cards)


def counts(game: Thermopyles, s: State) -> list[int]:
    return [h["count"] for h in seen(game, s)["hands"]]


def setup(game: Thermopyles, players: int, open_hands: bool = False) -> State:
    """A new table, with every chance event of the setup resolved (first outcome listed)."""
    s = game.new(game.options({"players": players, "open_hands": open_hands}))
    while game.to_act(s) == CHANCE:
        game.apply(s, game.chance(s)[0][0])
    return s


def default_toml() -> str:
    ref = resources.files("thermopylae.games.thermopyles").joinpath("components.toml")
    return ref.read_text(encoding="utf-8")


# -- components ("Componentes", seed 001) ------------------------------------------------


def test_components_twenty_spartan_four_support_twenty_eight_persian_one_map(
    game: Thermopyles,
) -> None:
    """Seed 001: "20 cartas espartanas", "4 cartas de suporte", "28 cartas persas",
    "1 carta mapa"."""
    c = game.components
    assert len(c.spartan) == 20
    assert c.support == 4
    assert len(c.persian) == 28
    assert [loc.number for loc in c.locations] == [1, 2, 3, 4, 5, 6, 7]
    s = game.new(game.options({"players": 1}))
    v = seen(game, s)
    assert (v["spartan_deck"], v["persian_deck"], v["support"]) == (20, 28, 4)


def test_two_dice_are_six_sided(game: Thermopyles) -> None:
    """Seed 001: "2 dados" (each support card and the location give one six-sided die)."""
    s = position(game, marker=3)
    act(game, s, "fight 10 support 1")
    outcomes = game.chance(s)
    assert [game.format(a) for a, _ in outcomes] == [f"roll {f}" for f in range(1, 7)]
    assert all(p == pytest.approx(1 / 6) for _, p in outcomes)
    with pytest.raises(NotationError):
        game.parse("roll 7")


def test_the_die_distribution_is_handed_out_again(game: Thermopyles) -> None:
    """Every roll is the same six-sided die: `chance` hands out one immutable tuple for
    it (OpenSpiel's interface encodes a distribution it is handed again only once)."""
    s = position(game, marker=3)
    act(game, s, "fight 10 support 1")
    first = game.chance(s)
    game.apply(s, first[0][0])
    assert game.chance(s) is first and type(first) is tuple


def test_a_card_comes_out_of_a_deck_by_its_share(game: Thermopyles) -> None:
    """Seed 001: "Comprar cartas" from the decks: at every draw and reveal of random
    games, `chance` lists each card left in the deck once, in increasing order, with its
    count over the cards left, whatever order the deck is kept in."""
    rng = random.Random(11)
    checked = 0
    for players in (1, 4):
        for _ in range(15):
            s = game.new(game.options({"players": players}))
            while (who := game.to_act(s)) is not None:
                if who != CHANCE:
                    legal = game.legal(s)
                    game.apply(s, legal[int(rng.random() * len(legal))])
                    continue
                dist = game.chance(s)
                first = dist[0][0]
                if not isinstance(first, Roll):
                    deck = s.pdeck if isinstance(first, Reveal) else s.sdeck
                    expected = [(k, c / len(deck)) for k, c in sorted(Counter(deck).items())]
                    cards = [
                        (a.kind if isinstance(a, Reveal) else cast(Draw, a).card, p)
                        for a, p in dist
                    ]
                    assert cards == expected
                    turned = game.copy(s)
                    turned.pdeck.reverse()
                    turned.sdeck.reverse()
                    assert game.chance(turned) == dist
                    checked += 1
                game.apply(s, game.sample_chance(s, rng))
    assert checked > 200


def test_three_hundred_spartans_in_twenty_cards(game: Thermopyles) -> None:
    """Seed 001: "apenas 300 bravos soldados espartanos" (003: "solo 300 coraggiosi
    soldati spartani"): the 20 combat values add up to 300."""
    assert sum(game.components.spartan) == 300


def test_spartan_combat_values_run_from_10_to_20(game: Thermopyles, tmp_path: Path) -> None:
    """Seed 001: "Valor de Combate (10-20)"; seed 003: "(da 10 a 20)"."""
    assert all(10 <= v <= 20 for v in game.components.spartan)
    bad = tmp_path / "bad.toml"
    bad.write_text(default_toml().replace("{ value = 10 }", "{ value = 21 }", 1), "utf-8")
    with pytest.raises(ComponentError, match="spartan"):
        thermopyles_game(bad)


def test_annihilation_value_is_never_below_combat_value(game: Thermopyles, tmp_path: Path) -> None:
    """Seed 001: "O valor de Aniquilação da carta é sempre ao menos do tamanho" of the
    combat value; seed 003: "sempre pari o superiore"."""
    assert all(k.annihilation >= k.combat for k in game.components.persian_kinds)
    bad = tmp_path / "bad.toml"
    text = default_toml().replace(
        "{ combat = 10, annihilation = 16, bonus = true }",
        "{ combat = 17, annihilation = 16, bonus = true }",
        1,
    )
    bad.write_text(text, "utf-8")
    with pytest.raises(ComponentError, match="annihilation value 16 is below"):
        thermopyles_game(bad)


def test_some_persian_cards_carry_the_bonus_symbol(game: Thermopyles) -> None:
    """Seed 001: "Algumas cartas persas tem um "^" símbolo de carta bônus"."""
    kinds = game.components.persian_kinds
    bonus = [k for k in game.components.persian if kinds[k].bonus]
    assert 0 < len(bonus) < 28


def test_components_file_replaces_the_provisional_set(tmp_path: Path) -> None:
    """Seed 001: "veja o fim do documento para distribuição" (the printed distribution is
    not in the seed; a box owner loads it from a file)."""
    mine = tmp_path / "mine.toml"
    text = default_toml().replace('default_source = "provisional"', 'default_source = "rulebook"')
    text = text.replace("{ value = 10 }, { value = 10 }", "{ value = 10 }, { value = 12 }", 1)
    text = text.replace(
        "{ value = 14 }, { value = 14 }, { value = 14 }",
        "{ value = 14 }, { value = 14 }, { value = 12 }",
        1,
    )
    mine.write_text(text, "utf-8")
    g = thermopyles_game(mine)
    assert not g.provisional and thermopyles_game().provisional
    assert [g.components.spartan.count(v) for v in (10, 12, 14)] == [1, 2, 2]
    assert g.components_digest != thermopyles_game().components_digest


# -- setup ("Preparação", seed 001; "Presentazione", seed 003) ---------------------------


def test_setup_decks_are_shuffled_face_down(game: Thermopyles) -> None:
    """Seed 001: "Embaralhe os baralhos ... virados para baixo"; seed 003: "entrambi a
    faccia in giù"."""
    s = game.new(game.options({"players": 1}))
    assert game.to_act(s) == CHANCE
    probabilities = {game.format(a): p for a, p in game.chance(s)}
    # a shuffled deck: each card as likely as any other, so a kind by how many it has
    assert sum(probabilities.values()) == pytest.approx(1)
    assert probabilities["reveal 18/21"] == pytest.approx(3 / 28)
    assert probabilities["reveal 19/22"] == pytest.approx(1 / 28)
    s = setup(game, 2)
    for seat in (None, 0, 1):
        v = seen(game, s, seat)
        assert isinstance(v["spartan_deck"], int) and isinstance(v["persian_deck"], int)


def test_setup_reveals_two_persian_cards_into_the_slots(game: Thermopyles) -> None:
    """Seed 001: "Os jogadores tiram 2 cartas persas e as colocam ao lado da carta do
    mapa"."""
    s = game.new(game.options({"players": 2}))
    assert chance_verbs(game, s) == {"reveal"}
    act(game, s, "reveal 19/22")
    assert slots(game, s) == ["19/22", None]
    assert chance_verbs(game, s) == {"reveal"}
    act(game, s, "reveal 10/16^")
    assert slots(game, s) == ["19/22", "10/16^"]
    assert chance_verbs(game, s) == {"draw"}  # the hands come after the two slots
    assert seen(game, s)["persian_deck"] == 26


def test_setup_support_cards_face_up(game: Thermopyles) -> None:
    """Seed 001: "Coloque as cartas de suporte voltadas para cima"."""
    s = setup(game, 3)
    for seat in (None, 0, 1, 2):
        v = seen(game, s, seat)
        assert (v["support"], v["support_total"]) == (4, 4)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_players_start_with_three_cards_each(game: Thermopyles, players: int) -> None:
    """Seed 001: "Cada jogador compra uma mão inicial de 3 cartas espartanas"."""
    s = setup(game, players)
    assert counts(game, s) == [3] * players
    assert seen(game, s)["spartan_deck"] == 20 - 3 * players


def test_solo_player_starts_with_four_cards(game: Thermopyles) -> None:
    """Seed 001: "com um jogador, comece com 4 cartas"; seed 003: "una mano iniziale di 4
    carte"."""
    s = setup(game, 1)
    assert counts(game, s) == [4]
    assert seen(game, s)["spartan_deck"] == 16


def test_first_seat_is_the_strongest_player_and_starts(game: Thermopyles) -> None:
    """Seed 001: "O jogador mais forte inicia o jogo" (the table seats that player as
    p1)."""
    s = setup(game, 4)
    assert game.to_act(s) == 0
    assert seen(game, s)["phase"] == "turn"
    assert legal_texts(game, s)[0] == "retreat"


def test_solo_player_skips_the_strength_test(game: Thermopyles) -> None:
    """Seed 001: "O jogador pode pular o teste de força": the solo game asks nothing
    before the first turn's choice."""
    s = game.new(game.options({"players": 1}))
    while game.to_act(s) == CHANCE:  # only cards are dealt before the first decision
        game.apply(s, game.chance(s)[0][0])
    assert game.to_act(s) == 0 and seen(game, s)["phase"] == "turn"
    first = legal_texts(game, s)
    assert first[0] == "retreat" and all(t.startswith("fight") for t in first[1:])


# -- hand limit ("Nota", seed 001 and 003) -----------------------------------------------


def test_hand_limit_is_five_for_every_player(game: Thermopyles) -> None:
    """Seed 001: "Todos os jogadores têm um limite de mão de 5 cartas"; seed 003: "il
    limite di carte in mano è di 5"."""
    hands = [[10, 11, 13, 14], [15, 16, 17, 18, 19]]
    s = position(game, hands=hands)
    act(game, s, "retreat", "give p1")
    assert chance_verbs(game, s) == {"draw"}  # four cards: the draw is not in question
    s = position(game, hands=hands)
    act(game, s, "retreat", "give p2")
    assert seen(game, s)["phase"] == "full-hand"
    assert game.to_act(s) == 1 and legal_texts(game, s) == ["take", "refuse"]


def test_hand_limit_full_hand_may_refuse_the_draw(game: Thermopyles) -> None:
    """Seed 001: "o jogador pode recusar-se a comprar uma carta"; seed 003: "può
    rifiutare di pescare una carta"."""
    s = position(game, hands=[[10, 11, 13, 14, 15]])
    deck = seen(game, s)["spartan_deck"]
    act(game, s, "retreat")
    assert legal_texts(game, s) == ["take", "refuse"]
    act(game, s, "refuse")
    assert hand(game, s, 0) == [10, 11, 13, 14, 15]
    assert seen(game, s)["spartan_deck"] == deck
    assert seen(game, s)["phase"] == "turn" and game.to_act(s) == 0


def test_hand_limit_full_hand_may_take_then_discard_down_to_five(game: Thermopyles) -> None:
    """Seed 001: "comprar uma carta, mas depois descartar para 5 cartas na mão"; seed 003:
    "dovrà scartare nuovamente fino a avere 5 carte"."""
    s = position(game, hands=[[10, 11, 13, 14, 15]])
    act(game, s, "retreat", "take")
    assert chance_verbs(game, s) == {"draw"}
    act(game, s, "draw 20")
    assert counts(game, s) == [6]
    assert seen(game, s)["phase"] == "discard" and game.to_act(s) == 0
    assert sorted(legal_texts(game, s)) == sorted(f"discard {v}" for v in (10, 11, 13, 14, 15, 20))
    with pytest.raises(IllegalAction):
        act(game, s, "retreat")
    act(game, s, "discard 11")
    assert hand(game, s, 0) == [10, 13, 14, 15, 20]
    assert 11 in seen(game, s)["spartan_discard"]
    assert seen(game, s)["phase"] == "turn"


def test_draw_is_automatic_when_the_recipient_hand_is_not_full(game: Thermopyles) -> None:
    """Seed 001: "podem comprar uma carta espartana". Decision: a draw into a hand of
    fewer than 5 cards is simply made; take-or-refuse is asked only of a full hand."""
    s = position(game, hands=[[10, 11, 13, 14]])
    act(game, s, "retreat")
    assert game.to_act(s) == CHANCE and chance_verbs(game, s) == {"draw"}
    assert game.legal(s) == ()


def test_full_hand_decision_belongs_to_the_recipient(game: Thermopyles) -> None:
    """Seed 001: "Quando a mão de um jogador está cheia, o jogador pode recusar-se": the
    recipient, not the active player, takes or refuses and then discards."""
    s = position(game, hands=[[10], [11, 13, 14, 15, 16]])
    act(game, s, "retreat", "give p2")
    assert game.to_act(s) == 1
    act(game, s, "take", "draw 20")
    assert game.to_act(s) == 1 and seen(game, s)["phase"] == "discard"
    assert "discard 10" not in legal_texts(game, s)  # p1's card is not p2's to discard
    act(game, s, "discard 20")
    assert hand(game, s, 1) == [11, 13, 14, 15, 16]
    assert game.to_act(s) == 1 and seen(game, s)["phase"] == "turn"  # p2's own turn


# -- the turn ("Sequencia de turnos", seed 001) ------------------------------------------


def test_turn_offers_retreat_or_fight(game: Thermopyles) -> None:
    """Seed 001: "i) Recuar ... ou ii) Luta - joga uma carta de sua mão"."""
    s = position(game, hands=[[10, 14]], support=1)
    assert legal_texts(game, s) == [
        "retreat",
        "fight 10",
        "fight 10 support 1",
        "fight 14",
        "fight 14 support 1",
    ]


def test_retreat_moves_the_marker_one_step_back(game: Thermopyles) -> None:
    """Seed 001: "deve mover o marcador de batalha 1 passo para trás"; seed 003:
    "spostato il segnalino indietro di un livello"."""
    s = position(game, marker=2)
    act(game, s, "retreat")
    assert seen(game, s)["marker"] == 3
    act(game, s, "draw 20")
    assert seen(game, s)["marker"] == 3 and game.to_act(s) == 0


def test_retreat_lets_the_team_draw_one_card(game: Thermopyles) -> None:
    """Seed 001: "os jogadores como time podem comprar uma carta espartana"; seed 003:
    "il giocatore può pescare una carta"."""
    s = position(game, hands=[[10, 14, 16]])
    act(game, s, "retreat")
    assert chance_verbs(game, s) == {"draw"}
    act(game, s, "draw 20")
    assert hand(game, s, 0) == [10, 14, 16, 20]
    assert seen(game, s)["phase"] == "turn"  # one card, not more
    assert seen(game, s)["spartan_deck"] == 20 - 4


def test_team_draw_goes_to_the_player_the_active_player_chooses(game: Thermopyles) -> None:
    """Seed 001: "Os jogadores juntos decidem qual jogador receberá a carta". Decision: the
    active player chooses for the team, among all seats (itself included)."""
    s = position(game, hands=[[10], [11], [13]])
    act(game, s, "retreat")
    assert seen(game, s)["phase"] == "recipient"
    assert game.to_act(s) == 0
    assert legal_texts(game, s) == ["give p1", "give p2", "give p3"]
    act(game, s, "give p3", "draw 20")
    assert [hand(game, s, p) for p in range(3)] == [[10], [11], [13, 20]]
    assert game.to_act(s) == 1


def test_retreat_with_empty_spartan_deck_draws_nothing(game: Thermopyles) -> None:
    """Seed 001: "Se as cartas espartanas acabarem, nenhuma carta a mais pode ser
    comprada"."""
    s = position(game, hands=[[10, 14], [16]], spartan_deck=[])
    act(game, s, "retreat")
    assert seen(game, s)["marker"] == 2
    assert game.chance(s) == [] and seen(game, s)["phase"] == "turn"
    assert counts(game, s) == [2, 1] and game.to_act(s) == 1


def test_player_with_empty_hand_must_retreat(game: Thermopyles) -> None:
    """Seed 003: "Se il giocatore non ha carte in mano, deve ritirarsi"."""
    s = position(game, hands=[[], [10, 14]])
    assert legal_texts(game, s) == ["retreat"]
    with pytest.raises(IllegalAction, match="must retreat"):
        act(game, s, "fight 10")
    act(game, s, "retreat")
    assert seen(game, s)["marker"] == 2


def test_player_holding_cards_may_still_retreat(game: Thermopyles) -> None:
    """Seed 001: "i) Recuar ...; ou ii) Luta". Decision: the choice is open to a player who
    holds cards too."""
    s = position(game, hands=[[10, 14, 16, 17]])
    assert "retreat" in legal_texts(game, s)
    act(game, s, "retreat")
    assert seen(game, s)["marker"] == 2 and game.outcome(s) is None


# -- the fight: charge, support, location ------------------------------------------------


def test_charge_plays_a_card_from_the_hand(game: Thermopyles) -> None:
    """Seed 001: "escolhe uma carta espartana daquelas disponível na mão"."""
    s = position(game, hands=[[10, 14, 16, 17]])
    fights = {t for t in legal_texts(game, s) if t.startswith("fight") and "support" not in t}
    assert fights == {"fight 10", "fight 14", "fight 16", "fight 17"}
    with pytest.raises(IllegalAction, match="holds no 20"):
        act(game, s, "fight 20")
    act(game, s, "fight 14")
    assert 14 not in hand(game, s, 0) and counts(game, s) == [3]


def test_support_dice_are_added_and_support_cards_are_gone_for_good(game: Thermopyles) -> None:
    """Seed 001: "as cartas de suporte escolhidas são descartadas e para cada carta
    descartada, o jogador rola um dado. O resultado ... será acrescentada"."""
    s = position(game, hands=[[10, 14, 16, 17]])  # slots 13/19 and 16/21
    act(game, s, "fight 10 support 2")
    assert seen(game, s)["support"] == 2
    assert chance_verbs(game, s) == {"roll"}
    act(game, s, "roll 2")
    assert seen(game, s)["fight"]["total"] == 12
    assert chance_verbs(game, s) == {"roll"}  # a second die for the second card
    act(game, s, "roll 1")  # 13: repels 13/19 (10 alone would lose), loses to 16/21
    v = seen(game, s)
    assert v["persian_discard"] == ["13/19"] and v["slots"][0]["text"] == "16/21"
    act(game, s, "reveal 18/21")
    assert seen(game, s)["support"] == 2
    act(game, s, "fight 14", "retreat", "draw 20")
    assert seen(game, s)["support"] == 2  # never returned


def test_support_any_number_up_to_four(game: Thermopyles) -> None:
    """Seed 003: "un qualsiasi numero di carte Supporto ( fino ad un massimo di 4 )"; seed
    001: "usar algum número de cartas de suporte"."""
    s = position(game, hands=[[10, 14]])
    texts = legal_texts(game, s)
    for card in (10, 14):
        assert f"fight {card}" in texts
        assert all(f"fight {card} support {k}" in texts for k in (1, 2, 3, 4))
    with pytest.raises(NotationError):
        game.parse("fight 10 support 5")
    act(game, s, "fight 10 support 4")
    assert seen(game, s)["support"] == 0
    act(game, s, "roll 1", "roll 1", "roll 1")
    assert chance_verbs(game, s) == {"roll"}  # four dice in all
    act(game, s, "roll 3")
    assert seen(game, s)["persian_discard"] == ["13/19", "16/21"]  # 16: beats both


def test_no_support_once_all_support_cards_are_used(game: Thermopyles) -> None:
    """Seed 001: "Uma vez que todas as cartas de suporte forem usadas, nenhuma carta de
    suporte poderá ser usada"; seed 003: "niente più Supporto è possibile"."""
    s = position(game, hands=[[10, 14]], support=0)
    assert legal_texts(game, s) == ["retreat", "fight 10", "fight 14"]
    before = game.state_to_json(s)
    with pytest.raises(IllegalAction, match="only 0 support"):
        act(game, s, "fight 10 support 1")
    assert game.state_to_json(s) == before


def test_location_die_on_hot_gates_and_last_stand_only(game: Thermopyles) -> None:
    """Seed 001: "nos locais Portão Quente (3) ou na Última Parada (6), o jogador recebe
    um bônus adicional de rolagem"; seed 003: "Hot Gates (3) oppure all'Ultima Barriera
    (6)"."""
    rolled = []
    for marker in range(1, 7):
        s = position(game, marker=marker)
        act(game, s, "fight 10")
        if chance_verbs(game, s) == {"roll"}:
            rolled.append(marker)
            act(game, s, "roll 3")  # the die is added: 13 repels 13/19
            assert seen(game, s)["persian_discard"] == ["13/19"]
        else:
            assert seen(game, s)["persian_discard"] == []
    assert rolled == [3, 6]
    names = {loc["number"]: loc["name"] for loc in seen(game, position(game))["locations"]}
    assert (names[3], names[6]) == ("The Hot Gates", "The Last Stand")


def test_support_chosen_as_one_number_before_any_die(game: Thermopyles) -> None:
    """Seed 001: "O jogador deve decidir jogar alguma carta de suporte ante de rolar o dado
    de local". Decision: the support is part of the fight action, fixed before any die."""
    s = position(game, marker=3)
    act(game, s, "fight 10")
    assert game.to_act(s) == CHANCE and game.legal(s) == ()
    before = game.state_to_json(s)
    for late in ("fight 10 support 1", "fight 14 support 1", "retreat"):
        with pytest.raises(IllegalAction, match="not possible now"):
            act(game, s, late)
    assert game.state_to_json(s) == before
    act(game, s, "roll 6")
    assert seen(game, s)["support"] == 4


def test_support_dice_and_location_die_add_together(game: Thermopyles) -> None:
    """Seed 003: "può decidere di giocare anche carte Supporto in aggiunta al DADO LUOGO";
    seed 001: support dice first, then the location die."""
    s = position(game, marker=6)
    events = act(game, s, "fight 10 support 2", "roll 1", "roll 2")
    assert chance_verbs(game, s) == {"roll"}
    events += act(game, s, "roll 4")
    dice = [e.data["die"] for e in events if e.kind == "roll"]
    assert dice == ["support", "support", "location"]
    totals = [e.data["total"] for e in events if e.kind == "combat"]
    assert totals[0] == 17
    assert seen(game, s)["persian_discard"] == ["13/19", "16/21"]


# -- the fight: combat resolution --------------------------------------------------------


def test_combat_is_against_the_first_persian_card(game: Thermopyles) -> None:
    """Seed 001: "comparam o Valor de Combate da carta espartana com a primeira da carta
    persa"; seed 003: "la PRIMA carta Persiani ( quella vicino alla mappa )"."""
    s = position(game, hands=[[14, 16]], slots=("16/21", "13/19"))
    act(game, s, "fight 14")  # 14 would beat 13/19, but 16/21 comes first
    v = seen(game, s)
    assert slots(game, s) == ["16/21", "13/19"]
    assert v["persian_discard"] == [] and v["graveyard"] == []


def test_persian_combat_value_higher_discards_the_spartan_card_and_ends_the_turn(
    game: Thermopyles,
) -> None:
    """Seed 001: "a carta espartana é descartada e é a vez do próximo jogador. A carta
    persa permanece no lugar ... O próximo jogador terá que encarar o mesmo desafio"."""
    s = position(game, hands=[[10, 14], [16]], slots=("16/21", "13/19"))
    persian_deck = seen(game, s)["persian_deck"]
    act(game, s, "fight 14")
    v = seen(game, s)
    assert v["spartan_discard"] == [14]
    assert slots(game, s) == ["16/21", "13/19"] and v["persian_deck"] == persian_deck
    assert game.to_act(s) == 1 and v["phase"] == "turn"


def test_solo_lost_fight_player_must_fight_again_or_retreat(game: Thermopyles) -> None:
    """Seed 003: "il turno del giocatore finisce, cioè dovrà piazzare un'altra carta oppure
    arretrare"."""
    s = position(game, hands=[[10, 14, 16]], slots=("16/21", "13/19"))
    act(game, s, "fight 10")
    assert game.to_act(s) == 0 and seen(game, s)["phase"] == "turn"
    assert slots(game, s) == ["16/21", "13/19"]
    assert {"retreat", "fight 14", "fight 16"} <= set(legal_texts(game, s))


def test_total_equal_to_combat_value_repels(game: Thermopyles) -> None:
    """Seed 001: "igual ou maior que a carta persa"; seed 003: "uguale o maggiore".
    Decision: a tie goes to the Spartans."""
    s = position(game, hands=[[13, 14]], slots=("13/19", "19/22"))
    act(game, s, "fight 13")
    assert seen(game, s)["persian_discard"] == ["13/19"]
    assert slots(game, s) == ["19/22", None]


def test_total_below_annihilation_repels_to_the_discard_pile(game: Thermopyles) -> None:
    """Seed 001: "o ataque persa é repelido com sucesso e a carta persa é colocada na pilha
    de descarte"; seed 003: "la pila degli scarti ( che non è il CIMITERO )"."""
    s = position(game, hands=[[18, 14]], slots=("13/19", "19/22"))
    act(game, s, "fight 18")
    v = seen(game, s)
    assert v["persian_discard"] == ["13/19"] and v["graveyard"] == []


def test_total_equal_to_annihilation_value_annihilates_to_the_graveyard(
    game: Thermopyles,
) -> None:
    """Seed 001: "igual ou maior que o Valor de Aniquilação ... Coloque a carta persa no
    túmulo"; seed 003: "finisce nel CIMITERO ( che non è la pila degli scarti)"."""
    s = position(game, hands=[[19, 14]], slots=("13/19", "19/22"))
    act(game, s, "fight 19")
    v = seen(game, s)
    assert v["graveyard"] == ["13/19"]
    assert v["persian_discard"] == ["19/22"]  # 19 against 19/22: repelled, not annihilated


def test_second_persian_card_fights_with_the_same_total(game: Thermopyles) -> None:
    """Seed 001: "a segunda carta persa lutará de forma semelhante ... os bônus das jogadas
    de dados possíveis ainda são contados para o segundo combate"."""
    s = position(game, hands=[[14, 10]], slots=("13/19", "16/21"))
    act(game, s, "fight 14 support 1", "roll 5")  # 19
    v = seen(game, s)
    assert v["graveyard"] == ["13/19"]
    assert v["persian_discard"] == ["16/21"]  # 14 alone would have lost to 16
    assert slots(game, s) == [None, None]


def test_beat_slot_1_lose_to_slot_2_slides_and_refills(game: Thermopyles) -> None:
    """Seed 001: "Deslize o segundo cartão persa para o primeiro slot e compre um novo
    cartão persa para o segundo slot"."""
    s = position(game, hands=[[14], [10]], slots=("13/19", "16/21"))
    act(game, s, "fight 14")
    assert slots(game, s) == ["16/21", None]
    assert chance_verbs(game, s) == {"reveal"}
    assert seen(game, s)["spartan_discard"] == [14]
    act(game, s, "reveal 18/21")
    assert slots(game, s) == ["16/21", "18/21"]
    assert game.to_act(s) == 1


def test_beat_both_refills_both_slots_and_ends_the_turn(game: Thermopyles) -> None:
    """Seed 001: "Se o lado espartano derrotar ambas as cartas persas, o turno termina e o
    jogador retira novas cartas persas para o primeiro e segundo slots"."""
    s = position(game, hands=[[17], [10]], slots=("13/19", "16/21"))
    deck = seen(game, s)["persian_deck"]
    act(game, s, "fight 17")
    assert slots(game, s) == [None, None]
    act(game, s, "reveal 18/21")
    assert slots(game, s) == ["18/21", None] and game.to_act(s) == CHANCE
    act(game, s, "reveal 12/18")
    assert slots(game, s) == ["18/21", "12/18"]
    assert seen(game, s)["persian_deck"] == deck - 2
    assert game.to_act(s) == 1 and seen(game, s)["spartan_discard"] == [17]


def test_bonus_draw_for_each_defeated_lambda_card_repelled_or_annihilated(
    game: Thermopyles,
) -> None:
    """Seed 001: "Para cada carta persa derrotada que tinha um símbolo de carta de bônus
    "Λ" ... podem comprar um cartão espartano"; seed 003: "RESPINTA ( cioè NON deve essere
    anche ANNIENTATA)"."""
    s = position(game, hands=[[10, 14, 16, 19]], slots=("13/19^", "16/21^"))
    act(game, s, "fight 19")  # annihilates 13/19^, repels 16/21^
    v = seen(game, s)
    assert v["graveyard"] == ["13/19^"] and v["persian_discard"] == ["16/21^"]
    act(game, s, "reveal 18/21", "reveal 12/18")
    assert chance_verbs(game, s) == {"draw"}
    act(game, s, "draw 15")
    assert chance_verbs(game, s) == {"draw"}  # a second card for the second Λ
    act(game, s, "draw 18")
    assert hand(game, s, 0) == [10, 14, 15, 16, 18]
    assert seen(game, s)["phase"] == "turn"


def test_bonus_draw_recipient_chosen_by_the_active_player(game: Thermopyles) -> None:
    """Seed 001: "Os jogadores decidem em conjunto qual jogador receberá a carta".
    Decision: the active player chooses."""
    s = position(game, hands=[[17, 10], [11]], slots=("13/19^", "16/21"))
    act(game, s, "fight 17", "reveal 18/21", "reveal 12/18")
    assert seen(game, s)["phase"] == "recipient" and game.to_act(s) == 0
    act(game, s, "give p2", "draw 15")
    assert hand(game, s, 1) == [11, 15] and hand(game, s, 0) == [10]
    assert game.to_act(s) == 1


def test_defeated_cards_without_bonus_symbol_give_no_draw(game: Thermopyles) -> None:
    """Seed 003: "le carte SENZA simbolo bonus, sia se vengono solo RESPINTE, sia se
    vengono anche ANNIENTATE, NON concedono la pesca di nuove carte"."""
    s = position(game, hands=[[10, 14, 16, 19]], slots=("13/19", "16/21"))
    act(game, s, "fight 19", "reveal 18/21", "reveal 12/18")
    assert seen(game, s)["graveyard"] == ["13/19"]
    assert seen(game, s)["phase"] == "turn" and game.chance(s) == []
    assert counts(game, s) == [3]


def test_undefeated_lambda_card_gives_no_draw(game: Thermopyles) -> None:
    """Seed 003: "Il giocatore può pescare nuove carte SOLO in 2 occasioni": retreating,
    and defeating a Λ card; a Λ card that wins its combat gives nothing."""
    s = position(game, hands=[[10, 14, 16]], slots=("13/19", "16/21^"))
    act(game, s, "fight 14", "reveal 18/21")
    assert slots(game, s) == ["16/21^", "18/21"]
    assert seen(game, s)["phase"] == "turn" and counts(game, s) == [2]


@pytest.mark.parametrize(
    ("card", "chance"),
    [
        (10, []),  # lost against slot 1
        (14, ["reveal 18/21"]),  # beat slot 1, lost against slot 2
        (17, ["reveal 18/21", "reveal 12/18"]),  # beat both
    ],
)
def test_played_spartan_card_always_discarded(
    game: Thermopyles, card: int, chance: list[str]
) -> None:
    """Seed 003: "anche la carta Spartani è SEMPRE RIMOSSA"; seed 001: "a carta espartana
    é descartada", "Descarte a carta espartana jogada"."""
    s = position(game, hands=[[10, 14, 16, 17]], slots=("13/19", "16/21"))
    act(game, s, f"fight {card}", *chance)
    assert seen(game, s)["phase"] == "turn"
    assert seen(game, s)["spartan_discard"] == [card]
    assert card not in hand(game, s, 0) and counts(game, s) == [3]


def test_next_player_clockwise(game: Thermopyles) -> None:
    """Seed 001: "Depois disso, é a vez do próximo jogador" (seats p1, p2, p3 clockwise)."""
    s = position(game, hands=[[10], [11], [13]], slots=("16/21", "19/22"))
    order = [game.to_act(s)]
    for card in (10, 11, 13):
        act(game, s, f"fight {card}")  # each loses; the turn passes on
        order.append(game.to_act(s))
    assert order == [0, 1, 2, 0]


def test_repelled_cards_do_not_count_towards_the_twelve(game: Thermopyles) -> None:
    """Seed 003: "la pila degli scarti ( che non è il CIMITERO )": only the graveyard
    counts towards the 12."""
    eleven = [
        "10/16",
        "11/17",
        "12/18",
        "12/18",
        "14/20",
        "14/20",
        "15/21",
        "15/21",
        "17/21",
        "17/21",
        "18/21",
    ]
    s = position(game, hands=[[18, 10]], slots=("13/19", "16/21"), graveyard=eleven)
    act(game, s, "fight 18")
    assert game.outcome(s) is None
    v = seen(game, s)
    assert len(v["graveyard"]) == 11 and v["persian_discard"] == ["13/19", "16/21"]


# -- end of the game ("Fim do jogo", seed 001; "Fine del gioco", seed 003) -----------------


def test_retreat_onto_location_7_loses(game: Thermopyles) -> None:
    """Seed 001: "Os jogadores perdem se forem forçados a recuar para a 7ª local"; seed
    003: "costretto a ritirarsi nella settima posizione"."""
    s = position(game, hands=[[], [10]], marker=6)
    act(game, s, "retreat")
    out = game.outcome(s)
    assert out is not None and out.results == ("loss", "loss")
    assert "7" in out.reason and seen(game, s)["marker"] == 7
    assert game.to_act(s) is None


def test_sixth_retreat_from_location_1_loses(game: Thermopyles) -> None:
    """Seed 001: "recuar para a 7ª local". Decision: arriving on 7 loses, so from the
    start on location 1 the sixth retreat loses."""
    s = position(game, hands=[[10, 14]], spartan_deck=[])
    for step in range(1, 6):
        act(game, s, "retreat")
        assert game.outcome(s) is None and seen(game, s)["marker"] == 1 + step
    act(game, s, "retreat")
    outcome = game.outcome(s)
    assert outcome is not None and outcome.results == ("loss",)


def test_no_cards_anywhere_loses(game: Thermopyles) -> None:
    """Seed 001: "perdem se ficarem sem cartas, o que significa que nenhum dos jogadores
    tem cartas em sua mão e as cartas da pilha estão esgotadas"; seed 003: "non ha carte
    Spartani nella propria mano e neanche nel proprio mazzo"."""
    s = position(game, hands=[[10], []], slots=("16/21", "13/19"), spartan_deck=[])
    act(game, s, "fight 10")
    out = game.outcome(s)
    assert out is not None and out.results == ("loss", "loss")
    assert "no cards" in out.reason


def test_empty_hands_with_cards_in_the_deck_do_not_lose(game: Thermopyles) -> None:
    """Seed 001: "... e as cartas da pilha estão esgotadas": both conditions are needed."""
    s = position(game, hands=[[10]], slots=("16/21", "13/19"), spartan_deck=[20])
    act(game, s, "fight 10")
    assert game.outcome(s) is None
    assert counts(game, s) == [0] and legal_texts(game, s) == ["retreat"]
    act(game, s, "retreat", "draw 20")
    assert hand(game, s, 0) == [20]


def test_persian_deck_cannot_refill_wins(game: Thermopyles) -> None:
    """Seed 001: "ganham se, no final da batalha, não houver cartas persas suficientes no
    monte de cartas persas para reabastecer o primeiro e o segundo slots"."""
    s = position(game, hands=[[17, 10]], slots=("13/19", "16/21"), persian_deck=["18/21"])
    act(game, s, "fight 17")
    out = game.outcome(s)
    assert out is not None and out.results == ("win",)
    assert "Persian deck" in out.reason


def test_persian_deck_with_exactly_enough_cards_refills_and_play_goes_on(
    game: Thermopyles,
) -> None:
    """Seed 001: "não houver cartas persas suficientes ... para reabastecer": two cards
    are enough for two slots."""
    s = position(game, hands=[[17, 10]], slots=("13/19", "16/21"), persian_deck=["18/21", "12/18"])
    act(game, s, "fight 17")
    assert game.outcome(s) is None
    act(game, s, "reveal 18/21", "reveal 12/18")
    assert game.outcome(s) is None and seen(game, s)["persian_deck"] == 0
    assert slots(game, s) == ["18/21", "12/18"]


def test_persian_deck_win_checked_after_the_battle(game: Thermopyles) -> None:
    """Seed 001: "no final da batalha". Decision: an empty Persian deck wins only when a
    battle ends with a slot to refill, not at the start of a turn or after a retreat."""
    s = position(
        game, hands=[[10, 14, 16]], slots=("13/19", "16/21"), persian_deck=[], spartan_deck=[]
    )
    assert game.outcome(s) is None
    act(game, s, "retreat")
    assert game.outcome(s) is None
    act(game, s, "fight 10")  # lost against slot 1: nothing to refill
    assert game.outcome(s) is None and slots(game, s) == ["13/19", "16/21"]
    act(game, s, "fight 14")  # beat slot 1, lost to slot 2: slot 2 cannot be refilled
    out = game.outcome(s)
    assert out is not None and out.results == ("win",)


def test_twelfth_annihilation_wins_at_once_even_with_slot_2_left(game: Thermopyles) -> None:
    """Seed 001: "Os jogadores ganham imediatamente quando a 12ª carta persa é colocada no
    cemitério"; seed 003: "vince immediatamente ... dodici carte Persiani"."""
    eleven = [
        "10/16",
        "11/17",
        "12/18",
        "12/18",
        "14/20",
        "14/20",
        "15/21",
        "15/21",
        "17/21",
        "17/21",
        "18/21",
    ]
    s = position(game, hands=[[19, 10], [11]], slots=("13/19", "16/21"), graveyard=eleven)
    events = act(game, s, "fight 19")
    out = game.outcome(s)
    assert out is not None and out.results == ("win", "win")
    v = seen(game, s)
    assert len(v["graveyard"]) == 12
    assert slots(game, s)[1] == "16/21" and v["persian_discard"] == []  # slot 2 never fought
    assert [e.data["slot"] for e in events if e.kind == "combat"] == [1]


def test_eleventh_annihilation_does_not_win(game: Thermopyles) -> None:
    """Seed 001: "a 12ª carta persa": the count is twelve, not fewer."""
    ten = ["10/16", "11/17", "12/18", "12/18", "14/20", "14/20", "15/21", "15/21", "17/21", "17/21"]
    s = position(game, hands=[[19, 10]], slots=("13/19", "19/22"), graveyard=ten)
    act(game, s, "fight 19")
    assert game.outcome(s) is None and len(seen(game, s)["graveyard"]) == 11


def test_team_wins_or_loses_together(game: Thermopyles) -> None:
    """Seed 001: "Os jogadores ganham ou perdem juntos"; "ganham ou perdem como uma
    equipe"."""
    s = position(game, hands=[[10], [11], [13]], marker=6, active=1)
    act(game, s, "retreat")
    out = game.outcome(s)
    assert out is not None
    assert out.results == ("loss",) * 3 and len(set(out.scores)) == 1


def test_game_over_accepts_no_more_actions(game: Thermopyles) -> None:
    """Seed 001: "jogam seus turnos até que uma das condições finais do jogo seja
    atingida"."""
    s = position(game, marker=6)
    act(game, s, "retreat")
    assert game.to_act(s) is None and game.legal(s) == () and game.chance(s) == []
    before = game.state_to_json(s)
    with pytest.raises(IllegalAction, match="game is over"):
        act(game, s, "retreat")
    assert game.state_to_json(s) == before


# -- what each player sees ---------------------------------------------------------------


def test_hands_are_private_unless_open_hands(game: Thermopyles) -> None:
    """Seed 001: "Cada jogador compra uma mão" (a hand is its owner's). Decision: other
    hands show only their size, unless the table plays with the open_hands option."""
    s = position(game, hands=[[10, 14], [16, 17]])
    mine = seen(game, s, 0)["hands"]
    assert mine[0]["cards"] == [10, 14]
    assert mine[1]["cards"] is None and mine[1]["count"] == 2
    assert [h["cards"] for h in seen(game, s, None)["hands"]] == [None, None]
    s = position(game, hands=[[10, 14], [16, 17]], open_hands=True)
    assert seen(game, s, 0)["hands"][1]["cards"] == [16, 17]
    assert seen(game, s, None)["hands"][0]["cards"] == [10, 14]


def test_drawn_card_is_shown_only_to_its_receiver(game: Thermopyles) -> None:
    """Seed 001: "decidem qual jogador receberá a carta": everyone sees who receives a
    card, only the receiver sees which."""
    s = position(game, hands=[[10], [11]])
    events = act(game, s, "retreat", "give p2", "draw 20")
    to_p1 = [e.to_json() for e in visible_events(events, 0)]
    to_p2 = [e.to_json() for e in visible_events(events, 1)]
    assert not any("card" in e for e in to_p1)
    assert any(e.get("card") == 20 for e in to_p2)
    assert any(e["kind"] == "draw" and e["seat"] == "p2" for e in to_p1)


def test_table_cards_are_public_for_every_seat(game: Thermopyles) -> None:
    """Seed 003: "A sinistra del mazzo Persiano c'è lo spazio CIMITERO"; "la carta MAPPA
    che identifica la posizione degli Spartani": slots, piles, graveyard and marker are
    open to all."""
    s = position(game, hands=[[19, 10], [11]], marker=2, graveyard=["10/16"])
    act(game, s, "fight 19", "reveal 18/21", "reveal 12/18")
    views = [seen(game, s, seat) for seat in (None, 0, 1)]
    keys = ("slots", "graveyard", "persian_discard", "spartan_discard", "marker", "support")
    for v in views[1:]:
        assert {k: v[k] for k in keys} == {k: views[0][k] for k in keys}
    assert views[0]["graveyard"] == ["10/16", "13/19"] and views[0]["marker"] == 2


def test_every_turn_starts_with_two_persian_cards_in_the_slots(game: Thermopyles) -> None:
    """Seed 003: "Ad ogni turno, BGA porrà due tessere Persiani sulla plancia" (and no hand
    ever holds more than 5 cards except while discarding the sixth)."""
    turns = 0
    for seed in range(30):
        rng = random.Random(seed)
        s = game.new(game.options({"players": 1 + seed % 4}))
        steps = 0
        while (seat := game.to_act(s)) is not None:
            if seat == CHANCE:
                game.apply(s, game.sample_chance(s, rng))
            else:
                options = list(game.legal(s))
                fights = [a for a in options if isinstance(a, Fight)]
                game.apply(s, rng.choice(fights if fights and rng.random() < 0.85 else options))
            v = seen(game, s)
            if v["phase"] == "turn":
                turns += 1
                assert None not in v["slots"]
            limit = 6 if v["phase"] == "discard" else 5
            assert all(h["count"] <= limit for h in v["hands"])
            steps += 1
            assert steps < 2000
        assert game.outcome(s) is not None
    assert turns > 100


# -- illegal actions: refused with a reason, the state untouched -------------------------


def _solo(game: Thermopyles) -> State:
    return position(game, hands=[[10, 14, 16, 17]], support=1)


def _pair(game: Thermopyles) -> State:
    return position(game, hands=[[10, 14], [16, 17]])


def _rolling(game: Thermopyles) -> State:
    s = position(game, marker=3)
    act(game, s, "fight 10 support 1")
    return s


def _recipient(game: Thermopyles) -> State:
    s = _pair(game)
    act(game, s, "retreat")
    return s


def _discarding(game: Thermopyles) -> State:
    s = position(game, hands=[[10, 11, 13, 14, 15]])
    act(game, s, "retreat", "take", "draw 20")
    return s


def _refilling(game: Thermopyles) -> State:
    s = position(game, hands=[[10, 14, 16, 17]], slots=("10/16", "11/17"))
    act(game, s, "fight 17")  # both defeated; the set holds one of each
    return s


def _drawing(game: Thermopyles) -> State:
    s = position(game, hands=[[10, 10, 14]])
    act(game, s, "retreat")
    return s


def _over(game: Thermopyles) -> State:
    s = position(game, marker=6)
    act(game, s, "retreat")
    return s


ILLEGAL: list[tuple[str, Callable[[Thermopyles], State], str, str]] = [
    ("fight with a card not in hand", _solo, "fight 20", "p1 holds no 20"),
    ("more support than remains", _solo, "fight 10 support 2", "only 1 support card"),
    ("give during a turn", _pair, "give p2", "p1 must retreat or fight"),
    ("take without a full hand", _solo, "take", "p1 must retreat or fight"),
    ("discard during a turn", _solo, "discard 10", "is not possible now"),
    ("a die during a turn", _solo, "roll 4", "'roll 4' is not possible now"),
    ("a draw during a turn", _solo, "draw 20", "not possible now"),
    ("a reveal during a turn", _solo, "reveal 18/21", "not possible now"),
    ("a decision while dice roll", _rolling, "retreat", "the dice are being rolled"),
    ("a draw while dice roll", _rolling, "draw 20", "the dice are being rolled"),
    ("a retreat while a recipient is chosen", _recipient, "retreat", "p1 must choose who receives"),
    ("a seat that is not at the table", _recipient, "give p3", "no p3 at this table"),
    ("discard a card not held", _discarding, "discard 19", "p1 holds no 19"),
    ("refuse after taking", _discarding, "refuse", "holds 6 cards and must discard"),
    ("reveal a card not in the deck", _refilling, "reveal 10/16", "no Persian card 10/16"),
    ("draw instead of reveal", _refilling, "draw 20", "a Persian card is being revealed"),
    ("draw a card not in the deck", _drawing, "draw 10", "no Spartan card 10 is left"),
    ("reveal instead of draw", _drawing, "reveal 18/21", "Spartan card is being drawn"),
    ("anything after the end", _over, "fight 10", "the game is over"),
]


@pytest.mark.parametrize(
    ("what", "make", "action", "message"), ILLEGAL, ids=[row[0] for row in ILLEGAL]
)
def test_illegal_action_is_refused_with_a_reason_and_changes_nothing(
    game: Thermopyles,
    what: str,
    make: Callable[[Thermopyles], State],
    action: str,
    message: str,
) -> None:
    """rules.py: "an illegal action raises and leaves the state untouched"."""
    s = make(game)
    parsed = game.parse(action)
    assert parsed not in game.legal(s)
    assert parsed not in [a for a, _ in game.chance(s)]
    before = game.state_to_json(s)
    with pytest.raises(IllegalAction, match=message):
        game.apply(s, parsed)
    assert game.state_to_json(s) == before


OUT_OF_RANGE: list[tuple[str, Callable[[Thermopyles], State], Any]] = [
    ("negative support", _solo, Fight(10, -1)),
    ("a die showing 7", _rolling, Roll(7)),
    ("a die showing 0", _rolling, Roll(0)),
    ("a negative seat", _recipient, Give(-1)),
]


@pytest.mark.parametrize(
    ("what", "make", "action"), OUT_OF_RANGE, ids=[row[0] for row in OUT_OF_RANGE]
)
def test_action_outside_legal_and_chance_is_refused(
    game: Thermopyles,
    what: str,
    make: Callable[[Thermopyles], State],
    action: Any,
) -> None:
    """Seed 001: "4 cartas de suporte", "2 dados" (six-sided), seats p1..pN. The protocol
    promises that `apply` refuses whatever `legal` and `chance` do not offer."""
    s = make(game)
    assert action not in game.legal(s)
    assert action not in [a for a, _ in game.chance(s)]
    before = game.state_to_json(s)
    with pytest.raises(IllegalAction):
        game.apply(s, action)
    assert game.state_to_json(s) == before
