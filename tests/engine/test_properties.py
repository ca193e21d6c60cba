"""Property tests: random games under every preset and random rule switches keep the engine's invariants."""
import random

from hypothesis import HealthCheck, given, settings, strategies as hs

from referee import (actors, apply, judge, legal_moves, new_game, next_deal, redact_event, replay,
                     state_from_json, state_to_json)
from referee.cards import cards_of, code, deck
from referee.presets import PRESETS
from referee.rules import RULES

SWITCHABLE = sorted(set(RULES) - {"jokers"})
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
    move = {"seat": seat, "action": action}
    if action in ("play", "give", "discard", "take", "cut_back") and hand:
        move["cards"] = [code(c) for c in rng.sample(hand, min(len(hand), rng.randint(1, 4)))]
    if action == "request":
        move["rank"] = rng.choice(list("3456789TJQKA2") + ["JK"])
    if action == "play" and rng.random() < 0.3:
        move["declare"] = rng.sample(["stairs", "eight_cut", "revolution", "seven_pass", "suit_lock"], 2)
    return move


def covered(move, moves) -> bool:
    """Is an accepted proposal among legal_moves (same action, same cards)?"""
    want = (move["action"], frozenset(move.get("cards", ())), move.get("rank"))
    return any((m["action"], frozenset(m.get("cards", ())), m.get("rank", move.get("rank"))) == want
               for m in moves)


def play_out(preset, overrides, seed, players, deals=2, table=False):
    st, events = new_game(preset, overrides, [f"p{i}" for i in range(players)], seed, table=table)
    full = total_cards(st)
    jokers = (st.rules.params("jokers") or {"count": 0})["count"] if st.rules.on("jokers") else 0
    assert full == (deck(jokers).bit_count() if table else deck(jokers))
    rng = random.Random(seed)
    history = [state_to_json(st)]
    for _ in range(3000):
        acting = actors(st)
        if not acting:
            assert st.phase == "deal_over"
            if st.deal >= deals:
                break
            st, new = next_deal(st)
            events += new
            history.append(state_to_json(st))
            assert total_cards(st) == full
            continue
        for seat in acting:
            assert legal_moves(st, seat), f"seat {seat} must act but has no legal move"
        seat = rng.choice(acting)
        moves = legal_moves(st, seat)
        for m in rng.sample(moves, min(3, len(moves))):
            assert judge(st, m).legal, m
        proposal = random_proposal(st, seat, rng)
        if judge(st, proposal).legal:
            assert covered(proposal, moves), proposal
        verdict, st, new = apply(st, rng.choice(moves))
        assert verdict.legal
        events += new
        history.append(state_to_json(st))
        assert total_cards(st) == full
        assert state_to_json(state_from_json(history[-1])) == history[-1]
    else:
        raise AssertionError("the game did not end")
    assert state_to_json(replay(events)) == history[-1]
    upto = rng.randrange(len(events))
    assert state_to_json(replay(events, upto=events[upto]["seq"])) == history[upto]
    for viewer in range(players):
        view = state_to_json(st, viewer)
        assert all(p["hand"] is None for p in view["players"] if p["seat"] != viewer)
        for ev in events:
            hidden = redact_event(ev, viewer)
            for i, h in enumerate(hidden.get("hands") or []):
                assert i == viewer or isinstance(h, int)
    return st


@PROFILE
@given(preset=hs.sampled_from(sorted(PRESETS)), seed=hs.integers(0, 10 ** 6), players=hs.integers(3, 6))
def test_random_games_keep_invariants(preset, seed, players):
    play_out(preset, None, seed, players)


@PROFILE
@given(preset=hs.sampled_from(sorted(PRESETS)), seed=hs.integers(0, 10 ** 6), players=hs.integers(2, 7),
       switches=hs.dictionaries(hs.sampled_from(SWITCHABLE), hs.booleans(), max_size=12))
def test_random_rule_switches_keep_invariants(preset, seed, players, switches):
    play_out(preset, switches, seed, players)


@PROFILE
@given(preset=hs.sampled_from(sorted(PRESETS)), seed=hs.integers(0, 10 ** 6), players=hs.integers(3, 5))
def test_table_mode_games_keep_invariants(preset, seed, players):
    """A real table's game: hands unknown, the referee trusts them and keeps everything else consistent."""
    play_out(preset, None, seed, players, table=True)
