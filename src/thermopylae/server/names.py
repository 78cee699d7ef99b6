"""Account names: which ones may be taken (`check_name`) and the skeleton two names collide
on (`name_key`), so nobody can sign up as "ALICE", "A1ice" or "Alíce" once "alice" exists.

A name keeps its accents as typed ("João"); a character is allowed when its canonical
decomposition, stripped of combining marks, is an ASCII letter or digit, "_" or "-", or it
is one of the few Latin letters with no decomposition (ß, ø, ł ...). Compatibility forms
(fullwidth, ligatures, superscripts, mathematical letters) and other scripts (Cyrillic
look-alikes, emoji) are refused, so a name shows the letters it is compared by.
"""

from __future__ import annotations

import unicodedata

from thermopylae.server.account_errors import AccountError

MIN_LEN = 3
MAX_LEN = 20

_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ASCII_OTHERS = frozenset("0123456789_-")

LATIN_EXTRAS = {
    "ß": "ss",
    "ẞ": "SS",
    "æ": "ae",
    "Æ": "AE",
    "œ": "oe",
    "Œ": "OE",
    "ø": "o",
    "Ø": "O",
    "ł": "l",
    "Ł": "L",
    "đ": "d",
    "Đ": "D",
    "ð": "d",
    "Ð": "D",
    "þ": "th",
    "Þ": "TH",
    "ħ": "h",
    "Ħ": "H",
    "ı": "i",
}
"""Latin letters that Unicode does not decompose into a base letter and an accent, spelled
in ASCII (what they are compared by)."""

RESERVED = (
    "admin",
    "administrator",
    "root",
    "server",
    "system",
    "chance",
    "ai",
    "bot",
    "robot",
    "guest",
    "thermopylae",
    "moderator",
    "mod",
    "staff",
    "support",
    "official",
    "easy",
    "normal",
    "hard",
    "random",
    "deleted",
    "anonymous",
    "nobody",
    "null",
    "none",
    "undefined",
    "everyone",
    "spectator",
    "player",
    "owner",
    "you",
    "me",
)
"""Names nobody may take, compared by skeleton ("Adm1n" is "admin"): the server's own
voices, the AI levels, and words the pages show in place of a player's name."""

RESERVED_PREFIXES = ("admin", "moderator", "thermopylae")
"""Skeleton prefixes refused too ("admin_team", "Thermopylae-bot"): names claiming to
speak for the site."""


def _base(char: str) -> str | None:
    """The ASCII spelling of one allowed character, or None when it is not allowed."""
    if char in LATIN_EXTRAS:
        return LATIN_EXTRAS[char]
    stripped = "".join(
        c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c)
    )
    if len(stripped) == 1 and (stripped in _ASCII_LETTERS or stripped in _ASCII_OTHERS):
        return stripped
    return None


def _describe(char: str) -> str:
    name = unicodedata.name(char, f"U+{ord(char):04X}")
    visible = char.isprintable() and not char.isspace() and not unicodedata.combining(char)
    shown = char if visible else ""
    return f'"{shown}" ({name})' if shown else name


def _skeleton(text: str) -> str:
    """Accents off, case folded, the look-alike letters merged, "_" and "-" dropped."""
    spelled = "".join(LATIN_EXTRAS.get(c, c) for c in unicodedata.normalize("NFC", text))
    bare = "".join(
        c for c in unicodedata.normalize("NFKD", spelled) if not unicodedata.combining(c)
    )
    folded = bare.casefold().translate(_FOLD)
    return folded.replace("rn", "m").replace("vv", "w")


_FOLD = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l", "_": None, "-": None})


def name_key(name: str) -> str:
    """The skeleton two names collide on: the stored unique key, and what a login looks
    up, so a name may be typed in any case or accent. Total on any text (never raises)."""
    return _skeleton(name.strip())


def check_name(name: object) -> str:
    """The name as it will be stored and shown (stripped, NFC), or AccountError(422)
    naming the rule it breaks."""
    if not isinstance(name, str):
        raise AccountError(422, "name must be a string")
    text = unicodedata.normalize("NFC", name.strip())
    if not MIN_LEN <= len(text) <= MAX_LEN:
        raise AccountError(
            422, f"name must be {MIN_LEN} to {MAX_LEN} characters long; it has {len(text)}"
        )
    for char in text:
        if _base(char) is None:
            raise AccountError(
                422,
                'name may hold only letters (Latin, accents allowed), digits, "_" and "-"; '
                f"{_describe(char)} is not allowed",
            )
    first = _base(text[0]) or ""
    if first[:1] not in _ASCII_LETTERS:
        raise AccountError(422, "name must start with a letter")
    key = name_key(text)
    if key in _RESERVED_KEYS or key.startswith(_RESERVED_PREFIX_KEYS):
        raise AccountError(422, f'the name "{text}" is reserved; choose another')
    return text


_RESERVED_KEYS = frozenset(_skeleton(word) for word in RESERVED)
_RESERVED_PREFIX_KEYS = tuple(_skeleton(word) for word in RESERVED_PREFIXES)
