"""Schema errors in words: one readable line per problem, naming where it is."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError


def problems(exc: ValidationError, prefix: str = "") -> list[str]:
    """`where: what was wrong (got X)` for each error; list items are counted from 1."""
    return [_describe(err, prefix) for err in exc.errors()]


def first_problem(exc: ValidationError, prefix: str = "") -> str:
    """The first problem, saying how many more there are."""
    found = problems(exc, prefix)
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return found[0] + more


def _describe(err: Any, prefix: str) -> str:
    parts = [prefix] if prefix else []
    for p in err["loc"]:
        if isinstance(p, int) and parts:
            parts[-1] += f"[{p + 1}]"
        else:
            parts.append(str(p))
    where = ".".join(parts)
    msg = str(err["msg"]).removeprefix("Value error, ")
    given = err.get("input")
    if isinstance(given, str | int | float | bool) and err["type"] != "value_error":
        msg += f" (got {given!r})"
    return f"{where}: {msg}" if where else msg
