"""core.Game, a position moved by ``advance``, passes through the very states ``advance`` makes, rejects what it
rejects, and leaves the states it handed out (snapshots, copies, the states it started from) as they were."""
import random

from hypothesis import given, strategies as hs

from referee import actors, advance, instantiate, new_game, next_deal, state_to_json
from referee.core import Game
from referee.legal import options
from referee.moves import Move
from referee.verdict import Verdict

from .test_properties import PROFILE, SWITCHES, random_proposal, seated


def same(a, b) -> bool:
    return a.values() == b.values()


@PROFILE
@given(seats=seated(2, 6), seed=hs.integers(0, 10 ** 6), switches=SWITCHES)
def test_a_game_played_in_place_passes_through_the_states_advance_makes(seats, seed, switches):
    preset, players = seats
    st, _ = new_game(preset, switches, [f"p{i}" for i in range(players)], seed)
    start = state_to_json(st)
    game = Game(st)
    rng = random.Random(seed)
    snapshots = []
    for ply in range(400):
        acting = actors(st)
        assert game.actors() == acting
        if not acting:
            if st.deal >= 2:
                break
            st, _ = next_deal(st)
            game = Game(st)
            continue
        seat = rng.choice(acting)
        assert game.options(seat) == options(st, seat)
        # a proposal the engine may reject: the same verdict, the game unchanged
        proposal = random_proposal(st, seat, rng)
        expected = advance(st, proposal)
        got = game.advance(proposal)
        if isinstance(expected, Verdict):
            assert got == expected
            assert same(game.live, st)
        else:
            assert got is None and same(game.live, expected)
            st = expected
            continue
        move = rng.choice(options(st, seat))
        move = move if isinstance(move, Move) else instantiate(move, rng)
        st = advance(st, move)
        assert game.advance(move) is None
        assert same(game.live, st), (ply, move)
        if ply % 50 == 0:
            snapshots.append((game.state(), state_to_json(st)))
    for snapshot, as_json in snapshots:
        assert state_to_json(snapshot) == as_json
    assert state_to_json(new_game(preset, switches, [f"p{i}" for i in range(players)], seed)[0]) == start


def test_a_copy_branches_and_the_start_state_is_left_alone():
    st, _ = new_game("uecda", None, ["a", "b", "c", "d", "e"], 11)
    before = st.values()
    game = Game(st)
    rng = random.Random(3)
    for _ in range(30):
        seat = game.actors()[0]
        game.advance(rng.choice(game.options(seat)))
    assert st.values() == before
    branch = game.copy()
    at_branch = game.state()
    for _ in range(20):
        seat = branch.actors()[0]
        branch.advance(rng.choice(branch.options(seat)))
    assert branch.live.seq == at_branch.seq + 20
    assert same(game.live, at_branch)


def test_every_move_makes_a_new_state_and_leaves_the_last_one_as_it_was():
    """Passes and plays that fire nothing too: a State the game handed out never changes afterwards."""
    st, _ = new_game("uecda", None, ["a", "b", "c", "d", "e"], 5)
    game = Game(st)
    rng = random.Random(5)
    moved = {"pass": 0, "play": 0}
    for _ in range(300):
        acting = game.actors()
        if not acting:
            break
        before = game.live
        frozen = before.values()
        move = rng.choice(game.options(acting[0]))
        if isinstance(move, dict):
            move = instantiate(move, rng)
        assert game.advance(move) is None
        assert game.live is not before and before.values() == frozen, move
        moved[move.action] += 1
    assert moved["pass"] > 20 and moved["play"] > 20, moved
