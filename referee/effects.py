"""Effects that rules return; the engine applies them in RULES.md §5's order.

``ORDER`` is the resolution order: locks → revolution/jack_back/reverse →
Bloody Mary → resurrection → 7-pass → 10-discard → cut (and its cut-back
window) → skip → clearing locks. The finish check comes after all of them.

Every effect folds itself onto one ``resolution.Resolution``; the merge rules of
effects that meet on one play are written in their ``fold``: several revolutions
turn the order once and the highest threshold holds; an exact suit lock beats a
partial one whatever their order; cuts keep the first; skips add up. The effects
here change what every game has (the order, the direction, decisions, the turn); an
effect that changes a rule's declared state (referee/slots.py) is defined beside its
slot, in the rule's module (``suit_lock.Lock``, ``rank_lock.RankLock``, ``jack_back.JackBack``,
``nine_reverse.TrickReverse``,
``revolution.RaiseThreshold``), and folds with ``res.put``.

``KIND`` says what an effect does in the words clients read (``referee.annotate``): ``lock``, ``rank_lock``,
``unlock``, ``revolution``, ``jack_back``, ``reverse``, ``others_discard``, ``take``, ``give``, ``discard``,
``cut``, ``skip``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .resolution import Resolution
from .seating import after, next_active
from .state import Pending


@dataclass(init=False, unsafe_hash=True)
class Effect:
    """What one rule's hook says a play does. Effects are immutable by convention and compared by class and
    fields; dataclasses with a hand-written ``__init__`` (compiled, a generated one is interpreted)."""
    ORDER: ClassVar[int] = 0
    KIND: ClassVar[str] = ""
    QUIET: ClassVar[bool] = False  # it only undoes its rule's own state: it fires undeclared and is never named
    rule: str

    def __init__(self, rule: str) -> None:
        self.rule = rule

    def fold(self, res: Resolution) -> None:
        raise NotImplementedError


class Revolution(Effect):
    ORDER: ClassVar[int] = 2
    KIND: ClassVar[str] = "revolution"

    def fold(self, res: Resolution) -> None:
        res.revolution = True   # several on one play turn the order once


class Reverse(Effect):
    ORDER: ClassVar[int] = 2
    KIND: ClassVar[str] = "reverse"

    def fold(self, res: Resolution) -> None:
        res.direction = -res.direction


@dataclass(init=False, unsafe_hash=True)
class Counted(Effect):
    """An effect that acts on a number of cards or seats (``count``)."""
    count: int

    def __init__(self, rule: str, count: int) -> None:
        self.rule, self.count = rule, count



class BloodyMary(Counted):
    ORDER: ClassVar[int] = 3
    KIND: ClassVar[str] = "others_discard"

    def fold(self, res: Resolution) -> None:
        st, seat = res.st, res.seat
        nxt = after(st, res.direction)
        s = seat
        for _ in range(len(st.players) - 1):
            s = nxt[s]
            if st.active(s):
                res.queue.append(Pending(s, "discard", self.count, self.rule, strongest=True,
                                         reversed=res.reversed))


class Resurrect(Effect):
    ORDER: ClassVar[int] = 4
    KIND: ClassVar[str] = "take"

    def fold(self, res: Resolution) -> None:
        if res.left_after:
            res.queue.append(Pending(res.seat, "take", 1, self.rule))


class SevenPass(Counted):
    ORDER: ClassVar[int] = 5
    KIND: ClassVar[str] = "give"

    def fold(self, res: Resolution) -> None:
        to = next_active(res.st, res.seat, res.direction)
        if to is not None:
            res.queue.append(Pending(res.seat, "give", self.count, self.rule, to=to))


class TenDiscard(Counted):
    ORDER: ClassVar[int] = 6
    KIND: ClassVar[str] = "discard"

    def fold(self, res: Resolution) -> None:
        res.queue.append(Pending(res.seat, "discard", self.count, self.rule))


class Cut(Effect):
    ORDER: ClassVar[int] = 7
    KIND: ClassVar[str] = "cut"

    def fold(self, res: Resolution) -> None:
        res.cut = res.cut or self.rule


class Skip(Counted):
    ORDER: ClassVar[int] = 8
    KIND: ClassVar[str] = "skip"

    def fold(self, res: Resolution) -> None:
        res.skip += self.count


def named(effects, kinds: bool = False) -> list[str]:
    """The rule ids (with ``kinds``: the kinds) of ``effects`` other than unlocks, each once, in order: what a
    verdict and an annotation name."""
    out: list[str] = []
    for e in effects:
        effect: Effect = e
        if not effect.QUIET:
            name = effect.KIND if kinds else effect.rule
            if name not in out:
                out.append(name)
    return out
