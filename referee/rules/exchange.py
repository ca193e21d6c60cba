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
                             "jokers, then the highest rank, suits S, H, D, C)"),
          "by_size": Param(False, "pairs by table size instead of top/second: ⌊players/2⌋ pairs, the i-th from the "
                           "ends exchanging ⌊players/2⌋−i+1 cards (3 players: 1; 4–5: 2/1; 6–7: 3/2/1; 8: 4/3/2/1)")}


def pairs(places, counts):
    """[(lower seat, higher seat, count)] for a deal whose previous places are ``places``: the i-th count is
    exchanged between the i-th places from the top and from the bottom (never a middle player with itself)."""
    n = len(places)
    by_place = {p: s for s, p in enumerate(places)}
    return [(by_place[n - i], by_place[i + 1], k) for i, k in enumerate(counts) if k and n >= 2 * (i + 1)]


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
    """The cards exchanged in the next deal, by pair from the ends: (N, M), or by table size."""
    if params["by_size"]:
        half = len(places) // 2
        return tuple(half - i for i in range(half))
    return (params["top"], params["second"])
