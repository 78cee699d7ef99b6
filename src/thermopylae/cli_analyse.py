"""`thermopylae analyse`: a finished game's win chances and marked decisions for one seat
(`ai.analysis`), as JSON and as an HTML report with the win-chance graph."""

from __future__ import annotations

import importlib.util
import json
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, Any

import typer

from thermopylae.ai import analysis
from thermopylae.ai.winchance import MAX_BUDGET
from thermopylae.cli_common import ComponentsOpt, fail, load_game, out, set_language, with_progress
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.record import Record
from thermopylae.i18n import N_, _, ngettext

GRAPH = "winchance.png"
MAX_WORKERS = 64
MARK_WORDS = {"blunder": N_("blunder"), "mistake": N_("mistake"), "inaccuracy": N_("inaccuracy")}
"""The marks of `ai.analysis.MARKS` (English in the JSON, as data) as the summary says them."""


def analyse(
    record: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    seat: Annotated[str, typer.Option(help="The seat whose decisions are analysed.")],
    budget: Annotated[int, typer.Option(help=f"Playouts per estimate (1 to {MAX_BUDGET}).")] = 200,
    agent: Annotated[
        str | None, typer.Option(help="Playout policy (default: the game's heuristic).")
    ] = None,
    json_out: Annotated[
        str | None,
        typer.Option("--json", help="Write the analysis as JSON to FILE, or - for stdout."),
    ] = None,
    report_dir: Annotated[
        Path | None, typer.Option("--report", help="Write an HTML report with the graph to DIR.")
    ] = None,
    workers: Annotated[
        int, typer.Option(help="Worker processes (1: none) of the process backend.")
    ] = 1,
    backend: Annotated[
        str,
        typer.Option(
            help="Where the estimates run: process (this process, or --workers processes) "
            "or ray (Ray tasks, on a local Ray or the cluster at --address). The same "
            "seed gives the same analysis on either."
        ),
    ] = "process",
    address: Annotated[
        str | None,
        typer.Option(
            help="Address of the Ray cluster (--backend ray; default: start a local one)."
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the playouts.")] = 1,
    components: ComponentsOpt = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
) -> None:
    """Estimate the seat's win chance along a finished game and mark its mistakes."""
    from thermopylae.sim.backends import process_pool

    set_language(None)
    if not 1 <= budget <= MAX_BUDGET:
        raise fail(
            _("--budget {budget}: give 1 to {most} playouts per estimate").format(
                budget=budget, most=MAX_BUDGET
            )
        )
    if not 1 <= workers <= MAX_WORKERS:
        raise fail(
            _("--workers {workers}: give 1 to {most} worker processes").format(
                workers=workers, most=MAX_WORKERS
            )
        )
    _check_backend(backend, address)
    if report_dir is not None:
        from thermopylae.sim import report as sim_report  # numpy: only for a report

        try:
            sim_report.check_available()
        except ThermopylaeError as exc:
            raise fail(str(exc)) from exc
        if importlib.util.find_spec("jinja2") is None:
            raise fail(
                _(
                    "--report writes its page from a jinja2 template, which is not "
                    "installed: {hint}"
                ).format(hint="pip install 'thermopylae[report]'")
            )
    try:
        rec = Record.load(record)
    except ThermopylaeError as exc:
        raise fail(str(exc)) from exc
    game = load_game(rec.game, components)
    try:
        index = analysis.seat_index(game, rec, seat)
        p = analysis.plan(game, rec, index, budget, agent, seed, components)
    except ThermopylaeError as exc:
        raise fail(f"{record}: {exc}") from exc
    with ExitStack() as stack:
        # the workers start before the progress bar's thread: forked where that is safe
        pool = (
            stack.enter_context(process_pool(workers))
            if backend == "process" and address is None and workers > 1 and len(p.tasks) > 1
            else None
        )
        results = with_progress(
            _("analysing"),
            len(p.tasks),
            progress,
            lambda adv: analysis.run(p.tasks, workers, adv, backend, address, pool),
        )
    result = analysis.assemble(game, rec, index, budget, agent, seed, p, results)
    if json_out == "-":
        sys.stdout.write(json.dumps(result, indent=1) + "\n")
    elif json_out is not None:
        try:
            Path(json_out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            raise fail(_cannot_write("--json", json_out, exc)) from exc
    if report_dir is not None:
        try:
            page = write_report(result, report_dir)
        except OSError as exc:
            raise fail(_cannot_write("--report", report_dir, exc)) from exc
        if json_out != "-":
            out.print(_("report: {page}").format(page=page), markup=False)
    if json_out is None and report_dir is None:
        _summary(result)


def _check_backend(backend: str, address: str | None) -> None:
    """A known backend, an address only for Ray, and Ray installed when it is asked for."""
    if backend not in ("process", "ray"):
        raise fail(
            _("--backend {backend}: no such backend; the backends are process and ray").format(
                backend=backend
            )
        )
    if backend == "process" and address is not None:
        raise fail(_("--address is for the ray backend (--backend ray)"))
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        raise fail(
            _("--backend ray needs Ray, which is not installed: {hint}").format(
                hint="pip install 'thermopylae[ray]'"
            )
        )


def _cannot_write(option: str, path: object, exc: OSError) -> str:
    return _("{option} {path}: cannot write: {reason}").format(
        option=option, path=path, reason=exc.strerror or exc
    )


def _summary(result: dict[str, Any]) -> None:
    marked = [d for d in result["decisions"] if d["mark"]]
    n = len(result["decisions"])
    out.print(
        ngettext(
            "{n} decision of {seat}, {marked} marked",
            "{n} decisions of {seat}, {marked} marked",
            n,
        ).format(n=n, seat=result["seat"], marked=len(marked)),
        markup=False,
    )
    for d in marked:
        out.print(
            _(
                "step {step}: {mark}: {played} ({win_played:.0%}); best {best} ({win_best:.0%})"
            ).format(
                step=d["step"],
                mark=_(MARK_WORDS[d["mark"]]),
                played=d["played"],
                win_played=d["win_played"],
                best=d["best"],
                win_best=d["win_best"],
            ),
            markup=False,
        )


def write_report(result: dict[str, Any], directory: Path) -> Path:
    """`directory/index.html` from the template, with the graph beside it."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    directory.mkdir(parents=True, exist_ok=True)
    _graph(result, directory / GRAPH)
    env = Environment(
        loader=FileSystemLoader(Path(__file__).parent / "templates"),
        autoescape=select_autoescape(["html", "j2"]),
    )
    page = env.get_template("analysis.html.j2").render(
        a=result, graph=GRAPH, marked=[d for d in result["decisions"] if d["mark"]]
    )
    path = directory / "index.html"
    path.write_text(page, encoding="utf-8")
    return path


def _graph(result: dict[str, Any], path: Path) -> None:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9, 4))
    ax = fig.add_subplot()
    steps = [t["step"] for t in result["timeline"]]
    for name in result["seats"]:
        ax.plot(steps, [t["win"][name] for t in result["timeline"]], label=name)
    for d in result["decisions"]:
        if d["mark"]:
            ax.axvline(d["step"], color="red" if d["mark"] == "blunder" else "orange", lw=0.6)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("step")
    ax.set_ylabel("win chance")
    ax.set_title(f"{result['game']}: win chance as {result['seat']} saw it")
    ax.legend()
    fig.savefig(path, dpi=90)
