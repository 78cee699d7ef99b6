"""Step through a game record at a text prompt (`thermopylae replay RECORD --interactive`).

The viewer replays the record once (`engine.record.replay`) and keeps the state after
every step that replays, with the events of each step, so moving back and forth costs
nothing. It shows the board as the terminal draws it (`tui.board`), the step's number,
who played and the action, and the log of that step. The board is a spectator's view,
or the view of one seat (`s SEAT`: what that seat saw then, its log included), or, once
the game of the record is over, every hand (`a`: `Game.open_view`): a record of an
unfinished game never shows what a seat could not see.

Keys are read a line at a time, so a script can pipe them in. The viewer knows a game only
through its contract (`engine.protocol`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TextIO

from rich.console import Console

from thermopylae.engine.errors import RecordError, ThermopylaeError
from thermopylae.engine.protocol import CHANCE, Event, GenericGame, visible_events
from thermopylae.engine.record import Record, replay, replay_to
from thermopylae.i18n import _
from thermopylae.tui.board import Board

SPECTATOR = "spectator"
OPEN = "open"
HOME_KEYS = frozenset({"g", "home", "\x1b[H", "\x1bOH", "\x1b[1~", "\x1b[7~"})
END_KEYS = frozenset({"G", "end", "\x1b[F", "\x1bOF", "\x1b[4~", "\x1b[8~"})
"""First and last step: the letters, the words, and what the Home and End keys of common
terminals type when a line is read."""
QUIT_KEYS = frozenset({"q", "quit", "exit"})


def keys_text() -> str:
    """The keys of the viewer, one a line."""
    return "\n".join(
        [
            _("Keys (each followed by Enter):"),
            "  n, Enter   " + _("next step"),
            "  p          " + _("previous step"),
            "  g, G       " + _("first step (the start), last step (also home, end)"),
            "  N          " + _("go to step N (a number)"),
            "  s SEAT     " + _("the board as SEAT saw it then"),
            "  s          " + _("a spectator's view (the default)"),
            "  a          " + _("every hand shown (only once the game of the record is over)"),
            "  h          " + _("this text"),
            "  q          " + _("quit"),
        ]
    )


@dataclass
class Replayed:
    """A record replayed: the state after each step that replays (`states[0]` is the
    start), the events of each (`events[k]`: those of step k; none for the start)."""

    record: Record
    states: list[Any]
    events: list[list[Event]]
    problem: str | None  # why the record does not replay to its end as saved, if it does not
    over: bool  # the whole record replays and its game is over

    @property
    def last(self) -> int:
        """The last step that can be shown."""
        return len(self.states) - 1


def replay_steps(game: GenericGame, record: Record) -> Replayed:
    """Every step of `record` that replays, with its events; a `RecordError` when the
    record cannot even begin (another game, other components, a bad start)."""
    report = replay(game, record)
    if report.state is None:
        raise RecordError(report.problems[0])
    start = replay_to(game, record, 0)
    if start.state is None:  # pragma: no cover - replay began, so its start is sound
        raise RecordError(start.problems[0])
    states = [start.state]
    events: list[list[Event]] = [[]]
    problem = None if report.ok else report.problems[0]
    for _who, text in record.steps[: report.steps_checked]:
        state = game.copy(states[-1])
        try:
            events.append(game.apply(state, game.parse(text)))
        except ThermopylaeError as exc:  # pragma: no cover - replay applied it already
            problem = str(exc)
            break
        states.append(state)
    return Replayed(record, states, events, problem, report.ok and report.outcome is not None)


class Viewer:
    """The prompt: `run()` shows the step `start` and then reads keys until `q` or the
    end of the input. `seat` is the first view's seat (None: a spectator)."""

    def __init__(
        self,
        game: GenericGame,
        replayed: Replayed,
        console: Console,
        stdin: TextIO,
        start: int = 0,
        seat: int | None = None,
    ) -> None:
        self.game = game
        self.replayed = replayed
        self.record = replayed.record
        self.seats = list(self.record.seats)
        self.console = console
        self.stdin = stdin
        self.step = start
        self.mode: int | str = SPECTATOR if seat is None else seat
        self.board = Board(console, _(game.title), self.seats)

    @property
    def total(self) -> int:
        return len(self.record.steps)

    def say(self, text: str = "") -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def run(self) -> None:
        self.say(keys_text())
        if self.replayed.problem is not None:
            self.say(self._problem_note())
        if not self._check_step(self.step):
            self.step = 0
        self.show()
        while (line := self._read()) is not None:
            if line in QUIT_KEYS:
                return
            self.key(line)

    def _read(self) -> str | None:
        """A line of input (None at its end), scripted lines echoed so that a transcript
        reads well."""
        self.console.print(f"[{self.step}/{self.total}]> ", end="", markup=False, highlight=False)
        line = self.stdin.readline()
        if not line:
            self.say()
            return None
        if not self.stdin.isatty():
            self.say(line.rstrip("\n"))
        return line.strip(" \t\r\n")

    def key(self, line: str) -> None:
        """Do what one line of input asks."""
        cmd, _sep, arg = line.partition(" ")
        arg = arg.strip()
        if line in ("", "n"):
            if self.step >= self.replayed.last:
                self.say(self._at_the_end())
            else:
                self.go(self.step + 1)
        elif line == "p":
            if self.step == 0:
                self.say(_("This is the start: there is no step before it."))
            else:
                self.go(self.step - 1)
        elif line in HOME_KEYS:
            self.go(0)
        elif line in END_KEYS:
            self.go(self.replayed.last)
            if self.replayed.problem is not None:
                self.say(self._problem_note())
        elif line.isdigit():
            if self._check_step(int(line)):
                self.go(int(line))
        elif cmd == "s":
            self._view_as(arg)
        elif line == "a":
            if self.replayed.over:
                self.mode = OPEN
                self.show()
            else:
                self.say(
                    _(
                        "Every hand is shown only once the game of the record is over; "
                        "this one is not."
                    )
                )
        elif line in ("h", "help", "?"):
            self.say(keys_text())
        else:
            self.say(_("Unknown key {key}; type h for the keys.").format(key=repr(line)))

    def go(self, step: int) -> None:
        self.step = step
        self.show()

    def _check_step(self, step: int) -> bool:
        """Whether `step` can be shown; if not, say why."""
        if step > self.total:
            self.say(
                _("There is no step {step}: the record has steps 0 to {total}.").format(
                    step=step, total=self.total
                )
            )
            return False
        if step > self.replayed.last:
            self.say(
                _("Step {step} cannot be shown: {problem}").format(
                    step=step, problem=self.replayed.problem
                )
            )
            return False
        return True

    def _at_the_end(self) -> str:
        if self.replayed.last < self.total:
            return self._problem_note()
        return _("This is the last step.")

    def _problem_note(self) -> str:
        return _("The record replays only up to step {step}: {problem}").format(
            step=self.replayed.last, problem=self.replayed.problem
        )

    def _view_as(self, name: str) -> None:
        if not name:
            self.mode = SPECTATOR
        elif name in self.seats:
            self.mode = self.seats.index(name)
        else:
            self.say(
                _("No seat {seat}; the seats are {seats}.").format(
                    seat=repr(name), seats=", ".join(self.seats)
                )
            )
            return
        self.show()

    def _mode_text(self) -> str:
        if self.mode == OPEN:
            return _("every hand shown")
        if self.mode == SPECTATOR:
            return _("a spectator's view")
        assert isinstance(self.mode, int)
        return _("as {seat} saw it").format(seat=self.seats[self.mode])

    def show(self) -> None:
        """The step: its number, who played what, the board in the current view and the
        log of the step as that view may see it."""
        game, state = self.game, self.replayed.states[self.step]
        head = _("Step {step} of {total}").format(step=self.step, total=self.total)
        if self.step > 0:
            who, action = self.record.steps[self.step - 1]
            head += f" ({who}: {action})"
        self.say()
        self.say(f"{head} · {self._mode_text()}")
        if self.mode == OPEN:
            view = game.open_view(state)
        else:
            view = game.view(state, None if self.mode == SPECTATOR else int(self.mode))
        to_act = game.to_act(state)
        # a game ended by a forfeit (time) is over though the rules would go on
        over = to_act is None or (self.replayed.over and self.step == self.total)
        active = None if over or to_act is None or to_act == CHANCE else self.seats[to_act]
        self.board.draw(game.render(view), active, over=over)
        events = self.replayed.events[self.step]
        if self.mode != OPEN:
            events = visible_events(events, None if self.mode == SPECTATOR else int(self.mode))
        for e in events:
            self.console.print(
                self.board.colour(f"  . {game.describe(e)}"), highlight=False, soft_wrap=True
            )
