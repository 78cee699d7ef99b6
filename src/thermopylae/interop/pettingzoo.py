"""PettingZoo AEC environments for every game that offers an observer (`game.observer`).

`env(game_id, **options)` builds one: agents are the game's seat names; each observation is
`{"observation": float32 vector (the game's layout, docs/rl.md), "action_mask": int8 vector of size
game.num_actions}`; an action is `game.encode(action)`. Chance nodes (cards drawn, dice
rolled) are resolved inside the environment with its own RNG, seeded by `reset(seed=...)`.
Rewards are zero until the game ends, then each seat gets its `Outcome` score.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, unused-ignore]

from thermopylae.engine import registry
from thermopylae.engine.errors import IllegalAction, ThermopylaeError
from thermopylae.engine.play import stepper
from thermopylae.engine.protocol import GenericGame
from thermopylae.interop.observe import HIGH, LOW, Encoder, Entry, action_of


class ThermopylaeAEC(AECEnv):  # type: ignore[misc]
    # On the class, where wrappers and tools read it without building an environment; an
    # instance adds its game to the name (`thermopylae_hot_gates`) in a copy of its own.
    metadata: dict[str, Any] = {  # noqa: RUF012 (never changed in place)
        "render_modes": ["ansi"],
        "is_parallelizable": False,
        "name": "thermopylae",
    }

    def __init__(self, game_id: str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self.game: GenericGame = registry.get(game_id)
        self.options: dict[str, Any] = self.game.options(options)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ThermopylaeError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.metadata = {**type(self).metadata, "name": f"thermopylae_{game_id.replace('-', '_')}"}
        self.render_mode = render_mode
        self.possible_agents = list(self.game.seats(self.options))
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        self._step = stepper(self.game)  # a decision and the chance steps after it
        self.encoder = Encoder(self.game, self.options)
        self.observer = self.encoder.observer
        size = self.encoder.size
        n = self.game.num_actions
        self._obs_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(LOW, HIGH, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._act_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.observation_spaces = self._obs_spaces
        self.action_spaces = self._act_spaces
        self._rng = random.Random()
        self.state_: Any = None
        self._who: int | None = None  # the deciding seat (None: over)
        self._entry: Entry | None = None  # its legal actions, once asked for, until the next step
        self._features = self.encoder.features
        # (bound once: `last` finds the deciding seat's entry with two calls, not four)
        self._legal = self.game.legal
        self._entry_of = self.encoder.entry

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_spaces[agent]

    def _resolve_chance(self) -> None:
        """Draw cards and roll dice until a seat must decide or the game ends (the game's
        `advance_chance`: the protocol's draws), then select the next agent."""
        self._select(self.game.advance_chance(self.state_, self._rng))

    def _select(self, who: int | None) -> None:
        """The seat that decides now (None: the game is over) becomes the agent selected."""
        self._who = who
        self._entry = None
        if who is None:
            self._game_over()
        else:
            self.agent_selection = self.possible_agents[who]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:  # unseeded, the next episode goes on with the same source
            self._rng = random.Random(seed)
            for a in self.possible_agents:
                self._act_spaces[a].seed(seed)
        self.state_ = self.game.new(self.options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._resolve_chance()

    def _game_over(self) -> None:
        """Every agent terminated, with its score as reward."""
        outcome = self.game.outcome(self.state_)
        for i, a in enumerate(self.possible_agents):
            if a in self.agents:
                self.terminations[a] = True
                self.rewards[a] = float(outcome.scores[i]) if outcome else 0.0
                self.infos[a] = {"outcome": outcome.to_json() if outcome else None}

    def _entry_now(self) -> Entry:
        """The deciding seat's legal actions, mask and codes, computed once per position
        (the game is not over)."""
        entry = self._entry
        if entry is None:
            entry = self._entry = self._entry_of(self._legal(self.state_))
        return entry

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation and action mask (new arrays each call)."""
        seat = self._seat_of[agent]
        who = self._who
        mask = self._entry_now()[1] if seat == who else self.encoder.no_mask
        return {
            "observation": self._features(self.state_, seat, who),
            "action_mask": mask.copy(),  # the cached mask is read-only and shared
        }

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """`AECEnv.last`, with the acting agent's observation built here (the usual case:
        one call less a step)."""
        agent = self.agent_selection
        who = self._who
        if not observe:
            obs = None
        elif who is not None and self.possible_agents[who] == agent:
            entry = self._entry or self._entry_now()
            obs = {
                "observation": self._features(self.state_, who, who),
                "action_mask": entry[1].copy(),  # read-only and shared: a copy
            }
        else:
            obs = self.observe(agent)
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """`AECEnv.agent_iter` as a generator (what `AECIterator` does, without a method
        call each step): the agent to act until no agent is left, at most `max_iter`."""
        while self.agents and max_iter > 0:
            max_iter -= 1
            yield self.agent_selection

    def step(self, action: int | None) -> None:
        if self._who is None:  # over: every agent is terminated, and steps out with None
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        if action is None:
            raise IllegalAction(f"{agent} must act: got None")
        try:
            chosen = action_of(self._entry or self._entry_now(), int(action))
        except ValueError:  # not a number at all
            chosen = None
        if chosen is None:
            raise IllegalAction(f"action {action} is not legal for {agent} (see action_mask)")
        # (the agent's cumulative reward is cleared by the step: it is 0 until the end)
        # checked against the legal actions: the rules need not check it again, but
        # `apply` does (the contract has no unchecked apply)
        who = self._step(self.state_, chosen, self._rng)
        if who is not None:  # `_select`, written out for the usual case
            self._who = who
            self._entry = None
            self.agent_selection = self.possible_agents[who]
            return
        self._select(None)
        self._accumulate_rewards()  # the rewards are all 0 until the end: none to add before

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return str(self.game.render(self.game.view(self.state_, None)))

    def close(self) -> None:
        pass


def env(game_id: str, render_mode: str | None = None, **options: Any) -> ThermopylaeAEC:
    """An AEC environment for `game_id` with table `options` (e.g. `players=3`)."""
    return ThermopylaeAEC(game_id, render_mode=render_mode, **options)
