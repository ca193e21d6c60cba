"""What one seat of a table-mode game knows of the other hands.

In table mode the referee learns some cards of a hand only because they were given to it (an exchange, a 7-pass,
Bloody Mary): the giver and the receiver saw those cards change hands, nobody else did. The referee's own state
holds every card it has seen, so a listing or a what-if worked out on it would tell a third seat which cards went
where (a card it "cannot hold" is a card someone else was seen to receive). A seat's questions are answered on
``as_known_to``: the state with every other hand reduced to the cards this seat itself gave away, the rest counted
as unknown.
"""
from __future__ import annotations

from .cards import count
from .state import Player, State, replace


def as_known_to(st: State, seat: int, given_away: int) -> State:
    """``st`` as ``seat`` knows it: another seat's known cards stay known only among ``given_away`` (the cards
    ``seat`` gave in this deal, seen by the referee in that seat's hand). Outside table mode every hand is dealt by
    the referee and a seat's questions never read another hand's cards, so ``st`` is returned as it is."""
    if not st.table:
        return st
    players = []
    for p in st.players:
        kept = p.hand if p.seat == seat else p.hand & given_away
        players.append(p if kept == p.hand else
                       Player(p.seat, p.name, kept, p.place, p.unknown + count(p.hand & ~kept)))
    return replace(st, players=tuple(players))
