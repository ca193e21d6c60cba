"""Jokers in the deck (RULES.md §1): 0, 1 or 2 added to the 52 cards."""
from typing import Final

from .base import Param

ID: Final = "jokers"
NAME_JA = "ジョーカー"
SUMMARY = "How many jokers the deck holds. A lone joker beats every single; with other cards it stands in for a card."
PARAMS = {"count": Param(2, "jokers in the deck", lo=0, hi=2),
          "standin_effects": Param(True, "a joker standing in for a rank fires that rank's effects (8-cut, jack back, "
                                   "10-discard, 7-pass, 9-reverse, 5-skip, …) and counts for a new suit lock; false: "
                                   "only real cards do")}


def settings(params) -> dict:
    return {"jokers": params["count"], "standin_effects": params["standin_effects"]}
