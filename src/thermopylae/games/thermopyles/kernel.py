"""A compiled kernel (numba) that plays whole batches of Thermopyles games: mass simulation.

A second implementation of the rules in `rules.py` and its steps (`turn.py`, `draws.py`,
`flow.py`), written as one loop over plain arrays and compiled with numba, for the random
and the heuristic policies (`heuristic.py`, ported decision for decision). It is reached
through the game contract (`Thermopyles.batch_simulator`), imported only then: numba's
import and compilation cost seconds (compiled functions are cached on disk).

It draws its random numbers in the engine's order, from two sources per game (chance: the
decks and the dice; agents: the random policy's choices), each number used as the engine
uses `random.random()`: the card at `int(u * len(deck))` of the sorted deck, the face
`int(u * 6) + 1`, the legal action at `int(u * len(legal))`. So the same numbers give the
same game: `play_streams` takes them from arrays (the test feeds it what the engine's
`random.Random` sources give and compares every game, tests/thermopyles/test_kernel.py);
`ThermopylesBatch.run` draws them from a SplitMix64 generator seeded by the run's seed and
the game's index, so a run's games do not depend on how it is split into batches.

Needs the optional extra `[fast]` (numba); without it, importing this module raises
`ImportError`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numba
import numpy as np
from numpy.typing import NDArray

from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import BatchCounts
from thermopylae.games.thermopyles import heuristic as H
from thermopylae.games.thermopyles.components import MAX_SUPPORT, Components
from thermopylae.games.thermopyles.flow import HAND_LIMIT, SOLO_START_HAND, START_HAND
from thermopylae.games.thermopyles.tables import LOST_LOCATION
from thermopylae.games.thermopyles.turn import GRAVEYARD_WIN

POLICIES = ("random", "heuristic")
"""The policies the kernel plays, by code: 0 the random agent, 1 the heuristic."""

REASONS = (
    "retreated onto location 7",
    "the 12th Persian card entered the graveyard",
    "the Persian deck cannot refill the slots",
    "no cards left in any hand or in the Spartan deck",
)
"""The outcome reasons by code, word for word the engine's (`turn.py`, `flow.py`)."""

FIELDS = (
    "result",  # 1 won, -1 lost
    "reason",  # index into REASONS
    "turns",
    "steps",  # chance outcomes and decisions applied, as engine.play.play counts them
    "marker",
    "support",
    "graveyard",
    "spartan_deck",
    "persian_deck",
    "chance_draws",  # random numbers taken from each source
    "agent_draws",
    "overflow",  # 1 when a stream ran out (play_streams only): the game is not valid
)
"""The columns of `play_streams`' per-game output."""

NEED = 6 * (MAX_SUPPORT + 1) + 1  # at_least's table: needs up to six per die

_U53 = 1.0 / 9007199254740992.0  # 2 ** -53
_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)


