"""Candidate card sets for a seat's plays: every set that may form one play (the judge decides), generated
only at the sizes and ranks that can beat the field.

Groups come from a table by rank, suit pattern and jokers held; sequences from their shape module's table: runs
of one suit (``RUN_STEP``) from a memo by the suit's 13-bit rank pattern and the jokers held, sequences across
suits from rows of precomputed slots (``slots``).
"""
from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any, Final

from .cards import JOKERS_MASK, NORMAL_MASK, cards_of, count, deck
from .rules import SHAPE_MODULES
from .shapes import Reading
from .state import State

if TYPE_CHECKING:
    from .ruleset import Ruleset


def _joker_sets(jb: int) -> list[int]:
    """Every subset of the jokers held (``jb``: the hand's joker bits)."""
    held = [j for j in (52, 53) if jb >> j & 1]
    return [sum(1 << j for j in js) for k in range(len(held) + 1) for js in combinations(held, k)]


# JOKER_SETS[jokers held 0-3]: the non-empty sets of jokers
JOKER_SETS: Final = [tuple(_joker_sets(jb << 52)[1:]) for jb in range(4)]


def _group_table() -> list[list[list[dict[int, tuple]]]]:
    """GROUPS[rank][suit pattern][jokers held 0-3] = {size: sets}: a rank's groups (and singles), with jokers."""
    table = []
    for r in range(13):
        by_pattern = []
        for pattern in range(16):
            by_jokers = []
            for jb in range(4):
                sizes: dict[int, list[int]] = {}
                for sub in range(1, 16):
                    if sub & ~pattern:
                        continue
                    for js in _joker_sets(jb << 52):
                        sizes.setdefault(count(sub) + count(js), []).append(sub << 4 * r | js)
                by_jokers.append({k: tuple(v) for k, v in sizes.items()})
            by_pattern.append(by_jokers)
        table.append(by_pattern)
    return table


GROUPS: Final = _group_table()
# LEADS[rank][suit pattern][jokers held 0-3]: every size's sets of GROUPS in one tuple, in the same order (a lead
# takes them all; the candidates' order, hence legal_moves', stays that of adding them size by size)
LEADS: Final = [[[tuple(c for sets in sizes.values() for c in sets) for sizes in by_jokers] for by_jokers in by_pattern]
                for by_pattern in GROUPS]
# SUIT_BITS[x]: the ranks (bit r) of the cards of suit 0 in 16 bits of a hand shifted to that suit (bits 4r)
SUIT_BITS: Final = {sum(1 << 4 * r for r in range(4) if p >> r & 1): p for p in range(16)}
SINGLE_STEP: Final = {m.ID: m.RUN_STEP for m in SHAPE_MODULES if hasattr(m, "RUN_STEP")}  # one suit's runs


def suit_pattern(hand: int, s: int) -> int:
    """The ranks held in suit ``s`` as 13 bits."""
    m = hand >> s & 0x1111111111111
    return (SUIT_BITS[m & 0x1111] | SUIT_BITS[m >> 16 & 0x1111] << 4 | SUIT_BITS[m >> 32 & 0x1111] << 8
            | (m >> 48 & 1) << 12)


# Tables filled as they are asked for, in plain dicts (compiled code looks them up in C; an lru_cache is a Python
# call that builds and hashes an argument tuple). Their keys are few (13-bit rank patterns), so they need no bound.
_RUNS: Final[dict[int, tuple]] = {}
_FEASIBLE: Final[dict[tuple, tuple]] = {}


def suit_runs(step: int, pattern: int, jb: int) -> tuple:
    """``_suit_runs``, kept."""
    key = pattern | jb >> 39 | step << 16  # the jokers' bits 52-53 as bits 13-14
    got = _RUNS.get(key)
    if got is None:
        got = _RUNS[key] = _suit_runs(step, pattern, jb)
    return got


