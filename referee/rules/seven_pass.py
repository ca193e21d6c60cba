"""7渡し (seven pass): N sevens let the player give N cards of its choice to the next player."""
from typing import Final

from ..effects import SevenPass
from .base import PlayContext

ID: Final = "seven_pass"
PLAY_ONLY = True  # after_play reads only the play, the order in force and the revolution threshold
NAME_JA = "7渡し"
SUMMARY = "A play with N sevens: give N cards of your choice to the next player (fewer only if you run out)."
PARAMS: dict = {}
DECLARABLE = True
SEVEN: Final = 4
FIRES_ON_RANK: Final = SEVEN  # after_play fires only on a play that reads this rank (play._fired)


def after_play(ctx: PlayContext, params):
    n = ctx.reading.rank_count(SEVEN)
    return [SevenPass(ID, n)] if n else []
