"""A play's effects folded into one resolution, then written onto the state in one step."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .state import After, State, new_tuple

if TYPE_CHECKING:
    from .effects import Effect
    from .rules.base import PlayContext


class Resolution:
    """What the effects of one play add up to (each effect's ``fold`` says how it merges with the others)."""
    __slots__ = ("st", "ctx", "revolution", "revolution_min", "lock", "exact", "rank_lock", "jack_back", "direction",
                 "trick", "queue", "cut", "skip")
    st: State
    ctx: PlayContext
    revolution: bool
    revolution_min: int
    lock: tuple | None
    exact: bool
    rank_lock: bool
    jack_back: bool
    direction: int
    trick: bool
    queue: list
    cut: str | None
    skip: int

    def __init__(self, st: State, ctx: PlayContext) -> None:
        self.st, self.ctx = st, ctx
        self.revolution = False           # the order turns (once, however many revolutions)
        self.revolution_min = st.revolution_min
        self.lock = None                  # (suits, kind) when the suit lock changes
        self.exact = False                # an exact lock was folded: partial locks no longer count
        self.rank_lock = st.rank_lock
        self.jack_back = st.jack_back
        self.direction = st.direction
        self.trick = st.trick_reversed
        self.queue = []
        self.cut = None
        self.skip = 0


def resolve(st: State, ctx: PlayContext, effects) -> Resolution:
    res = Resolution(st, ctx)
    for e in effects:
        effect: Effect = e
        effect.fold(res)
    return res


def write(new: State, st: State, res: Resolution, went_out: tuple) -> After | None:
    """Write the resolution of a play of ``st`` onto ``new``, a copy of ``st`` or ``st`` itself (core.Game: the
    folds have read it already). Returns the play's remaining steps, ``after`` (None when the turn just moves on
    to the next seat)."""
    queue = tuple(res.queue)
    # nothing to decide, cut, skip or finish: the turn just moves on (``after`` None; engine.write_play moves it)
    after = new_tuple(After, (res.ctx.seat, res.cut, res.skip, went_out, False, res.ctx.reading.n)) \
        if queue or went_out or res.cut is not None or res.skip else None
    new.rank_lock, new.jack_back, new.direction, new.trick_reversed = res.rank_lock, res.jack_back, res.direction, \
        res.trick
    new.pending, new.after = queue, after
    if res.revolution:
        new.revolution = not st.revolution
        new.revolution_min = res.revolution_min
    if res.lock is not None:
        new.lock_suits, new.lock_kind = res.lock
    return after
