"""Graded errors: each names what was wrong, so a player or a file author can fix it.

All are `ValueError`s (as python-chess grades its move errors), so a caller that only
wants "bad input" can catch that one class.
"""


class ThermopylaeError(ValueError):
    """Base of every error the engine raises on bad input."""


class NotationError(ThermopylaeError):
    """A text that is not an action in the game's notation at all."""


class IllegalAction(ThermopylaeError):
    """A well-formed action that the rules do not allow in this state."""


class ComponentError(ThermopylaeError):
    """A component data file that cannot be used; `problems` holds one message per problem."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        lines = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"{source}: {len(problems)} problem(s)\n{lines}")


class RecordError(ThermopylaeError):
    """A record or position file that is malformed or does not replay."""
