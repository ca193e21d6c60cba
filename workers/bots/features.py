"""Features of a seat's plays and pass for the learned policy (workers/bots/policy.py), from the seat's view only.

A turn's moves are read as the greedy policy reads them (``observer.Turn``: the seat's cards, the order, whether it
leads, the other seats' hand counts, the cards that cannot be its last one, and every move with the engine's
annotation), plus three public facts the Turn does not hold (``Situation``): the unseen cards (the deck less the
seat's hand, the field, the cards beaten under it and the discard pile: what the other hands and the undealt cards
are made of), whether a lock is in force, and whether the field is empty. Nothing here reads another hand, so the
same features come from the seat view and annotated legal moves a bot is given (``situation_of_view``) and from the
engine state in a playout (``situation_of_state``), for the same seat.

A card's strength is its rank's in the order in force (0 the weakest rank … 12 the strongest; a joker 13). Cards
"that cannot be the last one" (``forbidden_last``) count only while the seat holds at most ``NEAR_THE_END`` cards:
the playouts ask the engine for them only then (mc.NEAR_THE_END), and the features must not differ between a real
decision and a playout's. Each move is a vector of ``len(NAMES)`` floats, in this order:

=====================  ================================================================================================
``pass``               1 for the pass (a pass has only the ``pass_*`` features and those of the hand after it)
``pass_lead``          a pass while the seat leads (where the rules let it)
``pass_danger``        a pass while another seat holds two cards or fewer
``pass_few_cards``     a pass while the seat holds four cards or fewer
``pass_locked``        a pass while a lock is in force
``pass_others``        a pass, times the other seats still playing / 3
``pass_reversed``      a pass while the order is reversed
``size``               the cards played / 4
``size_lead``          ``size`` when leading
``goes_out``           the play empties the hand and is not a forbidden finish
``forbidden_out``      the play empties the hand as a forbidden finish
``mean_strength``      the mean strength of its non-joker cards / 12 (0 with jokers only)
``top_strength``       the strongest of them / 12 (1 with jokers only)
``lead_strength``      ``mean_strength`` when leading
``danger_strength``    ``top_strength`` while another seat holds two cards or fewer
``jokers``             jokers played
``jokers_late``        jokers played when at most two cards are left after it or another seat holds two or fewer
``top_cards``          cards of strength 11 or 12 (aces and 2s in the normal order) played
``top_cards_late``     ``top_cards`` when at most two cards are left after it or another seat holds two or fewer
``broken_ranks``       ranks played of which the hand keeps some back
``stairs``             the play spans several ranks
``unbeatable``         no set of unseen cards could beat it (a rank above it with as many unseen cards, jokers
                       standing in; a stairs: no unseen card above its top)
``unbeatable_danger``  ``unbeatable`` while another seat holds two cards or fewer
``stronger_unseen``    the share of the unseen cards stronger than its strongest card
``left_after``         cards left after the move / 13
``ranks_after``        ranks left (the jokers as one more) / 13: about how many plays the hand still needs
``singles_after``      ranks left held once / 13
``weak_singles_after`` ranks left held once with strength 5 or less / 13
``tops_after``         cards left of strength 11 or more (jokers included) / 4
``control_after``      cards left that no unseen card beats alone / 4
``forbidden_after``    cards left that cannot be the last one / 4
``stuck_after``        cards are left and every one of them cannot be the last one
``cut``                the play cuts (what it fires, as annotated: ``kinds``)
``cut_lead``           a cut when leading
``revolution``         the play makes a revolution
``revolution_hand``    ``revolution`` times the hand's strength ((mean strength of its non-joker cards - 6) / 6)
``jack_back``          the play makes a jack back
``jack_back_hand``     ``jack_back`` times the hand's strength
``reverse``            the play turns the direction of play
``lock``               the play locks (suits, colour or rank)
``give``               the play makes the seat give cards (7-pass)
``discard``            the play makes a seat discard cards (10-discard, others' discards)
``skip``               the play skips seats
``take``               the play takes cards back (resurrection)
``declares``           declarations the play makes
``declines``           the play declines an effect (jack back left unturned)
=====================  ================================================================================================
"""
from __future__ import annotations

from typing import Final

from referee.annotate import Note
from referee.cards import BITS16, JOKER1, JOKERS_MASK, NORMAL_MASK, count, parse_many
from referee.moves import Move
from referee.rules import RULE_SLOTS, VIEW_SLOTS
from referee.state import State

from .observer import Turn

