"""A corrupt or hand-edited game record is refused naming the first bad step (issue 8).

A real record (a random game played through `sim.match.play`) is edited at a random step:
a bad action text, an action of the notation the rules refuse there, the wrong seat, or
the file cut off inside that step. `thermopylae replay FILE` must fail and name that step.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.record_helpers import refused_action, state_before
from thermopylae.ai.base import make_agent
from thermopylae.cli import app
from thermopylae.engine import registry
from thermopylae.engine.record import CHANCE_NAME, Record
from thermopylae.sim.match import play, rngs

GAMES = {
    "thermopyles": {"players": 2},
    "earth-and-water": {},
    "hot-gates": {"players": 2},
}
SEEDS = [1, 2, 3]


def played(game_id: str, seed: int) -> tuple[Any, Record]:
    game = registry.get(game_id)
    options = game.options(GAMES[game_id])
    rec = Record.begin(game, options)
    chance_rng, agent_rng = rngs(seed, 0)
    play(
        game,
        options,
        [make_agent("random", game) for _ in game.seats(options)],
        chance_rng,
        agent_rng,
        rec,
    )
    return game, rec


def replay_output(path: Path) -> tuple[int, str]:
    r = CliRunner().invoke(app, ["replay", str(path)], env={"NO_COLOR": "1", "COLUMNS": "400"})
    return r.exit_code, " ".join(r.output.split())


def decision_steps(rec: Record) -> list[int]:
    """1-based numbers of the steps taken by a seat (not chance)."""
    return [n for n, (who, _) in enumerate(rec.steps, start=1) if who != CHANCE_NAME]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game_id", list(GAMES))
def test_unedited_record_replays(tmp_path: Path, game_id: str, seed: int) -> None:
    _, rec = played(game_id, seed)
    rec.save(tmp_path / "game.json")
    code, out = replay_output(tmp_path / "game.json")
    assert code == 0, out
    assert f"OK: {len(rec.steps)} steps replayed" in out


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game_id", list(GAMES))
@pytest.mark.parametrize("edit", ["bad-text", "refused-action", "wrong-seat"])
def test_hand_edited_step_is_named(tmp_path: Path, game_id: str, seed: int, edit: str) -> None:
    game, rec = played(game_id, seed)
    rng = random.Random(f"{game_id}-{seed}-{edit}")
    n = rng.choice(decision_steps(rec) if edit != "bad-text" else range(1, len(rec.steps) + 1))
    who, text = rec.steps[n - 1]
    if edit == "bad-text":
        rec.steps[n - 1] = (who, rng.choice(["zzz", "", "fight -1", text + " ???", "\u2603"]))
    elif edit == "refused-action":
        rec.steps[n - 1] = (who, refused_action(game, state_before(game, rec, n)))
    else:
        others = [s for s in [*rec.seats, CHANCE_NAME, "nobody"] if s != who]
        rec.steps[n - 1] = (rng.choice(others), text)
    rec.save(tmp_path / "edited.json")
    code, out = replay_output(tmp_path / "edited.json")
    assert code == 1, out
    assert f"step {n} " in out, (n, rec.steps[n - 1], out)
    assert "step 1 " not in out or n == 1


@pytest.mark.parametrize("game_id", list(GAMES))
def test_malformed_step_entry_is_named(tmp_path: Path, game_id: str) -> None:
    """A step that is not a [who, action] pair (a hand edit dropping a field)."""
    _, rec = played(game_id, 4)
    data = rec.to_json()
    n = random.Random(game_id).randrange(1, len(data["steps"]) + 1)
    data["steps"][n - 1] = data["steps"][n - 1][:1]
    (tmp_path / "edited.json").write_text(json.dumps(data), encoding="utf-8")
    code, out = replay_output(tmp_path / "edited.json")
    assert code != 0, out
    assert f"steps[{n}]" in out or f"step {n}" in out, (n, out)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_truncated_record_names_the_step(tmp_path: Path, game_id: str) -> None:
    _, rec = played(game_id, 5)
    path = tmp_path / "game.json"
    rec.save(path)
    text = path.read_text(encoding="utf-8")
    n = random.Random(game_id).randrange(2, len(rec.steps) + 1)
    action = rec.steps[n - 1][1]
    # saved with indent=1, each step takes four lines: "[", who, action, "],"
    lines = text.splitlines(keepends=True)
    first = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith('"steps"'))
    line = first + 1 + (n - 1) * 4 + 2
    assert json.loads(lines[line].strip().rstrip(",")) == action, lines[line]
    cut = sum(len(ln) for ln in lines[:line]) + len(lines[line]) // 2
    path.write_text(text[:cut], encoding="utf-8")
    code, out = replay_output(path)
    assert code != 0, out
    assert f"step {n}" in out, (n, out)
