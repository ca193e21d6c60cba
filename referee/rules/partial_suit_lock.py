"""片縛り (partial suit lock, gekifugo): consecutive multi-card plays sharing a suit lock that suit."""
from typing import Final

from ..cards import suit_names
from ..effects import Lock
from .base import PlayContext, Rejection

ID: Final = "partial_suit_lock"
SUITS_MATTER = True  # the suits jokers stand for change the outcome
NAME_JA = "片縛り"
SUMMARY = ("When a multi-card play shares at least one suit with the multi-card play it beats, every play until "
           "the flush must contain the shared suits.")
PARAMS: dict = {}
DECLARABLE = True


def legality(ctx: PlayContext, params):
    st = ctx.state
    if st.lock_kind != "partial" or ctx.reading.wild or ctx.special:
        return None
    if ctx.reading.suits & st.lock_suits != st.lock_suits:
        return Rejection("locked", f"plays must contain {'+'.join(suit_names(st.lock_suits))} until the flush "
                         "(partial_suit_lock)", ID)
    return None


def after_play(ctx: PlayContext, params):
    st, r, f = ctx.state, ctx.reading, ctx.field
    if f is None or f.wild or r.wild or ctx.special or r.n < 2 or f.n < 2 or st.lock_kind == "exact":
        return []
    shared = r.suits & f.suits
    if not shared or (st.lock_kind == "partial" and shared == st.lock_suits):
        return []
    return [Lock(ID, shared, False)]
