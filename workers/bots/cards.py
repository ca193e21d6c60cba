"""Card helpers for the bots, working on the public card codes of a seat's view (the engine's card codes)."""
from __future__ import annotations

from typing import Final

from referee import build_ruleset, cards, state

RANKS = cards.RANKS
TOP: Final = 13  # a joker's strength: above every rank in either order


def is_joker(code: str) -> bool:
    return code.startswith("JK")


def _rank(code: str) -> int:
    return TOP if is_joker(code) else RANKS.index(code[1])


def strength_of(c: int, reversed_order: bool) -> int:
    """``strength`` of the card numbered ``c`` (referee.cards)."""
    return min(state.strength(c, reversed_order), TOP)


def _strength(code: str, reversed_order: bool) -> int:
    return strength_of(cards.parse(code), reversed_order)


# both read once per card code: the playouts of the mc bot score every legal move of every ply with them
_CODES = cards.codes(cards.deck(2))
_RANKS: Final = {c: _rank(c) for c in _CODES}
_STRENGTHS: Final = tuple({c: _strength(c, rev) for c in _CODES} for rev in (False, True))  # by order, by code


def rank(code: str) -> int:
    """0 for the 3 … 12 for the 2; 13 for a joker."""
    r = _RANKS.get(code)
    return _rank(code) if r is None else r


def strength(code: str, reversed_order: bool) -> int:
    """0 (weakest) … 12 (strongest rank) in the order given (the engine's ``state.strength``); jokers 13."""
    s = _STRENGTHS[1 if reversed_order else 0].get(code)
    return _strength(code, reversed_order) if s is None else s


def rules_deck(rules) -> list[str]:
    """Every card of a game under ``rules`` (a ruleset: the engine decides the jokers), as codes."""
    return cards.codes(cards.deck(rules.jokers))


def game_deck(view: dict) -> list[str]:
    """Every card of the game a view belongs to: the deck of its ruleset."""
    return rules_deck(build_ruleset(view["preset"], view["rules"]))
