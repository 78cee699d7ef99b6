"""Helpers for 300: The Board Game tests: consistent positions, actions in notation, and
chance driven with chosen outcomes.

A position names its units by type id (`immortal`, `spartan*` for a Wounded one,
`cavalry+` for one that already marched this phase). Every one of the 25 Spartan and
42 Persian units and the 52 Battle Cards is accounted for: what the caller does not
place goes where the rules keep it (see `position`), and the result is checked by the
engine's own position loader (`serial.check`).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import thermopylae.games.hot_gates as hot_gates_pkg
from thermopylae.engine.protocol import Event
from thermopylae.games.hot_gates import flow, serial
from thermopylae.games.hot_gates import game as hot_gates_game
from thermopylae.games.hot_gates.board import SEATS, side_of_seat
from thermopylae.games.hot_gates.cards import decks as split_decks
from thermopylae.games.hot_gates.components import TYPE_IDS, TYPES
from thermopylae.games.hot_gates.rules import HotGates
from thermopylae.games.hot_gates.state import (
    CASUALTY,
    CONQUER,
    DEAL,
    EPHIALTES_W,
    MARCH,
    MARCH_W,
    MOVED,
    PIECE,
    SPACES,
    WINDOW,
    WOUNDED,
    State,
    space_name,
)

SPACE_NAMES = tuple(space_name(i) for i in range(2 * SPACES))
LEADER_IDS = ("xerxes", "uber", "general")
SPARTAN_HEROES = ("leonidas", "stelios", "astinos", "dilios", "captain")
DEFAULT_FILE = Path(hot_gates_pkg.__file__).with_name("components.toml")

# What waits on the stack at each point of a round (phases.start).
_TAIL = [("round_end",), ("ephialtes",), ("window", EPHIALTES_W)]
AT: dict[str, list[tuple[Any, ...]]] = {
    "draw": [("round",)],
    "march": [
        *_TAIL,
        ("battle_end",),
        ("battle", 1),
        ("battle", 0),
        ("march", 0),
        ("window", MARCH_W),
    ],
    "battle": [*_TAIL, ("battle_end",), ("battle", 1), ("battle", 0)],
    "battle-b": [*_TAIL, ("battle_end",), ("battle", 1)],
    "ephialtes": list(_TAIL),
}


def hg(path: Path | None = None) -> HotGates:
    """The game with the default components, or with those in the file at `path`."""
    return hot_gates_game() if path is None else hot_gates_game(path)


def code(name: str) -> int:
    """The piece code of a unit name: `spartan`, `immortal*` (Wounded)."""
    base = name.rstrip("+")
    wounded = base.endswith("*")
    return TYPE_IDS.index(base.rstrip("*")) * 2 + (WOUNDED if wounded else 0)


def space(name: str) -> int:
    return SPACE_NAMES.index(name.upper())


def card(game: HotGates, code_: str) -> int:
    """The card number of a card code (`s1`, `p26`)."""
    return next(c.number for c in game.cards if c.code == code_)


def cards_with(
    game: HotGates, side: str, effect: str, *, letter: str | None = None, amount: int | None = None
) -> list[str]:
    """Codes of the cards of `side` with this effect (read from the component set)."""
    return [
        c.code
        for c in game.cards
        if c.side == side
        and c.effect == effect
        and (letter is None or c.letter == letter)
        and (amount is None or c.amount == amount)
    ]


def _pieces(names: Iterable[str]) -> list[int]:
    out = []
    for n in names:
        out.append(code(n) | (MOVED if n.endswith("+") else 0))
    return out


def position(
    game: HotGates | None = None,
    *,
    players: int = 2,
    board: Mapping[str, Sequence[str]] | None = None,
    camp: int | Sequence[str] | None = None,
    boxes: Sequence[Sequence[str]] | None = None,
    leaders: Sequence[str] | None = None,
    eliminated: Sequence[str] = (),
    hands: Sequence[Sequence[str]] | None = None,
    decks: Mapping[int, Sequence[str]] | None = None,
    discards: Mapping[int, Sequence[str]] | None = None,
    glory: Sequence[int] | None = None,
    kills: Sequence[int] | None = None,
    eph: int = 0,
    round_: int = 1,
    bonus_taken: Iterable[str] = (),
    gates_entered: Iterable[str] = (),
    breach: bool = False,
    at: str = "march",
) -> State:
    """A consistent position of a `players`-player game at point `at` of a round.

    `at`: "draw" (the round starts: the Draw Phase's cards are owed), "march" (the March
    Phase starts with its card window), "battle" (the Battle Phase starts with row A),
    "battle-b" (only row B's battle is still to come), "ephialtes" (the Ephialtes Phase).
    The position is then carried on until someone has to decide or chance is due.

    Units: `board` maps spaces to unit names; None means the set-up of the rulebook.
    Spartans not placed: `camp` of them wait in the Spartan Camp (a number of plain
    Spartans, or a list of names; default: up to 7 plain Spartans), the rest are
    eliminated. Persian Leaders not placed nor in `eliminated` wait in the Persian Camp
    (or exactly `leaders`). Other Persians not placed are in the Reinforcement Boxes:
    `boxes` (box 1 first), and whatever is left in one more box at the end (default:
    all of them in box 1).

    Cards: `hands` per seat (default: empty hands); `discards` per seat; every other
    card is in its seat's deck (`decks[seat]` to give a deck exactly, the rest of that
    seat's cards then going to its discard pile).
    """
    g = game or hg()
    s = g.new({"players": players})
    n = players
    if board is not None:
        s.board = [[] for _ in range(2 * SPACES)]
        for name, units in board.items():
            s.board[space(name)] = _pieces(units)
        dead = _pieces(eliminated)
        placed = Counter(p & PIECE & ~WOUNDED for sp in s.board for p in sp)
        placed.update(p & ~WOUNDED for p in dead)
        left = {tid: want - placed[i * 2] for i, (tid, _side, want) in enumerate(TYPES)}
        if any(v < 0 for v in left.values()):
            raise ValueError(f"too many units placed: {left}")
        # Spartans
        if isinstance(camp, int) or camp is None:
            k = min(7, left["spartan"]) if camp is None else camp
            camp_units = ["spartan"] * k
        else:
            camp_units = list(camp)
        for u in camp_units:
            left[u] -= 1
        s.camp = _pieces(camp_units)
        for tid in ("spartan", *SPARTAN_HEROES):
            dead += [code(tid)] * left[tid]
            left[tid] = 0
        # Persian Leaders
        if leaders is None:
            waiting = [tid for tid in LEADER_IDS for _ in range(left[tid])]
        else:
            waiting = list(leaders)
            for tid in waiting:
                left[tid] -= 1
            for tid in LEADER_IDS:
                dead += [code(tid)] * left[tid]
        for tid in LEADER_IDS:
            left[tid] = 0
        s.leaders = sorted(TYPE_IDS.index(tid) for tid in waiting)
        # Other Persians: the boxes
        s.boxes = []
        for b in boxes or ():
            s.boxes.append(_pieces(b))
            for u in b:
                left[u.rstrip("*")] -= 1
        rest = [code(tid) for tid, k in left.items() for _ in range(k)]
        if rest:
            s.boxes.append(rest)
        if any(v < 0 for v in left.values()):
            raise ValueError(f"too many units placed: {left}")
        s.dead = dead
    elif camp is not None or boxes is not None or leaders is not None or eliminated:
        raise ValueError("camp, boxes, leaders and eliminated go with an explicit board")
    # Cards
    own = split_decks(g.cards, n)
    s.hands = [sorted(card(g, c) for c in h) for h in (hands or [[]] * n)]
    s.discards = [[card(g, c) for c in (discards or {}).get(seat, ())] for seat in range(n)]
    s.decks = []
    for seat in range(n):
        if decks is not None and seat in decks:
            s.decks.append([card(g, c) for c in decks[seat]])
        else:
            s.decks.append([])
    used = {c for part in (s.hands, s.discards, s.decks) for h in part for c in h}
    for seat in range(n):
        spare = [c for c in own[seat] if c not in used]
        if decks is not None and seat in decks:
            s.discards[seat] += spare
        else:
            s.decks[seat] = spare
    s.draws = []
    s.rolls = []
    s.glory = list(glory) if glory is not None else [0] * n
    s.kills = list(kills) if kills is not None else [0] * n
    s.eph = eph
    s.round = round_
    s.bonus_taken = sum(1 << space(x) for x in bonus_taken)
    s.gates_entered = sum(1 << space(x) for x in gates_entered)
    s.breach = breach
    s.stack = list(AT[at])
    flow.resume(s, g.t, None)
    serial.check(s, g.t, g)
    return s


# -- playing -------------------------------------------------------------------------


def act(game: HotGates, s: State, *texts: str) -> list[Event]:
    """Apply decisions or chance outcomes written in notation; return their events."""
    events: list[Event] = []
    for t in texts:
        events += game.apply(s, game.parse(t))
    return events


def legal_texts(game: HotGates, s: State) -> list[str]:
    return [game.format(a) for a in game.legal(s)]


def can(game: HotGates, s: State, text: str) -> bool:
    return game.parse(text) in game.legal(s)


def roll(game: HotGates, s: State, faces: Sequence[int]) -> list[Event]:
    """Roll the Battle Dice still owed with these faces (Persian dice first)."""
    assert s.phase == DEAL and not s.draws, f"no dice are due: {game.phase_name(s)}"
    assert len(faces) <= len(s.rolls), f"only {len(s.rolls)} dice are due, not {len(faces)}"
    return act(game, s, *(f"roll {f}" for f in faces))


def draw(game: HotGates, s: State, codes: Sequence[str]) -> list[Event]:
    """The cards owed are drawn: these ones, in order."""
    assert s.phase == DEAL and s.draws, "no card is due"
    return act(game, s, *(f"draw {c}" for c in codes))


def dice_due(s: State) -> tuple[int, int]:
    """(Persian, Spartan) Battle Dice still to roll."""
    return (sum(1 for r in s.rolls if r < 8), sum(1 for r in s.rolls if r >= 8))


def faces_for(game: HotGates, dice: int, total: int) -> list[int]:
    """Faces of `dice` Battle Dice that add up to `total` (from the component set)."""
    faces = sorted(set(game.components.faces))
    for combo in itertools.combinations_with_replacement(faces, dice):
        if sum(combo) == total:
            return list(combo)
    raise AssertionError(f"{dice} dice with faces {faces} cannot make {total}")


def faces_between(game: HotGates, dice: int, low: int, high: int) -> list[int]:
    """Faces of `dice` Battle Dice adding up to some total from `low` to `high`."""
    for total in range(low, high + 1):
        try:
            return faces_for(game, dice, total)
        except AssertionError:
            continue
    raise AssertionError(f"{dice} dice cannot make {low}..{high}")


def roll_totals(game: HotGates, s: State, persian: int, spartan: int) -> list[Event]:
    """Roll the dice owed so that the Persians inflict `persian` and the Spartans
    `spartan` Damage (before cards)."""
    p, q = dice_due(s)
    return roll(game, s, faces_for(game, p, persian) + faces_for(game, q, spartan))


def lowest(game: HotGates) -> int:
    return min(game.components.faces)


def highest(game: HotGates) -> int:
    return max(game.components.faces)


def pass_window(game: HotGates, s: State) -> list[Event]:
    """Every seat asked passes until the open card window closes."""
    events: list[Event] = []
    w = s.window
    while s.phase == WINDOW and s.window == w:
        events += act(game, s, "pass")
    return events


# -- reading the table ---------------------------------------------------------------


def units(s: State, name: str) -> list[str]:
    """The units on a space by name (`spartan*` Wounded), sorted, without march marks."""
    return sorted(
        TYPE_IDS[p >> 1 & 63] + ("*" if p & WOUNDED else "")
        for p in (q & PIECE for q in s.board[space(name)])
    )


def names(pieces: Iterable[int]) -> list[str]:
    return sorted(TYPE_IDS[(p & PIECE) >> 1] + ("*" if p & WOUNDED else "") for p in pieces)


def seat(players: int, name: str) -> int:
    return SEATS[players].index(name)


def is_persian(players: int, seat_: int) -> bool:
    return side_of_seat(players, seat_) == 0


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def of_kind(events: Sequence[Event], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == kind]


def march_through(game: HotGates, s: State) -> list[Event]:
    """The seat marching now does the first thing the rules allow (a Leader never comes,
    `done` as soon as it is legal) until its march is over."""
    events: list[Event] = []
    who = s.actor
    while s.phase == MARCH and s.actor == who:
        legal = legal_texts(game, s)
        if "done" in legal:
            choice = "done"
        else:
            choice = next(a for a in legal if not any(a.endswith(" " + lt) for lt in LEADER_IDS))
        events += act(game, s, choice)
    return events


def casualties(game: HotGates, s: State, *unit_names: str) -> list[Event]:
    """The player removing casualties now chooses these units, in order."""
    return act(game, s, *(f"casualty {u}" for u in unit_names))


def settle(game: HotGates, s: State, side: int | None = None) -> list[Event]:
    """Casualties still owed (by `side` only, when given: 0 Persian, 1 Spartan) are taken
    in the first order the rules offer."""
    events: list[Event] = []
    while s.phase == CASUALTY and (side is None or side_of_seat(s.players, s.actor) == side):
        events += game.apply(s, game.legal(s)[0])
    return events


def fill(game: HotGates, s: State) -> list[Event]:
    """The seat deciding now takes the first legal action until `done` is legal, then
    `done` (the Persian return after a pull-back, a forced march)."""
    events: list[Event] = []
    who, phase = s.actor, s.phase
    while s.phase == phase and s.actor == who:
        legal = legal_texts(game, s)
        events += act(game, s, "done" if "done" in legal else legal[0])
    return events


def variant(
    directory: Path,
    edits: Mapping[str, Mapping[str, object]] | None = None,
    replace: Mapping[str, str] | None = None,
) -> HotGates:
    """A game on a copy of the default component file: `edits` sets fields of units
    (`{"cavalry": {"defense": 4}}`), `replace` substitutes whole lines."""
    text = DEFAULT_FILE.read_text(encoding="utf-8")
    for old, new in (replace or {}).items():
        assert old in text, f"{old!r} is not in the component file"
        text = text.replace(old, new)
    for uid, fields in (edits or {}).items():
        start = text.index(f'id = "{uid}"')
        end = text.find("[[", start)
        block = text[start:end]
        for key, value in fields.items():
            line = f"{key} = {_toml(value)}"
            block, k = re.subn(rf"(?m)^{key} = .*$", line, block, count=1)
            if not k:
                block = block.rstrip("\n") + f"\n{line}\n\n"
        text = text[:start] + block + text[end:]
    path = directory / "components.toml"
    path.write_text(text, encoding="utf-8")
    return hot_gates_game(path)


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def to_march(game: HotGates, s: State) -> None:
    """Draw the cards owed (the lowest numbers) and pass every card window until someone
    marches."""
    while s.phase in (DEAL, WINDOW):
        if s.phase == DEAL:
            game.apply(s, game.chance(s)[0][0])
        else:
            act(game, s, "pass")


def play_on(game: HotGates, s: State, *, rounds: int = 1) -> list[Event]:
    """Carry the game on with plain choices (every die shows its lowest face, the first
    casualty offered, no conquest, no card, the first march or placement the rules
    require) until `rounds` more Draw Phases have begun or the game is over."""
    events: list[Event] = []
    start = s.round
    while game.outcome(s) is None:
        if s.phase == DEAL and s.draws and s.round >= start + rounds:
            break
        if s.phase == DEAL:
            events += game.apply(
                s, game.chance(s)[0][0] if s.draws else game.parse(f"roll {lowest(game)}")
            )
        elif s.phase == WINDOW:
            events += act(game, s, "pass")
        elif s.phase == MARCH:
            events += march_through(game, s)
        elif s.phase == CONQUER:
            events += act(game, s, "done")
        else:
            events += game.apply(s, game.legal(s)[0])
    return events
