"""What every game's protocol object delegates to its notation table and its state."""

from __future__ import annotations

from typing import Any


class NotationMixin:
    """`parse`, `format`, `encode`, `decode`, `num_actions` through `self.notation`, and
    `copy` through the state's own `copy()`."""

    notation: Any

    def parse(self, text: str) -> Any:
        return self.notation.parse(text)

    def format(self, action: Any) -> str:
        return str(self.notation.format(action))

    def encode(self, action: Any) -> int:
        return int(self.notation.encode(action))

    def decode(self, index: int) -> Any:
        return self.notation.decode(index)

    @property
    def num_actions(self) -> int:
        return len(self.notation.table)

    def copy(self, state: Any) -> Any:
        return state.copy()
