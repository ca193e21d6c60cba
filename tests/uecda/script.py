"""Scripted protocol clients: raw sockets, tables built by hand, one thread driving all five seats."""
from __future__ import annotations

import socket
import struct

ROWS, COLS = 8, 15


def empty():
    return [[0] * COLS for _ in range(ROWS)]


def recv_exact(sock, n):
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("closed")
        buf += chunk
    return buf


class Raw:
    """One contest client on a socket, written from UECDA.md only."""

    def __init__(self, port, name, timeout=20):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.name = name
        self.number = None

    def send_table(self, t):
        self.sock.sendall(struct.pack(">120i", *[v for row in t for v in row]))

    def table(self):
        flat = struct.unpack(">120i", recv_exact(self.sock, 480))
        return [list(flat[r * COLS:(r + 1) * COLS]) for r in range(ROWS)]

    def integer(self):
        return struct.unpack(">i", recv_exact(self.sock, 4))[0]

    def hello(self):
        t = empty()
        t[0][0] = 20070
        for i, ch in enumerate(self.name):
            t[1][i] = ord(ch)
        self.send_table(t)
        self.number = self.integer()
        return self.number

    def close(self):
        self.sock.close()


def join(port, n=5):
    """n clients connected one after the other, in player-number order."""
    out = []
    for i in range(n):
        c = Raw(port, f"raw{i}")
        assert c.hello() == i
        out.append(c)
    return out


def cards(t):
    """[(row, col)] of the cards in a hand table, joker as (4, 1)."""
    return [(r, c) for r in range(5) for c in range(15) if t[r][c]]


def single(r, c):
    t = empty()
    if r == 4:
        t[0][14] = 2      # a lone joker
    else:
        t[r][c] = 1
    return t


def lowest_single(hand_table, above=0, suit=None):
    """The lowest single card of a hand stronger than column ``above`` (optionally of one suit), or None."""
    best = None
    for r, c in cards(hand_table):
        if r == 4 or c <= above or (suit is not None and r != suit):
            continue
        if best is None or c < best[1]:
            best = (r, c)
    if best is None and [(r, c) for r, c in cards(hand_table)] == [(4, 1)]:
        return (4, 1)     # only the joker left: play it alone
    return best


class Table:
    """All five clients of a match, driven turn by turn from one thread."""

    def __init__(self, clients):
        self.clients = clients
        self.field = empty()
        self.flags = []

    def deal(self):
        return [c.table() for c in self.clients]

    def turn_tables(self, skip=()):
        return {c.number: c.table() for c in self.clients if c.number not in skip}

    def act(self, tables, move, skip=()):
        """The mover sends ``move``; returns (reply, field table, flag) as seen by the clients."""
        mover = next(p for p, t in tables.items() if t[5][2] == 1)
        self.clients[mover].send_table(move)
        reply = self.clients[mover].integer()
        fields = {c.number: c.table() for c in self.clients if c.number not in skip}
        flags = {c.number: c.integer() for c in self.clients if c.number not in skip}
        assert len(set(map(str, fields.values()))) == 1, "every client sees the same field table"
        assert len(set(flags.values())) == 1
        field = next(iter(fields.values()))
        flag = next(iter(flags.values()))
        self.field = field
        return reply, field, flag

    def simple_move(self, t):
        """Lead the lowest single; follow a single with the lowest higher single (same suit under lock)."""
        f = self.field
        on_field = [(r, c) for r in range(5) for c in range(15) if f[r][c]]
        if t[5][4] == 1:
            pick = lowest_single(t)
        elif len(on_field) == 1 and f[on_field[0][0]][on_field[0][1]] == 1:
            r, c = on_field[0]
            pick = lowest_single(t, above=c, suit=r if t[5][7] else None)
            if pick == (4, 1):
                pick = None
        else:
            pick = None
        return empty() if pick is None else single(*pick)

    def play_out(self, skip=(), move_for=None, tables=None):
        """Play simple moves until the game ends; returns the flag (1 or 2). ``tables``: turn tables already read."""
        while True:
            tables = tables or self.turn_tables(skip)
            mover = next((p for p, t in tables.items() if t[5][2] == 1), None)
            assert mover is not None
            t = tables[mover]
            move = (move_for(mover, t) if move_for else None) or self.simple_move(t)
            _, _, flag = self.act(tables, move, skip)
            tables = None
            if flag:
                return flag
