"""反則上がり / 役上がり (forbidden finish): going out with certain plays ranks the player from the bottom."""
from typing import Final

from ..effects import Cut
from ..view import PlayView
from .base import Param, flagged

ID: Final = "forbidden_finish"
NAME_JA = "反則上がり (役上がり)"
SUMMARY = ("Going out with a play that holds a joker, or the strongest rank of the order in force (2, or 3 when "
           "reversed), or (gekifugo) any 8, or (nanko) a play that cuts, is allowed but ranks the player from the "
           "bottom up: last place if free, else the lowest free place.")
PARAMS = {"joker": Param(True, "a play holding a joker"),
          "strongest_rank": Param(True, "a play holding the strongest rank of the order in force"),
          "eight": Param(False, "a play holding any 8 (gekifugo)"),
          "cut": Param(False, "a play that cuts: 8-cut or 6-cut fired (nanko)"),
          "sandstorm_exempt": Param(False, "a sandstorm is never forbidden (nanko)")}
EIGHT: Final = 5


def finish_verdict(view: PlayView, effects, params: dict) -> str | None:
    """The reason the finishing play is forbidden, or None."""
    r = view.reading
    if params["sandstorm_exempt"]:
        exempt = flagged("FINISH_EXEMPT")
        if view.special in exempt:
            return None
        for e in effects:
            if isinstance(e, Cut) and e.rule in exempt:
                return None
    if params["joker"] and r.has_joker:
        return "went out with a joker"
    strongest = 0 if view.reversed else 12
    if params["strongest_rank"] and r.has_rank(strongest):
        return f"went out with the strongest rank ({'3' if view.reversed else '2'})"
    if params["eight"] and r.has_rank(EIGHT):
        return "went out with an 8"
    if params["cut"] and effects:
        cuts = flagged("RANK_CUT")
        for e in effects:
            if isinstance(e, Cut) and e.rule in cuts:
                return "went out with a play that cuts"
    return None
