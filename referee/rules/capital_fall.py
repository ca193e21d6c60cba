"""都落ち (capital fall, gekifugo): if anyone but the previous top finishes first, the top falls to last."""
from typing import Final

from ..cards import codes
from ..flow_events import Finished
from ..state import replace
from .base import Param

ID: Final = "capital_fall"
NAME_JA = "都落ち"
NAME_EN = "capital fall"
SUMMARY = ("From the second deal: if a player other than the previous deal's top finishes first, the previous top "
           "is ranked last at once and its cards are discarded; the deal goes on without it.")
SUMMARY_JA = ("2回目から：前回の大富豪以外が1位で上がると、前回の大富豪はすぐ最下位になり手札は捨てられる。"
              "trigger が bottom なら前回の大貧民が1位のときだけ。")
PARAMS = {"trigger": Param("anyone", "who finishing first makes the top fall: anyone but the top (gekifugo), or "
                           "only the previous deal's bottom", choices=("anyone", "bottom"))}
REACTS_TO = (Finished,)
ON_FINISH_ORDER = 1


def react(st, event: Finished, params):
    """Someone other than the previous top went out first: the top falls to the last free place."""
    top = fallen(st.previous_places, event.seat, params["trigger"]) if event.place == 1 else None
    if top is None or not st.active(top):
        return st
    hand, unseen = st.hand(top), st.players[top].unknown
    last = st.free_places()[-1]
    st = st.with_player(top, hand=0, unknown=0, place=last)
    event.log.append({"kind": "capital_fall", "seat": top, "place": last, "cards": codes(hand), "rule": ID})
    return replace(st, discard=st.discard | hand, finish_order=st.finish_order + (top,),
                   hidden_discards=st.hidden_discards + unseen)


def fallen(previous_places, first_seat, trigger="anyone"):
    """The seat that falls when ``first_seat`` takes first place, or None (``trigger`` "bottom": only when
    ``first_seat`` was last in the previous deal)."""
    if not previous_places or None in previous_places:
        return None
    top = previous_places.index(1)
    if top == first_seat or trigger == "bottom" and previous_places[first_seat] != len(previous_places):
        return None
    return top


def narrate(entry, seat_name, cards_text) -> str:
    return (f"capital fall (都落ち): {seat_name(entry.get('seat'))} drops to place {entry.get('place')}, "
            f"cards out: {cards_text(entry.get('cards'))}")
