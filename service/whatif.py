"""What a seat may learn from a what-if (``POST /v1/games/{id}/judge`` with a seat token).

A what-if is not a move: a seat may ask as often as it likes, so an answer must not tell it anything that
depends on cards it cannot see, or repeated what-ifs would read other hands (e.g. asking for every rank of a
gekifugo exchange request). Such an outcome is *sealed*: the verdict says only whether the move is legal
(legality depends on the seat's own hand and public facts) and the state is the seat's view of the game as it
stands. The table token sees every card, so its what-ifs are never sealed.
"""
from __future__ import annotations

SEALED = "hidden"


def hidden_outcome(before, after, move: dict, seat: int) -> bool:
    """True when the outcome of ``move`` by ``seat`` depends on (or shows) cards that seat cannot see."""
    if move.get("action") == "request" or before.phase == "exchange":
        return True  # requests answer from another hand; exchange gives and their follow-ups move hidden cards
    for b, a in zip(before.players, after.players):
        if b.seat != seat and (b.hand & ~a.hand or b.unknown != a.unknown):
            return True  # another hand lost cards (Bloody Mary, an automatic give or discard, ...)
    return _others_decisions(before, seat) != _others_decisions(after, seat)  # Bloody Mary, a cut-back window


def _others_decisions(st, seat: int) -> list:
    # whether another seat's give/discard is left to its choice or resolved at once, and who is offered a
    # cut back (the seats holding enough jokers), depend on hands this seat cannot see
    return [p for p in st.pending if p.seat != seat]


def sealed_verdict(verdict: dict, seat: int) -> dict:
    return {"legal": True, "reason": None,
            "message": f"legal; its outcome depends on cards seat {seat} cannot see, so a what-if does not show it "
                       "(propose the move to play it)",
            "effects": [], "reading": verdict.get("reading") or {}, "void_declarations": [], "rule": None,
            "unchecked": [], "outcome": SEALED}
