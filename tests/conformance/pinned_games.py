"""Games pinned by their record digests, to show that a change of code changed no game.

The digests in `pinned_games.json` were taken from the engines before the contract and
style rework (issue 17), whose rule was "behaviour unchanged". A change that means to
change play (a rules fix, a new heuristic) writes them anew, and says so in its commit:

    python -m tests.conformance.pinned_games --write
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.conformance.sampled import options_for
from thermopylae.ai.base import make_agent
from thermopylae.engine import registry
from thermopylae.sim.match import play_indexed

PINNED = Path(__file__).with_name("pinned_games.json")
SEED = 7
# Each agent spec with how many games of it are pinned (the searches are kept small).
SPECS = {
    "random": 3,
    "heuristic": 2,
    "ismcts:iterations=12,depth=10": 1,
    "rollout:samples=1,depth=4": 1,
}


def keys() -> list[tuple[str, int, str]]:
    """(game id, players, agent spec) of every pinned run, for the games pinned."""
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    return [(gid, int(n), spec) for gid, n, spec in (k.split("/", 2) for k in pinned)]


def digests(game_id: str, players: int, spec: str) -> list[str]:
    """The record digests of the run: `SPECS[spec]` games of `spec` on every seat."""
    game = registry.get(game_id)
    options = options_for(game, players)
    agents = [make_agent(spec, game) for _ in range(players)]
    return [
        str(play_indexed(game, options, agents, SEED, i, record=True).digest)
        for i in range(SPECS[spec])
    ]


def main() -> None:
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.conformance.pinned_games --write")
    out: dict[str, list[str]] = {}
    for gid in registry.game_ids():
        game = registry.get(gid)
        for n in range(game.min_players, game.max_players + 1):
            for spec in SPECS:
                out[f"{gid}/{n}/{spec}"] = digests(gid, n, spec)
    PINNED.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
