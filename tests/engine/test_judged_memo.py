"""The memoised judgements (play.judge_on, keyed by the seat's view.Table) answer exactly as fresh ones, and so do
the listings, annotations and forbidden last cards built on them: rule hooks see nothing but a PlayView, so a
judgement made at one state stands at every state with an equal Table."""
import random
from contextlib import contextmanager

from hypothesis import given, strategies as hs

from referee import actors, advance, annotate, forbidden_last, instantiate, legal_moves, new_game
from referee.legal import options
from referee.moves import Move, parse_move
from referee.play import _judge, judge_play
from referee.view import table_of
from referee.rules.base import Rejection

from .test_properties import PROFILE, SWITCHES, random_proposal, seated, walk


@contextmanager
def fresh_memos(rules):
    """Judge with empty memos, then put the warm ones back."""
    kept = rules.memo, rules.moves_memo, rules.effects_memo
    rules.memo, rules.moves_memo, rules.effects_memo = {}, {}, {}
    try:
        yield
    finally:
        rules.memo, rules.moves_memo, rules.effects_memo = kept


def outcome(plan):
    if isinstance(plan, Rejection):
        return plan
    return (plan.view, plan.seat, plan.left_after, plan.field_reading, plan.effects, plan.void)


def check_position(st, seat, rng):
    warm = legal_moves(st, seat)
    annotated = legal_moves(st, seat, annotated=True)
    last = forbidden_last(st, seat)
    with fresh_memos(st.rules):
        assert legal_moves(st, seat) == warm
        assert annotate(st, warm) == annotated
        assert forbidden_last(st, seat) == last
    proposals = [m for m in warm if m["action"] == "play"][:12] + [random_proposal(st, seat, rng) for _ in range(6)]
    for proposal in proposals:
        if proposal["action"] != "play":
            continue
        mv = parse_move(proposal)
        for with_effects in (True, False):
            memoised = judge_play(st, mv, with_effects)
            if mv.cards and not st.unheld(seat, mv.cards):
                left_after = st.left(seat) - mv.cards.bit_count()
                with fresh_memos(st.rules):
                    fresh = _judge(table_of(st, seat), st.rules, mv, left_after, with_effects)
                assert outcome(memoised) == outcome(fresh), proposal


@PROFILE
@given(seats=seated(2, 6), seed=hs.integers(0, 10 ** 6), switches=SWITCHES)
def test_memoised_judgements_and_legal_moves_equal_fresh_ones(seats, seed, switches):
    preset, players = seats
    st, _ = new_game(preset, switches, [f"p{i}" for i in range(players)], seed)
    rng = random.Random(seed)

    def step(st, seat, ply):
        check_position(st, seat, rng)
        move = rng.choice(options(st, seat))
        return advance(st, move if isinstance(move, Move) else instantiate(move, rng))

    walk(st, rng, 300, step)


def test_options_are_the_legal_moves_as_moves():
    st, _ = new_game("gekifugo", None, ["a", "b", "c", "d", "e"], 7)
    rng = random.Random(7)
    compared = 0
    for _ in range(200):
        acting = actors(st)
        if not acting:
            break
        seat = acting[0]
        listed, opts = legal_moves(st, seat), options(st, seat)
        if not st.pending:
            assert [m.to_json() if isinstance(m, Move) else m for m in opts] == listed
            compared += 1
        pick = rng.choice(opts)
        st = advance(st, pick if isinstance(pick, Move) else instantiate(pick, rng))
    assert compared > 50