NAMES: Final = (
    "pass", "pass_lead", "pass_danger", "pass_few_cards", "pass_locked", "pass_others", "pass_reversed",
    "size", "size_lead", "goes_out", "forbidden_out", "mean_strength", "top_strength", "lead_strength",
    "danger_strength", "jokers", "jokers_late", "top_cards", "top_cards_late", "broken_ranks", "stairs",
    "unbeatable", "unbeatable_danger", "stronger_unseen", "left_after", "ranks_after", "singles_after",
    "weak_singles_after", "tops_after", "control_after", "forbidden_after", "stuck_after", "cut", "cut_lead",
    "revolution", "revolution_hand", "jack_back", "jack_back_hand", "reverse", "lock", "give", "discard", "skip",
    "take", "declares", "declines",
)
SIZE: Final = 46
NEAR_THE_END: Final = 6  # mc.NEAR_THE_END: from this many cards on a playout asks for the cards that cannot be last
TOP: Final = 13          # a joker's strength
# the lock slots (referee/slots.py): a lock is in force when one of them is not at its default
LOCK_SLOTS: Final = tuple(s for s in VIEW_SLOTS + RULE_SLOTS if s.lock)


class Situation:
    """The public facts of a decision that its ``Turn`` does not hold (a class with slots: built once per ply of a
    playout)."""
    __slots__ = ("unseen", "locked")
    unseen: int      # the cards the seat has not seen: the deck less its hand and every card shown on the table
    locked: bool     # a lock is in force

    def __init__(self, unseen: int, locked: bool) -> None:
        self.unseen, self.locked = unseen, locked


def situation_of_state(st: State, seat: int, deck: int) -> Situation:
    """``seat``'s Situation from the engine state (``deck``: every card of the game, a bitmask)."""
    shown = st.players[seat].hand | st.beneath | st.discard
    if st.field is not None:
        shown |= st.field.reading.mask
    locked = False
    for slot in LOCK_SLOTS:
        if st.slot(slot) != slot.default:
            locked = True
    return Situation(deck & ~shown, locked)


def situation_of_view(view: dict, seat: int, deck: int) -> Situation:
    """``seat``'s Situation from its seat view (``deck`` as for ``situation_of_state``)."""
    shown = parse_many(view["players"][seat]["hand"] or [])
    field = view.get("field")
    if field:
        shown |= parse_many(field["cards"]) | parse_many(field.get("beneath") or [])
    shown |= parse_many(view.get("discard_pile") or [])
    locked = False
    for slot in LOCK_SLOTS:
        value: object = view
        for part in slot.key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if value is not None and value != slot.write(slot.default):
            locked = True
    return Situation(deck & ~shown, locked)


def _strength(rank: int, reversed_order: bool) -> int:
    return 12 - rank if reversed_order else rank


class _Seat:
    """What every move's features read of the seat and the table, worked out once per turn."""
    __slots__ = ("hand", "held", "count", "rev", "lead", "danger", "few", "others", "locked", "last", "unseen",
                 "above", "stronger", "unseen_count", "unseen_jokers", "hand_strength", "kept")
    hand: int
    held: list[int]           # the hand's cards of each rank (13: jokers)
    count: int
    rev: bool
    lead: bool
    danger: bool
    few: bool
    others: float
    locked: bool
    last: int                 # the cards that cannot be the last one (0 far from the end)
    unseen: int
    above: list[int]          # by strength s: the most unseen cards of one rank stronger than s
    stronger: list[int]       # by strength s: the unseen cards (jokers included) stronger than s
    unseen_count: int
    unseen_jokers: int
    hand_strength: float
    kept: _Kept               # the whole hand's shape (``_Kept``), which a play changes only at the ranks it plays

    def __init__(self, t: Turn, s: Situation) -> None:
        self.hand = t.cards
        self.count = count(t.cards)
        self.rev = t.reversed
        self.lead = t.lead
        self.danger = False
        for left in t.others:
            if left <= 2:
                self.danger = True
        self.few = self.count <= 4
        self.others = len(t.others) / 3.0
        self.locked = s.locked
        self.last = t.forbidden_last if self.count <= NEAR_THE_END else 0
        self.unseen = s.unseen
        held = [0] * 14
        total = nat = 0
        for r in range(13):
            k = BITS16[t.cards >> 4 * r & 0xF]
            held[r] = k
            nat += k
            total += k * _strength(r, self.rev)
        held[13] = BITS16[t.cards >> JOKER1 & 3]
        self.held = held
        self.hand_strength = (total / nat - 6.0) / 6.0 if nat else 0.0
        by_strength = [0] * 13
        for r in range(13):
            by_strength[_strength(r, self.rev)] = BITS16[s.unseen >> 4 * r & 0xF]
        jokers = BITS16[s.unseen >> JOKER1 & 3]
        above = [0] * 14
        stronger = [0] * 14
        most = 0
        cards = jokers
        above[13] = 0
        stronger[13] = 0
        for strength in range(12, -1, -1):
            above[strength] = most
            stronger[strength] = cards
            k = by_strength[strength]
            if k > most:
                most = k
            cards += k
        self.above, self.stronger = above, stronger
        self.unseen_count = cards
        self.unseen_jokers = jokers
        kept = _Kept()
        for r in range(13):
            kept.add(held[r], _strength(r, self.rev), stronger, 1)
        self.kept = kept


