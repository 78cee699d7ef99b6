"""Accounts over HTTP: sign up, log in and out, the account's page (`/api/me`), its
password, its notifications, and claiming a guest seat.

A session is a random token in an HttpOnly cookie (only its hash is stored); every
state-changing request made with that cookie must repeat the session's CSRF token in the
`X-CSRF-Token` header (the page reads it from a cookie the script can see, a forged form
on another site cannot). Login answers the same text for an unknown name and a wrong
password, after the same password work.
"""

from __future__ import annotations

import asyncio
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from thermopylae import i18n
from thermopylae.server import account_tables, auth, notify, outbox
from thermopylae.server.account_errors import AccountError
from thermopylae.server.account_store import EVENTS, Account, Accounts
from thermopylae.server.live import Live
from thermopylae.server.names import check_name, name_key
from thermopylae.server.passwords import check_password, hash_password, verify
from thermopylae.server.schema import errors
from thermopylae.server.tables import Tables

WRONG = "name or password is wrong"


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(max_length=200, description="the account's name")
    password: str = Field(max_length=1000, description="its password")


NAME_PATTERN = "^[A-Za-zÀ-ÖØ-öø-ÿ][0-9A-Za-zÀ-ÖØ-öø-ÿ_-]{2,19}$"
"""The names the schema documents (names.py checks them, with more Latin letters)."""


