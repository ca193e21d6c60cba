"""5とばし (five skip): N fives skip the next N active players (コンボ when it comes back)."""
from typing import Final

from ..effects import Skip
from ..view import PlayView

ID: Final = "five_skip"
NAME_JA = "5とばし"
SUMMARY = ("A play with N fives skips the next N active players. If the skipping comes back round to the player "
           "(コンボ), it may play on its own cards or pass, which flushes the field and lets it lead.")
PARAMS: dict = {}
DECLARABLE = True
FIVE: Final = 2


def after_play(view: PlayView, params):
    n = view.reading.rank_count(FIVE)
    return [Skip(ID, n)] if n else []
