"""A play's effects folded into one resolution, then written onto the state in one step."""
from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from .state import After, State, new_tuple

if TYPE_CHECKING:
    from .slots import Slot
    from .effects import Effect
    from .play import Plan

T = TypeVar("T")


class Resolution:
    """What the effects of one play add up to (each effect's ``fold`` says how it merges with the others)."""
    __slots__ = ("st", "seat", "left_after", "reversed", "revolution", "direction", "queue", "cut", "skip",
                 "view_slots", "rule_slots")
    st: State
    seat: int                     # the player
    left_after: int               # cards it holds after the play
    reversed: bool                # the order the play was judged in
    revolution: bool
    direction: int
    queue: list
    cut: str | None
    skip: int
    view_slots: list | None       # the rules' declared state, once an effect changes it (None: unchanged)
    rule_slots: list | None

    def __init__(self, st: State, seat: int, left_after: int, reversed: bool) -> None:
        self.st, self.seat, self.left_after, self.reversed = st, seat, left_after, reversed
        self.revolution = False           # the order turns (once, however many revolutions)
        self.direction = st.direction
        self.queue = []
        self.cut = None
        self.skip = 0
        self.view_slots = None
        self.rule_slots = None

    def get(self, slot: Slot[T]) -> T:
        """A declared slot's value as the effects folded so far leave it."""
        values = self.view_slots if slot.view else self.rule_slots
        if values is None:
            return self.st.slot(slot)
        return values[slot.index]

    def put(self, slot: Slot[T], value: T) -> None:
        if slot.view:
            if self.view_slots is None:
                self.view_slots = list(self.st.view_slots)
            self.view_slots[slot.index] = value
        else:
            if self.rule_slots is None:
                self.rule_slots = list(self.st.rule_slots)
            self.rule_slots[slot.index] = value


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
    new.direction = res.direction
    new.pending, new.after = queue, after
    if res.revolution:
        new.revolution = not st.revolution
    if res.view_slots is not None:
        new.view_slots = tuple(res.view_slots)
    if res.rule_slots is not None:
        new.rule_slots = tuple(res.rule_slots)
    return after
