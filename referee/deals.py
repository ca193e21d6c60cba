"""Creating a game and its deals: shuffle and deal, first leader, standings, exchange (RULES.md §3-§4)."""
from __future__ import annotations

import random
import secrets

from .cards import cards_of, codes, count, deck, parse_many
from .errors import InputError
from .flow import finish_empty_hands, lead
from .flow_events import DealQueue, Dealt, ExchangeCounts, Leader
from .presets import check_seats
from .ruleset import build_ruleset
from .seating import deal_order
from .slots import reset
from .state import Player, State, replace


def shuffle_deal(jokers: int, order: list[int], seed) -> list[int]:
    """Deal the whole deck one card at a time to the seats in ``order`` (from the seat after the dealer, in turn
    order: seating.deal_order), by seat.

    Without a caller's seed every deal is shuffled from a fresh secret 256-bit seed that is never stored:
    the dealt hands are in the log, and no hand of one deal tells anything about another.
    """
    cards = cards_of(deck(jokers))
    random.Random(f"daifugo:{secrets.token_hex(32) if seed is None else seed}").shuffle(cards)
    n = len(order)
    hands = [0] * n
    # the i-th card goes to order[i % n]: the i-th seat dealt to gets every n-th card from the i-th one
    for i, seat in enumerate(order):
        hands[seat] = sum(map(BIT.__getitem__, cards[i::n]))
    return hands


BIT = tuple(1 << c for c in range(54))


def explicit_hands(hands, n: int, jokers: int) -> list[int]:
    if not isinstance(hands, list) or len(hands) != n:
        raise InputError("bad_hands", f"hands must list the cards of each of the {n} seats")
    out, seen = [], 0
    for seat, h in enumerate(hands):
        try:
            mask = parse_many(h)
        except InputError as e:
            raise InputError("bad_hands", f"seat {seat}: {e.message}") from None
        if mask & seen:
            raise InputError("bad_hands", f"{' '.join(codes(mask & seen))} dealt to more than one seat")
        if mask & ~deck(jokers):
            raise InputError("bad_hands", f"{' '.join(codes(mask & ~deck(jokers)))} is not in a deck with "
                             f"{jokers} joker(s)")
        if not mask:
            raise InputError("bad_hands", f"seat {seat} must hold at least one card")
        seen |= mask
        out.append(mask)
    return out


def _hands(rules, n, order, seed, hands):
    if hands is not None:
        masks = explicit_hands(hands, n, rules.jokers)
    else:
        masks = shuffle_deal(rules.jokers, order, seed)
    out_of_play = deck(rules.jokers)
    for m in masks:
        out_of_play &= ~m
    return masks, out_of_play


def table_counts(rules, order: list[int]) -> list[int]:
    """Table mode: how many cards each seat holds after an even deal to the seats in ``order`` (from the seat after
    the dealer), by seat."""
    size, n = count(deck(rules.jokers)), len(order)
    counts = [0] * n
    for i, seat in enumerate(order):
        counts[seat] = size // n + (1 if i < size % n else 0)
    return counts


def new_game(preset="uecda", rules=None, players=None, seed=None, hands=None, table=False, leader=None):
    """A new match: (state, [game_created event]). ``table``: a real table's game, hands unknown."""
    ruleset = build_ruleset(preset, rules)
    check_seats(ruleset.preset, players)  # the preset's seats (presets.SEATS)
    names = [str(p) for p in players]
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InputError("bad_seed", "seed must be a whole number")
    if leader is not None and (isinstance(leader, bool) or not isinstance(leader, int)
                               or not 0 <= leader < len(names)):
        raise InputError("bad_leader", f"leader must be a seat number from 0 to {len(names) - 1}")
    if table:
        if hands is not None:
            raise InputError("bad_hands", "a table-mode game starts with unknown hands: correct them later")
        counts = table_counts(ruleset, deal_order(ruleset, (), len(names), 0))
        st = State(rules=ruleset, players=tuple(Player(i, nm, 0, None, c) for i, (nm, c) in
                                                enumerate(zip(names, counts))), seed=seed, phase="play", table=True)
        event = {"seq": 0, "type": "game_created", **ruleset.to_json(), "players": names, "seed": seed,
                 "table": True, "leader": leader, "hands": None}
        return replace(st, turn=leader or 0), [event]
    if leader is not None:
        raise InputError("bad_leader", "leader is for table-mode games; otherwise the first card's holder leads")
    masks, out = _hands(ruleset, len(names), deal_order(ruleset, (), len(names), 0), None if seed is None else f"{seed}:1",
                        hands)
    st = State(rules=ruleset, players=tuple(Player(i, nm, m) for i, (nm, m) in enumerate(zip(names, masks))),
               out_of_play=out, seed=seed, phase="play")
    leader = _leader(st, True, 0)
    log = []
    st = finish_empty_hands(replace(st, turn=leader), leader, log)
    event = {"seq": 0, "type": "game_created", **ruleset.to_json(), "players": names, "seed": seed,
             "hands": [codes(m) for m in masks]}
    return st, [event]


