"""The registered games as OpenSpiel Python games (`pip install thermopylae[rl]`).

Importing this module registers one OpenSpiel game per game of the registry, named
`python_thermopylae_` and the game's id with `_` for `-` (`short_name`): today
`python_thermopylae_thermopyles` (players 1-4), `python_thermopylae_earth_and_water` (2)
and `python_thermopylae_hot_gates` (players 2-4);
`pyspiel.load_game("python_thermopylae_hot_gates", {"players": 3})` then
builds one. Actions are the games' own integer encodings (`game.encode`), and chance nodes
are explicit: `chance_outcomes()` lists the game's `chance` outcomes, encoded the same way.

Information: a player's information-state string is a canonical JSON of what that seat
may see (`game.view(state, seat)`) followed by the seat's own decisions so far; the
observation string is the view alone. Neither contains anything the view hides.
`resample_from_infostate(player, sampler)` deals the hidden information again with
`game.determinize`, so OpenSpiel's IS-MCTS bot can search the games. Tensors come from
the game's observer through `thermopylae.interop.observe` (the same vectors as the
PettingZoo and Gymnasium environments): the observation tensor only. No information-state
tensor is provided (`provides_information_state_tensor=False`): the vector does not encode
the history, so it would give two information states one tensor.

Utilities: a co-operative game (the game's `cooperative`, Thermopyles) is `IDENTICAL`,
every player sharing one result; the others are `GENERAL_SUM`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, unused-ignore]

from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE, GenericGame
from thermopylae.interop import observe

PREFIX = "python_thermopylae_"
CHANCE_CACHE = 4096
"""Chance distributions a game keeps encoded (emptied when full)."""
MAX_GAME_LENGTH = 10_000
"""A generous bound on decisions plus chance events (random games last a few hundred)."""

SMALL_WORDS = frozenset({"a", "and", "of", "the"})
"""Words a long name keeps in lower case (`earth-and-water`: `Earth and Water`)."""


def short_name(game_id: str) -> str:
    """OpenSpiel's name of a game: `hot-gates` -> `python_thermopylae_hot_gates`."""
    return PREFIX + game_id.replace("-", "_")


def long_name(game_id: str) -> str:
    """The long name, from the id: `earth-and-water` -> `Thermopylae: Earth and Water`."""
    words = game_id.split("-")
    title = [w if i and w in SMALL_WORDS else w[:1].upper() + w[1:] for i, w in enumerate(words)]
    return "Thermopylae: " + " ".join(title)


# (thermopylae id, OpenSpiel short name, long name) of every game in the registry
GAMES: tuple[tuple[str, str, str], ...] = tuple(
    (g, short_name(g), long_name(g)) for g in registry.game_ids()
)


def canonical(data: Any) -> str:
    """JSON with sorted keys and no spaces: equal views give equal strings."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)


def _game_type(game_id: str, short: str, long: str) -> Any:
    game = registry.get(game_id)
    params: dict[str, Any] = {}
    if game.min_players != game.max_players:
        params["players"] = int(game.min_players)
    # a game without an observer still plays (strings), but offers no tensor
    tensor = game.observer(game.options(params)) is not None
    return pyspiel.GameType(
        short_name=short,
        long_name=long,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        # a co-operative game: every seat shares one result, so one utility for all
        utility=(
            pyspiel.GameType.Utility.IDENTICAL
            if game.cooperative
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=int(game.max_players),
        min_num_players=int(game.min_players),
        provides_information_state_string=True,
        provides_information_state_tensor=False,  # see ThermopylaeObserver
        provides_observation_string=True,
        provides_observation_tensor=tensor,
        parameter_specification=params,
    )


class ThermopylaeGame(pyspiel.Game):  # type: ignore[misc]
    """One thermopylae game as an OpenSpiel game; `tgame` is the thermopylae game."""

    game_id = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        self.tgame: GenericGame = registry.get(self.game_id)
        params = dict(params or {})
        asked: dict[str, Any] = {}
        if self.tgame.min_players != self.tgame.max_players:
            asked["players"] = int(params.get("players", self.tgame.min_players))
        self.options: dict[str, Any] = self.tgame.options(asked)
        self.seat_names: tuple[str, ...] = tuple(self.tgame.seats(self.options))
        n = len(self.seat_names)
        info = pyspiel.GameInfo(
            num_distinct_actions=int(self.tgame.num_actions),
            max_chance_outcomes=int(self.tgame.num_actions),
            num_players=n,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_TYPES[self.game_id], info, params)
        self.caches = _Caches(self.tgame, self.options)
        self._observers: dict[bool, ThermopylaeObserver] = {}

    def new_initial_state(self) -> ThermopylaeState:
        return ThermopylaeState(self)

    def encoder(self) -> observe.Encoder:
        """The game's observation encoder, built once (its observer must exist)."""
        found = self.caches.encoder()
        if found is None:
            raise ValueError(f"{self.tgame.id} offers no observation tensor (no observer)")
        return found

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> ThermopylaeObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        recall = True if iig_obs_type is None else bool(iig_obs_type.perfect_recall)
        # one per kind, built once: OpenSpiel asks for one at every `observation_tensor`
        found = self._observers.get(recall)
        if found is None:
            found = self._observers[recall] = ThermopylaeObserver(self, perfect_recall=recall)
        return found


