"""Shapes (RULES.md §2): every way a set of cards can be read as one play.

A ``Reading`` is one interpretation of the physical cards: its shape, the
effective (rank, suit) of every card (jokers standing in included) and the
ranks used to compare it. A lone joker, or a set made only of jokers, is
``wild``: stronger than any set of its size.
"""
from __future__ import annotations

from itertools import permutations
from typing import Final

from .cards import JOKERS_MASK, NORMAL_MASK, RANKS, card, cards_of, code, count, rank_of, suit_of

# The shapes every ruleset has: (priority among readings of the same cards, name in messages). Every other shape
# is a sequence defined by its own rule module (``SHAPE = True``: its reader, its candidate table, its priority
# and name; ``rules.SEQUENCES``).
PLAIN_SHAPES: Final = {"loose": (-1, "loose cards"), "single": (0, "a single"), "group": (1, "a group")}


class Reading:
    """Cards as one play. Immutable by convention; a plain class with slots, not a frozen dataclass: compiled, a
    frozen dataclass is built and compared through its generated, interpreted __init__ and __eq__."""
    __slots__ = ("shape", "mask", "n", "lo", "hi", "suits", "eff", "jokers", "wild", "_hash", "_ranks")
    shape: str
    mask: int                 # the physical cards
    n: int
    lo: int                   # weakest rank in normal order (13 for wild)
    hi: int                   # strongest rank in normal order
    suits: int                # 4-bit set of the suits shown (jokers: the suit they stand for)
    eff: tuple                # (rank, suit) of every card as read; suit -1 = no suit left
    jokers: tuple             # ((joker card, rank, suit), ...) the stand-in readings
    wild: bool
    _hash: int                # 0 until hashed
    _ranks: int               # the ranks read (bit r), -1 until asked (has_rank: rule hooks ask it of every play)

    def __init__(self, shape: str, mask: int, n: int, lo: int, hi: int, suits: int, eff: tuple, jokers: tuple = (),
                 wild: bool = False) -> None:
        self.shape, self.mask, self.n, self.lo, self.hi, self.suits = shape, mask, n, lo, hi, suits
        self.eff, self.jokers, self.wild = eff, jokers, wild
        self._hash = 0
        self._ranks = -1

    def __eq__(self, other: object) -> bool:
        return (type(other) is Reading and self.mask == other.mask and self.shape == other.shape
                and self.n == other.n and self.lo == other.lo and self.hi == other.hi and self.suits == other.suits
                and self.eff == other.eff and self.jokers == other.jokers and self.wild == other.wild)

    def __hash__(self) -> int:
        # memo keys hold readings (kept by the readings cache, hashed again and again): equal readings have equal
        # cards, shape and stand-ins
        h = self._hash
        if not h:
            h = self._hash = hash((self.mask, self.shape, self.jokers)) or 1
        return h

    def __repr__(self) -> str:
        return (f"Reading(shape={self.shape!r}, mask={self.mask!r}, n={self.n!r}, lo={self.lo!r}, hi={self.hi!r}, "
                f"suits={self.suits!r}, eff={self.eff!r}, jokers={self.jokers!r}, wild={self.wild!r})")

    def rank_count(self, rank: int) -> int:
        """How many cards read as ``rank`` (jokers standing in count)."""
        if not self.has_rank(rank):  # most plays: answered from the ranks read
            return 0
        n = 0
        for r, _ in self.eff:
            if r == rank:
                n += 1
        return n

    def rank_bits(self) -> int:
        """The ranks read (bit r), jokers as the ranks they stand for."""
        ranks = self._ranks
        if ranks < 0:
            ranks = 0
            for r, _ in self.eff:
                ranks |= 1 << r
            self._ranks = ranks
        return ranks

    def has_rank(self, rank: int) -> bool:
        return bool(self.rank_bits() >> rank & 1)

    @property
    def has_joker(self) -> bool:
        return bool(self.mask & JOKERS_MASK)

    def as_map(self) -> dict:
        """The stand-in readings as codes; a joker left without a suit reads as its rank alone."""
        return {code(j): code(card(r, s)) if s >= 0 else RANKS[r] for j, r, s in self.jokers}


def loose(mask: int) -> Reading:
    """Cards that form no play by themselves (only an attach revolution can use them)."""
    normals = cards_of(mask & NORMAL_MASK)
    eff = tuple(sorted((rank_of(c), suit_of(c)) for c in normals))
    ranks = [r for r, _ in eff] or [13]
    suits = 0
    for _, s in eff:
        suits |= 1 << s
    return Reading("loose", mask, count(mask), min(ranks), max(ranks), suits, eff)


def part(reading: Reading, mask: int) -> Reading:
    """The cards of ``mask`` as ``reading`` reads them (attached cards inside an attach revolution's 4 cards):
    every joker counts as the card it stands for there."""
    jokers = tuple(j for j in reading.jokers if mask >> j[0] & 1)
    eff = [(rank_of(c), suit_of(c)) for c in cards_of(mask & NORMAL_MASK)] + [(r, s) for _, r, s in jokers]
    ranks = [r for r, _ in eff] or [13]
    suits = 0
    for _, s in eff:
        if s >= 0:
            suits |= 1 << s
    return Reading("loose", mask, count(mask), min(ranks), max(ranks), suits, tuple(sorted(eff)), jokers)


