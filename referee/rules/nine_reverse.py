"""9リバース (nine reverse): a play containing a 9 flips the direction of play."""
from typing import Final

from ..effects import Reverse
from .base import Param, PlayContext

ID: Final = "nine_reverse"
PLAY_ONLY = True  # after_play reads only the play, the order in force and the revolution threshold
NAME_JA = "9リバース"
SUMMARY = "A play containing a 9 flips the direction of play (gekifugo: until the field flushes; nanko: for good)."
PARAMS = {"scope": Param("deal", "trick: the direction comes back when the field flushes (gekifugo); "
                         "deal: it stays (nanko)", choices=("trick", "deal"))}
DECLARABLE = True
NINE: Final = 6
FIRES_ON_RANK: Final = NINE  # after_play fires only on a play that reads this rank (play._fired)


def after_play(ctx: PlayContext, params):
    return [Reverse(ID, trick=params["scope"] == "trick")] if ctx.reading.has_rank(NINE) else []
