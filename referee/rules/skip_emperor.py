"""跳びエンペラー (skip emperor): 4 ranks stepping by 2 in four different suits (gekifugo)."""
ID = "skip_emperor"
NAME_JA = "跳びエンペラー"
SUMMARY = "4 ranks stepping by exactly 2 in four different suits."
PARAMS: dict = {}
DECLARABLE = True
SHAPE = True
