"""パスしたら流れるまで (pass until flush, the UECda server's flow): a pass sits the player out until the flush."""
from typing import Final

from ..slots import PASSERS, TRICK, Slot
from .base import Param

ID: Final = "pass_until_flush"
NAME_JA = "パスは流れるまで"
NAME_EN = "passes last until the flush"
SUMMARY = ("A player who passes is skipped until the field flushes. The turn does reach the player whose cards are "
           "on the field, who may play over them or pass. The field flushes when every active player has passed "
           "since the last flush (a play resets nobody's pass); the last player who played leads, or the next "
           "active player if it has finished.")
SUMMARY_JA = ("パスした人は流れるまで飛ばされる。場の札を出した人には番が回り、重ねて出すかパスできる。"
              "最後にパスした時点で流れ、最後に出した人が親（上がっていれば次の人）。owner_plays_on が false なら、"
              "他の全員がパスした時点で流れ、場の札を出した人が親。")
PARAMS = {"owner_plays_on": Param(True, "the turn reaches the player whose cards are on the field, who may play "
                                  "over them or pass (UECda); false: once everyone else has passed the field "
                                  "flushes and that player leads")}
PASSES_SIT_OUT = True  # read by Ruleset.passes_sit_out


def _seats(mask: int) -> list[int]:
    return [s for s in range(mask.bit_length()) if mask >> s & 1]


def _mask(seats: list) -> int:
    return sum(1 << int(s) for s in seats)


# the seats that passed since the trick began, who sit out until it ends (a bitmask; a list of seats in the state
# JSON): the core adds each passer and clears them when a trick begins (slots.PASSERS)
PASSED: Final = Slot("passed", 0, TRICK, write=_seats, read=_mask, keeps=PASSERS,
                     schema={"type": "array", "items": {"type": "integer", "minimum": 0}},
                     doc="pass_until_flush: the seats that passed since the last flush (the turn skips them)")
STATE = (PASSED,)


def settings(params) -> dict:
    return {"owner_plays_on": params["owner_plays_on"]}
