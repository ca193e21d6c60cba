"""あがり札は流れる (gekifugo): the cards a player goes out with always flush the field."""
from typing import Final

ID: Final = "flush_on_finish"
NAME_JA = "あがり札は流れる"
NAME_EN = "a finishing play flushes"
SUMMARY = "When a play empties its player's hand, the field is flushed and the next active player leads."
SUMMARY_JA = "上がった手で場が流れ、次の人が親になる。"
PARAMS: dict = {}
FLUSHES_ON_FINISH = True  # read by Ruleset.flushes_on_finish
