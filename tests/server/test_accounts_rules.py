"""The account rules on their own (issue 18): which names may be taken and which collide,
password rules and hashing, session tokens and cookies, and the login rate limits."""

from __future__ import annotations

import hashlib
import re

import pytest

from thermopylae.server import passwords
from thermopylae.server.account_errors import AccountError
from thermopylae.server.auth import (
    ACCOUNT_BURST,
    ACCOUNT_EVERY_S,
    ADDRESS_BURST,
    ADDRESS_EVERY_S,
    SESSION_SECONDS,
    LoginLimits,
    cookie_args,
    csrf_ok,
    csrf_token,
    delete_cookie_args,
    new_token,
)
from thermopylae.server.names import check_name, name_key
from thermopylae.server.passwords import check_password, hash_password, verify


def refused(call: object, *args: object) -> AccountError:
    assert callable(call)
    with pytest.raises(AccountError) as info:
        call(*args)
    return info.value


# names


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("alice", "alice"),
        ("  Bob_42 ", "Bob_42"),
        ("João", "João"),
        ("Jo\u0061\u0303o", "João"),  # decomposed accent, stored composed (NFC)
        ("Straße", "Straße"),
        ("Ørsted-fan", "Ørsted-fan"),
        ("abc", "abc"),
        ("a" * 20, "a" * 20),
    ],
)
def test_valid_names_are_kept_as_typed(typed: str, stored: str) -> None:
    assert check_name(typed) == stored


@pytest.mark.parametrize("name", ["ab", "", "   ", "a" * 21, " " + "b" * 21])
def test_names_too_short_or_long_are_refused(name: str) -> None:
    err = refused(check_name, name)
    assert err.status == 422
    assert "3 to 20 characters" in err.detail


@pytest.mark.parametrize(
    ("name", "culprit"),
    [
        ("\u0430lice", "CYRILLIC SMALL LETTER A"),  # Cyrillic а in place of a
        ("b\u043eb", "CYRILLIC SMALL LETTER O"),
        ("al\U0001f600ce", "GRINNING FACE"),
        ("al ice", "SPACE"),
        ("al.ice", "FULL STOP"),
        ("\uff21lice", "FULLWIDTH LATIN CAPITAL LETTER A"),
        ("\ufb01ne", "LATIN SMALL LIGATURE FI"),
        ("ali\u200bce", "ZERO WIDTH SPACE"),
        ("q\u0303rs", "COMBINING TILDE"),
        ("日本語", "CJK UNIFIED IDEOGRAPH"),
    ],
)
def test_characters_outside_latin_letters_are_refused_by_name(name: str, culprit: str) -> None:
    err = refused(check_name, name)
    assert err.status == 422
    assert culprit in err.detail
    assert "letters" in err.detail


@pytest.mark.parametrize("name", ["_alice", "-bob", "1alice", "42abc"])
def test_names_start_with_a_letter(name: str) -> None:
    assert refused(check_name, name).detail == "name must start with a letter"


@pytest.mark.parametrize(
    "name", ["admin", "Admin", "ADM1N", "a_d_m_i_n", "Administrator", "admin_team",
             "system", "chance", "guest", "Thermopylae", "moderator", "normal", "hard",
             "deleted", "anonymous", "b0t"],
)  # fmt: skip
def test_reserved_names_are_refused_in_any_spelling(name: str) -> None:
    err = refused(check_name, name)
    assert err.status == 422
    assert "reserved" in err.detail


def test_admiral_is_not_admin() -> None:
    assert check_name("Admiral") == "Admiral"


@pytest.mark.parametrize("bad", [None, 42, ["alice"], {"name": "alice"}])
def test_a_name_that_is_not_text_is_refused(bad: object) -> None:
    assert refused(check_name, bad).detail == "name must be a string"


@pytest.mark.parametrize(
    "group",
    [
        ["Alice", "ALICE", "alice", "A1ice", "AIice", "alice_", "a-l-i-c-e", "Alíce", "Älice"],
        ["mike", "rnike", "MIKE", "rn1ke"],
        ["will", "vvill", "VVi11", "w1ll"],
        ["bob0", "bobo", "BOBO", "b0b0", "bob_o"],
        ["Straße", "strasse", "STRASSE"],
    ],
)
def test_look_alikes_share_one_key(group: list[str]) -> None:
    assert len({name_key(check_name(name)) for name in group}) == 1


