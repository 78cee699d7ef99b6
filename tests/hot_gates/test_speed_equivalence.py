"""The fast paths of the 300 rules agree with the plain ones they replaced.

`march.march_legal` is the hot path of a random playout; it is checked here against
the straightforward version (every space's room counted, the seat's rows and side looked
up each time) at every March decision of random games of 2, 3 and 4 players, with and
without the extra marches of a "march" card; so is the geometry (owners, rooms, enemy
fronts) that a march updates instead of counting it again.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import pytest

from thermopylae.engine.protocol import CHANCE
from thermopylae.games.hot_gates import cards, march
from thermopylae.games.hot_gates import game as hot_gates_game
from thermopylae.games.hot_gates.actions import DONE, Action
from thermopylae.games.hot_gates.board import PERSIAN, SPARTAN_SIDE, rows_of, side_of_seat
from thermopylae.games.hot_gates.rules import HotGates
from thermopylae.games.hot_gates.state import AGAIN, MARCH, MOVED, PIECE, SPACES, WINDOW, State

GAME = hot_gates_game()


def _decisions(
    options: dict[str, object], seeds: range
) -> Iterator[tuple[State, Sequence[Action], Action]]:
    """Each decision of seeded random games (chance and moves drawn from one source per
    seed), with its legal list and the move about to be played: the caller looks at the
    position (without drawing from the source) before the move is played."""
    for seed in seeds:
        rng = random.Random(seed)
        s = GAME.new(options)
        while (who := GAME.to_act(s)) is not None:
            if who == CHANCE:
                GAME.apply(s, GAME.sample_chance(s, rng), quiet=True)
                continue
            legal = GAME.legal(s)
            action = legal[int(rng.random() * len(legal))]
            yield s, legal, action
            GAME.apply(s, action, quiet=True)


def plain_march_legal(g: HotGates, s: State) -> list[Action]:
    """The March Phase's legal actions, written plainly (the version before the fast one)."""
    t = g.t
    seat = s.actor
    side = side_of_seat(s.players, seat)
    enemy = 1 - side
    extra = s.extra[seat] > 0
    move = g.notation.move
    owner = [t.side[b[0] & PIECE] if b else -1 for b in s.board]
    room = [t.capacity[i] - t.load(b) for i, b in enumerate(s.board)]
    fronts = []
    for row in (0, 1):
        mine = [n for n in range(SPACES) if owner[row * SPACES + n] == enemy]
        fronts.append(
            (min(mine) if mine else SPACES)
            if enemy == SPARTAN_SIDE
            else (max(mine) if mine else -1)
        )
    acts: dict[Action, None] = {}
    forced = False
    rows = rows_of(s.players, seat)
    for row in rows:
        other = 1 - row
        for n in range(SPACES):
            sp = row * SPACES + n
            pieces = s.board[sp]
            if not pieces or owner[sp] != side:
                continue
            if side == PERSIAN:
                fwd = sp + 1 if n < SPACES - 1 else -1
                may_switch = fronts[other] > n
            else:
                fwd = sp - 1 if n > 0 else -1
                may_switch = fronts[other] < n
            sw = other * SPACES + n
            fwd_room = room[fwd] if fwd >= 0 and owner[fwd] != enemy else -1
            sw_room = room[sw] if may_switch and owner[sw] != enemy else -1
            if fwd_room <= 0 and sw_room <= 0:
                continue
            for p in dict.fromkeys(pieces):
                moved = p & MOVED
                if moved and (not extra or p & AGAIN):
                    continue
                code = p & PIECE
                need = t.size[code]
                if fwd_room >= need:
                    acts[move[sp, fwd, code]] = None
                    if side == PERSIAN and not moved:
                        forced = True
                if sw_room >= need:
                    acts[move[sp, sw, code]] = None
    enter = g.notation.enter
    for row in rows:
        if side == PERSIAN:
            sp = row * SPACES
            if owner[sp] == SPARTAN_SIDE:
                continue
            box = s.boxes[0] if s.boxes else []
            for code in dict.fromkeys(box):
                if room[sp] >= t.size[code]:
                    acts[enter[sp, code]] = None
                    forced = True
            for lt in dict.fromkeys(s.leaders):
                if room[sp] >= t.size[lt * 2]:
                    acts[enter[sp, lt * 2]] = None
        else:
            sp = row * SPACES + SPACES - 1
            if owner[sp] == PERSIAN:
                continue
            for code in dict.fromkeys(s.camp):
                if room[sp] >= t.size[code]:
                    acts[enter[sp, code]] = None
    out = list(acts)
    if not forced:
        out.append(DONE)
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_march_legal_agrees_with_the_plain_version(players: int) -> None:
    options = GAME.options({"players": players})
    checked = extra = 0
    for s, legal, _action in _decisions(options, range(12)):
        if s.phase == MARCH:
            assert list(legal) == plain_march_legal(GAME, s)
            assert march.march_legal(s, GAME.t) == plain_march_legal(GAME, s)
            # the geometry kept for the next march, updated move by move, is the one
            # counted afresh
            assert s.cache is not None and s.cache[0] == s.steps
            assert s.cache[2] == march.march_list(s, GAME.t, None)[1]
            checked += 1
            extra += s.extra[s.actor] > 0
    assert checked > 500
    assert extra > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_could_march_agrees_with_the_march_lists(players: int) -> None:
    """`could_march` answers without building the lists: the same answer as theirs (a
    move or an entry besides `done`), for every seat and side at positions of every phase."""
    options = GAME.options({"players": players})
    t = GAME.t
    every = [tuple(range(players)), *((seat,) for seat in range(players))]
    checked = yes = 0
    for seed in range(8):
        rng = random.Random(seed)
        s = GAME.new(options)
        while (who := GAME.to_act(s)) is not None:
            for seats in every:
                lists = [march.march_list(s, t, None, seat)[0] for seat in seats]
                expected = any(a is not DONE for acts in lists for a in acts)
                assert march.could_march(s, t, seats) == expected
                checked += 1
                yes += expected
            if who == CHANCE:
                GAME.apply(s, GAME.sample_chance(s, rng), quiet=True)
            else:
                legal = GAME.legal(s)
                GAME.apply(s, legal[int(rng.random() * len(legal))], quiet=True)
    assert checked > 1000
    assert 0 < yes < checked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_is_built_once_a_step_and_is_the_fresh_list(players: int) -> None:
    """`legal` keeps each decision's list for its step (an agent asks, then `apply`
    checks against the same list): asked twice, the same list; the list kept is the one
    built afresh from the position; and a step brings a new one."""
    options = GAME.options({"players": players})
    decisions = 0
    for seed in range(6):
        rng = random.Random(seed)
        s = GAME.new(options)
        while (who := GAME.to_act(s)) is not None:
            if who == CHANCE:
                assert list(GAME.legal(s)) == []
                GAME.apply(s, GAME.sample_chance(s, rng), quiet=True)
                continue
            legal = GAME.legal(s)
            assert GAME.legal(s) is legal
            fresh = GAME.copy(s)  # a copy keeps no list
            assert list(GAME.legal(fresh)) == list(legal)
            GAME.apply(s, legal[int(rng.random() * len(legal))], quiet=True)
            if GAME.to_act(s) not in (None, CHANCE):
                assert GAME.legal(s) is not legal
            decisions += 1
    assert decisions > 500


