"""ISMCTS and the games' `determinize`: the search sees only what its seat sees."""

from __future__ import annotations

import gc
import math
import random
from typing import Any, cast

import pytest

from tests.helpers import decision_positions, hidden_twin
from thermopylae.ai.base import make_agent
from thermopylae.ai.ismcts import ISMCTS
from thermopylae.engine import registry
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.play import play
from thermopylae.engine.protocol import CHANCE, GenericGame

CASES = [
    ("thermopyles", {"players": 2}),
    ("thermopyles", {"players": 3}),
    ("earth-and-water", {}),
    ("hot-gates", {"players": 2}),
    ("hot-gates", {"players": 4}),
]


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_determinize_keeps_the_seat_view(game_id: str, options: dict[str, Any]) -> None:
    g = registry.get(game_id)
    for s in decision_positions(game_id, options, 1, every=7):
        seat = g.to_act(s)
        assert seat is not None
        d = g.determinize(s, seat, random.Random(5))
        assert g.view(d, seat) == g.view(s, seat)
        assert g.to_act(d) == seat
        assert list(g.legal(d)) == list(g.legal(s))


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_determinize_depends_only_on_the_view(game_id: str, options: dict[str, Any]) -> None:
    g = registry.get(game_id)
    twins = 0
    for s in decision_positions(game_id, options, 2, every=3):
        seat = g.to_act(s)
        assert seat is not None
        t = hidden_twin(g, s, seat)
        if t is None:
            continue
        twins += 1
        assert g.state_to_json(s) != g.state_to_json(t)
        a = g.determinize(s, seat, random.Random(9))
        b = g.determinize(t, seat, random.Random(9))
        assert g.state_to_json(a) == g.state_to_json(b)
    assert twins > 0


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_ismcts_decision_does_not_depend_on_hidden_cards(
    game_id: str, options: dict[str, Any]
) -> None:
    """Issue 6: two states with the same view and different hidden cards, seed fixed."""
    g = registry.get(game_id)
    checked = 0
    for s in decision_positions(game_id, options, 3, every=5):
        seat = g.to_act(s)
        assert seat is not None
        t = hidden_twin(g, s, seat)
        if t is None or len(g.legal(s)) < 2:
            continue
        for agent in (
            ISMCTS(iterations=20),
            ISMCTS(iterations=6, playout="heuristic", depth=4, prior=1.0),
        ):
            assert agent.act(g, s, random.Random(4)) == agent.act(g, t, random.Random(4))
        checked += 1
        if checked >= 4:
            break
    assert checked > 0


def test_ismcts_plays_legal_actions_to_the_end() -> None:
    g = registry.get("thermopyles")
    agent = make_agent("ismcts:iterations=30", g)
    rng = random.Random(1)
    s = g.new(g.options({"players": 1}))
    while (who := g.to_act(s)) is not None:
        a = g.sample_chance(s, rng) if who == CHANCE else agent.act(g, s, rng)
        if who != CHANCE:
            assert a in g.legal(s)
        g.apply(s, a, quiet=True)
    assert g.outcome(s) is not None


def test_ismcts_time_budget_and_bad_parameters() -> None:
    g = registry.get("thermopyles")
    s = next(
        p
        for p in decision_positions("thermopyles", {"players": 1}, 4, every=1)
        if len(g.legal(p)) > 1
    )
    agent = ISMCTS(seconds=0.05)
    agent.act(g, s, random.Random(1))
    assert agent.last_iterations >= 1
    for spec in (
        "ismcts:iterations=0",
        "ismcts:seconds=-1",
        "ismcts:playout=smart",
        "ismcts:depth=-1",
        "ismcts:prior=-1",
        "ismcts:iterations=a",
        "ismcts:depth=1.5",
        "ismcts:width=3",
    ):
        with pytest.raises(ThermopylaeError):
            make_agent(spec, g)


EVALUATED = [("earth-and-water", {}), ("hot-gates", {"players": 2})]


@pytest.mark.parametrize(("game_id", "options"), EVALUATED)
def test_evaluate_reads_only_the_public_position(game_id: str, options: dict[str, Any]) -> None:
    """A cut-off search must not peek either: the estimate is the same for two states
    that differ only in a hidden card, and it is a chance of winning per seat."""
    g = registry.get(game_id)
    twins = 0
    for s in decision_positions(game_id, options, 6, every=3):
        est = g.evaluate(s)
        assert est is not None and len(est) == 2 and all(0.0 <= p <= 1.0 for p in est)
        assert sum(est) == pytest.approx(1.0)
        for seat in range(2):
            t = hidden_twin(g, s, seat)
            if t is not None:
                assert g.evaluate(t) == est
                twins += 1
    assert twins > 0


def test_evaluate_has_no_model_for_three_or_four_players() -> None:
    g = registry.get("hot-gates")
    s = decision_positions("hot-gates", {"players": 3}, 1, every=7)[0]
    assert g.evaluate(s) is None
    # The cut-off search then plays to the end, and still decides.
    assert ISMCTS(iterations=5, depth=0).act(g, s, random.Random(1)) in g.legal(s)


