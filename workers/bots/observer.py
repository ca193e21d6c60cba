"""The one observer every bot is given: what the API serves its seat, built from the engine state; and the facts
of it that the greedy policy reads (``Facts``), built from the engine state (``facts``, the mc playouts) or from
what a bot is given (``facts_of_view``): the same facts either way."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from referee import annotate, forbidden_last, legal_moves, state_to_json
from referee.annotate import Note, forbidden_last_mask, play_notes
from referee.cards import codes, parse_many
from referee.legal import options
from referee.moves import Move, parse_move
from referee.state import State


class Observation(NamedTuple):
    view: dict                   # GET /v1/games/{id} with the seat's token
    legal: list[dict]            # GET …/legal-moves: each move with its effects, kinds and forbidden_finish
    forbidden_last: list[str]    # GET …/legal-moves: the seat's cards that could not be its last card


def observe(st, seat: int, legal: list[dict] | None = None, open_hands: bool = False) -> Observation:
    """What ``seat`` is shown; ``legal`` is ``legal_moves(st, seat)`` when the caller has it already. With
    ``open_hands`` (a diagnostic of what the hidden hands cost a bot: ``benchmarks/bots.py --open-hands``) its view
    shows every seat's hand; nothing served ever asks for it."""
    moves = legal_moves(st, seat, annotated=True) if legal is None else annotate(st, legal)
    view = state_to_json(st, viewer=seat)
    if open_hands:
        for p in view["players"]:
            p["hand"] = codes(st.hand(p["seat"]))
    return Observation(view, moves, forbidden_last(st, seat))


def ask(bot, st, seat: int, rng, history=None, legal: list[dict] | None = None, open_hands: bool = False) -> dict:
    """The move ``bot`` chooses for ``seat`` from what the observer shows it (and its redacted log)."""
    seen = observe(st, seat, legal, open_hands)
    return bot(seen.view, seen.legal, rng, history=history, forbidden_last=seen.forbidden_last)


class Turn:
    """A seat's plays (and pass) as the greedy policy scores them: the facts of its seat view that scoring reads,
    and its legal moves as engine ``Move`` objects with their annotations (None for a pass), in the order listed.
    ``choices`` are the moves as the caller holds them (the ``Move`` objects themselves, or the legal-move entries
    they were read from): choosing the i-th move is ``choices[i]``. Nothing here is hidden from the seat. (A class
    with slots: the playouts build one per ply, and compiled it is a native class built by a direct call.)"""
    __slots__ = ("cards", "reversed", "lead", "others", "forbidden_last", "moves", "notes", "choices")
    cards: int                   # the seat's hand (bitmask)
    reversed: bool               # the view's order is "reversed"
    lead: bool                   # the field is empty (or the seat would lead: the next leader in a cut-back window)
    others: list[int]            # hand counts of the other seats still playing
    forbidden_last: int          # as ``Observation.forbidden_last``, a bitmask (0 without ``last``)
    moves: list[Move]
    notes: list[Note | None]
    choices: list

    def __init__(self, cards: int, reversed: bool, lead: bool, others: list[int], forbidden_last: int,
                 moves: list[Move], notes: list[Note | None], choices: list) -> None:
        self.cards, self.reversed, self.lead, self.others = cards, reversed, lead, others
        self.forbidden_last, self.moves, self.notes, self.choices = forbidden_last, moves, notes, choices


class Decision(NamedTuple):
    """A seat's decision (give, discard, take, request, cut back) as the greedy policy reads it: the facts of its
    seat view that the decisions read. Nothing here is hidden from the seat."""
    hand: list[str]              # the seat's cards (codes, as its view lists them)
    reversed: bool               # the view's order is "reversed"
    others: list[int]            # hand counts of the other seats still playing
    forbidden_last: list[str]    # as ``Observation.forbidden_last`` (empty without ``last``)
    exchange: bool               # the view's phase is "exchange"


