"""Balance and tension of 300: The Board Game with the strongest agents on every seat.

For each player count: how often the Spartan side wins (95% Wilson interval), why games
end, how many rounds they last, and how tense they are: the share of games whose result
is decided in the last round of the Goat Path, and the share of "close" games (the
Persians win while a Spartan is within 20% of the Glory needed, or the Spartans win in
the last round).

    .venv/bin/python bench/hot_gates_balance.py --games 2000 --players 2 3 4 --workers 2

The games of a run depend only on the seed and the game's index (as in `simulate`).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from thermopylae.ai.base import make_agent
from thermopylae.engine import registry
from thermopylae.games.hot_gates.board import side_of_seat
from thermopylae.sim.match import play, rngs
from thermopylae.sim.stats import wilson

Row = tuple[bool, str, int, bool, bool]  # spartans won, reason, rounds, last round, close


def _chunk(job: tuple[int, str, str | None, int, int, int]) -> list[Row]:
    players, agent, components, seed, start, stop = job
    game = registry.get("hot-gates", Path(components) if components else None)
    options = game.options({"players": players})
    agents = [make_agent(agent, game) for _ in range(players)]
    length = game.components.goat_path
    need = (game.components.rules.win_glory_2p if players == 2
            else game.components.rules.win_glory_team)
    rows = []
    for i in range(start, stop):
        chance_rng, agent_rng = rngs(seed, i)
        state, _ = play(game, options, agents, chance_rng, agent_rng)
        spartans = side_of_seat(players, state.winners[0]) == 1
        last = state.round >= length
        close = last and (spartans or max(state.glory) >= 0.8 * need)
        rows.append((spartans, state.reason, state.round, last, close))
    return rows


def run(players: int, games: int, agent: str, components: str | None, seed: int,
        workers: int) -> dict[str, Any]:
    size = max(1, games // (workers * 8))
    jobs = [(players, agent, components, seed, a, min(games, a + size))
            for a in range(0, games, size)]
    started = time.perf_counter()
    rows: list[Row] = []
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        for part in pool.map(_chunk, jobs):
            rows += part
    wins = sum(r[0] for r in rows)
    lo, hi = wilson(wins, games)
    return {
        "players": players, "games": games, "agent": agent, "seed": seed,
        "spartan_wins": wins, "spartan_win_rate": wins / games, "ci95": [lo, hi],
        "mean_rounds": sum(r[2] for r in rows) / games,
        "decided_in_last_round": sum(r[3] for r in rows) / games,
        "close": sum(r[4] for r in rows) / games,
        "reasons": dict(Counter(r[1] for r in rows).most_common()),
        "seconds": round(time.perf_counter() - started, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--agent", default="heuristic")
    ap.add_argument("--components", default=None, help="a component file to measure")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", action="store_true", help="one JSON object per player count")
    o = ap.parse_args()
    for players in o.players:
        r = run(players, o.games, o.agent, o.components, o.seed, o.workers)
        if o.json:
            print(json.dumps(r))
            continue
        print(f"{players} players, {r['games']} games, {r['agent']} on every seat: Spartans "
              f"win {r['spartan_win_rate']:.1%} (95% CI {r['ci95'][0]:.1%}-{r['ci95'][1]:.1%}); "
              f"{r['mean_rounds']:.2f} rounds on average; decided in the last round "
              f"{r['decided_in_last_round']:.1%}, close {r['close']:.1%}; {r['seconds']} s")
        for reason, n in r["reasons"].items():
            print(f"    {n:>5}  {reason}")


if __name__ == "__main__":
    main()
