"""A tournament's report: one self-contained HTML page (`index.html`) and its PNG plots.

The plots are drawn with matplotlib's object-oriented API on its Agg canvas (no display,
no global pyplot state). matplotlib is an optional extra: `pip install 'thermopylae[report]'`.
"""

from __future__ import annotations

import datetime as dt
import html
import importlib.util
import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from thermopylae.engine.errors import ThermopylaeError
from thermopylae.sim.stats import wilson
from thermopylae.sim.tournament import RATING_MODEL, Tally, Tournament

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

PLOTS = ("winrate.png", "ratings.png", "lengths.png", "scores.png", "progress.png")
MAX_SERIES = 8  # more pairings than this: one histogram of all games


def check_available() -> None:
    """Raise a clear error when matplotlib is missing (before any game is played)."""
    if importlib.util.find_spec("matplotlib") is None:
        raise ThermopylaeError(
            "--report draws its plots with matplotlib, which is not "
            "installed: pip install 'thermopylae[report]'"
        )


def write(t: Tournament, directory: Path, command: str, when: dt.datetime | None = None) -> Path:
    """Write `directory/index.html` and its plots; returns the page's path."""
    check_available()
    directory.mkdir(parents=True, exist_ok=True)
    when = when or dt.datetime.now(dt.UTC)
    for name, draw in zip(PLOTS, (_winrate, _ratings, _lengths, _scores, _progress), strict=True):
        fig = _figure()
        draw(fig, t)
        fig.savefig(directory / name, dpi=100, bbox_inches="tight")
    page = directory / "index.html"
    page.write_text(_html(t, command, when), encoding="utf-8")
    return page


# -- plots ------------------------------------------------------------------------------------


def _figure() -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(8, 4.5), layout="constrained")


def _pct_errors(tallies: Sequence[Tally]) -> tuple[list[float], list[list[float]]]:
    rates = [100 * x.win_rate for x in tallies]
    cis = [x.ci95 for x in tallies]
    return rates, [
        [r - 100 * lo for r, (lo, _) in zip(rates, cis, strict=True)],
        [100 * hi - r for r, (_, hi) in zip(rates, cis, strict=True)],
    ]


def _winrate(fig: Figure, t: Tournament) -> None:
    ax = fig.subplots()
    results = t.agent_results()
    groups: list[tuple[str, list[Tally]]] = [
        ("all seats" if not t.cooperative else "win rate", [a.overall for a in results])
    ]
    if not t.cooperative:
        groups += [(seat, [a.seats[seat] for a in results]) for seat in t.seats]
    width = 0.8 / len(groups)
    for g, (label, tallies) in enumerate(groups):
        rates, errors = _pct_errors(tallies)
        xs = [i + (g - (len(groups) - 1) / 2) * width for i in range(len(results))]
        ax.bar(xs, rates, width, yerr=errors, capsize=3, label=label)
    ax.set_xticks(range(len(results)), [a.agent for a in results])
    ax.set_ylabel("win rate (%), 95% Wilson CI")
    ax.set_ylim(-2, 102)
    ax.set_title("Win rate per agent" + ("" if t.cooperative else " and seat"))
    if len(groups) > 1:
        ax.legend(fontsize="small")


def _ratings(fig: Figure, t: Tournament) -> None:
    ax = fig.subplots()
    order = sorted(t.ratings, key=lambda r: r.rating)
    ys = range(len(order))
    ax.errorbar(
        [r.rating for r in order],
        ys,
        xerr=[[r.rating - r.low for r in order], [r.high - r.rating for r in order]],
        fmt="o",
        capsize=4,
    )
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_yticks(ys, [r.agent for r in order])
    ax.set_ylim(-0.6, len(order) - 0.4)
    ax.set_xlabel("Bradley–Terry rating (Elo scale, mean 0), 95% CI")
    ax.set_title("Ratings")


def _series(t: Tournament) -> list[tuple[str, list[int]]]:
    """Game indices into t.rows by label: per agent (co-operative), per pairing (few), or
    all games together."""
    if t.cooperative or len(t.pairings) <= MAX_SERIES:
        return [(_pairing_label(t, p.agents), [p.number]) for p in t.pairings]
    return [("all games", [p.number for p in t.pairings])]


def _pairing_label(t: Tournament, agents: Sequence[str]) -> str:
    return agents[0] if t.cooperative else " v ".join(agents)


