"""`random.Random.shuffle` written out, for the searches' deals.

A search deals a seat's hidden cards again at every iteration (`Game.determinize`), and
`Random.shuffle` makes two method calls a card (`_randbelow`, `getrandbits`). This is the
same algorithm on the same draws, so the same permutation from the same source, which is
left where `shuffle` would leave it: the searches' decisions, and the pinned records of
their games, do not depend on which of the two ran (tests/engine/test_shuffle.py).
"""

from __future__ import annotations

import random
from typing import Any


def shuffle(x: list[Any], rng: random.Random) -> None:
    """Shuffle `x` in place as `rng.shuffle(x)` would; written out for a plain
    `random.Random` (another source, `SystemRandom` or a subclass, shuffles itself)."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    i = len(x) - 1
    for bits, bound in _steps(len(x)):
        j = getrandbits(bits)  # `_randbelow`: bits until they fall below the bound
        while j >= bound:
            j = getrandbits(bits)
        x[i], x[j] = x[j], x[i]
        i -= 1


_STEPS: list[tuple[tuple[int, int], ...]] = []
"""By list length n: the (bits, bound) of each of `shuffle`'s steps, in order."""


def _steps(n: int) -> tuple[tuple[int, int], ...]:
    """The (bits, bound) of the draws that shuffle a list of `n` items, from the last
    position down: worked out once per length."""
    while len(_STEPS) <= n:
        m = len(_STEPS)
        _STEPS.append(tuple((b.bit_length(), b) for b in range(m, 1, -1)))
    return _STEPS[n]


def skip(n: int, rng: random.Random) -> None:
    """Take from `rng` the draws `shuffle` takes to shuffle a list of `n` items, without
    shuffling anything: for a deal whose order does not matter (it is sorted after), so
    that the source is left where the shuffle would leave it."""
    if type(rng) is not random.Random:
        rng.shuffle([None] * n)
        return
    getrandbits = rng.getrandbits
    for bits, bound in _steps(n):
        while getrandbits(bits) >= bound:
            pass
