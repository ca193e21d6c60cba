"""インフレーション (inflation, gekifugo): identical standings twice in a row grow the exchange by one card."""
from typing import Final

from .base import Param

ID: Final = "inflation"
NAME_JA = "インフレーション"
SUMMARY = ("If a deal's final ranking equals the previous deal's exactly, both exchange counts grow by 1 (caps "
           "5 and 4); any change of ranking resets them.")
PARAMS = {"max_top": Param(5, "cap of N", lo=1, hi=8), "max_second": Param(4, "cap of M", lo=1, hi=8)}


def exchange_counts(st, places, counts, params) -> tuple:
    """The previous deal's counts grown by one when ``places`` repeat its standings, else ``counts`` (the base)."""
    if not st.previous_places or places != st.previous_places:
        return counts
    return tuple(min(k + 1, params["max_top"] if i == 0 else params["max_second"])
                 for i, k in enumerate(st.exchange_counts))
