"""The API's request bodies and their documentation: the models FastAPI checks, the
error answers each route documents, and the JSON schema of `POST /api/tables` (one
variant per game and player count, built from the registry)."""

from __future__ import annotations

from typing import Any, cast

from pydantic import BaseModel, ConfigDict, Field

from thermopylae.ai.base import agent_names
from thermopylae.engine import registry
from thermopylae.server.seats import LEVELS


class ErrorOut(BaseModel):
    """Every refusal: a status and one sentence naming what was wrong."""

    detail: str = Field(description="what was wrong, in words")


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    words = {
        400: "Malformed request or illegal action",
        401: "Not logged in, or a wrong name or password",
        403: "Wrong or missing token (or CSRF header), or a wrong password",
        404: "No such table (or account)",
        409: "Not now (stale move, not your turn, game over, time ran out, name taken)",
        413: "Request body too large",
        422: "A field is missing, of the wrong type or out of range",
        429: "Too many requests (see Retry-After)",
        500: "A defect of the server (logged)",
        503: "The database is unavailable; nothing was changed, try again",
    }
    return {c: {"model": ErrorOut, "description": words[c]} for c in codes}


LANG_DOC = (
    "the language of the log and action labels (en, pt, fr, it; default: "
    "Accept-Language, else English)"
)


CLOCK_SCHEMA: dict[str, Any] = {
    "anyOf": [
        {"type": "null"},
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["initial_s"],
            "properties": {
                "initial_s": {"type": "number", "minimum": 10, "maximum": 60 * 86400},
                "increment_s": {"type": "number", "minimum": 0, "maximum": 7 * 86400},
                "cap_s": {"type": ["number", "null"], "minimum": 10, "maximum": 90 * 86400},
                "on_timeout": {"enum": ["forfeit", "ai"]},
                "kind": {"enum": ["live", "correspondence"]},
            },
        },
    ],
    "description": "the time control (docs/accounts.md); null: no clock",
}


def table_body_schema() -> dict[str, Any]:
    """The JSON schema of `POST /api/tables` exactly as the server checks it: one variant
    per game and player count (the options each game takes, one seat entry per seat), so a
    client generated from the document sends only what the server accepts."""
    variants: list[dict[str, Any]] = []
    kinds = {bool: "boolean", int: "integer", str: "string", float: "number"}
    for gid in registry.game_ids():
        g = registry.get(gid)
        _title, lo, hi = registry.summary(gid)
        defaults = g.options({})
        agents = agent_names(g)
        seat = {
            "oneOf": [
                {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["kind"],
                    "properties": {"kind": {"const": "human"}},
                },
                {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["kind"],
                    "properties": {"kind": {"const": "open"}},
                },
                {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["kind", "name"],
                    "properties": {
                        "kind": {"const": "account"},
                        "name": {"type": "string", "maxLength": 200},
                    },
                },
                {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["kind", "level"],
                    "properties": {"kind": {"const": "ai"}, "level": {"enum": list(LEVELS)}},
                },
                {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["kind", "agent"],
                    "properties": {
                        "kind": {"const": "ai"},
                        "agent": {
                            "enum": agents,
                            "description": "an agent, or NAME:key=value,... with its "
                            "budget (docs/api.md), within the server's limits",
                        },
                    },
                },
            ]
        }
        for n in range(lo, hi + 1):
            props: dict[str, Any] = {
                k: {"type": kinds[type(v)]} for k, v in defaults.items() if k != "players"
            }
            opts: dict[str, Any] = {
                "type": "object",
                "additionalProperties": False,
                "properties": props,
            }
            if "players" in defaults:
                props["players"] = {"const": n}
                if n != defaults["players"]:
                    opts["required"] = ["players"]
            count = len(g.seats(g.options({"players": n} if "players" in defaults else {})))
            variant: dict[str, Any] = {
                "type": "object",
                "additionalProperties": False,
                "required": ["game"],
                "properties": {
                    "game": {"const": gid},
                    "options": opts,
                    "clock": CLOCK_SCHEMA,
                    "public": {"type": "boolean"},
                    "rated": {"type": "boolean"},
                    "takebacks": {"type": ["boolean", "null"]},
                    "spectator_chat": {"type": "boolean"},
                    "hints": {"type": "boolean"},
                    "seats": {
                        "anyOf": [
                            {"type": "null"},
                            {"type": "array", "minItems": count, "maxItems": count, "items": seat},
                        ]
                    },
                },
            }
            if "required" in opts:
                variant["required"] = ["game", "options"]
            variants.append(variant)
    return {
        "required": True,
        "content": {
            "application/json": {
                "schema": {
                    "oneOf": variants,
                    "description": "a game, its options and one entry per seat "
                    "(default: every seat human)",
                }
            }
        },
    }


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    kind: str = Field(
        description="`human` (a player with a token), `account` (an invitation to the "
        "account `name`, which plays through its login), `open` (a free seat any logged-in "
        "player may join) or `ai`"
    )
    name: str | None = Field(default=None, max_length=200, description="an account's name")
    level: str | None = Field(default=None, description="AI level: easy, normal or hard")
    agent: str | None = Field(default=None, description="an agent spec instead of a level")


class TableIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    game: str = Field(
        description="a game id from GET /api/games",
        json_schema_extra={"enum": cast(Any, registry.game_ids())},
    )
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatIn] | None = Field(default=None, description="one per seat, in order")
    clock: dict[str, Any] | None = Field(
        default=None,
        description="a time control: null (none), live "
        '`{"initial_s": 600, "increment_s": 10}` or correspondence '
        '`{"initial_s": 259200, "increment_s": 43200, "cap_s": 432000}`, with '
        '`"on_timeout": "forfeit"` (default) or `"ai"`',
    )
    public: bool = Field(
        default=False, description="list the table's open seats in the lobby (GET /api/tables)"
    )
    rated: bool = Field(
        default=False,
        description="the game moves the players' ratings (seats held by accounts or open "
        "seats only; with AI seats it is a bot game that rates the bot levels only)",
    )
    takebacks: bool | None = Field(
        default=None,
        description="takebacks allowed (default: yes, except in rated games); a rated game "
        "in which one is made is no longer rated",
    )
    spectator_chat: bool = Field(default=False, description="spectators may read the chat")
    hints: bool = Field(
        default=False,
        description="the seat to move may ask for the bot's suggestions (POST .../hint); "
        "never with rated",
    )


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: str = Field(max_length=40, description="the name of an open seat, e.g. greece")


class RematchIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    action: str = Field(description="offer, accept or decline")
    swap: bool = Field(default=True, description="with an offer: the sides are swapped")
    token: str | None = Field(default=None, description="a guest seat's token")


class MatchIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    game: str = Field(max_length=40, description="a game id from GET /api/games")
    clock: str = Field(default="correspondence", description="live, correspondence or none")
    side: str = Field(default="any", max_length=40, description="a seat name, or any")
    rated: bool = Field(default=True, description="a rated game")


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: str | None = Field(
        default=None, description="the seat's secret token (or act through your login)"
    )
    move: int = Field(description="the table's move number the action answers")
    action: str = Field(description="the action in the game's notation")
