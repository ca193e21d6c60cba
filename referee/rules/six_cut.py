"""6切り (six cut, nanko): a play containing a 6 in reversed order flushes the field."""
from typing import Final

from ..effects import Cut
from .base import PlayContext

ID: Final = "six_cut"
PLAY_ONLY = True  # after_play reads only the play, the order in force and the revolution threshold
NAME_JA = "6切り"
SUMMARY = "In reversed order only (tested before the play's own effects), a play containing a 6 flushes the field."
PARAMS: dict = {}
DECLARABLE = True
OPENS_CUT_BACK = True  # its cut can be cut back (cut_back)
RANK_CUT = True  # it cuts for a rank the play holds (forbidden_finish.cut)
SIX: Final = 3
FIRES_ON_RANK: Final = SIX  # after_play fires only on a play that reads this rank (play._fired)


def after_play(ctx: PlayContext, params):
    return [Cut(ID)] if ctx.reversed and ctx.reading.has_rank(SIX) else []
