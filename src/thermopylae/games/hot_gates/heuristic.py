"""A sensible player for any seat of 300: The Board Game, reading only its own view (a
`view.Glance`: the part of the view it needs, built without the JSON).

* Casualties: a small exhaustive search picks the order that loses least (a unit whose
  Defense exceeds the remaining Damage is wounded and absorbs all of it, so a sturdy unit
  first often saves the others); Persians count the Glory they give away, Spartans the
  strength they lose and Dilios's penalty.
* March: the Persians push their strongest units to the front and bring reinforcements;
  the Spartans keep the front space of each row full of their strongest units, bring the
  camp forward and step into empty Coastal Plain spaces for the bonus. Dilios stays out
  of reach (two spaces or more behind the Persian front, never on the Coastal Plain):
  losing him costs 10 Glory.
* Conquest: both sides always advance into a conquered space, strongest units first.
* Cards: boosts that add a die, damage that kills one more unit, shields that save one,
  cancels against the opponent's boosts, Ephialtes cards at once. The Persians keep their
  boosts for late rounds or a full hand; the Spartans, racing Ephialtes, boost every
  battle.

The Spartan rules for Dilios, the conquest and the boosts were measured against the
earlier ones: with the same Persian play, the Spartans win 57.9% of 4,000 games instead
of 50.9% (`thermopylae simulate hot-gates --games 4000 --seed 9`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from thermopylae.engine.protocol import GenericGame
from thermopylae.games.hot_gates.actions import DONE, PASS, Action, Casualty, Enter, Move, Play
from thermopylae.games.hot_gates.board import Tables
from thermopylae.games.hot_gates.components import DILIOS, LEADERS, LEONIDAS
from thermopylae.games.hot_gates.state import SPACES, space_name
from thermopylae.games.hot_gates.view import Glance, glance

ROW = 6
# Weights, tuned with `thermopylae simulate hot-gates --agent heuristic`.
SPARTAN_LOSS = 4.0  # a Spartan unit eliminated, on top of its Attack and Defense
PERSIAN_STRENGTH = 0.3  # per point of Attack a Persian unit takes with it
LEADER_ROUND = 1  # Persian Leaders come on from this round
ADVANCE_MIN = 2  # Spartans advance into a Coastal Plain space worth at least this bonus


SPACE = {space_name(i): i for i in range(2 * SPACES)}  # "A1" -> 0 ...


@runtime_checkable
class _WithTables(Protocol):
    """What the heuristic reads of the game beyond the contract: its public tables (the
    game itself, or a wrapper that shows an agent no more than it may see)."""

    t: Tables


def _tables(game: GenericGame) -> Tables:
    """The tables of the game the agent is given: 300's own agent (`game.agents()`)."""
    from thermopylae.games.hot_gates.rules import HotGates

    if isinstance(game, HotGates | _WithTables):
        return game.t
    raise TypeError(f"the 300 heuristic cannot play {game.id}")


class Heuristic:
    """A rule-based agent (`--agent heuristic`)."""

    name = "heuristic"

    def __init__(self, advance: float = ADVANCE_MIN, leaders: int = LEADER_ROUND) -> None:
        self.advance = advance
        self.leaders = leaders

    def act(self, game: GenericGame, state: Any, rng: random.Random) -> Any:
        legal = list(game.legal(state))
        if len(legal) == 1:
            return legal[0]
        t = _tables(game)
        seat = game.to_act(state)
        if seat is None or seat < 0:
            raise ValueError("the heuristic is asked for a decision only when a seat must act")
        v = glance(state, t, seat)
        me = _Me(t, v, self.advance, self.leaders)
        phase = v.phase
        if phase.endswith(" cards"):
            # a card whose effect cannot apply is never spent (decision 35): the game
            # says which from what every seat sees
            return me.card(list(game.sensible(state)))
        if phase == "casualty":
            return me.casualty(legal)
        if phase == "march":
            return max(legal, key=me.march_score)
        if phase == "conquer":
            return me.conquer(legal)
        if phase == "pull-back":
            return max(legal, key=me.place_score)
        if phase == "return":
            return max(legal, key=me.return_score)
        return legal[int(rng.random() * len(legal))]


