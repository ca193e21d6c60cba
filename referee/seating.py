"""Turn order (RULES.md §3): which seat comes after which, in the direction of play.

By default the seats' own order: after seat s comes s + 1 (s - 1 against the direction), round the table. A rule may
seat the players of a later deal otherwise: its ``settings`` give ``seating``, a function of the previous deal's
places (by seat) that returns every seat once, in turn order (reseat: by the finishing order). Seat numbers never
change (clients hold tokens for them); only who comes after whom does, for the deal, the turn, the 7-pass recipient,
the skips and the order of finishes alike. The core steps from seat to seat with ``after(st, direction)`` (or
``seats_after`` for a deal about to be dealt) and computes no neighbour itself.

``after`` is asked on every turn: without a seating rule it is a look-up in tables made once (the seat after each
seat, for each table size); with one, each deal's tables are made once per ruleset and previous places.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .ruleset import Ruleset
    from .state import State

MAX_SEATS: Final = 8
# FORWARD[n][s]: the seat after s at a table of n in seat order; BACKWARD[n][s]: the seat before it
FORWARD: Final = tuple(tuple((s + 1) % n for s in range(n)) if n else () for n in range(MAX_SEATS + 1))
BACKWARD: Final = tuple(tuple((s - 1) % n for s in range(n)) if n else () for n in range(MAX_SEATS + 1))
RINGS_SIZE: Final = 256  # (forward, backward) tables kept per ruleset, by previous places


def after(st: State, direction: int) -> tuple:
    """The seat after each seat (a tuple indexed by seat) in ``direction`` (1 or -1) for ``st``'s deal."""
    if st.rules.seating is None or not st.previous_places:
        return FORWARD[len(st.players)] if direction > 0 else BACKWARD[len(st.players)]
    forward, backward = seats_after(st.rules, st.previous_places)
    return forward if direction > 0 else backward


def seats_after(rules: Ruleset, places: tuple) -> tuple[tuple, tuple]:
    """(the seat after each seat, the seat before it) for the deal after one whose places are ``places`` (by seat;
    () before the first deal): the rules' seating, or the seats' own order."""
    n = len(places)
    if rules.seating is None or not places:
        return FORWARD[n], BACKWARD[n]
    rings = rules.rings
    got = rings.get(places)
    if got is None:
        order = tuple(rules.seating(places))
        if sorted(order) != list(range(n)):
            raise ValueError(f"a seating must name every seat once, not {order!r}")
        forward, backward = [0] * n, [0] * n
        for i, seat in enumerate(order):
            forward[seat], backward[seat] = order[(i + 1) % n], order[(i - 1) % n]
        if len(rings) >= RINGS_SIZE:
            rings.clear()
        got = rings[places] = (tuple(forward), tuple(backward))
    return got


def deal_order(rules: Ruleset, places: tuple, n: int, dealer: int) -> list[int]:
    """The seats in the order a deal reaches them, from the seat after ``dealer`` (the deal after one whose places
    are ``places``; () for the first)."""
    forward = seats_after(rules, places)[0] if places else FORWARD[n]
    out, seat = [], dealer
    for _ in range(n):
        seat = forward[seat]
        out.append(seat)
    return out


def next_active(st: State, seat: int, direction: int | None = None) -> int | None:
    """The next active seat after ``seat`` in the direction of play (``st``'s if None), never ``seat`` itself."""
    nxt = after(st, st.direction if direction is None else direction)
    players = st.players
    s = seat
    for _ in range(len(players) - 1):
        s = nxt[s]
        if players[s].place is None:
            return s
    return None