def _asked(st, part, settled=None):
    """``part`` of a new deal as the ``new_deal`` hooks answer it, in registry order (until ``settled(part)``)."""
    for new_deal, params in st.rules.deal_hooks:
        part = new_deal(st, part, params)
        if settled is not None and settled(part):
            break
    return part


def exchange_counts(st, places) -> tuple:
    """The exchange counts of the deal after ``st``, whose places are ``places``: the ``new_deal`` hooks'
    ExchangeCounts."""
    return _asked(st, ExchangeCounts(places, (0, 0))).counts


def dealt(st, counts):
    """The new deal ``st`` as the rules told of it set it up (``react`` to Dealt: exchange keeps ``counts``)."""
    for react, params in st.rules.dealt_hooks:
        st = react(st, Dealt(counts), params)
    return st


def exchange_queue(st) -> tuple:
    """The pending gives (and requests) of the exchange at the start of a deal: the ``new_deal`` hooks'
    DealQueue."""
    return _asked(st, DealQueue(())).pending


def _leader(st, first_deal: bool, default: int) -> int:
    """The seat the first ``new_deal`` hook to name one names to lead the deal (first_card), else ``default``."""
    seat = _asked(st, Leader(first_deal), lambda part: part.seat is not None).seat
    return default if seat is None else seat


def start_play(st, log):
    """After the exchange: the last-placed player of the previous deal leads, unless a rule names the leader
    (first_card.every_deal: the holder of the first card, if anyone is known to hold it)."""
    places = st.previous_places
    leader = _leader(st, False, places.index(len(places)) if places else 0)
    log.append({"kind": "play_starts", "leader": leader})
    st = replace(st, phase="play", pending=())
    st = finish_empty_hands(st, leader, log)
    return st if st.phase == "deal_over" else lead(st, leader)


def next_deal(st, hands=None, proceed=None):
    """The next deal of the match, standings carried over: (state, [deal_started event])."""
    if st.phase != "deal_over":
        raise InputError("deal_not_over", "the current deal is not over yet")
    rs = st.rules
    places = tuple(p.place for p in st.players)
    n = len(places)
    counts = exchange_counts(st, places)
    dealer = places.index(n)
    order = deal_order(rs, places, n, dealer)  # from the seat after the dealer, as the new deal is seated
    if st.table:
        if hands is not None:
            raise InputError("bad_hands", "a table-mode deal starts with unknown hands: correct them later")
        masks, out = [0] * n, 0
        players = tuple(Player(p.seat, p.name, 0, None, c) for p, c in zip(st.players, table_counts(rs, order)))
    else:
        masks, out = _hands(rs, n, order, None if st.seed is None else f"{st.seed}:{st.deal + 1}", hands)
        players = tuple(Player(p.seat, p.name, m) for p, m in zip(st.players, masks))
    new = State(rules=rs, players=players, seq=st.seq + 1, deal=st.deal + 1, phase="exchange", out_of_play=out,
                first_play=rs.first_play_every_deal, dealer=dealer, seed=st.seed, previous_places=places,
                table=st.table, view_slots=reset(st.view_slots, rs.view_defaults, rs.deal_view),
                rule_slots=reset(st.rule_slots, rs.rule_defaults, rs.deal_rule))
    new = dealt(new, counts)
    new = replace(new, pending=exchange_queue(new))
    log = []
    new = proceed(new, log)
    event = {"seq": new.seq, "type": "deal_started", "deal": new.deal,
             "hands": None if st.table else [codes(m) for m in masks], "outcome": log}
    return new, [event]


def correct_hands(st, hands):
    """Table mode: the real hands of some seats (a list with null for seats left unknown), checked against
    everything played so far: (state, [hands_corrected event])."""
    if not st.table:
        raise InputError("not_table", "hands can only be corrected in a table-mode game")
    if not isinstance(hands, list) or len(hands) != len(st.players):
        raise InputError("bad_hands", f"hands must list {len(st.players)} entries (null for a seat left unknown)")
    taken = st.seen()
    new = st
    for seat, given in enumerate(hands):
        if given is None:
            continue
        try:
            mask = parse_many(given)
        except InputError as e:
            raise InputError("bad_hands", f"seat {seat}: {e.message}") from None
        p = st.players[seat]
        if p.hand & ~mask:
            raise InputError("bad_hands", f"seat {seat} is known to hold {' '.join(codes(p.hand & ~mask))}")
        clash = mask & taken & ~p.hand
        if clash:
            raise InputError("bad_hands", f"seat {seat} cannot hold {' '.join(codes(clash))}: already seen elsewhere")
        if count(mask) != p.left:
            raise InputError("bad_hands", f"seat {seat} holds {p.left} card(s), not {count(mask)}")
        taken |= mask
        new = new.with_player(seat, hand=mask, unknown=0)
    new = replace(new, seq=st.seq + 1)
    return new, [{"seq": new.seq, "type": "hands_corrected", "hands": hands}]
