"""`thermopylae play --clock`: the human seats' time banks at the prompt.

The session is driven with a fake monotonic time source that moves only when the test
says (an answer takes so many seconds, an agent thinks so long): nothing sleeps."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

from rich.console import Console

from tests.cli_helpers import flat, run
from thermopylae.ai.base import make_agent
from thermopylae.engine import registry
from thermopylae.engine.clock import parse_clock
from thermopylae.engine.protocol import GenericGame, Outcome
from thermopylae.engine.record import Record, replay
from thermopylae.tui.terminal import Session


class FakeTime:
    """A monotonic clock that moves only when told to."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class SlowAnswers(io.StringIO):
    """Piped answers, each of which takes the player `seconds` to type."""

    def __init__(self, lines: list[str], seconds: float, time: FakeTime) -> None:
        super().__init__("".join(f"{line}\n" for line in lines))
        self.seconds, self.time = seconds, time

    # (ignored as typeshed's StringIO ignores it: its base _IOBase reads bytes)
    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.time.t += self.seconds
        return super().readline()


class SlowAgent:
    """An agent that thinks for `seconds` of the fake time before each move."""

    def __init__(self, game: GenericGame, seconds: float, time: FakeTime) -> None:
        self.inner = make_agent("random", game)
        self.seconds, self.time = seconds, time

    def act(self, game: GenericGame, state: Any, rng: random.Random) -> Any:
        self.time.t += self.seconds
        return self.inner.act(game, state, rng)


def _session(
    stdin: io.StringIO, clock: str, time: FakeTime, agents: dict[int, Any]
) -> tuple[Session, io.StringIO]:
    game = registry.get("earth-and-water")
    options = game.options({})
    seed = 5
    screen = io.StringIO()
    console = Console(file=screen, width=120, color_system=None, force_terminal=False)
    session = Session(
        game,
        options,
        game.new(options),
        Record.begin(game, options, seed),
        agents,
        seed,
        console,
        stdin,
        game.render,
        None,
        parse_clock(clock),
        time,
    )
    session.opening(seed)
    return session, screen


def test_a_human_who_runs_out_of_time_forfeits() -> None:
    time = FakeTime()
    game = registry.get("earth-and-water")
    answers = SlowAnswers(["1"] * 50, seconds=4.0, time=time)
    session, screen = _session(answers, "10s", time, {1: make_agent("random", game)})
    session.run()
    text = screen.getvalue()
    assert session.forfeited is not None
    seat, outcome = session.forfeited
    assert seat == 0
    assert outcome == Outcome(("loss", "win"), (0.0, 1.0), "time", outcome.turns)
    # 10 s, then 6 s, then 2 s left: the third answer (after 12 s) came too late
    assert "persia [0:10]> " in text and "persia [0:06.0]> " in text
    assert "persia [0:02.0]> " in text
    assert [who for who, _ in session.record.steps].count("persia") == 2
    assert "Game over: loss, win (persia ran out of time)" in flat(text)
    assert "Clock: 10s for each player; whoever runs out of time loses." in text


def test_a_record_saved_after_a_forfeit_replays_to_the_forfeit(tmp_path: Path) -> None:
    time = FakeTime()
    game = registry.get("earth-and-water")
    answers = SlowAnswers(["1"] * 50, seconds=4.0, time=time)
    session, _screen = _session(answers, "10s", time, {1: make_agent("random", game)})
    session.run()
    assert session.forfeited is not None
    path = tmp_path / "lost.json"
    session._save(path)
    record = Record.load(path)
    assert record.forfeit == {"seat": 0, "reason": "time"}
    report = replay(game, record)
    assert report.ok, report.problems
    assert report.outcome is not None and report.outcome.reason == "time"


def test_an_agents_thinking_and_answers_in_time_cost_nothing_of_the_bank() -> None:
    """The agent thinks 100 s a move, the human answers at once: nobody runs out."""
    time = FakeTime()
    game = registry.get("earth-and-water")
    answers = SlowAnswers(["1"] * 6 + ["quit"], seconds=0.0, time=time)
    session, screen = _session(answers, "10s", time, {1: SlowAgent(game, 100.0, time)})
    session.run()
    assert session.forfeited is None
    assert time.t > 1000.0 + 100.0  # the agent did play
    assert session.clock is not None and session.clock.remaining[0] == 10.0
    assert "ran out of time" not in screen.getvalue()


def test_the_increment_comes_once_after_each_turn() -> None:
    """Persia's first turn is two decisions (3 s each: 10 -> 7 -> 4) and earns 3 s once,
    when the turn passes to Greece; its second is one (7 -> 4, +3); its third begins."""
    time = FakeTime()
    game = registry.get("earth-and-water")
    answers = SlowAnswers(["1"] * 4 + ["quit"], seconds=3.0, time=time)
    session, screen = _session(answers, "10s+3s", time, {1: make_agent("random", game)})
    session.run()
    assert session.forfeited is None
    prompts = [line.split("]>")[0] for line in screen.getvalue().splitlines() if "]> " in line]
    assert prompts == [f"persia [0:{left}" for left in ("10", "07.0", "07.0", "07.0", "04.0")]


def test_hot_seat_players_each_have_a_bank() -> None:
    """Two humans at one screen: the slow one loses, whoever it is."""
    time = FakeTime()
    answers = SlowAnswers(["1"] * 100, seconds=2.5, time=time)
    session, screen = _session(answers, "10s", time, {})
    session.run()
    assert session.forfeited is not None
    seat, outcome = session.forfeited
    assert outcome.results[seat] == "loss" and outcome.results[1 - seat] == "win"
    name = ("persia", "greece")[seat]
    assert f"({name} ran out of time)" in flat(screen.getvalue())


# -- the command ---------------------------------------------------------------------------------


def test_help_explains_the_forms_of_the_clock() -> None:
    r = run("play", "--help", env={"COLUMNS": "200"})
    assert r.returncode == 0
    text = flat(r.stdout)
    for form in ("--clock", "BANK+INCREMENT/CAP", "5m+5s", "3d+12h/5d", "units s, m, h, d"):
        assert form in text, form


def test_a_bad_clock_is_refused_with_its_reason() -> None:
    for bad, says in (("5", "a unit is needed"), ("5m/1m", "cap_s must be at least")):
        r = run("play", "earth-and-water", "--clock", bad, answers=["quit"])
        assert r.returncode == 2, r.stderr
        assert "Traceback" not in r.stderr
        assert "--clock" in r.stderr and says in flat(r.stderr)


def test_a_clocked_game_shows_the_bank_at_the_prompt() -> None:
    r = run(
        "play",
        "earth-and-water",
        "--seed",
        "3",
        "--clock",
        "5m+5s",
        "--ai",
        "greece=random",
        answers=["1", "quit"],
    )
    assert r.returncode == 0, r.stderr
    assert "Clock: 5m+5s for each player" in r.stdout
    assert "persia [5:00]> " in r.stdout or "persia [4:59]> " in r.stdout
