"""The first lead of a match (RULES.md §3): the holder of a given card leads, maybe with a duty to play it."""
from collections.abc import Mapping
from typing import Final

from ..cards import code, parse
from ..flow_events import Leader
from ..view import PlayView
from .base import Param, Rejection

ID: Final = "first_card"
NAME_JA = "最初の札 (ダイヤの3)"
SUMMARY = ("In the first deal the holder of this card leads; with must_play its first play must contain it; with "
           "every_deal its holder after the exchange leads every deal.")
PARAMS = {"card": Param("D3", "the card whose holder leads the first deal",
                        choices=tuple(code(c) for c in range(52))),
          "must_play": Param(False, "the first play of the match must contain that card (gekifugo)"),
          "every_deal": Param(False, "the holder of that card after the exchange leads every deal, not only the "
                              "first (UECda); otherwise later deals are led by the last-placed player")}


def card(params) -> int:
    return parse(params["card"])


def new_deal(st, part, params):
    """The holder of the card leads the first deal (with every_deal every deal), if anyone is known to hold it."""
    if not isinstance(part, Leader) or not (part.first_deal or params["every_deal"]):
        return part
    c = card(params)
    return Leader(part.first_deal, next((p.seat for p in st.players if p.hand >> c & 1), None))


def settings(params) -> dict:
    """must_play, table mode: a first play by a seat whose hand is partly unknown cannot show it holds no first
    card (taken on trust)."""
    return {"first_play_on_trust": "first_card_holder"} if params["must_play"] else {}


def required_cards(st, seat, params) -> int:
    """The cards every play of ``seat`` must include now: the first card, on the match's first play, if the seat
    may hold it (what ``legality`` rejects a play without)."""
    if not (params["must_play"] and st.first_play):
        return 0
    c = card(params)
    return 0 if st.unheld(seat, 1 << c) else 1 << c


def legality(view: PlayView, params: Mapping):
    """The seat's plays must include the card while ``required_cards`` says so (it reads the seat's hand)."""
    required = view.required
    if not required:
        return None  # every play but the match's first (required_cards says which card)
    c = card(params)
    if required >> c & 1 and not view.reading.mask >> c & 1:
        return Rejection("must_include_first_card",
                         f"the first play of the match must include {code(c)} (first_card)", ID)
    return None
