"""Property tests: random games under every preset and random rule switches keep the engine's invariants."""
import random
from itertools import combinations

from hypothesis import HealthCheck, given, settings, strategies as hs

from referee import (actors, apply, covers, instantiate, judge, legal_moves, new_game, next_deal, redact_event,
                     replay, state_from_json, state_to_json)
from referee.cards import cards_of, code, deck
from referee.flow import place_final
from referee.presets import PRESETS, SEATS
from referee.rules import RULES

SWITCHABLE = sorted(set(RULES) - {"jokers"})


def seated(lo: int, hi: int):
    """(preset, players): a preset and a seat count from ``lo`` to ``hi`` that the preset is played by (nanko 3–6)."""
    return hs.sampled_from(sorted(PRESETS)).flatmap(
        lambda preset: hs.tuples(hs.just(preset), hs.integers(max(lo, SEATS[preset][0]), min(hi, SEATS[preset][1]))))


def _param_values(param):
    if isinstance(param.default, bool):
        return hs.booleans()
    if param.choices is not None:
        return hs.sampled_from(param.choices)
    if isinstance(param.default, int) and param.lo is not None:
        return hs.integers(param.lo, param.hi)
    return hs.just(param.default)


def _switch(rule_id):
    """A rule off, on with its defaults, or on with parameters drawn from their ranges (a variant)."""
    params = RULES[rule_id].PARAMS
    if not params:
        return hs.booleans()
    return hs.booleans() | hs.fixed_dictionaries({name: _param_values(p) for name, p in params.items()})


def _with_jokers(ids):
    """The switches of ``ids``, and maybe a variant of the jokers (never off: the deck keeps its jokers' count)."""
    jokers = {name: _param_values(p) for name, p in RULES["jokers"].PARAMS.items()}
    return hs.fixed_dictionaries({rule_id: _switch(rule_id) for rule_id in ids},
                                  optional={"jokers": hs.fixed_dictionaries(jokers)})


# up to 12 rules switched, each off, on, or on as one of its variants
SWITCHES = hs.lists(hs.sampled_from(SWITCHABLE), max_size=12, unique=True).flatmap(_with_jokers)
PROFILE = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def total_cards(st) -> int:
    """The cards in play; in table mode every seen card once, plus as many unseen ones as the counts say."""
    if st.table:
        seen = st.seen()
        parts = [p.hand for p in st.players] + [st.beneath, st.discard, st.out_of_play]
        assert sum(x.bit_count() for x in parts) + (st.field.reading.n if st.field else 0) == seen.bit_count()
        return seen.bit_count() + sum(p.unknown for p in st.players) + st.hidden_discards
    seen = 0
    parts = [p.hand for p in st.players] + [st.beneath, st.discard, st.out_of_play]
    if st.field is not None:
        parts.append(st.field.reading.mask)
    for part in parts:
        assert seen & part == 0, "a card is in two places"
        seen |= part
    return seen


def random_proposal(st, seat, rng):
    hand = cards_of(st.hand(seat))
    action = rng.choice(["play", "play", "play", "pass", "give", "discard", "take", "request", "cut_back"])
    head = st.pending[0] if st.pending else None
    if head is not None and head.seat == seat and head.action in ("give", "discard") and rng.random() < 0.7:
        action = head.action  # most random answers to a give/discard are the right size: they test coverage
        size = head.count
    else:
        size = rng.randint(1, 4)
    move = {"seat": seat, "action": action}
    if action in ("play", "give", "discard", "take", "cut_back") and hand:
        move["cards"] = [code(c) for c in rng.sample(hand, min(len(hand), size))]
    if action == "play" and hand and rng.random() < 0.6:
        move["cards"] = [code(c) for c in structured_play(hand, rng)]
    if action == "request":
        move["rank"] = rng.choice(list("3456789TJQKA2") + ["JK"])
    if action == "play" and rng.random() < 0.3:
        move["declare"] = rng.sample(["stairs", "eight_cut", "revolution", "seven_pass", "suit_lock"], 2)
    return move


