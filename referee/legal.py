"""legal_moves: every legal move of a seat, built from candidate card sets and checked by the judge.

Joker readings are listed when they change the outcome; under declarations_required each play comes with its
shape declaration, once declaring every effect that would fire and once declaring none; an optional jack_back
comes with and without its decline.

A decision that asks a seat to choose cards (a 7-pass give, a 10-discard, an exchange give, Bloody Mary ties)
is one *choose entry* rather than every card set (RULES.md §10.13): ``{"seat", "action", "choose": {"from":
[cards], "min": a, "max": b, "limit"?: {"cards": [...], "max": k}}, "cards"?: [always included], "rule"}``.
Its moves are ``{"seat", "action", "cards": cards + a..b of from}`` (at most k of limit.cards); ``instantiate``
makes one.
"""
from __future__ import annotations

import random
from collections.abc import Collection
from itertools import combinations, permutations

from .cards import JOKERS_MASK, NORMAL_MASK, RANKS, card, cards_of, codes, deck
from .decisions import _allowed, strongest_split, window
from .engine import close_window
from .moves import Move
from .play import joins_field, judge_play
from .rules import ALIASES, DECLARABLE
from .rules.base import PlayContext, Rejection
from .shapes import SEQUENCES, beats, loose, readings

EFFECT_DECLARATIONS = sorted(DECLARABLE - set(SEQUENCES))


# SUBSETS[pattern]: every non-empty subset of a 4-bit suit pattern, with its size (a rank's cards shifted down)
SUBSETS = [[(sub, sub.bit_count()) for sub in range(1, 16) if sub & ~pattern == 0] for pattern in range(16)]


def _sequence_slots():
    """Every sequence's cards, precomputed: {shape: [[slot cards, ...] by start and length]}."""
    table = {"stairs": [], "skip_stairs": [], "double_stairs": [], "emperor": [], "skip_emperor": []}
    for shape, step in (("stairs", 1), ("skip_stairs", 2)):
        for s in range(4):
            for lo in range(13):
                runs = [[card(lo + i * step, s) for i in range(length)]
                        for length in range(3, 14) if lo + (length - 1) * step <= 12]
                if runs:
                    table[shape].append(runs)
    for a in range(4):
        for b in range(a + 1, 4):
            for lo in range(11):
                table["double_stairs"].append([[card(lo + i, x) for i in range(length) for x in (a, b)]
                                               for length in range(3, 14 - lo)])
    for shape, step in (("emperor", 1), ("skip_emperor", 2)):
        for lo in range(13 - 3 * step):
            for suits in permutations(range(4)):
                table[shape].append([[card(lo + i * step, suits[i]) for i in range(4)]])
    return {k: [[(sum(1 << c for c in run), run) for run in runs] for runs in v] for k, v in table.items()}


