"""Notifications, the parts without a database: the webhook and email checks (SSRF
refusals, clear errors), the payload formats of Discord, Slack and generic receivers, and
the texts in each language."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from tests.server.notify_helpers import BODY, Receiver
from thermopylae import i18n
from thermopylae.server.notify import (
    BODY_KEYS,
    DeliveryError,
    Mailer,
    NotifyError,
    check_email,
    check_webhook,
    payload,
    send_webhook,
    text,
)

# --- checks -------------------------------------------------------------------------

PRIVATE = [
    "http://127.0.0.1/hook",
    "http://127.8.9.10:8080/",
    "http://10.1.2.3/",
    "http://172.16.0.9/",
    "http://192.168.1.20/x",
    "http://169.254.169.254/latest/meta-data",
    "http://[::1]/",
    "http://[fe80::1]/",
    "http://[fd00::5]/",
    "http://[::ffff:127.0.0.1]/",
    "http://0.0.0.0/",
    "http://224.0.0.1/",
    "http://100.64.0.1/",
    "http://localhost/hook",
    "http://2130706433/",  # 127.0.0.1 written as one number
    "http://0x7f.0.0.1/",
]


@pytest.mark.parametrize("url", PRIVATE)
def test_non_public_webhook_targets_are_refused_unless_allowed(url: str) -> None:
    with pytest.raises(NotifyError, match="loopback, private or reserved"):
        check_webhook(url)
    assert check_webhook(url, allow_private=True).startswith("http://")


def test_a_public_address_passes_normalised() -> None:
    assert check_webhook("  HTTPS://8.8.8.8:8443/Hook?a=1 ") == "https://8.8.8.8:8443/Hook?a=1"
    assert check_webhook("http://8.8.4.4") == "http://8.8.4.4/"


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("", "empty"),
        ("ftp://8.8.8.8/x", "http:// or https://"),
        ("javascript:alert(1)", "http:// or https://"),
        ("8.8.8.8/hook", "http:// or https://"),
        ("http://user:secret@8.8.8.8/", "user name or password"),
        ("http:///only-a-path", "no host"),
        ("http://8.8.8.8:99999/", "malformed"),
        ("http://8.8.8.8/a b", "spaces or control"),
        ("http://8.8.8.8/" + "a" * 500, "longer than 500"),
    ],
)
def test_bad_webhook_urls_say_what_is_wrong(url: str, why: str) -> None:
    with pytest.raises(NotifyError, match=why):
        check_webhook(url, allow_private=True)


def fake_dns(monkeypatch: pytest.MonkeyPatch, answers: dict[str, str]) -> None:
    def lookup(host: str, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        if host not in answers:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (answers[host], port))]

    monkeypatch.setattr(socket, "getaddrinfo", lookup)


def test_names_are_resolved_and_checked_again_at_send_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_dns(monkeypatch, {"hooks.example.org": "93.184.215.14"})
    assert check_webhook("https://Hooks.Example.org/x") == "https://hooks.example.org/x"
    with pytest.raises(NotifyError, match="cannot be resolved"):
        check_webhook("https://nowhere.example.org/x")
    # the name now points inside (DNS rebinding): the send refuses without connecting
    fake_dns(monkeypatch, {"hooks.example.org": "10.0.0.7"})
    with pytest.raises(DeliveryError, match="private") as refused:
        send_webhook("https://hooks.example.org/x", {"text": "hi"})
    assert not refused.value.transient


def test_a_send_connects_to_a_checked_address_under_the_name(
    monkeypatch: pytest.MonkeyPatch, receiver: Receiver
) -> None:
    real = socket.getaddrinfo
    asked: list[str] = []

    def lookup(host: str, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host != "hooks.example.test":
            return real(host, port, *args, **kwargs)
        asked.append(host)
        # nothing listens on the first address: the send goes on to the second
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in LOOPBACKS]

    LOOPBACKS = ("127.0.0.2", "127.0.0.1")
    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    send_webhook(f"http://hooks.example.test:{receiver.port}/hook", BODY, allow_private=True)
    assert asked == ["hooks.example.test"]  # looked up once, by the check, never again
    assert receiver.hosts == [f"hooks.example.test:{receiver.port}"]
    assert receiver.posts == [("/hook", BODY)]


def test_email_addresses() -> None:
    assert check_email(" Ann.B+games@Example.ORG ") == "Ann.B+games@example.org"
    for bad, why in [
        ("", "empty"),
        ("ann", "exactly one '@'"),
        ("a@b@example.org", "exactly one '@'"),
        ("ann@localhost", "domain"),
        ("ann@-x.org", "domain"),
        ("a b@example.org", "mailbox"),
        (".ann@example.org", "mailbox"),
        ("ann@example.org\r\nBcc: eve@example.org", "exactly one '@'"),
        ("ann@example.org\r\nBcc: x", "domain"),
        ("a" * 250 + "@example.org", "longer than 254"),
    ]:
        with pytest.raises(NotifyError, match=why):
            check_email(bad)


def test_smtp_spec() -> None:
    assert Mailer.from_spec("mail.example.org:587", "game@example.org") == Mailer(
        "mail.example.org", 587, "game@example.org"
    )
    for bad in ("mail.example.org", ":25", "host:0", "host:port"):
        with pytest.raises(NotifyError, match="HOST:PORT"):
            Mailer.from_spec(bad, "game@example.org")
    with pytest.raises(NotifyError):
        Mailer.from_spec("host:25", "not an address")


# --- payloads and texts -------------------------------------------------------------


def test_the_body_holds_only_what_a_spectator_sees() -> None:
    assert set(BODY) == BODY_KEYS
    assert BODY["link"] == "http://g.example/table/t1"
    assert BODY["text"] == "Your turn in 300: Earth & Water (table t1, seat persia)."


@pytest.mark.parametrize(
    "url",
    ["https://discord.com/api/webhooks/123/abc", "https://discordapp.com/api/webhooks/1/x"],
)
def test_discord_payload(url: str) -> None:
    got = payload(url, BODY)
    assert got == {
        "content": f"{BODY['text']}\n{BODY['link']}",
        "allowed_mentions": {"parse": []},
    }


def test_slack_payload_escapes_its_markup() -> None:
    body = {**BODY, "text": "a <b> & c"}
    got = payload("https://hooks.slack.com/services/T0/B0/XX", body)
    assert got == {"text": f"a &lt;b&gt; &amp; c\n{BODY['link']}"}


def test_generic_payload_is_the_body() -> None:
    assert payload("https://example.org/hook", BODY) == BODY
    # a Discord host without its webhook path is not Discord's format
    assert payload("https://discord.com/other", BODY) == BODY


def test_texts_in_each_language() -> None:
    with i18n.language("fr"):
        title_fr = i18n._("300: Earth & Water")
    got = text("your_turn", "300: Earth & Water", "t9", "greece", "fr")
    assert got == f"À vous de jouer dans {title_fr} (table t9, place greece)."
    assert text("game_over", "300 Spartans", "t9", None, "pt").startswith("A partida de")
    assert text("invitation", "300 Spartans", "t9", "p2", "it").startswith("Hai ricevuto")
    assert "tempo" in text("time_low", "300 Spartans", "t9", "p2", "pt")
    assert text("test", "", None, None, "xx").startswith("This is a test")  # unknown: English
    assert i18n.current() == "en"  # the caller's language is left as it was
    with pytest.raises(NotifyError, match="unknown notification event"):
        text("moved", "300 Spartans", "t9", None, "en")
