"""ダブル階段 (double stairs): two stairs of the same ranks in two suits (gekifugo)."""
from itertools import permutations
from typing import Final

from ..cards import card, rank_of, suit_of
from ..shapes import make_reading

ID: Final = "double_stairs"
NAME_JA = "ダブル階段"
NAME_EN = "double stairs"
SUMMARY = "Two stairs of equal length (3+) over the same ranks in two suits, played at once; counts its cards for revolutions."
SUMMARY_JA = "同じ数字の範囲・同じ長さ（3以上）の階段2マーク分を同時に出す。革命の枚数に数える。"
PARAMS: dict = {}
DECLARABLE = True
SHAPE = True
PRIORITY = 4
LABEL = "double stairs"


def slots() -> list:
    """The candidate table: the cards of every double stairs, one row per pair of suits and lowest rank, its runs
    by length (candidates.CROSS_SUIT_GROUPS)."""
    return [[[card(lo + i, x) for i in range(length) for x in (a, b)] for length in range(3, 14 - lo)]
            for a in range(4) for b in range(a + 1, 4) for lo in range(11)]


def read(mask, n, normals, jokers, min_stairs, out):
    if n % 2 or n < 6:
        return
    length = n // 2
    cells = {(rank_of(c), suit_of(c)) for c in normals}
    suits_used = {s for _, s in cells}
    if len(suits_used) > 2:
        return
    pairs = [(a, b) for a in range(4) for b in range(a + 1, 4) if suits_used <= {a, b}]
    seen = set()
    for a, b in pairs:
        for lo in range(0, 13 - length + 1):
            cells_read = [(r, s) for r in range(lo, lo + length) for s in (a, b)]
            if not cells <= set(cells_read):
                continue
            free = [x for x in cells_read if x not in cells]
            if len(free) != len(jokers):
                continue
            for perm in permutations(free):
                key = (a, b, lo, perm)
                if key in seen:
                    continue
                seen.add(key)
                stand_ins = [(j, r, s) for j, (r, s) in zip(jokers, perm)]
                out.append(make_reading(ID, mask, n, cells_read, stand_ins))
