"""Status rows 5 and 6 copied into every table the server sends (UECDA.md §4)."""
from __future__ import annotations

from dataclasses import dataclass

NOBODY = 6


@dataclass(frozen=True)
class Status:
    counts: tuple            # cards held, by player number
    classes: tuple           # class 0..4 by player number (all 0 in a class-reset game)
    seating: tuple           # player number at seats 0..4
    exchange: bool = False   # [5][0]: the deal table
    give: int = 0            # [5][1]: cards to give back in the exchange
    mover: int = NOBODY      # [5][3]
    empty_field: bool = False
    revolution: bool = False
    lock: bool = False


def apply(table, st: Status, my_turn: bool = False):
    """Write ``st`` into rows 5-7 of ``table`` (in place) and return it."""
    row5 = [int(st.exchange), st.give, int(my_turn), st.mover, int(st.empty_field), 0, int(st.revolution), int(st.lock)]
    table[5] = row5 + [0] * 7
    table[6] = list(st.counts) + list(st.classes) + list(st.seating)
    table[7] = [0] * 15
    return table


def read(table) -> Status:
    r5, r6 = table[5], table[6]
    return Status(counts=tuple(r6[0:5]), classes=tuple(r6[5:10]), seating=tuple(r6[10:15]), exchange=bool(r5[0]),
                  give=r5[1], mover=r5[3], empty_field=bool(r5[4]), revolution=bool(r5[6]), lock=bool(r5[7]))
