"""カード要求 (exchange request, gekifugo): the top names ranks instead of receiving the strongest cards.

The request is a decision this rule runs itself, through its terms (referee/terms.py): ``Asked`` on the request
(the ranks answered "not held", which cannot be named again) judges, lists and answers the naming of a rank;
``OfRank`` on the give that answers it restricts the cards to the rank named.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final

from ..cards import JOKERS_MASK, RANKS, count, rank_mask, rank_name
from ..flow_events import DealQueue, Given
from ..state import Pending, copied
from ..terms import Terms
from .base import Rejection

ID: Final = "exchange_request"
NAME_JA = "カード要求"
NAME_EN = "card request"
SUMMARY = ("Instead of receiving the last player's strongest cards, the first player names a rank (or JK) with "
           "action request; if the last player holds it, at least one card of it is handed over (the first may "
           "ask for fewer with count, never none). A rank answered 'not held' cannot be named again; naming goes "
           "on until N cards are received.")
SUMMARY_JA = ("1位は最下位の一番強い札をもらう代わりに、数字（またはJK）を指定して要求する。"
              "持っていれば1枚以上渡される。「ない」と答えた数字はもう指定できない。N枚受け取るまで続く。")
PARAMS: dict = {}
REACTS_TO = (Given,)
JOKER: Final = 13  # the "rank" JK names


def _cards_of_rank(rank: int) -> int:
    return JOKERS_MASK if rank == JOKER else rank_mask(rank)


def _rank_of(name: str) -> int:
    return JOKER if name == "JK" else RANKS.index(name)


@dataclass(init=False, unsafe_hash=True)
class Asked(Terms):
    """A request for cards of a rank the requester names, made of seat ``to``: ``not_held`` are the ranks answered
    "not held", which cannot be named again."""
    ACTION: ClassVar[str] = "request"
    not_held: tuple

    def __init__(self, not_held: tuple = ()) -> None:
        self.not_held = not_held

    def refusal(self, p: Pending, mv) -> Rejection | None:
        if mv.rank is None:
            return Rejection("not_allowed", "name a rank with rank: '3'…'2' or 'JK' (exchange_request)", p.rule)
        if mv.rank in self.not_held:
            return Rejection("not_allowed", f"rank {rank_name(mv.rank)} was already answered 'not held' "
                             "(exchange_request)", p.rule)
        return None

    def answer(self, st, p: Pending, mv, log):
        """The asked seat hands over the cards of the rank named (as many as asked for, at most those owed), or it
        holds none: the rank is noted. In table mode the asked seat answers itself (an ``upto`` give)."""
        asked = p.to
        assert asked is not None  # a request is made of a named seat
        rank = mv.rank
        if st.players[asked].unknown:
            upto = min(p.count, mv.count or p.count)
            give = Pending(asked, "give", upto, p.rule, to=mv.seat, upto=True, terms=OfRank(rank))
            return copied(st, {"pending": (give,) + st.pending})
        held = st.hand(asked) & _cards_of_rank(rank)
        if not held:
            log.append({"kind": "request", "seat": mv.seat, "rank": rank_name(rank), "held": False, "rule": p.rule})
            return noted(st, p, rank, st.pending[1:])
        take = min(count(held), p.count, mv.count or count(held))
        log.append({"kind": "request", "seat": mv.seat, "rank": rank_name(rank), "held": True, "count": take,
                    "rule": p.rule})
        queue = st.pending[1:]
        if p.count > take:
            queue = (p._replace(count=p.count - take),) + queue
        give = Pending(asked, "give", take, p.rule, to=mv.seat, terms=OfRank(rank))
        return copied(st, {"pending": (give,) + queue})

    def moves(self, p: Pending) -> list[dict]:
        """Every rank not answered "not held", with every count short of what is owed (none: all it holds)."""
        out: list[dict] = []
        for r in range(JOKER + 1):
            if r in self.not_held:
                continue
            name = rank_name(r)
            out.append({"seat": p.seat, "action": "request", "rank": name})
            out.extend({"seat": p.seat, "action": "request", "rank": name, "count": k} for k in range(1, p.count))
        return out

    def json(self, p: Pending, viewer) -> dict:
        return {"not_held": [rank_name(r) for r in self.not_held]} if self.not_held else {}

    @classmethod
    def from_json(cls, obj: dict) -> Terms | None:
        return cls(tuple(_rank_of(r) for r in obj.get("not_held", [])))


@dataclass(init=False, unsafe_hash=True)
class OfRank(Terms):
    """A give answering a request: only cards of ``rank`` (13: jokers). In table mode (``upto``) the asked seat
    gives 1 to ``count`` of them, or passes: it holds none."""
    ACTION: ClassVar[str] = "give"
    rank: int

    def __init__(self, rank: int) -> None:
        self.rank = rank

    def usable(self, cards: int) -> int:
        return cards & _cards_of_rank(self.rank)

    def refusal(self, p: Pending, mv) -> Rejection | None:
        if mv.cards & ~_cards_of_rank(self.rank):
            return Rejection("not_allowed", f"only cards of rank {rank_name(self.rank)} may be handed over for this "
                             "request (exchange_request)", p.rule)
        return None

    def describe(self) -> str:
        return f" of rank {rank_name(self.rank)}"

    def answer(self, st, p: Pending, mv, log):
        """A table-mode answer of "not held" (a pass): the rank is noted on the request behind it."""
        if not (p.upto and mv.action == "pass"):
            return None
        log.append({"kind": "request", "seat": p.to, "rank": rank_name(self.rank), "held": False, "rule": p.rule})
        return noted(st, st.pending[1], self.rank, st.pending[2:])

    def json(self, p: Pending, viewer) -> dict:
        return {"rank": rank_name(self.rank)}

    @classmethod
    def from_json(cls, obj: dict) -> Terms | None:
        rank = obj.get("rank")
        return None if rank is None else cls(_rank_of(rank))


TERMS = (Asked, OfRank)


def noted(st, ask: Pending, rank: int, queue: tuple):
    """A rank answered "not held" cannot be named again; once every rank has been, the request ends with the
    cards received so far (only a table-mode answer, which the referee cannot check, gets there)."""
    before = ask.terms.not_held if isinstance(ask.terms, Asked) else ()
    ask = ask._replace(terms=Asked(before + (rank,)))
    if len(set(before + (rank,))) > JOKER:
        return copied(st, {"pending": queue})
    return copied(st, {"pending": (ask,) + queue})


def new_deal(st, part, params):
    """The first give of the exchange's queue (the last player's strongest to the first) becomes a request."""
    if not isinstance(part, DealQueue) or not part.pending:
        return part
    give = part.pending[0]
    return DealQueue((Pending(give.to, "request", give.count, ID, to=give.seat, terms=Asked()),) + part.pending[1:])


def react(st, event: Given, params):
    """A table-mode answer (an ``upto`` give) has handed over its cards: the request behind it asks for that many
    fewer, and ends when nothing more is owed."""
    p = event.pending
    if p.rule != ID or not p.upto:
        return st
    ask = st.pending[0]
    rest = ask.count - count(event.cards)
    return copied(st, {"pending": ((ask._replace(count=rest),) if rest else ()) + st.pending[1:]})
