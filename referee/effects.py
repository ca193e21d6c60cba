"""Effects that rules return; the engine applies them in RULES.md §5's order.

``ORDER`` is the resolution order: locks → revolution/jack_back/reverse →
Bloody Mary → resurrection → 7-pass → 10-discard → cut (and its cut-back
window) → skip → clearing locks. The finish check comes after all of them.

Every effect folds itself onto one ``resolution.Resolution``; the merge rules of
effects that meet on one play are written in their ``fold``: several revolutions
turn the order once and the highest threshold holds; an exact suit lock beats a
partial one whatever their order; cuts keep the first; skips add up.

``KIND`` says what an effect does in the words clients read (``referee.annotate``): ``lock``, ``rank_lock``,
``unlock``, ``revolution``, ``jack_back``, ``reverse``, ``others_discard``, ``take``, ``give``, ``discard``,
``cut``, ``skip``.
"""
from __future__ import annotations

from dataclasses import dataclass

from .state import Pending


@dataclass(frozen=True, slots=True)
class Lock:
    rule: str
    suits: int
    exact: bool
    ORDER = 1
    KIND = "lock"

    def fold(self, res):
        if self.exact:
            res.lock, res.exact = (self.suits, "exact"), True
        elif not res.exact:
            res.lock = (self.suits, "partial")


@dataclass(frozen=True, slots=True)
class Unlock:
    rule: str
    rank: bool = False          # it ends the rank lock (else the suit locks)
    ORDER = 1
    KIND = "unlock"

    def fold(self, res):
        if self.rank:
            res.rank_lock = False
        else:
            res.lock = (0, None)


@dataclass(frozen=True, slots=True)
class RankLock:
    rule: str
    ORDER = 1
    KIND = "rank_lock"

    def fold(self, res):
        res.rank_lock = True


@dataclass(frozen=True, slots=True)
class Revolution:
    rule: str
    threshold: int = 0          # from now on a revolution needs this many cards (0: unchanged)
    ORDER = 2
    KIND = "revolution"

    def fold(self, res):
        res.revolution = True   # several on one play turn the order once
        res.revolution_min = max(res.revolution_min, self.threshold)


@dataclass(frozen=True, slots=True)
class JackBack:
    rule: str
    ORDER = 2
    KIND = "jack_back"

    def fold(self, res):
        res.jack_back = not res.jack_back


@dataclass(frozen=True, slots=True)
class Reverse:
    rule: str
    trick: bool = False         # the direction comes back when the trick ends
    ORDER = 2
    KIND = "reverse"

    def fold(self, res):
        res.direction = -res.direction
        res.trick = res.trick != self.trick


@dataclass(frozen=True, slots=True)
class BloodyMary:
    rule: str
    count: int
    ORDER = 3
    KIND = "others_discard"

    def fold(self, res):
        st, seat = res.st, res.ctx.seat
        s = seat
        for _ in range(len(st.players) - 1):
            s = (s + res.direction) % len(st.players)
            if st.active(s):
                res.queue.append(Pending(s, "discard", self.count, self.rule, strongest=True,
                                         reversed=res.ctx.reversed))


@dataclass(frozen=True, slots=True)
class Resurrect:
    rule: str
    ORDER = 4
    KIND = "take"

    def fold(self, res):
        if res.ctx.left_after:
            res.queue.append(Pending(res.ctx.seat, "take", 1, self.rule))


@dataclass(frozen=True, slots=True)
class SevenPass:
    rule: str
    count: int
    ORDER = 5
    KIND = "give"

    def fold(self, res):
        to = res.st.next_active(res.ctx.seat, res.direction)
        if to is not None:
            res.queue.append(Pending(res.ctx.seat, "give", self.count, self.rule, to=to))


@dataclass(frozen=True, slots=True)
class TenDiscard:
    rule: str
    count: int
    ORDER = 6
    KIND = "discard"

    def fold(self, res):
        res.queue.append(Pending(res.ctx.seat, "discard", self.count, self.rule))


@dataclass(frozen=True, slots=True)
class Cut:
    rule: str
    ORDER = 7
    KIND = "cut"

    def fold(self, res):
        res.cut = res.cut or self.rule


@dataclass(frozen=True, slots=True)
class Skip:
    rule: str
    count: int
    ORDER = 8
    KIND = "skip"

    def fold(self, res):
        res.skip += self.count


@dataclass(frozen=True, slots=True)
class ClearLocks:
    """Every lock ends (after an attach revolution, whatever the other effects locked)."""
    rule: str
    ORDER = 9
    KIND = "unlock"

    def fold(self, res):
        res.lock, res.rank_lock = (0, None), False


def ordered(effects):
    return sorted(effects, key=lambda e: e.ORDER)
