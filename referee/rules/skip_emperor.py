"""跳びエンペラー (skip emperor): 4 ranks stepping by 2 in four different suits (gekifugo)."""
from typing import Final

from .emperor import read_window, window_slots

ID: Final = "skip_emperor"
NAME_JA = "跳びエンペラー"
SUMMARY = "4 ranks stepping by exactly 2 in four different suits."
PARAMS: dict = {}
DECLARABLE = True
SHAPE = True
PRIORITY = 6
LABEL = "a skip emperor"


def slots() -> list:
    return window_slots(2)


def read(mask, n, normals, jokers, min_stairs, out):
    if n == 4:
        read_window(mask, normals, jokers, 2, ID, out)
