"""Every bot answers every kind of decision with one of the engine's legal moves."""
import random

import pytest

from referee import actors, apply, covers, new_game, state_to_json
from workers.bots import make, names
from workers.bots.observer import ask, observe

from .scenarios import SCENARIOS, do, game, head, only

BOTS = {"random": {}, "greedy": {}, "mc": {"playouts": 6, "budget_ms": 60000}, "policy": {},
        "policy_mc": {"playouts": 6, "budget_ms": 60000}}


def test_the_registry_knows_every_bot():
    assert names() == ["greedy", "mc", "policy", "policy_mc", "random"]


def decide(bot_name, st, seat, history=None):
    bot = make(bot_name, **BOTS[bot_name])
    move = ask(bot, st, seat, random.Random(7), history=history)
    legal = observe(st, seat).legal
    assert any(covers(entry, move) for entry in legal)
    verdict, after, _ = apply(st, move)
    assert verdict.legal, verdict.to_json()
    return move, after


@pytest.mark.parametrize("bot_name", sorted(BOTS))
@pytest.mark.parametrize("kind", sorted(SCENARIOS))
def test_every_bot_answers_every_pending_decision(bot_name, kind):
    build, action = SCENARIOS[kind]
    st = build()
    pend = head(st)
    assert pend is not None and pend["action"] == action, pend
    seat = actors(st)[0]
    move, _ = decide(bot_name, st, seat)
    assert move["action"] in (action, "pass")


@pytest.mark.parametrize("bot_name", sorted(BOTS))
@pytest.mark.parametrize("preset", ["uecda", "nanko", "gekifugo"])
def test_every_bot_plays_a_turn(bot_name, preset):
    st, _ = new_game(preset, None, ["a", "b", "c", "d"], seed=3)
    seat = actors(st)[0]
    move, _ = decide(bot_name, st, seat)
    assert move["action"] == "play"


@pytest.mark.parametrize("bot_name", sorted(BOTS))
def test_every_bot_answers_a_field_it_may_pass_on(bot_name):
    st = game("nanko", [["S3", "H9", "DK", "C5"], ["S4", "SQ", "H2"], ["H5", "HA"], ["D6", "DQ"]],
              only("nanko"))
    st = do(st, 0, "play", ["H9"])
    move, _ = decide(bot_name, st, 1)
    assert move["action"] in ("play", "pass")


def moves_of(bot_name, st, seat):
    return decide(bot_name, st, seat)[0]


def test_greedy_gives_and_discards_its_weakest_cards():
    assert moves_of("greedy", SCENARIOS["seven_pass"][0](), 0)["cards"] == ["S3"]
    assert moves_of("greedy", SCENARIOS["ten_discard"][0](), 0)["cards"] == ["S3"]
    assert sorted(moves_of("greedy", SCENARIOS["exchange_give_back"][0](), 0)["cards"]) == ["S3", "S9"]


def test_greedy_takes_the_strongest_card_back_and_asks_for_jokers():
    assert moves_of("greedy", SCENARIOS["resurrection"][0](), 1)["cards"] == ["SQ"]
    req = moves_of("greedy", SCENARIOS["exchange_request"][0](), 0)
    assert req["rank"] == "JK" and "count" not in req


def test_greedy_cuts_back_only_near_the_end():
    st = SCENARIOS["cut_back"][0]()          # seat 1 holds JK1 S5 S6: two cards would be left
    assert moves_of("greedy", st, 1)["action"] == "cut_back"
    st = game("nanko", [["S3", "H8", "D4", "C9"], ["JK1", "S5", "S6", "S7", "SK", "H3"], ["H5", "HA", "HQ"], ["D6", "D7", "DQ"]],
              only("nanko", "eight_cut", "cut_back", jokers={"count": 1}))
    st = do(st, 0, "play", ["H8"])
    assert moves_of("greedy", st, 1)["action"] == "pass"


def test_greedy_goes_out_and_avoids_a_forbidden_finish():
    rules = only("nanko", forbidden_finish={"joker": True, "strongest_rank": True, "cut": True})
    st = game("nanko", [["S3", "C2"], ["S4", "SQ", "HK"], ["H5", "HA"], ["D6", "DQ"]], rules)
    # leading with S3 would leave the lone C2, which can only finish forbidden: play the 2 first
    assert moves_of("greedy", st, 0)["cards"] == ["C2"]
    st = game("nanko", [["S3"], ["S4", "SQ", "HK"], ["H5", "HA"], ["D6", "DQ"]], rules)
    assert moves_of("greedy", st, 0)["cards"] == ["S3"]


def test_greedy_leads_its_weakest_cards_together():
    st = game("uecda", [["D3", "H3", "S3", "C9", "HK", "S2"], ["S4", "SQ"], ["H5", "HA"], ["D6", "DQ"]],
              only("uecda"))
    assert sorted(moves_of("greedy", st, 0)["cards"]) == ["D3", "H3", "S3"]


def test_greedy_declares_the_effects_it_wants_in_gekifugo():
    st = game("gekifugo", [["D3", "S7", "H4", "C9", "HK"], ["S4", "SQ"], ["H5", "HA"], ["D6", "DQ"]],
              only("gekifugo", "declarations_required", "seven_pass", first_card={"card": "D3", "must_play": False}))
    view, legal, _ = observe(st, 0)
    sevens = [m for m in legal if m.get("cards") == ["S7"]]
    assert sorted(m.get("declare", []) for m in sevens) == [[], ["seven_pass"]]
    from workers.bots.greedy import rank_plays
    order = [m for _, m in rank_plays(view, sevens, 0)]
    assert order[0].get("declare") == ["seven_pass"] and order[0]["kinds"] == ["give"]


@pytest.mark.parametrize("bot_name", sorted(BOTS))
def test_every_bot_handles_the_cut_back_window(bot_name):
    """The cutter may lead at once (closing the window); a window seat without jokers can only decline."""
    st = SCENARIOS["cut_back"][0]()          # seat 0 cut with H8; only seat 1 holds the joker
    assert actors(st) == [1, 2, 3, 0]
    move, after = decide(bot_name, st, 0)
    assert move["action"] == "play" and state_to_json(after)["pending"] == []
    for seat in (2, 3):
        assert decide(bot_name, st, seat)[0]["action"] == "pass"


def test_greedy_leads_through_the_window_as_it_would_after_it():
    st = SCENARIOS["cut_back"][0]()
    declined = st
    for seat in (1, 2, 3):
        declined = do(declined, seat, "pass")
    assert state_to_json(declined)["pending"] == [] and actors(declined) == [0]
    assert moves_of("greedy", st, 0) == moves_of("greedy", declined, 0)
