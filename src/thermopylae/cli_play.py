"""The commands that play one game at the terminal: `play` (a table of people and agents,
from the start, a saved position or a record's step) and `replay` (a record re-run and
checked, shown step by step or in the viewer)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from thermopylae.ai.base import Agent, make_agent
from thermopylae.cli_common import (
    ComponentsOpt,
    GameArg,
    err,
    fail,
    load_game,
    out,
    set_language,
)
from thermopylae.engine.errors import RecordError, ThermopylaeError
from thermopylae.engine.protocol import GenericGame
from thermopylae.i18n import _, ngettext

if TYPE_CHECKING:
    from thermopylae.engine.record import Record


def _parse_ai(
    specs: list[str], game: GenericGame, options: dict[str, Any], fixed: bool = False
) -> dict[int, Agent]:
    """The agents of `--ai SEAT=AGENT`, by seat index; `fixed` when the table comes from a
    file, so that `--players` cannot add seats."""
    seats = list(game.seats(options))
    agents: dict[int, Agent] = {}
    for spec in specs:
        seat, eq, agent = spec.partition("=")
        if not eq:
            raise fail(
                _("--ai takes SEAT=AGENT (e.g. {example}), not {spec}").format(
                    example=f"{seats[0]}=heuristic", spec=repr(spec)
                )
            )
        if seat not in seats:
            raise fail(
                _("--ai {spec}: no seat {seat}; the seats are {seats}").format(
                    spec=spec, seat=repr(seat), seats=", ".join(seats)
                )
                + ("" if fixed else _more_seats(game, options, seat))
            )
        try:
            agents[seats.index(seat)] = make_agent(agent, game)
        except ThermopylaeError as exc:
            raise fail(str(exc)) from exc
    return agents


def play(
    game_id: GameArg,
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the cards and dice (random if not given; printed).")
    ] = None,
    ai: Annotated[
        list[str] | None,
        typer.Option(
            "--ai", help="SEAT=AGENT: let an agent play a seat (repeatable), e.g. p2=heuristic."
        ),
    ] = None,
    from_file: Annotated[
        Path | None,
        typer.Option("--from", help="Start from a saved position, or continue a saved record."),
    ] = None,
    step: Annotated[
        int | None,
        typer.Option(
            "--step",
            min=0,
            help="With --from RECORD: play on from the position after this step (what if?). "
            "What --as cannot have seen then (the others' hands, the order of the decks) is "
            "dealt anew, consistently with what it saw, so nobody learns the real cards.",
        ),
    ] = None,
    as_seat: Annotated[
        str | None,
        typer.Option(
            "--as",
            help="With --step: the seat whose knowledge the position keeps (default: the "
            "seat that decides at that step).",
        ),
    ] = None,
    true_cards: Annotated[
        bool,
        typer.Option(
            "--true-cards",
            help="With --step on a finished game: keep the real hidden cards instead of "
            "dealing them anew (the game is over: nothing is left to hide).",
        ),
    ] = False,
    record: Annotated[
        Path | None, typer.Option(help="Write the game record to this file when the session ends.")
    ] = None,
    open_hands: Annotated[
        bool, typer.Option("--open-hands", help="Every player sees every hand (Thermopyles).")
    ] = False,
    components: ComponentsOpt = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help="Language of the game's texts: en, pt, fr or it (default: from the "
            "LC_ALL, LC_MESSAGES or LANG environment variable, English otherwise).",
        ),
    ] = None,
    clock: Annotated[
        str | None,
        typer.Option(
            "--clock",
            help="A clock for each human player: BANK, BANK+INCREMENT or "
            "BANK+INCREMENT/CAP, e.g. 10m (ten minutes each), 5m+5s (five more seconds after "
            "each turn), 3d+12h/5d (the bank never above five days); units s, m, h, d, "
            "combined as 1h30m. A player is charged "
            "from the prompt to the answer (agents and chance cost nothing); whoever runs "
            "out of time loses the game.",
        ),
    ] = None,
) -> None:
    """Play a game at the terminal (answers may also be piped in, one per line).

    Type `help` at the prompt for the commands: undo, save FILE, position FILE, board,
    cards (in games with hands), quit. On a terminal the board is in colour, each seat in
    its own, and the lines that changed since it was last drawn are flagged (with `*` in
    a pipe).
    """
    import secrets

    from thermopylae.engine.clock import ClockError, parse_clock
    from thermopylae.tui.terminal import Session

    set_language(lang)
    try:
        control = None if clock is None else parse_clock(clock)
    except ClockError as exc:
        raise fail(f"--clock: {exc}") from exc
    game = load_game(game_id, components)
    if seed is None:
        seed = secrets.randbelow(2**31)
    try:
        if step is not None:
            if from_file is None:
                raise RecordError(_("--step needs --from RECORD (the game to play on from)"))
            state, rec = _what_if(game, from_file, step, as_seat, true_cards, seed)
        else:
            state, rec = _start(game, from_file, players, open_hands, seed)
    except ThermopylaeError as exc:
        raise fail(str(exc)) from exc
    options = rec.options
    agents = _parse_ai(ai or [], game, options, fixed=from_file is not None)
    session = Session(
        game, options, state, rec, agents, seed, out, sys.stdin, game.render, record, control
    )
    session.opening(seed)
    session.run()


def _more_seats(game: GenericGame, options: dict[str, Any], seat: str) -> str:
    """How to get `seat` at the table: the smallest player count that has it (from the
    game's own range of players), or else the range itself."""
    lo, hi = int(game.min_players), int(game.max_players)
    if lo == hi:
        return ""
    for n in range(lo, hi + 1):
        try:
            seats = list(game.seats(game.options({**options, "players": n})))
        except ThermopylaeError:
            continue
        if seat in seats:
            return _(" (with --players {n} the seats are {seats})").format(
                n=n, seats=", ".join(seats)
            )
    return _(" ({title} takes {lo} to {hi} players: choose with --players N)").format(
        title=_(game.title), lo=lo, hi=hi
    )


def _start(
    game: GenericGame, path: Path | None, players: int | None, open_hands: bool, seed: int
) -> tuple[Any, Record]:
    """The state to play from and the record that leads to it (new, from a position, or
    a saved record continued)."""
    from thermopylae.engine.record import Position, Record, load_any, replay

    if path is None:
        opts: dict[str, Any] = {"open_hands": open_hands} if open_hands else {}
        if players is not None:
            opts["players"] = players
        options = game.options(opts)
        return game.new(options), Record.begin(game, options, seed)
    loaded = load_any(path)
    if isinstance(loaded, Position):
        state = loaded.restore(game)
        return state, Record.begin(game, game.options(loaded.options), seed, start=state)
    report = replay(game, loaded)
    if not report.ok:
        raise RecordError(
            _("{path} does not replay: {problem}").format(path=path, problem=report.problems[0])
        )
    loaded.seed = seed  # the steps to come are drawn from this session's seed
    return report.state, loaded


def _what_if(
    game: GenericGame, path: Path, step: int, as_seat: str | None, true_cards: bool, seed: int
) -> tuple[Any, Record]:
    """The position after `step` steps of a record, as a new game's start: the hidden
    information `as_seat` could not see dealt anew (unless the game is over and the true
    cards are asked for)."""
    from thermopylae.engine.record import Record, replay, replay_to

    loaded = Record.load(path)
    if loaded.game != game.id:
        raise RecordError(
            _("{path} is a record of {other}, not of {game}").format(
                path=path, other=loaded.game, game=game.id
            )
        )
    report = replay_to(game, loaded, step)
    if not report.ok:
        raise RecordError(
            _("{path} does not replay: {problem}").format(path=path, problem=report.problems[0])
        )
    options = game.options(loaded.options)
    state = report.state
    seats = list(game.seats(options))
    if true_cards:
        finished = replay(game, loaded)
        if not finished.ok or finished.outcome is None:
            raise RecordError(_("--true-cards is for a finished game; this one is not over"))
        return state, Record.begin(game, options, seed, start=state)
    if as_seat is None:
        to_act = game.to_act(state)
        if to_act is None or to_act < 0:
            raise RecordError(
                _(
                    "at step {step} no seat decides: say whose knowledge to keep with --as SEAT"
                ).format(step=step)
            )
        seat = to_act
    elif as_seat in seats:
        seat = seats.index(as_seat)
    else:
        raise RecordError(
            _("--as {seat}: not a seat of this game (seats: {seats})").format(
                seat=as_seat, seats=", ".join(seats)
            )
        )
    import random

    dealt = game.determinize(state, seat, random.Random(seed))
    return dealt, Record.begin(game, options, seed, start=dealt)


def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    components: ComponentsOpt = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print every step.")] = False,
    step: Annotated[
        int | None,
        typer.Option(
            "--step",
            min=0,
            help="Show the board after this step (0: before the first) instead of checking "
            "the whole record.",
        ),
    ] = None,
    seat: Annotated[
        str | None,
        typer.Option(
            "--seat",
            help="With --step or --interactive: the board as this seat saw it (default: a "
            "spectator).",
        ),
    ] = None,
    interactive: Annotated[
        bool,
        typer.Option(
            "--interactive",
            "-i",
            help="Step through the record: n (or Enter) next, p previous, g first, G last, "
            "a number to go to that step, s SEAT the board as that seat saw it, a every hand "
            "(a finished game), q quit; starts at --step if given. Keys may be piped in, "
            "one a line.",
        ),
    ] = False,
) -> None:
    """Re-run a game record: check that every step was legal and the end matches.

    With --step, show the board after one step; with --interactive, step through the game.
    """
    from thermopylae.engine.record import Record, replay

    set_language(None)
    try:
        rec = Record.load(file)
    except ThermopylaeError as exc:
        raise fail(str(exc)) from exc
    game = load_game(rec.game, components)
    if interactive:
        _view(game, rec, step, seat)
        return
    if step is not None:
        _show_step(game, rec, step, seat)
        return
    if verbose:
        for n, (who, action) in enumerate(rec.steps, start=1):
            out.print(f"{n:4d} {who}: {action}", markup=False)
    try:
        report = replay(game, rec)
    except ThermopylaeError as exc:
        raise fail(str(exc)) from exc
    if not report.ok and report.state is None:  # it cannot even begin: a malformed file
        raise fail(f"{file}: {report.problems[0]}")
    if not report.ok:
        for problem in report.problems:
            err.print(
                _("replay failed: {problem}").format(problem=problem), markup=False, soft_wrap=True
            )
        raise typer.Exit(1)
    result = (
        _("game not over")
        if report.outcome is None
        else f"{', '.join(report.outcome.results)} ({report.outcome.reason})"
    )
    steps = ngettext("{n} step replayed", "{n} steps replayed", report.steps_checked)
    out.print(
        _("OK: {steps}, all legal; final state matches; {result}.").format(
            steps=steps.format(n=report.steps_checked), result=result
        ),
        markup=False,
    )


