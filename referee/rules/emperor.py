"""エンペラー (emperor): 4 consecutive ranks in four different suits (gekifugo)."""
from itertools import permutations
from typing import Final

from ..cards import card, count, rank_of, suit_of
from ..shapes import make_reading

ID: Final = "emperor"
NAME_JA = "エンペラー"
NAME_EN = "emperor"
SUMMARY = "4 consecutive ranks in four different suits; 4 cards, so it can also make a revolution."
SUMMARY_JA = "4つの異なるマークで4つ連続した数字。4枚なので革命にもなる。"
PARAMS: dict = {}
DECLARABLE = True
SHAPE = True
PRIORITY = 5
LABEL = "an emperor"


def slots() -> list:
    return window_slots(1)


def read(mask, n, normals, jokers, min_stairs, out):
    if n == 4:
        read_window(mask, normals, jokers, 1, ID, out)


def window_slots(step: int) -> list:
    """The candidate table: the cards of every window of 4 ranks stepping by ``step``, one card of each suit
    (candidates.CROSS_SUIT_GROUPS)."""
    return [[[card(lo + i * step, suits[i]) for i in range(4)]]
            for lo in range(13 - 3 * step) for suits in permutations(range(4))]


def read_window(mask, normals, jokers, step, shape, out):
    """The readings of 4 cards as 4 ranks stepping by ``step`` (emperor 1, skip emperor 2), one card of each suit."""
    cells = [(rank_of(c), suit_of(c)) for c in normals]
    held = shown = 0  # the ranks and suits held, as bits: each window is tested with one mask
    for r, s in cells:
        held |= 1 << r
        shown |= 1 << s
    if count(held) != len(cells) or count(shown) != len(cells):
        return
    free_s = [s for s in range(4) if not shown >> s & 1]
    for lo in range(0, 13 - 3 * step):
        positions = [lo + i * step for i in range(4)]
        window = 0
        for p in positions:
            window |= 1 << p
        if held & ~window:
            continue
        free_r = [p for p in positions if not held >> p & 1]
        for perm in permutations(free_s):
            stand_ins = [(j, r, s) for j, r, s in zip(jokers, free_r, perm)]
            out.append(make_reading(shape, mask, 4, cells + [(r, s) for r, s in zip(free_r, perm)], stand_ins))