@numba.njit(inline="always")
def _mix(z: np.uint64) -> np.uint64:
    """SplitMix64's output function."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@numba.njit(inline="always")
def _u(which: int, stream: bool, cbuf: NDArray[np.float64], abuf: NDArray[np.float64],
       st: NDArray[np.uint64], pos: NDArray[np.int64]) -> float:  # fmt: skip
    """The next number in [0, 1) of source `which` (0 chance, 1 agents)."""
    i = pos[which]
    pos[which] = i + 1
    if stream:
        buf = cbuf if which == 0 else abuf
        if i >= buf.shape[0]:
            pos[2] = 1  # overflow
            return 0.0
        return buf[i]  # type: ignore[no-any-return]
    z = st[which] + _GAMMA
    st[which] = z
    return float(_mix(z) >> _S11) * _U53


@numba.njit(inline="always")
def _pop(deck: NDArray[np.int64], n: int, i: int) -> int:
    """Take the card at index `i` of the sorted deck of `n` cards (the rest stays sorted)."""
    v = deck[i]
    for j in range(i, n - 1):
        deck[j] = deck[j + 1]
    return int(v)


@numba.njit(inline="always")
def _insort(hand: NDArray[np.int64], n: int, v: int) -> None:
    j = n
    while j > 0 and hand[j - 1] > v:
        hand[j] = hand[j - 1]
        j -= 1
    hand[j] = v


@numba.njit(inline="always")
def _remove(hand: NDArray[np.int64], n: int, v: int) -> None:
    """Remove the first card of value `v` from a sorted hand of `n` cards."""
    j = 0
    while hand[j] != v:
        j += 1
    for k in range(j, n - 1):
        hand[k] = hand[k + 1]


@numba.njit(inline="always")
def _distinct(hand: NDArray[np.int64], n: int) -> int:
    d = 0
    for j in range(n):
        if j == 0 or hand[j] != hand[j - 1]:
            d += 1
    return d


@numba.njit(inline="always")
def _nth_distinct(hand: NDArray[np.int64], n: int, want: int) -> int:
    d = -1
    for j in range(n):
        if j == 0 or hand[j] != hand[j - 1]:
            d += 1
            if d == want:
                return int(hand[j])
    return -1


@numba.njit(inline="always")
def _at_least(atl: NDArray[np.float64], dice: int, need: int) -> float:
    """heuristic.at_least, from its own values in a table."""
    if need <= dice:
        return 1.0
    if need > 6 * dice:
        return 0.0
    return atl[dice, need]  # type: ignore[no-any-return]


@numba.njit(inline="always")
def _charge(atl: NDArray[np.float64], card: int, dice: int, c1: int, a1: int, b1: int,
            c2: int, a2: int, b2: int) -> float:  # fmt: skip
    """heuristic.Heuristic._charge_value, operation for operation."""
    d1 = 1.0 + H.BONUS * b1
    d2 = 1.0 + H.BONUS * b2
    p1 = _at_least(atl, dice, c1 - card)
    both = _at_least(atl, dice, max(c1, c2) - card)
    ann1 = _at_least(atl, dice, a1 - card)
    ann2 = _at_least(atl, dice, max(c1, a2) - card)
    value = p1 * d1 + both * d2 + H.ANNIHILATE * (ann1 + ann2)
    return value - (1 - p1)


@numba.njit(cache=True)
def _play(spartan: NDArray[np.int64], persian: NDArray[np.int64], combat: NDArray[np.int64],
          annihilation: NDArray[np.int64], bonus: NDArray[np.int64], die: NDArray[np.int64],
          support0: int, atl: NDArray[np.float64], players: int, policy: NDArray[np.int64],
          stream: bool, cbuf: NDArray[np.float64], abuf: NDArray[np.float64],
          st: NDArray[np.uint64], pos: NDArray[np.int64], sdeck: NDArray[np.int64],
          pdeck: NDArray[np.int64], hands: NDArray[np.int64], counts: NDArray[np.int64],
          out: NDArray[np.int64]) -> None:  # fmt: skip
    """One game to the end; writes FIELDS into `out`."""
    ns = spartan.shape[0]
    for j in range(ns):
        sdeck[j] = spartan[j]
    npd = persian.shape[0]
    for j in range(npd):
        pdeck[j] = persian[j]
    for p in range(players):
        counts[p] = 0
    pos[0] = 0
    pos[1] = 0
    pos[2] = 0
    support = support0
    graveyard = 0
    marker = 1
    turns = 0
    steps = 0
    result = 0
    reason = 0

    # set-up: two Persian cards into the slots, then 3 Spartan cards each (4 solo)
    slot0 = _pop(pdeck, npd, int(_u(0, stream, cbuf, abuf, st, pos) * npd))
    npd -= 1
    slot1 = _pop(pdeck, npd, int(_u(0, stream, cbuf, abuf, st, pos) * npd))
    npd -= 1
    steps += 2
    size = SOLO_START_HAND if players == 1 else START_HAND
    for p in range(players):
        for _ in range(size):
            v = _pop(sdeck, ns, int(_u(0, stream, cbuf, abuf, st, pos) * ns))
            ns -= 1
            _insort(hands[p], counts[p], v)
            counts[p] += 1
            steps += 1

    active = 0
    while True:
        hand = hands[active]
        n = counts[active]
        steps += 1
        turns += 1
        card = 0  # 0: retreat
        k = 0
        if policy[active] == 0:  # the random agent: uniform among `legal`
            nd = _distinct(hand, n)
            choice = int(_u(1, stream, cbuf, abuf, st, pos) * (1 + nd * (support + 1)))
            if choice > 0:
                card = _nth_distinct(hand, n, (choice - 1) // (support + 1))
                k = (choice - 1) % (support + 1)
        elif n > 0:  # the heuristic
            c1, a1, b1 = combat[slot0], annihilation[slot0], bonus[slot0]
            c2, a2, b2 = combat[slot1], annihilation[slot1], bonus[slot1]
            d = die[marker]
            if marker >= 6:
                best = -10.0
            else:
                best = H.RETREAT_BASE if ns > 0 and n < HAND_LIMIT else 0.0
                if marker > H.SAFE_MARKER:
                    best -= 0.6
                best = best - 0.15 * (marker - 1)
            for j in range(n):
                if j > 0 and hand[j] == hand[j - 1]:
                    continue
                c = int(hand[j])
                for kk in range(support + 1):
                    value = _charge(atl, c, kk + d, c1, a1, b1, c2, a2, b2)
                    value = value - H.CARD_COST * (c - 10)
                    value -= H.SUPPORT_COST * kk
                    if value > best + 1e-9:
                        best = value
                        card = c
                        k = kk
        draws = 0
        if card == 0:  # retreat
            marker += 1
            if marker >= LOST_LOCATION:
                result, reason = -1, 0
                break
            draws = 1
        else:  # fight
            _remove(hand, n, card)
            counts[active] = n - 1
            support -= k
            total = card
            for _ in range(k + die[marker]):
                total += int(_u(0, stream, cbuf, abuf, st, pos) * 6) + 1
                steps += 1
            if total >= combat[slot0]:
                if total >= annihilation[slot0]:
                    graveyard += 1
                draws += bonus[slot0]
                slot0 = -1
                if graveyard >= GRAVEYARD_WIN:
                    result, reason = 1, 1
                    break
                if total >= combat[slot1]:
                    if total >= annihilation[slot1]:
                        graveyard += 1
                    draws += bonus[slot1]
                    slot1 = -1
                    if graveyard >= GRAVEYARD_WIN:
                        result, reason = 1, 1
                        break
                else:  # slot 2 stays and slides into slot 1
                    slot0, slot1 = slot1, -1
                if npd < (slot0 < 0) + 1:  # one or both slots to refill
                    result, reason = 1, 2
                    break
                if slot0 < 0:
                    slot0 = _pop(pdeck, npd, int(_u(0, stream, cbuf, abuf, st, pos) * npd))
                    npd -= 1
                    steps += 1
                slot1 = _pop(pdeck, npd, int(_u(0, stream, cbuf, abuf, st, pos) * npd))
                npd -= 1
                steps += 1
        # the team's draws, each to a seat the active player chooses
        while draws > 0 and ns > 0:
            seat = 0
            if players > 1:
                steps += 1
                if policy[active] == 0:
                    seat = int(_u(1, stream, cbuf, abuf, st, pos) * players)
                else:  # the fewest cards, a hand that is not full first
                    key = 1 << 30
                    for p in range(players):
                        kp = (counts[p] >= HAND_LIMIT) * 1000 + counts[p]
                        if kp < key:
                            key = kp
                            seat = p
            got = hands[seat]
            if counts[seat] >= HAND_LIMIT:
                steps += 1
                if policy[seat] == 0 and int(_u(1, stream, cbuf, abuf, st, pos) * 2) == 1:
                    draws -= 1  # refused
                    continue
            v = _pop(sdeck, ns, int(_u(0, stream, cbuf, abuf, st, pos) * ns))
            ns -= 1
            steps += 1
            _insort(got, counts[seat], v)
            counts[seat] += 1
            if counts[seat] > HAND_LIMIT:  # discard one value
                steps += 1
                if policy[seat] == 0:
                    nd = _distinct(got, counts[seat])
                    gone = _nth_distinct(
                        got, counts[seat], int(_u(1, stream, cbuf, abuf, st, pos) * nd)
                    )
                else:
                    gone = int(got[0])  # the weakest
                _remove(got, counts[seat], gone)
                counts[seat] -= 1
            draws -= 1
        if ns == 0:
            empty = True
            for p in range(players):
                if counts[p] > 0:
                    empty = False
            if empty:
                result, reason = -1, 3
                break
        active = (active + 1) % players

    out[0] = result
    out[1] = reason
    out[2] = turns
    out[3] = steps
    out[4] = marker
    out[5] = support
    out[6] = graveyard
    out[7] = ns
    out[8] = npd
    out[9] = pos[0]
    out[10] = pos[1]
    out[11] = pos[2]


_KEY = np.uint64(0x5DEECE66D2545F49)


@numba.njit(cache=True)
def _batch(spartan: NDArray[np.int64], persian: NDArray[np.int64], combat: NDArray[np.int64],
           annihilation: NDArray[np.int64], bonus: NDArray[np.int64], die: NDArray[np.int64],
           support0: int, atl: NDArray[np.float64], players: int, policy: NDArray[np.int64],
           seed: np.uint64, start: int, games: int,
           totals: NDArray[np.int64]) -> None:  # fmt: skip
    """Games `start` .. `start + games - 1` of a run seeded `seed`; adds into `totals`:
    wins, then each reason's count, turns, steps."""
    empty = np.zeros(0, np.float64)
    st = np.zeros(2, np.uint64)
    pos = np.zeros(3, np.int64)
    sdeck = np.zeros(spartan.shape[0] + 1, np.int64)
    pdeck = np.zeros(persian.shape[0] + 1, np.int64)
    hands = np.zeros((players, spartan.shape[0] + 2), np.int64)
    counts = np.zeros(players, np.int64)
    out = np.zeros(len(FIELDS), np.int64)
    base = _mix(seed ^ _KEY)
    for g in range(start, start + games):
        index = np.uint64(g) << np.uint64(1)
        st[0] = _mix(base + index)
        st[1] = _mix(base + (index | np.uint64(1)))
        _play(spartan, persian, combat, annihilation, bonus, die, support0, atl, players,
              policy, False, empty, empty, st, pos, sdeck, pdeck, hands, counts, out)  # fmt: skip
        if out[0] > 0:
            totals[0] += 1
        totals[1 + out[1]] += 1
        totals[5] += out[2]
        totals[6] += out[3]


