"""9切り (nine cut): two or more 9s in one play flush the field; the same player leads. Not 9リバース: a lone 9
cuts nothing here, and with both rules on a pair of 9s flips the direction and cuts."""
from typing import Final

from ..effects import Cut
from ..view import PlayView
from .base import Param

ID: Final = "nine_cut"
NAME_JA = "9切り"
NAME_EN = "nine cut"
SUMMARY = "A play holding at least two 9s (jokers standing in count) flushes the field and its player leads again."
SUMMARY_JA = "9を2枚以上（count）含む手で場が流れ、出した人がもう一度親になる。ジョーカーの代用も数える。"
PARAMS = {"count": Param(2, "fewest 9s that cut", lo=1, hi=4)}
DECLARABLE = True
OPENS_CUT_BACK = True  # its cut can be cut back (cut_back), as an 8-cut's
RANK_CUT = True  # it cuts for a rank the play holds (forbidden_finish.cut)
NINE: Final = 6


def after_play(view: PlayView, params):
    return [Cut(ID)] if view.rank_count(NINE) >= params["count"] else []
