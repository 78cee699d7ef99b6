"""A rule-based 300: Earth & Water player for either side, reading only its own seat's view.

It keeps a small model of the map (armies and fleets per city, the bridge, the reserves),
built from `game.view(state, seat)` and the public component data (roads, ports,
amphorae), and values a position by:

* the projected score of the coming Scoring Phase: both sides' lines of communication are
  traced as the Supply Phase will (Persia first), then cities are counted, and the result
  is added to the score track (clamped at 6) and bent towards its sign as the last
  campaign nears; automatic victories count as a large win or loss;
* the pieces on the map (Persian armies only up to what its amphorae will feed);
* the best single attack each side could make next (land or by sea), weighted by who
  moves next and whether it still holds cards: a threat to a city one holds costs, an
  opportunity counts a little.

Battles are valued with exact round-by-round odds (one die per unit, at most 3; the
highest die counts; a Persian die counts at most 4, 5 in Abydos and Ephesos, 6 with the
Cavalry; overrides for Miltiades, 300 Spartans and Leonidas). Every move, event and
reaction is valued by the expected value of the positions it leads to; a multi-step move
is planned whole (every candidate ranked quickly without the threats, the best few
valued in full) and followed through its small decisions. Preparation follows a budget
plan: Persia buys six cards, builds the bridge only when the road it opens is worth it
now, and spends the rest on fleets (they carry the war: up to 3 armies a move) and
armies; Greece buys cards up to a hand of five and raises forces where they protect or
threaten most. Greece holds its cards (reactions above all) unless a play gains clearly;
Persia plays whatever gains. Supply keeps the Greek cards worth most and drops the armies
worth least. The weights were tuned in heuristic-against-heuristic matches.

The package: `odds` (battle odds), `reach` (the map as bit masks: control, reach, supply,
the projected Scoring), `value` (a position's value for a seat), `plan` (whole moves),
`cards` (what a card is worth), `handlers` (one decision function a phase).
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from thermopylae.engine.protocol import GenericGame
from thermopylae.games.earth_and_water.ai.handlers import HANDLERS, Plans
from thermopylae.games.earth_and_water.ai.reach import Map, Pos
from thermopylae.games.earth_and_water.ai.value import Ctx
from thermopylae.games.earth_and_water.components import Components
from thermopylae.games.earth_and_water.rules import EarthAndWater
from thermopylae.games.earth_and_water.state import (
    PERSIA,
)

if TYPE_CHECKING:
    from thermopylae.games.earth_and_water.state import State

MAPS_MAX = 8  # maps kept (one per component set in use)
_MAPS: dict[str, Map] = {}


def _map(game: _WithComponents) -> Map:
    """The map of `game`'s components (and its caches), by the components' digest."""
    key = str(game.components_digest)
    m = _MAPS.get(key)
    if m is None:
        if len(_MAPS) >= MAPS_MAX:
            _MAPS.clear()
        m = _MAPS[key] = Map(game.components)
    return m


@runtime_checkable
class _WithComponents(Protocol):
    """What the heuristic reads of the game beyond the contract: its public components (the
    game itself, or a wrapper that shows an agent no more than it may see)."""

    components: Components
    components_digest: str


def _own(game: GenericGame) -> _WithComponents:
    """The game the agent is given, with its components: Earth & Water's own agent (the
    class first: a protocol's isinstance is slow, and this is asked at every decision)."""
    if isinstance(game, (EarthAndWater, _WithComponents)):
        return game
    raise TypeError(f"the Earth & Water heuristic cannot play {game.id}")


EVAL_SCALE = 1.5  # score points that move the estimated chance of winning from 50% to 73%


def evaluate(game: EarthAndWater, state: State) -> tuple[float, float]:
    """Each side's estimated chance of winning `state`, for a search that stops before the
    end: the static value above (projected Scoring, pieces; no threats) seen from the
    spectator's view, through a logistic curve. It reads no hidden card."""
    ctx = Ctx(_map(game), game.view(state, None), PERSIA)
    ctx.lite = True
    p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, ctx.value(ctx.pos) / EVAL_SCALE))))
    return (p, 1.0 - p)


class Heuristic:
    """A rule-based agent for Persia or Greece (`--agent heuristic`)."""

    name = "heuristic"

    def __init__(self, **params: Any) -> None:
        if params:
            raise ValueError(f"the heuristic agent takes no parameters, not {sorted(params)}")
        self._plans: Plans = {}

    def act(self, game: GenericGame, state: Any, rng: random.Random) -> Any:
        """One of `game.legal(state)`, chosen from the view of the seat to act (the agent
        is deterministic: `rng` is not needed). `game` is Earth & Water: its map is read
        from the game's components."""
        seat = game.to_act(state)
        if seat is None or seat < 0:
            raise ValueError("the heuristic is asked for a decision only when a seat must act")
        legal = game.legal(state)
        if len(legal) == 1:
            return legal[0]
        v = game.view(state, seat)
        texts = {game.format(a): a for a in legal}
        ctx = Ctx(_map(_own(game)), v, seat)
        if len(self._plans) > 64:
            self._plans.clear()
        handler = HANDLERS.get(str(v["phase"]))
        choice = handler(ctx, texts, self._plans) if handler is not None else None
        if choice is None or choice not in texts:  # (never seen: a safety net)
            return legal[0]
        return texts[choice]


__all__ = ["Ctx", "Heuristic", "Map", "Pos", "evaluate"]
