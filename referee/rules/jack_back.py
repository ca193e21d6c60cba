"""Jバック / 11バック (jack back): a play containing a J reverses the order until the field flushes; with ``parity``
only a play holding an odd number of Js does (wecraw's 11-back: two Js turn it and turn it back)."""
from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from ..effects import Effect
from ..slots import ORDER, TRICK, Slot
from ..view import PlayView
from .base import Param

if TYPE_CHECKING:
    from ..resolution import Resolution

ID: Final = "jack_back"
NAME_JA = "Jバック"
NAME_EN = "jack back"
SUMMARY = ("A play containing a J reverses the order of strength until the field flushes (a second one restores it); "
           "with parity, only a play holding an odd number of Js does.")
SUMMARY_JA = ("Jを含む手で、流れるまで強さの順が逆になる（もう一度で元に戻る。"
              "again が keeps なら2枚目のJでも逆のまま）。parity なら1つの手に含まれるJが奇数枚のときだけ逆になり、"
              "偶数枚では何も起きない。")
PARAMS = {"optional": Param(False, "the player may decline it with decline: ['jack_back'] (nanko)"),
          "again": Param("restores", "a J played while a jack back holds: restores the order (each J toggles it) "
                         "or keeps it reversed", choices=("restores", "keeps")),
          "parity": Param(False, "by the parity of the Js in one play: an odd number turns the order, an even number "
                          "does nothing (each J a turn of its own; a joker standing in for a J counts as one unless "
                          "jokers.standin_effects is false)")}
DECLARABLE = True
JACK: Final = 8
DECLINE_RANK: Final = JACK  # optional: legal_moves lists a play holding a J (a joker standing in too) also declined
JACK_BACK: Final = Slot("jack_back", False, TRICK, view=True, read=bool, turns=ORDER,
                           doc="jack_back: the order is turned until the flush")
STATE = (JACK_BACK,)


class JackBack(Effect):
    ORDER: ClassVar[int] = 2
    KIND: ClassVar[str] = "jack_back"

    def fold(self, res: Resolution) -> None:
        res.put(JACK_BACK, not res.get(JACK_BACK))


def after_play(view: PlayView, params):
    if not view.has_rank(JACK) or ID in view.declined:
        return []
    if params["parity"] and not view.rank_count(JACK) % 2:
        return []  # the Js turn the order and turn it back
    if view.slot(JACK_BACK) and params["again"] == "keeps":
        return []
    return [JackBack(ID)]


def settings(params) -> dict:
    """optional: a play may decline it (decline: ['jack_back'])."""
    return {"declinable": params["optional"]}

