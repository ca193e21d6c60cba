"""大革命 (great revolution): 5+ cards make a revolution, and from then on a revolution needs 5+."""
from typing import Final

from . import revolution
from ..view import PlayView
from .base import Param

ID: Final = "great_revolution"
NAME_JA = "大革命"
NAME_EN = "great revolution"
SUMMARY = "A play of 5+ cards is a revolution, and for the rest of the deal a revolution needs 5+ cards."
SUMMARY_JA = "5枚以上で革命。この回の残りは5枚以上でないと革命にならない。"
PARAMS = {"min": Param(5, "cards needed", lo=4, hi=12)}
DECLARABLE = True


def after_play(view: PlayView, params):
    return revolution.raising(view, ID, params["min"])
