"""Many games at once, as NumPy arrays: a Gymnasium vector environment
(`gymnasium.vector.VectorEnv`, in the style of EnvPool) for any game with an observer.

`ThermopylaeVectorEnv(game_id, num_envs, seat=..., opponent=..., **options)` steps
`num_envs` independent games in this process, each exactly as one
`gymnasium.ThermopylaeEnv` with the same arguments would (one seat learns, the others are
played by `opponent` inside `step`, chance by each game's own RNG): `reset` and `step`
return observations `(num_envs, size)` float32, rewards `(num_envs,)` float64,
terminations and truncations `(num_envs,)` bool, and `info["action_mask"]`
`(num_envs, num_actions)` int8 (and `info["illegal"]`, `(num_envs,)` bool). Actions are an
array of `num_envs` action codes (`game.encode`).

Seeding: `reset(seed=s)` seeds game `i` with `s + i` (a list seeds each game), so game `i`
plays as a single environment reset with `seed=s + i`. Auto-reset is Gymnasium's
`NEXT_STEP` mode: the step after a game terminates or is truncated resets that game (its
action is ignored; reward 0, not terminated), so the terminal observation is the one the
terminating step returned. The game's RNG for the new episode comes from its own seeded
generator, as a single environment's `reset()` draws it.

Only the contract is used (`game.observer`, `legal`, `encode`...), through
`observe.Encoder`, which reads the state directly where the game's observer can.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from thermopylae.ai.base import make_agent
from thermopylae.engine import registry
from thermopylae.engine.errors import IllegalAction, ThermopylaeError
from thermopylae.engine.play import advance_quietly, stepper
from thermopylae.engine.protocol import Decider, GenericGame
from thermopylae.interop.gymnasium import MAX_ILLEGAL, _integer
from thermopylae.interop.observe import HIGH, LOW, Encoder, Entry, action_of

Batch = npt.NDArray[np.float32]
Flags = npt.NDArray[np.bool_]
StepResult = tuple[Batch, npt.NDArray[np.float64], Flags, Flags, dict[str, Any]]
"""Observations, rewards, terminations, truncations, info."""


class ThermopylaeVectorEnv(VectorEnv[Batch, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """`num_envs` games of one game and set of options, stepped together (see the
    module's docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (never changed in place)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        game_id: str = "thermopyles",
        num_envs: int = 8,
        *,
        seat: int = 0,
        opponent: str | Decider = "random",
        illegal: str = "penalty",
        illegal_reward: float = -1.0,
        max_illegal: int = MAX_ILLEGAL,
        **options: Any,
    ) -> None:
        self.game: GenericGame = registry.get(game_id)
        if "players" not in options and self.game.min_players != self.game.max_players:
            options["players"] = int(self.game.min_players)  # one learner: fewest seats
        self.options: dict[str, Any] = self.game.options(options)
        players = len(self.game.seats(self.options))
        self.num_envs = _integer("num_envs", num_envs, 1, None)
        self.seat = _integer("seat", seat, 0, players - 1)
        if illegal not in ("penalty", "raise"):
            raise ThermopylaeError(f"illegal must be 'penalty' or 'raise', not {illegal!r}")
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.max_illegal = _integer("max_illegal", max_illegal, 1, None)
        self.opponent: Decider = (
            make_agent(opponent, self.game) if isinstance(opponent, str) else opponent
        )
        self._others = {s: self.opponent for s in range(players) if s != self.seat}
        self._step = stepper(self.game)  # a decision and the chance steps after it
        self.encoder = Encoder(self.game, self.options)
        n, size, actions = self.num_envs, self.encoder.size, self.encoder.num_actions
        self.single_observation_space = spaces.Box(LOW, HIGH, (size,), np.float32)
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self.render_mode = None
        self._obs = np.zeros((n, size), dtype=np.float32)
        self._masks = np.zeros((n, actions), dtype=np.int8)
        # each game's legal actions now (`Masks.entry`: mask, codes; None: over)
        self._entry_of: list[Entry | None] = [None] * n
        self._features = self.encoder.features
        self._states: list[Any] = [None] * n
        self._rngs = [random.Random() for _ in range(n)]
        self._generators: list[np.random.Generator | None] = [None] * n
        self._illegal_run = [0] * n
        self._done = [True] * n  # over: reset at the next step

    # -- one game ----------------------------------------------------------------------

    def _advance(self, i: int, action: Any = None) -> int | None:
        """Apply game `i`'s seat's `action` (None: none), then play chance and the other
        seats until its seat acts or it ends (the single environment's loop: the same
        draws from the same source); returns the seat to act (this seat, or None: over)."""
        return advance_quietly(
            self.game, self._states[i], self._rngs[i], self._others, action=action, step=self._step
        )

    def _show(self, i: int, who: int | None) -> None:
        """Write game `i`'s observation and mask into the batch, where `who` is the seat
        to act (this seat, or None: over)."""
        state = self._states[i]
        self._obs[i] = self._features(state, self.seat, who)
        if who is None:
            self._entry_of[i] = None
            self._masks[i] = self.encoder.no_mask
        else:
            entry = self._entry_of[i] = self.encoder.entry(self.game.legal(state))
            self._masks[i] = entry[1]

    def _reset_one(self, i: int, seeded: bool = False) -> None:
        """A new game `i` (`seeded`: its generator was seeded for it)."""
        generator = self._generators[i]
        if generator is None:
            generator = self._generators[i] = seeding.np_random()[0]
            seeded = True
        if seeded:
            # as `ThermopylaeEnv.reset`: the RNG drawn from the seeded generator; unseeded,
            # the next episode goes on with the same source
            self._rngs[i] = random.Random(int(generator.integers(2**63)))
        self._states[i] = self.game.new(self.options)
        self._illegal_run[i] = 0
        self._done[i] = False
        self._show(i, self._advance(i))

    # -- the vector API ----------------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Batch, dict[str, Any]]:
        """Reset every game; `seed` seeds game `i` with `seed + i` (or `seed[i]`)."""
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in range(n)]
        else:
            seeds = [None if s is None else int(s) for s in seed]
            if len(seeds) != n:
                raise ThermopylaeError(f"reset takes {n} seeds, not {len(seeds)}")
        for i, s in enumerate(seeds):
            if s is not None:
                self._generators[i] = seeding.np_random(s)[0]
            self._reset_one(i, s is not None)
        return self._obs.copy(), {
            "action_mask": self._masks.copy(),
            "illegal": np.zeros(n, dtype=bool),
        }

    def step(self, actions: npt.ArrayLike) -> StepResult:
        """One action per game (see the module's docstring for auto-reset)."""
        n = self.num_envs
        codes = np.asarray(actions).reshape(-1)
        if codes.shape != (n,):
            raise ThermopylaeError(f"step takes {n} actions, not {codes.shape[0]}")
        if self._states[0] is None:
            raise ThermopylaeError("no episode yet: call reset()")
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        illegal = np.zeros(n, dtype=bool)
        g, me, done = self.game, self.seat, self._done
        for i, a in enumerate(codes.tolist()):
            if done[i]:
                self._reset_one(i)
                continue
            chosen = action_of(self._entry_of[i], a)
            if chosen is None:
                if self.illegal == "raise":
                    raise IllegalAction(f"game {i}: action {a} is not legal (see action_mask)")
                illegal[i] = True
                rewards[i] = self.illegal_reward
                self._illegal_run[i] += 1
                if self._illegal_run[i] >= self.max_illegal:
                    truncated[i] = done[i] = True
                continue
            self._illegal_run[i] = 0
            who = self._advance(i, chosen)
            if who is None:
                outcome = g.outcome(self._states[i])
                rewards[i] = float(outcome.scores[me]) if outcome else 0.0
                terminated[i] = done[i] = True
            self._show(i, who)
        info = {"action_mask": self._masks.copy(), "illegal": illegal}
        return self._obs.copy(), rewards, terminated, truncated, info

    def action_masks(self) -> Flags:
        """The legal actions of every game now, as booleans `(num_envs, num_actions)`
        (what sb3-contrib's MaskablePPO asks for; the same as `info["action_mask"]`)."""
        return self._masks.astype(bool)


def make(game_id: str = "thermopyles", num_envs: int = 8, **kwargs: Any) -> ThermopylaeVectorEnv:
    """`ThermopylaeVectorEnv(game_id, num_envs, **kwargs)`."""
    return ThermopylaeVectorEnv(game_id, num_envs, **kwargs)