class SignUp(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(
        max_length=200,
        description="3 to 20 letters (Latin, accents allowed), digits, _ and -, starting "
        "with a letter; not reserved, nor too like a name that is taken",
        json_schema_extra={"pattern": NAME_PATTERN},
    )
    password: str = Field(
        max_length=1000,
        description="8 to 200 characters, not the name",
        json_schema_extra={"minLength": 8, "maxLength": 200},
    )


class PasswordChange(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    old: str = Field(max_length=1000)
    new: str = Field(max_length=1000)


class Deletion(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    password: str = Field(max_length=1000)


class NotificationsIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    webhook: str | None = Field(default=None, max_length=2000)
    email: str | None = Field(default=None, max_length=1000)
    events: list[str] = Field(default_factory=lambda: list(EVENTS), max_length=10)
    low_share: float = Field(default=0.1, description="warn when this share of the bank is left")
    lang: str | None = Field(default=None, max_length=20)


class Claim(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: str = Field(max_length=200, description="the guest seat's token")


@dataclass
class Session:
    account: Account
    token_hash: str
    csrf: str


@dataclass
class AccountSettings:
    """What the server was started with that the account pages depend on."""

    allow_private_webhooks: bool = False
    mail: notify.Mailer | None = None
    deliverer: Callable[[], outbox.Deliverer | None] = lambda: None


def _secure(request: Request) -> bool:
    return request.url.scheme == "https"


async def session_of(request: HTTPConnection, accounts: Accounts) -> Session | None:
    """The session of a request or a WebSocket, if its cookie names a live one (on a
    socket the origin check stands in for CSRF: a page of another site cannot open it)."""
    token = request.cookies.get(auth.SESSION_COOKIE)
    if not token or len(token) > 200:
        return None
    h = auth.token_hash(token)
    found = await asyncio.to_thread(accounts.session, h)
    return None if found is None else Session(found[0], h, found[1])


def check_csrf(request: Request, session: Session) -> None:
    header = request.headers.get(auth.CSRF_HEADER, "")
    if not header or not hmac.compare_digest(header.encode(), session.csrf.encode()):
        raise AccountError(
            403, f"a request made with your login needs the {auth.CSRF_HEADER} header"
        )


async def acting_session(request: Request, accounts: Accounts) -> Session | None:
    """The session of a state-changing request, its CSRF token checked (None: no login)."""
    s = await session_of(request, accounts)
    if s is not None:
        check_csrf(request, s)
    return s


async def logged_in(request: Request, accounts: Accounts, acting: bool = True) -> Session:
    """The request's session, its CSRF token checked if the request changes something
    (`acting`); without a login, 401. Every route that needs an account asks here."""
    s = await (acting_session if acting else session_of)(request, accounts)
    if s is None:
        raise AccountError(401, "log in first")
    return s


async def acting_seat(
    request: Request, accounts: Accounts, tables: Tables, live: Live, token: str | None
) -> int | None:
    """The seat a request acts for at `live`'s table: its token's seat when it brings one,
    else the seat of its account (logged in, CSRF checked); None: not a player there."""
    session = None if token else await acting_session(request, accounts)
    return tables.seat_of(live, token, None if session is None else session.account.id)


def router(tables: Any, accounts: Any, settings: AccountSettings) -> APIRouter:
    """The account routes, over the app's `tables()` and `Accounts` (callables, since
    the tables are made at start-up)."""
    r = APIRouter()
    limits = auth.LoginLimits()

    def acc() -> Accounts:
        a: Accounts = accounts()
        return a

    async def login_response(
        response: Response, request: Request, account: Account, status: int = 200
    ) -> dict[str, Any]:
        token, h = auth.new_token()
        csrf = auth.csrf_token()
        await asyncio.to_thread(acc().open_session, account.id, h, csrf, auth.SESSION_SECONDS)
        secure = _secure(request)
        response.set_cookie(auth.SESSION_COOKIE, token, **auth.cookie_args(secure))
        response.set_cookie(
            auth.CSRF_COOKIE, csrf, **auth.cookie_args(secure, script_readable=True)
        )
        response.status_code = status
        return {"name": account.name, "csrf": csrf}

    async def required(request: Request, acting: bool = True) -> Session:
        return await logged_in(request, acc(), acting)

    @r.post(
        "/api/accounts",
        status_code=201,
        summary="Sign up (and log in)",
        responses=errors(409, 422, 429),
    )
    async def sign_up(body: SignUp, request: Request, response: Response) -> dict[str, Any]:
        name = check_name(body.name)
        password = check_password(body.password, name)
        limits.allow(name_key(name), _client(request))
        hashed = await asyncio.to_thread(hash_password, password)
        lang = i18n.negotiate(request.headers.get("accept-language"))
        account = await asyncio.to_thread(acc().create, name, name_key(name), hashed, lang)
        return await login_response(response, request, account, 201)

    @r.post("/api/login", summary="Log in", responses=errors(401, 422, 429))
    async def login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        key = name_key(body.name.strip())
        limits.allow(key, _client(request))
        account = await asyncio.to_thread(acc().by_key, key)
        stored = None if account is None else account.password_hash
        ok = await asyncio.to_thread(verify, body.password, stored)  # same work when unknown
        if account is None or not ok:
            raise AccountError(401, WRONG)
        limits.succeeded(key)
        return await login_response(response, request, account)

    @r.post("/api/logout", summary="Log out", responses=errors(403))
    async def logout(request: Request, response: Response) -> dict[str, Any]:
        s = await acting_session(request, acc())
        if s is not None:
            await asyncio.to_thread(acc().close_session, s.token_hash)
        secure = _secure(request)
        response.delete_cookie(auth.SESSION_COOKIE, **auth.delete_cookie_args(secure))
        response.delete_cookie(
            auth.CSRF_COOKIE, **auth.delete_cookie_args(secure, script_readable=True)
        )
        return {"ok": True}

    @r.get("/api/me", summary="Your account and your tables", responses=errors(401))
    async def me(request: Request) -> dict[str, Any]:
        s = await required(request, acting=False)
        mine = await asyncio.to_thread(acc().tables_of, s.account.id)
        return {
            **s.account.public(),
            "csrf": s.csrf,
            "email_available": settings.mail is not None,
            "tables": account_tables.listing(mine),
        }

    @r.put("/api/me/password", summary="Change your password", responses=errors(401, 403, 422))
    async def password(body: PasswordChange, request: Request) -> dict[str, Any]:
        s = await required(request)
        ok = await asyncio.to_thread(verify, body.old, s.account.password_hash)
        if not ok:
            raise AccountError(403, "the current password is wrong")
        new = check_password(body.new, s.account.name)
        hashed = await asyncio.to_thread(hash_password, new)
        await asyncio.to_thread(acc().set_password, s.account.id, hashed, s.token_hash)
        return {"ok": True}

    @r.delete("/api/me", summary="Delete your account", responses=errors(401, 403, 422))
    async def delete(body: Deletion, request: Request, response: Response) -> dict[str, Any]:
        s = await required(request)
        ok = await asyncio.to_thread(verify, body.password, s.account.password_hash)
        if not ok:
            raise AccountError(403, "the password is wrong")
        t: Tables = tables()
        mine = await asyncio.to_thread(acc().tables_of, s.account.id, 10_000)
        await account_tables.leave_all(t, s.account.id, mine)
        await asyncio.to_thread(acc().delete, s.account.id)
        secure = _secure(request)
        response.delete_cookie(auth.SESSION_COOKIE, **auth.delete_cookie_args(secure))
        return {"ok": True}

    @r.put(
        "/api/me/notifications",
        summary="Your notification settings",
        responses=errors(401, 403, 422),
    )
    async def notifications(body: NotificationsIn, request: Request) -> dict[str, Any]:
        s = await required(request)
        webhook = None
        if body.webhook:
            webhook = await asyncio.to_thread(
                _checked, notify.check_webhook, body.webhook, settings.allow_private_webhooks
            )
        email = None
        if body.email:
            if settings.mail is None:
                raise AccountError(422, "email is off on this server (it runs without --smtp)")
            email = _checked(notify.check_email, body.email)
        unknown = sorted(set(body.events) - set(EVENTS))
        if unknown:
            raise AccountError(
                422, f"unknown event(s) {', '.join(unknown)}; events: {', '.join(EVENTS)}"
            )
        if not 0.01 <= body.low_share <= 0.9:
            raise AccountError(422, "low_share must be between 0.01 and 0.9")
        lang = None if body.lang is None else i18n.negotiate(body.lang)
        await asyncio.to_thread(
            acc().set_notifications,
            s.account.id,
            webhook,
            email,
            sorted(set(body.events)),
            body.low_share,
            lang,
        )
        found = await asyncio.to_thread(acc().by_id, s.account.id)
        assert found is not None
        return found.public()

    @r.post(
        "/api/me/notifications/test",
        summary="Send a test notification now",
        responses=errors(401, 403, 422),
    )
    async def test(request: Request) -> dict[str, Any]:
        s = await required(request)
        t: Tables = tables()
        return await account_tables.test_notice(t, s.account, settings.deliverer())

    @r.post(
        "/api/tables/{table_id}/claim",
        summary="Hold a guest seat with your account",
        responses=errors(401, 403, 404, 409, 422),
    )
    async def claim(table_id: str, body: Claim, request: Request) -> dict[str, Any]:
        s = await required(request)
        t: Tables = tables()
        seat = await account_tables.claim(t, table_id, body.token, s.account)
        return {"table": table_id, "seat": seat}

    return r


def _checked(fn: Any, *args: Any) -> str:
    try:
        out: str = fn(*args)
    except notify.NotifyError as exc:
        raise AccountError(422, str(exc)) from exc
    return out


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"
