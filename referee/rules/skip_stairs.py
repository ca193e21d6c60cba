"""跳び階段 (skip stairs): 3+ ranks stepping by exactly 2, one suit (gekifugo)."""
from typing import Final

from .stairs import read_run

ID: Final = "skip_stairs"
NAME_JA = "跳び階段"
NAME_EN = "skip stairs"
SUMMARY = "3 or more ranks of one suit stepping by exactly 2, e.g. ♠5-7-9; answered only by a stronger skip stairs."
SUMMARY_JA = "同じマークで数字が2つずつ飛ぶ3枚以上（例：♠5-7-9）。より強い跳び階段でしか返せない。"
PARAMS: dict = {}
DECLARABLE = True
SHAPE = True
PRIORITY = 3
LABEL = "skip stairs"
RUN_STEP = 2


def read(mask, n, normals, jokers, min_stairs, out):
    if n >= min_stairs:
        read_run(mask, n, normals, jokers, 2, ID, out)
