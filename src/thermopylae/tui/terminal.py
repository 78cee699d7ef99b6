"""Play any registered game at a text prompt (a terminal, or a script piped in).

The session asks the game for everything: whose turn, the legal actions, the view to draw
and the log lines. It adds only what a player at a prompt needs: numbered choices, undo,
saving, help. Undo snapshots are dropped whenever a card or die is revealed, so undo can
never re-deal (as on Rally the Troops). The board itself is drawn by `tui.board`; every
word the session prints is in the player's language (`thermopylae.i18n`).

With a time control (`play --clock`), each human seat has a bank (`engine.clock`): it is
charged the wall time from its prompt to its answer, and a seat whose bank runs out
forfeits the game (`Game.forfeit`, reason "time"). Agents and chance cost no time.
"""

from __future__ import annotations

import random
import select
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console

from thermopylae.engine import clock as clocks
from thermopylae.engine.clock import ClockState, TimeControl, format_clock
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.play import Step, advance
from thermopylae.engine.protocol import CHANCE, Decider, Event, GenericGame, Outcome
from thermopylae.engine.record import Position, Record, seat_name
from thermopylae.engine.takeback import is_reveal
from thermopylae.i18n import _, ngettext
from thermopylae.tui.board import Board


def help_text(game: GenericGame) -> str:
    """The commands at the prompt (`cards` answers that there is nothing to show where
    the game's `hand_text` has no hand for the seat)."""
    lines = [
        _("Answer with the number of a listed action, or the action itself as it is listed."),
        _("An empty answer plays the only legal action when there is just one."),
        _("Commands:"),
        "  undo           " + _("take back your last decision (not past a revealed card or die)"),
        "  save FILE      " + _("save the game record (JSON; `thermopylae replay FILE` checks it)"),
        "  position FILE  "
        + _("save the current position (JSON; `thermopylae play --from FILE` resumes)"),
        "  board          " + _("show the table again"),
        "  hint [N]       "
        + _("the bot's three best moves for you, with their chances (N playouts each)"),
    ]
    lines += [
        "  cards          "
        + _(
            "the cards in your hand and what each one does (every card: `thermopylae rules {game}`)"
        ).format(game=game.id),
        "  help           " + _("this text"),
        "  quit           " + _("stop (the record is saved if --record was given)"),
    ]
    return "\n".join(lines)


@dataclass
class _Snapshot:
    state: Any
    steps: int
    action: str


