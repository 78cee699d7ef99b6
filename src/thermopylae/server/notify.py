"""Telling a player something happened at a table: the checks on their webhook URL and
email address, the texts in their language, and the sending of one message.

What is sent is only what a spectator may see: the event, the game's title, the table's id
and link, one sentence, and the seat's name. The durable queue around these senders (one
row per message, retries, claims across processes) is `thermopylae.server.outbox`.

A webhook target is checked twice: when the player saves it and again just before each
send, because the name's addresses may have changed in between (DNS rebinding). An
address on loopback, private, link-local or otherwise non-public ranges is refused unless
the server was started with `--allow-private-webhooks`.
"""

from __future__ import annotations

import ipaddress
import re
import smtplib
import socket
import ssl
import time
from collections.abc import Mapping
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from functools import cache
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from thermopylae.i18n import _, language

EVENTS = ("your_turn", "invitation", "game_over", "time_low", "test")
"""Every event a notice can be about; `test` is the settings page's button."""
CHOSEN = ("your_turn", "invitation", "game_over", "time_low")
"""The events a player can choose (all of them for a new account)."""
BODY_KEYS = frozenset({"event", "game", "title", "table", "link", "text", "seat"})
"""The only keys a notice's body may carry: nothing a spectator could not see."""

MAX_URL = 500
MAX_EMAIL = 254
WEBHOOK_TIMEOUT = 10.0  # seconds for one POST to a webhook
SMTP_TIMEOUT = 10.0  # seconds for one SMTP conversation step
USER_AGENT = "thermopylae-notifications"

DISCORD_HOSTS = frozenset(
    {"discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com"}
)
SLACK_HOSTS = frozenset({"hooks.slack.com"})


class NotifyError(ValueError):
    """A webhook URL, an email address or a notice that cannot be used, with a text saying
    what is wrong (shown to the player as it is)."""


class DeliveryError(Exception):
    """One send failed. `transient`: worth trying again soon (a timeout, a refused
    connection, a 5xx); otherwise the endpoint answered that it will not take it."""

    def __init__(self, message: str, transient: bool = True) -> None:
        super().__init__(message)
        self.transient = transient


# --- checks -------------------------------------------------------------------------


def _blocked(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether `ip` is not a public address, looking inside the IPv6 forms that carry an
    IPv4 address (mapped, 6to4, Teredo) so they cannot smuggle a private one."""
    if isinstance(ip, ipaddress.IPv6Address):
        inner: list[ipaddress.IPv4Address] = []
        if ip.ipv4_mapped is not None:
            inner.append(ip.ipv4_mapped)
        if ip.sixtofour is not None:
            inner.append(ip.sixtofour)
        if ip.teredo is not None:
            inner.extend(ip.teredo)
        if any(_blocked(v4) for v4 in inner):
            return True
    return (
        not ip.is_global
        or ip.is_loopback
        or ip.is_private
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
    )


def _addresses(host: str, port: int) -> list[str]:
    """Every address `host` stands for, in the resolver's order (itself when it is one)."""
    try:
        return [str(ipaddress.ip_address(host))]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise NotifyError(f"the webhook's host {host!r} cannot be resolved") from exc
    found = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not found:
        raise NotifyError(f"the webhook's host {host!r} has no address")
    return found


@dataclass(frozen=True)
class Target:
    """A checked webhook: its normalised URL, host, port and the addresses it resolved
    to when checked (the ones a send connects to)."""

    url: str
    scheme: str
    host: str
    port: int | None
    addresses: tuple[str, ...]


def resolve_webhook(url: str, allow_private: bool = False) -> Target:
    """`check_webhook` with the addresses found: a send connects to one of these, so a
    name that changes its address between the check and the connection cannot move the
    request inside."""
    if not isinstance(url, str):
        raise NotifyError("the webhook URL must be a string")
    url = url.strip()
    if not url:
        raise NotifyError("the webhook URL is empty")
    if len(url) > MAX_URL:
        raise NotifyError(f"the webhook URL is longer than {MAX_URL} characters")
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in url):
        raise NotifyError("the webhook URL contains spaces or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise NotifyError(f"the webhook URL is malformed: {exc}") from exc
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise NotifyError("the webhook URL must start with http:// or https://")
    if parts.username is not None or parts.password is not None:
        raise NotifyError("the webhook URL must not contain a user name or password")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise NotifyError("the webhook URL has no host")
    try:
        host = host.encode("idna").decode("ascii").lower()
    except UnicodeError as exc:
        raise NotifyError(f"the webhook's host {parts.hostname!r} is not a valid name") from exc
    addresses = _addresses(host, port or (443 if scheme == "https" else 80))
    if not allow_private:
        for address in addresses:
            if _blocked(ipaddress.ip_address(address.split("%")[0])):
                raise NotifyError(
                    f"the webhook's host {host!r} is on a loopback, private or reserved "
                    f"address ({address}); only public addresses are allowed"
                )
    netloc = _netloc(host, port)
    normal = urlunsplit((scheme, netloc, parts.path or "/", parts.query, parts.fragment))
    return Target(normal, scheme, host, port, tuple(addresses))


def check_webhook(url: str, allow_private: bool = False) -> str:
    """`url` normalised (scheme and host in lower case), or `NotifyError` saying why it
    cannot be a webhook target: not http(s), too long, credentials in it, no host, a host
    that does not resolve, or one that resolves to a non-public address (refused unless
    `allow_private`: a request from this server must not reach its own network)."""
    return resolve_webhook(url, allow_private).url


def _netloc(host: str, port: int | None) -> str:
    netloc = f"[{host}]" if ":" in host else host
    return netloc if port is None else f"{netloc}:{port}"


_LOCAL = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}$")
_LABEL = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")


