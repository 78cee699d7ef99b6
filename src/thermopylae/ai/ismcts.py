"""Information-set Monte Carlo tree search (single-observer ISMCTS), for every game.

Each iteration deals the hidden information again at random, as the deciding seat could
imagine it (`game.determinize(state, seat, rng)`: the game resamples exactly what its
`view` hides), then walks one tree of decisions, shared by all those deals: UCB1 with
*availability* counts (a move is judged against the iterations in which it was legal),
chance drawn from the deal, a random playout to the end, and every seat's score backed up
to the nodes where that seat chose. The tree is keyed by decisions only, so different
deals and dice share statistics ("open loop"). The moves searched are the game's
`sensible` ones where it has them (`playout.choices`): no card spent for nothing.

The agent sees the game through the protocol only, and the true state only through
`determinize`, whose result depends on the seat's view alone: two states with the same
view give the same decision for the same random source (a test checks it).
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Sequence
from math import log, sqrt, trunc
from typing import Any

from thermopylae.ai.params import check_parameters
from thermopylae.ai.playout import choices, play_out
from thermopylae.engine.play import stepper
from thermopylae.engine.protocol import Decider, GenericGame

_UNSET = object()


_LINEUPS = 8
"""Tuples of moves a node keeps lined up with its children (`_Node.lineups`)."""

_NUMBERED = 4096
"""Tuples of moves the search keeps numbered (`_Numbers.by_id`) before it starts afresh."""


class _Node:
    __slots__ = ("avail", "children", "hint", "lineups", "mean", "move", "total", "visits", "who")

    def __init__(self, who: int, move: Any = None) -> None:
        self.who = who  # the seat that chose the move leading here
        self.move = move  # that move
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.mean = 0.0  # total / visits, kept by the backup: read far more often than set
        # By the moves' numbers (`_Numbers`); None until the first child (most nodes are
        # leaves: no dict made for them). The root's, once the search ends, by the moves.
        self.children: dict[Any, _Node] | None = None
        self.hint: Any = _UNSET  # the heuristic's move from here (with `prior`)
        # By the identity of a tuple of moves the game handed out here (a game that keeps
        # its legal tuples hands out the same one again): the tuple, and the child of each
        # of its moves, once every one has a child; the walk reads them without looking
        # anything up. At most `_LINEUPS` tuples; None until the first.
        self.lineups: dict[int, tuple[Any, tuple[_Node, ...]]] | None = None


class _Numbers:
    """Each distinct move of a search numbered (by equality, as a dict would key it), and
    the tuples of moves the game hands out again (by identity) as the tuples of their
    numbers: the tree's children are keyed by these small ints, so a move is hashed once
    a search, not at each visit of each node (the actions' dataclass hash is a Python
    call, and the deals give a seat whose hand is hidden many tuples of moves at a node:
    more than a node keeps lined up)."""

    __slots__ = ("by_id", "moves", "number")

    def __init__(self) -> None:
        self.number: dict[Any, int] = {}
        self.moves: list[Any] = []  # by number: the first of the equal moves met
        # id(tuple) -> (the tuple, its moves' numbers); a list may change, so is not kept
        self.by_id: dict[int, tuple[Sequence[Any], tuple[int, ...]]] = {}

    def of(self, acts: Sequence[Any]) -> tuple[int, ...]:
        """The numbers of `acts`' moves, in order (new moves numbered now)."""
        number, moves = self.number, self.moves
        keys = []
        for a in acts:
            k = number.get(a)
            if k is None:
                k = number[a] = len(moves)
                moves.append(a)
            keys.append(k)
        numbered = tuple(keys)
        if type(acts) is tuple:
            if len(self.by_id) >= _NUMBERED:  # tuples the game does not keep: start afresh
                self.by_id.clear()
            self.by_id[id(acts)] = (acts, numbered)
        return numbered


