"""跳びエンペラー (skip emperor): 4 ranks stepping by 2 in four different suits (gekifugo)."""
from typing import Final

from .emperor import read_window, window_slots

ID: Final = "skip_emperor"
NAME_JA = "跳びエンペラー"
NAME_EN = "skip emperor"
SUMMARY = "4 ranks stepping by exactly 2 in four different suits."
SUMMARY_JA = "4つの異なるマークで数字が2つずつ飛ぶ4枚。"
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
