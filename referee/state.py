"""The game state: plain immutable data. Every change makes a new State."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, NamedTuple, TypeVar

from .cards import count, rank_of
from .shapes import Reading
from .slots import order_turned

if TYPE_CHECKING:
    from .ruleset import Ruleset
    from .slots import Slot
    from .terms import Terms

T = TypeVar("T")


# Player and Field are dataclasses with a hand-written __init__: compiled, a dataclass's generated __init__ is
# interpreted and several times slower to call, while its generated __eq__, __hash__ and __repr__ are only read by
# tests and logs. The rarer parts are named tuples, built on hot paths by ``new_tuple(Cls, (every field, ...))``:
# a named tuple's generated __new__ is interpreted too.
new_tuple: Final = tuple.__new__


@dataclass(init=False, unsafe_hash=True)
class Player:
    """One seat. Immutable by convention (a change makes a new one)."""
    seat: int
    name: str
    hand: int                     # bitmask of the cards known to be in the hand
    place: int | None             # 1 = first to finish in this deal
    unknown: int                  # cards in the hand the referee has not seen (table mode)
    # cards in the hand, seen or not: worked out by __init__ (a copy made by ``replace`` works it out again),
    # because every ply asks it of every seat
    left: int = dataclasses.field(init=False, compare=False, repr=False)

    def __init__(self, seat: int, name: str, hand: int, place: int | None = None, unknown: int = 0) -> None:
        self.seat, self.name, self.hand, self.place, self.unknown = seat, name, hand, place, unknown
        self.left = count(hand) + unknown


class Pending(NamedTuple):
    """A decision a named seat must make before play goes on. What its rule adds is in ``terms`` (referee/terms.py:
    exchange's withheld cards, exchange_request's rank and the ranks answered "not held")."""
    seat: int
    action: str                   # give, discard, take, request, cut_back
    count: int  # type: ignore[assignment]  # shadows tuple.count
    rule: str
    to: int | None = None         # recipient of a give; the seat a request is made of
    strongest: bool = False       # the cards must be the seat's strongest (exchange, Bloody Mary)
    reversed: bool = False        # the order "strongest" is judged in
    upto: bool = False            # table mode: an answer to a request, of 1..count cards, or pass for "not held"
    terms: Terms | None = None    # what the decision's rule adds to it, or None


@dataclass(init=False, unsafe_hash=True)
class Field:
    """The cards on the field as read, and who played them (immutable by convention)."""
    reading: Reading
    seat: int

    def __init__(self, reading: Reading, seat: int) -> None:
        self.reading, self.seat = reading, seat


class After(NamedTuple):
    """What a play still has to do once its pending decisions are resolved."""
    seat: int                     # the player (after a cut back: the one who cut back)
    cut: str | None = None        # the rule that cut, if any
    skip: int = 0
    went_out: tuple = ()          # ((seat, forbidden reason or None), ...) who emptied a hand with a play
    window_done: bool = False     # the cut-back window after the cut has been offered
    cards: int = 0                # cards the play put down (a cut back needs as many jokers); 0: the field's size


# The State's fields, in order, and what each holds: the one declaration of them. ``State``'s annotations, its
# ``__init__`` (every parameter, in this order), ``clone`` and ``values`` are written out by hand for speed and
# checked against it (tests/engine/test_state.py), and so are the state JSON's table (state_fields.FIELDS: each field
# in exactly one key) and openapi.yaml's State schema (tests/engine/test_state_schema.py). What a rule keeps is no
# field: it is the rule's slots (``view_slots``, ``rule_slots``) or the terms of its pending decisions.
SCHEMA: Final = (
    ("rules", "the Ruleset played: its preset, the rules switched on and their parameters"),
    ("players", "the seats in order: hand, unknown count (table mode) and place"),
    ("seq", "the seq of the last event applied"),
    ("deal", "the deal of the match, from 1"),
    ("phase", "exchange, play or deal_over"),
    ("turn", "the seat to play, or None while nobody is (a decision pending, the deal over)"),
    ("direction", "1 or -1: the way the turn goes round"),
    ("revolution", "a revolution holds: the order of strength is turned (a slot may turn it again: ``reversed``)"),
    ("field", "the play to beat, or None when the field is empty"),
    ("beneath", "cards beaten earlier in this trick, still on the table"),
    ("trick_plays", "plays in this trick"),
    ("pending", "the decisions owed before play goes on, the head first"),
    ("after", "what the last play still has to do once its pending decisions are made, or None"),
    ("finish_order", "the seats in the order they went out in this deal"),
    ("discard", "the discard pile"),
    ("out_of_play", "cards dealt to nobody"),
    ("first_play", "the first play of the match has not happened yet"),
    ("dealer", "the seat that dealt this deal"),
    ("seed", "the seed the game is dealt from, or None"),
    ("previous_places", "places of the previous deal, by seat"),
    # Ending a deal is the flow's: any rule may end one through the hooks the flow asks (a Passed or a Finished
    # event), and the record of which did is the flow's too, as After.cut names the rule that cut. No rule reads it.
    ("ended_by", "the rule that ended the deal before every seat went out (gekokujo, pass_abort), or None"),
    ("table", "table mode: hands are unknown, only counts and what was shown"),
    ("hidden_discards", "cards discarded unseen (a fallen top's unknown hand, table mode)"),
    ("view_slots", "the values of the rules' slots the play rules see (ruleset.view_slots' order)"),
    ("rule_slots", "the values of the rest of the rules' slots (ruleset.rule_slots' order)"),
)


class State:
    """The whole state of a game. Immutable: every move makes a new State (``copied``, or a ``clone`` the move
    fills in before anyone else sees it). Its fields are SCHEMA's. Not a dataclass: compiled, its annotations would
    name the Ruleset class before the ruleset module (which imports every rule, which import this one) has made
    it."""
    rules: "Ruleset"
    players: tuple[Player, ...]
    seq: int
    deal: int
    phase: str
    turn: int | None
    direction: int
    revolution: bool
    field: Field | None
    beneath: int
    trick_plays: int
    pending: tuple[Pending, ...]
    after: After | None
    finish_order: tuple
    discard: int
    out_of_play: int
    first_play: bool
    dealer: int
    seed: int | None
    previous_places: tuple
    ended_by: str | None
    table: bool
    hidden_discards: int
    view_slots: tuple
    rule_slots: tuple

    def __init__(self, rules: "Ruleset", players: tuple[Player, ...], seq: int = 0, deal: int = 1, phase: str = "play",
                 turn: int | None = None, direction: int = 1, revolution: bool = False,
                 field: Field | None = None, beneath: int = 0, trick_plays: int = 0,
                 pending: tuple[Pending, ...] = (), after: After | None = None, finish_order: tuple = (), discard: int = 0,
                 out_of_play: int = 0, first_play: bool = True, dealer: int = 0, seed: int | None = None,
                 previous_places: tuple = (), ended_by: str | None = None, table: bool = False,
                 hidden_discards: int = 0, view_slots: tuple | None = None, rule_slots: tuple | None = None) -> None:
        self.rules = rules
        self.players = players
        self.seq = seq
        self.deal = deal
        self.phase = phase
        self.turn = turn
        self.direction = direction
        self.revolution = revolution
        self.field = field
        self.beneath = beneath
        self.trick_plays = trick_plays
        self.pending = pending
        self.after = after
        self.finish_order = finish_order
        self.discard = discard
        self.out_of_play = out_of_play
        self.first_play = first_play
        self.dealer = dealer
        self.seed = seed
        self.previous_places = previous_places
        self.ended_by = ended_by
        self.table = table
        self.hidden_discards = hidden_discards
        self.view_slots = rules.view_defaults if view_slots is None else view_slots
        self.rule_slots = rules.rule_defaults if rule_slots is None else rule_slots

    def values(self) -> tuple:
        """Every field, in FIELD_NAMES order."""
        return tuple(getattr(self, name) for name in FIELD_NAMES)

    def __eq__(self, other: object) -> bool:
        return type(other) is State and self.values() == other.values()

    def __hash__(self) -> int:
        return hash(self.values())

    def __repr__(self) -> str:
        return "State(" + ", ".join(f"{k}={v!r}" for k, v in zip(FIELD_NAMES, self.values())) + ")"

    def clone(self) -> State:
        # every field named: compiled, this calls the native constructor directly (a starred call parses every
        # argument by name)
        return State(self.rules, self.players, self.seq, self.deal, self.phase, self.turn, self.direction,
                     self.revolution, self.field, self.beneath, self.trick_plays,
                     self.pending, self.after, self.finish_order, self.discard, self.out_of_play, self.first_play,
                     self.dealer, self.seed, self.previous_places, self.ended_by, self.table, self.hidden_discards,
                     self.view_slots, self.rule_slots)

    def slot(self, slot: Slot[T]) -> T:
        """The value of a rule's declared state (referee/slots.py)."""
        return self.view_slots[slot.index] if slot.view else self.rule_slots[slot.index]

    @property
    def reversed(self) -> bool:
        """The order of strength is turned: by the revolution, or else by a rule's slot (jack back), not both."""
        return self.revolution != order_turned(self.rules.order_slots, self.view_slots)

    @property
    def order(self) -> str:
        return "reversed" if self.reversed else "normal"

    def active(self, seat: int) -> bool:
        p = self.players[seat]
        return p.place is None

    def active_seats(self) -> list[int]:
        return [p.seat for p in self.players if p.place is None]

    def with_player(self, seat: int, **changes) -> "State":
        players = list(self.players)
        p = players[seat]
        players[seat] = Player(p.seat, changes.pop("name", p.name), changes.pop("hand", p.hand),
                               changes.pop("place", p.place), changes.pop("unknown", p.unknown))
        if changes:
            raise TypeError(f"Player has no field(s) {sorted(changes)}")
        return replace(self, players=tuple(players))

    def players_without(self, seat: int, cards: int) -> tuple:
        """The players once ``seat`` no longer holds ``cards`` (see ``without``)."""
        players = list(self.players)
        p = players[seat]
        players[seat] = Player(p.seat, p.name, p.hand & ~cards, p.place, p.unknown - count(cards & ~p.hand))
        return tuple(players)

    def free_places(self) -> list[int]:
        """The places nobody holds yet, best first."""
        taken = {p.place for p in self.players if p.place is not None}
        return [k for k in range(1, len(self.players) + 1) if k not in taken]

    def hand(self, seat: int) -> int:
        return self.players[seat].hand

    def left(self, seat: int) -> int:
        """How many cards ``seat`` holds, seen or not."""
        return self.players[seat].left

    def seen(self) -> int:
        """Every card whose place the referee knows."""
        mask = self.beneath | self.discard | self.out_of_play
        if self.field is not None:
            mask |= self.field.reading.mask
        for p in self.players:
            mask |= p.hand
        return mask

    def unheld(self, seat: int, cards: int) -> int:
        """The cards of ``cards`` that ``seat`` cannot be holding (all of them, if it holds too few)."""
        hand = self.players[seat].hand
        unseen = cards & ~hand
        if not unseen:
            return 0
        p = self.players[seat]
        elsewhere = unseen & self.seen()
        if elsewhere or count(unseen) > p.unknown:
            return elsewhere or unseen
        return 0

    def without(self, seat: int, cards: int) -> "State":
        """``seat`` no longer holds ``cards`` (seen ones leave its hand, the rest its unknown count)."""
        return replace(self, players=self.players_without(seat, cards))


