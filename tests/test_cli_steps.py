"""`replay --step N` (the board after a step, as a seat saw it) and `play --from RECORD
--step N` (what if? play on from there, with what the chosen seat could not see dealt
anew, so the real hidden cards of a game are never told)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from thermopylae.ai.base import make_agent
from thermopylae.cli import app
from thermopylae.engine import registry
from thermopylae.engine.play import play
from thermopylae.engine.record import Record, replay_to

PLAY = ["play"]
ENV = {"NO_COLOR": "1", "COLUMNS": "400", "LC_ALL": "C.UTF-8"}


def finished_record(game_id: str, tmp_path: Path, seed: int = 5) -> tuple[Path, Record]:
    """A whole random game's record, saved."""
    game = registry.get(game_id)
    options = game.options({})
    rec = Record.begin(game, options, seed)
    state = game.new(options)
    names = list(game.seats(options))
    rng = random.Random(seed)

    def step(seat: int, action: object) -> None:
        rec.add("chance" if seat < 0 else names[seat], game.format(action))

    agents = [make_agent("random", game) for _ in names]
    play(game, state, agents, rng, random.Random(seed + 1), on_step=step)
    rec.close(game, state)
    path = tmp_path / f"{game_id}.json"
    rec.save(path)
    return path, rec


def test_replay_step_shows_the_board_after_that_step_as_the_seat_saw_it(tmp_path: Path) -> None:
    path, rec = finished_record("earth-and-water", tmp_path)
    game = registry.get("earth-and-water")
    n = len(rec.steps) // 2
    r = CliRunner().invoke(
        app, ["replay", str(path), "--step", str(n), "--seat", "greece"], env=ENV
    )
    assert r.exit_code == 0, r.output
    assert f"Step {n} of {len(rec.steps)}" in r.output
    state = replay_to(game, rec, n).state
    expected = game.render(game.view(state, 1))
    assert expected.splitlines()[0].strip() in r.output
    assert all(line.strip() in r.output for line in expected.splitlines() if line.strip())


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (["--step", "100000"], "is not in the record"),
        (["--step", "3", "--seat", "sparta"], "not a seat of this game"),
    ],
)
def test_replay_step_refuses_what_is_not_there(tmp_path: Path, args: list[str], text: str) -> None:
    path, _rec = finished_record("earth-and-water", tmp_path)
    r = CliRunner().invoke(app, ["replay", str(path), *args], env=ENV)
    assert r.exit_code != 0 and text in r.output, r.output


def test_play_from_a_step_deals_anew_what_the_seat_could_not_see(tmp_path: Path) -> None:
    path, rec = finished_record("thermopyles", tmp_path)
    game = registry.get("thermopyles")
    n = next(
        i for i in range(len(rec.steps) // 2, len(rec.steps)) if rec.steps[i][0] != "chance"
    )  # a step where a seat decides
    out = tmp_path / "whatif.json"
    r = CliRunner().invoke(
        app,
        [
            *PLAY,
            "thermopyles",
            "--from",
            str(path),
            "--step",
            str(n),
            "--seed",
            "9",
            "--record",
            str(out),
        ],
        input="quit\n",
        env=ENV,
    )
    assert r.exit_code == 0, r.output
    started = Record.load(out)
    assert started.start is not None and started.steps == []
    true_state = replay_to(game, rec, n).state
    seat = game.to_act(true_state)
    assert seat is not None and seat >= 0
    dealt = game.state_from_json(started.start)
    # The seat sees what it saw; the hidden rest is dealt from what it could be.
    assert game.view(dealt, seat) == game.view(true_state, seat)
    twin = game.determinize(true_state, seat, random.Random(1234))
    again = game.determinize(twin, seat, random.Random(9))  # a twin it cannot tell apart
    assert json.dumps(game.state_to_json(again), sort_keys=True) == json.dumps(
        started.start, sort_keys=True
    )  # the position depends on nothing the seat could not see


def test_play_from_a_step_with_the_true_cards_only_for_a_finished_game(tmp_path: Path) -> None:
    path, rec = finished_record("earth-and-water", tmp_path)
    out = tmp_path / "true.json"
    r = CliRunner().invoke(
        app,
        [
            *PLAY,
            "earth-and-water",
            "--from",
            str(path),
            "--step",
            "10",
            "--true-cards",
            "--record",
            str(out),
        ],
        input="quit\n",
        env=ENV,
    )
    assert r.exit_code == 0, r.output
    game = registry.get("earth-and-water")
    true_state = replay_to(game, rec, 10).state
    assert Record.load(out).start == game.state_to_json(true_state)
    unfinished = Record.load(path)
    unfinished.steps = unfinished.steps[:20]
    unfinished.final = unfinished.outcome = None
    part = tmp_path / "part.json"
    unfinished.save(part)
    r = CliRunner().invoke(
        app,
        ["play", "earth-and-water", "--from", str(part), "--step", "10", "--true-cards"],
        input="quit\n",
        env=ENV,
    )
    assert r.exit_code != 0 and "finished game" in r.output


def test_play_step_without_from_is_refused() -> None:
    r = CliRunner().invoke(app, ["play", "thermopyles", "--step", "3"], input="quit\n", env=ENV)
    assert r.exit_code != 0 and "--step needs --from" in r.output
