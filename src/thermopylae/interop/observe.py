"""Fixed-size observations and action masks for learning libraries, for any game.

The layout of a game's observations is the game's own: `game.observer(options)` returns
an `engine.observation.Observer` (each game writes it in its `observe.py`; docs/rl.md
lists every field), and this module only turns its numbers into the float32 vectors the
learning libraries take. An observation is the numbers of `game.view(state, seat)`, the
one place where hidden information is filtered, so it cannot leak what the seat may not
see (the fast path below reads the same numbers from the state, held equal to the
view's by the tests). Numbers are scaled to about [0, 1] and clipped to [`LOW`, `HIGH`]; seats are
absolute indices `0..n-1` in the game's seat order.

`Encoder` is what the environments hold: the same observations and masks, fast. When
the game's observer is a `StateObserver` it reads the state directly (the game's own
code, held by the tests to equality with the view's numbers); action masks are cached
on the legal actions the game hands out (the games intern them: cached by the tuple's
identity, else by the actions' codes, each memoised on the action's identity), so a step
neither re-encodes every legal action nor encodes them again to check the chosen one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.observation import Obs, Observer, StateObserver
from thermopylae.engine.protocol import CHANCE, JSON, GenericGame

Mask = npt.NDArray[np.int8]
LOW, HIGH = -100.0, 100.0
"""Bounds of every observation entry (values are clipped to them; none comes near)."""


def observer(game: GenericGame, options: Mapping[str, Any]) -> Observer:
    """The game's observer for these (complete) options, or a clear error for a game that
    offers none."""
    found = game.observer(options)
    if found is None:
        raise ThermopylaeError(
            f"{game.title} ({game.id}) offers no learning interface: it has no observer"
        )
    return found


def vector(found: Observer, view: JSON) -> Obs:
    """The float32 vector of `view` through an observer (what the environments call on
    every step, holding their observer)."""
    x = np.array(found.features(view), dtype=np.float32)
    # clipped in place: the same values as `np.clip`, which costs more than building the
    # array itself for vectors of this size
    np.maximum(x, LOW, out=x)
    np.minimum(x, HIGH, out=x)
    return x


def layout(game: GenericGame, options: Mapping[str, Any]) -> list[tuple[str, int, str]]:
    """The observation's fields in order: (name, size, meaning)."""
    return list(observer(game, options).layout())


def observation_size(game: GenericGame, options: Mapping[str, Any]) -> int:
    return observer(game, options).size


def observation(game: GenericGame, options: Mapping[str, Any], view: JSON) -> Obs:
    """The float32 vector of `view` (from `game.view(state, seat)`); `options` must be
    complete (`game.options(...)`)."""
    return vector(observer(game, options), view)


def observe(game: GenericGame, options: Mapping[str, Any], state: Any, seat: int) -> Obs:
    """The observation of `seat` in `state` (through `game.view`)."""
    return observation(game, options, game.view(state, seat))


def action_mask(game: GenericGame, state: Any, seat: int | None = None) -> npt.NDArray[np.int8]:
    """1 for each encoded legal action of the deciding seat (all 0 unless `seat`, when
    given, is the one to act; all 0 at chance nodes and once the game is over)."""
    mask = np.zeros(game.num_actions, dtype=np.int8)
    who = game.to_act(state)
    if who is None or who == CHANCE or (seat is not None and who != seat):
        return mask
    for a in game.legal(state):
        mask[game.encode(a)] = 1
    return mask


Entry = tuple[Sequence[Any], Mask, list[int]]
"""Legal actions, their mask, and their codes in the same order (see `Masks.entry`)."""


def action_of(entry: Entry | None, code: int) -> Any:
    """The legal action of `entry` whose code is `code`, or None when it is not legal (or
    there is no entry: the game is over). It both checks and decodes the code: the action
    the game handed out, which `game.decode` would give again (no game gives two legal
    actions one code)."""
    if entry is None:
        return None
    try:
        return entry[0][entry[2].index(code)]
    except ValueError:
        return None


CACHE_SIZE = 4096
"""Legal-action tuples an `Encoder` keeps masks for (emptied when full: the games hand
out far fewer distinct ones in practice)."""


