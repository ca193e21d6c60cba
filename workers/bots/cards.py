"""Card helpers for the bots, working on the public card codes of a seat's view (the engine's card codes)."""
from __future__ import annotations

from referee import build_ruleset, cards, state

RANKS = cards.RANKS
TOP = 13  # a joker's strength: above every rank in either order


def is_joker(code: str) -> bool:
    return code.startswith("JK")


def rank(code: str) -> int:
    """0 for the 3 … 12 for the 2; 13 for a joker."""
    return TOP if is_joker(code) else RANKS.index(code[1])


def strength(code: str, reversed_order: bool) -> int:
    """0 (weakest) … 12 (strongest rank) in the order given (the engine's ``state.strength``); jokers 13."""
    return min(state.strength(cards.parse(code), reversed_order), TOP)


def game_deck(view: dict) -> list[str]:
    """Every card of the game a view belongs to: the deck of its ruleset (the engine decides the jokers)."""
    return cards.codes(cards.deck(build_ruleset(view["preset"], view["rules"]).jokers))