class _Kept:
    """The shape of the cards a hand keeps, without its jokers: ranks held, ranks held once, of them those of
    strength 5 or less, cards of strength 11 or more, and cards no unseen card beats alone."""
    __slots__ = ("ranks", "singles", "weak", "tops", "control")
    ranks: int
    singles: int
    weak: int
    tops: int
    control: int

    def __init__(self) -> None:
        self.ranks = self.singles = self.weak = self.tops = self.control = 0

    def add(self, k: int, strength: int, stronger: list[int], sign: int) -> None:
        """Count (``sign`` 1) or uncount (-1) ``k`` cards of one rank of this ``strength``."""
        if k <= 0:
            return
        self.ranks += sign
        if k == 1:
            self.singles += sign
            if strength <= 5:
                self.weak += sign
        if strength >= 11:
            self.tops += sign * k
        if stronger[strength] == 0:
            self.control += sign * k

    def copy(self) -> _Kept:
        out = _Kept()
        out.ranks, out.singles, out.weak, out.tops, out.control = (self.ranks, self.singles, self.weak, self.tops,
                                                                    self.control)
        return out


class Sink:
    """Where a move's features go: ``put(k, v)`` for feature ``k`` (its index in NAMES), each at most once and in
    increasing ``k``; a feature not put is 0."""

    def put(self, k: int, v: float) -> None:
        raise NotImplementedError


class _Row(Sink):
    """A move's features as a row of ``SIZE`` floats."""
    __slots__ = ("x",)
    x: list[float]

    def __init__(self) -> None:
        self.x = [0.0] * SIZE

    def put(self, k: int, v: float) -> None:
        self.x[k] = v


class _Dot(Sink):
    """A move's features times ``weights``, summed as they are put: in NAMES' order, as ``Policy.scores`` sums a
    row, so that the two give the same floats."""
    __slots__ = ("weights", "total")
    weights: list[float]
    total: float

    def __init__(self, weights: list[float]) -> None:
        self.weights = weights
        self.total = 0.0

    def put(self, k: int, v: float) -> None:
        self.total += self.weights[k] * v


def features(t: Turn, s: Situation) -> list[list[float]]:
    """The features of every move of ``t`` (in its order), each a list of ``SIZE`` floats in ``NAMES``' order."""
    seat = _Seat(t, s)
    out: list[list[float]] = []
    for i in range(len(t.moves)):
        row = _Row()
        _put_move(seat, t.moves[i], t.notes[i], row)
        out.append(row.x)
    return out


def scores(t: Turn, s: Situation, weights: list[float]) -> tuple[list[float], int]:
    """Each move's score under ``weights`` (the dot product of its features with them: the floats
    ``Policy.scores(features(t, s))`` gives, without the rows), and the index of the first move that empties the
    hand without a forbidden finish (-1: none)."""
    seat = _Seat(t, s)
    dot = _Dot(weights)
    out: list[float] = []
    way_out = -1
    for i in range(len(t.moves)):
        dot.total = 0.0
        if _put_move(seat, t.moves[i], t.notes[i], dot) and way_out < 0:
            way_out = i
        out.append(dot.total)
    return out, way_out


