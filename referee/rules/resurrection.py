"""死者蘇生 (resurrection, nanko): 2+ fours let the player take one card back from the discard pile."""
from typing import Final

from ..effects import Resurrect
from ..view import PlayView

ID: Final = "resurrection"
NAME_JA = "死者蘇生"
NAME_EN = "resurrection"
SUMMARY = "A play with two or more fours: take one non-joker card of your choice from the discard pile."
SUMMARY_JA = "4を2枚以上含む手：捨て札からジョーカー以外の好きな札を1枚取る。"
PARAMS: dict = {}
DECLARABLE = True
FOUR: Final = 1


def after_play(view: PlayView, params):
    return [Resurrect(ID)] if view.rank_count(FOUR) >= 2 else []
