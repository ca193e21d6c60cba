"""The `greedy` bot: a heuristic player that needs nothing but what the observer gives it (observer.py): its
seat view and its legal moves annotated by the engine. It has no rule code of its own: which plays cut, make a
revolution or a jack back, and which would be a forbidden finish, it reads from the annotations.

On its turn it scores every legal play and takes the cheapest: the weakest sufficient cards, more cards at
once when leading, without jokers or top cards unless it must win the trick (an opponent is about to go out,
or it can go out), cuts when they win the trick, revolutions (and jack back) only when its hand is weak,
never a forbidden finish when another way exists, and declaring in gekifugo the effects it wants. For the
follow-up decisions it gives and discards its weakest cards, takes the strongest card back from the discard
pile, asks for the strongest ranks, and cuts back only when it is close to going out.

The policy is one function of the observer's facts (``act(observer.Facts)``): the bot (``choose``) reads them
from the seat view and legal moves it is given (``observer.facts_of_view``), the mc playouts from the engine
state (``observer.facts``).
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import combinations
from math import comb, inf
from typing import Any, Final

from referee import instantiate
from referee.cards import BITS16, JOKER1, NORMAL_MASK, count

from .cards import TOP, is_joker, rank, strength
from .observer import Decision, Facts, Turn, facts_of_view, forced

WANTED: Final = {"give", "discard", "cut", "lock", "rank_lock"}  # effect kinds worth declaring (gekifugo)


def _near_out(others: list[int]) -> bool:
    """Is another seat about to go out (two cards or fewer)?"""
    return any(left <= 2 for left in others)


class Context:
    """What the decisions (gives, discards, ...) read of a ``Decision``: the seat's cards (codes) and how many of
    each rank, the order, whether another seat is about to go out, and the cards that cannot be the last one."""

    def __init__(self, d: Decision):
        self.hand = d.hand
        self.count = len(d.hand)
        self.rev = d.reversed
        ranks = [0] * 14
        for c in d.hand:
            ranks[rank(c)] += 1
        self.ranks = ranks  # cards held of each rank (13: jokers)
        self.danger = _near_out(d.others)
        self.last_forbidden = set(d.forbidden_last)


class Hand:
    """What scoring a play reads of a ``Turn``, once per turn: the seat's cards (a bitmask) and how many, the
    order, whether it leads, whether another seat is about to go out, and the cards that cannot be its last one."""

    def __init__(self, t: Turn):
        self.cards, self.rev, self.lead, self.last_forbidden = t.cards, t.reversed, t.lead, t.forbidden_last
        self.count = count(t.cards)
        self.danger = _near_out(t.others)

    def weakness(self) -> float:
        """How weak the hand is: below 0 means a reversed order would suit it (asked only of the plays that
        would change the order)."""
        normals = self.cards & NORMAL_MASK
        if not normals:
            return 0.0
        nat = total = 0
        for r in range(13):
            k = BITS16[normals >> 4 * r & 0xF]
            nat += k
            total += k * r  # the rank's strength in the normal order
        return total / nat - 6.0


def _stuck(rest: int, last_forbidden: int) -> bool:
    """Whether every remaining card could only finish forbidden (keep a way out)."""
    return bool(rest) and not rest & ~last_forbidden


def score(cards: int, kinds, forbidden_finish: bool, declares: bool, declines: bool, h: Hand) -> float:
    """A play's score, lower is better: ``cards`` a bitmask, ``kinds`` and ``forbidden_finish`` its annotation,
    ``declares``/``declines`` whether it carries declarations or a decline."""
    normals = cards & NORMAL_MASK
    jokers = BITS16[cards >> JOKER1 & 3]
    # the non-joker cards rank by rank: how many, the sum and the highest of their strengths, how many are top
    # cards, in how many ranks, and in how many the hand keeps cards back
    nat = total = tops = ranks = broken = 0
    top = TOP
    left = normals
    while left:  # each rank played, the highest first
        low = (left.bit_length() - 1) & ~3  # its lowest suit bit
        k = BITS16[left >> low]
        left &= (1 << low) - 1
        r = low // 4
        s = 12 - r if h.rev else r  # the rank's strength (cards.strength_of)
        if not nat or s > top:
            top = s
        nat += k
        total += k * s
        if s >= 11:
            tops += k
        ranks += 1
        if BITS16[h.cards >> low & 0xF] > k:
            broken += 1
    if not normals:
        total, tops = TOP, 1
    n = nat + jokers
    if n == h.count:
        return -1000.0 if not forbidden_finish else 1000.0
    lead = h.lead
    score = total / (nat or 1) - 2.5 * (n - 1) if lead else top - 0.5 * (n - 1)
    # jokers and top cards are for winning tricks that matter
    small = h.count - n <= 2 or h.danger
    score += jokers * (3 if small else 9)
    if not small:
        score += 2.5 * tops
    # do not break up groups
    if broken and ranks == 1:
        score += 2.5
    else:
        for _ in range(broken):
            score += 1.0
    if kinds:  # what the play sets off
        if "cut" in kinds:
            score -= 3.0 if not lead else 1.0
        if "revolution" in kinds:
            weakness = h.weakness()
            score += -8.0 if weakness < -0.5 else (10.0 if weakness > 0.5 else 2.0)
        if "jack_back" in kinds:
            score += -1.5 if h.weakness() < 0 else 1.5
    if declares:
        score -= 0.5 * len(WANTED.intersection(kinds))
    elif declines:
        score += 0.1  # same cards without declining: tie-break on the weakness term above
    if not h.last_forbidden:
        return score  # no card of the hand is a liability (the terms below add nothing)
    rest = h.cards & ~cards
    if _stuck(rest, h.last_forbidden):
        score += 12.0
    elif count(rest) <= 3:
        # cards that cannot be the last one are liabilities near the end: spend them while possible
        score += 2.0 * count(rest & h.last_forbidden)
    return score


def pass_score(h: Hand) -> float:
    # follow with anything weaker than about a king; save jokers and top cards unless it matters
    if h.danger:
        return 20.0
    return 10.5 if h.count > 4 else 14.0


# a lead pass when the seat holds a play: never chosen, since it only gives the lead away
LEAD_PASS: Final = inf


def _scored(t: Turn) -> list[tuple[float, int]]:
    """Every move of a turn with its score (lower is better) and its index; a lead pass is left out when there is
    a play."""
    h = Hand(t)
    leads = t.lead and any(m.action == "play" for m in t.moves)
    out = []
    for i in range(len(t.moves)):
        x = _move_score(t, i, h, leads)
        if x != LEAD_PASS:
            out.append((x, i))
    return out


def _move_score(t: Turn, i: int, h: Hand, leads: bool) -> float:
    """The score of a turn's i-th move (LEAD_PASS for a pass when it leads with a play at hand)."""
    m = t.moves[i]
    if m.action == "pass":
        return LEAD_PASS if leads else pass_score(h)
    note = t.notes[i]
    assert note is not None  # every play is annotated
    return score(m.cards, note.kinds, note.forbidden_finish, bool(m.declare), bool(m.decline), h)


