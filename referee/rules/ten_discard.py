"""10捨て (ten discard): N tens let the player discard N cards of its choice."""
from typing import Final

from ..effects import TenDiscard
from ..view import PlayView

ID: Final = "ten_discard"
NAME_JA = "10捨て"
NAME_EN = "ten discard"
SUMMARY = "A play with N tens: discard N cards of your choice (fewer only if you run out)."
SUMMARY_JA = "10をN枚含む手：好きな札をN枚捨てる（手札が足りなければ少なくてよい）。"
PARAMS: dict = {}
DECLARABLE = True
TEN: Final = 7


def after_play(view: PlayView, params):
    n = view.rank_count(TEN)
    return [TenDiscard(ID, n)] if n else []
