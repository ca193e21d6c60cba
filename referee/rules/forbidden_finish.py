"""反則上がり / 役上がり (forbidden finish): going out with certain plays ranks the player from the bottom."""
from collections.abc import Mapping
from typing import Final

from ..cards import rank_mask
from ..effects import Cut
from ..shapes import Reading
from ..view import PlayView
from .base import Param, flagged

ID: Final = "forbidden_finish"
NAME_JA = "反則上がり (役上がり)"
NAME_EN = "forbidden finish"
SUMMARY = ("Going out with a play that holds a joker, or the strongest rank of the order in force (2, or 3 when "
           "reversed), or (gekifugo) any 8, or (nanko) a play that cuts, is allowed but ranks the player from the "
           "bottom up: last place if free, else the lowest free place.")
SUMMARY_JA = ("ジョーカー、その時の最強の数字（2、逆転中は3）、（激富豪）8、"
              "（ナンコ）切る手で上がるのは反則上がり：下の空いている順位（普通は最下位）になる。"
              "order が revolution ならJバック前の順で最強の数字を決め、"
              "standin が false ならジョーカーの代用は数えない。")
PARAMS = {"joker": Param(True, "a play holding a joker"),
          "strongest_rank": Param(True, "a play holding the strongest rank of the order in force"),
          "eight": Param(False, "a play holding any 8 (gekifugo)"),
          "cut": Param(False, "a play that cuts: 8-cut or 6-cut fired (nanko)"),
          "sandstorm_exempt": Param(False, "a sandstorm is never forbidden (nanko)"),
          "order": Param("in_force", "the order the strongest rank is read in: in_force (a jack back counts), or "
                         "revolution (only revolutions: the order before the J)", choices=("in_force", "revolution")),
          "standin": Param(True, "a joker standing in for the strongest rank or an 8 counts as that rank")}
EIGHT: Final = 5


def finish_verdict(view: PlayView, effects, params: Mapping) -> str | None:
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
    reversed_order = view.reversed if params["order"] == "in_force" else view.revolution
    strongest = 0 if reversed_order else 12
    if params["strongest_rank"] and holds(r, strongest, params["standin"]):
        return f"went out with the strongest rank ({'3' if reversed_order else '2'})"
    if params["eight"] and holds(r, EIGHT, params["standin"]):
        return "went out with an 8"
    if params["cut"] and effects:
        cuts = flagged("RANK_CUT")
        for e in effects:
            if isinstance(e, Cut) and e.rule in cuts:
                return "went out with a play that cuts"
    return None


def holds(r: Reading, rank: int, standin: bool) -> bool:
    """Whether the play holds ``rank``: a real card of it, or (``standin``) a joker standing in for it."""
    return r.has_rank(rank) if standin else bool(r.mask & rank_mask(rank))
