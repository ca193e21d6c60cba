"""核爆弾 (nuclear bomb): 6+ cards make a revolution, and from then on a revolution needs 6+."""
from ..effects import Revolution
from .base import Param

ID = "nuclear_bomb"
NAME_JA = "核爆弾"
SUMMARY = "A play of 6+ cards is a revolution, and for the rest of the deal a revolution needs 6+ cards."
PARAMS = {"min": Param(6, "cards needed", lo=5, hi=12)}
DECLARABLE = True


def after_play(ctx, params):
    n = ctx.reading.n
    if ctx.special or n < params["min"] or n < ctx.state.revolution_min:
        return []
    return [Revolution(ID, threshold=params["min"])]
