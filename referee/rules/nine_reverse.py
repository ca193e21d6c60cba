"""9リバース (nine reverse): a play containing a 9 flips the direction of play."""
from typing import Final

from ..effects import Reverse
from ..view import PlayView
from .base import Param

ID: Final = "nine_reverse"
NAME_JA = "9リバース"
SUMMARY = "A play containing a 9 flips the direction of play (gekifugo: until the field flushes; nanko: for good)."
PARAMS = {"scope": Param("deal", "trick: the direction comes back when the field flushes (gekifugo); "
                         "deal: it stays (nanko)", choices=("trick", "deal"))}
DECLARABLE = True
NINE: Final = 6


def after_play(view: PlayView, params):
    return [Reverse(ID, trick=params["scope"] == "trick")] if view.has_rank(NINE) else []
