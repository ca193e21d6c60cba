"""What a rule adds to a decision it asks for: the ``terms`` of a ``Pending``, a value of a class the rule defines.

A pending decision holds what every decision has (the seat, the action, how many cards, the rule, the other seat,
whether the cards must be the strongest, table mode's ``upto``); whatever else a rule's decisions carry is the rule's,
in its terms: exchange's cards withheld from a give, exchange_request's rank a give is restricted to and the ranks
answered "not held". The engine reads the terms only through the methods below, whose defaults say "nothing to
add", so it never knows what they hold; their JSON keys sit beside the pending's own (``json``, ``from_json``).

A rule lists its terms classes in ``TERMS`` (docs/adding-a-rule.md), one per action it asks for with terms
(``ACTION``); the state JSON reads a pending's terms back with the class its rule lists for its action. Terms
compare by value, like effects: a dataclass with a hand-written ``__init__``
(``@dataclass(init=False, unsafe_hash=True)``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from .moves import Move
    from .rules.base import Rejection
    from .state import Pending, State


@dataclass(init=False, unsafe_hash=True)
class Terms:
    """What the rule of a decision adds to it. Subclasses override what they need."""
    ACTION: ClassVar[str] = ""  # the action of the decisions that carry these terms (give, request, ...)

    def usable(self, cards: int) -> int:
        """The cards of ``cards`` that a give or discard of this decision may include."""
        return cards

    def refusal(self, p: Pending, mv: Move) -> Rejection | None:
        """Why the answer ``mv`` to ``p`` is refused by the terms (a card they bar, a rank already named), or None.
        Asked after the core's own checks of the answer (whose turn, the count, the cards held)."""
        return None

    def describe(self) -> str:
        """What the terms add to the decision's description ("seat 3 must give 1 card(s) of rank K ...")."""
        return ""

    def answer(self, st: State, p: Pending, mv: Move, log: Any) -> State | None:
        """The state after the accepted answer ``mv`` to ``p``, the head of the queue, when the terms make it (a
        request answered by the rule); None when the engine makes it as for any decision of its action."""
        return None

    def moves(self, p: Pending) -> list[dict] | None:
        """Every legal answer to ``p``, when the terms list them (a request); None when the engine lists them as
        for any decision of its action."""
        return None

    def json(self, p: Pending, viewer: int | None) -> dict:
        """The terms' keys in the pending's JSON, as ``viewer`` (None: the table) may see them."""
        return {}

    @classmethod
    def from_json(cls, obj: dict) -> Terms | None:
        """The terms of a pending's JSON ``obj`` (None: it has none)."""
        return None
