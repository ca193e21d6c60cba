"""Parsing a move proposal into plain typed data; malformed proposals raise InputError."""
from __future__ import annotations

from typing import Final

from .cards import RANKS, card, code, codes, parse, parse_many, parse_rank, rank_of, suit_of
from .errors import InputError

ACTIONS: Final = ("play", "pass", "give", "discard", "take", "request", "cut_back")
ANNOTATIONS: Final = ("effects", "kinds", "forbidden_finish")  # referee.annotate's keys: an echoed entry is accepted
FIELDS: Final = {"seat", "action", "cards", "as", "declare", "decline", "rank", "count", "expected_seq", *ANNOTATIONS}
# The fields each action takes besides seat, action, expected_seq and an echoed annotation: anything else is a
# bad_move naming the field (a pass carrying cards would otherwise be stored in the log as it came).
TAKES: Final = {"play": ("cards", "as", "declare", "decline"), "pass": (), "give": ("cards",), "discard": ("cards",),
                "take": ("cards",), "request": ("rank", "count"), "cut_back": ("cards",)}
COMMON: Final = frozenset({"seat", "action", "expected_seq", *ANNOTATIONS})


class Move:
    """A parsed move: built for every listed play and proposal, read on every judgement. Immutable by convention
    (nobody writes one after it is built: listings share them); compiled, a native class, built by a direct call
    and read field by field."""
    __slots__ = ("seat", "action", "cards", "as_map", "declare", "decline", "rank", "count")
    seat: int
    action: str
    cards: int
    as_map: tuple             # ((joker, rank, suit or -1), ...)
    declare: frozenset
    decline: frozenset
    rank: int | None
    count: int | None         # the JSON field's name

    def __init__(self, seat: int, action: str, cards: int = 0, as_map: tuple = (), declare: frozenset = frozenset(),
                 decline: frozenset = frozenset(), rank: int | None = None, count: int | None = None) -> None:
        self.seat, self.action, self.cards, self.as_map = seat, action, cards, as_map
        self.declare, self.decline, self.rank, self.count = declare, decline, rank, count

    def play(self) -> tuple:
        """Everything but the seat (what judging a play reads of the move besides who makes it)."""
        return self.action, self.cards, self.as_map, self.declare, self.decline, self.rank, self.count

    def __eq__(self, other: object) -> bool:
        return type(other) is Move and self.seat == other.seat and self.play() == other.play()

    def __hash__(self) -> int:
        return hash((self.seat, self.play()))

    def __repr__(self) -> str:
        return (f"Move(seat={self.seat!r}, action={self.action!r}, cards={self.cards!r}, as_map={self.as_map!r}, "
                f"declare={self.declare!r}, decline={self.decline!r}, rank={self.rank!r}, count={self.count!r})")

    def for_seat(self, seat: int) -> "Move":
        """The same move by ``seat``."""
        return Move(seat, self.action, self.cards, self.as_map, self.declare, self.decline, self.rank, self.count)

    def to_json(self) -> dict:
        return move_json(self)


def move_json(move: Move) -> dict:
    """A move's JSON (a function: compiled code calls it directly)."""
    seat, action, cards, as_map = move.seat, move.action, move.cards, move.as_map
    # one dict built at once, cards and all: most moves have cards and nothing else
    out: dict = {"seat": seat, "action": action, "cards": codes(cards)} if cards else {"seat": seat, "action": action}
    if as_map:
        out["as"] = {code(j): (code(card(r, s)) if s >= 0 else RANKS[r]) for j, r, s in as_map}
    if move.declare:
        out["declare"] = sorted(move.declare)
    if move.decline:
        out["decline"] = sorted(move.decline)
    rank = move.rank
    if rank is not None:
        out["rank"] = "JK" if rank == 13 else RANKS[rank]
    if move.count is not None:
        out["count"] = move.count
    return out


NONE: Final[frozenset] = frozenset()

def _names(value, what):
    if value is None:
        return NONE
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise InputError("bad_move", f"{what} must be a list of rule ids")
    return frozenset(value)


def _as_map(value, cards_mask):
    if not value:
        return ()
    if not isinstance(value, dict):
        raise InputError("bad_move", "'as' must map jokers to the cards they stand for, e.g. {\"JK1\": \"S7\"}")
    out = []
    for k, v in value.items():
        j = parse(k)
        if j < 52:
            raise InputError("invalid_cards", f"'as' reads jokers only; {code(j)} is not a joker")
        if not cards_mask >> j & 1:
            raise InputError("invalid_cards", f"'as' reads {code(j)}, which is not among the played cards")
        if isinstance(v, str) and len(v.strip()) in (1, 2) and v.strip().upper() in tuple(RANKS) + ("10",):
            out.append((j, parse_rank(v), -1))
            continue
        c = parse(v)
        if c >= 52:
            raise InputError("invalid_cards", f"a joker cannot stand in for another joker ({k} as {v})")
        out.append((j, rank_of(c), suit_of(c)))
    return tuple(sorted(out))


def parse_move(obj) -> Move:
    if not isinstance(obj, dict):
        raise InputError("bad_move", "a move must be an object {seat, action, ...}")
    for key in obj:
        if key not in FIELDS:
            raise InputError("bad_move", f"unknown move field(s): {', '.join(sorted(set(obj) - FIELDS))}")
    seat, action = obj.get("seat"), obj.get("action")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise InputError("bad_move", "seat must be a seat number (0, 1, ...)")
    if action not in ACTIONS:
        raise InputError("bad_move", f"action must be one of {', '.join(ACTIONS)}, not {action!r}")
    for key in obj:
        value = obj[key]
        if key not in COMMON and key not in TAKES[action] and value is not None and value != [] and value != {}:
            takes = ", ".join(("seat", "action") + TAKES[action])
            raise InputError("bad_move", f"a {action} takes no {key!r}: a {action} takes {takes} (and expected_seq)")
    count = obj.get("count")
    if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 1):
        raise InputError("bad_move", "count must be a positive whole number")
    texts = obj.get("cards")
    cards = parse_many(texts) if texts else 0
    if len(obj) == 2 or len(obj) == 3 and texts is not None:
        return Move(seat, action, cards, (), NONE, NONE, None, None)  # {seat, action, cards?}: most proposals
    as_map, declare, decline, rank = obj.get("as"), obj.get("declare"), obj.get("decline"), obj.get("rank")
    return Move(seat, action, cards, _as_map(as_map, cards) if as_map else (),
                NONE if declare is None else _names(declare, "declare"),
                NONE if decline is None else _names(decline, "decline"),
                None if rank is None else parse_rank(rank), count)
