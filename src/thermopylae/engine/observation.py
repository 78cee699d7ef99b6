"""What a learning interface needs from a game: an `Observer`, which turns one seat's
view into a fixed-size list of numbers, with a documented layout.

A game that offers learning interfaces returns one from `Game.observer(options)`; the
interfaces in `thermopylae.interop` know nothing else about the game. An observation is
the numbers of `game.view(state, seat)`, the one place where hidden information is
filtered, so it cannot leak what the seat may not see (`StateObserver` below reads the
same numbers from the state, and is tested to equal them).

The building blocks below (`Field`, `onehot`, `histogram`, `scaled`, `Fields`) are what
each game's `observe.py` writes its layout with, so that no game imports a face to
describe its observations and every layout reads the same way.

The fast path: an observer may also be a `StateObserver`, whose `state_features(state,
seat, to_act)` gives the same numbers as `features(game.view(state, seat))` (as float32)
reading the state directly, without building the view (the learning interfaces call it on every step
when the observer offers it). It must read only what the view shows that seat: each game's
tests hold it to equality with `features(view)` on many positions, for every seat, and to
the hidden-information tests the view-based observation passes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, partial
from struct import pack
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast, runtime_checkable

from thermopylae.engine.protocol import JSON, Observer

# `np` (NumPy) is bound by the first `Counts` or `Pile` built, not when this module loads:
# every game's rules import their observer, and a command that never observes (a
# simulation) need not pay for NumPy.
if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "Counts",
    "Field",
    "Fields",
    "Obs",
    "Observer",
    "Pile",
    "PileBytes",
    "StateObserver",
    "array_maker",
    "assemble",
    "f32",
    "histogram",
    "join_parts",
    "keep",
    "onehot",
    "onehots",
    "scaled",
    "steps",
]


if TYPE_CHECKING:
    Obs = npt.NDArray[np.float32]
    """An observation vector."""


def __getattr__(name: str) -> Any:
    """`Obs` for a module that reads it at run time (NumPy imported then: see the
    module's imports)."""
    if name == "Obs":
        import numpy as np
        import numpy.typing as npt

        return npt.NDArray[np.float32]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@runtime_checkable
class StateObserver(Observer, Protocol):
    """An observer that can also read a state directly (see the module's docstring)."""

    def state_features(self, state: Any, seat: int, to_act: int | None) -> Obs:
        """`features(game.view(state, seat))` as a new float32 array of `size` entries,
        where `to_act` is `game.to_act(state)` (the game's answer, which the caller
        holds). Its entries must lie within the learning interfaces' bounds (-100..100:
        they are not clipped again)."""
        ...

    def fresh(self) -> StateObserver:
        """A new observer of the same layout with its own caches and memory of the last
        call. `state_features` may keep what it last saw and write on from it, so one
        observer must not serve two threads at once, and two environments stepped in
        turn would each undo what the other's last call kept: each environment holds
        its own (`interop.observe.Encoder`)."""
        ...


Getter = Callable[[JSON], Sequence[float]]
"""Reads one field's values from a view."""


@dataclass(frozen=True, slots=True)
class Field:
    """One named part of an observation: `size` numbers that `get` reads from a view;
    `meaning` is the line docs/rl.md shows for it."""

    name: str
    size: int
    meaning: str
    get: Getter


def onehot(value: object, choices: Iterable[object]) -> list[float]:
    """1.0 where `value` equals a choice, else 0.0: all zero when the value is absent."""
    return [1.0 if value == c else 0.0 for c in choices]


@cache
def _index(choices: tuple[Hashable, ...]) -> dict[Hashable, int]:
    # keyed by the choices' value: a layout has a handful of constant tuples
    return {c: i for i, c in enumerate(choices)}


def histogram(
    items: Iterable[Hashable], choices: tuple[Hashable, ...], scale: float = 1.0
) -> list[float]:
    """How many of `items` are each choice, / `scale`; items not among them are left out."""
    out = [0.0] * len(choices)
    index = _index(choices)
    for x in items:
        i = index.get(x)
        if i is not None:
            out[i] += 1.0 / scale
    return out


# -- observations as float32 bytes ------------------------------------------------------
#
# A `state_features` that writes its entries one by one into a NumPy array pays for a
# NumPy item or slice assignment at each (several times a list's), and that was most of
# its time. The observers instead make the parts of the observation in order, each the
# float32 bytes of a field or a run of fields, almost all taken ready-made from a table
# (`onehots`, `steps`) or a cache (`Counts` with `raw=True`, `PileBytes`), and make one
# array of them: `assemble`, or on a hot path `array_maker` over `join_parts`.


def f32(values: Iterable[float]) -> bytes:
    """The float32 bytes of `values`: the same numbers as writing them into a float32
    array (`struct` rounds a double to float32 as NumPy's cast does; tested), without
    building an array, which costs several times as much for the few numbers of a row
    an observer makes when its cache misses."""
    row = tuple(values)
    return pack(f"{len(row)}f", *row)


def onehots(n: int) -> list[bytes]:
    """The float32 bytes of the one-hot rows of size `n`: `rows[i]` has 1.0 at `i`, and
    `rows[n]` (also `rows[-1]`, so an absent value written -1 finds it) is all zero."""
    return [f32(1.0 if j == i else 0.0 for j in range(n)) for i in range(n + 1)]


K = TypeVar("K")
V = TypeVar("V")


def keep(cache: dict[K, V], key: K, value: V, most: int) -> V:
    """`value`, stored in `cache` under `key`; a cache that holds `most` entries is
    emptied first (an observer's caches of rows stay bounded, and the rows in use come
    back within a few calls)."""
    if len(cache) >= most:
        cache.clear()
    cache[key] = value
    return value


def steps(count: int, scale: float) -> list[bytes]:
    """The float32 bytes of `k / scale` for `k` in `0..count-1` (one entry each)."""
    return [f32([k / scale]) for k in range(count)]


join_parts = bytearray().join  # a new bytearray each call (the separator is empty)


def array_maker(size: int) -> Callable[[bytearray], Obs]:
    """`assemble` for one size without its call and its check of the size: NumPy's float32
    array of `size` entries over the joined parts (`array_maker(size)(join_parts(parts))`,
    two calls in C). For an observer's hot path, made once by it; the tests hold every
    observation to the reference's."""
    _import_numpy()
    new: Callable[..., Obs] = np.ndarray  # (the class's own type has free parameters)
    return partial(new, (size,), np.dtype(np.float32))


def assemble(parts: Iterable[bytes], size: int) -> Obs:
    """A new, writable float32 array of `size` entries from the float32 bytes of its
    parts, in order (what `state_features` returns)."""
    data = join_parts(parts)
    if len(data) != 4 * size:
        raise AssertionError(f"observation of {len(data) // 4} entries, not {size}")
    try:
        return np.ndarray((size,), np.float32, data)
    except NameError:  # NumPy not imported yet: see the module's imports
        _import_numpy()
        return np.ndarray((size,), np.float32, data)


def _import_numpy() -> None:
    global np
    import numpy as np


class Counts:
    """`histogram(items, choices)` as a read-only float32 row, cached by the items (as a
    tuple), for `state_features`: hands and piles change a card at a time, and most
    positions repeat the counts of the one before. `index` maps an item to its choice's
    place (items not in it are left out); at most `limit` rows are kept (emptied when
    full). With `raw=True` the rows are float32 bytes (for `assemble`)."""

    def __init__(
        self, index: Mapping[Any, int], size: int, limit: int = 4096, *, raw: bool = False
    ) -> None:
        _import_numpy()  # for `__call__`: see the module's imports
        self.index: dict[Any, int] = dict(index)
        self.size = size
        self.limit = limit
        self.raw = raw
        # the rows by items (read by the observers' fast paths before they call)
        self.rows: dict[tuple[Hashable, ...], Any] = {}

    def __call__(self, items: Iterable[Hashable]) -> Any:
        key = tuple(items)
        row = self.rows.get(key)
        if row is None:
            # counted in a list, then one array: a NumPy item update costs several
            # times a list's, and a quarter to a half of the look-ups miss in play
            counts = [0.0] * self.size
            index = self.index
            for x in key:
                i = index.get(x)
                if i is not None:
                    counts[i] += 1.0
            if self.raw:
                row = pack(f"{len(counts)}f", *counts)  # as `f32`
            else:
                row = np.array(counts, dtype=np.float32)
                row.setflags(write=False)
            keep(self.rows, key, row, self.limit)
        return row


class Pile:
    """`histogram(items, choices)` as a read-only float32 row, for a pile that grows an
    item at a time over a game (a discard pile, a graveyard). The last pile's row is kept
    and the pile compared with it by value first: cheaper than hashing the pile, and in a
    game played in order most positions repeat the pile of the one before. Other piles
    are looked up by content (when many games are played in turn, as the vector
    environment does) and counted when new. Use one per pile and seat whose rows
    alternate; at most `limit` rows are kept by content (emptied when full)."""

    def __init__(self, index: Mapping[Any, int], size: int, limit: int = 4096) -> None:
        self._by_content = Counts(index, size, limit)  # binds `np` too
        self.last: Sequence[Hashable] | None = None
        self.row: Obs = np.zeros(size, dtype=np.float32)

    def __call__(self, items: Sequence[Hashable]) -> Obs:
        if items == self.last:
            return self.row
        row: Obs = self._by_content(items)
        self.last = items[:]  # a copy: the caller's pile changes in place
        self.row = row
        return row


GROWN_MOST = 3
"""The most items `PileBytes` counts onto the last pile's row (see its `__call__`)."""


class PileBytes:
    """`Pile` for `assemble`: the row as float32 bytes, and a pile that grew since the
    last call (how piles grow in a game played in order: by one item, or a few put at
    once) counted from the last row, rather than looked up by content: a pile's content
    is seldom seen again, so that look-up missed on most new piles and counted them all."""

    def __init__(self, index: Mapping[Any, int], size: int, limit: int = 4096) -> None:
        self._by_content = Counts(index, size, limit, raw=True)
        self._index = self._by_content.index
        # the last pile (a copy) and its row: an observer may read them to skip the call
        self.last: list[Hashable] = []
        self.row: bytes = self._by_content(())
        # the last row's counts, as floats (None: not read from the row yet; never
        # empty, as a row has at least one entry)
        self._counts: list[float] | None = [0.0] * size

    def __call__(self, items: Sequence[Hashable]) -> bytes:
        last = self.last
        if items == last:
            return self.row
        n = len(last)
        # grown by one to GROWN_MOST items: counted from the last row (a pile much
        # longer than the last is mostly another game's, when games are played in turn:
        # looked up by content)
        if n < len(items) <= n + GROWN_MOST and items[:n] == last:
            if len(items) > n + 1:
                return self._grown(items[n:])
            i = self._index.get(items[n])
            row = self.row
            if i is not None:
                counts = self._counts or self._counts_now()
                counts[i] += 1.0
                row = self.row = row[: 4 * i] + pack("f", counts[i]) + row[4 * i + 4 :]
            last.append(items[n])
            return row
        found: bytes = self._by_content(items)
        self.row = found
        self.last = list(items)  # a copy: the caller's pile changes in place
        self._counts = None
        return found

    def _grown(self, added: Sequence[Hashable]) -> bytes:
        """The row of the last pile with `added` (two items or more: several cards put
        at once) on top, counted from the last row's counts."""
        counts = self._counts or self._counts_now()
        index = self._index
        for item in added:
            i = index.get(item)
            if i is not None:
                counts[i] += 1.0
        self.last += added
        row = self.row = pack(f"{len(counts)}f", *counts)
        return row

    def _counts_now(self) -> list[float]:
        """The last row's counts as floats, read from the row (after a look-up by
        content, which keeps no counts)."""
        # (floats: the view's format is "f"; the stubs type every `tolist` as ints)
        counts = cast("list[float]", memoryview(self.row).cast("f").tolist())
        self._counts = counts
        return counts


def scaled(x: float | None, scale: float) -> float:
    """`x / scale`, and 0.0 for an absent value."""
    return 0.0 if x is None else float(x) / scale


class Fields:
    """An `Observer` made of a list of `Field`s, concatenated in order; each field's
    values are checked against its size, so a layout cannot drift from its docs."""

    def __init__(self, game_id: str, fields: Sequence[Field]) -> None:
        self.game_id = game_id
        self.fields = tuple(fields)
        self._size = sum(f.size for f in self.fields)
        self._at: dict[str, int] = {}  # each field's offset in the observation
        offset = 0
        for f in self.fields:
            self._at[f.name] = offset
            offset += f.size

    def layout(self) -> list[tuple[str, int, str]]:
        return [(f.name, f.size, f.meaning) for f in self.fields]

    @property
    def size(self) -> int:
        return self._size

    def features(self, view: JSON) -> list[float]:
        parts: list[float] = []
        for f in self.fields:
            values = list(f.get(view))
            if len(values) != f.size:
                raise AssertionError(f"{self.game_id} field {f.name}: {len(values)} != {f.size}")
            parts += values
        return parts
