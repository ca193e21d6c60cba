"""下剋上 (gekokujo, gekifugo): if the previous bottom finishes first, the deal ends with the standings upside down."""
ID = "gekokujo"
NAME_JA = "下剋上"
SUMMARY = ("From the second deal: if the previous deal's last player finishes first, the deal ends at once and the "
           "final places are the previous deal's turned upside down (before capital fall).")
PARAMS: dict = {}


def upside_down(previous_places, first_seat):
    """The deal's final places when ``first_seat`` triggers gekokujo, else None."""
    if not previous_places or None in previous_places:
        return None
    n = len(previous_places)
    if previous_places[first_seat] != n:
        return None
    return tuple(n + 1 - p for p in previous_places)
