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

from typing import ClassVar

from .resolution import Resolution
from .state import Pending


class Effect:
    """What one rule's hook says a play does. Effects are immutable by convention and compared by class and
    fields; plain classes with slots rather than frozen dataclasses, so that compiled they are built and read
    natively (a frozen dataclass is built through its interpreted ``__init__``)."""
    __slots__ = ("rule",)
    ORDER: ClassVar[int] = 0
    KIND: ClassVar[str] = ""
    rule: str

    def __init__(self, rule: str) -> None:
        self.rule = rule

    def fold(self, res: Resolution) -> None:
        raise NotImplementedError

    def fields(self) -> tuple:
        """Its fields by name, in order (equality, hashing and repr read them)."""
        return (("rule", self.rule),)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Effect) and other.fields() == self.fields()

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.fields()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.fields())})"


class Lock(Effect):
    __slots__ = ("suits", "exact")
    ORDER: ClassVar[int] = 1
    KIND: ClassVar[str] = "lock"
    suits: int
    exact: bool

    def __init__(self, rule: str, suits: int, exact: bool) -> None:
        self.rule, self.suits, self.exact = rule, suits, exact

    def fields(self) -> tuple:
        return ("rule", self.rule), ("suits", self.suits), ("exact", self.exact)

    def fold(self, res: Resolution) -> None:
        if self.exact:
            res.lock, res.exact = (self.suits, "exact"), True
        elif not res.exact:
            res.lock = (self.suits, "partial")


class Unlock(Effect):
    __slots__ = ("rank",)
    ORDER: ClassVar[int] = 1
    KIND: ClassVar[str] = "unlock"
    rank: bool                  # it ends the rank lock (else the suit locks)

    def __init__(self, rule: str, rank: bool = False) -> None:
        self.rule, self.rank = rule, rank

    def fields(self) -> tuple:
        return ("rule", self.rule), ("rank", self.rank)

    def fold(self, res: Resolution) -> None:
        if self.rank:
            res.rank_lock = False
        else:
            res.lock = (0, None)


class RankLock(Effect):
    __slots__ = ()
    ORDER: ClassVar[int] = 1
    KIND: ClassVar[str] = "rank_lock"

    def fold(self, res: Resolution) -> None:
        res.rank_lock = True


class Revolution(Effect):
    __slots__ = ("threshold",)
    ORDER: ClassVar[int] = 2
    KIND: ClassVar[str] = "revolution"
    threshold: int              # from now on a revolution needs this many cards (0: unchanged)

    def __init__(self, rule: str, threshold: int = 0) -> None:
        self.rule, self.threshold = rule, threshold

    def fields(self) -> tuple:
        return ("rule", self.rule), ("threshold", self.threshold)

    def fold(self, res: Resolution) -> None:
        res.revolution = True   # several on one play turn the order once
        res.revolution_min = max(res.revolution_min, self.threshold)


class JackBack(Effect):
    __slots__ = ()
    ORDER: ClassVar[int] = 2
    KIND: ClassVar[str] = "jack_back"

    def fold(self, res: Resolution) -> None:
        res.jack_back = not res.jack_back


class Reverse(Effect):
    __slots__ = ("trick",)
    ORDER: ClassVar[int] = 2
    KIND: ClassVar[str] = "reverse"
    trick: bool                 # the direction comes back when the trick ends

    def __init__(self, rule: str, trick: bool = False) -> None:
        self.rule, self.trick = rule, trick

    def fields(self) -> tuple:
        return ("rule", self.rule), ("trick", self.trick)

    def fold(self, res: Resolution) -> None:
        res.direction = -res.direction
        res.trick = res.trick != self.trick


class Counted(Effect):
    """An effect that acts on a number of cards or seats (``count``)."""
    __slots__ = ("count",)
    count: int

    def __init__(self, rule: str, count: int) -> None:
        self.rule, self.count = rule, count

    def fields(self) -> tuple:
        return ("rule", self.rule), ("count", self.count)


class BloodyMary(Counted):
    __slots__ = ()
    ORDER: ClassVar[int] = 3
    KIND: ClassVar[str] = "others_discard"

    def fold(self, res: Resolution) -> None:
        st, seat = res.st, res.seat
        s = seat
        for _ in range(len(st.players) - 1):
            s = (s + res.direction) % len(st.players)
            if st.active(s):
                res.queue.append(Pending(s, "discard", self.count, self.rule, strongest=True,
                                         reversed=res.reversed))


class Resurrect(Effect):
    __slots__ = ()
    ORDER: ClassVar[int] = 4
    KIND: ClassVar[str] = "take"

    def fold(self, res: Resolution) -> None:
        if res.left_after:
            res.queue.append(Pending(res.seat, "take", 1, self.rule))


class SevenPass(Counted):
    __slots__ = ()
    ORDER: ClassVar[int] = 5
    KIND: ClassVar[str] = "give"

    def fold(self, res: Resolution) -> None:
        to = res.st.next_active(res.seat, res.direction)
        if to is not None:
            res.queue.append(Pending(res.seat, "give", self.count, self.rule, to=to))


class TenDiscard(Counted):
    __slots__ = ()
    ORDER: ClassVar[int] = 6
    KIND: ClassVar[str] = "discard"

    def fold(self, res: Resolution) -> None:
        res.queue.append(Pending(res.seat, "discard", self.count, self.rule))


class Cut(Effect):
    __slots__ = ()
    ORDER: ClassVar[int] = 7
    KIND: ClassVar[str] = "cut"

    def fold(self, res: Resolution) -> None:
        res.cut = res.cut or self.rule


class Skip(Counted):
    __slots__ = ()
    ORDER: ClassVar[int] = 8
    KIND: ClassVar[str] = "skip"

    def fold(self, res: Resolution) -> None:
        res.skip += self.count


class ClearLocks(Effect):
    """Every lock ends (after an attach revolution, whatever the other effects locked)."""
    __slots__ = ()
    ORDER: ClassVar[int] = 9
    KIND: ClassVar[str] = "unlock"

    def fold(self, res: Resolution) -> None:
        res.lock, res.rank_lock = (0, None), False


def named(effects, kinds: bool = False) -> list[str]:
    """The rule ids (with ``kinds``: the kinds) of ``effects`` other than unlocks, each once, in order: what a
    verdict and an annotation name."""
    out: list[str] = []
    for e in effects:
        effect: Effect = e
        if type(effect) is not Unlock:
            name = effect.KIND if kinds else effect.rule
            if name not in out:
                out.append(name)
    return out


def _order(effect: Effect) -> int:
    return effect.ORDER


def ordered(effects) -> list:
    """``effects`` in resolution order (stable: effects of one ORDER keep theirs)."""
    return sorted(effects, key=_order)
