"""What a new table's request must be, checked before anything is stored: a known game,
its options, its time control, and the accounts its invitation seats name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from thermopylae.engine import registry
from thermopylae.engine.clock import ClockError, TimeControl
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import GenericGame
from thermopylae.server.account_store import Account, Accounts
from thermopylae.server.names import name_key
from thermopylae.server.seats import TableError
from thermopylae.server.store import Store


def checked(
    game_id: Any, options: Any, clock: Any
) -> tuple[GenericGame, dict[str, Any], TimeControl | None]:
    """The game, its completed options and the time control (None: no clock), or 422
    naming what is wrong."""
    if not isinstance(game_id, str) or game_id not in registry.game_ids():
        raise TableError(422, f"unknown game {game_id!r}; games: {', '.join(registry.game_ids())}")
    game = registry.get(game_id)
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise TableError(422, 'options must be an object, e.g. {"players": 2}')
    try:
        options = game.options(options)
    except ThermopylaeError as exc:
        raise TableError(422, f"options: {exc}") from exc
    try:
        tc = TimeControl.from_json(clock)
    except ClockError as exc:
        raise TableError(422, f"clock: {exc}") from exc
    return game, options, tc


def names_accounts(seats: Any) -> bool:
    """Whether a seat is given as an account (`invited` then reads the database)."""
    return isinstance(seats, list) and any(
        isinstance(spec, dict) and spec.get("kind") == "account" for spec in seats
    )


def invited(store: Store, seats: Any) -> tuple[Any, dict[int, Account]]:
    """Seats given as `{"kind": "account", "name": ...}` become human seats held by that
    account (404 for an unknown name, the same answer as for a deleted one)."""
    if not isinstance(seats, list):
        return seats, {}
    out, held = [], {}
    for i, spec in enumerate(seats):
        if isinstance(spec, dict) and spec.get("kind") == "account":
            name = spec.get("name")
            if set(spec) - {"kind", "name"} or not isinstance(name, str):
                raise TableError(
                    422, f'seat {i + 1}: an account seat is {{"kind": "account", "name": ...}}'
                )
            account = Accounts(store).by_key(name_key(name))
            if account is None:
                raise TableError(404, f"seat {i + 1}: no account named {name!r}")
            held[i] = account
            spec = {"kind": "human"}
        out.append(spec)
    return out, held


@dataclass(frozen=True)
class Terms:
    """What the players agree to when a table is made: listed in the lobby, rated,
    takebacks allowed (default: yes unless rated), spectators reading the chat, hints
    ("Suggest") for the seat to move (never in a rated game)."""

    public: bool = False
    rated: bool = False
    takebacks: bool | None = None
    spectator_chat: bool = False
    hints: bool = False

    def columns(self) -> dict[str, Any]:
        takebacks = (not self.rated) if self.takebacks is None else self.takebacks
        return {
            "public": self.public,
            "rated": self.rated,
            "takebacks": takebacks,
            "spectator_chat": self.spectator_chat,
            "hints": self.hints,
        }


def check_terms(game: GenericGame, terms: Terms, rows: list[dict[str, Any]]) -> None:
    """422 for a rated table that cannot be rated: a co-operative game (its team record
    is kept for every game instead), a seat played by a guest link, an AI seat given as
    an agent spec rather than a level, or no seat for a person; hints in a rated game."""
    if not terms.rated:
        return
    if terms.hints:
        raise TableError(422, "hints are never allowed in a rated game: choose one of the two")
    if game.cooperative:
        raise TableError(
            422,
            f"{game.title} is co-operative: its games are not rated (each player's team "
            "record counts every game)",
        )
    people = 0
    for r in rows:
        if r["kind"] == "human" and not r.get("account"):
            raise TableError(
                422,
                f"seat {r['seat']}: a rated game is played between accounts; invite an "
                'account ({"kind": "account", "name": ...}) or leave the seat open',
            )
        if r["kind"] == "ai" and not r.get("level"):
            raise TableError(
                422, f"seat {r['seat']}: a rated bot game takes a bot level, not an agent"
            )
        people += r["kind"] != "ai"
    if people == 0:
        raise TableError(422, "a rated game needs at least one seat for a person")
