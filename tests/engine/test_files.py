"""Reading a user's file without trusting it (engine/files.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from thermopylae.engine.files import MAX_DEPTH, FileProblem, parse, read_text, too_deep


def test_p4_nesting_is_measured_without_recursion() -> None:
    deep: list[object] = []
    for _ in range(200_000):  # far beyond Python's recursion limit
        deep = [deep]
    assert too_deep(deep, MAX_DEPTH)
    assert not too_deep({"a": [1, {"b": [2]}]}, 4)  # object, list, object, list
    assert too_deep({"a": [1, {"b": [2]}]}, 3)


@pytest.mark.parametrize(
    ("text", "kind", "words"),
    [
        ("[" * 50_000 + "]" * 50_000, "JSON", "nested too deeply"),
        ("a = " + "[" * 50_000 + "]" * 50_000, "TOML", "nested too deeply"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "JSON", f"more than {MAX_DEPTH} levels"),
        ("1" * 5000, "JSON", "not valid JSON"),
        ("{", "JSON", "not valid JSON"),
        ("a = ", "TOML", "not valid TOML"),
    ],
)
def test_p4_parse_refuses_in_words(text: str, kind: str, words: str) -> None:
    with pytest.raises(FileProblem, match=words):
        parse(text, kind)


def test_p4_read_text_limits_size_and_refuses_binary(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(b"x" * 101)
    with pytest.raises(FileProblem, match="too large"):
        read_text(path, limit=100)
    assert read_text(path, limit=101) == "x" * 101
    path.write_bytes(b"{\x00}")
    with pytest.raises(FileProblem, match="binary"):
        read_text(path)
    path.write_bytes(b"\xc3(")
    with pytest.raises(FileProblem, match="byte 1 is not UTF-8"):
        read_text(path)
    with pytest.raises(FileProblem, match="folder"):
        read_text(tmp_path)
    with pytest.raises(FileProblem, match="cannot read"):
        read_text(tmp_path / "missing.json")
