"""The agent interface and the names agents go by on the command line.

An agent spec is `NAME` or `NAME:key=value,key=value` (e.g. `random`, `heuristic`).
Generic agents live here; a game adds its own (its heuristic) through `game.agents()`.
Agents see the game only through the protocol: `to_act`, `legal`, `view` of their own
seat. They get their own random source, never the one that deals the cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import GenericGame


class Agent(Protocol):
    name: str

    def act(self, game: GenericGame, state: Any, rng: random.Random) -> Any:
        """One of `game.legal(state)` for the seat `game.to_act(state)`."""
        ...


class RandomAgent:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def __init__(self, **params: Any) -> None:
        if params:
            raise ValueError(f"the random agent takes no parameters, not {sorted(params)}")

    def act(self, game: GenericGame, state: Any, rng: random.Random) -> Any:
        legal = game.legal(state)
        return legal[int(rng.random() * len(legal))]


def _ismcts(**params: Any) -> Agent:
    from thermopylae.ai.ismcts import ISMCTS

    return ISMCTS(**params)


def _rollout(**params: Any) -> Agent:
    from thermopylae.ai.rollout import Rollout

    return Rollout(**params)


GENERIC: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "ismcts": _ismcts,
    "rollout": _rollout,
}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """`"name:key=value,..."` as a name and keyword arguments (numbers parsed)."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, Any] = {}
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise ThermopylaeError(f"agent {spec!r}: parameters are written key=value")
        params[key.strip()] = _number(value.strip())
    return name, params


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def seat_agents(spec: str, seats: tuple[str, ...] | list[str]) -> list[str]:
    """One agent spec per seat, from `AGENT` (every seat) or `SEAT=AGENT,SEAT=AGENT`
    (seats not named play `random`). Agent parameters may contain commas:
    `persia=ismcts:iterations=200,c=1.4,greece=heuristic`."""
    first = spec.split(",", 1)[0].split("=", 1)[0].strip()
    if first not in seats:
        return [spec] * len(seats)
    chosen: dict[str, str] = {}
    current = ""
    for token in spec.split(","):
        key, eq, value = token.partition("=")
        if eq and key.strip() in seats:
            current = key.strip()
            if current in chosen:
                raise ThermopylaeError(f"agent for {current} given twice in {spec!r}")
            chosen[current] = value.strip()
        else:
            chosen[current] += "," + token
    for seat, agent in chosen.items():
        if not agent:
            raise ThermopylaeError(f"no agent named for {seat} in {spec!r}")
    return [chosen.get(seat, "random") for seat in seats]


def agent_names(game: GenericGame) -> list[str]:
    return sorted({*GENERIC, *game.agents()})


def make_agent(spec: str, game: GenericGame) -> Agent:
    """The agent named by `spec` for `game`; an unknown name lists the known ones."""
    name, params = parse_spec(spec)
    factories = {**GENERIC, **game.agents()}
    if name not in factories:
        raise ThermopylaeError(
            f"unknown agent {name!r} for {game.id}; known agents: {', '.join(agent_names(game))}"
        )
    try:
        agent: Agent = factories[name](**params)
    except (TypeError, ValueError) as exc:
        raise ThermopylaeError(f"agent {spec!r}: {exc}") from exc
    return agent
