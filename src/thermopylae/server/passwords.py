"""Password rules and hashing (Argon2id through pwdlib). A login for a name nobody holds
still verifies one hash, against a dummy, so the answer takes as long as for a real account
and its timing tells nobody which names exist.

Passwords are NFC-normalised before hashing and checking, so the same password typed on
systems that compose accents differently still matches.

The Argon2 cost is the library's default (3 passes over 64 MiB), tunable for the
server's hardware with THERMOPYLAE_ARGON2_TIME_COST and THERMOPYLAE_ARGON2_MEMORY_KIB
(each hash keeps its own parameters, so a change applies to new hashes and old ones
still verify). The test suite lowers them: it makes hundreds of accounts.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
import unicodedata
from collections.abc import Mapping

from pwdlib import PasswordHash
from pwdlib.exceptions import UnknownHashError
from pwdlib.hashers.argon2 import Argon2Hasher

from thermopylae.server.account_errors import AccountError
from thermopylae.server.names import name_key

log = logging.getLogger("thermopylae.server")

MIN_LEN = 8
MAX_LEN = 200

TIME_COST = (1, 3, 20)  # smallest, default and largest passes the environment may set
MEMORY_KIB = (1024, 65536, 1048576)  # the same for the memory, in KiB


def _cost(env: Mapping[str, str], name: str, bounds: tuple[int, int, int]) -> int:
    """A cost from the environment, its default when unset; a value out of bounds or not
    a number stops the server with a message naming it."""
    low, default, high = bounds
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SystemExit(f"{name}={raw!r}: give a whole number from {low} to {high}") from None
    if not low <= value <= high:
        raise SystemExit(f"{name}={value}: give a whole number from {low} to {high}")
    return value


def hasher_from(env: Mapping[str, str]) -> Argon2Hasher:
    return Argon2Hasher(
        time_cost=_cost(env, "THERMOPYLAE_ARGON2_TIME_COST", TIME_COST),
        memory_cost=_cost(env, "THERMOPYLAE_ARGON2_MEMORY_KIB", MEMORY_KIB),
    )


_hasher = PasswordHash((hasher_from(os.environ),))
_dummy: str | None = None
_dummy_lock = threading.Lock()


def _dummy_hash() -> str:
    """A hash of a random password, made on first need (not at import: it costs one
    Argon2 run) and kept for the process."""
    global _dummy
    with _dummy_lock:
        if _dummy is None:
            _dummy = _hasher.hash(secrets.token_urlsafe(24))
        return _dummy


def _prepared(password: str) -> str:
    return unicodedata.normalize("NFC", password)


def check_password(password: object, name: str | None = None) -> str:
    """The password to hash, or AccountError(422) naming the rule it breaks: a string of
    8 to 200 characters, not the account's name in any case or look-alike spelling."""
    if not isinstance(password, str):
        raise AccountError(422, "password must be a string")
    text = _prepared(password)
    if not MIN_LEN <= len(text) <= MAX_LEN:
        raise AccountError(
            422, f"password must be {MIN_LEN} to {MAX_LEN} characters long; it has {len(text)}"
        )
    if name is not None and name_key(text) == name_key(name):
        raise AccountError(422, "password must not be the account's name")
    return text


def hash_password(password: str) -> str:
    """The Argon2id hash to store (its own salt and parameters inside)."""
    return _hasher.hash(_prepared(password))


def verify(password: object, stored: str | None) -> bool:
    """Whether `password` matches the stored hash. With no hash (no such account, or a
    deleted one) or a password that is not a string, a dummy hash is verified instead and
    the answer is False, in about the same time as a real check."""
    if not isinstance(password, str) or stored is None:
        _hasher.verify(password if isinstance(password, str) else "", _dummy_hash())
        return False
    try:
        return _hasher.verify(_prepared(password), stored)
    except UnknownHashError:
        log.warning("an account's stored password hash is not a known format")
        return False
