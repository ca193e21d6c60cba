"""The `greedy` bot: a rule-based player that needs nothing but its seat's view.

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

REVOLUTIONS = {"revolution", "counter_revolution", "great_revolution", "nuclear_bomb", "attach_revolution"}


class Context:
    """What the scoring needs from the view, computed once per decision."""

    def __init__(self, view: dict, seat: int):
        self.view = view
        self.seat = seat
        self.rules = view.get("rules") or {}
        me = view["players"][seat]
        self.hand = list(me["hand"] or [])
        self.count = len(self.hand)
        self.rev = view.get("order") == "reversed"
        self.field = view.get("field")
        self.ranks = Counter(rank(c) for c in self.hand)
        others = [p["hand_count"] for p in view["players"] if p["seat"] != seat and p["place"] is None]
        self.danger = bool(others) and min(others) <= 2
        self.declarations = bool(self.rules.get("declarations_required"))
        self.forbidden = self.rules.get("forbidden_finish") or {}
        # how weak the hand is: below 0 means a reversed order would suit it
        nat = [strength(c, False) for c in self.hand if not is_joker(c)]
        self.weakness = (sum(nat) / len(nat) - 6.0) if nat else 0.0

    def on(self, rule: str) -> bool:
        return bool(self.rules.get(rule))


def effective(move: dict) -> list[str]:
    """The cards a play counts as (joker stand-ins replaced by what they stand for)."""
    as_map = move.get("as") or {}
    out = []
    for c in move.get("cards", []):
        s = as_map.get(c)
        if s and len(s) == 2:
            out.append(s)
        elif s:  # a rank only (a joker in a 5+ group)
            out.append("S" + s)
        else:
            out.append(c)
    return out


def cuts(move: dict, ctx: Context) -> bool:
    if ctx.declarations:
        return bool({"eight_cut", "six_cut", "sandstorm"} & set(move.get("declare", ())))
    eff = [c for c in effective(move) if not is_joker(c)]
    if ctx.on("eight_cut") and any(c[1] == "8" for c in eff):
        if not (ctx.rules["eight_cut"] or {}).get("normal_only") or not ctx.rev:
            return True
    if ctx.on("six_cut") and ctx.rev and any(c[1] == "6" for c in eff):
        return True
    cards = move.get("cards", [])
    if ctx.on("sandstorm") and ctx.field and len(cards) == 3 and all(c[1:] == "3" for c in cards):
        return True
    return False


def revolts(move: dict, ctx: Context) -> bool:
    """Whether the play makes a revolution (an estimate where effects are automatic)."""
    if ctx.declarations:
        return bool(REVOLUTIONS & set(move.get("declare", ())))
    rv = ctx.rules.get("revolution")
    if not rv:
        return False
    cards = move.get("cards", [])
    n = len(cards)
    need = rv.get("min_group", 4)
    nat = {rank(c) for c in effective(move) if not is_joker(c)}
    if len(nat) > 1:  # a sequence
        need = rv.get("min_stairs", need)
    return n >= max(need, ctx.view.get("revolution_min") or 0)


def forbidden_finish(move: dict, ctx: Context) -> bool:
    ff = ctx.forbidden
    if not ff:
        return False
    cards = move.get("cards", [])
    if ff.get("joker") and any(is_joker(c) for c in cards):
        return True
    eff = effective(move)
    top_rank = "3" if ctx.rev else "2"
    if ff.get("strongest_rank") and any(c[1] == top_rank for c in eff if not is_joker(c)):
        return True
    if ff.get("eight") and any(c[1] == "8" for c in eff if not is_joker(c)):
        return True
    if ff.get("cut") and cuts(move, ctx):
        sandstorm = len(cards) == 3 and all(c[1:] == "3" for c in cards)
        return not (ff.get("sandstorm_exempt") and sandstorm)
    return False


def finish_forbidden_card(c: str, ctx: Context) -> bool:
    """Whether going out with this card would be forbidden (so it must not be the last one)."""
    ff = ctx.forbidden
    if not ff:
        return False
    if is_joker(c):
        return bool(ff.get("joker"))
    top_rank = "3" if ctx.rev else "2"
    return bool((ff.get("strongest_rank") and c[1] == top_rank) or (ff.get("eight") and c[1] == "8")
                or (ff.get("cut") and ((c[1] == "8" and not ctx.rev) or (c[1] == "6" and ctx.rev))))


def _stuck_cards(rest: list[str], ctx: Context) -> bool:
    """Whether every remaining card could only finish forbidden (keep a way out)."""
    if not ctx.forbidden or not rest:
        return False
    return all(finish_forbidden_card(c, ctx) for c in rest)


def play_score(move: dict, ctx: Context) -> float:
    """Lower is better."""
    cards = move["cards"]
    n = len(cards)
    rev = ctx.rev
    jokers = sum(1 for c in cards if is_joker(c))
    nat = [c for c in cards if not is_joker(c)]
    if n == ctx.count:
        return -1000.0 if not forbidden_finish(move, ctx) else 1000.0
    rest = [c for c in ctx.hand if c not in cards]
    revolution = revolts(move, ctx)
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
    used = Counter(rank(c) for c in nat)
    for r, k in used.items():
        if ctx.ranks[r] > k and len(used) == 1:
            score += 2.5
        elif ctx.ranks[r] > k:
            score += 1.0
    if cuts(move, ctx):
        score -= 3.0 if not lead else 1.0
    if revolution:
        score += -8.0 if ctx.weakness < -0.5 else (10.0 if ctx.weakness > 0.5 else 2.0)
    declared = set(move.get("declare", ()))
    if "jack_back" in declared or (not ctx.declarations and ctx.on("jack_back")
                                   and any(c[1] == "J" for c in effective(move) if not is_joker(c))
                                   and "jack_back" not in move.get("decline", ())):
        score += -1.5 if ctx.weakness < 0 else 1.5
    if ctx.declarations:
        score -= 0.5 * len(declared & {"seven_pass", "ten_discard", "eight_cut", "spade3", "suit_lock",
                                       "partial_suit_lock", "rank_lock", "sandstorm"})
    elif "decline" in move:
        score += 0.1  # same cards without declining: tie-break on the weakness term above
    if _stuck_cards(rest, ctx):
        score += 12.0
    elif ctx.forbidden and len(rest) <= 3:
        # cards that cannot be the last one are liabilities near the end: spend them while possible
        score += 2.0 * sum(1 for c in rest if finish_forbidden_card(c, ctx))
    return score


def rank_plays(view: dict, legal: list[dict], seat: int) -> list[tuple[float, dict]]:
    """Every legal move of a turn with its greedy score, best first (pass included)."""
    ctx = Context(view, seat)
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


def choose_decision(view: dict, legal: list[dict], seat: int) -> dict:
    ctx = Context(view, seat)
    action = legal[0]["action"] if legal[0]["action"] != "pass" else legal[-1]["action"]
    exchange = view.get("phase") == "exchange"
    rev = False if exchange else ctx.rev
    if action in ("give", "discard"):
        def cost(cards):
            value = sum(card_value(c, rev, ctx.ranks) for c in cards)
            if not exchange and ctx.forbidden:
                rest = [c for c in ctx.hand if c not in cards]
                if rest and len(rest) <= 4:
                    # keep a hand that can still go out legally: rid it of the cards that cannot finish
                    value += 20 * sum(1 for c in rest if finish_forbidden_card(c, ctx))
                    value += 40 if all(finish_forbidden_card(c, ctx) for c in rest) else 0
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
            if (ctx.count - n <= 3 or ctx.danger) and not (finishing and ctx.forbidden.get("joker")):
                return backs[0]
        return next((m for m in legal if m["action"] == "pass"), legal[0])
    return legal[0]


def choose(view: dict, legal: list[dict], rng: random.Random, history=None) -> dict:
    seat = legal[0]["seat"]
    if view.get("pending"):
        plays = [m for m in legal if m["action"] == "play"]
        if not plays:
            return choose_decision(view, legal, seat)
        # the next leader during a cut-back window: cut back if it would, else lead at once (closing the window)
        answers = [m for m in legal if m["action"] != "play"]
        if any(m["action"] == "cut_back" for m in answers):
            pick = choose_decision(view, answers, seat)
            if pick["action"] == "cut_back":
                return pick
        return rank_plays({**view, "field": None, "pending": []}, plays, seat)[0][1]
    if len(legal) == 1:
        return legal[0]
    return rank_plays(view, legal, seat)[0][1]
