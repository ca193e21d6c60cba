"""The `greedy` bot: a heuristic player that needs nothing but what the observer gives it (observer.py): its
seat view and its legal moves annotated by the engine. It has no rule code of its own: which plays cut, make a
revolution or a jack back, and which would be a forbidden finish, it reads from the annotations.

On its turn it scores every legal play and takes the cheapest: the weakest sufficient cards, more cards at
once when leading, without jokers or top cards unless it must win the trick (an opponent is about to go out,
or it can go out), cuts when they win the trick, revolutions (and jack back) only when its hand is weak,
never a forbidden finish when another way exists, and declaring in gekifugo the effects it wants. For the
follow-up decisions it gives and discards its weakest cards, takes the strongest card back from the discard
pile, asks for the strongest ranks, and cuts back only when it is close to going out.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import combinations
from math import comb
from typing import Final

from referee import instantiate
from referee.cards import JOKER1, NORMAL_MASK, count, parse_many

from .cards import TOP, is_joker, rank, strength
from .observer import Decision, Turn

try:
    from mypy_extensions import i64  # a native 64-bit int, compiled (mypyc); a plain int otherwise
except ImportError:  # installed without mypy (pure Python)
    i64 = int  # type: ignore[misc, assignment]

WANTED: Final = {"give", "discard", "cut", "lock", "rank_lock"}  # effect kinds worth declaring (gekifugo)


class Context:
    """What the decisions (gives, discards, ...) need: the seat's cards (codes), the order, whether another seat
    is about to go out, and the cards that cannot be the last one (the engine says which). Built from a seat view
    (``of_view``) or, in the mc playouts, from the same facts of the engine state (``of_decision``)."""

    def __init__(self, hand: list[str], rev: bool, others: list[int], forbidden_last=()):
        self.hand = hand
        self.count = len(hand)
        self.rev = rev
        ranks = [0] * 14
        for c in hand:
            ranks[rank(c)] += 1
        self.ranks = ranks  # cards held of each rank (13: jokers)
        self.danger = _near_out(others)
        self.last_forbidden = set(forbidden_last)

    @classmethod
    def of_view(cls, view: Mapping, seat: int, forbidden_last=()) -> "Context":
        others = [p["hand_count"] for p in view["players"] if p["seat"] != seat and p["place"] is None]
        return cls(list(view["players"][seat]["hand"] or []), view.get("order") == "reversed", others, forbidden_last)


def _near_out(others: list[int]) -> bool:
    """Is another seat about to go out (two cards or fewer)? (``min`` is a look-up in builtins, compiled)"""
    for left in others:
        if left <= 2:
            return True
    return False


def of_decision(d: Decision) -> Context:
    """A Context from an ``observer.Decision`` (the mc playouts)."""
    return Context(d.hand, d.reversed, d.others, d.forbidden_last)


class Hand:
    """What scoring a play needs, once per turn: the seat's cards (a bitmask), the order, whether it leads, how
    close the others are to going out, and the cards that cannot be its last one (a bitmask). Built from a seat
    view (``of_view``) or, in the mc playouts, from the same facts of the engine state (``of_turn``)."""
    __slots__ = ("cards", "count", "rev", "lead", "danger", "last_forbidden")

    def __init__(self, cards: int, rev: bool, lead: bool, others: list[int], last_forbidden: int):
        self.cards, self.rev, self.lead, self.last_forbidden = cards, rev, lead, last_forbidden
        self.count = count(cards)
        self.danger = _near_out(others)

    def weakness(self) -> float:
        """How weak the hand is: below 0 means a reversed order would suit it (asked only of the plays that
        would change the order)."""
        normals = self.cards & NORMAL_MASK
        if not normals:
            return 0.0
        nat = total = 0
        for r in range(13):
            k = _BITS[normals >> 4 * r & 0xF]
            nat += k
            total += k * r  # the rank's strength in the normal order
        return total / nat - 6.0

    @classmethod
    def of_view(cls, view: Mapping, seat: int, forbidden_last=()) -> "Hand":
        others = [p["hand_count"] for p in view["players"] if p["seat"] != seat and p["place"] is None]
        return cls(parse_many(view["players"][seat]["hand"] or []), view.get("order") == "reversed",
                   view.get("field") is None, others, parse_many(forbidden_last))


def of_turn(t: Turn) -> Hand:
    """A Hand from an ``observer.Turn`` (the mc playouts)."""
    return Hand(t.cards, t.reversed, t.lead, t.others, t.forbidden_last)


_BITS: Final = tuple(bin(i).count("1") for i in range(16))  # the cards in a rank's 4 suit bits


def _stuck(rest: int, last_forbidden: int) -> bool:
    """Whether every remaining card could only finish forbidden (keep a way out)."""
    return bool(rest) and not rest & ~last_forbidden


def score(cards: int, kinds, forbidden_finish: bool, declares: bool, declines: bool, h: Hand) -> float:
    """A play's score, lower is better: ``cards`` a bitmask, ``kinds`` and ``forbidden_finish`` its annotation,
    ``declares``/``declines`` whether it carries declarations or a decline."""
    normals = cards & NORMAL_MASK
    jokers = _BITS[cards >> JOKER1 & 3]
    hand = h.cards
    # the non-joker cards rank by rank (cheaper than any memo look-up; native 64-bit ints, compiled): how many,
    # the sum and the highest of their strengths, how many are top cards, in how many ranks, and in how many the
    # hand keeps cards back
    nat: i64 = 0
    total: i64 = 0
    tops: i64 = 0
    ranks: i64 = 0
    broken: i64 = 0
    top: i64 = TOP
    if normals:
        rev = h.rev
        x: i64 = normals
        held: i64 = hand
        r: i64 = 0
        while x:
            bits = x & 0xF
            if bits:
                k = (bits & 1) + (bits >> 1 & 1) + (bits >> 2 & 1) + (bits >> 3)
                s = 12 - r if rev else r  # the rank's strength (strength_of)
                top = s if not nat or s > top else top
                nat += k
                total += k * s
                if s >= 11:
                    tops += k
                ranks += 1
                kept = held >> 4 * r & 0xF
                if (kept & 1) + (kept >> 1 & 1) + (kept >> 2 & 1) + (kept >> 3) > k:
                    broken += 1
            x >>= 4
            r += 1
    else:
        total, tops = TOP, 1
    n = nat + jokers
    if n == h.count:
        return -1000.0 if not forbidden_finish else 1000.0
    lead = h.lead
    score: float
    if lead:
        score = float(total) / float(nat or 1)  # exact ints: as total / nat
        score -= 2.5 * float(n - 1)
    else:
        score = float(top)
        score -= 0.5 * float(n - 1)
    # jokers and top cards are for winning tricks that matter
    small = h.count - n <= 2 or h.danger
    score += jokers * (3 if small else 9)
    if not small:
        score += 2.5 * float(tops)
    # do not break up groups
    if broken and ranks == 1:
        score += 2.5
    else:
        for _ in range(broken):
            score += 1.0
    if kinds:
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
    rest = hand & ~cards
    if _stuck(rest, h.last_forbidden):
        score += 12.0
    elif count(rest) <= 3:
        # cards that cannot be the last one are liabilities near the end: spend them while possible
        score += 2.0 * count(rest & h.last_forbidden)
    return score


def play_score(move: dict, h: Hand) -> float:
    """A legal-moves entry's score (lower is better)."""
    return score(parse_many(move["cards"]), move["kinds"], move["forbidden_finish"], bool(move.get("declare")),
                 "decline" in move, h)