class _Me:
    """One decision's reading of the view."""

    def __init__(self, t: Tables, v: Glance, advance: float, leaders: int) -> None:
        self.advance = advance
        self.leaders = leaders
        self.t = t
        self.v = v
        self.persian = v.persian
        self.board = v.board
        self.sides = v.sides
        self.bonus = v.bonus
        self.players = v.players
        self.hand = v.hand

    # -- geometry -------------------------------------------------------------------------

    def front(self, row: int, side: str) -> int:
        spaces = (
            range(row * ROW + ROW - 1, row * ROW - 1, -1)
            if side == "persian"
            else range(row * ROW, row * ROW + ROW)
        )
        for sp in spaces:
            if self.sides[sp] == side:
                return sp
        return -1

    # -- casualties -----------------------------------------------------------------------

    def casualty(self, legal: list[Action]) -> Action:
        bt = self.v.battle
        assert bt is not None
        left = bt["damage_left"]["persian" if self.persian else "spartan"]
        space = bt["persian_space" if self.persian else "spartan_space"]
        _, first = _search(self.t, self.persian, self.players, self.board[SPACE[space]], left)
        return next(a for a in legal if isinstance(a, Casualty) and a.piece == first)

    def damage_cost(self, pieces: Sequence[int], damage: int, persian: bool) -> float:
        """What `damage` costs the owner of `pieces` (Persian or not) after its best
        casualty choices."""
        if damage <= 0 or not pieces:
            return 0.0
        return _search(self.t, persian, self.players, tuple(sorted(pieces)), damage)[0]

    # -- cards ----------------------------------------------------------------------------

    def card(self, legal: list[Action]) -> Action:
        plays = [a for a in legal if isinstance(a, Play)]
        mine = self.v.seat
        played_by_me = sum(
            1 for seat, _, cancelled in self.v.played if seat == mine and not cancelled
        )
        best: Action = PASS
        best_score = 0.0
        for a in plays:
            c = self.t.cards[a.card]
            score = self.card_score(c, played_by_me)
            if score > best_score:
                best, best_score = a, score
        return best

    def card_score(self, c: Any, played_by_me: int) -> float:
        e, n = c.effect, c.amount
        many = len(self.hand) >= 4
        if e in ("draw", "delay", "hasten"):
            return 5.0
        if e == "cancel":
            opp = [
                effect
                for seat, effect, cancelled in self.v.played
                if not cancelled and (seat.startswith("persia") != self.persian)
            ]
            if opp and opp[-1] not in ("draw", "march"):
                return 4.0
            return 0.0
        if e == "march":
            return 0.5 if many else 0.0
        bt = self.v.battle
        if bt is None:
            return 0.0
        me_key, foe_key = ("persian", "spartan") if self.persian else ("spartan", "persian")
        if played_by_me and not many:
            return 0.0
        if e in ("attack", "dice"):
            total = bt["attack"][me_key]
            side = 0 if self.persian else 1
            dice_now = min(6, self.t.c.dice_for(total) + bt["bonus"]["dice"][side])
            if e == "attack":
                gain = min(6, self.t.c.dice_for(total + n) + bt["bonus"]["dice"][side]) - dice_now
            else:
                gain = min(6, dice_now + n) - dice_now
            return 3.0 * gain if gain > 0 and (many or self.important(bt)) else 0.0
        foe_space = self.space(bt[f"{foe_key}_space"])
        my_space = self.space(bt[f"{me_key}_space"])
        dice = bt["dice"]
        side = 0 if self.persian else 1
        if e == "damage":
            bonus = bt["bonus"]
            dealt = sum(dice[me_key]) + bonus["damage"][side] - bonus["shield"][1 - side]
            gain = self.enemy_cost(foe_space, dealt + n) - self.enemy_cost(foe_space, dealt)
            return gain if gain >= 2 or many else 0.0
        if e == "reroll":
            low = sorted(dice[me_key])[:n]
            return 2.0 if low and sum(low) <= 2 * len(low) else 0.0
        if e == "shield":
            bonus = bt["bonus"]
            taken = sum(dice[foe_key]) + bonus["damage"][1 - side] - bonus["shield"][side]
            saved = self.damage_cost(self.board[my_space], taken, self.persian) - self.damage_cost(
                self.board[my_space], taken - n, self.persian
            )
            return saved if saved >= 2 or (many and taken > 0) else 0.0
        if e == "heal":
            return 2.0 if any(p & 1 for p in self.board[my_space]) else 0.0
        return 0.0

    def important(self, bt: dict[str, Any]) -> bool:
        """A battle worth a boost: every battle for the Spartans (each kill is Glory in a
        race against Ephialtes); for the Persians a late round or a full hand."""
        if not self.persian:
            return True
        late = self.v.round >= self.v.path - 2
        return late or len(self.hand) >= 3

    def space(self, name: str) -> int:
        return SPACE[name]

    def enemy_cost(self, space: int, damage: int) -> float:
        """What the enemy loses to `damage` in `space`, valued from my side (Glory for
        the Spartans, units for the Persians), assuming it chooses its casualties well."""
        return self.damage_cost(self.board[space], damage, not self.persian)

    # -- march ----------------------------------------------------------------------------

    def march_score(self, a: Action) -> float:
        t = self.t
        if isinstance(a, Enter):
            code = a.piece
            if self.persian:
                if (code >> 1) in LEADERS:
                    return 1.0 if self.v.round >= self.leaders else -1.0
                return 5.0 + t.attack[code]
            return 3.0
        if not isinstance(a, Move):
            return 0.0
        src, dst, code = a.src, a.dst, a.piece
        if self.persian:
            if src // ROW != dst // ROW:
                return self.switch_score(src, dst, code)
            return 10.0 + dst % ROW + 0.5 * t.attack[code]
        row = dst // ROW
        foe = self.front(row, "persian")
        if code >> 1 == DILIOS and (dst % ROW < 3 or (foe >= 0 and dst <= foe + 2)):
            return -1.0  # Dilios keeps out of reach
        if src // ROW != dst // ROW:  # switching rows
            return self.switch_score(src, dst, code)
        n = dst % ROW
        front = self.front(row, "spartan")
        if foe >= 0 and dst == foe + 1:  # joining the battle front
            return 8.0 + t.attack[code]
        if n < 3 and self.bonus[dst] >= self.advance and src == front:
            return float(self.bonus[dst])
        if front >= 0 and dst > front:  # closing up behind the front
            return 2.0
        return -1.0

    def switch_score(self, src: int, dst: int, code: int) -> float:
        if self.persian:
            return -5.0
        src_row, dst_row = src // ROW, dst // ROW
        foe = self.front(dst_row, "persian")
        if foe < 0 or dst != foe + 1:
            return -1.0
        load = sum(self.t.size[p] for p in self.board[dst])
        src_front = self.front(src_row, "spartan")
        if src == src_front:
            return -1.0
        return 6.0 + self.t.attack[code] - 2 * load

    # -- conquest and return ---------------------------------------------------------------

    def conquer(self, legal: list[Action]) -> Action:
        moves = [a for a in legal if isinstance(a, Move)]
        if not moves:
            return DONE
        return max(moves, key=lambda a: self.t.attack[a.piece])

    def return_score(self, a: Action) -> float:
        if not isinstance(a, Enter):
            return 0.0
        if (a.piece >> 1) in LEADERS:
            return -1.0
        return 1.0 + a.dst % ROW + 0.1 * self.t.attack[a.piece]

    def place_score(self, a: Action) -> tuple[int, int]:
        """A pulled-back unit: the front of the Hot Gates first, the strongest first."""
        assert isinstance(a, Enter)
        return -(a.dst % ROW), self.t.attack[a.piece]


