"""A game position that moves: what self-play and the bots' playouts hold (docs/engine-core.md).

``Game`` is a State and the one way the engine moves it (``engine.advance``: every rule applied, no verdict or
event built). Each move makes a new State, as ``apply`` does, so a State handed out is never changed afterwards.
"""
from __future__ import annotations

from . import engine
from .legal import options
from .state import State
from .verdict import Verdict


class Game:
    """``live`` is the current State; ``advance`` replaces it by the next one; ``copy`` branches the game."""
    __slots__ = ("live",)
    live: State

    def __init__(self, st: State):
        self.live = st

    def copy(self) -> Game:
        return Game(self.live)

    def state(self) -> State:
        return self.live

    def actors(self) -> list[int]:
        return engine.actors(self.live)

    def options(self, seat: int, noted: bool = False) -> list:
        return options(self.live, seat, noted)

    def advance(self, move) -> Verdict | None:
        """Make ``move`` (a Move from ``options`` or a move entry); the rejecting Verdict, the game unchanged, when
        it is not legal, else None."""
        new = engine.advance(self.live, move)
        if isinstance(new, Verdict):
            return new
        self.live = new
        return None
