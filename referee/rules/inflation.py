"""インフレーション (inflation, gekifugo): identical standings twice in a row grow the exchange by one card."""
from .base import Param

ID = "inflation"
NAME_JA = "インフレーション"
SUMMARY = ("If a deal's final ranking equals the previous deal's exactly, both exchange counts grow by 1 (caps "
           "5 and 4); any change of ranking resets them.")
PARAMS = {"max_top": Param(5, "cap of N", lo=1, hi=8), "max_second": Param(4, "cap of M", lo=1, hi=8)}


def next_counts(same_ranking: bool, counts, base, params):
    if not same_ranking:
        return tuple(base)
    return (min(counts[0] + 1, params["max_top"]), min(counts[1] + 1, params["max_second"]))
