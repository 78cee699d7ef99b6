"""The Argon2 cost: the library's default unless the environment tunes it, bounded, and a
hash made at one cost still verifies at another (its parameters travel with it)."""

from __future__ import annotations

import pytest
from pwdlib import PasswordHash

from thermopylae.server.passwords import hasher_from


def test_the_default_cost_is_three_passes_over_64_mib() -> None:
    inner = hasher_from({})._hasher
    assert (inner.time_cost, inner.memory_cost) == (3, 65536)


def test_the_environment_tunes_the_cost_of_new_hashes() -> None:
    h = hasher_from({"THERMOPYLAE_ARGON2_TIME_COST": "2", "THERMOPYLAE_ARGON2_MEMORY_KIB": "2048"})
    assert "$m=2048,t=2," in h.hash("a long secret")


def test_a_hash_made_at_one_cost_verifies_at_another() -> None:
    cheap = PasswordHash((hasher_from({"THERMOPYLAE_ARGON2_MEMORY_KIB": "1024"}),))
    other = PasswordHash((hasher_from({"THERMOPYLAE_ARGON2_MEMORY_KIB": "4096"}),))
    assert other.verify("a long secret", cheap.hash("a long secret"))


@pytest.mark.parametrize(
    ("value", "words"),
    [("0", "from 1 to 20"), ("many", "whole number"), ("99", "from 1 to 20")],
)
def test_a_cost_out_of_bounds_stops_the_server_naming_it(value: str, words: str) -> None:
    with pytest.raises(SystemExit, match=f"THERMOPYLAE_ARGON2_TIME_COST.*{words}"):
        hasher_from({"THERMOPYLAE_ARGON2_TIME_COST": value})
