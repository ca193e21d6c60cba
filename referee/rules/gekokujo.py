"""下剋上 (gekokujo, gekifugo): if the previous bottom finishes first, the deal ends with the standings upside down."""
from typing import Final

from ..flow_events import Finished, PlacesFinal
from ..state import replace

ID: Final = "gekokujo"
NAME_JA = "下剋上"
NAME_EN = "the lowest overthrows"
SUMMARY = ("From the second deal: if the previous deal's last player finishes first, the deal ends at once and the "
           "final places are the previous deal's turned upside down (before capital fall).")
SUMMARY_JA = "2回目から：前回の最下位が1位で上がると、その回はすぐ終わり、順位は前回の逆になる（都落ちより先）。"
PARAMS: dict = {}
REACTS_TO = (Finished, PlacesFinal)
ON_FINISH_ORDER = 0  # judged before capital fall: an upside-down deal has no fall


def react(st, event: Finished | PlacesFinal, params):
    """Finished: the state after the finish (the places turned upside down, or not). PlacesFinal: are they
    settled?"""
    if isinstance(event, Finished):
        return turned(st, event.seat, event.place, event.log)
    return places_settled(st)


def turned(st, seat, place, log):
    """The first player out was last in the previous deal: the deal ends with the places upside down."""
    places = upside_down(st.previous_places, seat) if place == 1 else None
    if places is None:
        return st
    log.append({"kind": "gekokujo", "places": list(places), "rule": ID})
    players = tuple(replace(p, place=places[p.seat]) for p in st.players)
    order = tuple(sorted(range(len(players)), key=lambda s: places[s]))
    return replace(st, players=players, finish_order=order, phase="deal_over", turn=None, pending=(), after=None,
                   ended_by=ID)


def places_settled(st) -> bool:
    """Are the places given so far final? Gekokujo rewrites every place, those given by forbidden finishes
    included, on the finish that takes place 1: until then, while the previous deal's last player may still
    take it, they are not."""
    if any(p.place == 1 for p in st.players):
        return True
    return not any(p.place is None and upside_down(st.previous_places, p.seat) is not None for p in st.players)


def upside_down(previous_places, first_seat):
    """The deal's final places when ``first_seat`` triggers gekokujo, else None."""
    if not previous_places or None in previous_places:
        return None
    n = len(previous_places)
    if previous_places[first_seat] != n:
        return None
    return tuple(n + 1 - p for p in previous_places)


def narrate(entry, seat_name, cards_text) -> str:
    return f"gekokujo (下剋上): places become {entry.get('places')}"
