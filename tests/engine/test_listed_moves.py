"""apply takes a move legal_moves gave out without parsing it again (moves.listed): the verdict, state and events
are those of the same move parsed, and a listed dict changed after the listing, or applied to another state, is
parsed as it is now."""
import copy
import random

from referee import actors, apply, instantiate, legal_moves, new_game, state_to_json
from referee.core import Game
from referee.moves import listed


def _plays(preset: str, seed: int, plies: int):
    """(state, seat, its listed moves) along a random self-play game."""
    st, _ = new_game(preset, None, ["a", "b", "c", "d"], seed)
    rng = random.Random(seed)
    for _ in range(plies):
        acting = actors(st)
        if not acting:
            return
        seat = acting[0]
        moves = legal_moves(st, seat)
        yield st, seat, moves
        st = apply(st, instantiate(rng.choice(moves), rng))[1]


def test_a_listed_move_applies_as_the_same_move_parsed():
    seen = 0
    for preset in ("uecda", "nanko"):
        for st, seat, moves in _plays(preset, 5, 150):
            for m in moves:
                if listed(st, m) is None:
                    continue
                seen += 1
                v1, s1, e1 = apply(st, m)
                v2, s2, e2 = apply(st, copy.deepcopy(m))
                assert v1 == v2 and e1 == e2 and state_to_json(s1) == state_to_json(s2)
    assert seen > 100


def test_a_listed_move_changed_after_the_listing_is_parsed_as_it_now_is():
    st, _ = new_game("uecda", None, ["a", "b", "c", "d"], 3)
    seat = actors(st)[0]
    moves = [m for m in legal_moves(st, seat) if m["action"] == "play"]
    m = moves[0]
    assert listed(st, m) is not None
    other = next(c for p in state_to_json(st)["players"] if p["seat"] != seat for c in p["hand"])
    m["cards"].append(other)  # changed in place: a card another seat holds
    assert listed(st, m) is None
    verdict, new, events = apply(st, m)
    assert not verdict.legal and verdict.reason == "not_in_hand" and new is st and events == []
    m["cards"].pop()
    m["as"] = {}  # a field more
    assert listed(st, m) is None
    m.pop("as")
    m["seat"] = (seat + 1) % 4
    assert listed(st, m) is None
    assert apply(st, m)[0].reason == "not_your_turn"


def test_a_listing_holds_for_its_state_only():
    st, _ = new_game("uecda", None, ["a", "b", "c", "d"], 4)
    seat = actors(st)[0]
    m = legal_moves(st, seat)[-1]
    game = Game(st)
    assert listed(game.live, legal_moves(game.live, seat)[-1]) is not None
    live_moves = legal_moves(game.live, seat)
    game.advance(game.options(seat)[-1])  # the game's own State changes in place: its listing no longer holds
    assert listed(game.live, live_moves[-1]) is None
    assert listed(st, m) is None  # another state was listed since
    assert apply(st, m)[0].legal
