"""エンペラー (emperor): 4 consecutive ranks in four different suits (gekifugo)."""
from itertools import permutations
from typing import Final

from ..cards import card, rank_of, suit_of
from ..shapes import make_reading

ID: Final = "emperor"
NAME_JA = "エンペラー"
SUMMARY = "4 consecutive ranks in four different suits; 4 cards, so it can also make a revolution."
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
    ranks = [r for r, _ in cells]
    suits = [s for _, s in cells]
    if len(set(ranks)) != len(ranks) or len(set(suits)) != len(suits):
        return
    for lo in range(0, 13 - 3 * step):
        positions = [lo + i * step for i in range(4)]
        if not set(ranks) <= set(positions):
            continue
        free_r = [p for p in positions if p not in ranks]
        free_s = [s for s in range(4) if s not in suits]
        for perm in permutations(free_s):
            stand_ins = [(j, r, s) for j, r, s in zip(jokers, free_r, perm)]
            out.append(make_reading(shape, mask, 4, cells + [(r, s) for r, s in zip(free_r, perm)], stand_ins))
