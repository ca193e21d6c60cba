"""8切り (eight cut): a play containing an 8 flushes the field; the same player leads."""
from typing import Final

from ..effects import Cut
from ..view import PlayView
from .base import Param

ID: Final = "eight_cut"
NAME_JA = "8切り"
NAME_EN = "eight cut"
SUMMARY = "Any play containing an 8 (stairs through 8 too) flushes the field and its player leads again."
SUMMARY_JA = "8を含む手（8を通る階段も）で場が流れ、出した人がもう一度親になる。"
PARAMS = {"normal_only": Param(False, "only while the order is normal (nanko)")}
DECLARABLE = True
OPENS_CUT_BACK = True  # its cut can be cut back (cut_back)
RANK_CUT = True  # it cuts for a rank the play holds (forbidden_finish.cut)
EIGHT: Final = 5


def after_play(view: PlayView, params):
    if view.has_rank(EIGHT) and not (params["normal_only"] and view.reversed):
        return [Cut(ID)]
    return []
