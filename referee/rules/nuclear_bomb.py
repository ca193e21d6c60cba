"""核爆弾 (nuclear bomb): 6+ cards make a revolution, and from then on a revolution needs 6+."""
from typing import Final

from . import revolution
from ..view import PlayView
from .base import Param

ID: Final = "nuclear_bomb"
NAME_JA = "核爆弾"
NAME_EN = "nuclear bomb"
SUMMARY = "A play of 6+ cards is a revolution, and for the rest of the deal a revolution needs 6+ cards."
SUMMARY_JA = "6枚以上で革命。この回の残りは6枚以上でないと革命にならない。"
PARAMS = {"min": Param(6, "cards needed", lo=5, hi=12)}
DECLARABLE = True


def after_play(view: PlayView, params):
    return revolution.raising(view, ID, params["min"])
