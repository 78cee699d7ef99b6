"""ISMCTS iterations per CPU second at the start, middle and end of a seeded random game:
the figure a before/after comparison runs in turn on two trees (issue 21, item 2; any tree
since f930f15 has `sim.bench.ismcts_rate`).

    PYTHONPATH=OLD/src python bench/ismcts_rate.py thermopyles 4 3   # GAME PLAYERS SECONDS
"""

from __future__ import annotations

import sys

from thermopylae.engine import registry
from thermopylae.sim.bench import ismcts_rate


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit("usage: ismcts_rate.py GAME PLAYERS SECONDS")
    game = registry.get(sys.argv[1])
    options = {"players": int(sys.argv[2])}
    print(ismcts_rate(game, options, seconds=float(sys.argv[3]), positions=3))


if __name__ == "__main__":
    main()