def ranking(t: Turn) -> list[tuple[float, int]]:
    """(score, index) of every move of a turn, best first (ties in the order listed)."""
    return sorted(_scored(t))


def best_play(t: Turn) -> int:
    """The index of the best move of a turn: ``ranking(t)``'s first (the first listed of the lowest score)."""
    h = Hand(t)
    leads = t.lead and any(m.action == "play" for m in t.moves)
    best, least = 0, LEAD_PASS
    for i in range(len(t.moves)):
        x = _move_score(t, i, h, leads)
        if x < least:
            best, least = i, x
    return best


def rank_plays(view: Mapping, legal: list[dict], seat: int, forbidden_last=()) -> list[tuple[float, dict]]:
    """Every legal move of a turn with its greedy score, best first (pass included), from what a bot is given."""
    t = facts_of_view(view, legal, forbidden_last, seat).turn
    assert t is not None
    return [(x, legal[i]) for x, i in ranking(t)]


def card_value(c: str, rev: bool, ranks: list[int]) -> float:
    """How much a card is worth keeping: strength, plus a little for being part of a group."""
    return strength(c, rev) + (0.6 if not is_joker(c) and ranks[rank(c)] >= 2 else 0.0) + (5 if is_joker(c) else 0)


MAX_ENUMERATED = 300  # a choice among more card sets than this takes the cheapest cards one by one


def _choices(entry: dict):
    """Every card set a choose entry allows (only called when there are few)."""
    c = entry["choose"]
    limit = c.get("limit")
    for k in range(c["min"], c["max"] + 1):
        for combo in combinations(c["from"], k):
            if limit is None or len(set(combo) & set(limit["cards"])) <= limit["max"]:
                yield list(combo)


