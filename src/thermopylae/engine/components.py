"""Component data files: read, validate, digest.

Each game keeps its printed values (cards, units, charts) in one data file, and tags every
value with where it comes from, so that players always know which numbers are guesses.
A user who owns a box loads the printed values with `--components FILE`.

Validating a set takes pydantic (its import and the schema's classes: ~70 ms, more than
the rest of a simulation's start-up); the default set, the same file run after run, is
validated once and what a game derives from it kept beside the bytecode of the game's
`components.py` (`default_cached`): a command that plays with it needs no pydantic.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from thermopylae.engine.errors import ComponentError
from thermopylae.engine.files import FileProblem, parse, read_text

if TYPE_CHECKING:
    from pydantic import BaseModel

Source = Literal["rulebook", "public-source", "provisional"]
"""`rulebook`: printed in the rules; `public-source`: stated by a public source other than
the rulebook; `provisional`: chosen by this project because the printed value is unknown."""

M = TypeVar("M", bound="BaseModel")
J = TypeVar("J")

MAX_COMPONENT_BYTES = 4 * 2**20
"""The largest component file read (the default sets are under 10 kB)."""


def read_data(path: Path) -> dict[str, Any]:
    """A TOML or JSON file as a dict; a file that cannot be read or does not parse (too
    large, binary, nested too deeply) raises `ComponentError` with one problem."""
    kind = "JSON" if path.suffix.lower() == ".json" else "TOML"
    try:
        data = parse(read_text(path, MAX_COMPONENT_BYTES), kind)
    except FileProblem as exc:
        raise ComponentError(str(path), [str(exc)]) from exc
    if not isinstance(data, dict):
        raise ComponentError(str(path), ["the file must hold a table (an object) at its top level"])
    return data


def read_set(package: str, path: Path | None) -> tuple[dict[str, Any], str]:
    """The data of a game's default `components.toml` (shipped in `package`), or of the
    user's file at `path`; with the name to report problems under."""
    from importlib import resources

    if path is None:
        ref = resources.files(package).joinpath("components.toml")
        with resources.as_file(ref) as default:
            return read_data(default), "default"
    return read_data(path), str(path)


def validate(model: type[M], data: dict[str, Any], source: str) -> M:
    """Validate `data` against a game's schema, with one readable message per problem."""
    from pydantic import ValidationError

    from thermopylae.engine.validation import problems

    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ComponentError(source, problems(exc)) from exc


def _folder(package: str) -> Path | None:
    """The folder of the imported `package`, when it was imported from files."""
    init = getattr(sys.modules.get(package), "__file__", None)
    return None if init is None else Path(init).parent


def cache_path(package: str) -> Path | None:
    """Where `default_cached` keeps the derived default set of `package`: beside the
    bytecode of its `components.py`, as Python would put that (`__pycache__`, or under
    `sys.pycache_prefix`); None without a source file to put it beside."""
    folder = _folder(package)
    if folder is None:
        return None
    source = str(folder / "components.py")
    return Path(importlib.util.cache_from_source(source)).with_suffix(".json")


def default_cached(
    package: str, derive: Callable[[dict[str, Any]], J], modules: tuple[str, ...] = ()
) -> J:
    """`derive(data)` of the default set shipped in `package` (a JSON value): read from
    the cache when it was derived from `components.toml` by the package's
    `components.py`, its other `modules` that shape the value (a schema's module, by
    file name), and this module, as they are now; else derived now and cached, unless
    this process writes no bytecode (`sys.dont_write_bytecode`). As for bytecode, "as
    they are now" is their size and time of last change: the file stays the truth,
    replace it (or change the code) and the next run derives anew. A cache that cannot
    be read or written is passed by."""
    folder, path = _folder(package), cache_path(package)
    key: list[list[int]] = []
    if folder is not None and path is not None:
        try:
            shaping = ("components.toml", "components.py", *modules)
            sources = (*(folder / name for name in shaping), Path(__file__))
            key = [[(st := os.stat(s)).st_size, st.st_mtime_ns] for s in sources]
            kept = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(kept, dict) and kept.get("key") == key:
                value: J = kept["value"]
                return value
        except (OSError, ValueError):
            pass
    value = derive(read_set(package, None)[0])
    if path is not None and key and not sys.dont_write_bytecode:
        _write(path, {"key": key, "value": value})
    return value


def _write(path: Path, data: Any) -> None:
    """`data` as JSON at `path`, whole or not at all (another process may read it
    meanwhile); a cache that cannot be written is left unwritten."""
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, separators=(",", ":"))
        os.replace(temp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temp)


def digest(data: Any) -> str:
    """A short, stable fingerprint of component values (records name the set they used)."""
    import hashlib  # here: its OpenSSL costs a command that digests nothing ~4 ms

    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]
