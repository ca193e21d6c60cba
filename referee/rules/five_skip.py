"""5とばし (five skip): N fives skip the next N active players (コンボ when it comes back); K-skip and the like
are the same rule with another rank."""
from typing import Final

from ..cards import RANKS
from ..effects import Skip
from ..view import PlayView
from .base import Param

ID: Final = "five_skip"
NAME_JA = "5とばし"
NAME_EN = "five skip"
SUMMARY = ("A play with N fives skips the next N active players. If the skipping comes back round to the player "
           "(コンボ), it may play on its own cards or pass, which flushes the field and lets it lead.")
SUMMARY_JA = ("5をN枚含む手で、次のN人を飛ばす。自分まで一周したら（コンボ）、"
              "自分の札に重ねて出すかパス（パスで流れて親）。rank で飛ばす数字を変えられる（K: Kとばし）。"
              "round が flush なら一周した時点で流れて親、wrap なら余った分は自分を越えてさらに飛ばす。")
PARAMS = {"rank": Param("5", "the rank that skips (K: Kとばし); T is the 10", choices=tuple(RANKS)),
          "round": Param("combo", "when the skipping comes back round to the player: combo (it may play on its own "
                         "cards or pass) or flush (the field flushes at once and it leads)", choices=("combo", "flush")),
          "wrap": Param(False, "skips beyond the other players go on round the table, the player's own turn "
                        "included: each skipped turn is a pass, so the trick ends and the leads after it are "
                        "skipped (false: they stop at the player)")}
DECLARABLE = True


def settings(params) -> dict:
    return {"skip_round": params["round"], "skip_wraps": params["wrap"]}


def after_play(view: PlayView, params):
    n = view.rank_count(RANKS.index(params["rank"]))
    return [Skip(ID, n)] if n else []
