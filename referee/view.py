"""What a rule sees of a play: a ``PlayView``, one immutable value that is also the key its answers are memoised
under (docs/engine-core.md, "The memo and why it is safe").

A ``Table`` is the position as the play rules see it: the field, the order, the rules' declared state that enters
the view (locks, the revolution threshold, …: referee/slots.py), whether this is the trick's second play and the
cards the seat's plays must include. ``table_of`` is the one place
that reads a State to build it. A ``PlayView`` adds the play: its reading, the special play that admitted it, what
it declines and the joker readings asked for. The play hooks (``legality``, ``special_play``, ``after_play``,
``finish_verdict``) receive a PlayView and nothing else, so whatever they answer is a function of that value and
the rule's params, and memoising it under the value cannot go wrong: a hook that reaches for anything else (a
hand, the seat, the finish order) meets an AttributeError on its first call.

Both are plain classes with slots (compiled: native classes, read field by field) whose hash is worked out once
(a Table's when it is built, a PlayView's when first asked): memo keys hold them and hash them on every look-up.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from .cards import count, rank_mask
from .memo import TABLES_SIZE, live_tables, remember
from .shapes import Reading
from .slots import order_turned

if TYPE_CHECKING:
    from .slots import Slot
    from .state import State

T = TypeVar("T")


class Table:
    """The position a play is judged against: everything a play rule may read besides the play."""
    __slots__ = ("field", "revolution", "slots", "second_play", "required", "standin_effects", "reversed", "_hash")
    field: Reading | None     # the field's reading (None on a lead)
    revolution: bool
    slots: tuple              # the rules' declared state that enters the view (State.view_slots)
    second_play: bool         # the play would be the trick's second
    required: int             # cards every play of the seat must include now (first_card's required_cards)
    standin_effects: bool     # a joker standing in fires its rank's effects and counts for a new lock (jokers)
    reversed: bool            # the order in force: the revolution, turned again by a slot that turns it (jack back)
    _hash: int

    def __init__(self, field: Reading | None, revolution: bool, slots: tuple, second_play: bool,
                 required: int, standin_effects: bool, order_slots: tuple[Slot, ...]) -> None:
        """``order_slots``: the ruleset's slots that turn the order (Ruleset.order_slots), read from ``slots``."""
        self.field, self.revolution, self.slots = field, revolution, slots
        self.second_play, self.required, self.standin_effects = second_play, required, standin_effects
        self.reversed = revolution != order_turned(order_slots, slots)
        self._hash = hash(self.values())

    def values(self) -> tuple:
        """What the Table is; ``reversed`` follows from ``revolution`` and ``slots``."""
        return (self.field, self.revolution, self.slots, self.second_play, self.required, self.standin_effects)

    def slot(self, slot: Slot[T]) -> T:
        """The value of a declared slot that enters the view (referee/slots.py)."""
        if not slot.view:
            raise AttributeError(f"slot {slot.key} is not in the play view (declare it with view=True)")
        return self.slots[slot.index]

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is Table and self._hash == other._hash
                                 and self.values() == other.values())

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return "Table(" + ", ".join(f"{k}={v!r}" for k, v in zip(TABLE_FIELDS, self.values())) + ")"


TABLE_FIELDS = ("field", "revolution", "slots", "second_play", "required", "standin_effects")


def table_of(st: State, seat: int) -> Table:
    """The Table of ``seat``'s plays in ``st``. The seat enters only through the required cards, which the rules'
    ``required_cards`` hooks work out (they are asked only before the match's first play)."""
    required = 0
    if st.first_play:
        for module, params in st.rules.required_hooks:
            required |= module.required_cards(st, seat, params)
    f = st.field
    field = None if f is None else f.reading
    standin = st.rules.standin_effects
    second = st.trick_plays == 1
    values = (field, st.revolution, st.view_slots, second, required, standin)
    # one Table per value and ruleset while it is remembered: memo keys that hold it then compare by identity first
    rules = st.rules
    tables = rules.tables
    table = tables.get(values)
    if table is None:
        table = remember(tables, values, Table(field, st.revolution, st.view_slots, second, required, standin,
                                               rules.order_slots),
                         TABLES_SIZE, live_tables)
    return table


class PlayView:
    """A play as the play rules see it: the Table and the play. ``field`` and ``reversed`` are the Table's, kept
    here too because nearly every hook reads them."""
    __slots__ = ("table", "reading", "special", "declined", "as_map", "field", "reversed", "_hash")
    table: Table
    reading: Reading          # the played cards as read
    special: str | None       # the special play rule that admitted it (sandstorm, spade3, attach_revolution)
    declined: frozenset       # effects the player declines (an optional jack_back)
    as_map: tuple             # the joker readings the proposal asked for ((joker, rank, suit or -1), ...)
    field: Reading | None
    reversed: bool
    _hash: int                # 0 until hashed (most views are only read: the effects memo hashes a few)

    def __init__(self, table: Table, reading: Reading, special: str | None = None, declined: frozenset = frozenset(),
                 as_map: tuple = ()) -> None:
        self.table, self.reading, self.special, self.declined, self.as_map = table, reading, special, declined, as_map
        self.field = table.field
        self.reversed = table.reversed
        self._hash = 0

    @property
    def revolution(self) -> bool:
        return self.table.revolution

    @property
    def second_play(self) -> bool:
        return self.table.second_play

    @property
    def required(self) -> int:
        return self.table.required

    @property
    def standin_effects(self) -> bool:
        return self.table.standin_effects

    def slot(self, slot: Slot[T]) -> T:
        """The value of a declared slot that enters the view (referee/slots.py)."""
        return self.table.slot(slot)

    def rank_count(self, rank: int) -> int:
        """How many cards of ``rank`` the play holds for its rank's effects: jokers standing in count unless the
        rules say they fire nothing (jokers.standin_effects false)."""
        r = self.reading
        if self.table.standin_effects:
            return r.rank_count(rank)
        held = r.mask & rank_mask(rank)
        return count(held)

    def has_rank(self, rank: int) -> bool:
        r = self.reading
        return r.has_rank(rank) if self.table.standin_effects else bool(r.mask & rank_mask(rank))

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is PlayView and self.reading == other.reading
                                 and self.table == other.table and self.special == other.special
                                 and self.declined == other.declined and self.as_map == other.as_map)

    def __hash__(self) -> int:
        h = self._hash
        if not h:
            h = self._hash = hash((self.table._hash, self.reading, self.special, self.declined, self.as_map)) or 1
        return h

    def __repr__(self) -> str:
        return (f"PlayView(table={self.table!r}, reading={self.reading!r}, special={self.special!r}, "
                f"declined={self.declined!r}, as_map={self.as_map!r})")
