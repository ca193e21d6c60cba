"""片縛り (partial suit lock, gekifugo): consecutive multi-card plays sharing a suit lock that suit."""
from typing import Final

from ..cards import suit_names
from ..view import PlayView
from .base import Rejection
from .suit_lock import LOCK_KIND, LOCK_SUITS, Lock

ID: Final = "partial_suit_lock"
NAME_JA = "片縛り"
NAME_EN = "partial suit lock"
SUMMARY = ("When a multi-card play shares at least one suit with the multi-card play it beats, every play until "
           "the flush must contain the shared suits.")
SUMMARY_JA = ("複数枚の手が前の複数枚の手と1つ以上マークを共有すると、"
              "流れるまでその共通マークを含めて出さなければならない。")
PARAMS: dict = {}
DECLARABLE = True


def legality(view: PlayView, params):
    if view.slot(LOCK_KIND) != "partial" or view.reading.wild or view.special:
        return None
    suits = view.slot(LOCK_SUITS)
    if view.reading.suits & suits != suits:
        return Rejection("locked", f"plays must contain {'+'.join(suit_names(suits))} until the flush "
                         "(partial_suit_lock)", ID)
    return None


def after_play(view: PlayView, params):
    r, f, kind = view.reading, view.field, view.slot(LOCK_KIND)
    if f is None or f.wild or r.wild or view.special or r.n < 2 or f.n < 2 or kind == "exact":
        return []
    if not view.standin_effects and (r.has_joker or f.has_joker):
        return []  # a joker's stand-in suit makes no lock (jokers.standin_effects)
    shared = r.suits & f.suits
    if not shared or (kind == "partial" and shared == view.slot(LOCK_SUITS)):
        return []
    return [Lock(ID, shared, False)]