@numba.njit(cache=True)
def _streams(spartan: NDArray[np.int64], persian: NDArray[np.int64], combat: NDArray[np.int64],
             annihilation: NDArray[np.int64], bonus: NDArray[np.int64], die: NDArray[np.int64],
             support0: int, atl: NDArray[np.float64], players: int, policy: NDArray[np.int64],
             cbufs: NDArray[np.float64], abufs: NDArray[np.float64],
             outs: NDArray[np.int64]) -> None:  # fmt: skip
    st = np.zeros(2, np.uint64)
    pos = np.zeros(3, np.int64)
    sdeck = np.zeros(spartan.shape[0] + 1, np.int64)
    pdeck = np.zeros(persian.shape[0] + 1, np.int64)
    hands = np.zeros((players, spartan.shape[0] + 2), np.int64)
    counts = np.zeros(players, np.int64)
    for g in range(cbufs.shape[0]):
        _play(spartan, persian, combat, annihilation, bonus, die, support0, atl, players,
              policy, True, cbufs[g], abufs[g], st, pos, sdeck, pdeck, hands, counts,
              outs[g])  # fmt: skip


class Arrays:
    """A component set as the kernel reads it (plain int64 arrays), with the heuristic's
    `at_least` table taken from the heuristic itself."""

    def __init__(self, components: Components) -> None:
        kinds = components.persian_kinds
        self.spartan = np.array(sorted(components.spartan), np.int64)
        self.persian = np.array(sorted(components.persian), np.int64)
        self.combat = np.array([k.combat for k in kinds], np.int64)
        self.annihilation = np.array([k.annihilation for k in kinds], np.int64)
        self.bonus = np.array([int(k.bonus) for k in kinds], np.int64)
        self.die = np.array(
            [int(n in components.die_locations) for n in range(LOST_LOCATION + 2)], np.int64
        )
        self.support = int(components.support)
        self.atl = np.zeros((MAX_SUPPORT + 2, NEED), np.float64)
        for d in range(MAX_SUPPORT + 2):
            for need in range(NEED):
                self.atl[d, need] = H.at_least(d, need)