def _loss(t: Tables, persian: bool, players: int, code: int, wounded_only: bool) -> float:
    """What losing (or only wounding) a unit costs its owner."""
    if persian:
        if wounded_only:
            return float(0.2 + PERSIAN_STRENGTH * (t.attack[code] - t.attack[code | 1]))
        return float(t.glory[code & ~1] + PERSIAN_STRENGTH * t.attack[code])
    if wounded_only:
        return float(t.attack[code] - t.attack[code | 1] + t.defense[code] - t.defense[code | 1])
    extra = 0.0
    if code >> 1 == DILIOS:
        extra = 10.0 if players == 2 else 5.0
    if code >> 1 == LEONIDAS:
        extra += 3.0
    return float(SPARTAN_LOSS + t.attack[code] + t.defense[code] + extra)


_MEMO: dict[tuple[str, bool, int, tuple[int, ...], int], tuple[float, int]] = {}


def _search(
    t: Tables, persian: bool, players: int, pieces: tuple[int, ...], left: int
) -> tuple[float, int]:
    """(least loss, first casualty) over every order of casualties, memoised."""
    key = (t.c.digest, persian, players, pieces, left)
    hit = _MEMO.get(key)
    if hit is not None:
        return hit
    best = (float("inf"), pieces[0])
    for code in dict.fromkeys(pieces):
        rest = list(pieces)
        rest.remove(code)
        d = t.defense[code]
        if not code & 1 and not t.dead_back[code] and d > left:
            cost = _loss(t, persian, players, code, True)
            remaining = 0
            rest.append(code | 1)
        else:
            cost = _loss(t, persian, players, code, False)
            remaining = max(0, left - d)
        if remaining and rest:
            cost += _search(t, persian, players, tuple(sorted(rest)), remaining)[0]
        if cost < best[0]:
            best = (cost, code)
    if len(_MEMO) > 500_000:
        _MEMO.clear()
    _MEMO[key] = best
    return best
