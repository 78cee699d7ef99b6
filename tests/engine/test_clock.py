"""Time controls and time banks (`engine.clock`): the forms players type, the bounds, and
the arithmetic of a bank: who is charged, when the increment comes, the cap, deadlines."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from thermopylae.engine.clock import (
    ClockError,
    ClockState,
    TimeControl,
    advance,
    deadline,
    expired,
    format_clock,
    low_at,
    parse_clock,
    remaining_now,
    start,
)
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import CHANCE

M, H, D = 60.0, 3600.0, 86400.0


def everyone(seat: int) -> bool:
    return True


def only(*seats: int) -> Callable[[int], bool]:
    return lambda seat: seat in seats


# -- the forms of the command line ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "initial", "increment", "cap"),
    [
        ("10m", 10 * M, 0.0, None),
        ("5m+5s", 5 * M, 5.0, None),
        ("3d+12h", 3 * D, 12 * H, None),
        ("3d+12h/5d", 3 * D, 12 * H, 5 * D),
        ("1h30m+2.5s", 90 * M, 2.5, None),
        (" 5M + 5S ", 5 * M, 5.0, None),
        ("10s", 10.0, 0.0, None),
        ("60d", 60 * D, 0.0, None),
        ("1d/1d", D, 0.0, D),
    ],
)
def test_parse_clock_reads_every_form(
    text: str, initial: float, increment: float, cap: float | None
) -> None:
    tc = parse_clock(text)
    assert (tc.initial_s, tc.increment_s, tc.cap_s, tc.on_timeout) == (
        initial,
        increment,
        cap,
        "forfeit",
    )


def test_describe_gives_the_short_form_back() -> None:
    for text in ("10m", "5m+5s", "3d+12h/5d", "1h30m+2.5s"):
        assert parse_clock(parse_clock(text).describe()) == parse_clock(text)
    assert parse_clock("3d+12h/5d").describe() == "3d+12h/5d"
    assert parse_clock("90m").describe() == "1h30m"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("5", "a unit is needed"),
        ("5x", "'5x' is not an amount of time"),
        ("", "nothing given"),
        ("5m+", "the increment '' is not an amount"),
        ("5m/", "the cap '' is not an amount"),
        ("5m++5s", "write it as"),
        ("5m/6m/7m", "write it as"),
        ("m5", "the bank 'm5'"),
        ("-5m", "the bank '-5m'"),
        ("1s", "initial_s must be from 10 s to 60 days"),
        ("61d", "not 61 days"),
        ("5m+8d", "increment_s must be from 0 to 7 days"),
        ("5m/3m", "cap_s must be at least initial_s"),
        ("5m+1s/91d", "at most 90 days"),
    ],
)
def test_parse_clock_names_what_is_wrong(text: str, says: str) -> None:
    with pytest.raises(ClockError, match="clock") as info:
        parse_clock(text)
    assert says in str(info.value)
    assert isinstance(info.value, ThermopylaeError) and isinstance(info.value, ValueError)


# -- the JSON of requests and tables -----------------------------------------------------------


def test_from_json_reads_the_issue_examples_and_no_clock() -> None:
    live = TimeControl.from_json({"initial_s": 600, "increment_s": 10})
    assert live == TimeControl(600, 10, None, "forfeit")
    bank = TimeControl.from_json(
        {"initial_s": 259200, "increment_s": 43200, "cap_s": 432000, "on_timeout": "ai"}
    )
    assert bank == TimeControl(259200, 43200, 432000, "ai")
    for none in (None, {"kind": "none"}, "none"):
        assert TimeControl.from_json(none) is None
    assert TimeControl.from_json("5m+5s") == parse_clock("5m+5s")
    assert TimeControl.from_json({"kind": "live", "initial_s": 60}) == TimeControl(60.0)


def test_to_json_round_trips_through_json_text() -> None:
    for tc in (parse_clock("5m+5s"), TimeControl(259200, 43200, 432000, "ai")):
        assert TimeControl.from_json(json.loads(json.dumps(tc.to_json()))) == tc


@pytest.mark.parametrize(
    ("obj", "says"),
    [
        ([600], "must be an object or null"),
        (42, "must be an object or null"),
        ({}, "initial_s (each seat's bank in seconds) is missing"),
        ({"initial_s": 600, "increment": 5}, "unknown key(s) increment"),
        ({"initial_s": "600"}, "initial_s must be a number of seconds"),
        ({"initial_s": True}, "initial_s must be a number of seconds"),
        ({"initial_s": float("inf")}, "finite"),
        ({"initial_s": 600, "increment_s": -1}, "increment_s must be from 0"),
        ({"initial_s": 600, "cap_s": 300}, "cap_s must be at least initial_s"),
        ({"initial_s": 600, "on_timeout": "pause"}, "on_timeout must be 'forfeit' or 'ai'"),
        ({"kind": "blitz", "initial_s": 600}, "clock kind must be one of"),
        ({"kind": "none", "initial_s": 600}, "takes no other key"),
        ({"initial_s": 5}, "initial_s must be from 10 s"),
        ({"initial_s": 1e12}, "initial_s must be from 10 s to 60 days"),
    ],
)
def test_from_json_refuses_bad_and_absurd_values(obj: object, says: str) -> None:
    with pytest.raises(ClockError) as info:
        TimeControl.from_json(obj)
    assert says in str(info.value)


def test_a_time_control_is_checked_however_it_is_made() -> None:
    with pytest.raises(ClockError, match="initial_s"):
        TimeControl(1.0)


# -- banks -------------------------------------------------------------------------------------


def test_only_the_deciding_human_seat_is_charged() -> None:
    tc = parse_clock("10m")
    cs = start(tc, 2, 1000.0, 0)
    assert cs.running == 0 and cs.remaining == [600.0, 600.0]
    cs = advance(tc, cs, 1030.0, 0, everyone)  # still thinking: one turn, charged 30 s
    assert cs.remaining == [570.0, 600.0] and cs.running == 0
    assert remaining_now(cs, 1100.0) == [500.0, 600.0]
    assert cs.remaining == [570.0, 600.0], "remaining_now changed the state"


def test_the_increment_comes_once_per_turn_when_the_turn_passes() -> None:
    tc = parse_clock("10m+10s")
    cs = start(tc, 2, 0.0, 0)
    cs = advance(tc, cs, 20.0, 0, everyone)  # a second decision of the same turn
    cs = advance(tc, cs, 25.0, CHANCE, everyone)  # a card drawn mid-turn
    assert cs.remaining == [575.0, 600.0] and cs.running is None and cs.turn == 0
    cs = advance(tc, cs, 90.0, 0, everyone)  # the chance step cost nothing; same turn
    assert cs.remaining == [575.0, 600.0] and cs.running == 0
    cs = advance(tc, cs, 100.0, 1, everyone)  # the turn passes: one increment
    assert cs.remaining == [575.0 - 10.0 + 10.0, 600.0] and cs.running == 1
    cs = advance(tc, cs, 160.0, 0, everyone)
    assert cs.remaining == [575.0, 550.0] and cs.running == 0


def test_the_bank_is_held_to_the_cap() -> None:
    tc = parse_clock("1d+12h/1d6h")
    cs = start(tc, 2, 0.0, 0)
    cs = advance(tc, cs, 3600.0, 1, everyone)  # 23 h left + 12 h, capped at 30 h
    assert cs.remaining[0] == 30 * H
    cs = advance(tc, cs, 3600.0 + 20 * H, 0, everyone)  # 4 h + 12 h: under the cap
    assert cs.remaining[1] == 16 * H


def test_chance_and_ai_seats_are_not_charged() -> None:
    tc = parse_clock("10m+5s")
    human = only(0)
    cs = start(tc, 2, 0.0, CHANCE, human)
    assert cs.running is None and deadline(cs) is None
    cs = advance(tc, cs, 50.0, 1, human)  # the AI's move
    assert cs.running is None
    cs = advance(tc, cs, 500.0, 0, human)  # the AI took 450 s: nobody pays for it
    assert cs.remaining == [600.0, 600.0] and cs.running == 0
    cs = advance(tc, cs, 560.0, 1, human)
    assert cs.remaining == [545.0, 600.0] and cs.running is None
    cs = advance(tc, cs, 900.0, None, human)  # game over: nobody runs
    assert cs.remaining == [545.0, 600.0] and cs.running is None and deadline(cs) is None


def test_a_bank_never_falls_below_zero_and_expires_at_its_deadline() -> None:
    tc = parse_clock("10s")
    cs = start(tc, 2, 100.0, 1)
    assert deadline(cs) == 110.0
    assert expired(cs, 109.9) is None and expired(cs, 110.0) == 1
    late = advance(tc, cs, 500.0, 1, everyone)
    assert late.remaining == [10.0, 0.0] and remaining_now(late, 600.0) == [10.0, 0.0]
    assert deadline(late) == 500.0


def test_deadline_and_low_at_follow_the_running_bank() -> None:
    tc = parse_clock("1d")
    cs = advance(tc, start(tc, 2, 0.0, 0), 6 * H, 0, everyone)  # 18 h left at 6 h
    assert deadline(cs) == 24 * H
    assert low_at(cs, tc, 0.25) == 6 * H + (18 - 6) * H  # 6 h = a quarter of the bank
    assert low_at(cs, tc, 0.0) == deadline(cs)
    assert low_at(cs, tc, 0.9) == 6 * H, "already low: low from the start of the turn"
    idle = advance(tc, cs, 7 * H, None, everyone)
    assert low_at(idle, tc, 0.25) is None
    for bad in (-0.1, 1.5, True):
        with pytest.raises(ClockError, match="low share"):
            low_at(cs, tc, bad)


def test_the_functions_never_change_the_state_given() -> None:
    tc = parse_clock("10m+5s")
    cs = start(tc, 3, 0.0, 0)
    before = cs.to_json()
    advance(tc, cs, 30.0, 1, everyone)
    remaining_now(cs, 30.0)
    assert cs.to_json() == before


def test_clock_state_round_trips_and_checks_stored_data() -> None:
    tc = parse_clock("10m+5s")
    cs = advance(tc, start(tc, 3, 5.0, 0), 17.5, CHANCE, everyone)
    assert ClockState.from_json(json.loads(json.dumps(cs.to_json()))) == cs
    bad: list[tuple[object, str]] = [
        ([], "must be an object"),
        ({"remaining": [], "running": None, "since": 0}, "one bank per seat"),
        ({"remaining": [1, "x"], "running": None, "since": 0}, "remaining[1]"),
        ({"remaining": [1, -2], "running": None, "since": 0}, "negative"),
        ({"remaining": [1, 2], "running": 2, "since": 0}, "running must be null or a seat 0..1"),
        ({"remaining": [1, 2], "running": None, "since": 0, "turn": True}, "turn must be"),
        ({"remaining": [1, 2], "running": None}, "since is missing"),
        ({"remaining": [1], "since": 0, "extra": 1}, "unknown key(s) extra"),
    ]
    for obj, says in bad:
        with pytest.raises(ClockError) as info:
            ClockState.from_json(obj)
        assert says in str(info.value), (obj, info.value)


def test_start_needs_a_seat() -> None:
    with pytest.raises(ClockError, match="at least one seat"):
        start(parse_clock("10m"), 0, 0.0, None)


# -- clock faces -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "face"),
    [
        (2 * D + 3 * H + 4 * M + 5, "2d 03:04:05"),
        (D, "1d 00:00:00"),
        (H + 2 * M + 3.9, "1:02:03"),
        (599.99, "9:59"),
        (10.0, "0:10"),
        (9.99, "0:09.9"),
        (5.34, "0:05.3"),
        (0.0, "0:00.0"),
        (-3.0, "0:00.0"),
        (float("nan"), "0:00.0"),
    ],
)
def test_format_clock_rounds_down(seconds: float, face: str) -> None:
    assert format_clock(seconds) == face


def test_a_decider_that_is_not_a_seat_is_refused() -> None:
    tc = parse_clock("10m")
    with pytest.raises(ClockError, match="no seat 2"):
        start(tc, 2, 0.0, 2)
    with pytest.raises(ClockError, match="no seat -3"):
        advance(tc, start(tc, 2, 0.0, 0), 1.0, -3, everyone)