class Masks:
    """Action masks and legal codes of one game, cached on the legal actions the game
    hands out (see the module's docstring). Masks are shared read-only arrays: copy one to
    change it; `codes` gives a new list."""

    def __init__(self, game: GenericGame) -> None:
        self.game = game
        self.num_actions = int(game.num_actions)
        # the mask of a seat that does not decide now (and of chance nodes, and the end)
        self.no_mask: Mask = np.zeros(self.num_actions, dtype=np.int8)
        self.no_mask.setflags(write=False)
        self._int8 = np.dtype(np.int8)  # (`frombuffer` parses `np.int8` at every call)
        # legal actions -> their entry: by the tuple's identity (the games intern some
        # tuples they hand out: one look-up), else by the identities of its actions (the
        # games intern their actions: a tuple of ints made and hashed in C, where the
        # actions' codes cost a Python call each). An entry holds the legal actions it
        # was made from, so no identity in its key can be reused while it is cached
        self._by_id: dict[int, Entry] = {}
        self._by_ids: dict[tuple[int, ...], Entry] = {}
        # the entries by identities kept in two generations: when `_by_ids` is full it
        # becomes `_old_ids` (the one before is dropped), and an entry found there is
        # kept in the new one; a game whose legal tuples keep coming (Earth & Water:
        # ~20,000 distinct in 2,000 random games) then keeps the ones in use where one
        # cache emptied when full lost them all (found 84% -> 89% of the time there)
        self._old_ids: dict[tuple[int, ...], Entry] = {}
        # tuples are kept by their identity while that pays: a game that hands out a
        # new tuple at every position (Earth & Water) is never found by it, and storing
        # each cost more than the look-up saves. `_hits`: found by identity since
        # `_by_id` was last emptied; fewer than one in eight of the tuples stored, and
        # tuples are no longer kept by identity (for this game, from then on)
        self._by_tuple = True
        self._hits = 0
        # id(action) -> its code, for the actions held in `_held` (so no id is reused)
        self._code_of: dict[int, int] = {}
        self._held: list[Any] = []

    def code(self, action: Any) -> int:
        """`game.encode(action)`, memoised on the action's identity (the games hand out
        the same action objects again: no hashing of the action by value)."""
        code = self._code_of.get(id(action))
        if code is None:
            code = int(self.game.encode(action))
            if len(self._held) >= CACHE_SIZE:
                self._code_of.clear()
                self._held.clear()
            self._held.append(action)  # held: its id cannot be reused while cached
            self._code_of[id(action)] = code
        return code

    def entry(self, legal: Sequence[Any]) -> Entry:
        """(legal as a tuple, its mask, its codes in the same order). The codes both check
        a chosen code and decode it (`action_of`), and give OpenSpiel's legal codes (sorted
        when asked: only OpenSpiel asks)."""
        # immutable: a game may hand it out again
        interned = type(legal) is tuple and self._by_tuple
        if interned:
            entry = self._by_id.get(id(legal))
            if entry is not None and entry[0] is legal:
                self._hits += 1
                return entry
        ids = tuple(map(id, legal))
        entry = self._by_ids.get(ids)
        if entry is None:
            entry = self._old_ids.get(ids)
            if entry is None:
                entry = self._made(legal, ids)
            else:
                self._keep(ids, entry)
        if interned:
            if len(self._by_id) >= CACHE_SIZE:
                self._by_tuple = self._hits >= CACHE_SIZE // 8
                self._hits = 0
                self._by_id.clear()
            # the entry holds actions of `legal`'s identities, not `legal` itself: one
            # that does, so that the tuple's id cannot be reused while it is cached
            entry = self._by_id[id(legal)] = (legal, entry[1], entry[2])
        return entry

    def _made(self, legal: Sequence[Any], ids: tuple[int, ...]) -> Entry:
        """The entry of legal actions not seen (by their identities), cached by them."""
        found = list(map(self._code_of.get, ids))
        if None in found:
            code = self.code
            codes = [code(a) for a in legal]
        else:
            codes = cast("list[int]", found)
        # the mask written in a bytearray: a NumPy item or index update costs several
        # times as much, and a third to a half of the look-ups miss in the Board Game
        row = bytearray(self.num_actions)
        for c in codes:
            row[c] = 1
        mask: Mask = np.frombuffer(bytes(row), self._int8)  # read-only: shared
        entry = (tuple(legal), mask, codes)
        self._keep(ids, entry)
        return entry

    def _keep(self, ids: tuple[int, ...], entry: Entry) -> None:
        """`entry` kept by `ids` in the new generation (a full one becomes the old)."""
        if len(self._by_ids) >= CACHE_SIZE:
            self._old_ids = self._by_ids
            self._by_ids = {}
        self._by_ids[ids] = entry

    def mask(self, state: Any, seat: int | None = None) -> Mask:
        """`action_mask(game, state, seat)`, as a shared read-only array."""
        return self.mask_at(state, seat, self.game.to_act(state))

    def mask_at(self, state: Any, seat: int | None, who: int | None) -> Mask:
        """`mask(state, seat)` where `who` is `game.to_act(state)`, which the caller
        holds."""
        if who is None or who == CHANCE or (seat is not None and who != seat):
            return self.no_mask
        return self.entry(self.game.legal(state))[1]

    def entry_at(self, state: Any, who: int | None) -> Entry | None:
        """The entry of the deciding seat's legal actions, where `who` is
        `game.to_act(state)` (None at chance nodes and once the game is over)."""
        if who is None or who == CHANCE:
            return None
        return self.entry(self.game.legal(state))

    def sorted_codes(self, legal: Sequence[Any]) -> list[int]:
        """The codes of `legal` (a seat's legal actions), sorted: a new list."""
        return sorted(set(self.entry(legal)[2]))


class Encoder(Masks):
    """Observations and action masks of one game and set of options, fast; what the
    environments hold (see the module's docstring)."""

    def __init__(self, game: GenericGame, options: Mapping[str, Any]) -> None:
        super().__init__(game)
        found = observer(game, options)
        # an observer of its own where the game's reads the state (`StateObserver.fresh`:
        # it keeps what its last call saw, so environments must not share one)
        self._direct = found.fresh() if isinstance(found, StateObserver) else None
        self.observer: Observer = found if self._direct is None else self._direct
        self.size = int(found.size)
        # `observation_at` itself where the observer reads the state (one call less)
        self.features: Callable[[Any, int, int | None], Obs] = (
            self._direct.state_features if self._direct is not None else self.observation_at
        )

    def observation(self, state: Any, seat: int) -> Obs:
        """The float32 observation of `seat` in `state` (the same as `observe`; a new
        array)."""
        return self.observation_at(state, seat, self.game.to_act(state))

    def observation_at(self, state: Any, seat: int, who: int | None) -> Obs:
        """`observation(state, seat)` where `who` is `game.to_act(state)`, which the
        caller holds."""
        direct = self._direct
        if direct is not None:
            # within the bounds by the contract of `state_features` (tested): not clipped
            return direct.state_features(state, seat, who)
        x = np.array(self.observer.features(self.game.view(state, seat)), dtype=np.float32)
        np.maximum(x, LOW, out=x)
        np.minimum(x, HIGH, out=x)
        return x
