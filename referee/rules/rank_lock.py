"""激しば / 連番縛り (rank lock): a play one rank above the last locks the trick to rising ranks."""
from typing import ClassVar, Final

from ..cards import rank_name
from ..effects import Effect
from ..resolution import Resolution
from ..slots import TRICK, Slot
from ..view import PlayView
from .base import Param, Rejection

ID: Final = "rank_lock"
NAME_JA = "激しば (連番縛り)"
NAME_EN = "rank lock"
SUMMARY = ("When a play's rank is the next rank after the play it beats (in the order in force), every play until "
           "the flush must be the next rank again. Sequences compare their weakest card.")
SUMMARY_JA = ("前の札の次の数字（その時の強さの順で）を出すと、流れるまで次の数字を出し続けなければならない。"
              "階段は一番弱い札で比べる。")
PARAMS = {"second_play_only": Param(False, "only when it happens on the trick's second play (gekifugo)")}
DECLARABLE = True
RANK_LOCK: Final = Slot("locks.rank", False, TRICK, view=True, read=bool, lock=True,
                        words={"en": "rank", "ja": "数字"}, doc="a rank lock (plays must go up by one rank; rank_lock)")
STATE = (RANK_LOCK,)


class RankLock(Effect):
    """Every play until the flush must be the next rank."""
    ORDER: ClassVar[int] = 1
    KIND: ClassVar[str] = "rank_lock"

    def fold(self, res: Resolution) -> None:
        res.put(RANK_LOCK, True)


def successor(rank: int, reversed_order: bool) -> int:
    return rank - 1 if reversed_order else rank + 1


def legality(view: PlayView, params):
    f = view.field
    if not view.slot(RANK_LOCK) or view.reading.wild or view.special or f is None or f.wild:
        return None
    want = successor(f.lo, view.reversed)
    if view.reading.lo != want:
        name = rank_name(want) if 0 <= want <= 12 else "none (no rank follows)"
        return Rejection("locked", f"ranks are locked (rank_lock): the next play must be {name}", ID)
    return None


def after_play(view: PlayView, params):
    r, f = view.reading, view.field
    if r.wild:
        return []  # RULES.md §10.4: a joker on a rank lock keeps it until the flush
    if f is None or f.wild or view.special or view.slot(RANK_LOCK):
        return []
    if params["second_play_only"] and not view.second_play:
        return []
    return [RankLock(ID)] if r.lo == successor(f.lo, view.reversed) else []
