"""カード交換 (exchange): from the second deal, the low players give their strongest cards to the high ones."""
from .base import Param

ID = "exchange"
NAME_JA = "カード交換"
SUMMARY = ("From the second deal on, the last player gives its N strongest cards to the first, who gives back N "
           "cards of its choice; second-last and second do the same with M (4+ players). Middle players never "
           "exchange. Among equally strong cards the giver chooses, unless auto_ties.")
PARAMS = {"top": Param(2, "cards between first and last (N)", lo=0, hi=5),
          "second": Param(1, "cards between second and second-last (M)", lo=0, hi=4),
          "auto_ties": Param(False, "the referee breaks ties among equally strong cards itself (UECda: "
                             "jokers, then the highest rank, suits S, H, D, C)")}


def pairs(places, counts):
    """[(lower seat, higher seat, count)] for a deal whose previous places are ``places``."""
    n = len(places)
    by_place = {p: s for s, p in enumerate(places)}
    out = []
    if n >= 2 and counts[0]:
        out.append((by_place[n], by_place[1], counts[0]))
    if n >= 4 and counts[1]:
        out.append((by_place[n - 1], by_place[2], counts[1]))
    return out