@pytest.mark.parametrize(("a", "b"), [("alice", "alina"), ("mike", "nike"), ("bob", "rob")])
def test_different_names_have_different_keys(a: str, b: str) -> None:
    assert name_key(a) != name_key(b)


def test_name_key_takes_any_text() -> None:
    """A login may type anything: the key never raises, and a fullwidth or Cyrillic spelling
    does not match a Latin account unless it decomposes to it."""
    assert name_key("\uff21lice") == name_key("alice")
    assert name_key("\u0430lice") != name_key("alice")
    assert name_key("") == ""


# passwords


def test_hash_and_verify_round_trip() -> None:
    stored = hash_password("correct horse battery")
    assert stored.startswith("$argon2id$")
    assert verify("correct horse battery", stored)
    assert not verify("correct horse batterY", stored)
    assert not verify("", stored)
    assert hash_password("correct horse battery") != stored  # salted


def test_a_password_matches_in_either_unicode_form() -> None:
    stored = hash_password("s\u00e9same ouvre-toi")
    assert verify("se\u0301same ouvre-toi", stored)


def test_no_hash_verifies_against_the_dummy_and_fails() -> None:
    assert not verify("whatever password", None)
    assert not verify("whatever password", None)
    assert passwords._dummy is not None
    dummy = passwords._dummy
    assert not verify(12345, None)
    assert passwords._dummy is dummy  # made once


def test_a_stored_hash_in_no_known_format_fails_to_verify() -> None:
    assert not verify("whatever password", "not-a-hash")


def test_a_password_that_is_not_text_never_matches() -> None:
    assert not verify(None, hash_password("12345678"))


@pytest.mark.parametrize("pw", ["", "short", "1234567", "x" * 201])
def test_password_length_is_checked(pw: str) -> None:
    err = refused(check_password, pw, "alice")
    assert err.status == 422
    assert "8 to 200 characters" in err.detail


def test_password_bounds_are_inclusive() -> None:
    assert check_password("12345678", "alice") == "12345678"
    assert check_password("y" * 200, "alice") == "y" * 200


@pytest.mark.parametrize("pw", ["alice_wonder", "ALICE_WONDER", "Alice-Wonder", "A1ice_wonder"])
def test_a_password_equal_to_the_name_is_refused(pw: str) -> None:
    err = refused(check_password, pw, "alice_wonder")
    assert err.detail == "password must not be the account's name"


def test_a_password_that_is_not_text_is_refused() -> None:
    assert refused(check_password, 12345678, "alice").detail == "password must be a string"


# tokens and cookies


def test_session_tokens_are_distinct_and_stored_as_sha256() -> None:
    made = [new_token() for _ in range(50)]
    assert len({token for token, _ in made}) == 50
    for token, digest in made:
        assert len(token) >= 40
        assert re.fullmatch(r"[0-9a-f]{64}", digest)
        assert digest == hashlib.sha256(token.encode()).hexdigest()
    assert len({csrf_token() for _ in range(50)}) == 50


def test_csrf_header_must_match_the_cookie() -> None:
    token = csrf_token()
    assert csrf_ok(token, token)
    assert not csrf_ok(token, token + "x")
    assert not csrf_ok(token, None)
    assert not csrf_ok(None, None)
    assert not csrf_ok("", "")


@pytest.mark.parametrize("secure", [True, False])
def test_cookie_args_follow_the_scheme(secure: bool) -> None:
    args = cookie_args(secure)
    assert args == {
        "max_age": SESSION_SECONDS,
        "path": "/",
        "secure": secure,
        "httponly": True,
        "samesite": "lax",
    }
    assert cookie_args(secure, script_readable=True)["httponly"] is False
    assert "max_age" not in delete_cookie_args(secure)
    assert delete_cookie_args(secure)["secure"] is secure


