"""The five players of a match: TCP clients, or our own bots played in process (workers.bots)."""
from __future__ import annotations

import random

from referee import judge, legal_moves, state_from_json
from referee.cards import cards_of, code, rank_of, suit_of
from workers.bots import make
from workers.bots.observer import ask

from . import protocol
from .conn import Peer


def strength_key(c: int):
    """The reference server's "strongest": the joker, then the highest rank, ties S > H > D > C."""
    return (1, 0, 0) if c >= 52 else (0, rank_of(c), -suit_of(c))


def strongest(mask: int, n: int) -> int:
    out = 0
    for c in sorted(cards_of(mask), key=strength_key, reverse=True)[:n]:
        out |= 1 << c
    return out


def weakest(mask: int, n: int) -> int:
    out = 0
    for c in sorted(cards_of(mask), key=strength_key)[:n]:
        out |= 1 << c
    return out


class Remote:
    """A contest client on a TCP connection."""
    remote = True

    def __init__(self, number: int, name: str, peer: Peer):
        self.number, self.name, self.peer = number, name, peer

    def send(self, buf: bytes) -> None:
        self.peer.send(buf)

    def ask(self, buf: bytes, timeout: float | None):
        """Send a table that wants an answer and read the answer TABLE; raises Fault."""
        self.question(buf)
        return self.answer(timeout)

    def question(self, buf: bytes) -> None:
        """Send a table that wants an answer; what the client sent before it is not the answer."""
        self.peer.drain()
        self.peer.send(buf)

    def answer(self, timeout: float | None):
        return protocol.unpack_table(self.peer.recv(protocol.TABLE_BYTES, timeout))

    def close(self) -> None:
        self.peer.close()


class Bot:
    """One of our bots, deciding from the engine state (it needs no tables)."""
    remote = False

    def __init__(self, number: int, strategy: str, seed: int):
        self.number, self.name, self.strategy = number, f"{strategy}{number}", strategy
        self.choose = make(strategy)
        self.seed = seed

    def send(self, buf: bytes) -> None:
        pass

    def play(self, state_json: dict, seat: int) -> dict:
        st = state_from_json(state_json)
        legal = legal_moves(st, seat)
        rng = random.Random(f"uecda:{self.seed}:{st.seq}:{seat}")
        move = legal[0] if len(legal) == 1 else ask(self.choose, st, seat, rng, legal=legal)
        if move.get("action") == "play" and any(c.startswith("JK") for c in move.get("cards", ())) \
                and not move.get("as") and len(move["cards"]) > 1:
            move = dict(move, **{"as": judge(st, move).reading})  # the table needs the joker's cell
        return move

    def give_back(self, hand: int, n: int) -> int:
        return weakest(hand, n)

    def close(self) -> None:
        pass


def card_list(mask: int) -> list[str]:
    return [code(c) for c in cards_of(mask)]
