"""縛り (suit lock): two consecutive plays with the same suit set lock the trick to that suit set."""
from typing import Final

from ..cards import suit_names
from ..effects import Lock, Unlock
from ..view import PlayView
from .base import Param, Rejection

ID: Final = "suit_lock"
SUITS_MATTER = True  # the suits jokers stand for change the outcome
NAME_JA = "縛り"
SUMMARY = ("When a play shows exactly the suits of the play it beats, every play until the flush must show that "
           "suit set (joker stand-ins count as the suit they stand for). A lone joker (or a set of jokers) may be "
           "played on it; the lock stays until the flush unless joker_ends.")
PARAMS = {"joker_ends": Param(False, "a lone joker (or a set of jokers) played on a locked field ends the lock "
                              "(UECda)")}
DECLARABLE = True


def legality(view: PlayView, params):
    st = view
    if st.lock_kind != "exact" or view.reading.wild or view.special:
        return None
    if view.reading.suits != st.lock_suits:
        return Rejection("locked", f"the suits are locked to {'+'.join(suit_names(st.lock_suits))} "
                         f"(suit_lock): this play shows {'+'.join(suit_names(view.reading.suits)) or 'no suit'}", ID)
    return None


def after_play(view: PlayView, params):
    st, r, f = view, view.reading, view.field
    if r.wild:
        return [Unlock(ID)] if st.lock_kind and params["joker_ends"] else []
    if f is None or f.wild or view.special or st.lock_kind == "exact" or not r.suits:
        return []
    if not view.standin_effects and (r.has_joker or f.has_joker):
        return []  # a joker's stand-in suit makes no lock (jokers.standin_effects)
    return [Lock(ID, r.suits, True)] if r.suits == f.suits else []
