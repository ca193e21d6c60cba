"""``referee uecda-server``: accept the contest clients, shake hands, run the match (UECDA.md §2)."""
from __future__ import annotations

import logging
import socket

from . import protocol
from .conn import Fault, Peer
from .match import Config, Match
from .players import Bot, Remote

log = logging.getLogger("uecda.server")
PROFILE_WAIT_S = 2.0     # the reference server waits 2 s for the profile table


def parse_seats(text: str | None) -> list[str]:
    seats = [s.strip() for s in (text or ",".join(["human"] * protocol.PLAYERS)).split(",")]
    if len(seats) != protocol.PLAYERS:
        raise ValueError(f"--seats needs {protocol.PLAYERS} entries, not {len(seats)}")
    from workers.bots import names
    bad = [s for s in seats if s != "human" and s not in names()]
    if bad:
        raise ValueError(f"unknown seat {bad[0]!r}: use human or one of {', '.join(names())}")
    return seats


def listen(host: str, port: int) -> socket.socket:
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((host, port))
    srv.listen(protocol.PLAYERS)
    return srv


def handshake(conn: socket.socket, number: int) -> Remote:
    """Read the profile table (version 20070 and the name), answer with the player number."""
    peer = Peer(conn, f"player{number}")
    name = f"player{number}"
    try:
        t = protocol.unpack_table(peer.recv(protocol.TABLE_BYTES, PROFILE_WAIT_S))
        if t[0][0] != protocol.VERSION:
            log.warning("player %d speaks protocol %d; only %d is spoken here", number, t[0][0], protocol.VERSION)
        name = protocol.name_of(t) or name
    except Fault as f:
        log.warning("player %d sent no profile table (%s); the protocol 20060 fallback is not supported", number,
                    f.reason)
    peer.send(protocol.pack_int(number))
    return Remote(number, name, peer)


def accept_players(srv: socket.socket, seats: list[str], seed, accept_timeout: float | None = None,
                   on_accept=None) -> list:
    players = [None] * protocol.PLAYERS
    for i, kind in enumerate(seats):
        if kind != "human":
            players[i] = Bot(i, kind, seed)
    srv.settimeout(accept_timeout)
    for i, kind in enumerate(seats):
        if kind != "human":
            continue
        while True:
            conn, addr = srv.accept()
            players[i] = handshake(conn, i)
            if not players[i].peer.dead:
                break
            log.warning("a connection from %s:%d closed during the handshake; player %d is still free", *addr[:2], i)
        if on_accept is not None:
            on_accept(i)
        log.info("player %d: %s from %s:%d", i, players[i].name, *addr[:2])
    return players


def serve(service, host: str, port: int, seats: list[str], config: Config, on_listen=None,
          accept_timeout: float | None = None, on_accept=None) -> dict:
    """Run one match; ``on_listen(port)`` is called once the socket listens. Returns the match summary."""
    srv = listen(host, port)
    try:
        if on_listen is not None:
            on_listen(srv.getsockname()[1])
        players = accept_players(srv, seats, config.seed, accept_timeout, on_accept)
    finally:
        srv.close()
    match = Match(service, players, config)
    try:
        return match.run()
    finally:
        for p in players:
            p.close()
