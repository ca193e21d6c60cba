"""The two message kinds of protocol 20070: TABLE (8 x 15 big-endian int32) and INT (one int32); UECDA.md §1."""
from __future__ import annotations

import struct

VERSION = 20070
PORT = 42485
ROWS, COLS = 8, 15
TABLE_BYTES = ROWS * COLS * 4
INT_BYTES = 4
PLAYERS = 5

ACCEPTED, REJECTED = 9, 8              # the reply to a mover
GO_ON, GAME_OVER, MATCH_OVER = 0, 1, 2  # the flag after every turn

_TABLE = struct.Struct(">120i")
_INT = struct.Struct(">i")


def empty() -> list[list[int]]:
    return [[0] * COLS for _ in range(ROWS)]


def pack_table(table) -> bytes:
    """One prebuilt buffer; the reference server sends negative values as 0."""
    return _TABLE.pack(*(max(0, v) for row in table for v in row))


def unpack_table(data: bytes) -> list[list[int]]:
    flat = _TABLE.unpack(data)
    return [list(flat[r * COLS:(r + 1) * COLS]) for r in range(ROWS)]


def pack_int(value: int) -> bytes:
    return _INT.pack(max(0, value))


def unpack_int(data: bytes) -> int:
    return _INT.unpack(data)[0]


def profile(name: str) -> list[list[int]]:
    """The handshake table: the version at [0][0], the name's char codes in row 1 (the server keeps 14)."""
    t = empty()
    t[0][0] = VERSION
    for i, ch in enumerate(name[:14]):
        t[1][i] = ord(ch) & 0x7F or ord("?")
    return t


def name_of(table) -> str:
    chars = []
    for v in table[1][:14]:
        if v == 0:
            break
        chars.append(chr(v) if 32 <= v < 127 else "?")
    return "".join(chars)
