"""カード交換 (exchange): from the second deal, the low players give their strongest cards to the high ones."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final

from ..cards import codes, count, parse_many
from ..flow_events import DealQueue, Dealt, ExchangeCounts, Given, GiveProposed
from ..slots import MATCH, Slot
from ..state import Pending, replace, with_slot
from ..terms import Terms
from .base import Param, Rejection

ID: Final = "exchange"
NAME_JA = "カード交換"
NAME_EN = "card exchange"
SUMMARY = ("From the second deal on, the last player gives its N strongest cards to the first, who gives back N "
           "cards of its choice; second-last and second do the same with M (4+ players). Middle players never "
           "exchange. Among equally strong cards the giver chooses, unless auto_ties (tie_order: which suit first). "
           "keep_spade3: ♠3 is never part of the strongest-cards give; give_back: false: the higher player gives back "
           "only cards it held before the exchange.")
SUMMARY_JA = ("2回目から、最下位は一番強い札N枚を1位に渡し、1位は好きな札N枚を返す。"
              "下から2番目と2位はM枚（4人以上）。同じ強さの中では渡す人が選ぶ（auto_ties なら自動。"
              "tie_order が CDHS なら♣・♦・♥・♠の順に弱いマークから取る）。by_size なら人数の半分の組が交換し、"
              "枚数は外側から半分…1枚（6人: 3/2/1）。keep_spade3 なら♠3は一番強い札として渡さなくてよい（♠3を除いた"
              "中で一番強い札を渡す。他に札が足りなければ少なく渡す）。give_back が false なら、"
              "1位と2位は交換で受け取った札を返せず、交換の前から持っていた札から返す。")
PARAMS = {"top": Param(2, "cards between first and last (N)", lo=0, hi=5),
          "second": Param(1, "cards between second and second-last (M)", lo=0, hi=4),
          "auto_ties": Param(False, "the referee breaks ties among equally strong cards itself (UECda: "
                             "jokers, then the highest rank, suits S, H, D, C)"),
          "tie_order": Param("SHDC", "with auto_ties, which of equally strong cards the referee takes first: SHDC "
                             "(UECda: ♠, ♥, ♦, ♣) or CDHS (the lowest card by ♣ < ♦ < ♥ < ♠ first, as some tables "
                             "and qsona's exchange do)", choices=("SHDC", "CDHS")),
          "by_size": Param(False, "pairs by table size instead of top/second: ⌊players/2⌋ pairs, the i-th from the "
                           "ends exchanging ⌊players/2⌋−i+1 cards (3 players: 1; 4–5: 2/1; 6–7: 3/2/1; 8: 4/3/2/1)"),
          "keep_spade3": Param(False, "♠3 is never forced into the strongest-cards give: the lower player's strongest "
                               "are judged without it, so it stays in the hand (a hand short of other cards gives "
                               "fewer)"),
          "give_back": Param(True, "the higher player may give back a card it has just received in this exchange; "
                             "false: it gives back only cards it held before, as if both gave at once")}
SPADE3: Final = 1  # ♠3's bit (card 0)
# the cards exchanged in this deal, by pair from the ends (the new_deal hooks' ExchangeCounts, inflation's growth
# included), kept until the next deal's are worked out
COUNTS: Final[Slot[tuple]] = Slot("exchange_counts", (2, 1), MATCH, write=list, read=tuple, doc=(
    "exchange: the cards exchanged in this deal, by pair from the ends (inflation grows them)"))
STATE = (COUNTS,)
REACTS_TO = (Dealt, GiveProposed, Given)


@dataclass(init=False, unsafe_hash=True)
class Withheld(Terms):
    """The cards an exchange give may not include: ♠3 from the strongest (keep_spade3), the cards just received
    from the give back (give_back: false)."""
    ACTION: ClassVar[str] = "give"
    cards: int

    def __init__(self, cards: int) -> None:
        self.cards = cards

    def usable(self, cards: int) -> int:
        return cards & ~self.cards

    def json(self, p, viewer) -> dict:
        # they may be cards only the two seats of the give have seen: their count for everyone else
        return {"withheld": codes(self.cards) if viewer is None or viewer in (p.seat, p.to) else count(self.cards)}

    @classmethod
    def from_json(cls, obj: dict) -> Terms | None:
        """A seat's view shows another give's withheld cards as a count: read as none (a sampled table)."""
        value = obj.get("withheld")
        return withheld(parse_many(value)) if isinstance(value, list) else None


TERMS = (Withheld,)


def withheld(cards: int) -> Withheld | None:
    """The terms of a give withholding ``cards`` (None: it withholds nothing)."""
    return Withheld(cards) if cards else None


def withheld_by(p) -> int:
    """The cards the exchange decision ``p`` withholds."""
    return p.terms.cards if isinstance(p.terms, Withheld) else 0


def pairs(places, counts):
    """[(lower seat, higher seat, count)] for a deal whose previous places are ``places``: the i-th count is
    exchanged between the i-th places from the top and from the bottom (never a middle player with itself)."""
    n = len(places)
    by_place = {p: s for s, p in enumerate(places)}
    return [(by_place[n - i], by_place[i + 1], k) for i, k in enumerate(counts) if k and n >= 2 * (i + 1)]


def settings(params) -> dict:
    """auto_ties: the referee chooses among equally strong cards of this rule's strongest gives, taking them in
    the suit order of tie_order."""
    return {"breaks_ties": True, "tie_suits": params["tie_order"]} if params["auto_ties"] else {}


def new_deal(st, part, params):
    """The exchange counts, then the gives they make at the start of the deal."""
    if isinstance(part, ExchangeCounts):
        return ExchangeCounts(part.places, counts_for(part.places, params))
    if isinstance(part, DealQueue):
        return DealQueue(part.pending + gives(st, params))
    return part


def gives(st, params) -> tuple:
    """The gives at the start of a deal: each lower player's strongest cards first, then the returns."""
    first, back = [], []
    kept = SPADE3 if params["keep_spade3"] else 0
    for low, high, n in pairs(st.previous_places, st.slot(COUNTS)):
        first.append(Pending(low, "give", n, ID, to=high, strongest=True, terms=withheld(kept)))
        back.append(Pending(high, "give", n, ID, to=low))
    return tuple(first + back)


