"""Positions: a 300: The Board Game state to and from JSON, readable by a person.

Units are written by name (`immortal`, `spartan*` for a Wounded one, `+` after a unit that
has already marched this phase), spaces by their board names, cards by their codes. On
load every unit and card must be accounted for, capacities held and the step in progress
complete, so a hand-edited position either plays on or is refused with a message.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import cache
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from thermopylae.engine.errors import RecordError
from thermopylae.engine.protocol import JSON, Game
from thermopylae.games.hot_gates.actions import Action, piece_name
from thermopylae.games.hot_gates.board import PERSIAN, SPARTAN_SIDE, Tables
from thermopylae.games.hot_gates.cards import decks
from thermopylae.games.hot_gates.components import TYPE_IDS, TYPES, CardInfo
from thermopylae.games.hot_gates.march import order as march_order
from thermopylae.games.hot_gates.state import (
    AGAIN,
    BATTLE_W,
    CASUALTY,
    CASUALTY_W,
    CONQUER,
    DEAL,
    MARCH,
    MOVED,
    OVER,
    PHASES,
    PIECE,
    PULLBACK,
    RETURN,
    ROLL_W,
    SPACES,
    WINDOW,
    WINDOWS,
    State,
    space_name,
)

if TYPE_CHECKING:
    from pydantic import BaseModel

SPACE_NAMES = tuple(space_name(i) for i in range(2 * SPACES))
# The continuations a state may wait on, with the number of their integer arguments.
CONTINUATIONS = {
    "round": 0,
    "round_end": 0,
    "ephialtes": 0,
    "window": 1,
    "battle_end": 0,
    "battle": 1,
    "march": 1,
    "march_resume": 1,
    "bt_attack": 0,
    "bt_rolled": 0,
    "bt_casualties": 0,
}


@cache
def _schema() -> type[BaseModel]:
    """The position file's schema, made when a position is first loaded: pydantic and
    the schema's classes cost every command that imports the rules ~30 ms, and only a
    loaded position needs them."""
    from pydantic import BaseModel, ConfigDict, Field

    class _StateFile(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)
        players: int = Field(ge=2, le=4)
        phase: str
        round: int = Field(ge=1, le=1000)
        board: dict[str, list[str]]
        spartan_camp: list[str]
        boxes: list[list[str]]
        persian_camp: list[str]
        eliminated: list[str]
        pulled_back: list[str]
        glory: list[int]
        kills: list[int]
        ephialtes: int = Field(ge=0)
        ephialtes_moves: int = Field(ge=0, le=20)
        bonus_taken: list[str]
        persians_entered: list[str]
        breach: bool
        hands: list[list[str]]
        decks: list[list[str]]
        discards: list[list[str]]
        draws: list[int]
        rolls: list[int]
        window: str | None
        played: list[list[int]]
        passes: int = Field(ge=0, le=4)
        actor: int = Field(ge=-1, le=3)
        extra: list[int]
        battle: list[Any]
        stack: list[list[Any]]
        steps: int = Field(ge=0)
        winners: list[int]
        reason: str

    return _StateFile


def state_to_json(s: State, t: Tables) -> JSON:
    def pieces(ps: list[int]) -> list[str]:
        return [
            piece_name(p & PIECE) + ("++" if p & AGAIN else "+" if p & MOVED else "") for p in ps
        ]

    def codes(cs: list[int]) -> list[str]:
        return [t.cards[c].code for c in cs]

    return {
        "players": s.players,
        "phase": PHASES[s.phase],
        "round": s.round,
        "board": {SPACE_NAMES[i]: pieces(sp) for i, sp in enumerate(s.board)},
        "spartan_camp": pieces(s.camp),
        "boxes": [pieces(b) for b in s.boxes],
        "persian_camp": [TYPE_IDS[t] for t in s.leaders],
        "eliminated": pieces(s.dead),
        "pulled_back": pieces(s.pool),
        "glory": list(s.glory),
        "kills": list(s.kills),
        "ephialtes": s.eph,
        "ephialtes_moves": s.eph_move,
        "bonus_taken": [SPACE_NAMES[i] for i in range(12) if s.bonus_taken >> i & 1],
        "persians_entered": [SPACE_NAMES[i] for i in range(12) if s.gates_entered >> i & 1],
        "breach": s.breach,
        "hands": [codes(h) for h in s.hands],
        "decks": [codes(sorted(d)) for d in s.decks],
        "discards": [codes(d) for d in s.discards],
        "draws": list(s.draws),
        "rolls": list(s.rolls),
        "window": WINDOWS[s.window] if s.window >= 0 else None,
        "played": [list(e) for e in s.played],
        "passes": s.passes,
        "actor": s.actor,
        "extra": list(s.extra),
        "battle": [list(x) if isinstance(x, list) else x for x in s.bt],
        "stack": [list(k) for k in s.stack],
        "steps": s.steps,
        "winners": list(s.winners),
        "reason": s.reason,
    }


def state_from_json(data: Mapping[str, Any], t: Tables, game: Game[State, Action]) -> State:
    """The position in `data`, checked (`check`: `game` takes its next step on a copy)."""
    from pydantic import ValidationError

    from thermopylae.engine.validation import first_problem

    try:
        f: Any = _schema().model_validate(dict(data))
    except ValidationError as exc:
        raise RecordError(first_problem(exc, "state")) from exc
    n = f.players
    s = State(n)
    if f.phase not in PHASES:
        raise RecordError(f"state.phase: unknown phase {f.phase!r}; one of {', '.join(PHASES)}")
    s.phase = PHASES.index(f.phase)
    s.round = f.round
    if sorted(f.board) != sorted(SPACE_NAMES):
        raise RecordError(f"state.board: give the 12 spaces {', '.join(SPACE_NAMES)}")
    for name, ps in f.board.items():
        s.board[SPACE_NAMES.index(name)] = _pieces(ps, f"state.board.{name}", moved=True)
    s.camp = _pieces(f.spartan_camp, "state.spartan_camp")
    s.boxes = [_pieces(b, f"state.boxes[{i + 1}]") for i, b in enumerate(f.boxes)]
    s.leaders = [_type(t, "state.persian_camp") for t in f.persian_camp]
    s.dead = _pieces(f.eliminated, "state.eliminated")
    s.pool = _pieces(f.pulled_back, "state.pulled_back")
    for name, values in (("glory", f.glory), ("kills", f.kills), ("extra", f.extra)):
        if len(values) != n or min(values) < 0:
            raise RecordError(f"state.{name}: {n} numbers (one per seat), none negative")
    s.glory, s.kills, s.extra = list(f.glory), list(f.kills), list(f.extra)
    if f.ephialtes > t.c.goat_path:
        raise RecordError(
            f"state.ephialtes: the Goat Path has {t.c.goat_path} spaces, not {f.ephialtes}"
        )
    s.eph, s.eph_move = f.ephialtes, f.ephialtes_moves
    s.bonus_taken = _bits(f.bonus_taken, "state.bonus_taken")
    s.gates_entered = _bits(f.persians_entered, "state.persians_entered")
    s.breach = f.breach
    cards = {c.code: c.number for c in t.cards}
    for name in ("hands", "decks", "discards"):
        lists = getattr(f, name)
        if len(lists) != n:
            raise RecordError(f"state.{name}: one list per seat ({n})")
        out = []
        for i, cs in enumerate(lists):
            bad = [c for c in cs if c not in cards]
            if bad:
                raise RecordError(
                    f"state.{name}[{i + 1}]: no card {bad[0]!r} (cards are s1-s26 and p1-p26)"
                )
            out.append([cards[c] for c in cs])
        setattr(s, {"hands": "hands", "decks": "decks", "discards": "discards"}[name], out)
    s.hands = [sorted(h) for h in s.hands]
    if any(not 0 <= p < n for p in f.draws):
        raise RecordError(f"state.draws: seats are 0 to {n - 1}")
    s.draws = list(f.draws)
    s.rolls = list(f.rolls)
    if f.window is not None and f.window not in WINDOWS:
        raise RecordError(f"state.window: one of {', '.join(WINDOWS)} or null")
    s.window = WINDOWS.index(f.window) if f.window is not None else -1
    s.played = [list(e) for e in f.played]
    s.passes, s.actor = f.passes, f.actor
    s.bt = [list(x) if isinstance(x, list) else x for x in f.battle]
    s.stack = [tuple(k) for k in f.stack]
    s.steps = f.steps
    s.winners = list(f.winners)
    s.reason = f.reason
    check(s, t, game)
    return s


def _type(word: str, where: str) -> int:
    if word not in TYPE_IDS:
        raise RecordError(f"{where}: no unit type {word!r}; types are {', '.join(TYPE_IDS)}")
    return TYPE_IDS.index(word)


def _pieces(words: list[str], where: str, moved: bool = False) -> list[int]:
    out = []
    for w in words:
        flag = 0
        if moved and w.endswith("++"):
            w, flag = w[:-2], MOVED | AGAIN
        elif moved and w.endswith("+"):
            w, flag = w[:-1], MOVED
        wounded = w.endswith("*")
        out.append(_type(w[:-1] if wounded else w, where) * 2 + wounded + flag)
    return out


def _bits(names: list[str], where: str) -> int:
    bits = 0
    for name in names:
        if name not in SPACE_NAMES:
            raise RecordError(f"{where}: no space {name!r}")
        bits |= 1 << SPACE_NAMES.index(name)
    return bits


def check(s: State, t: Tables, game: Game[State, Action]) -> None:
    """Every unit and card accounted for, no space over capacity or shared by both sides,
    and a step in progress that can go on (`game` takes it on a copy)."""
    counts = Counter(p & PIECE & ~1 for sp in s.board for p in sp)
    counts.update(p & ~1 for p in s.camp + s.pool + s.dead)
    counts.update(p & ~1 for b in s.boxes for p in b)
    counts.update(lt * 2 for lt in s.leaders)
    for i, (tid, _side, want) in enumerate(TYPES):
        if counts[i * 2] != want:
            raise RecordError(
                f"state: {counts[i * 2]} {tid} units in the position; the game has {want}"
            )
    for sp, pieces in enumerate(s.board):
        sides = {t.side[p & PIECE] for p in pieces}
        if len(sides) > 1:
            raise RecordError(
                f"state.board.{SPACE_NAMES[sp]}: Spartans and Persians cannot share a space"
            )
        if t.load(pieces) > t.capacity[sp]:
            raise RecordError(
                f"state.board.{SPACE_NAMES[sp]}: {t.load(pieces)} places used, "
                f"the space holds {t.capacity[sp]}"
            )
    for row in (0, 1):
        p, q = t.front(s, row, PERSIAN), t.front(s, row, SPARTAN_SIDE)
        behind = [
            sp
            for sp in range(row * SPACES, row * SPACES + SPACES)
            if s.board[sp] and t.side[s.board[sp][0] & PIECE] == PERSIAN and q >= 0 and sp > q
        ]
        if behind or (p >= 0 and q >= 0 and p > q):
            raise RecordError(f"state.board: row {'AB'[row]} has Persians behind the Spartan line")
    for p in s.camp:
        if t.side[p] != SPARTAN_SIDE:
            raise RecordError("state.spartan_camp: only Spartan units wait there")
    for b in s.boxes:
        if any(t.side[p] != PERSIAN or t.leader[p] for p in b):
            raise RecordError("state.boxes: only Persian units that are not Leaders")
    if any(not t.leader[lt * 2] for lt in s.leaders):
        raise RecordError("state.persian_camp: only the Persian Leaders wait there")
    every = Counter(c for hs in (s.hands, s.decks, s.discards) for h in hs for c in h)
    if sorted(every) != list(range(len(t.cards))) or max(every.values()) > 1:
        raise RecordError(
            "state: each of the 52 Battle Cards must be in exactly one hand, deck or discard pile"
        )
    for b in s.boxes:
        if not b:
            raise RecordError("state.boxes: a Reinforcement Box in the queue cannot be empty")
    if any(t.side[p] == PERSIAN and not t.leader[p] for p in s.dead):
        raise RecordError(
            "state.eliminated: eliminated Persians go back to a Reinforcement "
            "Box; only Spartans and Persian Leaders leave the game"
        )
    own = cards_of_seats(t.cards, s.players)
    for seat in range(s.players):
        for name in ("hands", "decks", "discards"):
            stray = [c for c in getattr(s, name)[seat] if c not in own[seat]]
            if stray:
                raise RecordError(
                    f"state.{name}[{seat + 1}]: card {t.cards[stray[0]].code} "
                    "belongs to another seat's deck"
                )
    if s.phase not in (DEAL, OVER) and not 0 <= s.actor < s.players:
        raise RecordError(f"state.actor: seats are 0 to {s.players - 1}")
    _check_stack(s)
    _check_battle(s, t)
    _check_step(s, game)


def cards_of_seats(all_cards: tuple[CardInfo, ...], players: int) -> list[set[int]]:
    return [set(d) for d in decks(all_cards, players)]


# The order of the continuations on the stack, bottom to top (see phases.start).
_RANK = {
    ("round",): 0,
    ("round_end",): 0,
    ("ephialtes",): 1,
    ("window", 4): 2,
    ("battle_end",): 3,
    ("battle", 1): 4,
    ("battle", 0): 5,
    ("bt_attack",): 6,
    ("bt_rolled",): 6,
    ("bt_casualties",): 6,
    ("window", 3): 7,
    ("march",): 8,
    ("march_resume",): 9,
    ("window", 0): 10,
}


def _check_stack(s: State) -> None:
    order = march_order(s.players)
    ranks = []
    for k in s.stack:
        if (
            not k
            or k[0] not in CONTINUATIONS
            or len(k) != 1 + CONTINUATIONS[k[0]]
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in k[1:])
        ):
            raise RecordError(f"state.stack: unknown step {list(k)!r}")
        key = k[:1] if k[0] in ("march", "march_resume") else tuple(k)
        if key not in _RANK:
            raise RecordError(f"state.stack: no such step {list(k)!r}")
        if k[0] == "march" and not 0 <= k[1] <= len(order):
            raise RecordError(f"state.stack: {list(k)!r}: there are {len(order)} marches")
        if k[0] == "march_resume" and not 0 <= k[1] < s.players:
            raise RecordError(f"state.stack: {list(k)!r}: seats are 0 to {s.players - 1}")
        ranks.append(_RANK[key])
    if any(b <= a for a, b in pairwise(ranks)):
        raise RecordError("state.stack: the pending steps are not in the order of a round")
    if (s.draws or s.rolls) and s.phase != DEAL:
        raise RecordError("state: cards to draw or dice to roll wait only in the deal phase")
    steps = [k[0] for k in s.stack if k[0].startswith("bt_")]
    if len(steps) > 1 or (steps and s.phase not in (DEAL, WINDOW)):
        raise RecordError(
            "state.stack: a battle step is pending only while cards are played "
            "or dice rolled, and only one at a time"
        )
    if any(k[0] == "march_resume" for k in s.stack) and s.phase not in (PULLBACK, RETURN):
        raise RecordError("state.stack: ['march_resume', seat] waits only for a pull-back")
    if s.phase == MARCH:
        top = s.stack[-1] if s.stack else ()
        if (
            not top
            or top[0] != "march"
            or not 1 <= top[1] <= len(order)
            or order[top[1] - 1] != s.actor
        ):
            raise RecordError(
                "state.stack: a march needs its pending step ['march', N] with "
                "the marching seat's turn N"
            )
    marching = s.phase == MARCH or any(k[0] == "march_resume" for k in s.stack)
    if not marching and any(p & ~PIECE for sp in s.board for p in sp):
        raise RecordError("state.board: units are marked as marched (+) outside a march")


def _check_battle(s: State, t: Tables) -> None:
    """The battle's context (`battle`) is there exactly when a step needs it."""
    bt = s.bt
    in_battle = (
        s.phase in (CASUALTY, CONQUER)
        or bool(s.rolls)
        or (s.phase == WINDOW and s.window in (BATTLE_W, ROLL_W, CASUALTY_W))
        or any(k[0].startswith("bt_") for k in s.stack)
    )
    if s.phase in (PULLBACK, RETURN):
        if len(bt) != 1 or bt[0] not in (0, 1):
            raise RecordError("state.battle: a pull-back or return keeps only its row: [0] or [1]")
        if s.phase == PULLBACK and not s.pool:
            raise RecordError("state.pulled_back: a pull-back needs units to place")
        return
    if not in_battle:
        if bt:
            raise RecordError("state.battle: no battle is being fought; use []")
        return
    faces = set(t.c.faces) | {0}

    def ints(x: Any, n: int) -> bool:
        return (
            isinstance(x, list)
            and len(x) == n
            and all(isinstance(v, int) and not isinstance(v, bool) for v in x)
        )

    ok = (
        len(bt) == 14
        and all(
            isinstance(bt[i], int) and not isinstance(bt[i], bool)
            for i in (0, 1, 2, 10, 11, 12, 13)
        )
        and bt[0] in (0, 1)
        and 0 <= bt[1] - 6 * bt[0] < 5
        and bt[2] == bt[1] + 1
        and all(
            isinstance(bt[3 + i], list)
            and len(bt[3 + i]) <= 6
            and all(v in faces for v in bt[3 + i])
            for i in (0, 1)
        )
        and all(ints(bt[i], 2) and min(bt[i]) >= 0 for i in range(5, 10))
        and -1 <= bt[10] < len(s.boxes)
        and bt[11] in (0, 1)
        and bt[12] in (0, 1)
        and bt[13] in (-1, 0, 1)
    )
    if not ok:
        raise RecordError(
            "state.battle: a battle in progress needs [row, Persian space, "
            "Spartan space, Persian dice, Spartan dice, attack, dice, damage and "
            "shield bonuses, damage left (pairs), box, stage, advanced, winner]"
        )
    for slot in s.rolls:
        side, i = divmod(slot, 8)
        if side not in (0, 1) or i >= len(bt[3 + side]):
            raise RecordError(f"state.rolls: no die {slot} in this battle")
    if s.phase == CONQUER and bt[13] not in (0, 1):
        raise RecordError("state.battle: a conquest names the side that won the space")
    if s.played and s.phase != WINDOW:
        raise RecordError("state.played: cards are on the table only while a window is open")
    for e in s.played:
        if (
            len(e) != 4
            or not 0 <= e[0] < s.players
            or not 0 <= e[1] < len(t.cards)
            or e[2] not in (0, 1)
            or not -1 <= e[3] < len(s.played)
        ):
            raise RecordError(f"state.played: {e!r} is not [seat, card, cancelled, target]")


