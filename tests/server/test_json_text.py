"""The pushes' JSON text (app.json_text) is the standard library's compact text, whatever
the keys and numbers: string keys, other keys, integers past 64 bits; the bytes a socket's
`push` writes (app.json_bytes) are that text in UTF-8."""

from __future__ import annotations

import json
from typing import Any

import pytest

from thermopylae.server.app import json_bytes, json_text

CASES: list[dict[Any, Any]] = [
    {"type": "update", "log": ["Ça va — ok", "x"], "view": {"a": [1, 2.5, None, True]}},
    {"view": {1: "one", 2: {"3": 4}}, "k": "v"},  # keys that are not strings
    {"big": 2**70, "small": -(2**65)},  # past what orjson writes
    {"nested": {"deep": [{"x": 0.25}, {"y": 1.0}]}},
]


@pytest.mark.parametrize("message", CASES)
def test_the_text_is_the_standard_librarys(message: dict[Any, Any]) -> None:
    expected = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    assert json_text(message) == expected
    assert json_bytes(message) == expected.encode()
