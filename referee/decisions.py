"""Pending decisions (7-pass gives, 10-discards, resurrection takes, Bloody Mary, exchange, cut-back windows).

``normalize`` resolves what needs no choice (a count clamped to the cards left, the strongest cards when they
are unambiguous); ``judge``/``apply`` handle a seat's answer to the decision at the head of the queue. What a
decision's rule adds to it is its ``terms`` (referee/terms.py), asked here for the cards a give may use, why an
answer is refused and, for a decision the rule runs itself (exchange_request's request), the answer's outcome.
"""
from __future__ import annotations

from typing import Final


from .cards import JOKER1, JOKERS_MASK, NORMAL_MASK, SUITS, cards_of, codes, count, suit_of
from .flow import forbidden_reason
from .flow_events import Given, GiveProposed
from .moves import Move
from .play import not_held
from .rules.base import Rejection
from .shapes import readings
from .state import After, Field, Pending, State, copied, replace, strength
from .view import PlayView, table_of

VERBS: Final = {"give": "give", "discard": "discard", "take": "take", "request": "name a rank", "cut_back": "cut back"}


def describe(p) -> str:
    what = f"seat {p.seat} must {VERBS[p.action]}"
    if p.action in ("give", "discard"):
        what += f" {'1 to ' if p.upto else ''}{p.count} card(s)"
        if p.strongest:
            what += " (its strongest)"
        if p.terms is not None:
            what += p.terms.describe()
        if p.to is not None:
            what += f" to seat {p.to}"
        if p.upto:
            what += ", or pass if it holds none"
    elif p.action == "take":
        what += " 1 card from the discard pile"
    elif p.action == "request":
        what += f" for {p.count} more card(s) from seat {p.to}"
    elif p.action == "cut_back":
        what += f" with {p.count} joker(s) or pass"
    return f"{what} ({p.rule})"


def ranked(hand: int, reversed_order: bool):
    return sorted(cards_of(hand), key=lambda c: (-strength(c, reversed_order), c))


def strongest_split(hand: int, k: int, reversed_order: bool):
    """(cards that must go, cards to choose from, how many of them) for "the k strongest cards"."""
    cs = ranked(hand, reversed_order)
    if k >= len(cs):
        return hand, 0, 0
    edge = strength(cs[k - 1], reversed_order)
    above = sum(1 << c for c in cs if strength(c, reversed_order) > edge)
    tied = sum(1 << c for c in cs if strength(c, reversed_order) == edge)
    return above, tied, k - count(above)


def is_strongest(chosen: int, hand: int, k: int, reversed_order: bool) -> bool:
    must, tied, need = strongest_split(hand, k, reversed_order)
    return chosen & must == must and count(chosen & tied) == need and chosen & ~(must | tied) == 0


def _allowed(p, hand):
    """The cards of ``hand`` a give/discard may use (its terms may restrict them: a rank, cards withheld)."""
    return hand if p.terms is None else p.terms.usable(hand)


def _move_cards(st: State, p: Pending, cards: int, log):
    st = st.without(p.seat, cards)
    if p.action == "give":
        assert p.to is not None  # a give names its recipient
        st = st.with_player(p.to, hand=st.hand(p.to) | cards)
        log.append({"kind": "give", "from": p.seat, "to": p.to, "cards": codes(cards), "rule": p.rule})
        st = copied(st, {"pending": st.pending[1:]})
        for react, params in st.rules.received_hooks:  # a rule may remember what was given (exchange.give_back)
            st = react(st, Given(p, cards), params)
        return st
    st = copied(st, {"discard": st.discard | cards})
    log.append({"kind": "discard", "seat": p.seat, "cards": codes(cards), "rule": p.rule})
    return copied(st, {"pending": st.pending[1:]})


def tie_order(tied: int, suits: str) -> list[int]:
    """Equally strong cards (one rank's, or jokers) in the order the referee takes them when it breaks the tie: by
    suit as ``suits`` lists them (the ruleset's tie_suits: SHDC, or CDHS), JK1 before JK2."""
    return sorted(cards_of(tied), key=lambda c: c if c >= JOKER1 else suits.index(SUITS[suit_of(c)]))


def _auto_choice(st: State, p: Pending):
    """The cards of a give/discard when there is nothing to choose, else None (a rule that always asks: None)."""
    if st.players[p.seat].unknown or p.rule in st.rules.asking:
        return None  # table mode: the seat names the cards; or its rule has the seat hand them over itself
    hand = _allowed(p, st.hand(p.seat))
    if count(hand) <= p.count:
        return hand
    if p.strongest:
        must, tied, need = strongest_split(hand, p.count, p.reversed)
        if need == 0:
            return must
        if p.rule in st.rules.tie_breakers or count(tied) == need:
            chosen = tie_order(tied, st.rules.tie_suits)[:need]
            return must | sum(1 << c for c in chosen)
    return None


def normalize(st: State, log):
    while st.pending:
        p = st.pending[0]
        if p.action in ("give", "discard"):
            if p.upto:
                return st  # table mode: only the asked seat can say whether it holds the rank
            n = min(p.count, count(_allowed(p, st.hand(p.seat))) + st.players[p.seat].unknown)
            if n == 0:
                st = copied(st, {"pending": st.pending[1:]})
                continue
            if n != p.count:
                p = replace(p, count=n)
                st = copied(st, {"pending": (p,) + st.pending[1:]})
            cards = _auto_choice(st, p)
            if cards is None:
                return st
            st = _move_cards(st, p, cards, log)
        elif p.action == "take":
            if not st.discard & NORMAL_MASK or not st.active(p.seat):
                st = copied(st, {"pending": st.pending[1:]})
                continue
            return st
        elif p.action == "request":
            assert p.to is not None  # a request is made of a named seat
            n = min(p.count, st.left(p.to))
            if n == 0:
                st = copied(st, {"pending": st.pending[1:]})
                continue
            if n != p.count:
                st = copied(st, {"pending": (replace(p, count=n),) + st.pending[1:]})
            return st
        else:
            return st
    return st


