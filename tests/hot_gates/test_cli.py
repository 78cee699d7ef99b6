"""The command line with 300: The Board Game (`hot-gates`), through the real entry point
(a subprocess), as a user or a script would run it: answers are piped in one per line.

The human at the keyboard always answers `1`: the first legal action is always one that
moves the game on (pass, a march, a casualty, a placement), so a piped game reaches its
end, and the record written with --record replays."""

from __future__ import annotations

import json
import random
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import flat
from tests.cli_helpers import run as cli_run
from thermopylae.engine.protocol import CHANCE
from thermopylae.engine.record import Position
from thermopylae.games.hot_gates import game as hot_gates_game
from thermopylae.games.hot_gates.state import MARCH

GAME = hot_gates_game()
DEFAULT_TOML = (
    Path(__file__).parents[2] / "src" / "thermopylae" / "games" / "hot_gates" / "components.toml"
)
SEATS = {
    2: ["persia", "sparta"],
    3: ["persia", "sparta-a", "sparta-b"],
    4: ["persia-a", "persia-b", "sparta-a", "sparta-b"],
}


run = partial(cli_run, timeout=180)  # whole piped games of up to 4 players


# -- listing, rules, simulation, benchmark --------------------------------------------------


def test_games_lists_hot_gates_for_2_to_4_players() -> None:
    r = run("games")
    assert r.returncode == 0, r.stderr
    line = next(ln for ln in r.stdout.splitlines() if "hot-gates" in ln)
    assert "300: The Board Game" in line
    cells = [word for word in line.split() if word not in ("│", "┃", "|")]
    assert cells[-1] == "2-4"


def test_rules_are_labelled_provisional_and_list_the_52_cards() -> None:
    r = run("rules", "hot-gates")
    assert r.returncode == 0, r.stderr
    assert "PROVISIONAL" in r.stdout
    out = flat(r.stdout)
    c = GAME.components
    for card in c.cards:
        assert (
            flat(f"{card.code} {card.letter} [{card.window}] {card.title}: {card.text}") in out
        ), card.code
    assert "s27" not in out.split() and "p27" not in out.split()
    for u in c.units:
        assert f"{u.name} ({u.id}) x{u.count}" in out
    assert f"Goat Path: {c.goat_path} spaces" in out
    assert c.digest in out


def test_rules_with_a_user_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    title = GAME.components.cards[0].title
    path.write_text(
        DEFAULT_TOML.read_text(encoding="utf-8").replace(
            f'title = "{title}"', 'title = "Madness? This is Sparta!"', 1
        ),
        encoding="utf-8",
    )
    r = run("rules", "hot-gates", "--components", str(path))
    assert r.returncode == 0, r.stderr
    assert "Madness? This is Sparta!" in r.stdout
    assert hot_gates_game(path).components_digest in flat(r.stdout)


def simulate(players: int, *extra: str, games: int = 20) -> dict[str, Any]:
    r = run(
        "simulate",
        "hot-gates",
        "--players",
        str(players),
        "--agent",
        "random",
        "--games",
        str(games),
        "--seed",
        "5",
        "--json",
        *extra,
    )
    assert r.returncode == 0, r.stderr
    data: dict[str, Any] = json.loads(r.stdout)
    return data


def check_summary(data: dict[str, Any], players: int, games: int) -> None:
    assert {
        "game",
        "agents",
        "options",
        "seed",
        "workers",
        "games",
        "wins",
        "draws",
        "win_rate",
        "ci95",
        "mean_turns",
        "games_per_second",
        "seconds",
        "reasons",
    } <= set(data)
    assert data["game"] == "hot-gates" and data["games"] == games and data["seed"] == 5
    assert data["options"] == {"players": players}
    assert data["agents"] == {seat: "random" for seat in SEATS[players]}
    wins, rates, cis = data["wins"], data["win_rate"], data["ci95"]
    assert set(wins) == set(rates) == set(cis) == set(SEATS[players])
    assert data["draws"] == 0
    if players == 2:
        assert sum(wins.values()) == games  # exactly one winner a game
    else:
        assert games <= sum(wins.values()) <= 2 * games  # ties share a victory
    for seat, w in wins.items():
        lo, hi = cis[seat]
        assert 0 <= w <= games
        assert rates[seat] == pytest.approx(w / games)
        assert 0 <= lo <= rates[seat] <= hi <= 1
    assert sum(data["reasons"].values()) == games
    # a round moves Ephialtes at least one space unless a delay card holds him
    delays = sum(c.effect == "delay" for c in GAME.components.cards)
    assert 0 < data["mean_turns"] <= GAME.components.goat_path + delays
    assert data["games_per_second"] > 0


def test_simulate_two_players_json() -> None:
    data = simulate(2)
    check_summary(data, 2, 20)
    again = simulate(2, "--workers", "1")
    assert again["workers"] == 1
    assert again["wins"] == data["wins"] and again["mean_turns"] == data["mean_turns"]


