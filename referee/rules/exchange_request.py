"""カード要求 (exchange request, gekifugo): the top names ranks instead of receiving the strongest cards."""
from typing import Final

from ..flow_events import DealQueue
from ..state import Pending

ID: Final = "exchange_request"
NAME_JA = "カード要求"
SUMMARY = ("Instead of receiving the last player's strongest cards, the first player names a rank (or JK) with "
           "action request; if the last player holds it, at least one card of it is handed over (the first may "
           "ask for fewer with count, never none). A rank answered 'not held' cannot be named again; naming goes "
           "on until N cards are received.")
PARAMS: dict = {}


def new_deal(st, part, params):
    """The first give of the exchange's queue (the last player's strongest to the first) becomes a request."""
    if not isinstance(part, DealQueue) or not part.pending:
        return part
    give = part.pending[0]
    return DealQueue((Pending(give.to, "request", give.count, ID, to=give.seat),) + part.pending[1:])
