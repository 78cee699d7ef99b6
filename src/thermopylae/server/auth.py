"""Sessions and logins: the session and CSRF tokens, the cookies that carry them, and the
login rate limits per account and per client address.

A session token is stored only as its SHA-256 (like a seat token), so a copy of the
database opens no session. The CSRF token is the double-submit kind: a cookie the page's
script can read, sent back in the `X-CSRF-Token` header on every state-changing request
made with the session cookie (`csrf_ok`). The same-origin check of WebSocket upgrades stays
in app.py (`_same_origin`).
"""

from __future__ import annotations

import hmac
import ipaddress
import math
import secrets
from typing import Any

from thermopylae.server.account_errors import AccountError
from thermopylae.server.limits import RateLimit
from thermopylae.server.seats import token_hash

SESSION_COOKIE = "thermopylae_session"
CSRF_COOKIE = "thermopylae_csrf"
CSRF_HEADER = "X-CSRF-Token"
SESSION_DAYS = 30
SESSION_SECONDS = SESSION_DAYS * 24 * 3600

ACCOUNT_BURST = 10  # login tries on one name before the slow rate applies
ACCOUNT_EVERY_S = 30.0  # then one try per this many seconds
ADDRESS_BURST = 30  # login tries from one address (IPv6: one /64) before the slow rate
ADDRESS_EVERY_S = 5.0

__all__ = [
    "ACCOUNT_BURST",
    "ACCOUNT_EVERY_S",
    "ADDRESS_BURST",
    "ADDRESS_EVERY_S",
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "SESSION_COOKIE",
    "SESSION_DAYS",
    "SESSION_SECONDS",
    "LoginLimits",
    "cookie_args",
    "csrf_ok",
    "csrf_token",
    "delete_cookie_args",
    "new_token",
    "token_hash",
]


def new_token() -> tuple[str, str]:
    """A new session token and its SHA-256 hex digest: the token goes in the cookie, only
    the digest in the database."""
    token = secrets.token_urlsafe(32)
    return token, token_hash(token)


def csrf_token() -> str:
    return secrets.token_urlsafe(32)


def csrf_ok(cookie: str | None, header: str | None) -> bool:
    """Whether a request's CSRF header matches its CSRF cookie (compared in constant time;
    a missing or empty one never matches)."""
    if not cookie or not header:
        return False
    return hmac.compare_digest(cookie.encode(), header.encode())


def cookie_args(secure: bool, *, script_readable: bool = False) -> dict[str, Any]:
    """Keyword arguments of Starlette's `Response.set_cookie` (besides key and value):
    HttpOnly unless `script_readable` (the CSRF cookie, which the page sends back in a
    header), SameSite=Lax, Secure when the site is served over https, path "/", kept for
    SESSION_DAYS."""
    return {
        "max_age": SESSION_SECONDS,
        "path": "/",
        "secure": secure,
        "httponly": not script_readable,
        "samesite": "lax",
    }


def delete_cookie_args(secure: bool, *, script_readable: bool = False) -> dict[str, Any]:
    """Keyword arguments of Starlette's `Response.delete_cookie`, matching `cookie_args`
    (a browser drops a cookie only when its path and flags agree)."""
    args = cookie_args(secure, script_readable=script_readable)
    del args["max_age"]
    return args


def _address_key(address: str) -> str:
    """The bucket of a client address: an IPv6 address counts as its /64, since one host
    usually holds a whole /64; anything else (IPv4, a name) as itself."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:100]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip), 64), strict=False))
    return str(ip)


class LoginLimits:
    """Token buckets on login tries: one per account name (its `name_key`, whether or not
    such an account exists, so the refusal reveals nothing) and one per client address.
    Each is counted independently: a guesser spread over many addresses is stopped by the
    account's bucket, one address trying many names by its own."""

    def __init__(
        self,
        account: RateLimit | None = None,
        address: RateLimit | None = None,
    ) -> None:
        self.account = account or RateLimit(1 / ACCOUNT_EVERY_S, ACCOUNT_BURST)
        self.address = address or RateLimit(1 / ADDRESS_EVERY_S, ADDRESS_BURST)

    def allow(self, key: str, address: str, now: float | None = None) -> None:
        """Count one login try, or raise AccountError(429) saying how long to wait. The
        address is checked first, so a try refused for its address costs the account
        nothing; a try refused for the account still counts against its address."""
        where = _address_key(address)
        if not self.address.allow(where, now):
            raise _refused("from this address", self.address, where)
        account = key[:64]
        if not self.account.allow(account, now):
            raise _refused("for this name", self.account, account)

    def succeeded(self, key: str) -> None:
        """After a correct password: the account's bucket starts full again (its owner has
        proved who they are). The address's bucket is left as it is, so logging in to an
        account of one's own does not buy more guesses at others."""
        self.account.buckets.pop(key[:64], None)


def _refused(what: str, limit: RateLimit, key: str) -> AccountError:
    allowance, _ = limit.buckets[key]
    wait = max(1, math.ceil((1 - allowance) / limit.rate - 1e-9))
    return AccountError(
        429, f"too many login attempts {what}; try again in {wait} s", retry_after=wait
    )
