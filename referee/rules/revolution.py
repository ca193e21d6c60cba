"""革命 (revolution): 4+ cards in one play reverse the order; a second one restores it (革命返し)."""
from typing import Final

from ..effects import Revolution
from ..shapes import PLAIN_SHAPES
from ..view import PlayView
from .base import Param

ID: Final = "revolution"
NAME_JA = "革命"
SUMMARY = "A play of enough cards toggles the order of strength (jokers stay strongest) until another revolution."
PARAMS = {"min_group": Param(4, "fewest cards for a revolution by a group", lo=2, hi=8),
          "min_stairs": Param(4, "fewest cards for a revolution by a sequence (UECda: 5)", lo=3, hi=13),
          "by_stairs": Param(True, "sequences make a revolution too (false: groups only)")}
DECLARABLE = True
NEVER: Final = 99  # more cards than any play holds
ALIAS = "counter_revolution"  # 革命返し: while a revolution holds, declaring it declares this rule


def alias_applies(table) -> bool:
    """Declaring counter_revolution declares this rule while a revolution holds (``table``: a Table)."""
    return table.revolution


def needed(revolution_min: int, shape: str, params) -> int:
    """Fewest cards of ``shape`` that make a revolution (more than any play holds: none does)."""
    if shape in PLAIN_SHAPES:
        base = params["min_group"]
    else:
        base = params["min_stairs"] if params["by_stairs"] else NEVER
    return max(base, revolution_min)


def after_play(view: PlayView, params):
    if view.special or view.reading.n < needed(view.revolution_min, view.reading.shape, params):
        return []
    return [Revolution(ID)]


def raising(view: PlayView, rule_id: str, minimum: int):
    """great_revolution / nuclear_bomb: a revolution of ``minimum``+ cards that raises the threshold to it."""
    n = view.reading.n
    if view.special or n < minimum or n < view.revolution_min:
        return []
    return [Revolution(rule_id, threshold=minimum)]
