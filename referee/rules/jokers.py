"""Jokers in the deck (RULES.md §1): 0, 1 or 2 added to the 52 cards."""
from typing import Final

from .base import Param

ID: Final = "jokers"
NAME_JA = "ジョーカー"
SUMMARY = "How many jokers the deck holds. A lone joker beats every single; with other cards it stands in for a card."
PARAMS = {"count": Param(2, "jokers in the deck", lo=0, hi=2)}


def settings(params) -> dict:
    return {"jokers": params["count"]}
