"""Reading a user's file (a record, a position, a component set) without trusting it.

A file given on the command line may be missing, a folder, binary, enormous or nested so
deeply that a parser runs out of stack. Each of these becomes one `FileProblem` whose
message says what was wrong, so that every face can report it in one line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

MAX_BYTES = 64 * 2**20
"""The largest file read: a long Earth & Water record is well under one megabyte."""
MAX_DEPTH = 64
"""The deepest nesting of lists and tables accepted: real files stay under ten."""


class FileProblem(ValueError):
    """A file that cannot be used, with one line saying why (the caller adds the name)."""


def read_text(path: Path, limit: int = MAX_BYTES) -> str:
    """The file as UTF-8 text, at most `limit` bytes."""
    try:
        with path.open("rb") as fh:
            raw = fh.read(limit + 1)
    except IsADirectoryError as exc:
        raise FileProblem("cannot read: it is a folder, not a file") from exc
    except OSError as exc:
        raise FileProblem(f"cannot read: {exc.strerror or exc}") from exc
    if len(raw) > limit:
        raise FileProblem(f"too large: more than {limit // 2**20} MB")
    if b"\x00" in raw:
        raise FileProblem("not a text file (it holds binary data)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileProblem(f"not a text file: byte {exc.start + 1} is not UTF-8") from exc


def parse(text: str, kind: str) -> Any:
    """`text` parsed as `kind` (`JSON` or `TOML`), no deeper than `MAX_DEPTH`."""
    import tomllib  # here: a command that reads no TOML (a cached component set) skips it

    try:
        data = json.loads(text) if kind == "JSON" else tomllib.loads(text)
    except RecursionError as exc:
        raise FileProblem(f"not usable {kind}: nested too deeply") from exc
    except ValueError as exc:  # syntax errors, and integers too long to convert
        raise FileProblem(f"not valid {kind}: {exc}") from exc
    if too_deep(data, MAX_DEPTH):
        raise FileProblem(f"not usable {kind}: nested more than {MAX_DEPTH} levels deep")
    return data


def too_deep(data: Any, limit: int) -> bool:
    """Whether lists and tables in `data` nest more than `limit` levels (no recursion)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False
