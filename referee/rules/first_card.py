"""The first lead of a match (RULES.md §3): the holder of a given card leads, maybe with a duty to play it: on the
match's first play, or with ``must_play_every_deal`` on every deal's (qsona's and wecraw's tables have the ♦3's holder
lead every deal, ``every_deal``; the duty to include it, 「最初はダイヤの3を含む手を出す」, is the variant qsona names
and leaves out)."""
from collections.abc import Mapping
from typing import Final

from ..cards import code, parse
from ..flow_events import Leader
from ..view import PlayView
from .base import Param, Rejection

ID: Final = "first_card"
NAME_JA = "最初の札 (ダイヤの3)"
NAME_EN = "first card"
SUMMARY = ("In the first deal the holder of this card leads; with must_play its first play must contain it; with "
           "every_deal its holder after the exchange leads every deal; with must_play_every_deal the first play of "
           "every deal must contain it when its player holds it.")
SUMMARY_JA = ("最初の回はこの札を持つ人が親。must_play ならその札を含めて出す必要がある。every_deal なら毎回、"
              "交換後にこの札を持つ人が親。must_play_every_deal なら毎回、"
              "最初の手を出す人がこの札を持っていればその札を含めて出す必要がある。")
PARAMS = {"card": Param("D3", "the card whose holder leads the first deal",
                        choices=tuple(code(c) for c in range(52))),
          "must_play": Param(False, "the first play of the match must contain that card (gekifugo)"),
          "every_deal": Param(False, "the holder of that card after the exchange leads every deal, not only the "
                              "first (UECda); otherwise later deals are led by the last-placed player"),
          "must_play_every_deal": Param(False, "the first play of every deal, not only the match's, must contain that "
                                        "card when its player holds it (with every_deal its holder leads every deal, "
                                        "so the lead must play it)")}


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
    card (taken on trust). must_play_every_deal: every deal's first play is a first play (State.first_play). With
    no duty its play hooks are idle (every play would pay for a call that says nothing)."""
    if not (params["must_play"] or params["must_play_every_deal"]):
        return {"idle_hooks": ("legality", "required_cards")}  # no duty: nothing to ask of any play
    out: dict = {"first_play_on_trust": "first_card_holder"}
    if params["must_play_every_deal"]:
        out["first_play_every_deal"] = True
    return out


def required_cards(st, seat, params) -> int:
    """The cards every play of ``seat`` must include now: the first card, on the match's first play, if the seat
    may hold it (what ``legality`` rejects a play without); with must_play_every_deal, on a later deal's first play
    too, if the seat is known to hold it (the last-placed player who leads a later deal seldom does, and in table
    mode nobody is known to: the referee binds no seat that may not hold it)."""
    if not st.first_play:
        return 0
    c = card(params)
    if st.previous_places:  # a later deal
        return 1 << c if params["must_play_every_deal"] and st.hand(seat) >> c & 1 else 0
    if not (params["must_play"] or params["must_play_every_deal"]):
        return 0
    return 0 if st.unheld(seat, 1 << c) else 1 << c


def legality(view: PlayView, params: Mapping):
    """The seat's plays must include the card while ``required_cards`` says so (it reads the seat's hand)."""
    required = view.required
    if not required:
        return None  # every play but a first one (required_cards says which card)
    c = card(params)
    if required >> c & 1 and not view.reading.mask >> c & 1:
        which = "every deal" if params["must_play_every_deal"] else "the match"
        return Rejection("must_include_first_card", f"the first play of {which} must include {code(c)} (first_card)",
                         ID)
    return None