class _Interned(dict[int, tuple[Any, Any]]):
    """Values kept on objects by identity: id -> (the object, its value). Holding the
    object keeps its id from being reused while it is cached; emptied when full."""

    def put(self, obj: Any, value: Any) -> Any:
        if len(self) >= CHANCE_CACHE:
            self.clear()
        self[id(obj)] = (obj, value)
        return value


class _Codes(_Interned):
    """Actions' codes by the actions' identity (`add` encodes one not seen yet)."""

    def __init__(self, tgame: GenericGame) -> None:
        super().__init__()
        self.encode = tgame.encode

    def add(self, action: Any) -> int:
        code: int = self.put(action, int(self.encode(action)))
        return code


class _Caches:
    """A game's caches, which its states share: masks and legal codes (`observe.Masks`),
    chance distributions by identity -> their outcomes encoded, merged and sorted, chance
    outcomes by identity -> their codes. A pickled state takes none of it along (a
    deserialised one starts empty caches)."""

    def __init__(self, tgame: GenericGame, options: Mapping[str, Any]) -> None:
        self.tgame = tgame
        self.options = options
        self.masks = observe.Masks(tgame)
        self.chances = _Interned()
        self.codes = _Codes(tgame)
        self.decoded: dict[int, Any] = {}  # code -> `tgame.decode(code)` (at most num_actions)
        # the observation encoder, built when first asked for (None: the game has no
        # observer), and the number of seats
        self._encoder: observe.Encoder | None = None
        self._has_tensor = tgame.observer(options) is not None
        self.players = len(tgame.seats(options))
        self.first_who = tgame.to_act(tgame.new(options))  # who acts in a new state

    def encoder(self) -> observe.Encoder | None:
        """The game's observation encoder, built once (None: no observer)."""
        if self._encoder is None and self._has_tensor:
            self._encoder = observe.Encoder(self.tgame, self.options)
        return self._encoder

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Caches, (self.tgame, self.options))


class _Core:
    """What a state holds. OpenSpiel clones Python states by deep-copying their attributes;
    this copies the thermopylae state with `game.copy` and shares the (immutable) game
    and the game's caches. `who` is the game's `to_act` of the state, kept with it: the
    state changes only through `_apply_action`, and OpenSpiel asks whose turn it is
    several times a step (`is_terminal`, `is_chance_node`, `current_player`, at each
    `apply_action` too)."""

    __slots__ = ("_tstate", "caches", "fresh", "mine", "steps", "tgame", "who")

    def __init__(self, caches: _Caches, tstate: Any, mine: list[list[int]], *, fresh: bool) -> None:
        self.caches = caches
        self.tgame: GenericGame = caches.tgame
        self._tstate = tstate
        self.who: int | None = caches.first_who if tstate is None else self.tgame.to_act(tstate)
        self.mine = mine
        # `fresh`: the state is the game's new state (`tgame.new`, before any chance),
        # built when first asked for (`tstate`: OpenSpiel builds a new initial state
        # only to size the observation tensor at every `observation_tensor`, and the
        # observer knows that observation already), and `steps` actions were applied to
        # it since, through this core
        self.fresh = fresh
        self.steps = 0

    @property
    def tstate(self) -> Any:
        state = self._tstate
        if state is None:
            state = self._tstate = self.tgame.new(self.caches.options)
        return state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        copied = _Core(
            self.caches,
            self.tgame.copy(self.tstate),
            [list(m) for m in self.mine],
            fresh=self.fresh,
        )
        copied.steps = self.steps
        return copied


