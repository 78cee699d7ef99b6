"""Component data files: read, validate, digest.

Each game keeps its printed values (cards, units, charts) in one data file, and tags every
value with where it comes from, so that players always know which numbers are guesses.
A user who owns a box loads the printed values with `--components FILE`.
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from thermopylae.engine.errors import ComponentError
from thermopylae.engine.files import FileProblem, parse, read_text
from thermopylae.engine.validation import problems

Source = Literal["rulebook", "public-source", "provisional"]
"""`rulebook`: printed in the rules; `public-source`: stated by a public source other than
the rulebook; `provisional`: chosen by this project because the printed value is unknown."""

M = TypeVar("M", bound=BaseModel)

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
    if path is None:
        ref = resources.files(package).joinpath("components.toml")
        with resources.as_file(ref) as default:
            return read_data(default), "default"
    return read_data(path), str(path)


def validate(model: type[M], data: dict[str, Any], source: str) -> M:
    """Validate `data` against a game's schema, with one readable message per problem."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ComponentError(source, problems(exc)) from exc


def digest(data: Any) -> str:
    """A short, stable fingerprint of component values (records name the set they used)."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]
