"""Sentences the rules write as data (an outcome's reason, a Glory cause), put into the
player's language when they are shown.

The rules keep these in English because they are part of states and records; each game's
`text.py` lists them as msgids, a `{name}` standing for a part that varies (a number, a
space), and `reword` finds the one that matches.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from thermopylae.i18n import _


@functools.cache
def _pattern(msgid: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", msgid)
    regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
    return re.compile(regex)


def reword(sentence: str, msgids: Sequence[str]) -> str:
    """`sentence` in the current language if one of `msgids` matches it, else as it is."""
    for msgid in msgids:
        m = _pattern(msgid).fullmatch(sentence)
        if m:
            return _(msgid).format(**m.groupdict())
    return sentence
