"""砂嵐 (sandstorm, nanko): exactly three 3s, no jokers, may be played on any field and flush it."""
from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Final

from ..cards import cards_of, count, rank_mask
from ..effects import Cut
from ..view import PlayView

if TYPE_CHECKING:
    from ..shapes import Reading

ID: Final = "sandstorm"
NAME_JA = "砂嵐 (3枚返し)"
NAME_EN = "sandstorm"
SUMMARY = "Exactly three 3s without jokers can be played on any field; the field flushes and the player leads."
SUMMARY_JA = "ジョーカーなしの3を3枚は、どの場にも出せる。場が流れ、出した人が親。"
PARAMS: dict = {}
DECLARABLE = True
OPENS_CUT_BACK = True  # its cut can be cut back (cut_back)
FINISH_EXEMPT = True  # forbidden_finish.sandstorm_exempt: going out with it is never forbidden
THREE: Final = 0


def is_sandstorm(reading: Reading) -> bool:
    return (reading.n == 3 and not reading.has_joker and reading.shape == "group"
            and reading.rank_count(THREE) == 3)


def candidates(field, possible: int, params) -> set[int]:
    """The card sets this special play may admit on ``field`` whether or not they beat it: three held 3s."""
    threes = possible & rank_mask(THREE)
    if count(threes) < 3:
        return set()  # most hands: asked on every field
    return {sum(1 << c for c in combo) for combo in combinations(cards_of(threes), 3)}


def special_play(view: PlayView, params):
    return view.reading if view.field is not None and is_sandstorm(view.reading) else None


def after_play(view: PlayView, params):
    return [Cut(ID)] if is_sandstorm(view.reading) else []
