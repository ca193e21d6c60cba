"""切り返し (cut back, nanko): right after a cut, another player plays as many jokers and cuts again."""
ID = "cut_back"
NAME_JA = "切り返し"
SUMMARY = ("Right after a cut (8-cut, 6-cut, sandstorm), another player holding as many jokers as the cutting "
           "play had cards may play them at once (action cut_back): the field is cut again and that player leads.")
PARAMS = {}
DECLARABLE = True
TRIGGERS = ("eight_cut", "six_cut", "sandstorm", ID)


def opens_window(cut_rule: str) -> bool:
    return cut_rule in TRIGGERS
