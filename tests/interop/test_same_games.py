"""The learning interfaces play the protocol's games: with the same random source for
chance, the moves chosen through PettingZoo and through Gymnasium lead to the states the
protocol (`apply`, then each `sample_chance` applied while chance is to act) reaches
from the same moves. A game's own `apply_advance` (Thermopyles fuses a decision and its
chance steps) must not change a draw."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from tests.interop.conftest import ALL_CASES, case_id
from thermopylae.engine import registry
from thermopylae.engine.game import GameBase
from thermopylae.engine.protocol import CHANCE, GenericGame
from thermopylae.interop.gymnasium import ThermopylaeEnv
from thermopylae.interop.pettingzoo import env as aec_env


def protocol_replay(game: GenericGame, options: dict[str, Any], seed: int, moves: list[Any]) -> Any:
    """The state the protocol reaches from `moves`, chance drawn from `Random(seed)`."""
    rng = random.Random(seed)
    state = game.new(options)
    played = iter(moves)
    while (who := game.to_act(state)) is not None:
        if who == CHANCE:
            game.apply(state, game.sample_chance(state, rng), quiet=True)
        else:
            game.apply(state, next(played), quiet=True)
    assert next(played, None) is None
    return state


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_pettingzoo_plays_the_protocols_games(case: tuple[str, dict[str, Any]]) -> None:
    game_id, options = case
    game = registry.get(game_id)
    for seed in range(3):
        e = aec_env(game_id, **options)
        e.reset(seed=seed)
        pick = random.Random(100 + seed)
        moves = []
        for _agent in e.agent_iter():
            obs, _, done, cut, _ = e.last()
            if done or cut:
                e.step(None)
                continue
            codes = np.flatnonzero(obs["action_mask"])
            code = int(codes[int(pick.random() * len(codes))])
            moves.append(game.decode(code))
            e.step(code)
        expected = protocol_replay(game, game.options(options), seed, moves)
        assert game.state_to_json(e.state_) == game.state_to_json(expected)


def gymnasium_game(game_id: str, options: dict[str, Any], seed: int) -> str:
    """The final state (JSON) of a Gymnasium episode, the learner picking at random."""
    game = registry.get(game_id)
    e = ThermopylaeEnv(game_id, opponent="random", **options)
    _, info = e.reset(seed=seed)
    pick = random.Random(200 + seed)
    done = False
    while not done:
        codes = np.flatnonzero(info["action_mask"])
        _, _, terminated, truncated, info = e.step(int(codes[int(pick.random() * len(codes))]))
        done = terminated or truncated
    assert game.to_act(e.state_) is None
    return json.dumps(game.state_to_json(e.state_), sort_keys=True)


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_gymnasium_plays_the_same_games_as_with_the_default_step(
    case: tuple[str, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Gymnasium steps with the game's `apply_advance` (a game may fuse a decision and its
    chance steps): the same games as with `GameBase`'s, a quiet `apply` then the
    protocol's chance loop."""
    game_id, options = case
    fused = [gymnasium_game(game_id, options, seed) for seed in range(3)]
    monkeypatch.setattr(type(registry.get(game_id)), "apply_advance", GameBase.apply_advance)
    assert [gymnasium_game(game_id, options, seed) for seed in range(3)] == fused