def check_email(addr: str) -> str:
    """`addr` with its domain in lower case, or `NotifyError`: the plain shape
    `name@domain.tld`, at most 254 characters, nothing that could add a mail header."""
    if not isinstance(addr, str):
        raise NotifyError("the email address must be a string")
    addr = addr.strip()
    if not addr:
        raise NotifyError("the email address is empty")
    if len(addr) > MAX_EMAIL:
        raise NotifyError(f"the email address is longer than {MAX_EMAIL} characters")
    if addr.count("@") != 1:
        raise NotifyError("the email address must have exactly one '@'")
    local, domain = addr.split("@")
    if not _LOCAL.match(local) or local.startswith(".") or local.endswith(".") or ".." in local:
        raise NotifyError(f"the part before '@' in {addr!r} is not a valid mailbox name")
    try:
        ascii_domain = domain.rstrip(".").encode("idna").decode("ascii").lower()
    except UnicodeError as exc:
        raise NotifyError(f"the domain of {addr!r} is not a valid name") from exc
    labels = ascii_domain.split(".")
    if len(labels) < 2 or not all(_LABEL.match(label) for label in labels):
        raise NotifyError(f"the domain of {addr!r} is not a valid name (like example.org)")
    return f"{local}@{domain.rstrip('.').lower()}"


