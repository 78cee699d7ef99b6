"""`engine.shuffle.shuffle` is `random.Random.shuffle` written out: the same permutation
from the same source, which it leaves where `shuffle` would (the games' `determinize`
deals with it; the searches' decisions and pinned records rest on that)."""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from typing import Any

from thermopylae.engine.shuffle import shuffle, skip


def test_shuffle_deals_as_random_shuffle_would() -> None:
    for seed in range(500):
        a, b = list(range(seed % 50)), list(range(seed % 50))
        ra, rb = random.Random(seed), random.Random(seed)
        ra.shuffle(a)
        shuffle(b, rb)
        assert a == b
        assert ra.random() == rb.random()


def test_another_source_shuffles_itself() -> None:
    class Counted(random.Random):
        calls = 0

        def shuffle(self, x: MutableSequence[Any]) -> None:
            Counted.calls += 1
            super().shuffle(x)

    items = list(range(20))
    shuffle(items, Counted(1))
    assert Counted.calls == 1 and sorted(items) == list(range(20))


def test_skip_takes_the_draws_of_a_shuffle_of_as_many_items() -> None:
    class Sub(random.Random):
        pass

    for seed in range(200):
        for kind in (random.Random, Sub):
            n = seed % 40
            shuffled, skipped = kind(seed), kind(seed)
            shuffle(list(range(n)), shuffled)
            skip(n, skipped)
            assert skipped.getstate() == shuffled.getstate()
