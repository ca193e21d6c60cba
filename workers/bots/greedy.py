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
from collections import Counter
from itertools import combinations
from math import comb

from referee import instantiate

from .cards import TOP, is_joker, rank, strength

WANTED = {"give", "discard", "cut", "lock", "rank_lock"}  # effect kinds worth declaring (gekifugo)


class Context:
    """What the scoring needs from the view and the cards that cannot be the last one, once per decision."""

    def __init__(self, view: dict, seat: int, forbidden_last=()):
        self.view = view
        self.seat = seat
        me = view["players"][seat]
        self.hand = list(me["hand"] or [])
        self.count = len(self.hand)
        self.rev = view.get("order") == "reversed"
        self.field = view.get("field")
        self.ranks = Counter(rank(c) for c in self.hand)
        others = [p["hand_count"] for p in view["players"] if p["seat"] != seat and p["place"] is None]
        self.danger = bool(others) and min(others) <= 2
        self.last_forbidden = set(forbidden_last)  # cards that cannot be the last one (the engine says which)
        # how weak the hand is: below 0 means a reversed order would suit it
        nat = [strength(c, False) for c in self.hand if not is_joker(c)]
        self.weakness = (sum(nat) / len(nat) - 6.0) if nat else 0.0


def _stuck(rest: list[str], ctx: Context) -> bool:
    """Whether every remaining card could only finish forbidden (keep a way out)."""
    return bool(rest) and all(c in ctx.last_forbidden for c in rest)


def play_score(move: dict, ctx: Context) -> float:
    """Lower is better."""
    cards = move["cards"]
    n = len(cards)
    rev = ctx.rev
    kinds = move["kinds"]
    nat = [c for c in cards if not is_joker(c)]
    jokers = n - len(nat)
    if n == ctx.count:
        return -1000.0 if not move["forbidden_finish"] else 1000.0
    # the order the hand lives in after the play (a revolution flips it for good)
    strengths = [strength(c, rev) for c in nat] or [TOP]
    lead = ctx.field is None
    score = (sum(strengths) / len(strengths)) if lead else max(strengths)
    if lead:
        score -= 2.5 * (n - 1)
    else:
        score -= 0.5 * (n - 1)
    # jokers and top cards are for winning tricks that matter
    small = ctx.count - n <= 2 or ctx.danger
    score += jokers * (3 if small else 9)
    tops = sum(1 for s in strengths if s >= 11)
    if not small:
        score += 2.5 * tops
    # do not break up groups
    used: dict = {}
    for c in nat:
        r = rank(c)
        used[r] = used.get(r, 0) + 1
    for r, k in used.items():
        if ctx.ranks[r] > k and len(used) == 1:
            score += 2.5
        elif ctx.ranks[r] > k:
            score += 1.0
    if "cut" in kinds:
        score -= 3.0 if not lead else 1.0
    if "revolution" in kinds:
        score += -8.0 if ctx.weakness < -0.5 else (10.0 if ctx.weakness > 0.5 else 2.0)
    if "jack_back" in kinds:
        score += -1.5 if ctx.weakness < 0 else 1.5
    if move.get("declare"):
        score -= 0.5 * len(WANTED.intersection(kinds))
    elif "decline" in move:
        score += 0.1  # same cards without declining: tie-break on the weakness term above
    if not ctx.last_forbidden:
        return score  # no card of the hand is a liability (the terms below add nothing)
    rest = [c for c in ctx.hand if c not in cards]
    if _stuck(rest, ctx):
        score += 12.0
    elif len(rest) <= 3:
        # cards that cannot be the last one are liabilities near the end: spend them while possible
        score += 2.0 * sum(1 for c in rest if c in ctx.last_forbidden)
    return score


def rank_plays(view: dict, legal: list[dict], seat: int, forbidden_last=()) -> list[tuple[float, dict]]:
    """Every legal move of a turn with its greedy score, best first (pass included)."""
    ctx = Context(view, seat, forbidden_last)
    out = []
    leads = ctx.field is None and any(m["action"] == "play" for m in legal)
    for m in legal:
        if m["action"] == "pass":
            if not leads:  # a lead pass (lead_pass) only gives the lead away
                out.append((pass_score(ctx), m))
        else:
            out.append((play_score(m, ctx), m))
    out.sort(key=lambda x: x[0])
    return out


def pass_score(ctx: Context) -> float:
    # follow with anything weaker than about a king; save jokers and top cards unless it matters
    if ctx.danger:
        return 20.0
    return 10.5 if ctx.count > 4 else 14.0


def card_value(c: str, rev: bool, ranks: Counter) -> float:
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
    capped, room, out = set(limit["cards"]), limit["max"], []
    for card_code in sorted(c["from"], key=lambda x: (value(x), x)):
        if len(out) == c["min"]:
            break
        if card_code in capped:
            if room == 0:
                continue
            room -= 1
        out.append(card_code)
    return out


def choose_decision(view: dict, legal: list[dict], seat: int, forbidden_last=()) -> dict:
    ctx = Context(view, seat, forbidden_last)
    action = legal[0]["action"] if legal[0]["action"] != "pass" else legal[-1]["action"]
    exchange = view.get("phase") == "exchange"
    rev = False if exchange else ctx.rev
    if action in ("give", "discard"):
        def cost(cards):
            value = sum(card_value(c, rev, ctx.ranks) for c in cards)
            if not exchange and ctx.last_forbidden:
                rest = [c for c in ctx.hand if c not in cards]
                if rest and len(rest) <= 4:
                    # keep a hand that can still go out legally: rid it of the cards that cannot finish
                    value += 20 * sum(1 for c in rest if c in ctx.last_forbidden)
                    value += 40 if _stuck(rest, ctx) else 0
            return value
        entry = next(m for m in legal if m["action"] == action)
        if "choose" not in entry:
            return min((m for m in legal if m["action"] == action), key=lambda m: (cost(m["cards"]), m["cards"]))
        c = entry["choose"]
        fixed = list(entry.get("cards", []))
        if sum(comb(len(c["from"]), k) for k in range(c["min"], c["max"] + 1)) <= MAX_ENUMERATED:
            best = min(_choices(entry), key=lambda cs: (cost(fixed + cs), len(cs), sorted(cs)))
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


def choose(view: dict, legal: list[dict], rng: random.Random, history=None, forbidden_last=()) -> dict:
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
