"""`thermopylae replay RECORD --interactive`: the viewer, driven by keys piped in, on a
short finished record of each game: stepping, jumping, the board as a seat saw it (what
`game.view` gives, no more), every hand only for a finished game, bad keys answered."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from tests.analysis_helpers import short_record
from tests.cli_helpers import run
from thermopylae.cli import app
from thermopylae.engine.protocol import visible_events
from thermopylae.engine.record import Record, replay_to

GAMES = ["thermopyles", "hot-gates", "earth-and-water"]
ENV = {"NO_COLOR": "1", "COLUMNS": "400", "LC_ALL": "C.UTF-8"}
HEAD = re.compile(r"^Step (\d+) of (\d+)(?: \((.+?): (.+)\))? · (.+)$")


@dataclass
class Screen:
    """One step as the viewer showed it."""

    step: int
    who: str | None
    action: str | None
    view: str
    lines: list[str]  # what follows the header: the rule, the board, the log


def screens(output: str) -> list[Screen]:
    found: list[Screen] = []
    for line in output.splitlines():
        m = HEAD.match(line)
        if m:
            found.append(Screen(int(m[1]), m[3], m[4], m[5], []))
        elif found and not line.startswith("["):  # the prompt ends a screen
            found[-1].lines.append(line)
    return found


def board_and_log(screen: Screen, rows: int) -> tuple[list[str], list[str]]:
    """The board's `rows` lines (without their change flags) and the log lines after."""
    body = [line for line in screen.lines if line.strip()]
    assert body[0].startswith("---"), body[0]  # the board's rule, in a pipe
    board = [line[2:] for line in body[1 : 1 + rows]]
    log = [line for line in body[1 + rows :] if line.startswith("  . ")]
    return board, log


def saved(game_id: str, tmp_path: Path) -> tuple[Any, Record, Path]:
    game, rec = short_record(game_id, last=8)
    path = tmp_path / f"{game_id}.json"
    rec.save(path)
    return game, rec, path


