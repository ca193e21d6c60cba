"""A game changed in place, for self-play and the bots' playouts (docs/engine-core.md §3.1).

``apply`` and ``advance`` never change a State: each move copies it. A playout owns its game and needs no history,
so ``Game`` holds a private State and writes the commonest moves into it in place: a pass that ends no deal
(``flow.quiet_pass``, else ``flow.trick_end``) and a legal play (``engine.write_play``, written straight into the State as ``apply``
writes it into its copy; what it leaves to do, ``engine.proceed`` does on a copy). Decisions, a pass that ends the deal, and every proposal
the engine would reject go through ``engine.advance`` as they are, so the rules are the engine's own and nothing
is judged twice differently: ``tests/engine/test_core_game.py`` checks that a game played in place passes through
the very states ``advance`` gives. The state is a State all along, so ``options``, ``actors`` and the observer
read it as they read any.
"""
from __future__ import annotations

from . import engine, flow
from .legal import options
from .moves import Move
from .play import judge_play
from .rules.base import Rejection
from .state import State, put_field, replace
from .verdict import Verdict


class Game:
    """A private, mutable game: ``advance`` changes it in place; ``copy`` branches it; ``state()`` is an
    immutable snapshot for the edges (JSON, the service). ``live`` is the State itself, to be read only and not
    kept across a move (the next one changes it)."""
    __slots__ = ("live",)
    live: State

    def __init__(self, st: State):
        self.live = replace(st)  # a copy nobody else holds

    def copy(self) -> Game:
        return Game(self.live)

    def state(self) -> State:
        return replace(self.live)

    def actors(self) -> list[int]:
        return engine.actors(self.live)

    def options(self, seat: int, noted: bool = False) -> list:
        return options(self.live, seat, noted)

    def advance(self, move) -> Verdict | None:
        """Make ``move`` (a Move from ``options`` or a move entry); the rejecting Verdict, the game unchanged, when
        it is not legal, else None."""
        st = self.live
        if type(move) is Move and not st.pending and st.phase == "play" and move.seat == st.turn:
            if move.action == "pass" and (st.field is not None or st.rules.lead_may_pass):
                idle = st.idle + 1
                # a pass that ends the deal (pass_abort) is left to the engine
                if flow.ended_by_pass(st, idle, engine.UNLOGGED) is None:
                    quiet = flow.quiet_pass(st, move.seat)
                    if quiet is not None:  # the trick goes on
                        st.turn, st.passed = quiet
                        st.idle = idle
                        st.seq += 1
                        return None
                    changes = flow.trick_end(st, move.seat, idle, engine.UNLOGGED)
                    self._write(changes)
                    return None
            elif move.action == "play":
                plan = judge_play(st, move)
                if not isinstance(plan, Rejection):
                    done = engine.write_play(st, st, plan)
                    st.seq += 1
                    if not done:
                        self.live = engine.proceed(st, engine.UNLOGGED)
                    return None
        new = engine.advance(st, move)
        if isinstance(new, Verdict):
            return new
        self.live = new  # a State this move made: nobody else holds it either
        return None

    def _write(self, changes: dict) -> None:
        st = self.live
        changes["seq"] = st.seq + 1
        for name, value in changes.items():  # State is immutable to everyone else; this one is private
            put_field(st, name, value)