@pytest.mark.parametrize("players", [2, 4])
def test_advance_chance_is_the_protocol_loop(players: int) -> None:
    """The game's own `advance_chance` (playout.py) plays the chance steps as the
    protocol's loop does (same draws, same state, same count of steps), and a March list
    it leaves kept is the one for the step it stops at."""
    options = GAME.options({"players": players})
    checked = kept = 0
    for seed in range(10):
        rng, fused_rng = random.Random(seed), random.Random(seed)  # chance
        agent_rng = random.Random(seed + 1000)
        s = GAME.new(options)
        fused = GAME.copy(s)
        while (who := GAME.to_act(s)) is not None:
            if who == CHANCE:
                while GAME.to_act(s) == CHANCE:
                    GAME.apply(s, GAME.sample_chance(s, rng), quiet=True)
                assert GAME.advance_chance(fused, fused_rng) == GAME.to_act(s)
                assert GAME.state_to_json(fused) == GAME.state_to_json(s)
                assert fused.steps == s.steps
                if fused.cache is not None and fused.cache[0] == fused.steps:
                    assert list(fused.cache[1]) == list(GAME.legal(GAME.copy(s)))
                    kept += 1
                checked += 1
                continue
            legal = GAME.legal(s)
            action = legal[int(agent_rng.random() * len(legal))]
            GAME.apply(s, action, quiet=True)
            GAME.apply(fused, action, quiet=True)
    assert checked > 100
    assert kept > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_window_choices_of_the_playout_are_legal_and_sensible(players: int) -> None:
    """The fused playout's card list (`cards.legal` with `sensible`, one pass over the hand) is
    `sensible` of `legal`, action for action, at every card window of random games."""
    options = GAME.options({"players": players})
    checked = 0
    for s, _legal, _action in _decisions(options, range(10)):
        if s.phase == WINDOW:
            assert cards.legal(s, GAME.t, True) == list(GAME.sensible(s))
            checked += 1
    assert checked > 200


@pytest.mark.parametrize("players", [2, 4])
def test_a_march_without_a_kept_geometry_lists_the_same(players: int) -> None:
    """`march.march_on` given no geometry (none kept) counts the next list afresh: the
    same list as the march with the kept geometry, and the same position after."""
    options = GAME.options({"players": players})
    checked = ended = 0
    for s, _legal, action in _decisions(options, range(6)):
        if s.phase == MARCH:
            bare, with_geometry = s.copy(), s.copy()
            geometry = march.march_list(s, GAME.t, None)[1]
            kept = march.march_on(with_geometry, GAME.t, action, None, geometry)
            fresh = march.march_on(bare, GAME.t, action, None, None)
            assert fresh == kept
            assert bare.board == with_geometry.board and bare.phase == with_geometry.phase
            checked += 1
            ended += fresh is None
    assert checked > 300
    assert 0 < ended < checked
