"""8切り (eight cut): a play containing an 8 flushes the field; the same player leads."""
from typing import Final

from ..effects import Cut
from .base import Param, PlayContext

ID: Final = "eight_cut"
PLAY_ONLY = True  # after_play reads only the play, the order in force and the revolution threshold
NAME_JA = "8切り"
SUMMARY = "Any play containing an 8 (stairs through 8 too) flushes the field and its player leads again."
PARAMS = {"normal_only": Param(False, "only while the order is normal (nanko)")}
DECLARABLE = True
OPENS_CUT_BACK = True  # its cut can be cut back (cut_back)
RANK_CUT = True  # it cuts for a rank the play holds (forbidden_finish.cut)
EIGHT: Final = 5
FIRES_ON_RANK: Final = EIGHT  # after_play fires only on a play that reads this rank (play._fired)


def after_play(ctx: PlayContext, params):
    if ctx.reading.has_rank(EIGHT) and not (params["normal_only"] and ctx.reversed):
        return [Cut(ID)]
    return []
