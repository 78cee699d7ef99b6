"""The rating model, with no database: who a finished game rates, and their new ratings.

A rating is kept per subject, game and side ("account:7" as Persia in 300: Earth & Water
is not "account:7" as Greece): the sides of these games are not alike, and a player strong
as one may be weak as the other. Ratings are openskill's Plackett-Luce (mu, sigma); a
board orders them by the conservative ordinal mu - 3 sigma, so a newcomer whose sigma is
still large does not top it after one lucky game.

Each side of a table is one team, its seats' distinct subjects its members; the teams are
ranked by the sides' results (a win above a draw above a loss, equal results tied).
Co-operative games are never rated: their players win or lose together against the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from thermopylae.engine.protocol import GenericGame
from thermopylae.server.seats import LEVELS

MODEL = PlackettLuce()
MU: float = MODEL.mu  # a new subject's rating
SIGMA: float = MODEL.sigma
RANK = {"win": 0, "draw": 1, "loss": 2}


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """What boards order by: a rating we are fairly sure the subject has at least."""
        return self.mu - 3 * self.sigma


NEW = Rating(MU, SIGMA)


@dataclass(frozen=True)
class Entrant:
    """One subject of one side of a table, and the seats it held there."""

    subject: str
    side: str
    seats: tuple[int, ...]
    bot: bool

    @property
    def key(self) -> tuple[str, str]:
        return (self.subject, self.side)


class NotRated(Exception):
    """Why a table that asked to be rated moves no rating (its text says why)."""


def account_subject(account_id: int) -> str:
    return f"account:{account_id}"


def bot_subject(level: str) -> str:
    return f"bot:{level}"


def subject_of(seat: Mapping[str, Any]) -> tuple[str, bool]:
    """The subject of a seat row and whether it is a bot; NotRated for a seat that
    stands for no one a rating can follow (a guest link, an agent that is no level)."""
    if seat.get("kind") == "ai":
        level = seat.get("level")
        if level not in LEVELS:
            raise NotRated(f"seat {seat.get('seat')} is an AI agent, not a server level")
        return bot_subject(str(level)), True
    account = seat.get("account")
    if not isinstance(account, int) or isinstance(account, bool):
        raise NotRated(f"seat {seat.get('seat')} is held by no account")
    return account_subject(account), False


def entrants(
    game: GenericGame, options: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]
) -> list[Entrant]:
    """The subjects a table rates, one per subject and side (a player holding two seats
    of one side is one member of its team). NotRated for a co-operative game, a seat of
    no one, or an account on two sides (a game against oneself proves nothing)."""
    if game.cooperative:
        raise NotRated(f"{game.id} is co-operative: its players are never rated")
    found: dict[tuple[str, str], tuple[list[int], bool]] = {}
    for i, seat in enumerate(seats):
        subject, bot = subject_of(seat)
        side = game.side(options, i)
        found.setdefault((subject, side), ([], bot))[0].append(i)
    sides_of: dict[str, set[str]] = {}
    for subject, side in found:
        sides_of.setdefault(subject, set()).add(side)
    for subject, sides in sides_of.items():
        if len(sides) > 1 and subject.startswith("account:"):
            raise NotRated(f"{subject} played more than one side")
    if len({side for _s, side in found}) < 2:
        raise NotRated("a rated game needs two sides")
    return [
        Entrant(subject, side, tuple(seat_list), bot)
        for (subject, side), (seat_list, bot) in found.items()
    ]


def side_results(people: Sequence[Entrant], results: Sequence[str]) -> dict[str, str]:
    """Each side's result: its first seat's (the seats of a side share one)."""
    out: dict[str, str] = {}
    for e in sorted(people, key=lambda e: e.seats[0]):
        out.setdefault(e.side, results[e.seats[0]])
    return out


def rate(
    people: Sequence[Entrant],
    results: Sequence[str],
    current: Mapping[tuple[str, str], Rating],
) -> dict[tuple[str, str], Rating]:
    """The new rating of every entrant after a game with these per-seat `results`
    (`current`: their ratings before, NEW for those it lacks). Pure: the same inputs give
    the same answer."""
    by_side = side_results(people, results)
    for side, result in by_side.items():
        if result not in RANK:
            raise NotRated(f"side {side} has no result a rating knows ({result!r})")
    sides = sorted(by_side)
    teams = [[e for e in people if e.side == side] for side in sides]
    ratings = [
        [
            MODEL.rating(mu=current.get(e.key, NEW).mu, sigma=current.get(e.key, NEW).sigma)
            for e in t
        ]
        for t in teams
    ]
    ranks = [float(RANK[by_side[side]]) for side in sides]
    new = MODEL.rate(ratings, ranks=ranks)
    out: dict[tuple[str, str], Rating] = {}
    for team, rated in zip(teams, new, strict=True):
        for e, r in zip(team, rated, strict=True):
            out[e.key] = Rating(float(r.mu), float(r.sigma))
    return out


def result_of(e: Entrant, results: Sequence[str]) -> str:
    return results[e.seats[0]]


def sides(game: GenericGame) -> list[str]:
    """Every side of a game, over all its player counts, in seat order."""
    out: dict[str, None] = {}
    for n in range(game.min_players, game.max_players + 1):
        options = game.options({"players": n})
        for i in range(len(game.seats(options))):
            out.setdefault(game.side(options, i), None)
    return list(out)
