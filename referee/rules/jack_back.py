"""Jバック / 11バック (jack back): a play containing a J reverses the order until the field flushes."""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..effects import JackBack
from .base import Param, PlayContext

if TYPE_CHECKING:
    from ..shapes import Reading

ID: Final = "jack_back"
PLAY_ONLY = True  # after_play reads only the play, the order in force and the revolution threshold
NAME_JA = "Jバック"
SUMMARY = "A play containing a J reverses the order of strength until the field flushes (a second one restores it)."
PARAMS = {"optional": Param(False, "the player may decline it with decline: ['jack_back'] (nanko)")}
DECLARABLE = True
JACK: Final = 8
FIRES_ON_RANK: Final = JACK  # after_play fires only on a play that reads this rank (play._fired)


def after_play(ctx: PlayContext, params):
    if not ctx.reading.has_rank(JACK) or ID in ctx.declined:
        return []
    return [JackBack(ID)]


def declinable(params) -> bool:
    return params["optional"]


def declines(reading: Reading, params) -> bool:
    """Does legal_moves list this play also with the jack back declined?"""
    return reading.has_rank(JACK)