def view(path: Path, keys: list[str], *extra: str) -> Result:
    result = CliRunner().invoke(
        app,
        ["replay", str(path), "--interactive", *extra],
        input="".join(f"{k}\n" for k in keys),
        env=ENV,
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


@pytest.mark.parametrize("game_id", GAMES)
def test_stepping_and_jumping_show_the_right_steps(game_id: str, tmp_path: Path) -> None:
    game, rec, path = saved(game_id, tmp_path)
    total = len(rec.steps)
    keys = ["n", "", "p", "g", "G", "5", "home", "end", "q"]
    r = view(path, keys)
    assert r.exit_code == 0, r.output
    shown = screens(r.output)
    steps = [0, 1, 2, 1, 0, total, 5, 0, total]
    assert [s.step for s in shown] == steps
    for s in shown:
        if s.step:
            assert (s.who, s.action) == rec.steps[s.step - 1]
        else:
            assert s.who is None
        assert s.view == "a spectator's view"
    # the spectator's board of step 5 and its log (public events only)
    state = replay_to(game, rec, 5).state
    expected = game.render(game.view(state, None)).splitlines()
    board, log = board_and_log(shown[6], len(expected))
    assert board == expected
    before = replay_to(game, rec, 4).state
    events = game.apply(before, game.parse(rec.steps[4][1]))
    assert log == [f"  . {game.describe(e)}" for e in visible_events(events, None)]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_seat_sees_what_the_game_shows_it_and_no_more(game_id: str, tmp_path: Path) -> None:
    game, rec, path = saved(game_id, tmp_path)
    keys = [k for seat in rec.seats for k in (f"s {seat}", "n")] + ["s", "q"]
    r = view(path, keys, "--step", "2")
    assert r.exit_code == 0, r.output
    shown = screens(r.output)
    k = len(rec.seats)
    assert [s.step for s in shown] == [2, *[n for i in range(k) for n in (2 + i, 3 + i)], 2 + k]
    assert shown[-1].view == "a spectator's view"
    for i, seat in enumerate(rec.seats):
        for screen in shown[1 + 2 * i : 3 + 2 * i]:
            assert screen.view == f"as {seat} saw it"
            state = replay_to(game, rec, screen.step).state
            mine = game.render(game.view(state, i)).splitlines()
            board, log = board_and_log(screen, len(mine))
            assert board == mine
            hidden = [x for x in game.render(game.open_view(state)).splitlines() if x not in mine]
            assert not any(x in board for x in hidden)
            if screen.step:
                before = replay_to(game, rec, screen.step - 1).state
                events = game.apply(before, game.parse(rec.steps[screen.step - 1][1]))
                assert log == [f"  . {game.describe(e)}" for e in visible_events(events, i)]


def test_the_others_hands_are_hidden_from_a_seat(tmp_path: Path) -> None:
    """In 300: The Board Game each side holds cards: persia does not see sparta's."""
    game, rec, path = saved("hot-gates", tmp_path)
    state = replay_to(game, rec, 0).state
    spartan_hand = game.hand_text(game.view(state, 1))
    assert spartan_hand
    r = view(path, ["s persia", "a", "q"])
    shown = screens(r.output)
    cards = [line.strip() for line in spartan_hand.splitlines()[1:] if line.strip()]
    assert cards and not any(c in line for line in shown[1].lines for c in cards)
    assert all(any(c in line for line in shown[2].lines) for c in cards)  # `a`: every hand


@pytest.mark.parametrize("game_id", GAMES)
def test_every_hand_only_for_a_finished_game(game_id: str, tmp_path: Path) -> None:
    game, rec, path = saved(game_id, tmp_path)
    r = view(path, ["3", "a", "n", "q"])
    shown = screens(r.output)
    assert [(s.step, s.view) for s in shown] == [
        (0, "a spectator's view"),
        (3, "a spectator's view"),
        (3, "every hand shown"),
        (4, "every hand shown"),
    ]
    state = replay_to(game, rec, 4).state
    everything = game.render(game.open_view(state)).splitlines()
    assert board_and_log(shown[3], len(everything))[0] == everything

    unfinished = tmp_path / "unfinished.json"
    Record(rec.game, rec.components, rec.options, rec.seats, None, rec.start, rec.steps[:5]).save(
        unfinished
    )
    r = view(unfinished, ["a", "n", "q"])
    assert r.exit_code == 0, r.output
    assert "only once the game of the record is over" in r.output
    assert [(s.step, s.view) for s in screens(r.output)] == [
        (0, "a spectator's view"),
        (1, "a spectator's view"),
    ]


def test_bad_keys_get_a_message_and_the_viewer_goes_on(tmp_path: Path) -> None:
    _game, rec, path = saved("earth-and-water", tmp_path)
    total = len(rec.steps)
    keys = ["p", "zz", "999", "s xerxes", "n", "G", "n", "h", "2"]
    r = view(path, keys)  # no q: the end of the input ends the viewer too
    assert r.exit_code == 0, r.output
    out = " ".join(r.output.split())
    for message in (
        "This is the start",
        "Unknown key 'zz'; type h for the keys.",
        f"There is no step 999: the record has steps 0 to {total}.",
        "No seat 'xerxes'; the seats are persia, greece.",
        "This is the last step.",
        "Keys (each followed by Enter):",
    ):
        assert message in out, message
    assert [s.step for s in screens(r.output)] == [0, 1, total, 2]


def test_a_record_that_stops_replaying_is_shown_up_to_there(tmp_path: Path) -> None:
    _game, rec, _path = saved("hot-gates", tmp_path)
    broken = tmp_path / "broken.json"
    steps = list(rec.steps)
    steps[4] = (steps[4][0], "nonsense")
    Record(rec.game, rec.components, rec.options, rec.seats, None, rec.start, steps).save(broken)
    r = view(broken, ["G", "n", "6", "q"])
    assert r.exit_code == 0, r.output
    assert "The record replays only up to step 4: step 5" in r.output
    assert "Step 6 cannot be shown: step 5" in r.output
    assert [s.step for s in screens(r.output)] == [0, 4]

    for args, message in [
        (["--seat", "xerxes"], "--seat xerxes: not a seat of this game"),
        (["--step", "99"], "--step 99: the record has steps 0 to 8"),
    ]:
        r = view(broken, ["q"], *args)
        assert r.exit_code == 2 and message in r.output, r.output


def test_piped_keys_through_the_installed_command(tmp_path: Path) -> None:
    _game, _rec, path = saved("thermopyles", tmp_path)
    done = run("replay", str(path), "-i", answers=["n", "n", "q"])
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert [s.step for s in screens(done.stdout)] == [0, 1, 2]
    assert "[2/8]> q" in done.stdout
