"""The proof that the contract is complete, its learning half (issue 17): the toy game of
tests/toy is wrapped by the Gymnasium, PettingZoo and OpenSpiel interfaces of
`thermopylae.interop` through its `observer(options)` alone, with no change outside its
own package. Its observations are the toy observer's features of the seat's view."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.toy import GAME_ID, Toy

pytestmark = pytest.mark.usefixtures("toy_registered")


def expected_observation(toy: Toy, players: int, view: dict[str, object]) -> np.ndarray:
    observer = toy.observer({"players": players})
    assert observer is not None
    return np.asarray(observer.features(view), dtype=np.float32)


@pytest.mark.parametrize("players", [2, 3])
def test_gymnasium_wraps_the_toy(toy_registered: Toy, players: int) -> None:
    pytest.importorskip("gymnasium")
    from gymnasium import spaces

    from thermopylae.interop.gymnasium import ThermopylaeEnv

    env = ThermopylaeEnv(GAME_ID, seat=1, opponent="random", players=players)
    observer = toy_registered.observer({"players": players})
    assert observer is not None
    assert env.observation_space.shape == (observer.size,)
    assert isinstance(env.action_space, spaces.Discrete)
    assert int(env.action_space.n) == toy_registered.num_actions
    rng = random.Random(players)
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        done, steps = False, 0
        while not done:
            view = toy_registered.view(env.state_, 1)
            assert np.allclose(obs, expected_observation(toy_registered, players, view))
            legal = np.flatnonzero(info["action_mask"])
            assert len(legal) > 0
            obs, reward, done, truncated, info = env.step(int(rng.choice(list(legal))))
            assert not truncated
            steps += 1
        assert reward in (0.0, 1.0) or 0.0 < reward < 1.0
        assert info["outcome"] is not None
        assert 1 <= steps <= 5


def test_pettingzoo_wraps_the_toy(toy_registered: Toy) -> None:
    pytest.importorskip("pettingzoo")
    from thermopylae.interop.pettingzoo import env

    aec = env(GAME_ID, players=3)
    assert aec.possible_agents == ["p1", "p2", "p3"]
    rng = random.Random(3)
    aec.reset(seed=3)
    plays = 0
    for agent in aec.agent_iter():
        observation, _, termination, truncation, _ = aec.last()
        seat = aec.possible_agents.index(agent)
        view = toy_registered.view(aec.state_, seat)
        assert np.allclose(
            observation["observation"], expected_observation(toy_registered, 3, view)
        )
        if termination or truncation:
            aec.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        aec.step(int(rng.choice(list(legal))))
        plays += 1
    assert plays == 10  # every card is played


def test_openspiel_wraps_the_toy(toy_registered: Toy) -> None:
    pytest.importorskip("pyspiel")
    from thermopylae.interop import openspiel

    game = openspiel.load(GAME_ID, players=2)
    assert game.num_players() == 2
    assert game.num_distinct_actions() == toy_registered.num_actions
    rng = random.Random(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            codes, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1.0) < 1e-9
            state.apply_action(rng.choice(codes))
            continue
        player = state.current_player()
        view = toy_registered.view(state.tstate, player)
        tensor = state.observation_tensor(player)
        assert np.allclose(tensor, expected_observation(toy_registered, 2, view))
        state.apply_action(rng.choice(state.legal_actions()))
    assert sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])
