"""Every command that reads a user's file refuses a malformed one with exit code 2 and one
line naming the file and what is wrong: never a traceback."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli_helpers import run
from thermopylae.engine.files import MAX_BYTES


def _deep_list(path: Path) -> None:
    path.write_text("[" * 100_000 + "]" * 100_000)


def _deep_object(path: Path) -> None:
    path.write_text('{"a":' * 100_000 + "1" + "}" * 100_000)


def _deep_but_parsable(path: Path) -> None:  # within the parser's stack, beyond any use
    path.write_text(
        json.dumps(
            {
                "format": "thermopylae-record",
                "version": 1,
                "game": "thermopyles",
                "components": "x",
                "options": {},
                "seats": ["p1"],
                "steps": [],
                "start": json.loads("[" * 500 + "]" * 500),
            }
        )
    )


def _huge(path: Path) -> None:
    with path.open("wb") as fh:
        fh.seek(MAX_BYTES + 10)
        fh.write(b" ")


def _binary(path: Path) -> None:
    path.write_bytes(bytes(range(256)) * 20)


def _not_utf8(path: Path) -> None:
    path.write_bytes(b'{"format": "\xff\xfe"}')


def _long_integer(path: Path) -> None:
    path.write_text('{"seed": ' + "9" * 5000 + "}")


def _a_list(path: Path) -> None:
    path.write_text("[1, 2, 3]")


def _wrong_types(path: Path) -> None:
    path.write_text(
        json.dumps(
            {
                "format": "thermopylae-record",
                "version": 1,
                "game": 3,
                "components": [],
                "options": "none",
                "seats": {},
                "steps": [[1, 2]],
            }
        )
    )


def _folder(path: Path) -> None:
    path.mkdir()


BAD_FILES: dict[str, tuple[Callable[[Path], None], str]] = {
    "deep-list": (_deep_list, "nested too deeply"),
    "deep-object": (_deep_object, "nested too deeply"),
    "deep-but-parsable": (_deep_but_parsable, "levels deep"),
    "huge": (_huge, "too large"),
    "binary": (_binary, "not a text file"),
    "not-utf8": (_not_utf8, "UTF-8"),
    "long-integer": (_long_integer, "not valid JSON"),
    "a-list": (_a_list, "object"),
    "wrong-types": (_wrong_types, ""),
    "folder": (_folder, "folder"),
    "missing": (lambda path: None, "cannot read"),
}


def _commands(path: Path) -> dict[str, list[str]]:
    return {
        "replay": ["replay", str(path)],
        "play-from": ["play", "thermopyles", "--from", str(path), "--seed", "1"],
        "components": ["rules", "thermopyles", "--components", str(path)],
        "play-components": ["play", "hot-gates", "--components", str(path)],
        "replay-line": ["simulate", "thermopyles", "--replay-line", f"{path}:1"],
    }


def _one_clear_line(args: list[str], words: str) -> None:
    r = run(*args, answers=["quit"])
    assert r.returncode == 2, (args, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error: ")
    assert words in lines[0], (words, lines[0])


@pytest.mark.parametrize("command", ["replay", "play-from", "components", "replay-line"])
@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_p4_every_malformed_file_gets_exit_2_and_one_line(
    tmp_path: Path, command: str, kind: str
) -> None:
    make, words = BAD_FILES[kind]
    path = tmp_path / "file.json"
    make(path)
    if command == "components" and kind == "wrong-types":
        words = "13 problems"  # a schema check lists every problem, one per line
        r = run(*_commands(path)[command])
        assert r.returncode == 2 and "Traceback" not in r.stderr
        assert r.stderr.startswith("error: ") and words in r.stderr.splitlines()[0]
        return
    if command == "replay-line" and kind == "wrong-types":
        words = "not a game line"
    if command == "replay-line" and kind == "huge":
        words = "not valid JSON"  # a long --out file is normal: only its line is read
    _one_clear_line(_commands(path)[command], words)


def test_p4_replay_of_a_json_file_nested_100000_deep(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    _deep_list(path)
    r = run("replay", str(path))
    assert r.returncode == 2
    assert r.stderr == f"error: {path}: not usable JSON: nested too deeply\n"


def test_p4_toml_components_nested_too_deeply(tmp_path: Path) -> None:
    path = tmp_path / "deep.toml"
    path.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    _one_clear_line(_commands(path)["components"], "nested too deeply")
    _one_clear_line(_commands(path)["play-components"], "nested too deeply")


def test_p4_a_path_through_a_file_and_an_unreadable_file(tmp_path: Path) -> None:
    plain = tmp_path / "plain.json"
    plain.write_text("{}")
    for command in ("replay", "play-from", "components"):
        _one_clear_line(_commands(plain / "inside.json")[command], "cannot read")
    if os.geteuid() == 0:
        pytest.skip("root reads any file")
    locked = tmp_path / "locked.json"
    locked.write_text("{}")
    locked.chmod(0)
    for command in ("replay", "play-from", "components"):
        _one_clear_line(_commands(locked)[command], "Permission denied")


def test_p4_a_record_whose_start_state_is_malformed(tmp_path: Path) -> None:
    """A start position with a wrong type deep inside is refused in words: the record
    cannot begin, so it is a malformed file (exit 2), not a record that fails (exit 1)."""
    rec, pos = tmp_path / "rec.json", tmp_path / "pos.json"
    r = run("play", "earth-and-water", "--seed", "2", answers=["1", "1", f"position {pos}", "quit"])
    assert r.returncode == 0, r.stderr
    r = run(
        "play",
        "earth-and-water",
        "--from",
        str(pos),
        "--seed",
        "3",
        answers=[f"save {rec}", "quit"],
    )
    assert r.returncode == 0, r.stderr
    data = json.loads(rec.read_text())
    data["start"]["stack"] = [[[]]]
    rec.write_text(json.dumps(data))
    _one_clear_line(["replay", str(rec)], f"{rec}: record start: bad state")


def test_p4_saving_onto_a_folder_says_so_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    folder = tmp_path / "here"
    folder.mkdir()
    r = run("play", "thermopyles", "--seed", "1", answers=[f"save {folder}", "quit"])
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert f"Could not save the record to {folder}: Is a directory" in r.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["here"]
