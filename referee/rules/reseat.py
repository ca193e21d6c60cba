"""席替え (reseat): from the second deal the players sit in the previous deal's finishing order.

Japanese tables that reseat put the players round the table by title, so that play goes from the 大貧民 up to the
大富豪: 大貧民 → 貧民 → 平民 … → 富豪 → 大富豪, then the 大貧民 again (``order: up``; the way ek-pro's and k-nextage's
rule pages and wecraw's reseating put it: the 大貧民 deals and leads, the 大富豪 plays last). ``order: down`` seats them
the other way round (大富豪 → 富豪 → … → 大貧民). Seat numbers stay as they are (a client's token names its seat): only
who comes after whom changes (referee/seating.py), for the deal, the turn, a 7-pass and the skips alike.
"""
from typing import Final

from .base import Param

ID: Final = "reseat"
NAME_JA = "席替え"
NAME_EN = "reseating"
SUMMARY = ("From the second deal the players sit in the previous deal's finishing order: play goes from the last-placed "
           "up to the first, then the last again, or with order down from the first down to the last. Seat numbers "
           "stay; only who plays after whom changes.")
SUMMARY_JA = ("2回目から、前回の順位順に席替えする：大貧民→貧民→…→富豪→大富豪→大貧民の順に回る（order が down なら大"
              "富豪から大貧民へ下る順）。席番号は変わらず、誰の次に誰が出すかだけが変わる（配る順、7渡しの相手、"
              "飛ばす順も同じ）。")
PARAMS = {"order": Param("up", "up: play goes from the last-placed up to the first (the first-placed sits before the "
                         "last-placed); down: from the first down to the last (the last-placed sits before the first)",
                         choices=("up", "down"))}


def by_places_up(places: tuple) -> list[int]:
    """The seats in turn order, the last-placed first and each followed by the one placed above it."""
    return sorted(range(len(places)), key=lambda seat: -places[seat])


def by_places_down(places: tuple) -> list[int]:
    """The seats in turn order, the first-placed first and each followed by the one placed below it."""
    return sorted(range(len(places)), key=lambda seat: places[seat])


def settings(params) -> dict:
    """The seating of a later deal: a function of the previous deal's places (referee/seating.py)."""
    return {"seating": by_places_up if params["order"] == "up" else by_places_down}
