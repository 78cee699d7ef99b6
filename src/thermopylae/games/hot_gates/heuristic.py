"""A sensible player for either side (placeholder: replaced below)."""

from __future__ import annotations

import random
from typing import Any


class Heuristic:
    name = "heuristic"

    def __init__(self, **params: Any) -> None:
        if params:
            raise ValueError(f"the heuristic agent takes no parameters, not {sorted(params)}")

    def act(self, game: Any, state: Any, rng: random.Random) -> Any:
        legal = game.legal(state)
        return legal[int(rng.random() * len(legal))]
