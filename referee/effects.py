"""Effects that rules return; the engine applies them in RULES.md §5's order.

``ORDER`` is the resolution order: locks → revolution/jack_back/reverse →
Bloody Mary → resurrection → 7-pass → 10-discard → cut (and its cut-back
window) → skip. The finish check comes after all of them.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Lock:
    rule: str
    suits: int
    exact: bool
    ORDER = 1


@dataclass(frozen=True, slots=True)
class Unlock:
    rule: str                   # suit_lock ends the suit locks, rank_lock the rank lock
    ORDER = 1


@dataclass(frozen=True, slots=True)
class RankLock:
    rule: str
    ORDER = 1


@dataclass(frozen=True, slots=True)
class Revolution:
    rule: str
    threshold: int = 0          # from now on a revolution needs this many cards (0: unchanged)
    ORDER = 2


@dataclass(frozen=True, slots=True)
class JackBack:
    rule: str
    ORDER = 2


@dataclass(frozen=True, slots=True)
class Reverse:
    rule: str
    ORDER = 2


@dataclass(frozen=True, slots=True)
class BloodyMary:
    rule: str
    count: int
    ORDER = 3


@dataclass(frozen=True, slots=True)
class Resurrect:
    rule: str
    ORDER = 4


@dataclass(frozen=True, slots=True)
class SevenPass:
    rule: str
    count: int
    ORDER = 5


@dataclass(frozen=True, slots=True)
class TenDiscard:
    rule: str
    count: int
    ORDER = 6


@dataclass(frozen=True, slots=True)
class Cut:
    rule: str
    ORDER = 7


@dataclass(frozen=True, slots=True)
class Skip:
    rule: str
    count: int
    ORDER = 8


def ordered(effects):
    return sorted(effects, key=lambda e: e.ORDER)