def _suit_runs(step: int, pattern: int, jb: int) -> tuple:
    """The runs of one suit (rank step 1 or 2, at least 3 cards) that a hand holding the ranks ``pattern`` in
    that suit and the jokers ``jb`` can make: ((size, lo, hi, cards as suit 0, jokers), ...)."""
    hand0 = sum(1 << 4 * r for r in range(13) if pattern >> r & 1) | jb
    jokers = cards_of(jb)
    out: list[tuple] = []
    for lo in range(13):
        for length in range(3, 14):
            hi = lo + (length - 1) * step
            if hi > 12:
                break
            slots = [4 * (lo + i * step) for i in range(length)]
            mask = sum(1 << c for c in slots)
            missing = count(mask & ~hand0)
            if missing > len(jokers):
                break  # longer runs from this start miss at least as many
            sets: set = set()
            _fill(slots, mask, hand0, jokers, missing, sets)
            out.extend((length, lo, hi, m & NORMAL_MASK, m & JOKERS_MASK) for m in sets)
    return tuple(out)


def _sequence_slots():
    """The cards of every sequence across suits, from the shape modules' tables: {shape: [[(mask, slot cards)
    by length] by start]}."""
    return {m.ID: [[(sum(1 << c for c in run), run) for run in runs] for runs in m.slots()]
            for m in SHAPE_MODULES if hasattr(m, "slots")}


