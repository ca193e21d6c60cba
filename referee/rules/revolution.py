"""革命 (revolution): 4+ cards in one play reverse the order; a second one restores it (革命返し)."""
from typing import Final

from ..effects import Revolution
from ..shapes import PLAIN_SHAPES
from .base import Param, PlayContext

ID: Final = "revolution"
PLAY_ONLY = True  # after_play reads only the play, the order in force and the revolution threshold
NAME_JA = "革命"
SUMMARY = "A play of enough cards toggles the order of strength (jokers stay strongest) until another revolution."
PARAMS = {"min_group": Param(4, "fewest cards for a revolution by a group", lo=2, hi=8),
          "min_stairs": Param(4, "fewest cards for a revolution by a sequence (UECda: 5)", lo=3, hi=13)}
DECLARABLE = True
ALIAS = "counter_revolution"  # 革命返し: while a revolution holds, declaring it declares this rule


def alias_applies(state) -> bool:
    return state.revolution


def needed(state, shape: str, params) -> int:
    base = params["min_group"] if shape in PLAIN_SHAPES else params["min_stairs"]
    return max(base, state.revolution_min)


def after_play(ctx: PlayContext, params):
    if ctx.special or ctx.reading.n < needed(ctx.state, ctx.reading.shape, params):
        return []
    return [Revolution(ID)]


def raising(ctx, rule_id: str, minimum: int):
    """great_revolution / nuclear_bomb: a revolution of ``minimum``+ cards that raises the threshold to it."""
    n = ctx.reading.n
    if ctx.special or n < minimum or n < ctx.state.revolution_min:
        return []
    return [Revolution(rule_id, threshold=minimum)]