def _is_return(q, giver, to) -> bool:
    """Is ``q`` the higher player's give back to ``giver`` (it was made by ``to``, the receiver of a give)?"""
    return q.rule == ID and q.action == "give" and not q.strongest and q.seat == to and q.to == giver


def react(st, event: Dealt | GiveProposed | Given, params):
    """A new deal (Dealt): the state keeping its exchange counts. A give proposed (GiveProposed): why it may not
    include its cards, or None. A give made (Given): the state after it."""
    if isinstance(event, Dealt):
        return with_slot(st, COUNTS, event.counts)
    if isinstance(event, Given):
        return withhold_returned(st, event.pending, event.cards, params)
    return why_withheld(event.pending, event.cards)


def withhold_returned(st, p, cards, params):
    """give_back: false: cards handed to a higher player (the strongest, or a request's answer) are withheld from its
    give back to the same seat, still waiting in the queue."""
    if params["give_back"]:
        return st
    queue = st.pending
    for i, q in enumerate(queue):
        if _is_return(q, p.seat, p.to):
            q = q._replace(terms=withheld(withheld_by(q) | cards))
            return replace(st, pending=queue[:i] + (q,) + queue[i + 1:])
    return st


def why_withheld(p, cards):
    """Why a give of this rule may not include ``cards`` (a card it withholds), or None."""
    kept = cards & withheld_by(p)
    if p.rule != ID or not kept:
        return None
    if p.strongest:
        return Rejection("spade3_kept", f"♠3 is never part of the strongest-cards give (exchange.keep_spade3): give "
                         f"the {p.count} strongest cards without it", ID)
    return Rejection("given_back", f"{' '.join(codes(kept))} was received in this exchange and may not be given back "
                     "(exchange.give_back: false): give back cards held before the exchange", ID)


def counts_for(places, params) -> tuple:
    """The cards exchanged in the next deal, by pair from the ends: (N, M), or by table size."""
    if params["by_size"]:
        half = len(places) // 2
        return tuple(half - i for i in range(half))
    return (params["top"], params["second"])
