"""The toy's numeric form of a view, for the learning interfaces (`engine.observation`):
built from the view alone, so it can hold nothing the seat may not see."""

from __future__ import annotations

from collections.abc import Sequence

from tests.toy.rules import CARDS, seat_name
from thermopylae.engine.protocol import JSON


class ToyObserver:
    """For a table of `players` seats: fields in the order of `layout`."""

    def __init__(self, players: int) -> None:
        self.players = players
        self._layout = (
            ("seat", players, "one-hot: the view's seat (all 0: a spectator)"),
            ("hand", len(CARDS), "1 for each card the seat holds"),
            ("played", len(CARDS), "1 for each card played"),
            ("top", 1, "the card on top of the table /10 (0: none)"),
            ("points", players, "per seat: points /10"),
            ("deck", 1, "cards left to draw /10"),
            ("to_act", players, "one-hot: the seat to play (all 0: chance or over)"),
        )

    def layout(self) -> Sequence[tuple[str, int, str]]:
        return self._layout

    @property
    def size(self) -> int:
        return sum(size for _, size, _ in self._layout)

    def features(self, view: JSON) -> Sequence[float]:
        names = [seat_name(p) for p in range(self.players)]
        mine = next((h["cards"] for h in view["hands"] if h["seat"] == view["seat"]), None)
        held = set(mine or ())
        played = set(view["played"])
        top = view["played"][-1] if view["played"] else 0
        scale = float(len(CARDS))
        return [
            *(float(view["seat"] == name) for name in names),
            *(float(c in held) for c in CARDS),
            *(float(c in played) for c in CARDS),
            top / scale,
            *(p / scale for p in view["points"]),
            view["deck"] / scale,
            *(float(view["to_act"] == name) for name in names),
        ]
