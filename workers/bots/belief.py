"""Belief over the hidden hands: how likely a sampled deal is, given how the other seats answered the singles and
groups the seat has seen them answer.

A seat that passed on a single 10 most likely held no single above it that it would have played; a seat that
answered a single 3 with a king most likely held no loose single between them. ``evidence`` reads, from the seat's
redacted history of the current deal, every answer another seat gave to a single or a group on the field, a pass or
a play (``Response``): the cards it played (none for a pass), the field's size and strength then, the order then,
the cards shown by then, and, for a sampled deal, the hand that seat held then is its sampled hand now plus the
cards it has played since (that play's included). ``likelihood`` is the product over those answers of the policy's
probability of that answer with that hand (workers/bots/policy.py), on a turn whose moves are the pass and the ways
that hand could beat the field (one per rank above it, jokers standing in, and a lone joker on a single; for the
rank it played, the cards it played), each play annotated as firing nothing; never less than ``FLOOR`` per answer,
which bounds what an answer judged on wrong facts can cost a deal. Leads are not weighed: a seat may lead almost
anything.

The facts are rebuilt from the events without the engine, so they are approximate where rules change them: the
order is followed through the plays whose verdicts name a revolution (``ORDER_RULES``) or a jack back
(``TRICK_ORDER_RULES``, until the trick ends); the answers of a trick in which a lock fired are left out (what the
lock allowed is not followed); and if the order followed to the end differs from the view's, no answer is used at
all. Without history (or with no such answer) every deal is as likely as any other: the sampling is uniform.

The mc search (workers/bots/policy_mc.py) draws a few deals per world uniformly (mc.sample_hands) and keeps one
with a probability proportional to its likelihood (sampling importance resampling).
"""
from __future__ import annotations

from typing import Final

from referee.annotate import NOTHING, Note
from referee.cards import BITS16, JOKER1, JOKERS_MASK, NORMAL_MASK, RANKS, count, parse_many
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


class Response:
    """Another seat's answer to a single or a group on the field, a pass or a play, as the seat saw it."""
    __slots__ = ("seat", "played", "size", "strength", "reversed", "shown", "plays", "later")
    seat: int
    played: int        # the cards it played (0: it passed)
    size: int          # the field's cards
    strength: int      # the strength of its rank in the order then (0 … 12)
    reversed: bool     # the order then
    shown: int         # every card played in the deal before the answer
    plays: int         # how many plays of the deal came before it
    later: dict[int, int]  # by seat: the cards it has played since, this play's included (what it held more then)

    def __init__(self, seat: int, played: int, size: int, strength: int, reversed: bool, shown: int,
                 plays: int) -> None:
        self.seat, self.played, self.size, self.strength, self.reversed = seat, played, size, strength, reversed
        self.shown, self.plays = shown, plays
        self.later = {}


class Evidence:
    """The answers of the current deal, and how many plays it has seen."""
    __slots__ = ("answers", "plays")
    answers: list[Response]
    plays: int

    def __init__(self, answers: list[Response], plays: int) -> None:
        self.answers, self.plays = answers, plays


def _strength(rank: int, reversed_order: bool) -> int:
    return 12 - rank if reversed_order else rank


def _current_deal(history, opening: bool = False) -> list[dict]:
    """The current deal's events after the one that started it (``opening``: from that one, whose outcome holds the
    exchange's first gives)."""
    events = list(history or ())
    start = 0
    for i, ev in enumerate(events):
        if ev.get("type") in ("game_created", "deal_started"):
            start = i if opening else i + 1
    return events[start:]


def evidence(history, seat: int, view: dict) -> Evidence:
    """The other seats' passes and plays on singles and groups in this deal, from ``seat``'s redacted ``history``;
    none when the order followed through the history disagrees with ``view``'s."""
    answers: list[Response] = []
    plays: list[tuple[int, int]] = []
    revolution = trick_turned = locked = False
    field: tuple[int, int, str] | None = None  # (rank of its non-joker cards or -1, size, shape)
    shown = 0
    for ev in _current_deal(history):
        effects = set((ev.get("verdict") or {}).get("effects") or ())
        for item in ev.get("outcome") or ():
            kind = item.get("kind")
            who = item.get("seat")
            cards = parse_many(item.get("cards") or []) if kind == "play" or kind == "cut_back" else 0
            answered = _answered(field, who, seat, locked) if kind == "play" or kind == "pass" else None
            if answered is not None and (kind == "pass" or item.get("shape") == answered[2]):
                rev = revolution != trick_turned
                answers.append(Response(who, cards, answered[1], _strength(answered[0], rev), rev, shown, len(plays)))
            if kind == "play" or kind == "cut_back":
                plays.append((who, cards))
                shown |= cards
                field = (_rank_of(cards), count(cards), item.get("shape") or "") if kind == "play" else None
                if effects & ORDER_RULES:
                    revolution = not revolution
                if effects & TRICK_ORDER_RULES:
                    trick_turned = not trick_turned
                if effects & LOCK_RULES:
                    locked = True
            elif kind == "flush":
                field = None
                trick_turned = locked = False
    if (revolution != trick_turned) != (view.get("order") == "reversed"):
        return Evidence([], len(plays))
    for a in answers:
        for i in range(a.plays, len(plays)):
            who, cards = plays[i]
            a.later[who] = a.later.get(who, 0) | cards
    return Evidence(answers, len(plays))


def _rank_of(cards: int) -> int:
    """The rank of the strongest non-joker card of ``cards`` (-1: jokers only, or none)."""
    normal = cards & ~JOKERS_MASK
    return (normal.bit_length() - 1) >> 2 if normal else -1