def _lengths(fig: Figure, t: Tournament) -> None:
    axes: Sequence[Axes] = fig.subplots(1, 2)
    for ax, what, key in ((axes[0], "turns", "turns"), (axes[1], "steps", "steps")):
        values_all = [getattr(r, key) for rows in t.rows for r in rows]
        lo, hi = min(values_all, default=0), max(values_all, default=1)
        bins = _bins(lo, hi)
        for label, numbers in _series(t):
            values = [getattr(r, key) for n in numbers for r in t.rows[n]]
            ax.hist(values, bins=bins, histtype="step", linewidth=1.5, label=label)
        ax.set_xlabel(f"game length ({what})")
        ax.set_ylabel("games")
    axes[0].legend(fontsize="x-small")
    fig.suptitle("Game length")


def _bins(lo: int, hi: int) -> list[float]:
    """Edges of at most about 40 bins, each a whole number of turns or steps wide."""
    width = max(1, math.ceil((hi - lo + 1) / 40))
    return [lo - 0.5 + width * i for i in range((hi - lo) // width + 2)]


def _scores(fig: Figure, t: Tournament) -> None:
    ax = fig.subplots()
    by_agent: dict[str, list[float]] = {a: [] for a in t.agents}
    for p, rows in zip(t.pairings, t.rows, strict=True):
        for r in rows:
            seats = range(1) if t.cooperative else range(len(t.seats))
            for s in seats:
                by_agent[p.agents[s]].append(r.scores[s])
    distinct = sorted({v for vs in by_agent.values() for v in vs})
    if len(distinct) <= 12:
        width = 0.8 / len(t.agents)
        for k, (agent, vs) in enumerate(by_agent.items()):
            counts = Counter(vs)
            xs = [i + (k - (len(t.agents) - 1) / 2) * width for i in range(len(distinct))]
            ax.bar(xs, [100 * counts[v] / (len(vs) or 1) for v in distinct], width, label=agent)
        ax.set_xticks(range(len(distinct)), [f"{v:g}" for v in distinct])
        ax.set_ylabel(f"share of the agent's {'games' if t.cooperative else 'seats'} (%)")
    else:
        for agent, vs in by_agent.items():
            ax.hist(vs, bins=30, histtype="step", linewidth=1.5, label=agent)
        ax.set_ylabel("seats")
    ax.set_xlabel("score (the game's own: 1 win, 0 loss, 0.5 draw where it has no other)")
    ax.set_title("Score distribution per agent" + ("" if t.cooperative else " (every seat)"))
    ax.legend(fontsize="small")


def _progress(fig: Figure, t: Tournament) -> None:
    ax = fig.subplots()
    for agent, (xs, rates, lows, highs) in progress_curves(t).items():
        line = ax.plot(xs, rates, label=agent)[0]
        ax.fill_between(xs, lows, highs, color=line.get_color(), alpha=0.15)
    ax.set_xlabel("games played per pairing")
    ax.set_ylabel("cumulative win rate (%), 95% CI")
    ax.set_ylim(-2, 102)
    ax.set_title("Win rate over the course of the run")
    ax.legend(fontsize="small")


def progress_curves(
    t: Tournament,
) -> dict[str, tuple[list[int], list[float], list[float], list[float]]]:
    """Per agent: after games 0..i of every pairing, its win rate and Wilson interval (%)."""
    curves = {}
    for agent in t.agents:
        wins = games = 0
        xs: list[int] = []
        rates: list[float] = []
        lows: list[float] = []
        highs: list[float] = []
        for i in range(t.games):
            for p, rows in zip(t.pairings, t.rows, strict=True):
                seats = [0] if t.cooperative else range(len(t.seats))
                for s in seats:
                    if p.agents[s] == agent:
                        games += 1
                        wins += rows[i].results[s] == "win"
            if games:
                lo, hi = wilson(wins, games)
                xs.append(i + 1)
                rates.append(100 * wins / games)
                lows.append(100 * lo)
                highs.append(100 * hi)
        curves[agent] = (xs, rates, lows, highs)
    return curves


# -- the page ---------------------------------------------------------------------------------


def _pct(x: Tally) -> str:
    lo, hi = x.ci95
    return f"{x.win_rate:.1%} <small>({lo:.1%}–{hi:.1%})</small>"


def _align(cell: Any) -> str:
    """Numbers (and signed ratings) to the right, words to the left."""
    text = str(cell).lstrip("+-")
    return ' class="n"' if text[:1].isdigit() else ""


def _table(head: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Cells are HTML already (escape text before)."""
    th = "".join(f"<th>{h}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f"<td{_align(c)}>{c}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _html(t: Tournament, command: str, when: dt.datetime) -> str:
    e = html.escape
    seat_cols = [] if t.cooperative else [f"{e(s)} win rate (95% CI)" for s in t.seats]
    results = _table(
        ["agent", "games", "wins", "draws", "win rate (95% CI)", *seat_cols],
        [
            [
                e(a.agent),
                a.overall.games,
                a.overall.wins,
                a.overall.draws,
                _pct(a.overall),
                *[f"{_pct(a.seats[s])} <small>of {a.seats[s].games}</small>" for s in a.seats],
            ]
            for a in t.agent_results()
        ],
    )
    ratings = _table(
        ["agent", "rating", "95% CI", "comparisons", "mean score"],
        [
            [
                e(r.agent),
                f"{r.rating:+.0f}",
                f"{r.low:+.0f} to {r.high:+.0f}",
                r.comparisons,
                f"{r.score:.3f}",
            ]
            for r in sorted(t.ratings, key=lambda r: -r.rating)
        ],
    )
    pairings = _table(
        [
            "#",
            *(["agent"] if t.cooperative else [e(s) for s in t.seats]),
            "games",
            *(["wins"] if t.cooperative else [f"{e(s)} wins" for s in t.seats]),
            "draws",
            "mean turns",
            "seed",
        ],
        [
            [
                n,
                *(
                    [e(p["agents"][t.seats[0]])]
                    if t.cooperative
                    else [e(p["agents"][s]) for s in t.seats]
                ),
                p["games"],
                *([p["wins"][t.seats[0]]] if t.cooperative else [p["wins"][s] for s in t.seats]),
                p["draws"],
                f"{p['mean_turns']:.1f}",
                p["seed"],
            ]
            for n, p in enumerate(t.pairing_results())
        ],
    )
    reasons = _table(
        ["games", "how they ended"], [[n, e(reason)] for reason, n in t.reasons().items()]
    )
    design = (
        "a co-operative game: every agent played every seat of the same deals "
        "(the same seed), alone"
        if t.cooperative
        else "every assignment of the agents to the seats, self-play left out"
    )
    compared = (
        "Agents are compared deal by deal: on the same deal, a win against a loss "
        "scores 1, the same result 0.5."
        if t.cooperative
        else "Every two seats of a game held by different agents are compared: the better "
        "result scores 1, the same result (or a draw) 0.5."
    )
    figures = "".join(f'<figure><img src="{name}" alt="{name[:-4]}"></figure>' for name in PLOTS)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Tournament: {e(t.title)}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em;
       padding: 0 1em; color: #222; }}
table {{ border-collapse: collapse; margin: 0.5em 0 1.5em; }}
th, td {{ border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }}
th {{ background: #f3f3f3; }}
td.n {{ text-align: right; }}
code, pre {{ background: #f6f6f6; padding: 0.2em 0.4em; }}
pre {{ white-space: pre-wrap; }}
img {{ max-width: 100%; }}
figure {{ margin: 1em 0; }}
</style>
</head>
<body>
<h1>Tournament: {e(t.title)}</h1>
<pre>{e(command)}</pre>
<p>Made {e(when.strftime("%Y-%m-%d %H:%M UTC"))}. Game <code>{e(t.game)}</code>, options
<code>{e(str(t.options))}</code>, components <code>{e(t.components)}</code>; seed {t.seed};
{len(t.pairings)} pairings ({design}), {t.games} games each, {t.total_games} games in all;
mean {t.mean_turns():.1f} turns; {t.seconds:.1f} s on {t.workers} worker(s), backend
{e(t.backend)}.</p>
<h2>Win rates</h2>
<p>Wins over games ({"each agent's games" if t.cooperative else "seats held"}), with 95%
Wilson intervals; draws are counted apart.</p>
{results}
<h2>Ratings</h2>
<p>{e(RATING_MODEL)}. 200 points of difference mean an expected score of 76%.
{compared}</p>
{ratings}
<h2>Pairings</h2>
{pairings}
<h2>How the games ended</h2>
{reasons}
<h2>Plots</h2>
{figures}
</body>
</html>
"""
