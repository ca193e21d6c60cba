"""切り返し (cut back, nanko): right after a cut, another player plays as many jokers and cuts again.

The window is offered to every active seat but the cutter whatever it holds (unless public facts rule a cut
back out: fewer cards in hand, or fewer jokers still in hands (not played, not out of play) than the cut had
cards), so that no view (pending, actors)
tells who holds jokers; the seat that leads after the cut (the cutter, or the next active seat when the cutter
went out) may lead at once, which closes the window, as at a real table where 切り返し must be shouted before
the cutter's lead.
"""
from typing import Final

from ..cards import JOKERS_MASK, count, deck
from ..flow_events import FieldCut
from ..state import Pending, State

ID: Final = "cut_back"
NAME_JA = "切り返し"
NAME_EN = "cut back"
SUMMARY = ("Right after a cut (8-cut, 6-cut, sandstorm), any other active player may play as many jokers as the "
           "cutting play had cards (action cut_back): the field is cut again and that player leads. The window "
           "is offered to every active seat but the cutter (pass declines); the next leader's lead closes it.")
SUMMARY_JA = ("切り（8切り・6切り・砂嵐）の直後、切った枚数と同じ枚数のジョーカーを持つ人はすぐに出せる（cut_back）"
              "。場がまた流れ、その人が親。")
PARAMS: dict = {}
DECLARABLE = True
OPENS_CUT_BACK = True  # a cut back can be cut back in turn (as can the cuts of rules setting this flag)
REACTS_TO = (FieldCut,)


def react(st: State, event: FieldCut, params) -> tuple:
    """The window after a cut by a rule with ``OPENS_CUT_BACK``: a cut back offered to every seat that public
    facts do not rule out."""
    a = st.after
    assert a is not None  # asked right after a cut (flow.open_window)
    if a.cut not in st.rules.flagged("OPENS_CUT_BACK"):
        return ()
    n = a.cards or (st.field.reading.n if st.field else 0)
    # jokers every view shows gone: played, or out of play (undealt in a partial deal)
    gone = st.beneath | st.discard | st.out_of_play | (st.field.reading.mask if st.field else 0)
    unplayed = count(JOKERS_MASK & deck(st.rules.jokers) & ~gone)
    seats = offered_to({s: st.left(s) for s in st.active_seats()}, a.seat, n, unplayed)
    return tuple(Pending(s, ID, n, ID) for s in seats)


def offered_to(cards_left: dict[int, int], cutter: int, n: int, jokers_unplayed: int) -> list[int]:
    """The seats in the window, from public facts only (hand sizes, jokers not yet played): never from hands."""
    if n <= 0 or jokers_unplayed < n:
        return []
    return [s for s, left in cards_left.items() if s != cutter and left >= n]


def narrate(entry, seat_name, cards_text) -> str:
    return f"{seat_name(entry.get('seat'))} cuts back with {cards_text(entry.get('cards'))}"