def check_body(body: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of `body`, or `NotifyError` when it has a key outside `BODY_KEYS` or a value
    that is not plain text or a number: a notice never carries a token, a hand or a deck."""
    if not isinstance(body, Mapping):
        raise NotifyError("a notice's body must be an object")
    extra = sorted(str(k) for k in body if k not in BODY_KEYS)
    if extra:
        allowed = ", ".join(sorted(BODY_KEYS))
        raise NotifyError(f"a notice's body may not carry {', '.join(extra)} (only {allowed})")
    for k, v in body.items():
        if v is not None and (isinstance(v, bool) or not isinstance(v, str | int | float)):
            raise NotifyError(f"a notice's {k} must be text or a number")
    return dict(body)


# --- texts --------------------------------------------------------------------------


def text(event: str, title: str, table_id: str | None, seat: str | None, lang: str) -> str:
    """The sentence a notice says, in `lang` (English when it has no catalog). `seat` is
    the seat's name as the game calls it (not translated: it is notation)."""
    with language(lang):
        game = _(title) if title else ""
        table = table_id or ""
        if event == "your_turn":
            if seat:
                return _("Your turn in {game} (table {table}, seat {seat}).").format(
                    game=game, table=table, seat=seat
                )
            return _("Your turn in {game} (table {table}).").format(game=game, table=table)
        if event == "invitation":
            if seat:
                return _("You are invited to play {game} (table {table}, seat {seat}).").format(
                    game=game, table=table, seat=seat
                )
            return _("You are invited to play {game} (table {table}).").format(
                game=game, table=table
            )
        if event == "game_over":
            return _("The game of {game} is over (table {table}).").format(game=game, table=table)
        if event == "time_low":
            if seat:
                return _("Your time is running low in {game} (table {table}, seat {seat}).").format(
                    game=game, table=table, seat=seat
                )
            return _("Your time is running low in {game} (table {table}).").format(
                game=game, table=table
            )
        if event == "test":
            return _("This is a test notification from thermopylae: your notifications work.")
    raise NotifyError(f"unknown notification event {event!r} (one of {', '.join(EVENTS)})")


def table_link(base: str, table_id: str) -> str:
    """The table's page (the one a spectator opens: no seat token in it)."""
    return f"{base.rstrip('/')}/table/{table_id}"


def make_body(
    event: str,
    game: str,
    title: str,
    table_id: str | None,
    base: str,
    seat: str | None,
    lang: str,
) -> dict[str, Any]:
    """A notice's body with the text in `lang` and the table's link under `base`."""
    return {
        "event": event,
        "game": game,
        "title": title,
        "table": table_id,
        "link": table_link(base, table_id) if table_id else base.rstrip("/") + "/",
        "text": text(event, title, table_id, seat, lang),
        "seat": seat,
    }


# --- webhooks -----------------------------------------------------------------------


def _line(body: Mapping[str, Any]) -> tuple[str, str]:
    return str(body.get("text") or body.get("event") or ""), str(body.get("link") or "")


def payload(url: str, body: Mapping[str, Any]) -> dict[str, Any]:
    """What to POST to `url`: Discord's and Slack's incoming-webhook formats when the URL
    is theirs, else the body itself (generic JSON)."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    words, link = _line(body)
    if host in DISCORD_HOSTS and parts.path.startswith("/api/webhooks/"):
        content = f"{words}\n{link}".strip()[:2000]
        return {"content": content, "allowed_mentions": {"parse": []}}
    if host in SLACK_HOSTS:
        safe = words.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        return {"text": f"{safe}\n{link}".strip()}
    return dict(body)


@cache
def _tls() -> ssl.SSLContext:
    """One TLS context for every send (httpx's own default; loading its CA bundle takes
    tens of milliseconds, too long to repeat for each POST)."""
    return httpx.create_ssl_context()


def send_webhook(
    url: str,
    body: Mapping[str, Any],
    allow_private: bool = False,
    timeout: float = WEBHOOK_TIMEOUT,
) -> None:
    """POST the notice to `url`, checking the target again first (its addresses may have
    changed since it was saved) and connecting to an address that check accepted (the
    name still goes in the Host header and, for https, in the TLS handshake, where the
    certificate is verified against it). Redirects are not followed (one could lead to a
    private address); anything but a 2xx answer is a `DeliveryError`."""
    try:
        target = resolve_webhook(url, allow_private)
    except NotifyError as exc:
        raise DeliveryError(str(exc), transient=False) from exc
    data = payload(target.url, body)
    parts = urlsplit(target.url)
    headers = {"User-Agent": USER_AGENT, "Host": _netloc(target.host, target.port)}
    extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
    host = target.host
    answer: httpx.Response | None = None
    with httpx.Client(
        timeout=timeout, follow_redirects=False, trust_env=False, verify=_tls()
    ) as client:
        for i, address in enumerate(target.addresses):
            pinned = urlunsplit(parts._replace(netloc=_netloc(address, target.port)))
            try:
                answer = client.post(pinned, json=data, headers=headers, extensions=extensions)
                break
            except httpx.ConnectError as exc:  # this address is down: the next one
                if i == len(target.addresses) - 1:
                    raise DeliveryError(f"cannot reach {host}: {_short(exc)}") from exc
            except httpx.TimeoutException as exc:
                raise DeliveryError(f"{host} did not answer within {timeout:g} s") from exc
            except httpx.HTTPError as exc:
                raise DeliveryError(f"cannot reach {host}: {_short(exc)}") from exc
    assert answer is not None
    code = answer.status_code
    if 200 <= code < 300:
        return
    if 300 <= code < 400:
        raise DeliveryError(f"{host} answered HTTP {code} (redirects are not followed)", False)
    raise DeliveryError(f"{host} answered HTTP {code}", transient=code >= 500 or code == 429)


# --- email --------------------------------------------------------------------------


@dataclass(frozen=True)
class Mailer:
    """The SMTP server notices go through (`thermopylae serve --smtp HOST:PORT`) and the
    sender address they come from."""

    host: str
    port: int
    sender: str
    timeout: float = SMTP_TIMEOUT

    @classmethod
    def from_spec(cls, spec: str, sender: str) -> Mailer:
        """A mailer from `HOST:PORT` and a sender address, or `NotifyError` saying which
        is wrong."""
        host, sep, port = spec.strip().rpartition(":")
        host = host.strip("[]")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise NotifyError(f"--smtp takes HOST:PORT (like localhost:25), not {spec!r}")
        return cls(host, int(port), check_email(sender))


def send_email(mailer: Mailer, to: str, body: Mapping[str, Any]) -> None:
    """Mail the notice to `to` through `mailer`: the sentence as the subject, the sentence
    and the table's link as the text; marked auto-generated so auto-replies stay away."""
    try:
        to = check_email(to)
    except NotifyError as exc:
        raise DeliveryError(str(exc), transient=False) from exc
    words, link = _line(body)
    msg = EmailMessage()
    msg["Subject"] = " ".join(words.split())[:200] or "thermopylae"
    msg["From"] = mailer.sender
    msg["To"] = to
    msg["Date"] = formatdate(time.time(), localtime=False)
    msg["Message-ID"] = make_msgid(domain=mailer.sender.rpartition("@")[2])
    msg["Auto-Submitted"] = "auto-generated"
    msg.set_content(f"{words}\n\n{link}\n")
    try:
        with smtplib.SMTP(mailer.host, mailer.port, timeout=mailer.timeout) as smtp:
            smtp.send_message(msg)
    except smtplib.SMTPRecipientsRefused as exc:
        raise DeliveryError(f"the mail server refused {to}", transient=False) from exc
    except smtplib.SMTPResponseException as exc:
        raise DeliveryError(
            f"the mail server answered {exc.smtp_code}", transient=exc.smtp_code < 500
        ) from exc
    except (smtplib.SMTPException, OSError) as exc:
        raise DeliveryError(
            f"cannot reach the mail server {mailer.host}:{mailer.port}: {_short(exc)}"
        ) from exc


def _short(exc: BaseException) -> str:
    words = str(exc).splitlines()
    return (words[0] if words else type(exc).__name__)[:200]
