"""階段 (stairs): 3+ consecutive ranks of one suit; how sequences compare (RULES.md §2)."""
from itertools import permutations
from typing import Final

from ..cards import count, rank_of, suit_of
from ..shapes import make_reading
from .base import Param

ID: Final = "stairs"
NAME_JA = "階段"
NAME_EN = "stairs"
SUMMARY = "3 or more consecutive ranks of one suit. A new sequence compares by its weakest card."
SUMMARY_JA = "同じマークで3枚以上連続した数字。新しい階段は一番弱い札で比べる。"
PARAMS = {"min_length": Param(3, "fewest cards in a stairs", lo=3, hi=13),
          "compare": Param("shift", "shift: new weakest beats old weakest (both sheets); "
                           "above: new weakest beats old strongest (UECda)", choices=("shift", "above"))}
DECLARABLE = True
SHAPE = True
PRIORITY = 2        # among readings of the same cards the highest is chosen (single 0, group 1)
LABEL = "stairs"    # in messages
RUN_STEP = 1        # one suit: candidates come from the suit's 13-bit rank pattern (candidates.suit_runs)


def settings(params) -> dict:
    return {"compare": params["compare"], "min_stairs": params["min_length"]}


def read(mask, n, normals, jokers, min_stairs, out):
    if n >= min_stairs:
        read_run(mask, n, normals, jokers, 1, ID, out)


def read_run(mask, n, normals, jokers, step, shape, out):
    """The readings of ``mask`` as one suit's ranks stepping by ``step`` (stairs 1, skip stairs 2)."""
    s = suit_of(normals[0])
    if any(suit_of(c) != s for c in normals):
        return
    held = 0  # the ranks held, as bits: each window is tested with one mask (no sets built per window)
    for c in normals:
        held |= 1 << rank_of(c)
    if count(held) != len(normals):
        return
    span = (n - 1) * step
    for lo in range(0, 13 - span):
        positions = list(range(lo, lo + span + 1, step))
        window = 0
        for p in positions:
            window |= 1 << p
        if held & ~window:
            continue
        free = [p for p in positions if not held >> p & 1]
        for perm in permutations(free):
            stand_ins = [(j, p, s) for j, p in zip(jokers, perm)]
            out.append(make_reading(shape, mask, n, [(p, s) for p in positions], stand_ins))
