"""Running the `thermopylae` command as a user would: the installed entry point, no
terminal size or colours, answers piped in."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path


def entry_point() -> list[str]:
    beside = Path(sys.executable).parent / "thermopylae"
    if beside.exists():
        return [str(beside)]
    found = shutil.which("thermopylae")
    return [found] if found else [sys.executable, "-m", "thermopylae"]


LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")


def run(
    *args: str,
    answers: list[str] | None = None,
    timeout: float = 120,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """The command's result; in English unless `env` names a locale (LANG=pt_BR...)."""
    base = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", *LOCALE_VARIABLES)}
    env = {**base, "NO_COLOR": "1", "LC_ALL": "C.UTF-8", **(env or {})}
    text = None if answers is None else "".join(f"{a}\n" for a in answers)
    return subprocess.run(
        [*entry_point(), *args],
        input=text,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        stdin=subprocess.DEVNULL if text is None else None,
    )


def flat(text: str) -> str:
    """Text with every run of whitespace made one space (the console may wrap lines)."""
    return " ".join(text.split())
