"""Balance and tension of 300: The Board Game with the strongest agents on every seat.

For each player count: how often the Spartan side wins (95% Wilson interval) and whether
that interval lies inside the target band (45-55% by default), why games end, how many
rounds they last, which seats win (with 3 or 4 players the Spartans also compete for the
most Glory), and how tense they are: the share of games whose result is decided in
the last round of the Goat Path, and the share of "close" games (the Persians win while a
Spartan is within 20% of the Glory needed, or the Spartans win in the last round).

    .venv/bin/python bench/hot_gates_balance.py --games 4000 --players 2 3 4 --workers 1

The set measured is the default one, or `--components FILE`, with `--set KEY=VALUE`
changes on top, so that a candidate of the tuning is one command (docs/rules/hot-gates.md,
"Balance"):

    .venv/bin/python bench/hot_gates_balance.py --games 1000 --set goat_path.length=7 \\
        --set immortal.glory=3 --set s5.effect=attack --set s5.amount=1

`--agent` takes one spec for every seat, `SEAT=AGENT,...`, or `hard`: the server's hard
level for each seat (`games/hot_gates/levels.py`). The games of a run depend only on the
seed and the game's index (as in `simulate`), not on `--workers`.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from thermopylae.ai.base import make_agent, seat_agents
from thermopylae.engine import registry
from thermopylae.engine.components import read_data, read_set
from thermopylae.engine.errors import ComponentError, ThermopylaeError
from thermopylae.games.hot_gates.board import SEATS, side_of_seat
from thermopylae.games.hot_gates.rules import HotGates
from thermopylae.sim.match import play, rngs
from thermopylae.sim.stats import wilson

Row = tuple[bool, str, int, bool, bool, tuple[int, ...]]  # spartans won, reason, rounds, last
# round, close, the winning seats
Job = tuple[int, tuple[str, ...], str | None, int, int, int]
UNIT_FIELDS = ("attack", "defense", "wounded_attack", "wounded_defense", "glory")
CARD_FIELDS = ("letter", "window", "effect", "amount")


def _chunk(job: Job) -> list[Row]:
    players, specs, components, seed, start, stop = job
    game = registry.get("hot-gates", Path(components) if components else None)
    assert isinstance(game, HotGates)  # a study of this game's own components
    options = game.options({"players": players})
    agents = [make_agent(spec, game) for spec in specs]
    length = game.components.goat_path
    need = (
        game.components.rules.win_glory_2p if players == 2 else game.components.rules.win_glory_team
    )
    rows = []
    for i in range(start, stop):
        chance_rng, agent_rng = rngs(seed, i)
        state, _ = play(game, options, agents, chance_rng, agent_rng)
        spartans = side_of_seat(players, state.winners[0]) == 1
        last = state.round >= length
        close = last and (spartans or max(state.glory) >= 0.8 * need)
        rows.append((spartans, state.reason, state.round, last, close, tuple(state.winners)))
    return rows


def seat_specs(agent: str, players: int) -> tuple[str, ...]:
    """One agent spec per seat; `hard` (for every seat or for one) is the server's hard
    level for that seat and player count."""
    seats = SEATS[players]
    specs = seat_agents(agent, seats)
    if "hard" in specs:
        from thermopylae.games.hot_gates.levels import levels

        specs = [
            levels(players, seat)["hard"] if spec == "hard" else spec
            for seat, spec in zip(seats, specs, strict=True)
        ]
    return tuple(specs)


def _value(key: str, text: str) -> Any:
    if key == "dice.faces":
        try:
            return [int(f) for f in text.split(",")]
        except ValueError:
            raise ThermopylaeError(
                f"--set {key}: give the faces as whole numbers separated "
                f"by commas, e.g. 0,1,1,2,2,3 (got {text!r})"
            ) from None
    if key == "chart":
        try:
            return {
                "steps": [
                    {"from": int(a), "dice": int(b)}
                    for a, b in (step.split(":") for step in text.split(","))
                ]
            }
        except ValueError:
            raise ThermopylaeError(
                f"--set chart: give FROM:DICE steps separated by commas, "
                f"e.g. 1:1,4:2,7:3 (got {text!r})"
            ) from None
    try:
        return int(text)
    except ValueError:
        return text


def apply_changes(data: dict[str, Any], changes: list[str]) -> dict[str, Any]:
    """The component data with `KEY=VALUE` changes applied (a new dict). Keys:
    `goat_path.length`, `goat_path.boxes`, `dice.faces`, `chart`, `UNIT.FIELD` (a unit id
    and one of attack, defense, wounded_attack, wounded_defense, glory) and `sN.FIELD` /
    `pN.FIELD` (Spartan or Persian card N, as the rules page numbers them; letter, window,
    effect or amount). The rulebook's own values (`rules.*`) cannot be changed here."""
    out: dict[str, Any] = json.loads(json.dumps(data))
    units = {u.get("id"): u for u in out.get("unit", []) if isinstance(u, dict)}
    for change in changes:
        key, eq, text = change.partition("=")
        key = key.strip()
        if not eq or not key or not text.strip():
            raise ThermopylaeError(
                f"--set takes KEY=VALUE, e.g. goat_path.length=7 (got {change!r})"
            )
        value = _value(key, text.strip())
        head, _, field = key.partition(".")
        if key in ("goat_path.length", "goat_path.boxes", "dice.faces"):
            out.setdefault(head, {})[field] = value
        elif key == "chart":
            out["chart"] = {**out.get("chart", {}), **value}
        elif head == "rules":
            raise ThermopylaeError(
                f"--set {key}: the rules table holds the rulebook's own "
                f"values, which the tuning does not change (use "
                f"--components with a file of your own)"
            )
        elif head in units and field in UNIT_FIELDS:
            units[head][field] = value
        elif (
            head[:1] in ("s", "p")
            and head[1:].isdigit()
            and field in CARD_FIELDS
            and 1 <= int(head[1:]) <= len(out.get(_deck(head), []))
        ):
            out[_deck(head)][int(head[1:]) - 1][field] = value
        else:
            raise ThermopylaeError(
                f"--set {key}: not a value of the set; use goat_path.length, goat_path.boxes, "
                f"dice.faces, chart, UNIT.FIELD (units: {', '.join(map(str, units))}; fields: "
                f"{', '.join(UNIT_FIELDS)}) or s1-s26 / p1-p26 .FIELD (fields: "
                f"{', '.join(CARD_FIELDS)})"
            )
    return out


