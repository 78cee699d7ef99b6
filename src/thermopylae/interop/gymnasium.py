"""A single-agent Gymnasium environment: solo Thermopyles, or one seat of any game with
every other seat played by a fixed agent (`opponent="heuristic"`, `"random"`, an agent
spec such as `"ismcts:iterations=200"`, or an object with `act(game, state, rng)`).

Observations are the float32 vectors of the game's observer (`game.observer`, laid out
in docs/rl.md; a game without one cannot be wrapped); the action space is
`Discrete(game.num_actions)` (`game.encode`); `info["action_mask"]` (int8) marks the legal
actions. An illegal action, by default, leaves the game unchanged and gives the reward
`illegal_reward` (-1.0) with `info["illegal"] = True`; with `illegal="raise"` it raises
`IllegalAction` instead. Chance and the opponents' moves are played inside `step`, with an
RNG seeded by `reset(seed=...)`. The reward is the seat's `Outcome` score when the game
ends, else 0. After `max_illegal` illegal actions in a row (default `MAX_ILLEGAL`) the
episode is truncated, so a policy stuck on an illegal action cannot loop forever.

Importing the module also registers one Gymnasium id per game of the registry
(`thermopylae/HotGates-v0` for `hot-gates`, see `gym_id`), so
`gymnasium.make("thermopylae/HotGates-v0", players=3)` builds the environment.
"""

from __future__ import annotations

import operator
import random
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from thermopylae.ai.base import make_agent
from thermopylae.engine import registry
from thermopylae.engine.errors import IllegalAction, ThermopylaeError
from thermopylae.engine.observation import Obs
from thermopylae.engine.play import advance_quietly, stepper
from thermopylae.engine.protocol import Decider, GenericGame
from thermopylae.interop.observe import HIGH, LOW, Encoder, Entry, action_of

NAMESPACE = "thermopylae"
MAX_ILLEGAL = 100
"""Illegal actions in a row after which a `penalty` episode is truncated."""


def _integer(name: str, value: Any, low: int, high: int | None) -> int:
    """`value` as an int in low..high (NumPy integers too), or a clear error."""
    try:
        number = operator.index(value) if not isinstance(value, bool) else None
    except TypeError:
        number = None
    if number is None or number < low or (high is not None and number > high):
        bounds = f"in {low}..{high}" if high is not None else f"of at least {low}"
        raise ThermopylaeError(f"{name} must be an integer {bounds}, not {value!r}")
    return number


