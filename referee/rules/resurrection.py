"""死者蘇生 (resurrection, nanko): 2+ fours let the player take one card back from the discard pile."""
from typing import Final

from ..effects import Resurrect
from .base import PlayContext

ID: Final = "resurrection"
PLAY_ONLY = True  # after_play reads only the play, the order in force and the revolution threshold
NAME_JA = "死者蘇生"
SUMMARY = "A play with two or more fours: take one non-joker card of your choice from the discard pile."
PARAMS: dict = {}
DECLARABLE = True
FOUR: Final = 1
FIRES_ON_RANK: Final = FOUR  # after_play fires only on a play that reads this rank (play._fired)


def after_play(ctx: PlayContext, params):
    return [Resurrect(ID)] if ctx.reading.rank_count(FOUR) >= 2 else []
