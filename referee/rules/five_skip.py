"""5とばし (five skip): N fives skip the next N active players (コンボ when it comes back)."""
from typing import Final

from ..effects import Skip
from .base import PlayContext

ID: Final = "five_skip"
PLAY_ONLY = True  # after_play reads only the play, the order in force and the revolution threshold
NAME_JA = "5とばし"
SUMMARY = ("A play with N fives skips the next N active players. If the skipping comes back round to the player "
           "(コンボ), it may play on its own cards or pass, which flushes the field and lets it lead.")
PARAMS: dict = {}
DECLARABLE = True
FIVE: Final = 2
FIRES_ON_RANK: Final = FIVE  # after_play fires only on a play that reads this rank (play._fired)


def after_play(ctx: PlayContext, params):
    n = ctx.reading.rank_count(FIVE)
    return [Skip(ID, n)] if n else []
