"""What the engine tells and asks the rules outside a play's judgement, one small value each: the parts of a new
deal (the ``new_deal`` hook) and the events of the flow (the ``react`` hook).

A hook receives the value with the state and the rule's params and returns its answer, which each class below
describes. ``new_deal`` is asked every part and returns those it has nothing to say about as they came; ``react`` is
told only the events its module lists in ``REACTS_TO``.
"""
from __future__ import annotations

from typing import Any

from .state import Pending


class ExchangeCounts:
    """The cards exchanged in the next deal, by pair from the ends: ``counts`` as the rules before worked them out
    ((0, 0) for the first). Asked with the state of the deal just over, whose places are ``places``; answered with
    an ExchangeCounts."""
    __slots__ = ("places", "counts")
    places: tuple
    counts: tuple

    def __init__(self, places: tuple, counts: tuple) -> None:
        self.places, self.counts = places, counts


class DealQueue:
    """The decisions queued before the new deal's play: ``pending`` as the rules before made it (() for the first).
    Asked with the new deal's state, once the rules told it was dealt (Dealt) have set it up; answered with a
    DealQueue."""
    __slots__ = ("pending",)
    pending: tuple

    def __init__(self, pending: tuple) -> None:
        self.pending = pending


class Leader:
    """Who leads a deal (``first_deal``: the match's first): ``seat`` None until a rule names one, and the first
    that does decides. Asked as play starts (after the exchange); answered with a Leader."""
    __slots__ = ("first_deal", "seat")
    first_deal: bool
    seat: int | None

    def __init__(self, first_deal: bool, seat: int | None = None) -> None:
        self.first_deal, self.seat = first_deal, seat


class Dealt:
    """A new deal has been dealt, before its exchange: ``counts`` are the exchange counts the ``new_deal`` hooks
    worked out for it (ExchangeCounts). Told with the new deal's state; answered with the state as the rule sets it
    up (exchange keeps the counts in its slot), each rule's in turn. The DealQueue part is asked after."""
    __slots__ = ("counts",)
    counts: tuple

    def __init__(self, counts: tuple) -> None:
        self.counts = counts


class Passed:
    """A pass: ``idle`` passes in a row, this one included, and the ``log`` of the move. Told with the state before
    the pass; answered with the state that ends the deal (``deal_over``), or None while it goes on (the first rule
    that ends it decides)."""
    __slots__ = ("idle", "log")
    idle: int
    log: Any  # a list, or engine.UNLOGGED (advance keeps no log)

    def __init__(self, idle: int, log: Any) -> None:
        self.idle, self.log = idle, log


class FieldCut:
    """A play cut the field (``State.after`` says who and how). Answered with the pending decisions offered before
    the cut resolves (a tuple of Pending; every rule's, in registry order)."""
    __slots__ = ()


class Finished:
    """``seat`` has emptied its hand and taken ``place``; the rule may add entries to the ``log`` (they count as the
    play's effects). Answered with the state after, each rule's in turn (``ON_FINISH_ORDER`` sorts them) until one
    ends the deal."""
    __slots__ = ("seat", "place", "log")
    seat: int
    place: int
    log: Any  # a list, or engine.UNLOGGED (advance keeps no log)

    def __init__(self, seat: int, place: int, log: Any) -> None:
        self.seat, self.place, self.log = seat, place, log


class PlacesFinal:
    """Asked: are the places given so far final? Answered False while the rule may still rewrite them (a place is
    final only if every rule told answers True; flow.place_final, where the mc playouts stop)."""
    __slots__ = ()


class Handing:
    """The ``cards`` a seat hands over answering the ``pending`` decision (a give or discard)."""
    __slots__ = ("pending", "cards")
    pending: Pending
    cards: int

    def __init__(self, pending: Pending, cards: int) -> None:
        self.pending, self.cards = pending, cards


class GiveProposed(Handing):
    """A give or discard proposed, its count, holding and rank checked. Answered with a Rejection (why the cards may
    not be handed over), or None (the first rejection decides)."""
    __slots__ = ()


class Given(Handing):
    """A give has moved its cards (the head of the queue popped). Answered with the state after (e.g. the cards a
    later decision's terms withhold, what a request still asks for), each rule's in turn."""
    __slots__ = ()


FIELD_CUT = FieldCut()
PLACES_FINAL = PlacesFinal()