def _answered(field: tuple[int, int, str] | None, who, seat: int, locked: bool) -> tuple[int, int, str] | None:
    """``field`` when an answer to it by ``who`` is one the belief weighs: another seat's, to a single or group of a
    natural rank, no lock in force this trick; else None."""
    if field is None or who is None or who == seat or locked or field[0] < 0 or field[2] not in SHAPES:
        return None
    return field


def likelihood(ev: Evidence, hands: dict[int, int], counts: dict[int, int], deck: int, policy: Policy) -> float:
    """How likely the other seats' answers were with these hands (bitmasks by seat, sampled now), relative to a
    deal in which every answer was forced; ``counts``: every seat's hand count now."""
    weight = 1.0
    for a in ev.answers:
        hand = hands.get(a.seat)
        if hand is None:
            continue
        then = hand | a.later.get(a.seat, 0)
        others: list[int] = []
        for s in counts:
            if s != a.seat:
                left = counts[s] + count(a.later.get(s, 0))
                if left > 0:
                    others.append(left)
        chance = answer_chance(a, then, others, deck & ~then & ~a.shown, policy)
        weight *= chance if chance > FLOOR else FLOOR
    return weight


def answer_chance(a: Response, hand: int, others: list[int], unseen: int, policy: Policy) -> float:
    """The policy's probability of the answer ``a`` with ``hand``, among the pass and the plays that hand had on
    that field (one per rank above it, the answer's own cards for its rank)."""
    moves: list[Move] = [Move(a.seat, "pass")]
    chosen = 0 if not a.played else -1
    played_rank = _rank_of(a.played)
    jokers = BITS16[hand >> JOKER1 & 3]
    joker_cards = hand & JOKERS_MASK
    for r in range(13):
        if _strength(r, a.reversed) <= a.strength:
            continue
        if r == played_rank:
            chosen = len(moves)
            moves.append(Move(a.seat, "play", a.played))
            continue
        suits = hand >> 4 * r & 0xF
        k = BITS16[suits]
        if k == 0 or k + jokers < a.size:
            continue
        cards = 0
        taken = 0
        for suit in range(4):
            if suits >> suit & 1 and taken < a.size:
                cards |= 1 << (4 * r + suit)
                taken += 1
        spare = joker_cards
        while taken < a.size:
            low = spare & -spare
            cards |= low
            spare &= ~low
            taken += 1
        moves.append(Move(a.seat, "play", cards))
    if a.size == 1 and jokers:
        if a.played and played_rank < 0:
            chosen = len(moves)
            moves.append(Move(a.seat, "play", a.played))
        else:
            moves.append(Move(a.seat, "play", joker_cards & -joker_cards))
    if chosen < 0 or len(moves) == 1:
        return 1.0  # a play these rules read otherwise (a rank not above the field in the order followed)
    notes: list[Note | None] = [None]
    for _ in range(len(moves) - 1):
        notes.append(NOTHING[0])
    t = Turn(hand, a.reversed, False, others, 0, moves, notes, moves)
    return policy.distribution(t, Situation(unseen, False))[chosen]


def barred(history, seat: int, view: dict) -> dict[int, int]:
    """By seat, the cards (a bitmask) it is known not to hold, from the current deal's exchange: a seat that gave
    this seat its strongest cards holds none stronger than the weakest of them (in the normal order, the exchange's);
    a seat asked for a rank it did not hold (an exchange request, public) holds none of it. A seat given cards by
    any other seat since then may hold anything again."""
    places = view.get("previous_places") or []
    ranked = len(places) == len(view.get("players") or ())
    seat_at = {place: s for s, place in enumerate(places)} if ranked else {}
    out: dict[int, int] = {}
    for ev in _current_deal(history, opening=True):
        for item in ev.get("outcome") or ():
            kind = item.get("kind")
            if kind == "give":
                giver, taker, cards = item.get("from"), item.get("to"), item.get("cards")
                if taker == seat and item.get("rule") == "exchange" and isinstance(cards, list) and cards \
                        and isinstance(giver, int) and ranked and places[giver] > places[seat]:
                    out[giver] = out.get(giver, 0) | _stronger_than(parse_many(cards))
                elif isinstance(taker, int) and giver != seat:
                    out.pop(taker, None)
            elif kind == "request" and item.get("held") is False and ranked:
                asker = item.get("seat")  # the asker's partner: the seat as far from the bottom as it is from the top
                bottom = seat_at.get(len(places) + 1 - places[asker]) if isinstance(asker, int) else None
                if bottom is not None and bottom != seat:
                    out[bottom] = out.get(bottom, 0) | _rank_cards(item.get("rank"))
    return {s: bar for s, bar in out.items() if bar}


def _stronger_than(given: int) -> int:
    """Every card stronger in the normal order than the weakest of ``given`` (jokers the strongest)."""
    normal = given & ~JOKERS_MASK
    if not normal:
        return 0
    weakest = ((normal & -normal).bit_length() - 1) >> 2
    return JOKERS_MASK | (NORMAL_MASK & ~((1 << 4 * (weakest + 1)) - 1))


def _rank_cards(rank) -> int:
    """Every card of a rank as an exchange request names it (``"3"`` … ``"2"``; ``"JK"``: the jokers)."""
    if rank == "JK":
        return JOKERS_MASK
    if isinstance(rank, str) and len(rank) == 1 and rank in RANKS:
        return 0xF << 4 * RANKS.index(rank)
    return 0
