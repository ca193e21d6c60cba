"""Card cells of a TABLE (rows 0-4) and the engine's cards and moves; UECDA.md §3.

Rows 0-3 are the suits S H D C (the engine's suit order), columns 1-13 the ranks 3 .. 2 (engine rank + 1).
In a hand the joker is a 2 at [4][1]; in a play a 2 sits at the cell of the card it stands for, at [4][c] for
the fifth card of five of a kind, anywhere in rows 0-3 when played alone.
"""
from __future__ import annotations

from referee.cards import JOKER1, RANKS, SUITS, card, cards_of, code, parse, rank_of, suit_of

from .protocol import empty

CARD_ROWS = 5


def hand_table(mask: int) -> list[list[int]]:
    t = empty()
    for c in cards_of(mask):
        if c >= 52:
            t[4][1] = 2
        else:
            t[suit_of(c)][rank_of(c) + 1] = 1
    return t


def hand_of(table) -> int:
    """The cards of a hand table (any 2 counts as the joker)."""
    mask = 0
    for r in range(4):
        for col in range(1, 14):
            if table[r][col] == 1:
                mask |= 1 << card(col - 1, r)
    if any(table[r][col] == 2 for r in range(CARD_ROWS) for col in range(15)):
        mask |= 1 << JOKER1
    return mask


def cells(table) -> list[tuple[int, int, int]]:
    return [(r, col, table[r][col]) for r in range(CARD_ROWS) for col in range(15) if table[r][col]]


class BadTable(ValueError):
    """A table that is no card set at all (the reference server rejects it the same way)."""


def play_of(table) -> tuple[int, dict]:
    """(cards mask, joker reading {"JK1": "D7" | "7"}) of a play table; 0 cards = pass. Raises BadTable."""
    mask, reading, jokers = 0, {}, []
    for r, col, v in cells(table):
        if v == 1:
            if r > 3 or not 1 <= col <= 13:
                raise BadTable(f"a card at row {r}, column {col} does not exist")
            mask |= 1 << card(col - 1, r)
        elif v == 2:
            jokers.append((r, col))
        else:
            raise BadTable(f"value {v} at row {r}, column {col} (only 0, 1, 2)")
    if len(jokers) > 1:
        raise BadTable("more than one joker")
    if jokers:
        r, col = jokers[0]
        if mask:
            if not 1 <= col <= 13:
                col = _end_of_run(mask, r, col)
            if r == 4:
                if any(not mask >> card(col - 1, s) & 1 for s in range(4)):
                    raise BadTable("a joker in row 4 needs all four suits of its rank (five of a kind)")
                reading["JK1"] = RANKS[col - 1]
            else:
                if mask >> card(col - 1, r) & 1:
                    raise BadTable("the joker stands for a card also played")
                reading["JK1"] = code(card(col - 1, r))
        mask |= 1 << JOKER1
    return mask, reading


def _end_of_run(mask: int, row: int, col: int) -> int:
    """A stairs' joker below the 3 (column 0) or above the 2 (column 14), which the reference server accepts
    but our engine's ranks cannot hold, read at the other end of the run instead (UECDA.md §3). Every verdict
    is the same except in rare corners: see docs/uecda.md."""
    cols = sorted(c for c in range(1, 14) if mask >> card(c - 1, row) & 1)
    if not cols or mask.bit_count() != len(cols) or cols != list(range(cols[0], cols[-1] + 1)):
        raise BadTable(f"a joker at column {col} must extend a stairs of its row")
    if col == 0 and cols[0] == 1 and cols[-1] < 13:
        return cols[-1] + 1
    if col == 14 and cols[-1] == 13 and cols[0] > 1:
        return cols[0] - 1
    raise BadTable(f"a joker at column {col} must extend a stairs of its row")


def move_of(table, seat: int) -> dict:
    mask, reading = play_of(table)
    if not mask:
        return {"seat": seat, "action": "pass"}
    move = {"seat": seat, "action": "play", "cards": [code(c) for c in cards_of(mask)]}
    if reading:
        move["as"] = reading
    return move


def play_table(cards, reading: dict | None, reversed_order: bool = False) -> list[list[int]]:
    """The table of a play: card codes and the joker's reading (as the verdict reports it)."""
    t = empty()
    mask = 0
    for cd in cards:
        mask |= 1 << parse(cd)
    normals = [c for c in cards_of(mask) if c < 52]
    for c in normals:
        t[suit_of(c)][rank_of(c) + 1] = 1
    for c in cards_of(mask):
        if c < 52:
            continue
        stand = (reading or {}).get(code(c))
        if not normals:
            t[0][0 if reversed_order else 14] = 2   # a lone joker, where FujiGokoro puts it
        elif stand and len(stand) == 2:
            s = parse(stand)
            t[suit_of(s)][rank_of(s) + 1] = 2
        elif stand:
            t[4][RANKS.index(stand) + 1] = 2
        else:
            raise ValueError(f"the joker of {cards} needs a reading")
    return t


def rows_equal(a, b) -> bool:
    return all(a[r] == b[r] for r in range(CARD_ROWS))


def suits_text(mask: int) -> str:
    return "".join(SUITS[s] for s in range(4) if mask >> s & 1)