@pytest.mark.parametrize("players", [3, 4])
def test_simulate_three_and_four_players_json(players: int) -> None:
    check_summary(simulate(players, "--workers", "1"), players, 20)


def test_simulate_text_output_and_bad_players() -> None:
    r = run(
        "simulate",
        "hot-gates",
        "--players",
        "3",
        "--agent",
        "heuristic",
        "--games",
        "6",
        "--seed",
        "1",
        "--workers",
        "1",
    )
    assert r.returncode == 0, r.stderr
    out = flat(r.stdout)
    assert "games 6" in out and "win rate" in out and "95% CI" in out
    for seat in SEATS[3]:
        assert seat in out
    r = run("simulate", "hot-gates", "--players", "5", "--games", "2")
    assert r.returncode != 0
    assert "players must be 2, 3 or 4" in flat(r.stderr)
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("players", [2, 4])
def test_bench_runs(players: int) -> None:
    r = run("bench", "hot-gates", "--seconds", "0.2", "--players", str(players))
    assert r.returncode == 0, r.stderr
    assert "random" in r.stdout and "heuristic" in r.stdout and "games/s" in r.stdout
    assert f"'players': {players}" in r.stdout


# -- playing from piped input ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "ai", "human", "seed"),
    [
        (2, ["persia=heuristic"], "sparta", 3),
        (2, ["sparta=heuristic"], "persia", 8),
        (3, ["persia=heuristic", "sparta-b=random"], "sparta-a", 4),
        (3, ["persia=random", "sparta-a=heuristic"], "sparta-b", 6),
        (4, ["persia-a=heuristic", "persia-b=random", "sparta-b=heuristic"], "sparta-a", 5),
        (4, ["persia-a=random", "sparta-a=random", "sparta-b=heuristic"], "persia-b", 7),
    ],
)
def test_human_against_agents_to_the_end_then_replay(
    tmp_path: Path, players: int, ai: list[str], human: str, seed: int
) -> None:
    rec = tmp_path / "game.json"
    args = [
        "play",
        "hot-gates",
        "--players",
        str(players),
        "--seed",
        str(seed),
        "--record",
        str(rec),
    ]
    for spec in ai:
        args += ["--ai", spec]
    r = run(*args, answers=["1"] * 3000)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    out = flat(r.stdout)
    assert "provisional component values" in out
    assert f"seats {', '.join(SEATS[players])}; seed {seed}" in out
    assert "Game over:" in out
    assert "Refused" not in out
    assert f"Record saved to {rec}" in out
    assert f"{human}> 1" in r.stdout  # the human was asked
    # the human sees its own hand and draws, never another seat's
    for seat in SEATS[players]:
        if seat == human:
            continue
        assert f"Hand of {seat}:" not in r.stdout
        assert f"{seat} drew" not in r.stdout
    assert f"Hand of {human}:" in r.stdout
    data = json.loads(rec.read_text())
    assert data["game"] == "hot-gates" and data["seats"] == SEATS[players]
    assert data["options"] == {"players": players} and data["seed"] == seed
    assert data["outcome"] is not None and data["final"] is not None
    assert {"chance", human} <= {who for who, _ in data["steps"]}
    rp = run("replay", str(rec))
    assert rp.returncode == 0, rp.stderr
    assert rp.stdout.startswith("OK:")
    assert f"{len(data['steps'])} steps replayed" in flat(rp.stdout)


def test_agents_alone_play_to_the_end(tmp_path: Path) -> None:
    rec = tmp_path / "ai.json"
    r = run(
        "play",
        "hot-gates",
        "--players",
        "4",
        "--ai",
        "persia-a=random",
        "--ai",
        "persia-b=heuristic",
        "--ai",
        "sparta-a=random",
        "--ai",
        "sparta-b=heuristic",
        "--seed",
        "9",
        "--record",
        str(rec),
    )
    assert r.returncode == 0, r.stderr
    assert "Game over:" in r.stdout
    rp = run("replay", str(rec))
    assert rp.returncode == 0 and rp.stdout.startswith("OK:"), rp.stderr


