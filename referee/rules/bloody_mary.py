"""ブラッディ・メアリー (Bloody Mary, nanko): exactly three Qs make every other player discard its 2 strongest."""
from typing import Final

from ..effects import BloodyMary
from ..view import PlayView
from .base import Param

ID: Final = "bloody_mary"
NAME_JA = "ブラッディ・メアリー"
NAME_EN = "Bloody Mary"
SUMMARY = ("Exactly three Qs: every other active player discards its 2 strongest cards (order in force before "
           "the play; the player chooses among equally strong cards).")
SUMMARY_JA = "Qをちょうど3枚：他の全員が一番強い札を2枚捨てる（同じ強さの中では本人が選ぶ）。"
PARAMS = {"count": Param(2, "cards each other player discards", lo=1, hi=5)}
DECLARABLE = True
QUEEN: Final = 9


def after_play(view: PlayView, params):
    r = view.reading
    if r.n == 3 and view.rank_count(QUEEN) == 3:
        return [BloodyMary(ID, params["count"])]
    return []
