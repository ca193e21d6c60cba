"""The one observer every bot is given: what the API serves its seat, built from the engine state."""
from __future__ import annotations

from typing import NamedTuple

from referee import annotate, forbidden_last, legal_moves, state_to_json


class Observation(NamedTuple):
    view: dict                   # GET /v1/games/{id} with the seat's token
    legal: list[dict]            # GET …/legal-moves: each move with its effects, kinds and forbidden_finish
    forbidden_last: list[str]    # GET …/legal-moves: the seat's cards that could not be its last card


def observe(st, seat: int, legal: list[dict] | None = None, last: bool = True) -> Observation:
    """What ``seat`` is shown; ``legal`` is ``legal_moves(st, seat)`` when the caller has it already. Without
    ``last``, ``forbidden_last`` is left empty (the mc playouts' economy for hands far from their end)."""
    moves = legal_moves(st, seat) if legal is None else legal
    return Observation(state_to_json(st, viewer=seat), annotate(st, moves), forbidden_last(st, seat) if last else [])


def ask(bot, st, seat: int, rng, history=None, legal: list[dict] | None = None, last: bool = True) -> dict:
    """The move ``bot`` chooses for ``seat`` from what the observer shows it (and its redacted log)."""
    seen = observe(st, seat, legal, last)
    return bot(seen.view, seen.legal, rng, history=history, forbidden_last=seen.forbidden_last)