class ThermopylaeState(pyspiel.State):  # type: ignore[misc]
    """A thermopylae state inside OpenSpiel; `tstate` is the thermopylae state."""

    def __init__(
        self, game: ThermopylaeGame, tstate: Any = None, mine: list[list[int]] | None = None
    ) -> None:
        super().__init__(game)
        # `mine`: each seat's own decisions so far (encoded), for perfect-recall infostates.
        self._core = _Core(
            game.caches,
            tstate,  # None: the new state, built when first asked for
            [[] for _ in game.seat_names] if mine is None else [list(m) for m in mine],
            fresh=tstate is None,
        )

    @property
    def tgame(self) -> GenericGame:
        return self._core.tgame

    @property
    def tstate(self) -> Any:
        return self._core.tstate

    @property
    def mine(self) -> list[list[int]]:
        return self._core.mine

    def current_player(self) -> int:
        who = self._core.who
        if who is None:
            return _TERMINAL
        if who == CHANCE:
            return _CHANCE
        return int(who)

    # Python fast paths of three queries. Called from Python, pybind11 would go into C++
    # and back into this class (`current_player`, `_legal_actions`, the observer and a
    # new initial state OpenSpiel builds to size the tensor) for every call; these give
    # the same answers from here, and leave every other case (chance nodes, other
    # players, errors) to OpenSpiel. Callers in C++ still take OpenSpiel's path.

    def is_chance_node(self) -> bool:
        return self._core.who == CHANCE

    def legal_actions(self, *player: int) -> list[int]:
        """OpenSpiel's `legal_actions()` / `legal_actions(player)`."""
        core = self._core
        g, state, who = core.tgame, core.tstate, core.who
        if who is None or who == CHANCE or (player and player[0] != who):
            return list(pyspiel.State.legal_actions(self, *player))
        return core.caches.masks.sorted_codes(g.legal(state))

    def observation_tensor(self, *player: int) -> list[float]:
        """OpenSpiel's `observation_tensor()` / `observation_tensor(player)`."""
        core = self._core
        encoder = core.caches.encoder()
        state, who = core.tstate, core.who
        seat = player[0] if player else who
        if encoder is None or seat is None or not 0 <= seat < core.caches.players:
            return list(pyspiel.State.observation_tensor(self, *player))
        # the encoder's features with the seat to act asked once (`Encoder.observation`
        # would ask again)
        values: list[float] = encoder.features(state, int(seat), who).tolist()
        return values

    def _legal_actions(self, player: int) -> list[int]:
        core = self._core
        if player < 0 or core.who != player:
            return []
        # (the seat decides: `codes` would ask the game again)
        return core.caches.masks.sorted_codes(core.tgame.legal(core.tstate))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        core = self._core
        dist = core.tgame.chance(core.tstate)
        # a distribution the game hands out again (an interned tuple) is encoded once
        found = core.caches.chances.get(id(dist))
        if found is not None and found[0] is dist:
            encoded: list[tuple[int, float]] = found[1]
            return encoded
        # else each outcome's code is memoised on the outcome (the games intern them):
        # cheaper than hashing the whole distribution by value, which changes with every
        # card drawn
        codes = core.caches.codes
        out: list[tuple[int, float]] = []
        total, last, ordered = 0.0, -1, True
        for action, p in dist:
            seen = codes.get(id(action))
            code: int = seen[1] if seen is not None and seen[0] is action else codes.add(action)
            q = float(p)
            total += q
            ordered = ordered and code > last
            last = code
            out.append((code, q))
        if not ordered:  # out of order or repeated: merged and sorted
            merged: dict[int, float] = {}
            for code, q in out:
                merged[code] = merged.get(code, 0.0) + q
            out = [(code, merged[code]) for code in sorted(merged)]
        if total != 1.0:
            out = [(code, q / total) for code, q in out]
        if type(dist) is tuple:  # immutable: it may be handed out again as it is
            core.caches.chances.put(dist, out)
        return out

    def _apply_action(self, action: int) -> None:
        core = self._core
        g, state, who = core.tgame, core.tstate, core.who
        decoded = core.caches.decoded
        chosen = decoded.get(action)
        if chosen is None:  # decoded once per code (actions are immutable values)
            chosen = decoded[action] = g.decode(action)
        g.apply(state, chosen, quiet=True)
        core.who = g.to_act(state)
        core.steps += 1
        if who is not None and who >= 0:
            core.mine[who].append(action)

    def _action_to_string(self, player: int, action: int) -> str:
        text = str(self.tgame.format(self.tgame.decode(int(action))))
        return f"chance:{text}" if player == pyspiel.PlayerId.CHANCE else text

    def is_terminal(self) -> bool:
        return self._core.who is None  # (asked at every step)

    def returns(self) -> list[float]:
        outcome = self.tgame.outcome(self.tstate)
        if outcome is None:
            return [0.0] * len(self.mine)
        return [float(s) for s in outcome.scores]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state that `player_id` cannot tell from this one, drawn with `determinize`;
        the random source is seeded from OpenSpiel's sampler (a callable giving [0, 1))."""
        seed = int(float(probability_sampler()) * 2**53)
        rng = random.Random(seed)
        new = ThermopylaeState(
            self.get_game(), self.tgame.determinize(self.tstate, int(player_id), rng), self.mine
        )
        return new

    def __str__(self) -> str:
        return canonical(self.tgame.state_to_json(self.tstate))


