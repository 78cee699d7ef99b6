"""A new table's seats as a request gives them: humans (each gets a secret token, stored
only as its hash) and AI seats (a level, which the game turns into an agent spec, or an
agent spec itself, checked against the server's AI bounds).

The server knows no game's AI: `game.levels(players, seat)` names the agent of each
level (each game keeps its own in `games/<game>/levels.py`).
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from thermopylae.ai.base import agent_names
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import GenericGame
from thermopylae.server.ai_pool import AiLimits, check_agent

LEVELS = ("easy", "normal", "hard")
"""The AI levels offered in the lobby; each game says which agent plays each one."""


class TableError(Exception):
    """A refused request: an HTTP status and a message naming what was wrong."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def level_agent(game: GenericGame, level: object, players: int, seat: str) -> str | None:
    """The agent spec of an AI level for one seat of a table of `players` (None: not a
    level)."""
    if not isinstance(level, str) or level not in LEVELS:
        return None
    return game.levels(players, seat).get(level)


def seat_rows(
    game: GenericGame, names: list[str], seats: Any, limits: AiLimits
) -> tuple[list[dict[str, Any]], list[str | None]]:
    """The stored rows of a table's seats and one token per seat (None for AI seats),
    from the request's `seats` (None: every seat human); refused with 422 naming the
    first bad seat."""
    if seats is None:
        seats = [{"kind": "human"}] * len(names)
    if not isinstance(seats, list) or len(seats) != len(names):
        raise TableError(
            422,
            f"seats: give one entry per seat ({', '.join(names)}), each "
            '{"kind": "human"} or {"kind": "ai", "level": '
            '"easy|normal|hard"}',
        )
    rows: list[dict[str, Any]] = []
    tokens: list[str | None] = []
    for name, spec in zip(names, seats, strict=True):
        row, token = seat_row(game, name, spec, len(names), limits)
        rows.append(row)
        tokens.append(token)
    return rows, tokens


def seat_row(
    game: GenericGame, name: str, spec: Any, players: int, limits: AiLimits
) -> tuple[dict[str, Any], str | None]:
    """One seat's stored row and its token (None for an AI seat)."""
    if not isinstance(spec, dict) or spec.get("kind") not in ("human", "ai", "open"):
        raise TableError(
            422,
            f'seat {name}: {{"kind": "human"}}, {{"kind": "open"}} or '
            '{"kind": "ai", "level": "normal"}',
        )
    if spec["kind"] == "open":  # no token: an account takes it (POST .../join)
        if spec.get("level") is not None or spec.get("agent") is not None:
            raise TableError(422, f"seat {name}: an open seat takes no level or agent")
        return {"seat": name, "kind": "open", "agent": None, "token_hash": None}, None
    if spec["kind"] == "human" and (spec.get("level") is not None or spec.get("agent") is not None):
        raise TableError(422, f"seat {name}: a human seat takes no level or agent")
    if spec.get("level") is not None and spec.get("agent") is not None:
        raise TableError(422, f"seat {name}: give a level or an agent, not both")
    if spec["kind"] == "human":
        token = secrets.token_urlsafe(18)
        return {
            "seat": name,
            "kind": "human",
            "agent": None,
            "token_hash": token_hash(token),
        }, token
    agent = spec.get("agent") or level_agent(game, spec.get("level", "normal"), players, name)
    if not isinstance(agent, str) or (agent.split(":")[0] not in agent_names(game)):
        asked = spec.get("agent") or spec.get("level")
        raise TableError(
            422,
            f"seat {name}: unknown AI {asked!r}"
            f"; levels: {', '.join(LEVELS)}; agents: "
            f"{', '.join(agent_names(game))}",
        )
    try:
        check_agent(agent, game, limits)
    except (ThermopylaeError, ValueError) as exc:
        raise TableError(422, f"seat {name}: agent {agent!r}: {exc}") from exc
    return {
        "seat": name,
        "kind": "ai",
        "agent": agent,
        "level": spec.get("level"),
        "token_hash": None,
    }, None
