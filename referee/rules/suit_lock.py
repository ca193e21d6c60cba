"""縛り (suit lock): two consecutive plays with the same suit set lock the trick to that suit set."""
from dataclasses import dataclass
from typing import ClassVar, Final

from ..cards import SUITS, parse_suits, suit_names
from ..effects import Effect
from ..resolution import Resolution
from ..slots import TRICK, Slot
from ..view import PlayView
from .base import Param, Rejection

ID: Final = "suit_lock"
NAME_JA = "縛り"
NAME_EN = "suit lock"
SUMMARY = ("When a play shows exactly the suits of the play it beats, every play until the flush must show that "
           "suit set (joker stand-ins count as the suit they stand for). A lone joker (or a set of jokers) may be "
           "played on it; the lock stays until the flush unless joker_ends.")
SUMMARY_JA = ("前の札とマークの組が同じなら、流れるまでそのマークの組で出さなければならない（ジョーカーは代わりのマ"
              "ークとして数える）。ジョーカー単体は出せる。joker_ends なら縛りが解ける。")
PARAMS = {"joker_ends": Param(False, "a lone joker (or a set of jokers) played on a locked field ends the lock "
                              "(UECda)")}
DECLARABLE = True
# the suit locks' state, shared with partial_suit_lock (片縛り): the suits and the kind, "exact" or "partial"; the
# page says the kind by its rule's name (縛り / 片縛り), never the engine's word
LOCK_SUITS: Final = Slot("locks.suits", 0, TRICK, view=True, write=suit_names, read=parse_suits, lock=True,
                         words={"en": "suits {suits}", "ja": "マーク {suits}"},
                         schema={"type": "array", "items": {"type": "string", "enum": list(SUITS)}},
                         doc="the locked suits (suit_lock, partial_suit_lock)")
_KIND_WORDS: Final = {"exact": "{rule}", "partial": "{rule:partial_suit_lock}"}
LOCK_KIND: Final[Slot[str | None]] = Slot(
    "locks.kind", None, TRICK, view=True, lock=True, words={"en": _KIND_WORDS, "ja": _KIND_WORDS},
    schema={"type": ["string", "null"], "enum": [*_KIND_WORDS, None]},
    doc="exact: suit_lock (plays show exactly those suits); partial: partial_suit_lock (plays contain them)")
STATE = (LOCK_SUITS, LOCK_KIND)


@dataclass(init=False, unsafe_hash=True)
class Lock(Effect):
    """The trick is locked to ``suits``: exactly (suit_lock) or as suits every play must contain (partial)."""
    ORDER: ClassVar[int] = 1
    KIND: ClassVar[str] = "lock"
    suits: int
    exact: bool

    def __init__(self, rule: str, suits: int, exact: bool) -> None:
        self.rule, self.suits, self.exact = rule, suits, exact

    def fold(self, res: Resolution) -> None:
        # an exact lock beats a partial one, whichever comes first
        if self.exact or res.get(LOCK_KIND) != "exact":
            res.put(LOCK_SUITS, self.suits)
            res.put(LOCK_KIND, "exact" if self.exact else "partial")


class Unlock(Effect):
    """The suit lock ends."""
    ORDER: ClassVar[int] = 1
    KIND: ClassVar[str] = "unlock"
    QUIET: ClassVar[bool] = True

    def fold(self, res: Resolution) -> None:
        res.put(LOCK_SUITS, 0)
        res.put(LOCK_KIND, None)


def legality(view: PlayView, params):
    if view.slot(LOCK_KIND) != "exact" or view.reading.wild or view.special:
        return None
    suits = view.slot(LOCK_SUITS)
    if view.reading.suits != suits:
        return Rejection("locked", f"the suits are locked to {'+'.join(suit_names(suits))} "
                         f"(suit_lock): this play shows {'+'.join(suit_names(view.reading.suits)) or 'no suit'}", ID)
    return None


def after_play(view: PlayView, params):
    r, f, kind = view.reading, view.field, view.slot(LOCK_KIND)
    if r.wild:
        return [Unlock(ID)] if kind and params["joker_ends"] else []
    if f is None or f.wild or view.special or kind == "exact" or not r.suits:
        return []
    if not view.standin_effects and (r.has_joker or f.has_joker):
        return []  # a joker's stand-in suit makes no lock (jokers.standin_effects)
    return [Lock(ID, r.suits, True)] if r.suits == f.suits else []
