"""What the engine asks the rules outside a play's judgement, one small value each: the parts of a new deal (the
``new_deal`` hook).

A rule's hook receives the value with the state and its params and returns its answer; a rule answers the values
it has something to say about and returns the others as they came.
"""
from __future__ import annotations


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
    Asked with the new deal's state, once the counts are known; answered with a DealQueue."""
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