def window(st: State):
    return [p for p in st.pending if p.action == "cut_back"]


def judge(st: State, mv: Move):
    """None when the answer is acceptable, else a Rejection."""
    head = st.pending[0]
    if head.action == "cut_back":
        seats = {p.seat for p in window(st)}
        if mv.seat not in seats:
            return Rejection("pending_decision", f"waiting for the cut-back window: "
                             f"{'; '.join(describe(p) for p in window(st))}", head.rule)
        if mv.action == "pass":
            return None
        if mv.action != "cut_back":
            return Rejection("pending_decision", describe(head), head.rule)
        jokers = mv.cards & JOKERS_MASK
        if mv.cards != jokers or count(jokers) != head.count:
            return Rejection("wrong_count", f"a cut back is exactly {head.count} joker(s), as many as the cutting "
                             f"play had cards ({head.rule})", head.rule)
        missing = st.unheld(mv.seat, mv.cards)
        return not_held(st, mv.seat, missing) if missing else None
    if mv.seat != head.seat:
        return Rejection("pending_decision", f"waiting: {describe(head)}", head.rule)
    if head.upto and mv.action == "pass":
        return None  # "not held"
    if mv.action != head.action:
        return Rejection("pending_decision", f"first, {describe(head)}", head.rule)
    hand = st.hand(mv.seat)
    if head.action in ("give", "discard"):
        n = count(mv.cards)
        if n != head.count and not (head.upto and 1 <= n <= head.count):
            return Rejection("wrong_count", f"{describe(head)}, not {n}", head.rule)
        missing = st.unheld(mv.seat, mv.cards)
        if missing:
            return not_held(st, mv.seat, missing)
        why = head.terms.refusal(head, mv) if head.terms is not None else None
        if why is not None:
            return why
        for react, params in st.rules.give_hooks:
            why = react(st, GiveProposed(head, mv.cards), params)
            if why is not None:
                return why
        barred = mv.cards & ~_allowed(head, mv.cards)
        if barred:
            return Rejection("withheld", f"{' '.join(codes(barred))} may not be part of this {head.action} "
                             f"({head.rule})", head.rule)
        hand = _allowed(head, hand)
        if head.strongest and not st.players[mv.seat].unknown and \
                not is_strongest(mv.cards, hand, head.count, head.reversed):
            must, tied, need = strongest_split(hand, head.count, head.reversed)
            return Rejection("not_allowed", f"these must be the {head.count} strongest cards of the hand "
                             f"({' '.join(codes(must))}{' and ' + str(need) + ' of ' + ' '.join(codes(tied)) if need else ''}) "
                             f"({head.rule})", head.rule)
        return None
    if head.action == "take":
        if count(mv.cards) != 1:
            return Rejection("wrong_count", "take exactly 1 card from the discard pile (resurrection)", head.rule)
        if mv.cards & JOKERS_MASK or not mv.cards & st.discard:
            return Rejection("not_allowed", f"{' '.join(codes(mv.cards))} is not a non-joker card in the discard "
                             "pile (resurrection)", head.rule)
        return None
    if head.terms is not None:  # a decision its rule's terms judge (exchange_request's request)
        return head.terms.refusal(head, mv)
    return Rejection("not_allowed", describe(head), head.rule)


def apply(st: State, mv: Move, log):
    """Apply an accepted answer; returns the new state (pending possibly not yet normalized)."""
    head = st.pending[0]
    if head.terms is not None:
        answered = head.terms.answer(st, head, mv, log)
        if answered is not None:
            return answered
    if head.action == "cut_back":
        if mv.action == "pass":
            log.append({"kind": "decline", "seat": mv.seat, "rule": head.rule})
            return copied(st, {"pending": tuple(p for p in st.pending if p.seat != mv.seat)})
        return _cut_back(st, mv, head.rule, log)
    if head.action in ("give", "discard"):
        return _move_cards(st, head, mv.cards, log)
    if head.action == "take":
        st = copied(st, {"discard": st.discard & ~mv.cards, "pending": st.pending[1:]})
        log.append({"kind": "take", "seat": mv.seat, "cards": codes(mv.cards), "rule": head.rule})
        return st.with_player(mv.seat, hand=st.hand(mv.seat) | mv.cards)
    raise AssertionError(f"an accepted {mv.action} answers {describe(head)}, which nothing applies")


def cut_back_finish(st: State, seat, cards, rule) -> str | None:
    """Why going out with a cut back (``rule``) of ``cards`` (jokers) would rank ``seat`` from the bottom, or None."""
    reading = readings(cards, frozenset())[0]
    return forbidden_reason(st.rules, PlayView(table_of(st, seat), reading, rule), ())


def _cut_back(st: State, mv, rule, log):
    reading = readings(mv.cards, frozenset())[0]
    st = st.without(mv.seat, mv.cards)
    beneath = st.beneath | (st.field.reading.mask if st.field else 0)
    log.append({"kind": "cut_back", "seat": mv.seat, "cards": codes(mv.cards), "rule": rule})
    went_out = ((mv.seat, cut_back_finish(st, mv.seat, mv.cards, rule)),) if st.left(mv.seat) == 0 else ()
    assert st.after is not None  # a cut back answers the cut a play left to do
    return replace(st, field=Field(reading, mv.seat), beneath=beneath, pending=(),
                   after=After(mv.seat, cut=rule, went_out=st.after.went_out + went_out))