class ThermopylaeObserver:
    """OpenSpiel's PyObserver for the games: strings from the seat's view (plus the seat's
    own decisions when perfect recall is asked), the tensor from the game's observer.

    A perfect-recall observer has no tensor: the observation vector holds no history, so
    two information states with the same view would share it and tensor-based algorithms
    (CFR) would merge them. It refuses to fill one rather than give a wrong one."""

    def __init__(self, game: ThermopylaeGame, *, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.observer = None if perfect_recall else game.tgame.observer(game.options)
        # the fast path of the same vectors (the state read directly where it can be)
        self.encoder = None if self.observer is None else game.encoder()
        size = 0 if self.observer is None else int(self.observer.size)
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] = np.zeros(size, np.float32)
        self._initial: dict[int, Any] = {}  # each player's observation of a new game
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = (
            {} if perfect_recall else {"observation": self.tensor}
        )

    def set_from(self, state: ThermopylaeState, player: int) -> None:
        if self.perfect_recall:
            raise ValueError(
                "the thermopylae games provide no information-state tensor "
                "(it would not encode the history); use "
                "information_state_string, or observation_tensor"
            )
        if self.encoder is None:
            raise ValueError(f"{state.tgame.id} offers no observation tensor (no observer)")
        core, player = state._core, int(player)
        if core.fresh and core.steps == 0:
            # OpenSpiel sizes the tensor on a new initial state at every
            # `observation_tensor`: that observation, the same every time, is kept
            initial = self._initial.get(player)
            if initial is None:
                initial = self._initial[player] = self.encoder.observation(core.tstate, player)
            self.tensor[:] = initial
        else:
            self.tensor[:] = self.encoder.observation(core.tstate, player)

    def string_from(self, state: ThermopylaeState, player: int) -> str:
        view = canonical(state.tgame.view(state.tstate, int(player)))
        if not self.perfect_recall:
            return view
        return f"{view}|mine:{','.join(map(str, state.mine[int(player)]))}"


_TYPES: dict[str, Any] = {}
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)


def _register_one(game_id: str, short: str, long: str) -> None:
    _TYPES[game_id] = _game_type(game_id, short, long)
    cls = type(f"ThermopylaeGame_{short}", (ThermopylaeGame,), {"game_id": game_id})
    if short not in set(pyspiel.registered_names()):
        pyspiel.register_game(_TYPES[game_id], cls)


def _register() -> None:
    for game_id, short, long in GAMES:
        _register_one(game_id, short, long)


def load(game_id: str, players: int | None = None) -> Any:
    """The OpenSpiel game for thermopylae game `game_id` (e.g. `hot-gates`); a game
    registered after this module was imported is registered with OpenSpiel now."""
    tgame = registry.get(game_id)
    if game_id not in _TYPES:
        _register_one(game_id, short_name(game_id), long_name(game_id))
    short = short_name(game_id)
    params: dict[str, Any] = {}
    if players is not None and tgame.min_players != tgame.max_players:
        params["players"] = int(players)
    return pyspiel.load_game(short, params)


_register()
