"""エンペラー (emperor): 4 consecutive ranks in four different suits (gekifugo)."""
ID = "emperor"
NAME_JA = "エンペラー"
SUMMARY = "4 consecutive ranks in four different suits; 4 cards, so it can also make a revolution."
PARAMS: dict = {}
DECLARABLE = True
SHAPE = True