def pass_score(h: Hand) -> float:
    # follow with anything weaker than about a king; save jokers and top cards unless it matters
    if h.danger:
        return 20.0
    return 10.5 if h.count > 4 else 14.0


def rank_plays(view: Mapping, legal: list[dict], seat: int, forbidden_last=()) -> list[tuple[float, dict]]:
    """Every legal move of a turn with its greedy score, best first (pass included)."""
    h = Hand.of_view(view, seat, forbidden_last)
    out = []
    leads = h.lead and any(m["action"] == "play" for m in legal)
    for m in legal:
        if m["action"] == "pass":
            if not leads:  # a lead pass (lead_pass) only gives the lead away
                out.append((pass_score(h), m))
        else:
            out.append((play_score(m, h), m))
    out.sort(key=lambda x: x[0])
    return out


def best_play(t: Turn) -> int:
    """``rank_plays``'s first choice on an ``observer.Turn`` (engine moves and their annotations): its index."""
    h, moves, notes = of_turn(t), t.moves, t.notes
    leads = h.lead and any(m.action == "play" for m in moves)
    best, best_score = -1, 0.0
    for i, m in enumerate(moves):
        if m.action == "pass":
            if leads:
                continue
            x = pass_score(h)
        else:
            note = notes[i]
            assert note is not None  # every play is annotated
            x = score(m.cards, note.kinds, note.forbidden_finish, bool(m.declare), bool(m.decline), h)
        if best < 0 or x < best_score:
            best, best_score = i, x
    return best


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


def choose_decision(view: Mapping, legal: list[dict], seat: int, forbidden_last=()) -> dict:
    return decide(Context.of_view(view, seat, forbidden_last), legal, view.get("phase") == "exchange")


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


def decide(ctx: Context, legal: list[dict], exchange: bool) -> dict:
    """The decision (give, discard, take, request, cut back) among ``legal`` for the seat ``ctx`` describes;
    ``exchange``: the gives of the exchange before a deal (cards valued in the normal order)."""
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


def choose(view: Mapping, legal: list[dict], rng: random.Random, history=None, forbidden_last=()) -> dict:
    seat = legal[0]["seat"]
    if view.get("pending"):
        plays = [m for m in legal if m["action"] == "play"]
        if not plays:
            return choose_decision(view, legal, seat, forbidden_last)
        # the next leader during a cut-back window: cut back if it would, else lead at once (closing the window)
        answers = [m for m in legal if m["action"] != "play"]
        if any(m["action"] == "cut_back" for m in answers):
            pick = choose_decision(view, answers, seat, forbidden_last)
            if pick["action"] == "cut_back":
                return pick
        return rank_plays({**view, "field": None, "pending": []}, plays, seat, forbidden_last)[0][1]
    if len(legal) == 1:
        return legal[0]
    return rank_plays(view, legal, seat, forbidden_last)[0][1]
