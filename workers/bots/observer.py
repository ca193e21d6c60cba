"""The one observer every bot is given: what the API serves its seat, built from the engine state."""
from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from referee import annotate, forbidden_last, legal_moves, state_to_json
from referee.annotate import Note, forbidden_last_mask, play_notes
from referee.cards import codes
from referee.legal import options
from referee.moves import Move
from referee.serialize import SeatView
from referee.state import State, new_tuple


class Observation(NamedTuple):
    view: Mapping                # GET /v1/games/{id} with the seat's token (a dict, or a lazy SeatView)
    legal: list[dict]            # GET …/legal-moves: each move with its effects, kinds and forbidden_finish
    forbidden_last: list[str]    # GET …/legal-moves: the seat's cards that could not be its last card


def observe(st, seat: int, legal: list[dict] | None = None, last: bool = True, annotated: bool = False,
            lazy: bool = False) -> Observation:
    """What ``seat`` is shown; ``legal`` is ``legal_moves(st, seat, annotated)`` when the caller has it already.
    The mc playouts' economies: without ``last``, ``forbidden_last`` is left empty (for hands far from their end);
    with ``lazy`` the view is a ``SeatView``, whose keys are built as they are read (not JSON-serialisable)."""
    if legal is None:
        moves = legal_moves(st, seat, annotated=True)
    else:
        moves = legal if annotated else annotate(st, legal)
    view = SeatView(st, seat) if lazy else state_to_json(st, viewer=seat)
    return Observation(view, moves, forbidden_last(st, seat) if last else [])


def ask(bot, st, seat: int, rng, history=None, legal: list[dict] | None = None, last: bool = True,
        annotated: bool = False, lazy: bool = False) -> dict:
    """The move ``bot`` chooses for ``seat`` from what the observer shows it (and its redacted log)."""
    seen = observe(st, seat, legal, last, annotated, lazy)
    return bot(seen.view, seen.legal, rng, history=history, forbidden_last=seen.forbidden_last)


class Turn:
    """A seat's turn to play or pass as the mc playouts observe it: the facts of its seat view that scoring a play
    reads, and its legal moves as engine ``Move`` objects (``options``) with their annotations (``play_notes``;
    None for a pass), in ``legal_moves`` order. Nothing here is hidden from the seat. (A plain class with slots:
    compiled, built by a direct call, where a named tuple's is a call through the interpreter.)"""
    __slots__ = ("cards", "reversed", "lead", "others", "forbidden_last", "moves", "notes")
    cards: int                   # the seat's hand (bitmask)
    reversed: bool               # the view's order is "reversed"
    lead: bool                   # the field is empty
    others: list[int]            # hand counts of the other seats still playing
    forbidden_last: int          # as ``Observation.forbidden_last``, a bitmask (0 without ``last``)
    moves: list[Move]
    notes: list[Note | None]

    def __init__(self, cards: int, reversed: bool, lead: bool, others: list[int], forbidden_last: int,
                 moves: list[Move], notes: list[Note | None]) -> None:
        self.cards, self.reversed, self.lead, self.others = cards, reversed, lead, others
        self.forbidden_last, self.moves, self.notes = forbidden_last, moves, notes


def turn(st: State, seat: int, last: bool = True, moves: list | None = None) -> Turn:
    """``seat``'s turn to play or pass (no decision pending): what ``observe`` shows, without building JSON;
    ``moves`` is ``options(st, seat)`` when the caller has it already."""
    moves = options(st, seat, noted=True) if moves is None else moves
    notes = play_notes(st, seat, moves)
    others = [p.left for p in st.players if p.seat != seat and p.place is None]
    return Turn(st.players[seat].hand, st.reversed, st.field is None, others,
                forbidden_last_mask(st, seat) if last else 0, moves, notes)


class Decision(NamedTuple):
    """A seat's decision (give, discard, take, request, cut back) as the mc playouts observe it: the facts of its
    seat view that the greedy decisions read. Nothing here is hidden from the seat."""
    hand: list[str]              # the seat's cards (codes, as its view lists them)
    reversed: bool               # the view's order is "reversed"
    others: list[int]            # hand counts of the other seats still playing
    forbidden_last: list[str]    # as ``Observation.forbidden_last`` (empty without ``last``)
    exchange: bool               # the view's phase is "exchange"


def decision(st: State, seat: int, last: bool = True) -> Decision:
    """``seat``'s decision: what ``observe`` shows of it, without building JSON."""
    others = [p.left for p in st.players if p.seat != seat and p.place is None]
    return new_tuple(Decision, (codes(st.players[seat].hand), st.reversed, others,
                                forbidden_last(st, seat) if last else [], st.phase == "exchange"))
