"""The PettingZoo AEC environments and the observations they are built from."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test

from tests.ai.test_ismcts import hidden_twin
from tests.helpers import decision_positions
from tests.interop.conftest import ALL_CASES, case_id
from thermopylae.engine import registry
from thermopylae.engine.errors import IllegalAction
from thermopylae.interop import observe
from thermopylae.interop.pettingzoo import env


# api_test's advice (agent names like "player_0", Box-only spaces) does not fit: silence it
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_api(case: tuple[str, dict[str, Any]]) -> None:
    game_id, options = case
    api_test(env(game_id, **options), num_cycles=300)


def play(e: Any, seed: int) -> tuple[dict[str, float], int]:
    """A whole game with random legal actions: the final rewards and the number of steps."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter(max_iter=100_000):
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        assert obs["action_mask"].dtype == np.int8
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        e.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    return totals, steps


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_whole_game_rewards_are_outcome_scores(case: tuple[str, dict[str, Any]]) -> None:
    game_id, options = case
    e = env(game_id, **options)
    totals, steps = play(e, 3)
    assert steps > 0 and not e.agents
    assert all(isinstance(v, float) for v in totals.values())
    assert totals == play(env(game_id, **options), 3)[0]  # seeded chance: reproducible


def test_spaces_are_stable_and_match_the_layout() -> None:
    e = env("hot-gates", players=3)
    g = e.game
    for agent in e.possible_agents:
        assert e.observation_space(agent) is e.observation_space(agent)
        assert e.action_space(agent) is e.action_space(agent)
        space = e.observation_space(agent)["observation"]
        assert space.shape == (sum(size for _, size, _ in observe.layout(g, e.options)),)
        assert e.action_space(agent).n == g.num_actions


def test_illegal_action_raises() -> None:
    e = env("earth-and-water")
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    with pytest.raises(IllegalAction):
        e.step(int(np.flatnonzero(mask == 0)[0]))


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_layout_and_mask(case: tuple[str, dict[str, Any]]) -> None:
    game_id, options = case
    g = registry.get(game_id)
    opts = g.options(options)
    size = observe.observation_size(g, opts)
    assert size == sum(s for _, s, _ in observe.layout(g, opts))
    for s in decision_positions(game_id, options, 1, every=3):
        who = g.to_act(s)
        for seat in range(len(g.seats(opts))):
            x = observe.observe(g, opts, s, seat)
            assert x.shape == (size,) and x.dtype == np.float32
            assert np.all(np.isfinite(x))
            assert x.min() >= observe.LOW and x.max() <= observe.HIGH
        mask = observe.action_mask(g, s)
        assert mask.shape == (g.num_actions,)
        assert sorted(np.flatnonzero(mask)) == sorted(g.encode(a) for a in g.legal(s))
        other = (who + 1) % len(g.seats(opts))
        if other != who:
            assert not observe.action_mask(g, s, other).any()


@pytest.mark.parametrize("case", [c for c in ALL_CASES if c[1].get("players") != 1], ids=case_id)
def test_hidden_cards_do_not_change_the_observation(case: tuple[str, dict[str, Any]]) -> None:
    game_id, options = case
    g = registry.get(game_id)
    opts = g.options(options)
    checked = 0
    for seed in range(4):
        for s in decision_positions(game_id, options, seed):
            for seat in range(len(g.seats(opts))):
                twin = hidden_twin(g, s, seat)
                if twin is None:
                    continue
                a = observe.observe(g, opts, s, seat)
                b = observe.observe(g, opts, twin, seat)
                assert np.array_equal(a, b)
                checked += 1
    assert checked > 0


def test_own_hand_is_visible() -> None:
    """The observation does depend on the seat's own cards (it is not blind)."""
    g = registry.get("earth-and-water")
    opts = g.options({})
    for s in decision_positions("earth-and-water", {}, 2):
        seat = g.to_act(s)
        twin = hidden_twin(g, s, 1 - seat)  # swaps a card of `seat` with the deck
        if twin is not None:
            assert not np.array_equal(
                observe.observe(g, opts, s, seat), observe.observe(g, opts, twin, seat)
            )
            return
    pytest.fail("no position with a hidden card")


def test_docs_list_every_field() -> None:
    """docs/rl.md shows each game's layout (2 players) field by field, with its size."""
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")
    for game_id in ("thermopyles", "earth-and-water", "hot-gates"):
        g = registry.get(game_id)
        opts = g.options({} if game_id == "earth-and-water" else {"players": 2})
        for name, size, _ in observe.layout(g, opts):
            assert f"| `{name}` | {size} |" in text, (game_id, name)


def test_p21_metadata_is_on_the_class() -> None:
    from thermopylae.interop.pettingzoo import ThermopylaeAEC

    assert ThermopylaeAEC.metadata["render_modes"] == ["ansi"]
    assert ThermopylaeAEC.metadata["is_parallelizable"] is False
    e = env("hot-gates", players=3)
    assert e.metadata["name"] == "thermopylae_hot_gates"
    assert e.metadata["render_modes"] == ThermopylaeAEC.metadata["render_modes"]
    assert ThermopylaeAEC.metadata["name"] == "thermopylae"  # the instance did not change it


def test_p21_bad_render_mode_is_refused() -> None:
    from thermopylae.engine.errors import ThermopylaeError

    with pytest.raises(ThermopylaeError, match="render_mode"):
        env("earth-and-water", render_mode="human")
