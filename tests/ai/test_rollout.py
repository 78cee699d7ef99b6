"""The rollout agent: the heuristic improved by one step of look-ahead, every move tried on
the same deals and the same dice, ties to the heuristic, and no peeking."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

from tests.helpers import decision_positions, hidden_twin
from thermopylae.ai.base import make_agent
from thermopylae.ai.rollout import Rollout
from thermopylae.engine import registry
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import CHANCE, GenericGame
from thermopylae.games.hot_gates.board import PERSIAN
from thermopylae.games.hot_gates.state import PIECE

CASES = [
    ("thermopyles", {"players": 2}),
    ("earth-and-water", {}),
    ("hot-gates", {"players": 2}),
    ("hot-gates", {"players": 3}),
]


class _Watched:
    """A game that records what the rollout asks of it (every other member is the game's:
    cast to a Game where it is handed to the rollout)."""

    def __init__(self, game: Any, estimate: Any = None) -> None:
        self.game = game
        self.estimate = estimate
        self.deals = 0
        self.fresh = False
        self.first_luck: list[Any] = []  # the dice stream at each playout's first chance

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def determinize(self, s: Any, seat: int, rng: random.Random) -> Any:
        self.deals += 1
        return self.game.determinize(s, seat, rng)

    def copy(self, s: Any) -> Any:
        self.fresh = True
        return self.game.copy(s)

    def sample_chance(self, s: Any, rng: random.Random) -> Any:
        if self.fresh:
            self.first_luck.append(rng.getstate())
            self.fresh = False
        return self.game.sample_chance(s, rng)

    def evaluate(self, s: Any) -> Any:
        return self.estimate if self.estimate is not None else self.game.evaluate(s)


def _choices(game_id: str, options: dict[str, Any], seed: int, every: int = 5) -> list[Any]:
    g = registry.get(game_id)
    return [
        s for s in decision_positions(game_id, options, seed, every=every) if len(g.legal(s)) > 1
    ]


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_rollout_decision_does_not_depend_on_hidden_cards(
    game_id: str, options: dict[str, Any]
) -> None:
    g = registry.get(game_id)
    checked = 0
    for s in _choices(game_id, options, 3):
        seat = g.to_act(s)
        assert seat is not None
        t = hidden_twin(g, s, seat)
        if t is None:
            continue
        agent = Rollout(samples=2, depth=4)
        assert agent.act(g, s, random.Random(4)) == agent.act(g, t, random.Random(4))
        checked += 1
        if checked >= 4:
            break
    assert checked > 0


def test_every_move_is_tried_on_the_same_deals_and_dice() -> None:
    g = _Watched(registry.get("hot-gates"))
    s = next(p for p in _choices("hot-gates", {"players": 2}, 1) if len(g.legal(p)) >= 3)
    moves = len(g.legal(s))
    Rollout(samples=3, depth=60).act(cast(GenericGame, g), s, random.Random(2))
    assert g.deals == 3
    luck = g.first_luck
    assert len(luck) == 3 * moves  # every playout of 60 decisions meets chance
    for k in range(3):
        group = luck[k * moves : (k + 1) * moves]
        assert all(state == group[0] for state in group)
    assert luck[0] != luck[moves] != luck[2 * moves]


@pytest.mark.parametrize(
    ("game_id", "options"), [("earth-and-water", {}), ("hot-gates", {"players": 2})]
)
def test_ties_go_to_the_heuristic(game_id: str, options: dict[str, Any]) -> None:
    """An estimate that cannot tell the moves apart leaves the heuristic's move."""
    g = _Watched(registry.get(game_id), estimate=(0.5, 0.5))
    heuristic = g.agents()["heuristic"]()
    checked = 0
    for s in _choices(game_id, options, 8, every=4)[:8]:
        expected = heuristic.act(g, s, random.Random(0))
        assert (
            Rollout(samples=2, depth=0).act(cast(GenericGame, g), s, random.Random(3)) == expected
        )
        checked += 1
    assert checked >= 5


def test_a_clearly_better_move_beats_the_heuristic_move() -> None:
    """Where the estimate prefers one move, the rollout plays it whatever the heuristic
    says: the estimate here is Persia's share of the units on the board."""
    g = registry.get("hot-gates")

    class Biased(_Watched):
        def evaluate(self, s: Any) -> Any:
            side = self.game.t.side
            persians = sum(1 for space in s.board for p in space if side[p & PIECE] == PERSIAN)
            total = sum(len(space) for space in s.board) or 1
            return (persians / total, 1 - persians / total)

    w = Biased(g)
    heuristic = g.agents()["heuristic"]()
    differed = 0
    for s in _choices("hot-gates", {"players": 2}, 5, every=2):
        choice = Rollout(samples=1, depth=0).act(cast(GenericGame, w), s, random.Random(1))
        seat = g.to_act(s)
        values: dict[Any, float] = {}
        over = False  # a move that ends the game has no estimate: the position is skipped
        for a in g.legal(s):
            d = g.copy(s)
            g.apply(d, a, quiet=True)
            if g.to_act(d) is not None:
                values[a] = w.evaluate(d)[seat]
            else:
                over = True
        if over:
            continue
        best = max(values.values())
        assert values[choice] == best
        differed += values[heuristic.act(g, s, random.Random(0))] < best
    assert differed > 0


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_rollout_plays_legal_moves_to_the_end(game_id: str, options: dict[str, Any]) -> None:
    g = registry.get(game_id)
    agent = make_agent("rollout:samples=1,depth=3", g)
    rng = random.Random(1)
    s = g.new(g.options(options))
    decisions = 0
    while (who := g.to_act(s)) is not None and decisions < 60:
        if who == CHANCE:
            g.apply(s, g.sample_chance(s, rng), quiet=True)
            continue
        a = agent.act(g, s, rng)
        assert a in g.legal(s)
        g.apply(s, a, quiet=True)
        decisions += 1
    assert decisions > 0


def test_rollout_time_budget_and_bad_parameters() -> None:
    g = registry.get("earth-and-water")
    s = _choices("earth-and-water", {}, 2)[0]
    agent = Rollout(seconds=0.05, depth=2)
    assert agent.act(g, s, random.Random(1)) in g.legal(s)
    assert agent.last_samples >= 1
    for spec in (
        "rollout:samples=0",
        "rollout:samples=1.5",
        "rollout:seconds=0",
        "rollout:depth=-1",
        "rollout:depth=x",
        "rollout:width=2",
    ):
        with pytest.raises(ThermopylaeError):
            make_agent(spec, g)