def _grouped(slots):
    """The sequence rows grouped by the ranks they need: [(rank masks, sizes, rows)], so that a window whose ranks
    the hand lacks more often than it has jokers is skipped whole."""
    out = {}
    for shape, rows in slots.items():
        groups = {}
        for row in rows:
            ranks = set()
            for _, run in row[:1]:
                ranks = {c // 4 for c in run}
            groups.setdefault(tuple(sorted(ranks)), []).append(row)
        out[shape] = [(tuple(0xF << 4 * r for r in ranks), frozenset(len(run) for row in rows for _, run in row), rows)
                      for ranks, rows in groups.items()]
    return out


SEQUENCE_SLOTS = _sequence_slots()
SEQUENCE_GROUPS = _grouped(SEQUENCE_SLOTS)


def _sizes(st):
    """The play sizes worth generating on the field (None: every size), and the sizes at which a special play
    may be played without beating it (at the others, only what beats the field is generated)."""
    if st.field is None:
        return None, frozenset()
    field = st.field.reading
    free = set()
    for module, params in st.rules.size_hooks:
        free.update(module.candidate_sizes(field, params))
    return {field.n} | free, frozenset(free)


class _Beat:
    """Which generated sets may beat the field: the field's shape and size, stronger in the order in force."""
    __slots__ = ("field", "reversed", "above", "free")

    def __init__(self, st, free):
        self.field = st.field.reading
        self.reversed = st.reversed
        self.above = st.rules.compare == "above"
        self.free = free

    def rank(self, shape, k, r) -> bool:
        """May a set of ``k`` cards of ``shape`` at rank ``r`` (a single or group; 13: only jokers) be listed?"""
        f = self.field
        if k in self.free:
            return True
        if f.shape != shape or f.n != k or f.wild:
            return False
        return r == 13 or (r < f.lo if self.reversed else r > f.lo)

    def ranks(self, shape, k) -> list[bool]:
        """``rank`` for every rank 0..13 at once."""
        f = self.field
        if k in self.free:
            return [True] * 14
        if f.shape != shape or f.n != k or f.wild:
            return [False] * 14
        lo = f.lo
        return [r < lo if self.reversed else r > lo for r in range(13)] + [True]

    def run(self, shape, k, lo, hi) -> bool:
        """May a sequence of ``k`` cards of ``shape`` from rank ``lo`` to ``hi`` be listed?"""
        f = self.field
        if k in self.free:
            return True
        if f.shape != shape or f.n != k or f.wild:
            return False
        if self.above:
            return hi < f.lo if self.reversed else lo > f.hi
        return hi < f.hi if self.reversed else lo > f.lo


def _joined_candidates(st, possible: int) -> set[int]:
    """Card sets that a special play joins to the field (alone they may be no play): the extra_candidates hooks."""
    out: set[int] = set()
    if st.field is not None:
        for module, params in st.rules.extra_hooks:
            out |= module.extra_candidates(st.field.reading, possible, params)
    return out


def possible_cards(st, seat) -> int:
    """The cards ``seat`` may hold: its hand, plus every unseen card while part of its hand is unknown."""
    p = st.players[seat]
    if not p.unknown:
        return p.hand
    return p.hand | (deck(st.rules.jokers) & ~st.seen())


def _candidates(hand: int, rules, sizes=None, swaps=True, beat: _Beat | None = None) -> set[int]:
    """Card sets that may form one play (the judge decides); only of ``sizes`` when given, and only those that
    ``beat`` lets through. With ``swaps``, a held card of a sequence may also be left in hand and replaced by a
    joker."""
    jokers = cards_of(hand & JOKERS_MASK)
    nj = len(jokers)
    sets = [0] + [1 << j for j in jokers] + ([hand & JOKERS_MASK] if nj == 2 else [])
    joker_sets = [(js, js.bit_count()) for js in sets]
    if sizes is None or 1 in sizes:
        single = beat.ranks("single", 1) if beat is not None else None
        out = {1 << c for c in cards_of(hand) if single is None or single[min(c >> 2, 13)]}
    else:
        out = set()
    free: Collection[int] = range(2, 15)
    beating = [False] * 14
    size = 0
    if beat is not None:  # on a field: only what beats a group of its size, or any set at a special play's size
        free, size = beat.free, beat.field.n
        beating = beat.ranks("group", size)
    for r in range(13):
        pattern = hand >> (4 * r) & 0xF
        if not pattern:
            continue
        ok = beating[r]
        for sub, n in SUBSETS[pattern]:
            sub <<= 4 * r
            for js, jc in joker_sets:
                k = n + jc
                if k >= 2 and (k in free or ok and k == size):
                    out.add(sub | js)
    if nj == 2 and (sizes is None or 2 in sizes) and (beat is None or beat.rank("group", 2, 13)):
        out.add(hand & JOKERS_MASK)
    for shape in rules.shapes:
        for rank_masks, lengths, rows in SEQUENCE_GROUPS[shape]:
            if sizes is not None and lengths.isdisjoint(sizes):
                continue
            lacking = 0
            for m in rank_masks:
                if not hand & m:
                    lacking += 1
            if lacking > nj:
                continue  # the first run of every row here needs these ranks
            for runs in rows:
                for mask, slots in runs:
                    missing = (mask & ~hand).bit_count()
                    if missing > nj:
                        break  # longer runs from this start miss at least as many
                    k = len(slots)
                    if (sizes is None or k in sizes) and (
                            beat is None or beat.run(shape, k, *_span(slots))):
                        _fill(slots, mask, hand, jokers, missing, out, swaps)
    return out


def _span(slots) -> tuple[int, int]:
    ranks = [c >> 2 for c in slots]
    return min(ranks), max(ranks)


def _fill(slots, mask, hand, jokers, missing, out, swaps):
    base = mask & hand
    if not jokers or not swaps and not missing:
        out.add(base)
        return
    held = [c for c in slots if hand >> c & 1]
    # any held slot may also be left in hand and filled by a joker instead
    for k in range(missing, (len(jokers) if swaps else missing) + 1):
        for kept_out in combinations(held, k - missing):
            m = base & ~sum(1 << c for c in kept_out)
            for js in combinations(jokers, k):
                out.add(m | sum(1 << j for j in js))


def _outcome_readings(mask, rules):
    """One reading per distinct outcome: suits of stand-ins matter only when suit locks are on."""
    suits_matter = rules.suits_matter
    seen, out = set(), []
    for r in readings(mask, rules.shapes, rules.min_stairs):
        key = (r.shape, r.lo, r.hi, r.suits if suits_matter else 0, r.eff if suits_matter else
               tuple(sorted(x for x, _ in r.eff)))
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def _cannot_beat(st, seat, reading, field) -> bool:
    """A quick no before judging: a plain play that does not match or beat the field and no special play."""
    if reading.shape == field.shape and reading.n == field.n and beats(reading, field, st.reversed, st.rules.compare):
        return False
    ctx = PlayContext(st, seat, reading, field, st.reversed, frozenset(), frozenset(), None, 0)
    return not any(m.special_play(ctx, p) is not None for m, p in st.rules.special_hooks)


def _play_moves(st, seat):
    rules = st.rules
    field = st.field.reading if st.field else None
    moves, seen = [], set()
    p = st.players[seat]
    possible = possible_cards(st, seat)
    attach = _joined_candidates(st, possible)
    sizes, free = _sizes(st)
    beat = _Beat(st, free) if field is not None else None
    for mask in _candidates(possible, rules, sizes, swaps=not p.unknown, beat=beat) | attach:
        if mask.bit_count() > p.left or (mask & ~p.hand).bit_count() > p.unknown:
            continue
        # attached cards are also listed without 'as': the combined field decides their reading (§10.6)
        for reading in _outcome_readings(mask, rules) + ([loose(mask)] if mask in attach else []):
            if field is not None and mask not in attach and _cannot_beat(st, seat, reading, field):
                continue
            as_map = reading.as_map()
            variants = []
            shape_decl = [reading.shape] if reading.shape in SEQUENCES else []
            if rules.declarations:
                variants.append((shape_decl + EFFECT_DECLARATIONS, ()))
                variants.append((shape_decl, ()))
            else:
                variants.append(((), ()))
                for module, params in rules.decline_hooks:
                    if module.declines(reading, params):
                        variants.append(((), (module.ID,)))
            for declare, decline in variants:
                move = Move(seat, "play", mask, tuple(sorted(reading.jokers)), frozenset(declare),
                            frozenset(decline))
                plan = judge_play(st, move, with_effects=rules.declarations)
                if isinstance(plan, Rejection) or (plan.ctx.reading.shape != reading.shape
                                                   and not joins_field(plan.ctx.special)):
                    continue
                move = move.to_json()
                if rules.declarations:
                    fired = sorted({e.rule for e in plan.effects} & DECLARABLE)
                    for alias, module in ALIASES.items():
                        if module.ID in fired and module.alias_applies(st):
                            fired.append(alias)
                    keep = shape_decl + [d for d in fired if d not in shape_decl]
                    if plan.ctx.special and plan.ctx.special not in keep:
                        keep.append(plan.ctx.special)
                    move["declare"] = sorted(set(keep))
                    if not move["declare"]:
                        del move["declare"]
                key = (mask, tuple(sorted(as_map.items())), tuple(move.get("declare", ())), decline)
                if key not in seen:
                    seen.add(key)
                    moves.append(move)
    return moves


def _decision_moves(st, seat):
    head = st.pending[0]
    if head.action == "cut_back":
        if seat not in {p.seat for p in window(st)}:
            return []
        jokers = cards_of(possible_cards(st, seat) & JOKERS_MASK)
        out = [{"seat": seat, "action": "pass"}]
        for js in combinations(jokers, head.count):
            out.append({"seat": seat, "action": "cut_back", "cards": codes(sum(1 << j for j in js))})
        return out
    if seat != head.seat:
        return []
    if head.action in ("give", "discard"):
        out = [{"seat": seat, "action": "pass"}] if head.upto else []
        return out + [_choose_entry(st, head)]
    if head.action == "take":
        return [{"seat": seat, "action": "take", "cards": codes(1 << c)} for c in cards_of(st.discard & NORMAL_MASK)]
    if head.action == "request":
        out = []
        for r in range(14):
            if r in head.banned:
                continue
            name = "JK" if r == 13 else RANKS[r]
            out.append({"seat": seat, "action": "request", "rank": name})
            out.extend({"seat": seat, "action": "request", "rank": name, "count": k} for k in range(1, head.count))
        return out
    return []


def _choose_entry(st, head) -> dict:
    """The give/discard decision at the head of the queue as one choose entry."""
    seat = head.seat
    hand, unknown = st.hand(seat), st.players[seat].unknown
    pool = _allowed(head, possible_cards(st, seat))
    fixed, lo, hi = 0, (1 if head.upto else head.count), head.count
    if head.strongest and not unknown:
        fixed, pool, lo = strongest_split(_allowed(head, hand), head.count, head.reversed)
        hi = lo
    choose = {"from": codes(pool), "min": lo, "max": hi}
    unseen = pool & ~hand
    if unseen and min(hi, unseen.bit_count()) > unknown:
        choose["limit"] = {"cards": codes(unseen), "max": unknown}  # table mode: no more than it may hold
    entry = {"seat": seat, "action": head.action, "choose": choose, "rule": head.rule}
    if fixed:
        entry["cards"] = codes(fixed)
    return entry


def instantiate(entry: dict, rng: random.Random | None = None, chosen=None) -> dict:
    """A concrete move from a legal-moves entry: a choose entry's fixed cards plus ``chosen`` (card codes), or
    when ``chosen`` is None a random valid choice (``rng``); any other entry is returned as it is."""
    if "choose" not in entry:
        return entry
    c = entry["choose"]
    if chosen is None:
        rng = rng or random.Random(0)
        limit = c.get("limit") or {"cards": [], "max": 0}
        capped, room = set(limit["cards"]), limit["max"]
        want = rng.randint(c["min"], c["max"])
        chosen = []
        for card_code in rng.sample(c["from"], len(c["from"])):
            if len(chosen) == want:
                break
            if card_code in capped:
                if room == 0:
                    continue
                room -= 1
            chosen.append(card_code)
    return {"seat": entry["seat"], "action": entry["action"], "cards": list(entry.get("cards", [])) + list(chosen)}


def covers(entry: dict, move: dict) -> bool:
    """Is the concrete ``move`` one of the moves ``entry`` stands for (same action and cards)?"""
    if entry["action"] != move.get("action") or entry["seat"] != move.get("seat"):
        return False
    cards = set(move.get("cards", ()))
    if "choose" not in entry:
        return cards == set(entry.get("cards", ())) and entry.get("rank") == move.get("rank")
    c = entry["choose"]
    fixed = set(entry.get("cards", ()))
    rest = cards - fixed
    limit = c.get("limit")
    return (fixed <= cards and rest <= set(c["from"]) and c["min"] <= len(rest) <= c["max"]
            and (limit is None or len(rest & set(limit["cards"])) <= limit["max"]))


def legal_moves(st, seat: int) -> list[dict]:
    if st.pending:
        moves = _decision_moves(st, seat)
        if st.pending[0].action == "cut_back" and seat == st.turn:
            # the next leader may lead at once, closing the cut-back window
            lead = legal_moves(close_window(st, []), seat)
            moves += [m for m in lead if not (moves and m["action"] == "pass")]
        return moves
    if st.phase != "play" or st.turn != seat:
        return []
    moves = _play_moves(st, seat)
    if st.field is not None or st.rules.lead_may_pass:
        moves.insert(0, {"seat": seat, "action": "pass"})
    return moves