def _grouped(slots):
    """The sequence rows grouped by the ranks they need: [(those ranks as 13 bits, sizes, rows, each row's shortest
    run's cards)], so that a window whose ranks the hand lacks more often than it has jokers is skipped whole."""
    out = {}
    for shape, rows in slots.items():
        groups = {}
        for row in rows:
            ranks = set()
            for _, run in row[:1]:
                ranks = {c // 4 for c in run}
            groups.setdefault(tuple(sorted(ranks)), []).append(row)
        out[shape] = [(sum(1 << r for r in ranks), frozenset(len(run) for row in rows for _, run in row), rows,
                       tuple(row[0][0] for row in rows)) for ranks, rows in groups.items()]
    return out


CROSS_SUIT_GROUPS: Final = _grouped(_sequence_slots())


class Beat:
    """Which generated sets may beat the field: the field's shape and size, stronger in the order in force (groups
    and singles: the ranks above the field's, in ``candidates``)."""
    __slots__ = ("field", "reversed", "above")
    field: Reading
    reversed: bool
    above: bool

    def __init__(self, st: State):
        assert st.field is not None  # a Beat is made only on a field
        self.field = st.field.reading
        self.reversed = st.reversed
        self.above = st.rules.compare == "above"

    def run(self, shape, k, lo, hi) -> bool:
        """May a sequence of ``k`` cards of ``shape`` from rank ``lo`` to ``hi`` be listed?"""
        f = self.field
        if f.shape != shape or f.n != k or f.wild:
            return False
        if self.above:
            return hi < f.lo if self.reversed else lo > f.hi
        return hi < f.hi if self.reversed else lo > f.lo


def rule_sets(st: State, possible: int, hooks: tuple[tuple[Any, Any], ...]) -> set[int]:
    """The card sets the rules' ``candidates`` ``hooks`` list on the field, of the cards ``possible``: those a special
    play may admit without beating it (Ruleset.special_cand_hooks: only what beats the field is generated
    otherwise), or those it joins to the field's cards (joined_cand_hooks: alone they may be no play)."""
    out: set[int] = set()
    if st.field is not None:
        for hook, params in hooks:
            out |= hook(st.field.reading, possible, params)
    return out


def possible_cards(st: State, seat: int) -> int:
    """The cards ``seat`` may hold: its hand, plus every unseen card while part of its hand is unknown."""
    p = st.players[seat]
    if not p.unknown:
        return p.hand
    return p.hand | (deck(st.rules.jokers) & ~st.seen())


def candidates(hand: int, rules: Ruleset, beat: Beat | None = None) -> set[int]:
    """Card sets that may form one play; on a field (``beat``) only those of its size that may beat it.
    A held card of a sequence may also be left in hand and replaced by a joker: ``hand`` may be the cards a seat
    may hold (table mode), and whether it holds the card a joker stands for or not, the judge accepts the joker."""
    jb = hand & JOKERS_MASK
    j = jb >> 52
    out: set[int] = set()
    sizes: tuple | None = None
    if beat is None:  # leading: every set of every size
        for r in range(13):
            pattern = hand >> 4 * r & 0xF
            if pattern:
                out.update(LEADS[r][pattern][j])
        out.update(JOKER_SETS[j])
        shapes = rules.sequences
    else:
        f = beat.field
        size = f.n
        sizes = (size,)
        if f.shape == ("group" if size > 1 else "single") and not f.wild:
            start, stop = (0, f.lo) if beat.reversed else (f.lo + 1, 13)
            for r in range(start, stop):
                pattern = hand >> 4 * r & 0xF
                if pattern:
                    out.update(GROUPS[r][pattern][j].get(size, ()))
            for js in JOKER_SETS[j]:
                if count(js) == size:
                    out.add(js)
        # no sequence of another shape can follow the field (Beat.run)
        shapes = (f.shape,) if f.shape in rules.sequences else ()
    if not shapes:
        return out
    patterns = [suit_pattern(hand, s) for s in range(4)]  # the ranks held in each suit
    nj = count(jb)
    jokers = None
    for shape in shapes:
        step = SINGLE_STEP.get(shape)
        if step is not None:
            for s in range(4):
                pattern = patterns[s]
                if count(pattern) + nj < 3:
                    continue
                for k, lo, hi, normals, js in suit_runs(step, pattern, jb):
                    if (sizes is None or k in sizes) and (beat is None or beat.run(shape, k, lo, hi)):
                        out.add(normals << s | js)
            continue
        if jokers is None:
            jokers = cards_of(jb)
        nothand = ~hand
        for lengths, rows, firsts in _feasible(shape, patterns[0] | patterns[1] | patterns[2] | patterns[3], nj):
            if sizes is not None and lengths.isdisjoint(sizes):
                continue
            # most rows miss too many of their shortest run's cards: dropped in one comprehension
            for runs in [row for row, first in zip(rows, firsts) if count(first & nothand) <= nj]:
                for mask, slots in runs:
                    missing = count(mask & ~hand)
                    if missing > nj:
                        break  # longer runs from this start miss at least as many
                    k = len(slots)
                    if (sizes is None or k in sizes) and (beat is None or beat.run(shape, k, *_span(slots))):
                        _fill(slots, mask, hand, jokers, missing, out)
    return out


def _feasible(shape: str, held: int, nj: int) -> tuple:
    """``_feasible_rows``, kept."""
    key = (shape, held, nj)
    got = _FEASIBLE.get(key)
    if got is None:
        got = _FEASIBLE[key] = _feasible_rows(shape, held, nj)
    return got


def _feasible_rows(shape: str, held: int, nj: int) -> tuple:
    """The (sizes, rows, each row's shortest run's cards) of ``shape``'s sequence rows whose first run a hand
    holding the ranks ``held`` (13 bits) and ``nj`` jokers may fill, in table order."""
    return tuple((lengths, rows, firsts) for needed, lengths, rows, firsts in CROSS_SUIT_GROUPS[shape]
                 if count(needed & ~held) <= nj)


def _span(slots) -> tuple[int, int]:
    ranks = [c >> 2 for c in slots]
    return min(ranks), max(ranks)


def _fill(slots, mask, hand, jokers, missing, out):
    base = mask & hand
    if not jokers:
        out.add(base)
        return
    held = [c for c in slots if hand >> c & 1]
    # any held slot may also be left in hand and filled by a joker instead
    for k in range(missing, len(jokers) + 1):
        for kept_out in combinations(held, k - missing):
            m = base & ~sum(1 << c for c in kept_out)
            for js in combinations(jokers, k):
                out.add(m | sum(1 << j for j in js))


