"""Card codes (RULES.md §1) and card sets as integer bitmasks.

A card is an int: ``rank * 4 + suit`` for the 52 normal cards (rank 0 is the 3,
rank 12 the 2; suits S H D C), 52 and 53 for JK1 and JK2. A set of cards is an
int with bit ``card`` set, so set operations are single integer operations.
"""
from __future__ import annotations

from typing import Final

from .errors import InputError

SUITS: Final = "SHDC"
RANKS: Final = "3456789TJQKA2"
JOKER1: Final = 52
JOKER2: Final = 53
JOKERS_MASK: Final = (1 << JOKER1) | (1 << JOKER2)
NORMAL_MASK: Final = (1 << 52) - 1
RANK_NAMES: Final = {i: r for i, r in enumerate(RANKS)}


def card(rank: int, suit: int) -> int:
    return rank * 4 + suit


def rank_of(c: int) -> int:
    return c >> 2


def suit_of(c: int) -> int:
    return c & 3


def is_joker(c: int) -> bool:
    return c >= 52


def code(c: int) -> str:
    if c == JOKER1:
        return "JK1"
    if c == JOKER2:
        return "JK2"
    return SUITS[c & 3] + RANKS[c >> 2]


CODES: Final = tuple(code(c) for c in range(54))  # CODES[card]: its code
_CODES: Final = {text: c for c, text in enumerate(CODES)}


def parse(text) -> int:
    """One card code to a card; accepts ``10`` for ``T`` and lower case."""
    c = _CODES.get(text) if type(text) is str else None
    if c is not None:
        return c  # a code as the engine writes it
    if not isinstance(text, str):
        raise InputError("invalid_cards", f"a card must be a code like 'S3' or 'JK1', not {text!r}")
    t = text.strip().upper()
    if len(t) == 3 and t[1:] == "10":
        t = t[0] + "T"
    c = _CODES.get(t)
    if c is None:
        raise InputError("invalid_cards", f"{text!r} is not a card: use a suit S/H/D/C and a rank "
                         "3-9/T/J/Q/K/A/2 (e.g. 'S3', 'HT'), or JK1/JK2")
    return c


def parse_many(texts) -> int:
    """A list of codes to a bitmask; duplicates are an error."""
    if not isinstance(texts, (list, tuple)):
        raise InputError("invalid_cards", "cards must be a list of card codes")
    mask = 0
    for t in texts:
        c = _CODES.get(t) if type(t) is str else None  # a code as the engine writes it
        if c is None:
            c = parse(t)
        if mask >> c & 1:
            raise InputError("invalid_cards", f"card {code(c)} is listed twice")
        mask |= 1 << c
    return mask


# _BYTE_CARDS[k][b]: the cards of the bits b of a mask's byte k (cards 8k to 8k+7)
_BYTE_CARDS: Final = [[tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256)] for k in range(7)]


def cards_of(mask: int) -> list[int]:
    """The cards of ``mask``, lowest first (a byte at a time: a hand or a deck is a few table look-ups)."""
    return _by_bytes(mask, _BYTE_CARDS)


def _by_bytes(mask: int, tables: list[list[tuple]]) -> list:
    """The entries of ``tables[k][b]`` for every nonzero byte ``b`` of ``mask`` (byte ``k``), lowest first."""
    out: list = []
    if not mask:
        return out
    k = ((mask & -mask).bit_length() - 1) >> 3
    mask >>= 8 * k
    while mask:
        b = mask & 0xFF
        if b:
            out += tables[k][b]
        mask >>= 8
        k += 1
    return out


_BYTE_CODES: Final = [[tuple(CODES[c] for c in cards if c < 54) for cards in row] for row in _BYTE_CARDS]


def codes(mask: int) -> list[str]:
    """The codes of a card set, lowest card first (a byte at a time, as ``cards_of``: a cache of every set asked
    for fills with the sets played and, emptied when full, cost more than it saved)."""
    return _by_bytes(mask, _BYTE_CODES)


# How many bits of i are set, for every i below 2**16. Compiled, ``int.bit_count()`` is a method call through the
# interpreter (mypyc has no primitive for it), several times dearer than four reads of this table; the engine and
# the bots count cards on every judged play.
BITS16: Final = bytes([i.bit_count() for i in range(1 << 16)])


def count(mask: int) -> int:
    """How many cards ``mask`` (a set of cards, seats or ranks; never negative) holds."""
    if mask >> 64:
        return mask.bit_count()
    return BITS16[mask & 0xFFFF] + BITS16[mask >> 16 & 0xFFFF] + BITS16[mask >> 32 & 0xFFFF] + BITS16[mask >> 48]


def deck(jokers: int) -> int:
    return NORMAL_MASK | (JOKERS_MASK if jokers == 2 else (1 << JOKER1) if jokers == 1 else 0)


def rank_mask(rank: int) -> int:
    return 0xF << (rank * 4)


def suit_names(suits: int) -> list[str]:
    return [SUITS[s] for s in range(4) if suits >> s & 1]


def parse_suits(names) -> int:
    bits = 0
    for n in names:
        bits |= 1 << SUITS.index(n)
    return bits


def parse_rank(text) -> int:
    if not isinstance(text, str):
        raise InputError("bad_move", f"a rank must be one of {', '.join(RANKS)} or JK, not {text!r}")
    t = text.strip().upper()
    if t == "10":
        t = "T"
    if t in ("JK", "JOKER"):
        return 13
    if len(t) != 1 or t not in RANKS:
        raise InputError("bad_move", f"{text!r} is not a rank: use one of {', '.join(RANKS)} or JK")
    return RANKS.index(t)


def rank_name(rank: int) -> str:
    return "JK" if rank == 13 else RANKS[rank]