def policy_codes(policies: Sequence[str], players: int) -> NDArray[np.int64]:
    """One policy code per seat (one name for every seat, or one per seat)."""
    names = list(policies)
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise ThermopylaeError(f"{len(names)} policies for {players} seats")
    bad = [n for n in names if n not in POLICIES]
    if bad:
        raise ThermopylaeError(
            f"the fast engine plays {' and '.join(POLICIES)}, not {', '.join(sorted(set(bad)))}"
        )
    return np.array([POLICIES.index(n) for n in names], np.int64)


def play_streams(
    components: Components,
    players: int,
    policies: Sequence[str],
    chance: NDArray[np.float64],
    agent: NDArray[np.float64],
) -> NDArray[np.int64]:
    """Play one game per row of `chance` and `agent` (numbers in [0, 1) each game takes in
    order from its two sources, as the engine's `random.Random.random()` gives them):
    one row of FIELDS per game."""
    if chance.shape[0] != agent.shape[0]:
        raise ValueError("one row of chance and one of agent numbers per game")
    outs = np.zeros((chance.shape[0], len(FIELDS)), np.int64)
    t = Arrays(components)
    _streams(
        t.spartan,
        t.persian,
        t.combat,
        t.annihilation,
        t.bonus,
        t.die,
        t.support,
        t.atl,
        players,
        policy_codes(policies, players),
        np.ascontiguousarray(chance, np.float64),
        np.ascontiguousarray(agent, np.float64),
        outs,
    )
    return outs


class ThermopylesBatch:
    """Whole batches of seeded Thermopyles games through the kernel (a `BatchSimulator`).

    Game `i` of a run seeded `seed` depends only on (seed, i): a run played in batches of
    any size gives the same games."""

    policies = POLICIES

    def __init__(self, components: Components, players: int) -> None:
        self.players = players
        self.arrays = Arrays(components)

    def run(self, games: int, seed: int, policies: Sequence[str], start: int = 0) -> BatchCounts:
        codes = policy_codes(policies, self.players)
        totals = np.zeros(3 + len(REASONS), np.int64)
        t = self.arrays
        _batch(
            t.spartan,
            t.persian,
            t.combat,
            t.annihilation,
            t.bonus,
            t.die,
            t.support,
            t.atl,
            self.players,
            codes,
            np.uint64(seed % (1 << 64)),
            start,
            games,
            totals,
        )
        wins = int(totals[0])
        return BatchCounts(
            games=games,
            wins=(wins,) * self.players,
            draws=0,
            turns=int(totals[1 + len(REASONS)]),
            steps=int(totals[2 + len(REASONS)]),
            reasons={r: int(totals[1 + i]) for i, r in enumerate(REASONS) if totals[1 + i]},
        )