class Facts:
    """What the greedy policy reads of whatever a seat must do now (a class with slots, as ``Turn``)."""
    __slots__ = ("legal", "turn", "decision")
    legal: list                  # the seat's legal moves (annotated where the policy reads annotations)
    turn: Turn | None            # its plays and pass: on its turn, or as the next leader in a cut-back window
    decision: Decision | None    # a pending decision (None on a turn to play or pass)

    def __init__(self, legal: list, turn: Turn | None, decision: Decision | None) -> None:
        self.legal, self.turn, self.decision = legal, turn, decision


def forced(legal: list) -> Any:
    """The seat's only move when it has no choice at all (one move, and not a choice of cards), else None."""
    if len(legal) == 1 and not (isinstance(legal[0], dict) and "choose" in legal[0]):
        return legal[0]
    return None


def _others(st: State, seat: int) -> list[int]:
    return [p.left for p in st.players if p.seat != seat and p.place is None]


def turn(st: State, seat: int, last: bool = True, moves: list | None = None) -> Turn:
    """``seat``'s turn to play or pass (no decision pending): what ``observe`` shows, without building JSON;
    ``moves`` is ``options(st, seat)`` when the caller has it already."""
    moves = options(st, seat, noted=True) if moves is None else moves
    return Turn(st.players[seat].hand, st.reversed, st.field is None, _others(st, seat),
                forbidden_last_mask(st, seat) if last else 0, moves, play_notes(st, seat, moves), moves)


def decision(st: State, seat: int, last: bool = True) -> Decision:
    """``seat``'s decision: what ``observe`` shows of it, without building JSON."""
    return Decision(codes(st.players[seat].hand), st.reversed, _others(st, seat),
                    forbidden_last(st, seat) if last else [], st.phase == "exchange")


def facts(st: State, seat: int, last: bool = True, moves: list | None = None) -> Facts:
    """What the greedy policy reads of ``seat``'s situation, from the engine state (no seat view built). Without
    ``last`` the cards that cannot be the last one are left out (for hands far from their end); ``moves`` is
    ``options(st, seat)`` when the caller has it already."""
    moves = options(st, seat, noted=True) if moves is None else moves
    if not st.pending:
        return Facts(moves, turn(st, seat, last, moves), None)
    plays = [m for m in moves if m["action"] == "play"]
    if plays or any(m["action"] == "cut_back" for m in moves):
        moves = annotate(st, moves)  # what the plays fire; whether cutting back would be a forbidden finish
    seen = decision(st, seat, last)
    lead = None
    if plays:  # the next leader in a cut-back window: its plays lead
        lead = _turn_of_entries(st.players[seat].hand, seen, [m for m in moves if m["action"] == "play"])
    return Facts(moves, lead, seen)


def facts_of_view(view: Mapping, legal: list[dict], forbidden_last=(), seat: int | None = None) -> Facts:
    """The same facts from what a bot is given: its seat view, its annotated legal moves and ``forbidden_last``
    (``seat``: the one the moves are for)."""
    seat = legal[0]["seat"] if seat is None else seat
    hand = list(view["players"][seat]["hand"] or [])
    others = [p["hand_count"] for p in view["players"] if p["seat"] != seat and p["place"] is None]
    seen = Decision(hand, view.get("order") == "reversed", others, list(forbidden_last), view.get("phase") == "exchange")
    if not view.get("pending"):
        return Facts(legal, _turn_of_entries(parse_many(hand), seen, legal, view.get("field") is None), None)
    plays = [m for m in legal if m["action"] == "play"]
    return Facts(legal, _turn_of_entries(parse_many(hand), seen, plays) if plays else None, seen)


def _turn_of_entries(cards: int, seen: Decision, entries: list[dict], lead: bool = True) -> Turn:
    """A Turn of annotated legal-move entries (``seen`` has the rest of its facts)."""
    moves = [parse_move(m) for m in entries]
    notes: list[Note | None] = [None if m["action"] == "pass" else Note(tuple(m["effects"]), tuple(m["kinds"]),
                                                                       m["forbidden_finish"]) for m in entries]
    return Turn(cards, seen.reversed, lead, seen.others, parse_many(seen.forbidden_last), moves, notes, entries)
