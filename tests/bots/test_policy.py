"""One greedy policy: asked from a seat view (the bot) or from the engine state (the mc playouts), the same move."""
import random
from collections import Counter

import pytest

from referee import actors, apply, forbidden_last, instantiate, legal_moves, new_game, next_deal, state_to_json
from workers.bots import greedy
from workers.bots.observer import facts
from workers.tournament import random_switches

from .scenarios import SCENARIOS

ANNOTATIONS = ("effects", "kinds", "forbidden_finish")


def _plain(move):
    """A move as JSON without the annotations a listed entry carries."""
    move = move if isinstance(move, dict) else move.to_json()
    return {k: v for k, v in move.items() if k not in ANNOTATIONS}


def _alike(st, seat):
    """The bot's move from the seat view and the policy's from the engine state are the same; the bot's move."""
    view = state_to_json(st, viewer=seat)
    legal = legal_moves(st, seat, annotated=True)
    asked = greedy.choose(view, legal, random.Random(0), forbidden_last=forbidden_last(st, seat))
    assert _plain(greedy.act(facts(st, seat))) == _plain(asked), (view, legal)
    return legal, asked


def _kind(st, legal):
    if not st.pending:
        return "turn"
    if any(m["action"] == "play" for m in legal):
        return "cut-back window, leading"
    return legal[-1]["action"]


@pytest.mark.parametrize("preset", ["uecda", "nanko", "gekifugo"])
def test_the_greedy_bot_moves_alike_from_a_seat_view_and_from_the_engine_state(preset):
    rng = random.Random(f"policy:{preset}")
    seen = Counter()
    for game in range(10):
        st, _ = new_game(preset, random_switches(rng, 10) if game % 3 else None, ["a", "b", "c", "d"], seed=rng.randrange(1 << 20))
        for deal in range(2):  # the second deal opens with the exchange
            if deal:
                st, _ = next_deal(st)
            while actors(st):
                legal, asked = _alike(st, actors(st)[0])
                seen[_kind(st, legal)] += 1
                # greedy's move most of the time, a random one otherwise: varied positions
                move = asked if rng.random() < 0.7 else instantiate(rng.choice(legal), rng)
                _, st, _ = apply(st, move)
    assert seen["turn"] > 300 and sum(seen.values()) - seen["turn"] > 20, seen


@pytest.mark.parametrize("kind", sorted(SCENARIOS))
def test_every_seat_of_every_pending_decision_moves_alike_from_both(kind):
    st = SCENARIOS[kind][0]()
    kinds = {_kind(st, _alike(st, seat)[0]) for seat in actors(st)}
    assert SCENARIOS[kind][1] in kinds
    if kind == "cut_back":  # its cutter leads next: it may lead at once, closing the window
        assert "cut-back window, leading" in kinds
