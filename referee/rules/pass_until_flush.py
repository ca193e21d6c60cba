"""パスしたら流れるまで (pass until flush, the UECda server's flow): a pass sits the player out until the flush."""
from typing import Final

from .base import Param

ID: Final = "pass_until_flush"
NAME_JA = "パスは流れるまで"
SUMMARY = ("A player who passes is skipped until the field flushes. The turn does reach the player whose cards are "
           "on the field, who may play over them or pass. The field flushes when every active player has passed "
           "since the last flush (a play resets nobody's pass); the last player who played leads, or the next "
           "active player if it has finished.")
PARAMS = {"owner_plays_on": Param(True, "the turn reaches the player whose cards are on the field, who may play "
                                  "over them or pass (UECda); false: once everyone else has passed the field "
                                  "flushes and that player leads")}
PASSES_SIT_OUT = True  # read by Ruleset.passes_sit_out


def settings(params) -> dict:
    return {"owner_plays_on": params["owner_plays_on"]}
