"""Game clocks: time controls and per-seat time banks, for every face.

Pure arithmetic, no I/O and no timers: every function takes the time `now` as an
argument, so the server can keep a table's clock in its database (and enforce a deadline
after a restart from what it stored), the command line can charge a player the wall time
of a prompt, and tests can pass in whatever times they like.

A time control is a bank per seat (`initial_s`), an increment earned once per turn
(`increment_s`, Fischer style) and an optional ceiling on the bank (`cap_s`, as in
correspondence time banks). Only the seat that must decide is charged; chance steps, seats
played by an AI and a finished game cost nobody anything. Several decisions in a row by
one seat, even with chance steps between them, are one turn and earn one increment.

It lives in the engine rather than the server because the command line uses it too, and
the command line does not import the server.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import CHANCE, JSON

MINUTE = 60.0
HOUR = 3600.0
DAY = 86400.0

MIN_INITIAL_S = 10.0
MAX_INITIAL_S = 60 * DAY
MAX_INCREMENT_S = 7 * DAY
MAX_CAP_S = 90 * DAY

ON_TIMEOUT = ("forfeit", "ai")
"""What happens to a seat whose bank runs out: it loses the game, or a bot plays for it."""

OnTimeout = Literal["forfeit", "ai"]

_UNITS = {"s": 1.0, "m": MINUTE, "h": HOUR, "d": DAY}
_AMOUNT = re.compile(r"(?:\d+(?:\.\d+)?[smhd])+")
_PIECE = re.compile(r"(\d+(?:\.\d+)?)([smhd])")
_FORMS = "10m, 5m+5s, 3d+12h or 3d+12h/5d (bank+increment/cap; units s, m, h, d)"
_KEYS = ("kind", "initial_s", "increment_s", "cap_s", "on_timeout")
_KINDS = ("none", "live", "correspondence")


class ClockError(ThermopylaeError):
    """A time control or a stored clock that cannot be used; the text names what is wrong.

    A `ThermopylaeError` (so a `ValueError`), so the faces report it as any bad input."""


def _seconds(value: Any, name: str) -> float:
    """`value` as a finite number of seconds, or a `ClockError` naming `name`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ClockError(f"{name} must be a number of seconds, not {value!r}")
    if not math.isfinite(value):
        raise ClockError(f"{name} must be a finite number of seconds, not {value!r}")
    return float(value)