def strength(c: int, reversed_order: bool) -> int:
    """A card's strength for "the strongest cards": jokers highest."""
    if c >= 52:
        return 100
    r = rank_of(c)
    return 12 - r if reversed_order else r


FIELD_NAMES: Final = tuple(name for name, _ in SCHEMA)
_FIELDS: Final = frozenset(FIELD_NAMES)


def _replace_state(self: State, changes: dict) -> State:
    for name in changes:
        if name not in _FIELDS:
            raise TypeError(f"State has no field(s) {sorted(set(changes) - _FIELDS)}")
    return copied(self, changes)


def copied(st: State, changes: dict) -> State:
    """``st`` with ``changes`` (State fields the engine itself names, not checked): what every move does to a
    State, without ``replace``'s keyword packing and check. A clone, its fields then set, in pure Python too: a
    State given another instance dictionary would lose the shared keys that make every later field read fast."""
    new = st.clone()
    for name, value in changes.items():
        setattr(new, name, value)
    return new


def with_slot(st: State, slot: Slot[T], value: T) -> State:
    """``st`` with the rule's ``slot`` (referee/slots.py) holding ``value``: how a state hook changes its rule's
    state (a play's effects change it with ``Resolution.put``)."""
    name = "view_slots" if slot.view else "rule_slots"
    values = list(st.view_slots if slot.view else st.rule_slots)
    values[slot.index] = value
    return copied(st, {name: tuple(values)})


def replace(obj, **changes):
    """A copy of ``obj`` (a State or one of its parts) with ``changes``."""
    if type(obj) is State:
        return _replace_state(obj, changes)
    if isinstance(obj, tuple):
        return obj._replace(**changes)
    return dataclasses.replace(obj, **changes)
