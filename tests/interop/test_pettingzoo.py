"""The PettingZoo AEC environments and the observations they are built from."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gymnasium import spaces
from pettingzoo.test import api_test  # type: ignore[import-untyped]  # pettingzoo ships no types for it

from tests.helpers import decision_positions
from tests.interop.conftest import ALL_CASES, GAME_IDS, case_id, two_seats
from thermopylae.engine import registry
from thermopylae.engine.errors import IllegalAction, ThermopylaeError
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


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_spaces_are_stable_and_match_the_layout(case: tuple[str, dict[str, Any]]) -> None:
    game_id, options = case
    e = env(game_id, **options)
    g = e.game
    for agent in e.possible_agents:
        assert e.observation_space(agent) is e.observation_space(agent)
        assert e.action_space(agent) is e.action_space(agent)
        observation_space, action_space = e.observation_space(agent), e.action_space(agent)
        assert isinstance(observation_space, spaces.Dict)
        assert isinstance(action_space, spaces.Discrete)
        space = observation_space["observation"]
        assert space.shape == (sum(size for _, size, _ in observe.layout(g, e.options)),)
        assert action_space.n == g.num_actions


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_illegal_action_raises(game_id: str) -> None:
    e = env(game_id, **two_seats(game_id))
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    with pytest.raises(IllegalAction):
        e.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(IllegalAction, match="not legal"):  # not a number at all
        e.step("a move")  # type: ignore[arg-type]  # a wrong type on purpose


@pytest.mark.parametrize("case", ALL_CASES, ids=case_id)
def test_layout_and_mask(case: tuple[str, dict[str, Any]]) -> None:
    game_id, options = case
    g = registry.get(game_id)
    opts = g.options(options)
    size = observe.observation_size(g, opts)
    assert size == sum(s for _, s, _ in observe.layout(g, opts))
    for s in decision_positions(game_id, options, 1, every=3):
        who = g.to_act(s)
        assert who is not None  # a decision
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
                # what `seat` cannot see dealt anew (the contract's `determinize`)
                twin = g.determinize(s, seat, random.Random(seed))
                if g.state_to_json(twin) == g.state_to_json(s):
                    continue
                a = observe.observe(g, opts, s, seat)
                b = observe.observe(g, opts, twin, seat)
                assert np.array_equal(a, b)
                checked += 1
    assert checked > 0


@pytest.mark.parametrize("game_id", [g for g in GAME_IDS if "players" in two_seats(g)])
def test_own_hand_is_visible(game_id: str) -> None:
    """The observation does depend on the seat's own cards (it is not blind): dealt
    anew for the other seat, who cannot see them, they change the seat's observation."""
    options = two_seats(game_id)
    g = registry.get(game_id)
    opts = g.options(options)
    for seed in range(4):
        for s in decision_positions(game_id, options, seed):
            seat = g.to_act(s)
            assert seat is not None  # a decision
            twin = g.determinize(s, 1 - seat, random.Random(seed))
            if not np.array_equal(
                observe.observe(g, opts, s, seat), observe.observe(g, opts, twin, seat)
            ):
                return
    pytest.fail("no position where the seat's own hidden cards show")


def test_docs_list_every_field() -> None:
    """docs/rl.md shows each game's layout (2 players) field by field, with its size."""
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")
    for game_id in GAME_IDS:
        g = registry.get(game_id)
        opts = g.options(two_seats(game_id))
        for name, size, _ in observe.layout(g, opts):
            assert f"| `{name}` | {size} |" in text, (game_id, name)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_p21_metadata_is_on_the_class(game_id: str) -> None:
    from thermopylae.interop.pettingzoo import ThermopylaeAEC

    assert ThermopylaeAEC.metadata["render_modes"] == ["ansi"]
    assert ThermopylaeAEC.metadata["is_parallelizable"] is False
    e = env(game_id, **two_seats(game_id))
    assert e.metadata["name"] == "thermopylae_" + game_id.replace("-", "_")
    assert e.metadata["render_modes"] == ThermopylaeAEC.metadata["render_modes"]
    assert ThermopylaeAEC.metadata["name"] == "thermopylae"  # the instance did not change it


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_p21_bad_render_mode_is_refused(game_id: str) -> None:
    with pytest.raises(ThermopylaeError, match="render_mode"):
        env(game_id, render_mode="human")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_game_without_an_observer_is_refused_by_name(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game whose `observer(options)` is None offers no learning interface: the
    environments say so, naming the game, instead of failing somewhere inside."""
    g = registry.get(game_id)
    monkeypatch.setattr(type(g), "observer", lambda self, options: None)
    with pytest.raises(ThermopylaeError, match=f"{game_id}.*no learning interface"):
        env(game_id)
    with pytest.raises(ThermopylaeError, match="no learning interface"):
        observe.layout(g, g.options({}))