def _cheapest(entry: dict, value) -> list[str]:
    """The lowest-valued cards a choose entry allows, fewest first (a limit on unseen cards honoured)."""
    c = entry["choose"]
    limit = c.get("limit") or {"cards": [], "max": len(c["from"])}
    capped, room = set(limit["cards"]), limit["max"]
    out: list[str] = []
    for card_code in sorted(c["from"], key=lambda x: (value(x), x)):
        if len(out) == c["min"]:
            break
        if card_code in capped:
            if room == 0:
                continue
            room -= 1
        out.append(card_code)
    return out


def _cost(cards: list[str], ctx: Context, rev: bool, exchange: bool, values: dict[str, float]) -> float:
    """What giving or discarding ``cards`` costs (lower is better): each card's worth (``values`` keeps it for the
    decision), and more when the hand it leaves could not go out legally."""
    value = 0.0
    for c in cards:
        v = values.get(c)
        if v is None:
            v = values[c] = card_value(c, rev, ctx.ranks)
        value += v
    if not exchange and ctx.last_forbidden and len(ctx.hand) - len(cards) <= 4:  # else more than 4 are left
        rest = [c for c in ctx.hand if c not in cards]
        if rest and len(rest) <= 4:
            # keep a hand that can still go out legally: rid it of the cards that cannot finish
            value += 20 * sum(1 for c in rest if c in ctx.last_forbidden)
            value += 40 if all(c in ctx.last_forbidden for c in rest) else 0
    return value


def decide(d: Decision, legal: list[dict]) -> dict:
    """The decision (give, discard, take, request, cut back) among ``legal`` for the seat ``d`` describes (the
    gives of the exchange before a deal value cards in the normal order)."""
    ctx, exchange = Context(d), d.exchange
    action = legal[0]["action"] if legal[0]["action"] != "pass" else legal[-1]["action"]
    rev = False if exchange else ctx.rev
    if action in ("give", "discard"):
        values: dict[str, float] = {}  # each card's worth, once per decision (the card sets are many)
        entry = next(m for m in legal if m["action"] == action)
        if "choose" not in entry:
            return min((m for m in legal if m["action"] == action),
                       key=lambda m: (_cost(m["cards"], ctx, rev, exchange, values), m["cards"]))
        c = entry["choose"]
        fixed = list(entry.get("cards", []))
        if sum(comb(len(c["from"]), k) for k in range(c["min"], c["max"] + 1)) <= MAX_ENUMERATED:
            best: list[str] | None = None
            least = 0.0
            for cs in _choices(entry):  # the first of the least (cost, size, sorted cards): min() without its keys
                v = _cost(fixed + cs, ctx, rev, exchange, values)
                if best is None or v < least or (v == least and (len(cs), sorted(cs)) < (len(best), sorted(best))):
                    best, least = cs, v
        else:
            best = _cheapest(entry, lambda x: card_value(x, rev, ctx.ranks))
        return instantiate(entry, chosen=best)
    if action == "take":
        return max(legal, key=lambda m: (strength(m["cards"][0], rev) + (1.5 if ctx.ranks[rank(m["cards"][0])] else 0),
                                         m["cards"]))
    if action == "request":
        order = ["JK", "2", "A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3"]
        whole = [m for m in legal if m["action"] == "request" and "count" not in m]
        pool = whole or legal
        return min(pool, key=lambda m: order.index(m["rank"]) if m.get("rank") in order else 99)
    if action == "cut_back":
        backs = [m for m in legal if m["action"] == "cut_back"]
        if backs:
            n = len(backs[0]["cards"])
            finishing = ctx.count == n
            if (ctx.count - n <= 3 or ctx.danger) and not (finishing and backs[0]["forbidden_finish"]):
                return backs[0]
        return next((m for m in legal if m["action"] == "pass"), legal[0])
    return legal[0]


def act(f: Facts) -> Any:
    """The policy: the move to make, one of ``f.legal`` (a turn's as ``f.turn.choices`` holds it), or a choose
    entry instantiated with the cards chosen."""
    t, d = f.turn, f.decision
    if d is not None:
        if t is None:
            return decide(d, f.legal)
        # the next leader in a cut-back window: cut back if it would, else lead at once (closing the window)
        answers = [m for m in f.legal if m["action"] != "play"]
        if any(m["action"] == "cut_back" for m in answers):
            pick = decide(d, answers)
            if pick["action"] == "cut_back":
                return pick
    assert t is not None
    return t.choices[best_play(t)]


def choose(view: Mapping, legal: list[dict], rng: random.Random, history=None, forbidden_last=()) -> dict:
    """The bot: ``act`` on the facts of what it is given."""
    move = forced(legal)
    return act(facts_of_view(view, legal, forbidden_last)) if move is None else move
