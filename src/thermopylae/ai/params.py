"""The checks every search agent's budget needs, shared by ISMCTS and the rollout agent."""

from __future__ import annotations

import math
from typing import Any


def check_parameters(*, count: tuple[str, Any], seconds: Any, depth: Any, **numbers: Any) -> None:
    """The checks every search agent's budget needs: numbers (not booleans or words), a
    whole `count` of at least 1, positive `seconds`, a whole `depth` of 0 or more (None
    where unset)."""
    name, value = count
    for key, v in ((name, value), ("seconds", seconds), ("depth", depth), *numbers.items()):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int | float)):
            raise ValueError(f"{key} must be a number, not {v!r}")
        if v is not None and not math.isfinite(v):
            raise ValueError(f"{key} must be a finite number, not {v!r}")
    if value < 1 or value != int(value):
        raise ValueError(f"{name} must be a whole number, at least 1")
    if seconds is not None and seconds <= 0:
        raise ValueError("seconds must be positive")
    if depth is not None and (depth < 0 or depth != int(depth)):
        raise ValueError("depth must be a whole number, 0 or more")
