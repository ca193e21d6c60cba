"""``referee uecda-client``: one of our bots plays a whole match on any UECda server, judging every table."""
from __future__ import annotations

import logging
import random
import socket
import time

from referee import judge, legal_moves
from workers.bots import make
from workers.bots.observer import observe

from . import protocol, tables
from .conn import Fault, Peer
from .players import weakest
from .tracker import Tracker

log = logging.getLogger("uecda.client")


def connect(host: str, port: int, timeout: float) -> socket.socket:
    """Clients of the reference never retry; we do, until ``timeout``, so a server may start after us."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return socket.create_connection((host, port), timeout=max(0.1, deadline - time.monotonic()))
        except OSError:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.05)  # polling a port that is not open yet; nothing to wait on


def bot_view(view: dict) -> dict:
    """The seat's view as the bots know it from a served game: the tracker's table-mode bookkeeping (other hands
    as unknown counts) would make the mc bot's sampled deals inconsistent, and it would fall back to greedy."""
    return dict(view, table=False, players=[dict(p, unknown=0) for p in view["players"]])


class Client:
    def __init__(self, peer: Peer, bot: str, seed=None):
        self.peer = peer
        self.bot_name = bot
        self.choose = make(bot)
        self.rng = random.Random(seed)
        self.tracker = None
        self.plays = 0

    def table(self):
        return protocol.unpack_table(self.peer.recv(protocol.TABLE_BYTES, None))

    def integer(self) -> int:
        return protocol.unpack_int(self.peer.recv(protocol.INT_BYTES, None))

    def send_table(self, t) -> None:
        if not self.peer.send(protocol.pack_table(t)):
            raise Fault(self.peer.dead or "send failed")

    def decide(self) -> dict:
        tr = self.tracker
        seat = tr.seat_of(tr.me)
        if not tr.judging():
            return {"seat": seat, "action": "pass"}   # lost track after a disagreement: pass to the next deal
        st = tr.state
        legal = legal_moves(st, seat)
        if len(legal) == 1:
            move = legal[0]
        else:
            seen = observe(st, seat, legal)
            move = self.choose(bot_view(seen.view), seen.legal, self.rng, forbidden_last=seen.forbidden_last)
        if move["action"] == "play" and any(c.startswith("JK") for c in move["cards"]) and len(move["cards"]) > 1 \
                and not move.get("as"):
            move = dict(move, **{"as": judge(st, move).reading})
        return move

    def run(self, me: int) -> bool:
        """Play until the match-over flag; False if the server went away first."""
        tr = self.tracker = Tracker(me)
        t = self.table()
        while True:
            if t[5][0] == 1:                       # the deal table
                tr.on_deal(t)
                give = t[5][1]
                if give > 0:
                    self.send_table(tables.hand_table(weakest(tables.hand_of(t), give)))
                t = self.table()
                continue
            tr.on_turn(t)
            own = reply = None
            if t[5][2] == 1:
                own = self.decide()
                rs = tr.state.revolution if tr.state is not None else False
                if own["action"] == "play":
                    self.send_table(tables.play_table(own["cards"], own.get("as"), rs))
                else:
                    self.send_table(protocol.empty())
                reply = self.integer()
                tr.on_own_reply(own, reply)
                self.plays += 1
            tr.on_field(self.table(), own, reply)
            flag = self.integer()
            tr.on_flag(flag)
            if flag == protocol.MATCH_OVER:
                return True
            t = self.table()


def run_client(host: str, port: int, bot: str, name: str | None = None, seed=None,
               connect_timeout: float = 10.0) -> dict:
    name = (name or f"{bot}-referee")[:14]
    sock = connect(host, port, connect_timeout)
    peer = Peer(sock, name)
    client = Client(peer, bot, seed)
    completed = False
    me = None
    try:
        peer.send(protocol.pack_table(protocol.profile(name)))
        me = protocol.unpack_int(peer.recv(protocol.INT_BYTES, None))
        log.info("%s is player %d", name, me)
        completed = client.run(me)
    except Fault as f:
        log.warning("the server went away: %s", f.reason)
    finally:
        peer.close()
    tr = client.tracker
    return {"name": name, "bot": bot, "player": me, "completed": completed, "games": tr.game if tr else 0,
            "moves_judged": tr.moves_judged if tr else 0,
            "disagreements": len(tr.disagreements) if tr else 0,
            "details": tr.disagreements[:20] if tr else []}