def _check_step(s: State, game: Game[State, Action]) -> None:
    """Ask the rules what happens next; a position whose step in progress lacks its
    context is refused here instead of failing later."""
    if s.phase == OVER:
        if not s.winners or any(not 0 <= w < s.players for w in s.winners):
            raise RecordError("state.winners: a finished game names its winning seats")
        return
    if s.phase != DEAL and not 0 <= s.actor < s.players:
        raise RecordError(f"state.actor: seats are 0 to {s.players - 1}")
    if s.phase == WINDOW and s.window < 0:
        raise RecordError("state.window: the window phase needs an open window")
    if s.phase == DEAL and not (s.draws or s.rolls):
        raise RecordError("state: the deal phase needs cards to draw or dice to roll")
    try:
        copy = s.copy()
        legal = game.legal(copy)
        game.view(copy, None)
        if s.phase == DEAL:
            game.apply(copy, game.chance(copy)[0][0], quiet=True)
        elif not legal:
            raise RecordError(f"state: nothing is legal in phase {PHASES[s.phase]}")
        else:
            game.apply(copy, legal[0], quiet=True)
    except RecordError:
        raise
    except Exception as exc:  # a hand-made position the rules cannot continue from
        raise RecordError(
            f"state: the step in progress ({PHASES[s.phase]}) is incomplete "
            f"or inconsistent ({type(exc).__name__}: {exc})"
        ) from exc
