"""A play's effects folded into one resolution, then written onto the state in one step."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .state import After, State, new_tuple

if TYPE_CHECKING:
    from .effects import Effect
    from .play import Plan


class Resolution:
    """What the effects of one play add up to (each effect's ``fold`` says how it merges with the others)."""
    __slots__ = ("st", "seat", "left_after", "reversed", "revolution", "revolution_min", "lock", "exact", "rank_lock", "jack_back", "direction",
                 "trick", "queue", "cut", "skip")
    st: State
    seat: int                     # the player
    left_after: int               # cards it holds after the play
    reversed: bool                # the order the play was judged in
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

    def __init__(self, st: State, seat: int, left_after: int, reversed: bool) -> None:
        self.st, self.seat, self.left_after, self.reversed = st, seat, left_after, reversed
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


def resolve(st: State, plan: Plan) -> Resolution:
    res = Resolution(st, plan.seat, plan.left_after, plan.view.reversed)
    for e in plan.effects:
        effect: Effect = e
        effect.fold(res)
    return res


def write(new: State, st: State, res: Resolution, went_out: tuple, cards: int) -> After | None:
    """Write the resolution of a play of ``st`` onto ``new``, the copy of ``st`` this move makes; ``cards``: how
    many the play put down. Returns the play's remaining steps, ``after`` (None when the turn just moves on to the
    next seat)."""
    queue = tuple(res.queue)
    # nothing to decide, cut, skip or finish: the turn just moves on (``after`` None; engine.write_play moves it)
    after = new_tuple(After, (res.seat, res.cut, res.skip, went_out, False, cards)) \
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
