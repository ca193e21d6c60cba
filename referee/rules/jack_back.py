"""Jバック / 11バック (jack back): a play containing a J reverses the order until the field flushes."""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..effects import JackBack
from ..view import PlayView
from .base import Param

if TYPE_CHECKING:
    from ..shapes import Reading

ID: Final = "jack_back"
NAME_JA = "Jバック"
SUMMARY = "A play containing a J reverses the order of strength until the field flushes (a second one restores it)."
PARAMS = {"optional": Param(False, "the player may decline it with decline: ['jack_back'] (nanko)"),
          "again": Param("restores", "a J played while a jack back holds: restores the order (each J toggles it) "
                         "or keeps it reversed", choices=("restores", "keeps"))}
DECLARABLE = True
JACK: Final = 8


def after_play(view: PlayView, params):
    if not view.has_rank(JACK) or ID in view.declined:
        return []
    if view.jack_back and params["again"] == "keeps":
        return []
    return [JackBack(ID)]


def declinable(params) -> bool:
    return params["optional"]


def declines(reading: Reading, params) -> bool:
    """Does legal_moves list this play also with the jack back declined?"""
    return reading.has_rank(JACK)