def _deck(head: str) -> str:
    return "spartan_card" if head[0] == "s" else "persian_card"


def run(
    players: int,
    games: int,
    agent: str,
    components: str | None,
    seed: int,
    workers: int,
    target: tuple[float, float] = (0.45, 0.55),
) -> dict[str, Any]:
    """Play `games` games of `players` players with the set in `components` (None: the
    default set); one worker plays in this process."""
    specs = seat_specs(agent, players)
    game = registry.get("hot-gates", Path(components) if components else None)
    size = max(1, games // (workers * 8))
    jobs = [
        (players, specs, components, seed, a, min(games, a + size)) for a in range(0, games, size)
    ]
    started = time.perf_counter()
    rows: list[Row] = []
    if workers == 1:
        for job in jobs:
            rows += _chunk(job)
    else:
        with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
            for part in pool.map(_chunk, jobs):
                rows += part
    wins = sum(r[0] for r in rows)
    lo, hi = wilson(wins, games)
    verdict = (
        "inside"
        if target[0] <= lo and hi <= target[1]
        else "outside"
        if hi < target[0] or lo > target[1]
        else "undecided"
    )
    return {
        "players": players,
        "games": games,
        "agent": agent,
        "agents": dict(zip(SEATS[players], specs, strict=True)),
        "seed": seed,
        "components": game.components_digest,
        "provisional": game.provisional,
        "spartan_wins": wins,
        "spartan_win_rate": wins / games,
        "ci95": [lo, hi],
        "target": list(target),
        "balanced": verdict,
        "mean_rounds": sum(r[2] for r in rows) / games,
        "decided_in_last_round": sum(r[3] for r in rows) / games,
        "close": sum(r[4] for r in rows) / games,
        "reasons": dict(Counter(r[1] for r in rows).most_common()),
        "wins_by_seat": {
            seat: sum(i in r[5] for r in rows) for i, seat in enumerate(SEATS[players])
        },
        "seconds": round(time.perf_counter() - started, 1),
    }


def component_file(components: str | None, changes: list[str], folder: Path) -> str | None:
    """The path of the set to measure: the given file (or the default), with the changes
    written to a JSON file in `folder`; checked here so that a bad set stops the run."""
    if changes:
        data = (
            read_data(Path(components))
            if components
            else read_set("thermopylae.games.hot_gates", None)[0]
        )
        path = folder / "components.json"
        path.write_text(json.dumps(apply_changes(data, changes)), encoding="utf-8")
        try:
            registry.get("hot-gates", path)
        except ComponentError as exc:
            raise ComponentError(
                f"{components or 'the default set'} with the --set changes", exc.problems
            ) from None
        return str(path)
    registry.get("hot-gates", Path(components) if components else None)
    return components


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    ap.add_argument(
        "--agent",
        default="heuristic",
        help="one agent spec for every seat, SEAT=AGENT,..., or hard",
    )
    ap.add_argument("--components", default=None, help="a component file to measure")
    ap.add_argument(
        "--set",
        dest="changes",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="change one value of the set (repeatable), e.g. goat_path.length=7, "
        "immortal.glory=3, s5.amount=1",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--target",
        type=float,
        nargs=2,
        default=[45.0, 55.0],
        metavar=("LO", "HI"),
        help="the Spartan win rates, in percent, that count as balanced",
    )
    ap.add_argument("--json", action="store_true", help="one JSON object per player count")
    o = ap.parse_args(argv)
    if o.games < 1 or o.workers < 1:
        ap.error("--games and --workers must be at least 1")
    if not 0 <= o.target[0] < o.target[1] <= 100:
        ap.error(f"--target takes LO HI with 0 <= LO < HI <= 100 (got {o.target})")
    with tempfile.TemporaryDirectory(prefix="hot-gates-balance-") as folder:
        try:
            components = component_file(o.components, o.changes, Path(folder))
            for players in o.players:
                game = registry.get("hot-gates", Path(components) if components else None)
                for spec in seat_specs(o.agent, players):
                    make_agent(spec, game)
        except ThermopylaeError as exc:
            ap.error(str(exc))
        for players in o.players:
            r = run(
                players,
                o.games,
                o.agent,
                components,
                o.seed,
                o.workers,
                (o.target[0] / 100, o.target[1] / 100),
            )
            if o.json:
                print(json.dumps(r), flush=True)
                continue
            agents = ", ".join(f"{s}={a}" for s, a in r["agents"].items())
            print(
                f"{players} players, {r['games']} games, set {r['components']} "
                f"({'provisional' if r['provisional'] else 'printed'}), {agents}: Spartans "
                f"win {r['spartan_win_rate']:.1%} (95% CI {r['ci95'][0]:.1%}-"
                f"{r['ci95'][1]:.1%}; {r['balanced']} {o.target[0]:g}-{o.target[1]:g}%); "
                f"{r['mean_rounds']:.2f} rounds on average; decided in the last round "
                f"{r['decided_in_last_round']:.1%}, close {r['close']:.1%}; "
                f"{r['seconds']} s",
                flush=True,
            )
            for reason, n in r["reasons"].items():
                print(f"    {n:>5}  {reason}")
            print(
                "    wins by seat (ties count for each): "
                + ", ".join(f"{seat} {n}" for seat, n in r["wins_by_seat"].items())
            )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
