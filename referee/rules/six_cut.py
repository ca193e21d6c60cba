"""6切り (six cut, nanko): a play containing a 6 in reversed order flushes the field."""
from typing import Final

from ..effects import Cut
from ..view import PlayView

ID: Final = "six_cut"
NAME_JA = "6切り"
NAME_EN = "six cut"
SUMMARY = "In reversed order only (tested before the play's own effects), a play containing a 6 flushes the field."
SUMMARY_JA = "強さが逆のときだけ（手の効果より先に判定）、6を含む手で場が流れる。"
PARAMS: dict = {}
DECLARABLE = True
OPENS_CUT_BACK = True  # its cut can be cut back (cut_back)
RANK_CUT = True  # it cuts for a rank the play holds (forbidden_finish.cut)
SIX: Final = 3


def after_play(view: PlayView, params):
    return [Cut(ID)] if view.reversed and view.has_rank(SIX) else []