def matches_as(reading: Reading, as_map) -> bool:
    """Does ``reading`` read every joker of ``as_map`` ((joker, rank, suit or -1), ...) that way?"""
    if not as_map:
        return True
    got = {j: (r, s) for j, r, s in reading.jokers}
    for j, r, s in as_map:
        if j not in got:
            return False
        gr, gs = got[j]
        if gr != r or (s >= 0 and gs != s):
            return False
    return True


def beats(new: Reading, old: Reading, reversed_order: bool, compare: str) -> bool:
    """Is ``new`` (same shape and size as ``old``) stronger under the order in force?"""
    if old.wild:
        return False
    if new.wild:
        return True
    if new.shape not in PLAIN_SHAPES:
        if compare == "above":
            return new.hi < old.lo if reversed_order else new.lo > old.hi
        return new.hi < old.hi if reversed_order else new.lo > old.lo
    return new.lo < old.lo if reversed_order else new.lo > old.lo


def strength_key(r: Reading, reversed_order: bool):
    if r.wild:
        return (1, 0)
    return (0, -r.hi if reversed_order else r.lo)


# readings' and readings_as' cache (their keys differ in length): a plain dict (compiled code looks it up in C; an
# lru_cache is a call through the interpreter that builds its own key), emptied when full
_READINGS: Final[dict[tuple, tuple]] = {}
READINGS_SIZE: Final = 1 << 16


def readings(mask: int, shapes: frozenset, min_stairs: int = 3) -> tuple:
    """All readings of ``mask`` as one play, over the enabled sequence ``shapes`` (cached: they never change)."""
    key = (mask, shapes, min_stairs)
    got = _READINGS.get(key)
    if got is None:
        if len(_READINGS) >= READINGS_SIZE:
            _READINGS.clear()
        got = _READINGS[key] = tuple(_readings(mask, shapes, min_stairs))
    return got


def readings_as(mask: int, shapes: frozenset, min_stairs: int, as_map: tuple) -> tuple:
    """The ``readings`` of ``mask`` that read its jokers as ``as_map`` says (``matches_as``; cached likewise)."""
    key = (mask, shapes, min_stairs, as_map)
    got = _READINGS.get(key)
    if got is None:
        if len(_READINGS) >= READINGS_SIZE:
            _READINGS.clear()
        got = _READINGS[key] = tuple(r for r in readings(mask, shapes, min_stairs) if matches_as(r, as_map))
    return got


def _readings(mask: int, shapes: frozenset, min_stairs: int) -> list[Reading]:
    n = count(mask)
    if n == 0:
        return []
    jokers = cards_of(mask & JOKERS_MASK)
    normals = cards_of(mask & NORMAL_MASK)
    if n == 1:
        if jokers:
            return [Reading("single", mask, 1, 13, 13, 0, (), (), True)]
        c = normals[0]
        return [Reading("single", mask, 1, rank_of(c), rank_of(c), 1 << suit_of(c), ((rank_of(c), suit_of(c)),))]
    out: list[Reading] = []
    _groups(mask, n, normals, jokers, out)
    if n >= 3 and normals:  # every sequence has 3 or more cards, one of them a natural card
        for module in _sequence_modules():
            if module.ID in shapes:
                module.read(mask, n, normals, jokers, min_stairs, out)
    return out


_SEQUENCE_MODULES: tuple = ()


def _sequence_modules() -> tuple:
    """The shape modules (the rule registry imports this module, so it is read on first use)."""
    global _SEQUENCE_MODULES
    if not _SEQUENCE_MODULES:
        from .rules import SHAPE_MODULES
        _SEQUENCE_MODULES = SHAPE_MODULES
    return _SEQUENCE_MODULES


def make_reading(shape, mask, n, eff, jokers_read) -> Reading:
    """A Reading of ``mask`` as ``shape``: ``eff`` the (rank, suit) of every card as read, ``jokers_read`` the
    stand-ins ((joker, rank, suit), ...)."""
    ranks = [r for r, _ in eff]
    suits = 0
    for _, s in eff:
        if s >= 0:
            suits |= 1 << s
    return Reading(shape, mask, n, min(ranks), max(ranks), suits, tuple(sorted(eff)), tuple(jokers_read))


def _groups(mask, n, normals, jokers, out):
    if not normals:
        out.append(Reading("group", mask, n, 13, 13, 0, (), (), True))
        return
    r = rank_of(normals[0])
    if any(rank_of(c) != r for c in normals):
        return
    used = {suit_of(c) for c in normals}
    missing = [s for s in range(4) if s not in used]
    base = [(r, suit_of(c)) for c in normals]
    if not jokers:
        out.append(make_reading("group", mask, n, base, ()))
        return
    slots = missing + [-1] * len(jokers)
    seen = set()
    for perm in permutations(slots, len(jokers)):
        if -1 in perm and any(s >= 0 for s in missing if s not in perm):
            continue  # a joker only goes suitless when every suit is already shown
        key = perm
        if key in seen:
            continue
        seen.add(key)
        read = [(j, r, s) for j, s in zip(jokers, perm)]
        out.append(make_reading("group", mask, n, base + [(r, s) for s in perm], read))