class _Counting:
    """A game that counts the calls of its `evaluate`."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def evaluate(self, s: Any) -> Any:
        self.calls += 1
        return self.game.evaluate(s)


def test_depth_cuts_the_playout_and_asks_the_game_for_an_estimate() -> None:
    g = _Counting(registry.get("earth-and-water"))
    game = cast(GenericGame, g)  # _Counting hands every other member on to the game
    s = next(
        p for p in decision_positions("earth-and-water", {}, 2, every=7) if len(g.legal(p)) > 1
    )
    ISMCTS(iterations=10).act(game, s, random.Random(1))
    assert g.calls == 0  # no depth: every playout ends the game
    ISMCTS(iterations=10, depth=2).act(game, s, random.Random(1))
    assert g.calls == 10
    # A game with no `evaluate` (Thermopyles) is played to the end whatever the depth.
    t = registry.get("thermopyles")
    p = next(
        q
        for q in decision_positions("thermopyles", {"players": 1}, 4, every=1)
        if len(t.legal(q)) > 1
    )
    assert ISMCTS(iterations=10, depth=0).act(t, p, random.Random(1)) in t.legal(p)


@pytest.mark.parametrize(("game_id", "options"), EVALUATED)
def test_prior_tries_the_heuristic_move_first(game_id: str, options: dict[str, Any]) -> None:
    """With `prior`, the first move expanded at the root is the heuristic's: one
    iteration plays exactly what the heuristic plays."""
    g = registry.get(game_id)
    heuristic = g.agents()["heuristic"]()
    checked = 0
    for s in decision_positions(game_id, options, 8, every=4):
        if len(g.legal(s)) < 2:
            continue
        expected = heuristic.act(g, s, random.Random(0))
        assert ISMCTS(iterations=1, prior=1.0).act(g, s, random.Random(3)) == expected
        checked += 1
    assert checked > 5


class _RefNode:
    """A node of the reference search below."""

    def __init__(self, who: int) -> None:
        self.who, self.visits, self.avail, self.total = who, 0, 0, 0.0
        self.children: dict[Any, _RefNode] = {}


def _reference_root(
    g: Any, state: Any, rng: random.Random, iterations: int, c: float = 0.7
) -> dict[Any, _RefNode]:
    """ISMCTS written plainly through the protocol: a deal, chance sampled and applied
    step by step, UCB1 with availability counts over every move, the first untried move
    drawn at random, a random playout by `engine.play.play`, the scores backed up."""

    def chance() -> int | None:
        who: int | None
        while (who := g.to_act(d)) == CHANCE:
            g.apply(d, g.sample_chance(d, rng), quiet=True)
        return who

    seat = g.to_act(state)
    root = _RefNode(-1)
    for _ in range(iterations):
        d = g.determinize(state, seat, rng)
        node, path = root, []
        who = chance()
        while who is not None:
            acts = list(g.sensible(d))
            for a in acts:
                if a in node.children:
                    node.children[a].avail += 1
            untried = [a for a in acts if a not in node.children]
            if untried:
                a = untried[int(rng.random() * len(untried))]
                child = node.children[a] = _RefNode(who)
                child.avail = 1
                path.append(child)
                g.apply(d, a, quiet=True)
                chance()
                break
            best, best_v = None, -math.inf
            for a in acts:
                ch = node.children[a]
                v = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if v > best_v:
                    best, best_v = a, v
            node = node.children[best]
            path.append(node)
            g.apply(d, best, quiet=True)
            who = chance()
        play(g, d, (), rng, rng, moves=g.sensible)
        scores = g.outcome(d).scores
        for nd in path:
            nd.visits += 1
            nd.total += scores[nd.who]
    return root.children


def _searched_root(agent: ISMCTS, g: Any, s: Any, rng: random.Random) -> Any:
    """The root of the tree `agent` grows deciding in `s`."""
    roots: list[Any] = []
    iterate = agent._iterate

    def keep_root(game: Any, d: Any, root: Any, *rest: Any, **named: Any) -> None:
        if not roots:
            roots.append(root)
        iterate(game, d, root, *rest, **named)

    agent._iterate = keep_root  # type: ignore[method-assign]  # a spy on the search's root
    agent.act(g, s, rng)
    return roots[0]


@pytest.mark.parametrize(
    ("game_id", "options", "iterations"),
    [
        ("thermopyles", {"players": 1}, 400),
        ("thermopyles", {"players": 4}, 400),
        ("earth-and-water", {}, 60),
    ],
)
def test_ismcts_matches_a_plain_reference_search(
    game_id: str, options: dict[str, Any], iterations: int
) -> None:
    """The tuned search (fused steps and playouts, kept lineups, the collector paused)
    makes the plain search's every choice: the same statistics at the root, and the random
    source left in the same place, for the same seed."""
    g = registry.get(game_id)
    positions = decision_positions(game_id, options, seed=5, every=9)
    for s in (positions[0], positions[len(positions) // 2]):
        if len(g.sensible(s)) < 2:
            continue
        mine, theirs = random.Random(3), random.Random(3)
        root = _searched_root(ISMCTS(iterations=iterations), g, g.copy(s), mine)
        ref = _reference_root(g, g.copy(s), theirs, iterations)
        got = {a: (n.visits, n.total, n.avail) for a, n in root.children.items()}
        assert got == {a: (n.visits, n.total, n.avail) for a, n in ref.items()}
        assert mine.getstate() == theirs.getstate()


def test_a_search_leaves_the_collector_as_it_found_it() -> None:
    g = registry.get("thermopyles")
    s = decision_positions("thermopyles", {"players": 2}, seed=1)[0]
    agent = ISMCTS(iterations=20)
    was = gc.isenabled()
    try:
        gc.enable()
        agent.act(g, s, random.Random(0))
        assert gc.isenabled()
        gc.disable()
        agent.act(g, s, random.Random(0))
        assert not gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
