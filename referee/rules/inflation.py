"""インフレーション (inflation, gekifugo): identical standings twice in a row grow the exchange by one card."""
from typing import Final

from ..flow_events import ExchangeCounts
from .base import Param
from .exchange import COUNTS

ID: Final = "inflation"
NAME_JA = "インフレーション"
NAME_EN = "inflation"
SUMMARY = ("If a deal's final ranking equals the previous deal's exactly, both exchange counts grow by 1 (caps "
           "5 and 4); any change of ranking resets them.")
SUMMARY_JA = ("ある回の最終順位が前回と全く同じなら、交換枚数が両方1枚ずつ増える（上限5と4）。"
              "順位が変われば元に戻る。")
PARAMS = {"max_top": Param(5, "cap of N", lo=1, hi=8), "max_second": Param(4, "cap of M", lo=1, hi=8)}


def new_deal(st, part, params):
    """The exchange counts: the deal just over's (exchange's slot) grown by one when its places repeat the
    standings of the deal before, else those worked out before (the base)."""
    if not isinstance(part, ExchangeCounts) or not st.previous_places or part.places != st.previous_places:
        return part
    return ExchangeCounts(part.places, tuple(min(k + 1, params["max_top"] if i == 0 else params["max_second"])
                                             for i, k in enumerate(st.slot(COUNTS))))
