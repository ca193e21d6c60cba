"""連続パス打ち切り (pass abort, the UECda server): too many passes in a row end the deal."""
import random

from .base import Param

ID = "pass_abort"
NAME_JA = "連続パス打ち切り"
SUMMARY = ("After `turns` passes in a row without a play (passes on an empty field included; any play resets "
           "the count), the deal ends at once and the unfinished players take the remaining places in a random "
           "order drawn from the game's seed.")
PARAMS = {"turns": Param(20, "passes in a row that end the deal (UECda: 20)", lo=2, hi=200)}


def reached(idle: int, params) -> bool:
    return idle >= params["turns"]


def order(seats: list[int], seed, deal: int, seq: int) -> list[int]:
    """The unfinished seats in the random (seeded, reproducible) order they take the remaining places."""
    out = list(seats)
    random.Random(f"daifugo:{seed}:{deal}:{seq}:pass_abort").shuffle(out)
    return out