def _put_move(seat: _Seat, mv: Move, note: Note | None, sink: Sink) -> bool:
    """Put the features of ``mv`` (``note``: its annotation; None for a pass); True if it empties the hand without
    a forbidden finish."""
    if mv.action == "pass":
        sink.put(0, 1.0)
        if seat.lead:
            sink.put(1, 1.0)
        if seat.danger:
            sink.put(2, 1.0)
        if seat.few:
            sink.put(3, 1.0)
        if seat.locked:
            sink.put(4, 1.0)
        sink.put(5, seat.others)
        if seat.rev:
            sink.put(6, 1.0)
        _put_shape_after(seat, sink, seat.kept, 0, 0, seat.count)  # the hand kept whole
        return False
    cards = mv.cards
    rev = seat.rev
    held = seat.held
    kept = seat.kept.copy()
    nat = total = ranks = broken = tops = 0
    top = -1
    left = cards & NORMAL_MASK
    while left:
        low = (left.bit_length() - 1) & ~3
        k = BITS16[left >> low & 0xF]
        left &= (1 << low) - 1
        r = low // 4
        strength = _strength(r, rev)
        kept.add(held[r], strength, seat.stronger, -1)
        kept.add(held[r] - k, strength, seat.stronger, 1)
        if strength > top:
            top = strength
        nat += k
        total += k * strength
        ranks += 1
        if strength >= 11:
            tops += k
        if held[r] > k:
            broken += 1
    jokers = BITS16[cards >> JOKER1 & 3]
    n = nat + jokers
    after = seat.count - n
    forbidden = note is not None and note.forbidden_finish
    late = after <= 2 or seat.danger
    lead = seat.lead
    size = n / 4.0
    sink.put(7, size)
    if lead:
        sink.put(8, size)
    if after == 0:
        sink.put(10 if forbidden else 9, 1.0)
    mean = total / nat / 12.0 if nat else 0.0
    high = top / 12.0 if nat else 1.0
    sink.put(11, mean)
    sink.put(12, high)
    if lead:
        sink.put(13, mean)
    if seat.danger:
        sink.put(14, high)
    if jokers:
        sink.put(15, float(jokers))
        if late:
            sink.put(16, float(jokers))
    if tops:
        sink.put(17, float(tops))
        if late:
            sink.put(18, float(tops))
    if broken:
        sink.put(19, float(broken))
    if ranks > 1:
        sink.put(20, 1.0)
    strongest = top if nat else TOP
    if ranks > 1:
        unbeatable = seat.stronger[strongest] == 0
    else:
        unbeatable = strongest >= TOP or seat.above[strongest] + seat.unseen_jokers < n
    if unbeatable:
        sink.put(21, 1.0)
        if seat.danger:
            sink.put(22, 1.0)
    if seat.unseen_count:
        sink.put(23, seat.stronger[strongest] / seat.unseen_count)
    _put_shape_after(seat, sink, kept, jokers, cards, after)
    if note is not None and note.kinds:
        kinds = note.kinds
        if "cut" in kinds:
            sink.put(32, 1.0)
            if lead:
                sink.put(33, 1.0)
        if "revolution" in kinds:
            sink.put(34, 1.0)
            sink.put(35, seat.hand_strength)
        if "jack_back" in kinds:
            sink.put(36, 1.0)
            sink.put(37, seat.hand_strength)
        if "reverse" in kinds:
            sink.put(38, 1.0)
        if "lock" in kinds or "rank_lock" in kinds:
            sink.put(39, 1.0)
        if "give" in kinds:
            sink.put(40, 1.0)
        if "discard" in kinds or "others_discard" in kinds:
            sink.put(41, 1.0)
        if "skip" in kinds:
            sink.put(42, 1.0)
        if "take" in kinds:
            sink.put(43, 1.0)
    if mv.declare:
        sink.put(44, float(len(mv.declare)))
    if mv.decline:
        sink.put(45, 1.0)
    return after == 0 and not forbidden


def _put_shape_after(seat: _Seat, sink: Sink, kept: _Kept, jokers: int, cards: int, after: int) -> None:
    """The features of the hand the play leaves (24 to 31): ``kept``, its shape without jokers, and the jokers
    left."""
    ranks, tops, control = kept.ranks, kept.tops, kept.control
    jokers_left = seat.held[13] - jokers
    if jokers_left > 0:
        ranks += 1
        tops += jokers_left
        control += jokers_left
    sink.put(24, after / 13.0)
    sink.put(25, ranks / 13.0)
    sink.put(26, kept.singles / 13.0)
    sink.put(27, kept.weak / 13.0)
    sink.put(28, tops / 4.0)
    sink.put(29, control / 4.0)
    if seat.last:
        rest = seat.hand & ~cards
        stuck = rest & seat.last
        sink.put(30, count(stuck) / 4.0)
        if rest and stuck == rest:
            sink.put(31, 1.0)


def deck_of(jokers: int) -> int:
    """The deck with ``jokers`` jokers, as a bitmask."""
    return NORMAL_MASK | (JOKERS_MASK & ((1 << (JOKER1 + jokers)) - 1))