def _pause_collector() -> bool:
    """Turn the cyclic garbage collector off for a search, if it is on; True if it was
    (the search turns it on again when it ends). A search allocates containers all the
    time and keeps a few of them in its tree (about three an iteration), so the collector
    ran every few hundred iterations, going through the young objects and, more and more
    often, through the whole tree, which holds no cycle: 10-15% of an iteration's CPU
    (gc.callbacks, Thermopyles, 20,000 iterations). What cyclic garbage other threads
    make meanwhile is collected once the search is over, as a search is bounded by its
    budget. Two searches at once: the one that found the collector on turns it on again,
    so it ends on, as it began."""
    if not gc.isenabled():
        return False
    gc.disable()
    return True


def _logs(n: int) -> list[float]:
    """`log(i)` for i in 1..n-1 (index 0 unused): the UCB's log of a move's availability,
    which is at most the iterations so far plus one, looked up rather than computed."""
    return [0.0, *(log(i) for i in range(1, n))]


class ISMCTS:
    """`ismcts:iterations=N` or `ismcts:seconds=S` (a budget per decision); `c` is the
    exploration constant; `playout=heuristic` plays out with the game's heuristic (slower
    per iteration, better informed); `depth=D` stops a playout after D decisions and
    scores the position with the game's `evaluate` (a game without one plays to the end);
    `prior=W` tries the heuristic's move first at every decision of the tree and adds
    W / (visits + 1) to its UCB value, so the search leaves the heuristic only where the
    playouts show a better move."""

    name = "ismcts"

    def __init__(
        self,
        iterations: int = 1000,
        seconds: float | None = None,
        c: float = 0.7,
        playout: str = "random",
        depth: int | None = None,
        prior: float = 0.0,
        **rest: Any,
    ) -> None:
        if rest:
            raise ValueError(
                f"unknown parameter(s) {sorted(rest)}; ismcts takes iterations, "
                "seconds, c, playout, depth and prior"
            )
        check_parameters(
            count=("iterations", iterations), seconds=seconds, depth=depth, c=c, prior=prior
        )
        if playout not in ("random", "heuristic"):
            raise ValueError("playout must be random or heuristic")
        if prior < 0:
            raise ValueError("prior must be 0 or more")
        self.iterations = int(iterations)
        self.seconds = None if seconds is None else float(seconds)
        self.c = float(c)
        self.playout = playout
        self.depth = None if depth is None else int(depth)
        self.prior = float(prior)
        self.last_iterations = 0
        self.cpu_limit: float | None = None  # set by a server: CPU seconds per decision

    def act(self, game: GenericGame, state: Any, rng: random.Random) -> Any:
        legal = list(choices(game)(state))
        if len(legal) == 1:
            return legal[0]
        seat = game.to_act(state)
        assert seat is not None, "an agent is asked only where a seat decides"
        root = _Node(-1)
        heuristic = None
        if self.playout == "heuristic" or self.prior > 0:
            make = game.agents().get("heuristic")
            heuristic = make() if make is not None else None
        policy = heuristic if self.playout == "heuristic" else None
        hints = heuristic if self.prior > 0 else None
        evaluate = game.evaluate if self.depth is not None else None
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        cap = None if self.cpu_limit is None else time.thread_time() + self.cpu_limit
        logs = _logs(self.iterations + 2 if deadline is None else 4096)
        # A decision and the chance steps after it (Thermopyles fuses a fight's).
        step = stepper(game)
        numbers = _Numbers()
        n = 0
        # The collector paused while the search runs (`_pause_collector`).
        paused = _pause_collector()
        try:
            while True:
                if n + 2 >= len(logs):
                    logs = _logs(2 * len(logs))
                if cap is not None and n > 0 and time.thread_time() >= cap:
                    break
                if deadline is None:
                    if n >= self.iterations:
                        break
                elif time.perf_counter() >= deadline and n > 0:
                    break
                self._iterate(
                    game,
                    game.determinize(state, seat, rng),
                    root,
                    rng,
                    policy,
                    evaluate,
                    hints,
                    logs,
                    step,
                    numbers,
                    seat,
                )
                n += 1
        finally:
            if paused:
                gc.enable()
        self.last_iterations = n
        # The root's children by their moves (`_Node.children`), as the move is chosen.
        tried = root.children = {ch.move: ch for ch in (root.children or {}).values()}
        best = max(legal, key=lambda a: tried[a].visits if a in tried else -1)
        return best

    def _iterate(
        self,
        game: GenericGame,
        d: Any,
        root: _Node,
        rng: random.Random,
        policy: Decider | None,
        evaluate: Callable[[Any], tuple[float, ...] | None] | None,
        hints: Decider | None,
        logs: list[float],
        step: Callable[[Any, Any, random.Random], int | None],
        numbers: _Numbers,
        seat: int,
    ) -> None:
        path: list[_Node] = []
        node = root
        c, prior, inf = self.c, self.prior, math.inf
        legal_of = choices(game)
        numbered, moves = numbers.by_id, numbers.moves
        # Selection and expansion; each decision applied with the chance steps after it,
        # drawn from the deal's source as the protocol draws them (`apply_advance`: the
        # move applied quietly, then each `sample_chance` applied until a seat decides).
        # The deal is where `seat` decides (`determinize` keeps whose turn it is), so no
        # chance step is due before the first decision.
        who: int | None = seat
        while who is not None:
            acts = legal_of(d)
            hint = None
            if hints is not None:
                hint = node.hint
                if hint is _UNSET:
                    hint = node.hint = hints.act(game, d, rng)
            lineups = node.lineups
            if lineups is not None and hint is None:
                kept = lineups.get(id(acts))
                if kept is not None and kept[0] is acts:
                    # Every move tried here: only the UCB pass (the values as below).
                    done = kept[1]
                    top, top_v = done[0], -inf
                    for child in done:
                        child.avail = av = child.avail + 1
                        v = child.mean + c * sqrt(logs[av] / child.visits)
                        if v > top_v:
                            top, top_v = child, v
                    node = top
                    path.append(node)
                    who = step(d, node.move, rng)
                    continue
            known = numbered.get(id(acts))
            keys = known[1] if known is not None and known[0] is acts else numbers.of(acts)
            hk = -1 if hint is None else numbers.number.get(hint, -1)
            children = node.children
            if children is None:
                # Every move untried (a node reached for the first time since it was
                # added): the pick below, without looking each move up.
                if hk >= 0 and hk in keys:
                    a, k = hint, hk
                else:
                    i = trunc(rng.random() * len(acts))
                    a, k = acts[i], keys[i]
                child = _Node(who, a)
                child.avail = 1
                node.children = {k: child}
                path.append(child)
                step(d, a, rng)
                break
            # One pass: each move's availability counted, and its UCB value taken while
            # every move so far has been tried (the value is needed only when all have).
            get = children.get
            untried: list[int] = []
            best_ch: _Node | None = None
            best_v = -inf
            for k in keys:
                ch = get(k)
                if ch is None:
                    untried.append(k)
                else:
                    ch.avail = av = ch.avail + 1
                    if not untried:
                        v = ch.mean + c * sqrt(logs[av] / ch.visits)
                        if k == hk:
                            v += prior / (ch.visits + 1)
                        if v > best_v:
                            best_ch, best_v = ch, v
            if untried:
                if hk >= 0 and hk in untried:
                    a, k = hint, hk
                else:
                    k = untried[trunc(rng.random() * len(untried))]
                    a = moves[k]
                child = _Node(who, a)
                child.avail = 1
                children[k] = child
                path.append(child)
                step(d, a, rng)
                break
            if (
                hint is None
                and type(acts) is tuple
                and (lineups is None or len(lineups) < _LINEUPS)
            ):
                if lineups is None:
                    lineups = node.lineups = {}
                lineups[id(acts)] = (acts, tuple([children[k] for k in keys]))
            if best_ch is None:
                best_ch = children[keys[0]]
            node = best_ch
            path.append(node)
            who = step(d, node.move, rng)
        # Playout, cut off after `depth` decisions where the game can estimate the
        # position (`evaluate` returns None where it cannot: play on to the end).
        if policy is None and evaluate is None:  # play_out's usual case, one call less
            game.random_playout(d, rng, rng)
            outcome = game.outcome(d)
            assert outcome is not None
            scores = outcome.scores
        else:
            scores = play_out(game, d, rng, policy, self.depth, evaluate)
        for nd in path:
            nd.visits = visits = nd.visits + 1
            nd.total = total = nd.total + scores[nd.who]
            nd.mean = total / visits
