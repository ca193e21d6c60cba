"""色縛り (color lock): a play all of one color on a field all of that color locks the trick to that color."""
from dataclasses import dataclass
from typing import ClassVar, Final

from ..cards import suit_names
from ..effects import Effect
from ..resolution import Resolution
from ..slots import TRICK, Slot
from ..view import PlayView
from .base import Param, Rejection

ID: Final = "color_lock"
NAME_JA = "色縛り"
NAME_EN = "color lock"
SUMMARY = ("When a play's cards are all of one color (red: hearts and diamonds; black: spades and clubs) and so are "
           "the cards of the play it beats, every play until the flush must be all that color (joker stand-ins count "
           "as the suit they stand for). A lone joker (or a set of jokers) may be played on it; the lock stays until "
           "the flush unless joker_ends.")
SUMMARY_JA = ("手の札がすべて同じ色（赤：♥♦、黒：♠♣）で、前の手の札もすべてその色なら、"
              "流れるまでその色の札だけで出さなければならない（ジョーカーは代わりのマークとして数える）。"
              "ジョーカー単体は出せる。joker_ends なら縛りが解ける。")
PARAMS = {"joker_ends": Param(False, "a lone joker (or a set of jokers) played on a locked field ends the lock")}
DECLARABLE = True
# the suits of each color, as suit bits (S=1, H=2, D=4, C=8)
COLORS: Final = {"red": 0b0110, "black": 0b1001}
LOCK_COLOR: Final[Slot[str | None]] = Slot(
    "locks.color", None, TRICK, view=True, lock=True,
    words={"en": {"red": "red ♥♦", "black": "black ♠♣"}, "ja": {"red": "赤 ♥♦", "black": "黒 ♠♣"}},
    schema={"type": ["string", "null"], "enum": [*COLORS, None]},
    doc="a color lock (color_lock): every play must be all red (♥♦) or all black (♠♣)")
STATE = (LOCK_COLOR,)


@dataclass(init=False, unsafe_hash=True)
class ColorLock(Effect):
    """Every play until the flush must be all ``color``."""
    ORDER: ClassVar[int] = 1
    KIND: ClassVar[str] = "lock"
    color: str

    def __init__(self, rule: str, color: str) -> None:
        self.rule, self.color = rule, color

    def fold(self, res: Resolution) -> None:
        res.put(LOCK_COLOR, self.color)


class ColorUnlock(Effect):
    """The color lock ends (``joker_ends``)."""
    ORDER: ClassVar[int] = 1
    KIND: ClassVar[str] = "unlock"
    QUIET: ClassVar[bool] = True

    def fold(self, res: Resolution) -> None:
        res.put(LOCK_COLOR, None)


def color_of(suits: int) -> str | None:
    """The color every one of ``suits`` has, or None (no suit, or both colors)."""
    for color, of_color in COLORS.items():
        if suits and not suits & ~of_color:
            return color
    return None


def legality(view: PlayView, params):
    color = view.slot(LOCK_COLOR)
    if color is None or view.reading.wild or view.special:
        return None
    suits = view.reading.suits
    if color_of(suits) != color:
        return Rejection("locked", f"the trick is locked to {color} (color_lock): every play must be all "
                         f"{'+'.join(suit_names(COLORS[color]))}; this play shows "
                         f"{'+'.join(suit_names(suits)) or 'no suit'}", ID)
    return None


def after_play(view: PlayView, params):
    r, f, color = view.reading, view.field, view.slot(LOCK_COLOR)
    if r.wild:
        return [ColorUnlock(ID)] if color is not None and params["joker_ends"] else []
    if f is None or f.wild or view.special or color is not None:
        return []
    if not view.standin_effects and (r.has_joker or f.has_joker):
        return []  # a joker's stand-in suit makes no lock (jokers.standin_effects)
    color = color_of(r.suits)
    return [ColorLock(ID, color)] if color is not None and color == color_of(f.suits) else []
