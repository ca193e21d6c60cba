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
                 "above", "stronger", "unseen_count", "unseen_jokers", "hand_strength")
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


def features(t: Turn, s: Situation) -> list[list[float]]:
    """The features of every move of ``t`` (in its order), each a list of ``SIZE`` floats in ``NAMES``' order."""
    seat = _Seat(t, s)
    out: list[list[float]] = []
    for i in range(len(t.moves)):
        mv: Move = t.moves[i]
        if mv.action == "pass":
            out.append(_pass_features(seat))
        else:
            note = t.notes[i]
            out.append(_play_features(seat, mv, note))
    return out


def _pass_features(seat: _Seat) -> list[float]:
    x = [0.0] * SIZE
    x[0] = 1.0
    x[1] = 1.0 if seat.lead else 0.0
    x[2] = 1.0 if seat.danger else 0.0
    x[3] = 1.0 if seat.few else 0.0
    x[4] = 1.0 if seat.locked else 0.0
    x[5] = seat.others
    x[6] = 1.0 if seat.rev else 0.0
    _shape_after(seat, x, [0] * 13, 0, 0, seat.count)  # the hand kept whole
    return x


def _play_features(seat: _Seat, mv: Move, note: Note | None) -> list[float]:
    x = [0.0] * SIZE
    cards = mv.cards
    rev = seat.rev
    held = seat.held
    played = [0] * 13
    nat = total = ranks = broken = tops = 0
    top = -1
    left = cards & NORMAL_MASK
    while left:
        low = (left.bit_length() - 1) & ~3
        k = BITS16[left >> low & 0xF]
        left &= (1 << low) - 1
        r = low // 4
        played[r] = k
        strength = _strength(r, rev)
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
    x[7] = n / 4.0
    x[8] = x[7] if lead else 0.0
    if after == 0:
        x[10 if forbidden else 9] = 1.0
    mean = total / nat / 12.0 if nat else 0.0
    high = top / 12.0 if nat else 1.0
    x[11] = mean
    x[12] = high
    x[13] = mean if lead else 0.0
    x[14] = high if seat.danger else 0.0
    x[15] = float(jokers)
    x[16] = float(jokers) if late else 0.0
    x[17] = float(tops)
    x[18] = float(tops) if late else 0.0
    x[19] = float(broken)
    x[20] = 1.0 if ranks > 1 else 0.0
    strongest = top if nat else TOP
    if ranks > 1:
        unbeatable = seat.stronger[strongest] == 0
    else:
        unbeatable = strongest >= TOP or seat.above[strongest] + seat.unseen_jokers < n
    x[21] = 1.0 if unbeatable else 0.0
    x[22] = x[21] if seat.danger else 0.0
    x[23] = seat.stronger[strongest] / seat.unseen_count if seat.unseen_count else 0.0
    _shape_after(seat, x, played, jokers, cards, after)
    if note is not None and note.kinds:
        kinds = note.kinds
        if "cut" in kinds:
            x[32] = 1.0
            x[33] = 1.0 if lead else 0.0
        if "revolution" in kinds:
            x[34] = 1.0
            x[35] = seat.hand_strength
        if "jack_back" in kinds:
            x[36] = 1.0
            x[37] = seat.hand_strength
        if "reverse" in kinds:
            x[38] = 1.0
        if "lock" in kinds or "rank_lock" in kinds:
            x[39] = 1.0
        if "give" in kinds:
            x[40] = 1.0
        if "discard" in kinds or "others_discard" in kinds:
            x[41] = 1.0
        if "skip" in kinds:
            x[42] = 1.0
        if "take" in kinds:
            x[43] = 1.0
    x[44] = float(len(mv.declare))
    x[45] = 1.0 if mv.decline else 0.0
    return x


def _shape_after(seat: _Seat, x: list[float], played: list[int], jokers: int, cards: int, after: int) -> None:
    """The features of the hand the play leaves (``x[24:32]``)."""
    held = seat.held
    rev = seat.rev
    ranks = singles = weak = tops = control = 0
    # a card beats every unseen single when no unseen card is stronger
    for r in range(13):
        k = held[r] - played[r]
        if k <= 0:
            continue
        ranks += 1
        strength = _strength(r, rev)
        if k == 1:
            singles += 1
            if strength <= 5:
                weak += 1
        if strength >= 11:
            tops += k
        if seat.stronger[strength] == 0:
            control += k
    jokers_left = held[13] - jokers
    if jokers_left > 0:
        ranks += 1
        tops += jokers_left
        control += jokers_left
    x[24] = after / 13.0
    x[25] = ranks / 13.0
    x[26] = singles / 13.0
    x[27] = weak / 13.0
    x[28] = tops / 4.0
    x[29] = control / 4.0
    if seat.last:
        rest = seat.hand & ~cards
        stuck = rest & seat.last
        x[30] = count(stuck) / 4.0
        x[31] = 1.0 if rest and stuck == rest else 0.0


def deck_of(jokers: int) -> int:
    """The deck with ``jokers`` jokers, as a bitmask."""
    return NORMAL_MASK | (JOKERS_MASK & ((1 << (JOKER1 + jokers)) - 1))
