"""Belief over the hidden hands: how likely a sampled deal is, given the other seats' passes the seat has seen.

A seat that passed on a single 10 most likely held no single above it that it would have played. ``evidence``
reads, from the seat's redacted history of the current deal, every pass another seat made on a single or a group
(``Pass``): the field's size and strength then, the order then, the cards shown by then, and, for a sampled deal,
the hand that seat held then is its sampled hand now plus the cards it has played since. ``likelihood`` is the
product over those passes of the policy's probability of passing with that hand (workers/bots/policy.py), on a turn
whose plays are the ways that hand could beat the field (one per rank above it, jokers standing in, and a lone joker
on a single), each annotated as firing nothing; never less than ``FLOOR`` per pass, which bounds what a pass judged
on wrong facts can cost a deal.

The facts are rebuilt from the events without the engine, so they are approximate where rules change them: the
order is followed through the plays whose verdicts name a revolution (``ORDER_RULES``) or a jack back
(``TRICK_ORDER_RULES``, until the trick ends); the passes of a trick in which a lock fired are left out (what the
lock allowed is not followed); and if the order followed to the end differs from the view's, no pass is used at
all. Without history (or with no such pass) every deal is as likely as any other: the sampling is uniform.

The mc search (workers/bots/policy_mc.py) draws a few deals per world uniformly (mc.sample_hands) and keeps one
with a probability proportional to its likelihood (sampling importance resampling).
"""
from __future__ import annotations

from typing import Final

from referee.annotate import NOTHING, Note
from referee.cards import BITS16, JOKER1, JOKERS_MASK, count, parse_many
from referee.moves import Move

from .features import Situation
from .observer import Turn
from .policy import Policy

FLOOR: Final = 0.05
# the rules whose plays turn the order for the rest of the deal, and those that turn it until the trick ends
ORDER_RULES: Final = frozenset(("revolution", "great_revolution", "nuclear_bomb", "attach_revolution"))
TRICK_ORDER_RULES: Final = frozenset(("jack_back",))
LOCK_RULES: Final = frozenset(("suit_lock", "partial_suit_lock", "rank_lock", "color_lock"))
SHAPES: Final = frozenset(("single", "group"))


class Pass:
    """Another seat's pass on a single or a group, as the seat saw it."""
    __slots__ = ("seat", "size", "strength", "reversed", "shown", "plays", "later")
    seat: int
    size: int          # the field's cards
    strength: int      # the strength of its rank in the order then (0 … 12)
    reversed: bool     # the order then
    shown: int         # every card played in the deal before the pass
    plays: int         # how many plays of the deal came before it
    later: dict[int, int]  # by seat: the cards it has played since (what the hand it held then held more)

    def __init__(self, seat: int, size: int, strength: int, reversed: bool, shown: int, plays: int) -> None:
        self.seat, self.size, self.strength, self.reversed = seat, size, strength, reversed
        self.shown, self.plays = shown, plays
        self.later = {}


class Evidence:
    """The passes of the current deal, and how many plays it has seen."""
    __slots__ = ("passes", "plays")
    passes: list[Pass]
    plays: int

    def __init__(self, passes: list[Pass], plays: int) -> None:
        self.passes, self.plays = passes, plays


def _strength(rank: int, reversed_order: bool) -> int:
    return 12 - rank if reversed_order else rank


def _current_deal(history) -> list[dict]:
    events = list(history or ())
    start = 0
    for i, ev in enumerate(events):
        if ev.get("type") in ("game_created", "deal_started"):
            start = i + 1
    return events[start:]


def evidence(history, seat: int, view: dict) -> Evidence:
    """The other seats' passes on singles and groups in this deal, from ``seat``'s redacted ``history``; none when
    the order followed through the history disagrees with ``view``'s."""
    passes: list[Pass] = []
    plays: list[tuple[int, int]] = []
    revolution = trick_turned = locked = False
    field: tuple[int, int, str] | None = None  # (rank of its non-joker cards or -1, size, shape)
    shown = 0
    for ev in _current_deal(history):
        effects = set((ev.get("verdict") or {}).get("effects") or ())
        for item in ev.get("outcome") or ():
            kind = item.get("kind")
            if kind == "play" or kind == "cut_back":
                cards = parse_many(item.get("cards") or [])
                plays.append((item["seat"], cards))
                shown |= cards
                normal = cards & ~JOKERS_MASK
                rank = (normal.bit_length() - 1) >> 2 if normal else -1
                field = (rank, count(cards), item.get("shape") or "") if kind == "play" else None
                if effects & ORDER_RULES:
                    revolution = not revolution
                if effects & TRICK_ORDER_RULES:
                    trick_turned = not trick_turned
                if effects & LOCK_RULES:
                    locked = True
            elif kind == "pass":
                who = item.get("seat")
                if field is not None and who is not None and who != seat and not locked and field[0] >= 0 \
                        and field[2] in SHAPES:
                    rev = revolution != trick_turned
                    passes.append(Pass(who, field[1], _strength(field[0], rev), rev, shown, len(plays)))
            elif kind == "flush":
                field = None
                trick_turned = locked = False
    if (revolution != trick_turned) != (view.get("order") == "reversed"):
        return Evidence([], len(plays))
    for p in passes:
        for i in range(p.plays, len(plays)):
            who, cards = plays[i]
            p.later[who] = p.later.get(who, 0) | cards
    return Evidence(passes, len(plays))


def likelihood(ev: Evidence, hands: dict[int, int], counts: dict[int, int], deck: int, policy: Policy) -> float:
    """How likely the other seats' passes were with these hands (bitmasks by seat, sampled now), relative to a
    deal in which every pass was forced; ``counts``: every seat's hand count now."""
    weight = 1.0
    for p in ev.passes:
        hand = hands.get(p.seat)
        if hand is None:
            continue
        then = hand | p.later.get(p.seat, 0)
        others: list[int] = []
        for s in counts:
            if s != p.seat:
                left = counts[s] + count(p.later.get(s, 0))
                if left > 0:
                    others.append(left)
        chance = pass_chance(p, then, others, deck & ~then & ~p.shown, policy)
        weight *= chance if chance > FLOOR else FLOOR
    return weight


def pass_chance(p: Pass, hand: int, others: list[int], unseen: int, policy: Policy) -> float:
    """The policy's probability of the pass ``p`` with ``hand``, among the plays that hand had on that field."""
    moves: list[Move] = [Move(p.seat, "pass")]
    jokers = BITS16[hand >> JOKER1 & 3]
    joker_cards = hand & JOKERS_MASK
    for r in range(13):
        if _strength(r, p.reversed) <= p.strength:
            continue
        suits = hand >> 4 * r & 0xF
        k = BITS16[suits]
        if k == 0 or k + jokers < p.size:
            continue
        cards = 0
        taken = 0
        for suit in range(4):
            if suits >> suit & 1 and taken < p.size:
                cards |= 1 << (4 * r + suit)
                taken += 1
        spare = joker_cards
        while taken < p.size:
            low = spare & -spare
            cards |= low
            spare &= ~low
            taken += 1
        moves.append(Move(p.seat, "play", cards))
    if p.size == 1 and jokers:
        moves.append(Move(p.seat, "play", joker_cards & -joker_cards))
    if len(moves) == 1:
        return 1.0
    notes: list[Note | None] = [None]
    for _ in range(len(moves) - 1):
        notes.append(NOTHING[0])
    t = Turn(hand, p.reversed, False, others, 0, moves, notes, moves)
    return policy.distribution(t, Situation(unseen, False))[0]