def _span(seconds: float) -> str:
    """A bound as people say it ("60 days", "10 s"), for error texts."""
    if seconds >= DAY:
        return f"{seconds / DAY:.4g} days"
    return f"{seconds:g} s"


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A table's time control, checked when it is made (a `ClockError` otherwise).

    `initial_s`: each seat's bank at the start, 10 s to 60 days. `increment_s`: added to a
    seat's bank once per turn, when the turn passes on, 0 to 7 days. `cap_s`: the most a
    bank may hold after an increment (None: no ceiling), at least `initial_s` and at most
    90 days. `on_timeout`: "forfeit" (the seat that ran out loses) or "ai" (a bot plays
    the seat's moves).
    """

    initial_s: float
    increment_s: float = 0.0
    cap_s: float | None = None
    on_timeout: OnTimeout = "forfeit"

    def __post_init__(self) -> None:
        initial = _seconds(self.initial_s, "initial_s")
        increment = _seconds(self.increment_s, "increment_s")
        if not MIN_INITIAL_S <= initial <= MAX_INITIAL_S:
            raise ClockError(
                f"initial_s must be from {_span(MIN_INITIAL_S)} to {_span(MAX_INITIAL_S)}, "
                f"not {_span(initial)}"
            )
        if not 0 <= increment <= MAX_INCREMENT_S:
            raise ClockError(
                f"increment_s must be from 0 to {_span(MAX_INCREMENT_S)}, not {_span(increment)}"
            )
        if self.cap_s is not None:
            cap = _seconds(self.cap_s, "cap_s")
            if not initial <= cap <= MAX_CAP_S:
                raise ClockError(
                    f"cap_s must be at least initial_s ({_span(initial)}) and at most "
                    f"{_span(MAX_CAP_S)}, not {_span(cap)}"
                )
        if self.on_timeout not in ON_TIMEOUT:
            raise ClockError(f"on_timeout must be 'forfeit' or 'ai', not {self.on_timeout!r}")

    @classmethod
    def from_json(cls, obj: Any) -> TimeControl | None:
        """The time control of a request or a stored table: None for no clock (`null`,
        a missing clock, `{"kind": "none"}` or the text "none"); an object with
        `initial_s` and optionally `increment_s` (default 0), `cap_s` (default none),
        `on_timeout` (default "forfeit") and `kind` ("live" or "correspondence", a label
        only); or a text in `parse_clock`'s forms. Anything else is a `ClockError`."""
        if obj is None:
            return None
        if isinstance(obj, str):
            return None if obj.strip().lower() == "none" else parse_clock(obj)
        if not isinstance(obj, Mapping):
            raise ClockError(f"clock must be an object or null, not {obj!r}")
        unknown = sorted(str(k) for k in obj if k not in _KEYS)
        if unknown:
            raise ClockError(
                f"clock: unknown key(s) {', '.join(unknown)}; it takes {', '.join(_KEYS)}"
            )
        kind = obj.get("kind")
        if kind is not None and kind not in _KINDS:
            raise ClockError(f"clock kind must be one of {', '.join(_KINDS)}, not {kind!r}")
        if kind == "none":
            if len(obj) > 1:
                raise ClockError('clock: {"kind": "none"} takes no other key')
            return None
        if "initial_s" not in obj:
            raise ClockError("clock: initial_s (each seat's bank in seconds) is missing")
        cap = obj.get("cap_s")
        return cls(
            initial_s=_seconds(obj["initial_s"], "initial_s"),
            increment_s=_seconds(obj.get("increment_s", 0), "increment_s"),
            cap_s=None if cap is None else _seconds(cap, "cap_s"),
            on_timeout=cast(OnTimeout, obj.get("on_timeout", "forfeit")),
        )

    def to_json(self) -> JSON:
        """The control as `from_json` reads it back (no `kind`: it is only a label)."""
        return {
            "initial_s": self.initial_s,
            "increment_s": self.increment_s,
            "cap_s": self.cap_s,
            "on_timeout": self.on_timeout,
        }

    def describe(self) -> str:
        """The control in `parse_clock`'s form ("5m+5s", "3d+12h/5d"), for screens."""
        text = _amount_text(self.initial_s)
        if self.increment_s:
            text += "+" + _amount_text(self.increment_s)
        if self.cap_s is not None:
            text += "/" + _amount_text(self.cap_s)
        return text


def _amount_text(seconds: float) -> str:
    """Seconds in the largest units that divide them ("3d12h", "5m", "7.5s")."""
    parts = []
    rest = seconds
    for unit in ("d", "h", "m"):
        size = _UNITS[unit]
        whole = math.floor(rest / size)
        if whole:
            parts.append(f"{whole}{unit}")
            rest -= whole * size
    if rest or not parts:
        parts.append(f"{round(rest, 3):g}s")
    return "".join(parts)


def _parse_amount(text: str, what: str, whole: str) -> float:
    if not _AMOUNT.fullmatch(text):
        hint = " (a unit is needed: s, m, h or d)" if re.fullmatch(r"\d+(\.\d+)?", text) else ""
        raise ClockError(
            f"clock {whole!r}: the {what} {text!r} is not an amount of time{hint}; "
            f"write it as {_FORMS}"
        )
    return sum(float(n) * _UNITS[u] for n, u in _PIECE.findall(text))


def parse_clock(text: str, on_timeout: OnTimeout = "forfeit") -> TimeControl:
    """A time control from the command line's short form: `BANK[+INCREMENT][/CAP]`, each
    an amount such as `10m`, `12h`, `1h30m` or `2.5s` (units s, m, h, d; any case, no
    spaces needed): "10m", "5m+5s", "3d+12h", "3d+12h/5d". A `ClockError` names what
    cannot be read or is out of bounds."""
    if not isinstance(text, str):
        raise ClockError(f"clock must be a text such as 5m+5s, not {text!r}")
    whole = text.strip()
    compact = re.sub(r"\s+", "", whole).lower()
    if not compact:
        raise ClockError(f"clock: nothing given; write it as {_FORMS}")
    rest, slash, cap_text = compact.partition("/")
    bank_text, plus, inc_text = rest.partition("+")
    if "/" in cap_text or "+" in inc_text or "+" in cap_text:
        raise ClockError(f"clock {whole!r}: write it as {_FORMS}")
    initial = _parse_amount(bank_text, "bank", whole)
    increment = _parse_amount(inc_text, "increment", whole) if plus else 0.0
    cap = _parse_amount(cap_text, "cap", whole) if slash else None
    try:
        return TimeControl(initial, increment, cap, on_timeout)
    except ClockError as exc:
        raise ClockError(f"clock {whole!r}: {exc}") from None


@dataclass(frozen=True, slots=True)
class ClockState:
    """Every seat's bank at one moment. The functions below return a new state and never
    change the one given (the list included).

    `remaining`: each seat's bank in seconds at `since`. `running`: the seat being
    charged since `since` (None while chance, an AI or nobody decides). `since`: when the
    state was last advanced (epoch seconds on the server; any monotonic source elsewhere).
    `turn`: the human seat whose turn is under way, kept across chance steps and cleared
    when the turn passes on (when that seat earns its increment).
    """

    remaining: list[float]
    running: int | None
    since: float
    turn: int | None = None

    def to_json(self) -> JSON:
        return {
            "remaining": list(self.remaining),
            "running": self.running,
            "since": self.since,
            "turn": self.turn,
        }

    @classmethod
    def from_json(cls, obj: Any) -> ClockState:
        """A state from `to_json`'s output, checked (a `ClockError` names a bad field)."""
        if not isinstance(obj, Mapping):
            raise ClockError(f"clock state must be an object, not {obj!r}")
        unknown = sorted(str(k) for k in obj if k not in ("remaining", "running", "since", "turn"))
        if unknown:
            raise ClockError(f"clock state: unknown key(s) {', '.join(unknown)}")
        remaining = obj.get("remaining")
        if not isinstance(remaining, list) or not remaining:
            raise ClockError("clock state: remaining must be a list with one bank per seat")
        banks = [_seconds(r, f"clock state: remaining[{i}]") for i, r in enumerate(remaining)]
        if any(b < 0 for b in banks):
            raise ClockError("clock state: a bank in remaining is negative")
        if "since" not in obj:
            raise ClockError("clock state: since is missing")
        since = _seconds(obj["since"], "clock state: since")
        running = _seat(obj.get("running"), "running", len(banks))
        turn = _seat(obj.get("turn"), "turn", len(banks))
        return cls(banks, running, since, turn)


def _seat(value: Any, name: str, seats: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        raise ClockError(
            f"clock state: {name} must be null or a seat 0..{seats - 1}, not {value!r}"
        )
    return value


def _everyone(seat: int) -> bool:
    return True


def start(
    tc: TimeControl,
    seats: int,
    now: float,
    decider: int | None,
    human: Callable[[int], bool] = _everyone,
) -> ClockState:
    """The clock of a new table of `seats` seats at `now`: every bank full, and `decider`
    (the game's `to_act`: a seat, `CHANCE` or None) charged from now if it is a seat and
    `human(decider)` (by default every seat is)."""
    if seats < 1:
        raise ClockError(f"a clock needs at least one seat, not {seats}")
    running = _charged(decider, human, seats)
    return ClockState([tc.initial_s] * seats, running, now, running)


def _charged(decider: int | None, human: Callable[[int], bool], seats: int) -> int | None:
    """The seat to charge when `decider` must act (None: chance, an AI, the game over)."""
    if decider is None or decider == CHANCE:
        return None
    if isinstance(decider, bool) or not isinstance(decider, int) or not 0 <= decider < seats:
        raise ClockError(f"no seat {decider!r} on a clock of seats 0..{seats - 1}")
    return decider if human(decider) else None


def advance(
    tc: TimeControl,
    cs: ClockState,
    now: float,
    decider: int | None,
    human: Callable[[int], bool],
) -> ClockState:
    """The clock at `now`, when `decider` (the game's `to_act` now: a seat, `CHANCE`, or
    None once over) must act: call it after every step and again whenever the time is
    wanted.

    The running seat pays the time since `since` (its bank never falls below 0). When a
    seat other than the one whose turn was under way decides, or the game is over, that
    turn is over and its seat earns the increment (the bank then held to `cap_s`); a
    chance step does not end a turn. The new running seat is `decider` if it is a seat and
    `human(decider)`, else None: chance, AI seats and a finished game are not charged.
    """
    remaining = list(cs.remaining)
    if cs.running is not None:
        remaining[cs.running] = max(0.0, remaining[cs.running] - max(0.0, now - cs.since))
    turn = cs.turn
    if decider != CHANCE and turn is not None and decider != turn:
        bank = remaining[turn] + tc.increment_s
        if tc.cap_s is not None:  # held to the cap, but an increment never takes time away
            bank = min(bank, max(tc.cap_s, remaining[turn]))
        remaining[turn] = bank
        turn = None
    running = _charged(decider, human, len(remaining))
    if running is not None:
        turn = running
    return ClockState(remaining, running, now, turn)


def remaining_now(cs: ClockState, now: float) -> list[float]:
    """Every seat's bank at `now`, the running seat charged up to it (never below 0)."""
    remaining = list(cs.remaining)
    if cs.running is not None:
        remaining[cs.running] = max(0.0, remaining[cs.running] - max(0.0, now - cs.since))
    return remaining


def deadline(cs: ClockState) -> float | None:
    """When the running seat's bank is empty (None when nobody is charged)."""
    if cs.running is None:
        return None
    return cs.since + cs.remaining[cs.running]


def expired(cs: ClockState, now: float) -> int | None:
    """The running seat if its bank is empty at `now`, else None."""
    due = deadline(cs)
    return cs.running if due is not None and now >= due else None


def low_at(cs: ClockState, tc: TimeControl, share: float) -> float | None:
    """When the running seat's bank falls to `share` (0..1) of the initial bank, for a
    "time running low" notice: never before `since` (a seat already that low is low
    from the start of its turn), None when nobody is charged."""
    if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share <= 1:
        raise ClockError(f"the low share must be a number from 0 to 1, not {share!r}")
    if cs.running is None:
        return None
    return cs.since + max(0.0, cs.remaining[cs.running] - share * tc.initial_s)


def format_clock(seconds: float) -> str:
    """A bank as a clock face shows it, rounded down (a clock never shows more time than
    there is): "2d 03:04:05" from a day, "1:02:03" from an hour, "9:59" from 10 s, and
    tenths below that ("0:05.3"). Negative times show as "0:00.0"."""
    s = max(0.0, seconds) if math.isfinite(seconds) else 0.0
    if s < 10:
        tenths = math.floor(s * 10)
        return f"0:{tenths // 10:02d}.{tenths % 10}"
    whole = math.floor(s)
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d {hours:02d}:{minutes:02d}:{secs:02d}"
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"
