"""跳び階段 (skip stairs): 3+ ranks stepping by exactly 2, one suit (gekifugo)."""
ID = "skip_stairs"
NAME_JA = "跳び階段"
SUMMARY = "3 or more ranks of one suit stepping by exactly 2, e.g. ♠5-7-9; answered only by a stronger skip stairs."
PARAMS: dict = {}
DECLARABLE = True
SHAPE = True
