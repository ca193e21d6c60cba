"""ダブル階段 (double stairs): two stairs of the same ranks in two suits (gekifugo)."""
ID = "double_stairs"
NAME_JA = "ダブル階段"
SUMMARY = "Two stairs of equal length (3+) over the same ranks in two suits, played at once; counts its cards for revolutions."
PARAMS: dict = {}
DECLARABLE = True
SHAPE = True
