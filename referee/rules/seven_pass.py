"""7渡し (seven pass): N sevens let the player give N cards of its choice to the next player; with ``ask_forced`` the
give waits for the player even when it has no choice (qsona's and wecraw's 7-pass: the player hands the cards over
itself)."""
from typing import Final

from ..effects import SevenPass
from ..view import PlayView
from .base import Param

ID: Final = "seven_pass"
NAME_JA = "7渡し"
NAME_EN = "seven pass"
SUMMARY = ("A play with N sevens: give N cards of your choice to the next player (fewer only if you run out). "
           "With ask_forced the give waits for the player even when it has no choice.")
SUMMARY_JA = ("7をN枚含む手：好きな札をN枚、次の人に渡す（手札が足りなければ少なくてよい）。ask_forced なら、"
              "選びようがないとき（残りの札を全部渡すとき）も自分で渡すまで進まない。")
PARAMS = {"ask_forced": Param(False, "a give the player has no choice in (no more cards left than it owes: it gives them "
                              "all) is still a pending decision the player answers; otherwise the referee makes it")}
DECLARABLE = True
SEVEN: Final = 4


def after_play(view: PlayView, params):
    n = view.rank_count(SEVEN)
    return [SevenPass(ID, n)] if n else []


def settings(params) -> dict:
    """ask_forced: the referee never makes this rule's give for the player (ruleset.RULE_FACTS, always_asks)."""
    return {"always_asks": params["ask_forced"]}
