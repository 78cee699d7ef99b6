"""`--out` lines: one per game, and each game rebuilt from its line has the same digest."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from thermopylae.ai.base import make_agent
from thermopylae.engine import registry
from thermopylae.engine.components import digest
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.record import Record, replay
from thermopylae.sim import gamelog
from thermopylae.sim.match import play_indexed, record_digest, replay_indexed
from thermopylae.sim.simulate import simulate
from thermopylae.sim.tournament import tournament

KEYS = {
    "game",
    "components",
    "seed",
    "index",
    "agents",
    "options",
    "outcome",
    "length",
    "record_digest",
}


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(t) for t in path.read_text().splitlines()]


@pytest.mark.parametrize(
    "game_id, agent, options",
    [
        ("thermopyles", "heuristic", {"players": 2}),
        ("earth-and-water", "persia=heuristic,greece=random", {}),
        ("hot-gates", "random", {"players": 4}),
    ],
)
def test_simulate_lines_parse_and_recheck(
    tmp_path: Path, game_id: str, agent: str, options: dict[str, Any]
) -> None:
    out = tmp_path / "games.jsonl"
    summary = simulate(game_id, agent, 6, options, seed=12, workers=2, out=out)
    got = lines(out)
    assert len(got) == 6
    assert [d["index"] for d in got] == list(range(6))
    game = registry.get(game_id)
    for d in got:
        assert set(d) == KEYS
        assert d["game"] == game_id and d["seed"] == 12
        assert d["options"] == game.options(options)
        assert list(d["agents"]) == list(game.seats(d["options"]))
        assert d["components"] == game.components_digest
        assert set(d["outcome"]) == {"results", "scores", "reason", "turns"}
        assert d["length"] > 0 and len(d["record_digest"]) == 16
        check = gamelog.recheck(d)
        assert check.ok, check.problems
        assert check.digest == d["record_digest"]
    assert summary.mean_turns == pytest.approx(sum(d["outcome"]["turns"] for d in got) / 6)


def test_tournament_lines_recheck(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    t = tournament(
        "thermopyles",
        ["random", "ismcts:iterations=20"],
        3,
        {"players": 2},
        seed=2,
        workers=2,
        out=out,
    )
    got = lines(out)
    assert len(got) == t.total_games == 6
    for d, (p, row) in zip(
        got, [(p, r) for p, rows in zip(t.pairings, t.rows, strict=True) for r in rows], strict=True
    ):
        assert d["pairing"] == p.number and d["run_seed"] == 2 and d["seed"] == p.seed
        assert list(d["agents"].values()) == list(p.agents)
        assert d["index"] == row.index and d["record_digest"] == row.digest
        assert gamelog.recheck(d).ok


def test_replay_indexed_is_the_game_the_run_played(tmp_path: Path) -> None:
    game = registry.get("earth-and-water")
    options = game.options({})
    agents = ["heuristic", "random"]
    rec = replay_indexed(game, options, agents, 3, 4)
    assert isinstance(rec, Record) and rec.seed is None
    played = play_indexed(game, options, [make_agent(a, game) for a in agents], 3, 4, record=True)
    assert played.digest == record_digest(rec) == digest(rec.to_json())
    assert rec.outcome == played.outcome.to_json() and len(rec.steps) == played.steps
    assert replay(game, rec).ok
    path = tmp_path / "rec.json"
    rec.save(path)  # the digest of the saved file is the line's
    assert digest(json.loads(path.read_text())) == played.digest
    assert (
        play_indexed(game, options, [make_agent(a, game) for a in agents], 3, 4).digest is None
    )  # no record, no digest
    with pytest.raises(ThermopylaeError, match="seats"):
        replay_indexed(game, options, ["random"], 3, 4)


def test_a_tampered_line_fails_the_recheck(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    simulate("thermopyles", "random", 3, {}, seed=1, workers=1, out=out)
    d = lines(out)[1]
    assert gamelog.recheck(d).ok
    wrong_index = {**d, "index": 2}
    check = gamelog.recheck(wrong_index)
    assert not check.ok and any("digest" in p for p in check.problems)
    wrong_agent = {**d, "agents": {"p1": "heuristic"}}
    assert not gamelog.recheck(wrong_agent).ok


def test_reading_lines(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    simulate("thermopyles", "random", 3, {}, seed=1, workers=1, out=out)
    assert gamelog.parse_ref(f"{out}:2") == (out, 2)
    assert gamelog.read(out, 2) == lines(out)[1]
    for ref in ("games.jsonl", "games.jsonl:0", "games.jsonl:x", ":3"):
        with pytest.raises(ThermopylaeError, match="FILE:N"):
            gamelog.parse_ref(ref)
    with pytest.raises(ThermopylaeError, match="3 line"):
        gamelog.read(out, 4)
    with pytest.raises(ThermopylaeError, match="cannot read"):
        gamelog.read(tmp_path / "none.jsonl", 1)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": "thermopyles"}\nnot json\n')
    with pytest.raises(ThermopylaeError, match="not a game line"):
        gamelog.read(bad, 1)
    with pytest.raises(ThermopylaeError, match="not valid JSON"):
        gamelog.read(bad, 2)