class ThermopylaeEnv(gym.Env[Obs, np.int64]):
    # On the class, where `gymnasium.make` reads it before building an environment.
    # (a plain annotation, as in `gym.Env`; never changed in place)
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game_id: str = "thermopyles",
        *,
        seat: int = 0,
        opponent: str | Decider = "heuristic",
        illegal: str = "penalty",
        illegal_reward: float = -1.0,
        max_illegal: int = MAX_ILLEGAL,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.game: GenericGame = registry.get(game_id)
        if "players" not in options and self.game.min_players != self.game.max_players:
            options["players"] = int(self.game.min_players)  # one learner: fewest seats
        self.options: dict[str, Any] = self.game.options(options)
        n = len(self.game.seats(self.options))
        seat = _integer("seat", seat, 0, n - 1)
        if illegal not in ("penalty", "raise"):
            raise ThermopylaeError(f"illegal must be 'penalty' or 'raise', not {illegal!r}")
        max_illegal = _integer("max_illegal", max_illegal, 1, None)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ThermopylaeError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.seat = seat
        self.opponent: Decider = (
            make_agent(opponent, self.game) if isinstance(opponent, str) else opponent
        )
        self._others = {s: self.opponent for s in range(n) if s != seat}  # who it plays
        self._step = stepper(self.game)  # a decision and the chance steps after it
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.max_illegal = max_illegal
        self._illegal_run = 0  # illegal actions in a row
        self._over = False  # terminated or truncated: `reset` first
        self.render_mode = render_mode
        self.encoder = Encoder(self.game, self.options)
        self.observer = self.encoder.observer
        self.observation_space = spaces.Box(LOW, HIGH, (self.encoder.size,), np.float32)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self._rng = random.Random()
        self._drawn = False  # `_rng` drawn from `np_random` (at the first reset)
        self.state_: Any = None
        self._who: int | None = None  # `game.to_act` of the state now
        self._entry: Entry | None = None  # its legal actions (`Masks.entry`), None: over
        self._features = self.encoder.features

    def _advance(self, action: Any = None) -> None:
        """Apply this seat's `action` (None: none), then play chance and the other seats
        until this seat acts or the game ends (then `_who` is the game's `to_act`: this
        seat, or None), and keep the legal actions of the position (`_entry`, None once
        the game is over)."""
        g, state = self.game, self.state_
        who = self._who = advance_quietly(
            g, state, self._rng, self._others, action=action, step=self._step
        )
        self._entry = None if who is None else self.encoder.entry(g.legal(state))

    def _obs(self) -> Obs:
        return self._features(self.state_, self.seat, self._who)

    def _info(self, **extra: Any) -> dict[str, Any]:
        """The info, with `action_mask` (a copy of the cached mask: Gymnasium wants new
        data every call)."""
        entry = self._entry
        mask = self.encoder.no_mask if entry is None else entry[1]
        return {"action_mask": mask.copy(), **extra}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None or not self._drawn:
            # the RNG drawn from the seeded generator; unseeded, the next episode goes on
            # with the same source (seeding a `random.Random` costs about as much as
            # several decisions of a short game)
            self._rng = random.Random(int(self.np_random.integers(2**63)))
            self._drawn = True
        self.state_ = self.game.new(self.options)
        self._illegal_run = 0
        self._over = False
        self._advance()
        return self._obs(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        g = self.game
        if self.state_ is None:
            raise ThermopylaeError("no episode yet: call reset()")
        if self._over or self._who is None:
            raise ThermopylaeError("the episode is over: call reset()")
        a = int(action)
        chosen = action_of(self._entry, a)
        if chosen is None:
            if self.illegal == "raise":
                raise IllegalAction(f"action {a} is not legal (see info['action_mask'])")
            self._illegal_run += 1
            if self._illegal_run >= self.max_illegal:
                self._over = True
                reason = f"{self._illegal_run} illegal actions in a row (max_illegal)"
                return (
                    self._obs(),
                    self.illegal_reward,
                    False,
                    True,
                    self._info(illegal=True, reason=reason),
                )
            return self._obs(), self.illegal_reward, False, False, self._info(illegal=True)
        self._illegal_run = 0
        state = self.state_
        self._advance(chosen)
        who, entry = self._who, self._entry
        if who is None or entry is None:  # (the entry is None exactly when it is over)
            outcome = g.outcome(state)
            reward = float(outcome.scores[self.seat]) if outcome else 0.0
            info = self._info(outcome=outcome.to_json() if outcome else None)
            return self._obs(), reward, True, False, info
        return (
            self._features(state, self.seat, who),
            0.0,
            False,
            False,
            {"action_mask": entry[1].copy()},
        )

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (what sb3-contrib's MaskablePPO asks an
        environment for; the same as `info["action_mask"]`)."""
        return self.encoder.mask(self.state_, self.seat).astype(bool)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return str(self.game.render(self.game.view(self.state_, self.seat)))


def make(game_id: str = "thermopyles", **kwargs: Any) -> ThermopylaeEnv:
    """`ThermopylaeEnv(game_id, **kwargs)`."""
    return ThermopylaeEnv(game_id, **kwargs)


def gym_id(game_id: str) -> str:
    """The Gymnasium id of a game: `hot-gates` -> `thermopylae/HotGates-v0`."""
    name = "".join(part[:1].upper() + part[1:] for part in game_id.split("-"))
    return f"{NAMESPACE}/{name}-v0"


def _register() -> None:
    """One Gymnasium id per game in the registry, by id, so no game is named here."""
    for game_id in registry.game_ids():
        env_id = gym_id(game_id)
        if env_id not in gym.registry:
            gym.register(
                env_id, entry_point=f"{__name__}:ThermopylaeEnv", kwargs={"game_id": game_id}
            )


_register()
