"""10捨て (ten discard): N tens let the player discard N cards of its choice."""
from typing import Final

from ..effects import TenDiscard
from .base import PlayContext

ID: Final = "ten_discard"
PLAY_ONLY = True  # after_play reads only the play, the order in force and the revolution threshold
NAME_JA = "10捨て"
SUMMARY = "A play with N tens: discard N cards of your choice (fewer only if you run out)."
PARAMS: dict = {}
DECLARABLE = True
TEN: Final = 7
FIRES_ON_RANK: Final = TEN  # after_play fires only on a play that reads this rank (play._fired)


def after_play(ctx: PlayContext, params):
    n = ctx.reading.rank_count(TEN)
    return [TenDiscard(ID, n)] if n else []
