"""March lists and casualties in playouts run in several threads at once, on the tables
the threads share, are those of one thread: the kinds of piece met by `march._moves` and
the fused playout are marked per thread (`board.SEEN`), so one thread's marks never hide
a kind from another's list. (With the marks shared by the threads, this fails: lists
with a kind's moves missing or twice.)"""

from __future__ import annotations

import random
import sys
import threading

from thermopylae.games.hot_gates import game as hot_gates_game
from thermopylae.games.hot_gates.state import State

GAME = hot_gates_game()


def playouts(players: int, seeds: range) -> list[tuple[int, list[list[int]], list[int]]]:
    """Seeded random playouts (their March lists are the hot path): steps, board, winners."""
    options = GAME.options({"players": players})
    out = []
    for seed in seeds:
        s: State = GAME.new(options)
        steps = GAME.random_playout(s, random.Random(seed), random.Random(seed + 7))
        out.append((steps, s.board, s.winners))
    return out


def test_march_lists_in_threads_at_once_are_the_ones_of_one_thread() -> None:
    expected = {p: playouts(p, range(30)) for p in (2, 4)}
    got: dict[int, list[tuple[int, list[list[int]], list[int]]]] = {}
    failed: list[BaseException] = []

    def run(players: int) -> None:
        try:
            got[players] = playouts(players, range(30))
        except BaseException as e:  # (reported below, not lost in the thread)
            failed.append(e)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter will
    try:
        threads = [threading.Thread(target=run, args=(p,)) for p in (2, 4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(old)
    assert not failed
    assert got == expected
