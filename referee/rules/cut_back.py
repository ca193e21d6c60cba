"""切り返し (cut back, nanko): right after a cut, another player plays as many jokers and cuts again.

The window is offered to every active seat but the cutter whatever it holds (unless public facts rule a cut
back out: fewer cards in hand, or fewer jokers not yet played, than the cut had cards), so that no view (pending, actors)
tells who holds jokers; the seat that leads after the cut (the cutter, or the next active seat when the cutter
went out) may lead at once, which closes the window, as at a real table where 切り返し must be shouted before
the cutter's lead.
"""
ID = "cut_back"
NAME_JA = "切り返し"
SUMMARY = ("Right after a cut (8-cut, 6-cut, sandstorm), any other active player may play as many jokers as the "
           "cutting play had cards (action cut_back): the field is cut again and that player leads. The window "
           "is offered to every active seat but the cutter (pass declines); the next leader's lead closes it.")
PARAMS: dict = {}
DECLARABLE = True
TRIGGERS = ("eight_cut", "six_cut", "sandstorm", ID)


def opens_window(cut_rule: str) -> bool:
    return cut_rule in TRIGGERS


def offered_to(cards_left: dict[int, int], cutter: int, n: int, jokers_unplayed: int) -> list[int]:
    """The seats in the window, from public facts only (hand sizes, jokers not yet played): never from hands."""
    if n <= 0 or jokers_unplayed < n:
        return []
    return [s for s, left in cards_left.items() if s != cutter and left >= n]