def structured_play(hand, rng):
    """Cards that often make a play: part of one rank, or a run of one suit, with or without the jokers."""
    jokers = [c for c in hand if c >= 52]
    normal = [c for c in hand if c < 52]
    if not normal:
        return jokers
    pivot = rng.choice(normal)
    if rng.random() < 0.5:
        same = [c for c in normal if c // 4 == pivot // 4]
        cards = rng.sample(same, rng.randint(1, len(same)))
    else:
        step = rng.choice([1, 1, 2])
        cards = [c for c in normal if c % 4 == pivot % 4 and (c // 4 - pivot // 4) % step == 0
                 and 0 <= (c // 4 - pivot // 4) // step < rng.randint(2, 5)]
    return cards + rng.sample(jokers, rng.randint(0, len(jokers)))


def covered(move, moves) -> bool:
    """Is an accepted proposal among legal_moves (same action and cards, or one of a choose entry's choices)?"""
    return any(covers(m, move) or (m["action"] == "request" and "choose" not in m and
                                   m["action"] == move["action"] and m.get("rank") == move.get("rank"))
               for m in moves)


def play_out(preset, overrides, seed, players, deals=2, table=False):
    st, events = new_game(preset, overrides, [f"p{i}" for i in range(players)], seed, table=table)
    full = total_cards(st)
    jokers = (st.rules.params("jokers") or {"count": 0})["count"] if st.rules.on("jokers") else 0
    assert full == (deck(jokers).bit_count() if table else deck(jokers))
    rng = random.Random(seed)
    history = [state_to_json(st)]
    placed: dict = {}  # seat -> place, this deal, once flow.place_final says it is final (the mc playouts stop there)
    for _ in range(3000):
        acting = actors(st)
        if not acting:
            assert st.phase == "deal_over"
            if st.deal >= deals:
                break
            st, new = next_deal(st)
            placed = {}
            events += new
            history.append(state_to_json(st))
            assert total_cards(st) == full
            continue
        for seat in acting:
            assert legal_moves(st, seat), f"seat {seat} must act but has no legal move"
        seat = rng.choice(acting)
        moves = legal_moves(st, seat)
        for m in rng.sample(moves, min(3, len(moves))):
            for _ in range(3 if "choose" in m else 1):  # a choose entry: every sampled choice is legal
                concrete = instantiate(m, rng)
                assert judge(st, concrete).legal, (m, concrete, judge(st, concrete).message)
        for _ in range(2):
            proposal = random_proposal(st, seat, rng)
            if judge(st, proposal).legal:
                assert covered(proposal, moves), proposal
        chosen = instantiate(rng.choice(moves), rng)
        declined = st.pending and st.pending[0].action == "cut_back" and chosen["action"] == "pass"
        before = st
        verdict, st, new = apply(st, chosen)
        assert verdict.legal
        assert all(st.players[s].place == place for s, place in placed.items()), (placed, st.players)
        placed.update((p.seat, p.place) for p in st.players if place_final(st, p.seat))
        assert st is not before and state_to_json(before) == history[-1]  # the state a move was applied to is kept
        if st.pending and st.pending[0].action == "cut_back" and not declined:
            # a window just opened: offered from public facts only, never from who holds the jokers
            n = st.pending[0].count
            assert [p.seat for p in st.pending] == [s for s in st.active_seats() if s != st.after.seat and st.left(s) >= n]
        events += new
        history.append(state_to_json(st))
        assert total_cards(st) == full
        assert state_to_json(state_from_json(history[-1])) == history[-1]
    else:
        raise AssertionError("the game did not end")
    assert state_to_json(replay(events)) == history[-1]
    upto = rng.randrange(len(events))
    assert state_to_json(replay(events, upto=events[upto]["seq"])) == history[upto]
    # from a snapshot: only the events after it are needed, earlier ones are skipped
    k = rng.randrange(len(events))
    assert state_to_json(replay(events[k + 1:], start=history[k])) == history[-1]
    assert state_to_json(replay(events, upto=events[-1]["seq"], start=history[k])) == history[-1]
    for viewer in range(players):
        view = state_to_json(st, viewer)
        assert all(p["hand"] is None for p in view["players"] if p["seat"] != viewer)
        for ev in events:
            hidden = redact_event(ev, viewer)
            for i, h in enumerate(hidden.get("hands") or []):
                assert i == viewer or isinstance(h, int)
    return st


@PROFILE
@given(seats=seated(3, 6), seed=hs.integers(0, 10 ** 6))
def test_random_games_keep_invariants(seats, seed):
    preset, players = seats
    play_out(preset, None, seed, players)


@PROFILE
@given(seats=seated(2, 7), seed=hs.integers(0, 10 ** 6),
       switches=SWITCHES)
def test_random_rule_switches_keep_invariants(seats, seed, switches):
    preset, players = seats
    play_out(preset, switches, seed, players)


@PROFILE
@given(seats=seated(3, 5), seed=hs.integers(0, 10 ** 6))
def test_table_mode_games_keep_invariants(seats, seed):
    """A real table's game: hands unknown, the referee trusts them and keeps everything else consistent."""
    preset, players = seats
    play_out(preset, None, seed, players, table=True)


def walk(st, rng, plies, step):
    """Up to ``plies`` plies over two deals: ``step(state, acting seat, ply)`` checks a position and returns the
    next state."""
    for ply in range(plies):
        acting = actors(st)
        if not acting:
            if st.deal >= 2:
                return
            st, _ = next_deal(st)
            continue
        st = step(st, rng.choice(acting), ply)


def exhaustive_check(st, seat, rng):
    """At one state: every listed entry (every sampled choice of a choose entry) is accepted, and every card set
    of up to 4 cards (a decision's size, for gives and discards) the judge accepts is covered by the list."""
    moves = legal_moves(st, seat)
    for m in moves:
        for _ in range(2 if "choose" in m else 1):
            concrete = instantiate(m, rng)
            assert judge(st, concrete).legal, (m, concrete)
    head = st.pending[0] if st.pending else None
    hand = cards_of(st.hand(seat))
    if head is not None and head.seat == seat and head.action in ("give", "discard"):
        actions, sizes = [head.action], [head.count]
    elif head is None:
        actions, sizes = ["play"], [1, 2, 3, 4]
    else:
        return
    for action in actions:
        for k in sizes:
            subsets = list(combinations(hand, k))
            for combo in rng.sample(subsets, min(len(subsets), 400)):
                proposal = {"seat": seat, "action": action, "cards": [code(c) for c in combo]}
                if judge(st, proposal).legal:
                    assert covered(proposal, moves), (proposal, moves[:5])


@PROFILE
@given(seats=seated(2, 6), seed=hs.integers(0, 10 ** 6),
       switches=SWITCHES)
def test_legal_moves_list_exactly_the_moves_apply_accepts(seats, seed, switches):
    """Every move apply accepts is covered by legal_moves, and every listed move is accepted (sampled states)."""
    preset, players = seats
    st, _ = new_game(preset, switches, [f"p{i}" for i in range(players)], seed)
    rng = random.Random(seed)
    checked = []

    def step(st, seat, ply):
        if st.pending or ply % 7 == 0:
            exhaustive_check(st, seat, rng)
            checked.append(ply)
        return apply(st, instantiate(rng.choice(legal_moves(st, seat)), rng))[1]

    walk(st, rng, 400, step)
    assert checked