def _view(game: GenericGame, rec: Record, step: int | None, seat_name_: str | None) -> None:
    """The interactive viewer (`tui.viewer`), from `step` (default: the start) and as
    `seat_name_` saw the game (default: a spectator)."""
    from thermopylae.tui.viewer import Viewer, replay_steps

    seats = list(rec.seats)
    if seat_name_ is not None and seat_name_ not in seats:
        raise fail(
            _("--seat {seat}: not a seat of this game (seats: {seats})").format(
                seat=seat_name_, seats=", ".join(seats)
            )
        )
    if step is not None and step > len(rec.steps):
        raise fail(
            _("--step {step}: the record has steps 0 to {total}").format(
                step=step, total=len(rec.steps)
            )
        )
    try:
        replayed = replay_steps(game, rec)
    except ThermopylaeError as exc:
        raise fail(str(exc)) from exc
    seat = None if seat_name_ is None else seats.index(seat_name_)
    Viewer(game, replayed, out, sys.stdin, step or 0, seat).run()


def _show_step(game: GenericGame, rec: Record, step: int, seat_name_: str | None) -> None:
    """The board after `step` steps, as `seat_name_` (or a spectator) saw it then."""
    from thermopylae.engine.record import replay_to

    try:
        report = replay_to(game, rec, step)
    except ThermopylaeError as exc:
        raise fail(str(exc)) from exc
    if not report.ok:
        raise fail(report.problems[0])
    seats = list(rec.seats)
    if seat_name_ is not None and seat_name_ not in seats:
        raise fail(
            _("--seat {seat}: not a seat of this game (seats: {seats})").format(
                seat=seat_name_, seats=", ".join(seats)
            )
        )
    seat = None if seat_name_ is None else seats.index(seat_name_)
    last = rec.steps[step - 1] if step > 0 else None
    head = _("Step {step} of {total}").format(step=step, total=len(rec.steps))
    if last is not None:
        head += f" ({last[0]}: {last[1]})"
    out.print(head, markup=False)
    out.print(game.render(game.view(report.state, seat)), markup=False)
