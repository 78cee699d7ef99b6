"""Babel extraction of the words kept in the games' component files (`components.toml`):
card names, unit names, location names, a set's title and note.

Python source is read by Babel's own extractor (`_`, `ngettext`, `N_`); this one reads a
TOML file and yields the string values at the paths listed in the `keys` option of
`babel.cfg` (`title`, `unit.name`: the `name` of every `[[unit]]` table). The games show
these strings through `_()`, so a translated component file needs no code.
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any


def _values(node: Any, path: list[str]) -> Iterator[str]:
    if not path:
        if isinstance(node, str) and node:
            yield node
        return
    if isinstance(node, list):
        for item in node:
            yield from _values(item, path)
    elif isinstance(node, dict) and path[0] in node:
        yield from _values(node[path[0]], path[1:])


def extract_toml(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extractor interface: (line, function name, message, comments) per string."""
    raw = fileobj.read()
    data = tomllib.loads(raw.decode("utf-8"))
    lines = raw.decode("utf-8").splitlines()
    for key in str(options.get("keys", "")).split():
        for value in _values(data, key.split(".")):
            quoted = f'"{value}"'
            lineno = next((i for i, line in enumerate(lines, 1) if quoted in line), 0)
            yield lineno, "_", value, [f"component file: {key}"]
