"""The one observer every bot is given: what the API serves its seat, built from the engine state."""
from __future__ import annotations

from referee import annotate, legal_moves, state_to_json


def observe(st, seat: int, legal: list[dict] | None = None) -> tuple[dict, list[dict]]:
    """``(view, legal)`` for ``seat``: its seat view (``GET /v1/games/{id}`` with its token) and its legal moves,
    each annotated with the effects it fires and whether going out with it is forbidden (``GET …/legal-moves``).
    ``legal`` is ``legal_moves(st, seat)`` when the caller has it already."""
    return state_to_json(st, viewer=seat), annotate(st, legal_moves(st, seat) if legal is None else legal)
