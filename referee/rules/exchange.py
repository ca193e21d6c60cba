"""カード交換 (exchange): from the second deal, the low players give their strongest cards to the high ones."""
from typing import Final

from ..state import Pending
from .base import Param

ID: Final = "exchange"
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


def breaks_ties(params) -> bool:
    """Does the referee choose among equally strong cards of this rule's strongest gives?"""
    return params["auto_ties"]


def deal_queue(st, queue, params) -> tuple:
    """The gives at the start of a deal: each lower player's strongest cards first, then the returns."""
    first, back = [], []
    for low, high, n in pairs(st.previous_places, st.exchange_counts):
        first.append(Pending(low, "give", n, ID, to=high, strongest=True))
        back.append(Pending(high, "give", n, ID, to=low))
    return queue + tuple(first + back)


def exchange_counts(st, places, counts, params) -> tuple:
    """The cards exchanged in the next deal (N, M)."""
    return (params["top"], params["second"])