def test_tampered_record_fails_replay(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    run(
        "play",
        "hot-gates",
        "--players",
        "3",
        "--ai",
        "persia=random",
        "--ai",
        "sparta-a=random",
        "--ai",
        "sparta-b=random",
        "--seed",
        "9",
        "--record",
        str(rec),
    )
    data = json.loads(rec.read_text())
    k = next(i for i, (who, _) in enumerate(data["steps"]) if who == "sparta-b")
    data["steps"][k][1] = "enter A1 beast"
    rec.write_text(json.dumps(data))
    r = run("replay", str(rec))
    assert r.returncode == 1
    assert r.stdout == ""
    assert flat(r.stderr).startswith(f"replay failed: step {k + 1} (sparta-b: enter A1 beast)")


def test_save_mid_game_then_continue(tmp_path: Path) -> None:
    """`save FILE` in the session writes a record of the game so far, which replays
    ("game not over") and which `play --from` continues."""
    first = tmp_path / "first.json"
    r = run(
        "play",
        "hot-gates",
        "--ai",
        "persia=heuristic",
        "--seed",
        "3",
        answers=["1"] * 12 + [f"save {first}", "quit"],
    )
    assert r.returncode == 0, r.stderr
    assert f"Record saved to {first}" in flat(r.stdout)
    before = json.loads(first.read_text())
    assert before["outcome"] is None
    assert sum(who == "sparta" for who, _ in before["steps"]) == 12
    rp = run("replay", str(first))
    assert rp.returncode == 0 and "game not over" in rp.stdout, rp.stderr
    second = tmp_path / "second.json"
    r = run(
        "play",
        "hot-gates",
        "--from",
        str(first),
        "--ai",
        "persia=heuristic",
        "--seed",
        "4",
        answers=["1"] * 3000 + [f"save {second}", "quit"],
    )
    assert r.returncode == 0, r.stderr
    after = json.loads(second.read_text())
    assert after["steps"][: len(before["steps"])] == before["steps"]
    assert after["outcome"] is not None
    assert run("replay", str(second)).returncode == 0


def _sparta_marching(seed: int) -> Any:
    """A 2-player position where Sparta marches with a choice, and moving a unit leaves
    it another choice (no card or die in between, so the move can be undone)."""
    game = GAME
    for k in range(seed, seed + 100):
        rng = random.Random(k)
        s = game.new(game.options({"players": 2}))
        while (seat := game.to_act(s)) is not None:
            if seat == 1 and s.phase == MARCH and len(game.legal(s)) >= 3:
                t = game.copy(s)
                game.apply(t, game.legal(t)[0])
                if game.to_act(t) == 1:
                    return game.state_from_json(game.state_to_json(s))
            a = game.sample_chance(s, rng) if seat == CHANCE else rng.choice(list(game.legal(s)))
            game.apply(s, a, quiet=True)
    raise AssertionError("no Spartan march with a choice")


def test_undo_takes_back_a_march(tmp_path: Path) -> None:
    game = GAME
    start_state = _sparta_marching(1)
    start = tmp_path / "start.json"
    Position.of(game, game.options({"players": 2}), start_state).save(start)
    first = game.format(game.legal(start_state)[0])
    rec, after = tmp_path / "r.json", tmp_path / "after.json"
    answers = ["1", "undo", "undo", f"position {after}", f"save {rec}", "quit"]
    r = run(
        "play",
        "hot-gates",
        "--from",
        str(start),
        "--ai",
        "persia=heuristic",
        "--seed",
        "2",
        answers=answers,
    )
    assert r.returncode == 0, r.stderr
    out = flat(r.stdout)
    assert f"Undone: {first}." in out
    assert "Nothing to undo" in out
    # the position after the undo is the one the session started from
    assert Position.load(after).state == Position.load(start).state
    assert json.loads(rec.read_text())["steps"] == []
    assert run("replay", str(rec)).returncode == 0


def test_illegal_and_unreadable_answers_are_refused(tmp_path: Path) -> None:
    game = GAME
    start = tmp_path / "start.json"
    s = _sparta_marching(5)
    Position.of(game, game.options({"players": 2}), s).save(start)
    after = tmp_path / "after.json"
    answers = ["enter A1 beast", "fly away", "99", "0", "play s99", "", f"position {after}", "quit"]
    r = run("play", "hot-gates", "--from", str(start), "--ai", "persia=heuristic", answers=answers)
    assert r.returncode == 0, r.stderr
    out = flat(r.stdout)
    assert out.count("Refused") == 5
    assert "'enter A1 beast' is not legal now" in out
    assert "'fly away' is not a 300: The Board Game action" in out
    assert "there is no choice 99" in out and "there is no choice 0" in out
    assert "cards are s1-s26" in out
    assert "Choose one of the legal actions" in out
    assert Position.load(after).state == Position.load(start).state
    assert "Traceback" not in r.stderr


# -- a bad components file ------------------------------------------------------------------


def test_play_with_a_bad_components_file_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "BAD.toml"
    text = DEFAULT_TOML.read_text(encoding="utf-8")
    text = text.replace("count = 20", "count = 19", 1)
    text = text.replace("faces = [", "faces = [-1, ", 1)
    bad.write_text(text, encoding="utf-8")
    r = run("play", "hot-gates", "--components", str(bad), "--seed", "1", answers=["quit"])
    assert r.returncode == 2
    err = flat(r.stderr)
    assert err.startswith(f"error: {bad}: 2 problems")
    assert "unit spartan: the game has 20, not 19" in err
    assert "negative" in err
    assert "Traceback" not in r.stderr
    assert r.stdout == ""
    broken = tmp_path / "broken.toml"
    broken.write_text("title = \n", encoding="utf-8")
    r = run("play", "hot-gates", "--components", str(broken), answers=["quit"])
    assert r.returncode == 2 and "not valid TOML" in flat(r.stderr)
    assert "Traceback" not in r.stderr
