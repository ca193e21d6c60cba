"""Jokers in the deck (RULES.md §1): 0, 1 or 2 added to the 52 cards; with ``must_bind`` a joker played with other
cards must be bound to a rank by the proposal (wecraw's JOKER_MUST_BE_BOUND: a joker beside other cards is never
left for the referee to read)."""
from collections.abc import Mapping
from typing import Final

from ..cards import code
from ..view import PlayView
from .base import Param, Rejection

ID: Final = "jokers"
NAME_JA = "ジョーカー"
NAME_EN = "jokers"
SUMMARY = ("How many jokers the deck holds. A lone joker beats every single; with other cards it stands in for a card "
           "(with must_bind the play's 'as' must say which rank).")
SUMMARY_JA = ("山札のジョーカーの枚数。ジョーカー1枚はどのシングルにも勝ち、他の札と組めばその札の代わりになる。"
              "standin_effects が false なら、代わりになったジョーカーでは8切りなどの効果も縛りも発生しない。"
              "must_bind なら、他の札と出すジョーカーは何の数字の代わりかを指定して出さなければならない（ジョーカー"
              "だけで出すときは不要）。")
PARAMS = {"count": Param(2, "jokers in the deck", lo=0, hi=2),
          "standin_effects": Param(True, "a joker standing in for a rank fires that rank's effects (8-cut, jack back, "
                                   "10-discard, 7-pass, 9-reverse, 5-skip, …) and counts for a new suit lock; false: "
                                   "only real cards do"),
          "must_bind": Param(False, "a joker played with other cards must be bound to a rank: the play's 'as' names "
                             "its rank or card ({\"JK1\": \"7\"} or {\"JK1\": \"H7\"}); otherwise the referee reads it "
                             "(the strongest reading). A lone joker, or jokers played alone, stay jokers")}


def settings(params) -> dict:
    """The deck's jokers and what a stand-in fires; without must_bind the legality hook has nothing to say (it is
    not called: every play would pay for it)."""
    out = {"jokers": params["count"], "standin_effects": params["standin_effects"]}
    return out if params["must_bind"] else {**out, "idle_hooks": ("legality",)}


def legality(view: PlayView, params: Mapping):
    """must_bind: every joker the play reads as standing in for a card is named in its 'as'."""
    stand_ins = view.reading.jokers
    if not stand_ins:
        return None  # no joker among other cards (a lone joker, or jokers alone, are wild)
    bound = {j for j, _, _ in view.as_map}
    unbound = [code(j) for j, _, _ in stand_ins if j not in bound]
    if not unbound:
        return None
    return Rejection("joker_unbound", f"{' '.join(unbound)} is played with other cards and must be bound to a rank: "
                     f"say which with 'as', e.g. {{\"{unbound[0]}\": \"7\"}} (jokers.must_bind)", ID)
