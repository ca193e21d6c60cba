"""Card helpers for the bots, working on the public card codes of a seat's view (the engine's card codes)."""
from __future__ import annotations

from referee import cards

RANKS = cards.RANKS
TOP = 13  # a joker's strength: above every rank in either order


def is_joker(code: str) -> bool:
    return code.startswith("JK")


def rank(code: str) -> int:
    """0 for the 3 … 12 for the 2; 13 for a joker."""
    return TOP if is_joker(code) else RANKS.index(code[1])


def strength(code: str, reversed_order: bool) -> int:
    """0 (weakest) … 12 (strongest rank) in the order given; jokers 13."""
    r = rank(code)
    if r == TOP:
        return TOP
    return 12 - r if reversed_order else r


def deck(jokers: int) -> list[str]:
    return cards.codes(cards.deck(jokers))
