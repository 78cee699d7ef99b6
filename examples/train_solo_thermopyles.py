"""Train an agent on solo Thermopyles with MaskablePPO and compare it with `random`.

    python examples/train_solo_thermopyles.py --timesteps 200000 --eval-games 2000

Needs the `train` extra (`pip install -e '.[train]'`: PyTorch, Stable-Baselines3 and
sb3-contrib). The learner is sb3-contrib's MaskablePPO on `ThermopylaeEnv("thermopyles")`
(Gymnasium; the legal actions come from `info["action_mask"]`, which a thin wrapper turns
into the `action_masks()` method that MaskablePPO asks for). After training, the saved
model is loaded again and plays `--eval-games` games, and so do the `random` and
`heuristic` agents on the same seeds; each win rate is printed with its 95% Wilson
interval. The same --seed gives the same model and the same figures (training runs on
one thread; see docs/rl.md, "Training example").

PyTorch and Stable-Baselines3 are imported by the functions that train and load a model,
not at the top: they take seconds to import, which `--help` and a bad option need not wait
for.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gymnasium as gym
import numpy as np

from thermopylae.ai.base import make_agent
from thermopylae.interop.gymnasium import ThermopylaeEnv
from thermopylae.interop.observe import Obs
from thermopylae.sim.stats import wilson

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

DEFAULT_OUT = Path("out/solo_thermopyles_ppo.zip")
EVAL_SEED_OFFSET = 1_000_000  # evaluation games use seeds seed + 1_000_000 + i

# A policy for evaluation: (env, observation, legal-action mask) -> encoded action.
Policy = Callable[[ThermopylaeEnv, Obs, np.ndarray], int]


class ActionMasks(gym.Wrapper[Obs, np.int64, Obs, np.int64]):
    """`action_masks()` (what MaskablePPO asks of an environment) from the mask that
    `ThermopylaeEnv` puts in `info["action_mask"]` at each reset and step."""

    def __init__(self, env: ThermopylaeEnv) -> None:
        super().__init__(env)
        self._mask = np.zeros(env.game.num_actions, dtype=np.bool_)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        self._mask = info["action_mask"].astype(bool)
        return obs, info

    def step(self, action: np.int64) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._mask = info["action_mask"].astype(bool)
        return obs, float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self._mask


def make_env() -> ActionMasks:
    return ActionMasks(ThermopylaeEnv("thermopyles", players=1))


def progress_callback(total: int, every: int, window: int = 1000) -> BaseCallback:
    """A callback that prints timesteps, episodes, the recent win rate and speed every
    `every` steps (a function, so that Stable-Baselines3 is imported only to train)."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Progress(BaseCallback):
        """Prints timesteps, episodes, the recent win rate and speed every `every` steps."""

        def __init__(self, total: int, every: int, window: int = 1000) -> None:
            super().__init__()
            self.total, self.every = total, max(1, every)
            self.next = self.every
            self.results: deque[bool] = deque(maxlen=window)
            self.episodes = 0
            self.start = time.perf_counter()

        def _on_step(self) -> bool:
            for done, reward in zip(self.locals["dones"], self.locals["rewards"], strict=True):
                if done:
                    self.episodes += 1
                    self.results.append(bool(reward > 0.5))
            return True

        def _on_rollout_end(self) -> None:
            if self.num_timesteps >= self.next or self.num_timesteps >= self.total:
                self.next = (self.num_timesteps // self.every + 1) * self.every
                rate = sum(self.results) / len(self.results) if self.results else 0.0
                elapsed = time.perf_counter() - self.start
                print(
                    f"  timesteps {self.num_timesteps:>9,}/{self.total:,}  "
                    f"episodes {self.episodes:>7,}  "
                    f"win rate (last {len(self.results):,} episodes) {rate:6.1%}  "
                    f"{self.num_timesteps / elapsed:,.0f} steps/s",
                    flush=True,
                )

    return Progress(total, every, window)


def train(timesteps: int, seed: int, n_envs: int, out: Path, log_every: int) -> MaskablePPO:
    """Train MaskablePPO from scratch with `seed` and save it to `out`."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env(make_env, n_envs=n_envs, seed=seed)
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=256,
        batch_size=256,
        gamma=0.995,
        seed=seed,
        device="cpu",
        verbose=0,
    )
    # A budget smaller than one rollout still runs one rollout (n_envs * n_steps).
    model.learn(total_timesteps=timesteps, callback=progress_callback(timesteps, log_every))
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    venv.close()
    return model


def model_policy(model: MaskablePPO) -> Policy:
    def act(env: ThermopylaeEnv, obs: Obs, mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    return act


def agent_policy(spec: str, seed: int) -> Policy:
    """A thermopylae agent (`random`, `heuristic`, ...) with its own seeded RNG."""
    rng = random.Random(seed)
    agent: Any = None

    def act(env: ThermopylaeEnv, obs: Obs, mask: np.ndarray) -> int:
        nonlocal agent
        if agent is None:
            agent = make_agent(spec, env.game)
        return int(env.game.encode(agent.act(env.game, env.state_, rng)))

    return act


def evaluate(policy: Policy, games: int, seed: int) -> dict[str, Any]:
    """Play `games` solo games with seeds `seed + 1_000_000 + i`; count the wins."""
    env = ThermopylaeEnv("thermopyles", players=1, illegal="raise")
    wins = 0
    steps = 0
    start = time.perf_counter()
    for i in range(games):
        obs, info = env.reset(seed=seed + EVAL_SEED_OFFSET + i)
        while True:
            mask = info["action_mask"].astype(bool)
            obs, reward, terminated, _, info = env.step(policy(env, obs, mask))
            steps += 1
            if terminated:
                wins += reward > 0.5
                break
    low, high = wilson(wins, games)
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "ci95": [low, high],
        "steps": steps,
        "seconds": round(time.perf_counter() - start, 2),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").splitlines()[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument(
        "--timesteps",
        type=int,
        default=200_000,
        help="environment steps to train for (0: no training, needs --load)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the training and of the evaluation games"
    )
    parser.add_argument(
        "--eval-games", type=int, default=2000, help="games each agent plays in the evaluation"
    )
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help="where the trained model is saved (a .zip)"
    )
    parser.add_argument(
        "--load",
        type=Path,
        default=None,
        help="evaluate this saved model instead of training one (--timesteps is then ignored)",
    )
    parser.add_argument(
        "--n-envs", type=int, default=8, help="environments stepped together during training"
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="PyTorch threads (1 keeps runs reproducible and is fastest for this small network)",
    )
    parser.add_argument(
        "--log-every",
        type=int,
        default=None,
        help="print progress every N timesteps (None: a tenth of --timesteps)",
    )
    parser.add_argument(
        "--no-heuristic", action="store_true", help="skip the heuristic's reference games"
    )
    parser.add_argument(
        "--json", type=Path, default=None, help="also write the report as JSON to this file"
    )
    args = parser.parse_args(argv)
    if args.timesteps < 0 or args.eval_games < 1 or args.n_envs < 1:
        parser.error("--timesteps must be >= 0, --eval-games and --n-envs >= 1")
    if args.timesteps == 0 and args.load is None:
        parser.error("--timesteps 0 needs --load MODEL")
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(args.threads)

    report: dict[str, Any] = {
        "library": {
            "torch": torch.__version__,
            "stable_baselines3": _version("stable_baselines3"),
            "sb3_contrib": _version("sb3_contrib"),
            "gymnasium": gym.__version__,
        },
        "seed": args.seed,
        "eval_games": args.eval_games,
        "eval_seeds": [
            args.seed + EVAL_SEED_OFFSET,
            args.seed + EVAL_SEED_OFFSET + args.eval_games - 1,
        ],
    }
    if args.load is not None:
        path = args.load
        report.update(timesteps=0, train_seconds=0.0, model=str(path))
        print(f"evaluating the saved model {path}")
    else:
        print(
            f"training MaskablePPO on solo Thermopyles: {args.timesteps:,} timesteps, "
            f"seed {args.seed}, {args.n_envs} environments",
            flush=True,
        )
        start = time.perf_counter()
        model = train(
            args.timesteps,
            args.seed,
            args.n_envs,
            args.out,
            args.log_every or max(1, args.timesteps // 10),
        )
        seconds = time.perf_counter() - start
        path = args.out
        report.update(
            timesteps=int(model.num_timesteps), train_seconds=round(seconds, 1), model=str(path)
        )
        print(
            f"trained {model.num_timesteps:,} timesteps in {seconds:.1f} s "
            f"({model.num_timesteps / seconds:,.0f} steps/s); saved to {path}"
        )

    trained = MaskablePPO.load(path, device="cpu")  # the saved file, as a user would load it
    contenders: list[tuple[str, Policy]] = [
        ("trained", model_policy(trained)),
        ("random", agent_policy("random", args.seed)),
    ]
    if not args.no_heuristic:
        contenders.append(("heuristic", agent_policy("heuristic", args.seed)))
    print(
        f"evaluating on {args.eval_games:,} games (seeds {report['eval_seeds'][0]}.."
        f"{report['eval_seeds'][1]}), win rates with 95% Wilson intervals:",
        flush=True,
    )
    results: dict[str, Any] = {}
    for name, policy in contenders:
        r = results[name] = evaluate(policy, args.eval_games, args.seed)
        low, high = r["ci95"]
        print(
            f"  {name:<10} {r['wins']:>6,} / {r['games']:,} wins  {r['win_rate']:6.1%}  "
            f"(95% CI {low:.1%} to {high:.1%})  {r['seconds']:.1f} s",
            flush=True,
        )
    report["results"] = results
    beats = results["trained"]["ci95"][0] > results["random"]["ci95"][1]
    report["trained_beats_random"] = beats
    print(
        "trained beats random: "
        + (
            "yes, the 95% intervals do not overlap"
            if beats
            else "not shown (the 95% intervals overlap or it is worse)"
        )
    )
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return report


def _version(module: str) -> str:
    return str(getattr(sys.modules.get(module), "__version__", "?"))


if __name__ == "__main__":
    main()
