"""9リバース (nine reverse): a play containing a 9 flips the direction of play."""
from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from ..effects import Reverse
from ..slots import DIRECTION, TRICK, Slot
from ..view import PlayView
from .base import Param

if TYPE_CHECKING:
    from ..resolution import Resolution

ID: Final = "nine_reverse"
NAME_JA = "9リバース"
NAME_EN = "nine reverse"
SUMMARY = "A play containing a 9 flips the direction of play (gekifugo: until the field flushes; nanko: for good)."
SUMMARY_JA = "9を含む手で回る向きが逆になる（激富豪：流れるまで、ナンコ：ずっと）。"
PARAMS = {"scope": Param("deal", "trick: the direction comes back when the field flushes (gekifugo); "
                         "deal: it stays (nanko)", choices=("trick", "deal"))}
DECLARABLE = True
NINE: Final = 6
# the direction is turned until the field flushes (scope trick); the core turns it back then
TRICK_REVERSED: Final = Slot("trick_reversed", False, TRICK, read=bool, turns=DIRECTION,
                               doc="nine_reverse (scope trick): the direction is turned until the flush")
STATE = (TRICK_REVERSED,)


class TrickReverse(Reverse):
    """A reverse that lasts until the field flushes."""
    KIND: ClassVar[str] = "reverse"

    def fold(self, res: Resolution) -> None:
        res.direction = -res.direction
        res.put(TRICK_REVERSED, not res.get(TRICK_REVERSED))


def after_play(view: PlayView, params):
    if not view.has_rank(NINE):
        return []
    return [TrickReverse(ID) if params["scope"] == "trick" else Reverse(ID)]
