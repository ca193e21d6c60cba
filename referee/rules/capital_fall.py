"""都落ち (capital fall, gekifugo): if anyone but the previous top finishes first, the top falls to last."""
ID = "capital_fall"
NAME_JA = "都落ち"
SUMMARY = ("From the second deal: if a player other than the previous deal's top finishes first, the previous top "
           "is ranked last at once and its cards are discarded; the deal goes on without it.")
PARAMS: dict = {}


def fallen(previous_places, first_seat):
    """The seat that falls when ``first_seat`` takes first place, or None."""
    if not previous_places or None in previous_places:
        return None
    top = previous_places.index(1)
    return None if top == first_seat else top
