"""Battle odds for the heuristic: exact round-by-round chances of a battle fought to the end.

One die per unit, at most 3; the highest die counts; a Persian die counts at most `cap`
(4, 5 in Abydos and Ephesos, 6 with the Cavalry); Greek dice may be fixed by an event
(Miltiades, 300 Spartans, Leonidas). The results depend on their arguments only, so they
are kept in bounded caches shared by every decision.
"""

from __future__ import annotations

from functools import lru_cache

ODDS_MAX = 1 << 14  # entries kept by each odds cache (the battles of a game need far fewer)


@lru_cache(maxsize=ODDS_MAX)
def _highest(n: int, cap: int) -> tuple[float, ...]:
    """P(the highest of n dice, counted at most `cap`, is v), v = 0..6."""
    out = [0.0] * 7
    if n <= 0:
        out[0] = 1.0
        return tuple(out)
    for f in range(1, 7):
        out[min(f, cap)] += (f**n - (f - 1) ** n) / 6**n
    return tuple(out)


@lru_cache(maxsize=ODDS_MAX)
def _round(na: int, nd: int, cap_a: int, cap_d: int) -> tuple[float, float, float]:
    """(attacker wins the round, tie, defender wins)."""
    ha, hd = _highest(na, cap_a), _highest(nd, cap_d)
    win = tie = 0.0
    for a in range(1, 7):
        if ha[a]:
            win += ha[a] * sum(hd[1:a])
            tie += ha[a] * hd[a]
    return win, tie, 1.0 - win - tie


@lru_cache(maxsize=ODDS_MAX)
def battle(
    a: int, d: int, att_persian: bool, gdice: int, cap: int
) -> tuple[float, float, float, float, float]:
    """A battle fought to the end: (P attacker wins, its mean survivors if so,
    P defender wins, its mean survivors if so, P both wiped out). Greek dice are
    `gdice` every round when given (Miltiades, 300 Spartans, Leonidas)."""
    if a <= 0 or d <= 0:
        if a > 0:
            return 1.0, float(a), 0.0, 0.0, 0.0
        if d > 0:
            return 0.0, 0.0, 1.0, float(d), 0.0
        return 0.0, 0.0, 0.0, 0.0, 1.0
    if att_persian:
        na, nd, cap_a, cap_d = min(3, a), gdice or min(3, d), cap, 6
    else:
        na, nd, cap_a, cap_d = gdice or min(3, a), min(3, d), 6, cap
    w, t, lo = _round(na, nd, cap_a, cap_d)
    total = [0.0] * 5
    for p, (a2, d2) in ((w, (a, d - 1)), (t, (a - 1, d - 1)), (lo, (a - 1, d))):
        if p <= 0:
            continue
        r = battle(a2, d2, att_persian, gdice, cap)
        total[0] += p * r[0]
        total[1] += p * r[0] * r[1]
        total[2] += p * r[2]
        total[3] += p * r[2] * r[3]
        total[4] += p * r[4]
    pw, pl = total[0], total[2]
    return (pw, total[1] / pw if pw else 0.0, pl, total[3] / pl if pl else 0.0, total[4])


def mix(x: tuple[float, ...], y: tuple[float, ...], q: float) -> tuple[float, ...]:
    """Battle summaries mixed: `y` with probability q."""
    if q <= 0:
        return x
    pw = (1 - q) * x[0] + q * y[0]
    pl = (1 - q) * x[2] + q * y[2]
    ea = ((1 - q) * x[0] * x[1] + q * y[0] * y[1]) / pw if pw else 0.0
    ed = ((1 - q) * x[2] * x[3] + q * y[2] * y[3]) / pl if pl else 0.0
    return pw, ea, pl, ed, (1 - q) * x[4] + q * y[4]


@lru_cache(maxsize=ODDS_MAX)
def sea_win(att_persian: bool, in_asia: bool, a: int, d: int) -> float:
    """P(the attacker wins a naval battle of `a` fleets against `d`): the same for every
    seat (no event changes a naval battle's dice)."""
    return battle(a, d, att_persian, 0, 5 if in_asia else 4)[0]
