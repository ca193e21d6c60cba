"""7渡し (seven pass): N sevens let the player give N cards of its choice to the next player."""
from typing import Final

from ..effects import SevenPass
from ..view import PlayView

ID: Final = "seven_pass"
NAME_JA = "7渡し"
SUMMARY = "A play with N sevens: give N cards of your choice to the next player (fewer only if you run out)."
PARAMS: dict = {}
DECLARABLE = True
SEVEN: Final = 4


def after_play(view: PlayView, params):
    n = view.rank_count(SEVEN)
    return [SevenPass(ID, n)] if n else []
