"""革命 (revolution): 4+ cards in one play reverse the order; a second one restores it (革命返し)."""
from dataclasses import dataclass
from typing import ClassVar, Final

from ..effects import Effect, Revolution
from ..resolution import Resolution
from ..shapes import PLAIN_SHAPES
from ..slots import DEAL, Slot
from ..view import PlayView
from .base import Param

ID: Final = "revolution"
NAME_JA = "革命"
NAME_EN = "revolution"
SUMMARY = "A play of enough cards toggles the order of strength (jokers stay strongest) until another revolution."
SUMMARY_JA = ("規定枚数以上の手で強さの順が逆転する（ジョーカーは最強のまま）。次の革命まで続く。"
              "by_stairs が false なら階段では革命にならない。")
PARAMS = {"min_group": Param(4, "fewest cards for a revolution by a group", lo=2, hi=8),
          "min_stairs": Param(4, "fewest cards for a revolution by a sequence (UECda: 5)", lo=3, hi=13),
          "by_stairs": Param(True, "sequences make a revolution too (false: groups only)")}
DECLARABLE = True
NEVER: Final = 99  # more cards than any play holds
ALIAS = "counter_revolution"  # 革命返し: declaring it declares this rule while ALIAS_WHILE holds
ALIAS_WHILE = "revolution"  # the Table value that must hold: a revolution
# fewest cards of any revolution from now on (raised by great_revolution / nuclear_bomb)
REVOLUTION_MIN: Final = Slot("revolution_min", 0, DEAL, view=True, read=int, doc=(
    "revolution: the fewest cards of any revolution from now on (raised by great_revolution, nuclear_bomb; 0: the "
    "rule's own)"))
STATE = (REVOLUTION_MIN,)


@dataclass(init=False, unsafe_hash=True)
class RaiseThreshold(Effect):
    """From now on a revolution needs ``threshold`` cards (the highest of one play's thresholds holds)."""
    ORDER: ClassVar[int] = 2
    KIND: ClassVar[str] = "revolution"
    threshold: int

    def __init__(self, rule: str, threshold: int) -> None:
        self.rule, self.threshold = rule, threshold

    def fold(self, res: Resolution) -> None:
        if self.threshold > res.get(REVOLUTION_MIN):
            res.put(REVOLUTION_MIN, self.threshold)


def needed(shape: str, params) -> int:
    """Fewest cards of ``shape`` that make a revolution by this rule's parameters (more than any play holds:
    none does); a raised threshold (REVOLUTION_MIN) may ask for more."""
    if shape in PLAIN_SHAPES:
        return params["min_group"]
    return params["min_stairs"] if params["by_stairs"] else NEVER


def after_play(view: PlayView, params):
    n = view.reading.n
    if view.special or n < needed(view.reading.shape, params) or n < view.slot(REVOLUTION_MIN):
        return []
    return [Revolution(ID)]


def raising(view: PlayView, rule_id: str, minimum: int):
    """great_revolution / nuclear_bomb: a revolution of ``minimum``+ cards that raises the threshold to it."""
    n = view.reading.n
    if view.special or n < minimum or n < view.slot(REVOLUTION_MIN):
        return []
    return [Revolution(rule_id), RaiseThreshold(rule_id, minimum)]
