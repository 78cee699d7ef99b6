"""The table at the prompt: a game's `render(view)` text, laid out with Rich.

The board knows a game only by its seat names: each seat's name shows in its own colour,
the seat to act stands out, and the lines that changed since the board was last drawn are
flagged, found by a plain diff of the two texts. On a terminal the board is a panel; in a
pipe it is plain text (a rule, then the lines, changed ones flagged with `*`), with no
escape codes, so scripts and tests can read it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from rich.console import Console, Group
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from thermopylae.i18n import _

PALETTE = ("red", "blue", "green", "magenta", "cyan", "yellow")
"""Seat colours, by seat index."""
CHANGED_PLAIN = "* "
UNCHANGED = "  "


def changed_lines(before: Sequence[str] | None, after: Sequence[str]) -> set[int]:
    """The indices of `after`'s lines that are new or different from `before`'s (none on
    the first drawing)."""
    if before is None:
        return set()
    matcher = difflib.SequenceMatcher(None, list(before), list(after), autojunk=False)
    changed: set[int] = set()
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            changed.update(range(j1, j2))
    return changed


class Board:
    """Draws boards on one console and remembers the last one, to show what changed."""

    def __init__(self, console: Console, title: str, seats: Sequence[str]) -> None:
        self.console = console
        self.title = title
        self.seats = list(seats)
        self.previous: list[str] | None = None
        self._patterns = [
            (re.compile(rf"(?i)(?<![\w-]){re.escape(s)}(?![\w-])"), PALETTE[i % len(PALETTE)])
            for i, s in enumerate(self.seats)
        ]

    def colour(self, line: str, active: str | None = None) -> Text:
        """`line` with each seat name in its colour, the active seat's in reverse."""
        text = Text(line)
        for (pattern, colour), seat in zip(self._patterns, self.seats, strict=True):
            style = f"bold reverse {colour}" if seat == active else f"bold {colour}"
            text.highlight_regex(pattern, style)
        return text

    def draw(self, board: str, active: str | None, over: bool = False) -> None:
        """One board; `active` is the seat to act (None: chance or nobody)."""
        lines = board.splitlines()
        changed = changed_lines(self.previous, lines)
        self.previous = lines
        status = (
            _("game over") if over else _("{seat} to play").format(seat=active) if active else ""
        )
        if not self.console.is_terminal:
            self.console.print()
            self.console.print(
                Rule(
                    f"{self.title} · {status}" if status else self.title,
                    characters="-",
                    style="none",
                )
            )
            for i, line in enumerate(lines):
                self.console.print(
                    (CHANGED_PLAIN if i in changed else UNCHANGED) + line,
                    markup=False,
                    highlight=False,
                    soft_wrap=True,
                )
            return
        rows = []
        for i, line in enumerate(lines):
            row = Text("▌ ", style="bold yellow") if i in changed else Text(UNCHANGED)
            body = self.colour(line, active)
            if i in changed:
                body.stylize("bold")
            rows.append(row + body)
        subtitle = self.colour(status, active) if status else None
        self.console.print()
        self.console.print(
            Panel(
                Group(*rows),
                title=self.title,
                subtitle=subtitle,
                title_align="left",
                subtitle_align="right",
                border_style="dim",
                expand=False,
            )
        )