class Session:
    """One game at the prompt; `run()` returns when the game is over and the user quits.

    `clock`: the time control of the human seats (None: untimed); `now`: the monotonic
    time source it is charged by (a test passes its own)."""

    def __init__(
        self,
        game: GenericGame,
        options: dict[str, Any],
        state: Any,
        record: Record,
        agents: Mapping[int, Decider],
        seed: int,
        console: Console,
        stdin: TextIO,
        render: Callable[[dict[str, Any]], str],
        record_path: Path | None = None,
        clock: TimeControl | None = None,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.game = game
        self.options = options
        self.state = state
        self.record = record
        self.agents = agents
        self.humans = [i for i in range(len(game.seats(options))) if i not in agents]
        # whose eyes the log uses: the one human at the keyboard, or p1 when only agents
        # play; several humans at one screen see only public events in the log (each
        # sees their own hand on the board when it is their decision)
        self.viewers = self.humans if len(self.humans) == 1 else [] if self.humans else [0]
        self.chance_rng = random.Random(seed)
        self.seed = seed
        self.agent_rng = random.Random(f"{seed}:agents")
        self.console = console
        self.stdin = stdin
        self.render = render
        self.record_path = record_path
        self.undo: list[_Snapshot] = []
        self.dirty = True
        self.board = Board(console, _(game.title), game.seats(options))
        self.control = clock
        self.now = now
        self.clock: ClockState | None = None
        self.forfeited: tuple[int, Outcome] | None = None  # the seat whose time ran out

    def say(self, text: str = "") -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def opening(self, seed: int) -> None:
        """What a player reads once, before the first board: the provisional notice
        (once per game, also when resuming a saved game) and the seats."""
        if self.game.provisional:
            self.say(
                _(
                    "Note: {title} is played with provisional component values (see "
                    "`thermopylae rules {game}`)."
                ).format(title=_(self.game.title), game=self.game.id)
            )
        self.say(
            _("{title}: seats {seats}; seed {seed}. Type help for commands.").format(
                title=_(self.game.title), seats=", ".join(self.game.seats(self.options)), seed=seed
            )
        )
        if self.control is not None and self.humans:
            self.say(
                _("Clock: {control} for each player; whoever runs out of time loses.").format(
                    control=self.control.describe()
                )
            )

    def run(self) -> None:
        try:
            self._loop()
        finally:
            if self.record_path is not None:
                self._save(self.record_path)

    def _loop(self) -> None:
        self.dirty = True  # the table changed since it was last drawn
        while self.forfeited is None and self.game.to_act(self.state) is not None:
            for step in advance(
                self.game, self.state, self.chance_rng, self.agents, self.agent_rng
            ):
                self._stepped(step)
            seat = self.game.to_act(self.state)
            if seat is None:
                break
            if self.dirty:
                self._board(seat)
                self.dirty = False
            if not self._ask(seat):
                return
        if self.forfeited is None:
            self._board(self.viewers[0] if self.viewers else None)
            outcome = self.game.outcome(self.state)
            assert outcome is not None
            reason = outcome.reason
        else:
            loser, outcome = self.forfeited
            reason = _("{seat} ran out of time").format(
                seat=seat_name(self.game, self.options, loser)
            )
        turns = ngettext("after {n} turn", "after {n} turns", outcome.turns)
        self.say(
            _("Game over: {results} ({reason}), {after}.").format(
                results=", ".join(outcome.results),
                reason=reason,
                after=turns.format(n=outcome.turns),
            )
        )
        self.say(_("Type `save FILE` or `position FILE` to keep it, or `quit`."))
        while (line := self._read("> ")) is not None:
            cmd, _sep, arg = line.partition(" ")
            if cmd in ("quit", "q", "exit"):
                return
            if not self._command(cmd, arg.strip(), None):
                self.say(_("The game is over: save FILE, position FILE, help or quit."))

    def _board(self, seat: int | None) -> None:
        """The table as `seat` sees it (None: public view)."""
        to_act = self.game.to_act(self.state)
        active = (
            None
            if to_act is None or to_act == CHANCE
            else seat_name(self.game, self.options, to_act)
        )
        self.board.draw(self.render(self.game.view(self.state, seat)), active, over=to_act is None)

    def _step(self, seat: int, action: Any) -> None:
        """Apply the human's decision, as `engine.play.advance` applies the others."""
        self._stepped(Step(seat, action, self.game.apply(self.state, action)))

    def _stepped(self, step: Step) -> None:
        """Record, log and redraw after a step has been applied. After a reveal (a draw,
        a roll, something shown to one seat) nothing before it can be undone: the policy
        of `engine.takeback`, which the server's takebacks share."""
        if is_reveal(step.seat, step.events):
            self.undo.clear()
        self.record.add(
            seat_name(self.game, self.options, step.seat), self.game.format(step.action)
        )
        self.dirty = True
        self._tick()
        self._log(step.events)
        if self.game.to_act(self.state) is None:
            self.record.close(self.game, self.state)

    # -- the clock -----------------------------------------------------------------------

    def _human(self, seat: int) -> bool:
        return seat not in self.agents

    def _tick(self) -> ClockState | None:
        """The clock brought to now, charging whoever decided since the last tick and
        starting the seat that decides now (called after every step and around every
        prompt); None without a time control."""
        if self.control is None:
            return None
        decider, now = self.game.to_act(self.state), self.now()
        if self.clock is None:
            seats = len(self.game.seats(self.options))
            self.clock = clocks.start(self.control, seats, now, decider, self._human)
        else:
            self.clock = clocks.advance(self.control, self.clock, now, decider, self._human)
        return self.clock

    def _out_of_time(self, seat: int) -> bool:
        """Whether `seat`'s bank ran out before its answer came (then it has forfeited)."""
        cs = self._tick()
        if cs is None or cs.running != seat or cs.remaining[seat] > 0:
            return False
        self.forfeited = (seat, self.game.forfeit(self.state, seat, "time"))
        return True

    def _wait_for_line(self, seat: int | None) -> bool:
        """On a terminal, with `seat`'s clock running: wait for its answer until its bank
        runs out (False then), so that a player who does not answer loses on time then,
        not when they next press Enter. A pipe is read as it comes."""
        cs = self.clock
        if seat is None or cs is None or cs.running != seat or not self.stdin.isatty():
            return True
        try:
            fd = self.stdin.fileno()
            while (left := clocks.remaining_now(cs, self.now())[seat]) > 0:
                if select.select([fd], [], [], left)[0]:
                    return True
        except (OSError, ValueError):  # no descriptor to wait on: read as usual
            return True
        return False

    def _log(self, events: list[Event]) -> None:
        for e in events:
            if e.to is None or e.to in self.viewers:
                self.console.print(
                    self.board.colour(f"  . {self.game.describe(e)}"),
                    highlight=False,
                    soft_wrap=True,
                )

    def _read(self, prompt: str, seat: int | None = None) -> str | None:
        """A line of input (None at its end); "" when `seat`'s time ran out first."""
        self.console.print(prompt, end="", markup=False, highlight=False)
        if not self._wait_for_line(seat):
            self.say()
            return ""
        line = self.stdin.readline()
        if not line:
            self.say()
            return None
        if not self.stdin.isatty():
            self.say(line.rstrip("\n"))  # echo scripted answers so the transcript reads well
        return line.strip()

    def _ask(self, seat: int) -> bool:
        """One answer from the human at `seat`; False when the player quits."""
        legal = list(self.game.legal(self.state))
        name = seat_name(self.game, self.options, seat)
        self._list(legal)
        cs = self._tick()
        if cs is not None and cs.running == seat:
            name = f"{name} [{format_clock(cs.remaining[seat])}]"
        line = self._read(f"{name}> ", seat)
        if self._out_of_time(seat):
            return True
        if line is None:
            return False
        cmd, _sep, arg = line.partition(" ")
        if cmd in ("quit", "q", "exit"):
            return False
        if self._command(cmd, arg.strip(), seat):
            return True
        action = self._choose(line, legal)
        if action is not None:
            self.undo.append(
                _Snapshot(
                    self.game.copy(self.state), len(self.record.steps), self.game.format(action)
                )
            )
            self._step(seat, action)
        return True

    def _list(self, legal: list[Any]) -> None:
        label = self.game.label
        texts = [f"{i:>2}) {label(a)}" for i, a in enumerate(legal, start=1)]
        width = max(map(len, texts)) + 2
        per_line = max(1, min(5, 90 // width))
        self.say(_("Legal actions:"))
        for row in range(0, len(texts), per_line):
            self.say("  " + "".join(x.ljust(width) for x in texts[row : row + per_line]).rstrip())

    def _choose(self, line: str, legal: list[Any]) -> Any:
        if line == "" and len(legal) == 1:
            return legal[0]
        if line.isdigit():
            if 1 <= int(line) <= len(legal):
                return legal[int(line) - 1]
            self.say(
                _("Refused: there is no choice {number}; choose 1 to {last}.").format(
                    number=line, last=len(legal)
                )
            )
            return None
        if line == "":
            self.say(_("Choose one of the legal actions (or type help)."))
            return None
        try:
            action = self.game.parse(line)
        except ThermopylaeError as exc:
            self.say(_("Refused: {reason}").format(reason=exc))
            return None
        if action not in legal:
            self.say(
                _("Refused: {action} is not legal now{why}.").format(
                    action=repr(self.game.format(action)), why=self._why(action)
                )
            )
            return None
        return action

    def _why(self, action: Any) -> str:
        """The rules' own reason, found by trying the action on a copy."""
        try:
            self.game.apply(self.game.copy(self.state), action, quiet=True)
        except ThermopylaeError as exc:
            return f": {exc}"
        return ""

    def _command(self, cmd: str, arg: str, seat: int | None) -> bool:
        """Handle a command; False if `cmd` is not one (then it is an action)."""
        if cmd in ("help", "?"):
            self.say(help_text(self.game))
        elif cmd == "board":
            self._board(seat)
        elif cmd == "cards":
            self._cards(seat)
        elif cmd in ("save", "position"):
            if not arg:
                self.say(_("Usage: {command} FILE").format(command=cmd))
            elif cmd == "save":
                self._save(Path(arg))
            else:
                self._save_position(Path(arg))
        elif cmd == "undo":
            self._undo()
        elif cmd == "hint":
            self._hint(seat, arg)
        else:
            return False
        return True

    def _hint(self, seat: int | None, arg: str) -> None:
        """The bot's best moves for the seat to decide, each with its chance to win, from
        that seat's information only (ai/hints.py)."""
        from thermopylae.ai.hints import DEFAULT_BUDGET, suggest

        if seat is None or self.game.to_act(self.state) != seat:
            self.say(_("A hint is for the seat that must decide now."))
            return
        try:
            budget = int(arg) if arg else DEFAULT_BUDGET
            self.say(_("Thinking ({n} playouts a move)...").format(n=budget))
            hints = suggest(
                self.game, self.state, seat, budget=budget, seed=self.seed + len(self.record.steps)
            )
        except (ValueError, ThermopylaeError) as exc:
            self.say(_("No hint: {reason}").format(reason=exc))
            return
        for i, h in enumerate(hints, start=1):
            self.say(
                _("{i}. {action}: {win:.0%} to win (± {err:.0%})").format(
                    i=i, action=self.game.label(h.action), win=h.chance.win, err=h.chance.stderr
                )
            )

    def _cards(self, seat: int | None) -> None:
        """The hand `seat` holds (at the end: the one human's), with each card's effect."""
        if seat is None:
            seat = self.viewers[0] if self.viewers else None
        text = None if seat is None else self.game.hand_text(self.game.view(self.state, seat))
        if text is None:
            self.say(_("There are no cards in hand to show here."))
        else:
            self.say(text)

    def _undo(self) -> None:
        if not self.undo:
            self.say(
                _("Nothing to undo: a card or die has been revealed since your last decision.")
            )
            return
        snap = self.undo.pop()
        self.state = snap.state
        del self.record.steps[snap.steps :]
        self.record.final = self.record.outcome = None
        self.say(_("Undone: {action}.").format(action=snap.action))
        self.dirty = True

    def _save(self, path: Path) -> None:
        # Stamp the position reached (and a forfeit for time), for replay.
        lost = None if self.forfeited is None else (self.forfeited[0], "time")
        self.record.close(self.game, self.state, lost)
        try:
            self.record.save(path)
        except OSError as exc:
            self.say(
                _("Could not save the record to {path}: {reason}").format(
                    path=path, reason=exc.strerror or exc
                )
            )
            return
        n = len(self.record.steps)
        self.say(
            _("Record saved to {path} ({steps}).").format(
                path=path, steps=ngettext("{n} step", "{n} steps", n).format(n=n)
            )
        )

    def _save_position(self, path: Path) -> None:
        try:
            Position.of(self.game, self.options, self.state).save(path)
        except OSError as exc:
            self.say(
                _("Could not save the position to {path}: {reason}").format(
                    path=path, reason=exc.strerror or exc
                )
            )
            return
        self.say(_("Position saved to {path}.").format(path=path))
