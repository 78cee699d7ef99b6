"""Which decisions matter: the heuristic in one seat, with one kind of decision made at
random.

For each kind of decision of SEAT (the game's phase names: `march`, `casualty`,
`battle cards`... in 300, `prep-buy`, `operations`... in Earth & Water), plays N games in
which SEAT's heuristic makes every decision except those of that kind, which it makes
uniformly at random, against the heuristic on every other seat; prints SEAT's win rate
for each kind with its 95% interval, next to the heuristic's own on the same games (the
games of `thermopylae simulate --seed S`). The bigger the drop, the more that kind of
decision decides games, and the more a better policy there can gain. The figures of
docs/ai.md came from

    .venv/bin/python bench/ablation.py hot-gates sparta --games 1000 --seed 7
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from typing import Any

from thermopylae.engine import registry
from thermopylae.sim.match import play, rngs
from thermopylae.sim.stats import wilson


def kind_of(game: Any, state: Any, seat: int) -> str:
    """The kind of decision: the game's phase name, or the phase its view shows."""
    name = getattr(game, "phase_name", None)
    if name is not None:
        return str(name(state))
    return str(game.view(state, seat).get("phase"))


class Ablated:
    """The heuristic, except that decisions of kind `kind` are uniformly random
    (`kind` None: the heuristic throughout); counts the kinds of decision it meets."""

    name = "ablated"

    def __init__(self, heuristic: Any, kind: str | None) -> None:
        self.heuristic = heuristic
        self.kind = kind
        self.seen: Counter[str] = Counter()

    def act(self, game: Any, state: Any, rng: random.Random) -> Any:
        legal = list(game.legal(state))
        if len(legal) == 1:
            return legal[0]
        kind = kind_of(game, state, game.to_act(state))
        self.seen[kind] += 1
        if kind == self.kind:
            return legal[int(rng.random() * len(legal))]
        return self.heuristic.act(game, state, rng)


def run(
    game: Any, options: dict[str, Any], seat: str, kind: str | None, games: int, seed: int
) -> tuple[int, Counter[str]]:
    """SEAT's wins over `games` games, and the kinds of decision it met."""
    seats = list(game.seats(options))
    me = Ablated(game.agents()["heuristic"](), kind)
    wins = 0
    for n in range(games):
        agents = [me if s == seat else game.agents()["heuristic"]() for s in seats]
        state, _ = play(game, options, agents, *rngs(seed, n))
        outcome = game.outcome(state)
        wins += outcome.results[seats.index(seat)] == "win"
    return wins, me.seen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", help="game id, e.g. hot-gates")
    ap.add_argument("seat", help="the ablated seat, e.g. sparta")
    ap.add_argument("--games", type=int, default=500, help="games per kind (default 500)")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1, help="the games of `simulate --seed`")
    ap.add_argument(
        "--kinds",
        nargs="*",
        default=None,
        help="only these kinds (default: every kind the seat meets)",
    )
    args = ap.parse_args()
    if args.games < 1:
        ap.error("--games must be at least 1")
    game = registry.get(args.game)
    if "heuristic" not in game.agents():
        ap.error(f"{args.game} has no heuristic")
    options = game.options({} if args.players is None else {"players": args.players})
    if args.seat not in game.seats(options):
        ap.error(f"seat {args.seat!r} is not one of {', '.join(game.seats(options))}")
    base, seen = run(game, options, args.seat, None, args.games, args.seed)
    kinds = args.kinds if args.kinds is not None else sorted(seen, key=lambda k: -seen[k])
    print(f"{args.game}, {args.seat}: heuristic throughout {_rate(base, args.games)}")
    print(f"{'random in':<24} {'decisions/game':>14}  win rate (95% CI)")
    for kind in kinds:
        wins, _ = run(game, options, args.seat, kind, args.games, args.seed)
        print(f"{kind:<24} {seen[kind] / args.games:>14.1f}  {_rate(wins, args.games)}", flush=True)


def _rate(wins: int, games: int) -> str:
    lo, hi = wilson(wins, games)
    return f"{wins}/{games} = {100 * wins / games:.1f}% ({100 * lo:.0f}-{100 * hi:.0f}%)"


if __name__ == "__main__":
    main()