def test_cookie_args_fit_starlette() -> None:
    from starlette.responses import Response

    response = Response()
    response.set_cookie("thermopylae_session", "abc", **cookie_args(True))
    header = response.headers["set-cookie"]
    for part in ("HttpOnly", "Secure", "SameSite=lax", "Path=/", f"Max-Age={SESSION_SECONDS}"):
        assert part in header
    plain = Response()
    plain.set_cookie("thermopylae_csrf", "abc", **cookie_args(False, script_readable=True))
    assert "Secure" not in plain.headers["set-cookie"]
    assert "HttpOnly" not in plain.headers["set-cookie"]


# login limits


def wait_in(err: AccountError) -> int:
    match = re.search(r"try again in (\d+) s", err.detail)
    assert match, err.detail
    assert err.retry_after == int(match.group(1))
    return int(match.group(1))


def test_an_account_gets_a_burst_then_one_try_per_period() -> None:
    limits = LoginLimits()
    key = name_key("alice")
    for i in range(ACCOUNT_BURST):
        limits.allow(key, f"10.0.0.{i}", now=1000.0)  # any addresses: the account counts
    err = refused(limits.allow, key, "10.0.1.1", 1000.0)
    assert err.status == 429
    assert "for this name" in err.detail
    assert wait_in(err) == ACCOUNT_EVERY_S
    err = refused(limits.allow, key, "10.0.1.1", 1000.0 + ACCOUNT_EVERY_S - 10)
    assert wait_in(err) == 10
    limits.allow(key, "10.0.1.1", now=1000.0 + ACCOUNT_EVERY_S)
    refused(limits.allow, key, "10.0.1.1", 1000.0 + ACCOUNT_EVERY_S)
    limits.allow(name_key("bob"), "10.0.1.1", now=1000.0)  # another account is not held


def test_an_address_gets_a_burst_then_one_try_per_period() -> None:
    limits = LoginLimits()
    for i in range(ADDRESS_BURST):
        limits.allow(f"name{i}", "192.0.2.7", now=50.0)  # many names, one address
    err = refused(limits.allow, "other", "192.0.2.7", 50.0)
    assert err.status == 429
    assert "from this address" in err.detail
    assert wait_in(err) == ADDRESS_EVERY_S
    limits.allow("other", "192.0.2.8", now=50.0)  # another address is not held
    limits.allow("other", "192.0.2.7", now=50.0 + ADDRESS_EVERY_S)


def test_a_try_refused_for_its_address_costs_the_account_nothing() -> None:
    limits = LoginLimits()
    for i in range(ADDRESS_BURST):
        limits.allow(f"name{i}", "192.0.2.7", now=0.0)
    for _ in range(3 * ACCOUNT_BURST):
        refused(limits.allow, "alice", "192.0.2.7", 0.0)
    for i in range(ACCOUNT_BURST):
        limits.allow("alice", f"198.51.100.{i}", now=0.0)


def test_ipv6_addresses_share_their_64() -> None:
    limits = LoginLimits()
    for i in range(ADDRESS_BURST):
        limits.allow(f"name{i}", f"2001:db8:0:1::{i + 1:x}", now=0.0)
    assert "address" in refused(limits.allow, "x", "2001:db8:0:1:ffff::1", 0.0).detail
    limits.allow("x", "2001:db8:0:2::1", now=0.0)


def test_a_success_refills_the_account_but_not_the_address() -> None:
    limits = LoginLimits()
    for _ in range(ACCOUNT_BURST):
        limits.allow("alice", "203.0.113.5", now=0.0)
    refused(limits.allow, "alice", "203.0.113.5", 0.0)
    limits.succeeded("alice")
    for _ in range(ACCOUNT_BURST):
        limits.allow("alice", "203.0.113.5", now=0.0)
    # 10 + 1 refused + 10 = 21 tries counted on the address: 9 left, not refilled
    for i in range(ADDRESS_BURST - 2 * ACCOUNT_BURST - 1):
        limits.allow(f"n{i}", "203.0.113.5", now=0.0)
    assert "address" in refused(limits.allow, "zed", "203.0.113.5", 0.0).detail
