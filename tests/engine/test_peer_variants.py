"""The peers' remaining variants (issue 38 item 5), each a switch off by default, with explicit hands: the first
card's duty on every deal (first_card.must_play_every_deal), the exchange's tie order (exchange.tie_order), jack back
by the parity of its Js (jack_back.parity), seating by the finishing order (reseat), a forced 7-pass give held for
the player (seven_pass.ask_forced) and jokers bound to a rank (jokers.must_bind)."""
from __future__ import annotations

import random

import pytest

from referee import apply, build_ruleset, legal_moves, next_deal, perft, state_from_json, state_to_json

from .helpers import (bad, deal_again, deal_in_seat_order, game, give, hand, js, move, only, pass_, passes, pending,
                      places, play, refuse)
from .test_properties import play_out


# --- the first card on every deal's first play (first_card.must_play_every_deal) ---------------------------------

def every_deal(**first_card) -> dict:
    return only("uecda", first_card={"every_deal": True, **first_card})


def second_deal_led_by_d3(rules: dict):
    """Deal 2 of four (no exchange): seat 2 holds ♦3, so it leads (every_deal)."""
    return deal_again(deal_in_seat_order("uecda", rules), [["S9", "ST"], ["H9", "HT"], ["D3", "D7", "DK"], ["C9", "CT"]])


def test_by_default_the_duty_binds_only_the_first_play_of_the_match():
    st = second_deal_led_by_d3(every_deal(must_play=True))
    assert js(st)["turn"] == 2 and js(st)["first_play"] is False
    play(st, 2, "D7")


def test_the_first_play_of_every_deal_must_hold_the_card():
    st = second_deal_led_by_d3(every_deal(must_play_every_deal=True))
    assert js(st)["turn"] == 2 and js(st)["first_play"] is True
    verdict = refuse(st, 2, ["D7"], "must_include_first_card")
    assert verdict.rule == "first_card" and "first play of every deal must include D3" in verdict.message
    assert {tuple(m["cards"]) for m in legal_moves(st, 2)} == {("D3",)}
    _, st = play(st, 2, "D3")
    assert js(st)["first_play"] is False
    _, st = play(st, 3, "C9")
    st = passes(st, 0, 1, 2)
    play(st, 3, "CT")  # the duty is spent: the next lead is free


def test_the_duty_binds_the_first_deal_too():
    hands = [["S5", "S6"], ["D3", "H7"], ["C8"], ["C9"]]
    st = game("uecda", hands, every_deal(must_play_every_deal=True))
    assert js(st)["turn"] == 1
    refuse(st, 1, ["H7"], "must_include_first_card")
    play(st, 1, "D3")


def test_in_table_mode_a_later_lead_is_bound_to_nothing_it_may_not_hold():
    st = second_deal_led_by_d3(every_deal(must_play_every_deal=True))
    table = state_to_json(st)
    table["table"] = True
    for p in table["players"]:
        p["unknown"], p["hand"] = len(p["hand"]), []
    st = state_from_json(table)
    verdict, _, _ = apply(st, move(2, "play", ["D7"]))
    assert verdict.legal and "first_card_holder" in verdict.unchecked


def test_a_later_leader_without_the_card_leads_freely():
    # without every_deal the last-placed player (seat 3) leads a later deal: the duty binds it only if it holds ♦3
    rules = only("uecda", first_card={"every_deal": False, "must_play_every_deal": True})
    free = deal_again(deal_in_seat_order("uecda", rules), [["S9"], ["H9"], ["D3", "D7"], ["C9", "CT"]])
    assert js(free)["turn"] == 3
    play(free, 3, "CT")
    bound = deal_again(deal_in_seat_order("uecda", rules), [["S9"], ["H9"], ["D7", "DK"], ["D3", "CT"]])
    refuse(bound, 3, ["CT"], "must_include_first_card")


# --- which of equally strong cards the referee takes (exchange.tie_order) -----------------------------------------

def exchanged(bottom: list, **exchange):
    """Deal 2 of four after seat 3 (the bottom) gave its two strongest to seat 0 (the top) under auto_ties."""
    rules = only("uecda", exchange={"top": 2, "second": 0, "auto_ties": True, **exchange})
    return deal_again(deal_in_seat_order("uecda", rules), [["S4", "S5", "S6"], ["HT"], ["D9"], bottom])


def test_auto_ties_take_the_spade_first_by_default():
    st = exchanged(["S2", "H2", "C2", "D5"])
    assert {"S2", "H2"} <= hand(st, 0) and hand(st, 3) >= {"C2", "D5"}


def test_tie_order_cdhs_takes_the_lowest_suit_first():
    st = exchanged(["S2", "H2", "C2", "D5"], tie_order="CDHS")
    assert {"C2", "H2"} <= hand(st, 0) and "S2" in hand(st, 3)
    st = exchanged(["SK", "DK", "HK", "S3"], tie_order="CDHS")  # ♣ < ♦ < ♥ < ♠: ♦K then ♥K
    assert {"DK", "HK"} <= hand(st, 0) and "SK" in hand(st, 3)


def test_tie_order_leaves_a_chosen_give_to_the_giver():
    rules = only("nanko", exchange={"top": 2, "second": 0, "tie_order": "CDHS"})
    st = deal_again(deal_in_seat_order("nanko", rules), [["S4", "S5", "S6"], ["HT"], ["D9"], ["S2", "H2", "C2", "D5"]])
    assert pending(st)[0] == (3, "give", 2, "exchange")
    st = give(st, 3, "S2", "H2")
    assert "C2" in hand(st, 3)


# --- jack back by the parity of its Js (jack_back.parity) ----------------------------------------------------------

def jack_back(**params) -> dict:
    return only("nanko", jack_back=params or True)


def test_two_jacks_turn_the_order_by_default():
    st = game("nanko", [["SJ", "HJ", "S4"], ["D5", "C5"], ["D6"]], jack_back())
    v, st = play(st, 0, "SJ", "HJ")
    assert v.effects == ("jack_back",) and js(st)["order"] == "reversed"


def test_under_parity_an_even_number_of_jacks_turns_nothing():
    hands = [["SJ", "HJ", "DJ", "S4"], ["D5", "C5", "C4"], ["D6", "C6", "C3"]]
    v, st = play(game("nanko", hands, jack_back(parity=True)), 0, "SJ", "HJ")
    assert v.effects == () and js(st)["order"] == "normal" and js(st)["jack_back"] is False
    v, st = play(game("nanko", hands, jack_back(parity=True)), 0, "SJ")
    assert v.effects == ("jack_back",) and js(st)["order"] == "reversed"
    v, st = play(game("nanko", hands, jack_back(parity=True)), 0, "SJ", "HJ", "DJ")
    assert v.effects == ("jack_back",) and js(st)["order"] == "reversed"


def test_a_joker_standing_in_for_a_jack_counts_for_the_parity():
    hands = [["SJ", "JK1", "S4"], ["D5", "C5"], ["D6"]]
    v, st = play(game("nanko", hands, jack_back(parity=True)), 0, "SJ", "JK1", as_={"JK1": "HJ"})
    assert v.effects == () and js(st)["order"] == "normal"
    real_only = {**jack_back(parity=True), "jokers": {"standin_effects": False}}
    v, st = play(game("nanko", hands, real_only), 0, "SJ", "JK1", as_={"JK1": "HJ"})
    assert v.effects == ("jack_back",) and js(st)["order"] == "reversed"


# --- the next deal seated by the finishing order (reseat) ----------------------------------------------------------

def finished_2_0_3_1(rules: dict):
    """A first deal of four that seats 2, 0, 3 and 1 finish in that order (seat 1 last), with no card that sets off
    an effect of the rules the tests switch on."""
    st = game("nanko", [["H4", "HA"], ["H3", "S4"], ["H2"], ["HQ", "H6"]], rules)
    _, st = play(st, 0, "H4")
    st = pass_(st, 1)
    _, st = play(st, 2, "H2")
    st = passes(st, 3, 0, 1)
    _, st = play(st, 3, "HQ")
    _, st = play(st, 0, "HA")
    st = passes(st, 1, 3)
    _, st = play(st, 1, "H3")
    _, st = play(st, 3, "H6")
    assert places(st) == [2, 4, 1, 3]
    return st


HANDS_2 = [["S5", "S6"], ["S3", "S4"], ["S7", "S8"], ["S9", "ST"]]


def turns_after_lead(st, lead: str) -> list[int]:
    """Who has the turn from the lead on, everyone passing after it (a trick round the table)."""
    seen = [js(st)["turn"]]
    _, st = play(st, seen[0], lead)
    for _ in range(len(js(st)["players"]) - 1):
        seen.append(js(st)["turn"])
        st = pass_(st, seen[-1])
    return seen + [js(st)["turn"]]


def test_without_reseat_a_later_deal_goes_round_by_seat():
    st = deal_again(finished_2_0_3_1(only("nanko")), HANDS_2)
    assert turns_after_lead(st, "S3") == [1, 2, 3, 0, 1]


def test_reseat_plays_from_the_last_placed_up_to_the_first():
    st = deal_again(finished_2_0_3_1(only("nanko", "reseat")), HANDS_2)
    # 大貧民 (seat 1) → 貧民 (seat 3) → 富豪 (seat 0) → 大富豪 (seat 2) → 大貧民
    assert turns_after_lead(st, "S3") == [1, 3, 0, 2, 1]
    assert [p["seat"] for p in js(st)["players"]] == [0, 1, 2, 3]  # nobody is renumbered


def test_reseat_down_plays_from_the_first_down_to_the_last():
    st = deal_again(finished_2_0_3_1(only("nanko", reseat={"order": "down"})), HANDS_2)
    # 大貧民 (seat 1) → 大富豪 (seat 2) → 富豪 (seat 0) → 貧民 (seat 3) → 大貧民
    assert turns_after_lead(st, "S3") == [1, 2, 0, 3, 1]


def test_the_first_deal_is_seated_by_seat_number():
    st = game("nanko", [["S3", "S4"], ["S5", "S6"], ["S7", "S8"], ["S9", "ST"]], only("nanko", "reseat"))
    assert turns_after_lead(st, "S3") == [0, 1, 2, 3, 0]


def test_a_reversed_direction_goes_back_round_the_seating():
    rules = only("nanko", "reseat", nine_reverse={"scope": "deal"})
    st = deal_again(finished_2_0_3_1(rules), [["S5", "S6"], ["S9", "S4"], ["S7", "S8"], ["C9", "ST"]])
    _, st = play(st, 1, "S9")
    assert js(st)["direction"] == -1 and js(st)["turn"] == 2  # the seat before seat 1 is the 大富豪


def test_a_seven_goes_to_the_next_player_in_the_seating():
    hands = [["S5", "S6"], ["S7", "S4"], ["S8", "S9"], ["ST", "SJ"]]
    st = deal_again(finished_2_0_3_1(only("nanko", "reseat", "seven_pass")), hands)
    _, st = play(st, 1, "S7")  # one card left: the referee gives it, to seat 3
    assert hand(st, 3) == {"ST", "SJ", "S4"} and hand(st, 2) == {"S8", "S9"}
    st = deal_again(finished_2_0_3_1(only("nanko", "seven_pass")), hands)
    _, st = play(st, 1, "S7")  # seated by number: to seat 2
    assert hand(st, 2) == {"S8", "S9", "S4"}


def test_skips_go_round_the_seating():
    rules = only("nanko", "reseat", "five_skip")
    st = deal_again(finished_2_0_3_1(rules), [["S6", "S8"], ["S5", "S4"], ["S7", "S9"], ["ST", "SJ"]])
    v, st = play(st, 1, "S5")  # skips seat 3, the next in the seating
    assert v.effects == ("five_skip",) and js(st)["turn"] == 0


def test_the_deal_goes_round_the_seating_from_the_seat_after_the_dealer():
    # 54 cards for four: the two seats after the dealer (seat 1, last) get 14; seated, those are seats 3 and 0
    plain, _ = next_deal(finished_2_0_3_1(only("nanko")))
    assert [len(p["hand"]) for p in js(plain)["players"]] == [13, 13, 14, 14]
    seated, _ = next_deal(finished_2_0_3_1(only("nanko", "reseat")))
    assert [len(p["hand"]) for p in js(seated)["players"]] == [14, 13, 13, 14]
    assert js(seated)["turn"] == 1


def test_the_seating_survives_the_state_json():
    st = deal_again(finished_2_0_3_1(only("nanko", "reseat")), HANDS_2)
    again = state_from_json(state_to_json(st))
    assert turns_after_lead(again, "S3") == [1, 3, 0, 2, 1]


def test_legal_moves_equal_the_judge_in_a_reseated_deal():
    rules = only("nanko", "reseat", "seven_pass", "five_skip")
    st = deal_again(finished_2_0_3_1(rules), [["S5", "S6"], ["H5", "S4", "H7"], ["S8", "S9"], ["ST", "SJ"]])
    _, st = play(st, 1, "S4")
    assert perft.Check(st, 3).run().ok
    _, st = play(st, 3, "ST")
    assert js(st)["turn"] == 0 and perft.Check(st, 0).run().ok


# --- a forced 7-pass give held for the player (seven_pass.ask_forced) ----------------------------------------------

def seven(**params) -> dict:
    return only("nanko", seven_pass=params or True)


def test_a_give_with_no_choice_is_made_by_the_referee_by_default():
    st = game("nanko", [["S7", "H9"], ["D8", "C8"], ["D5"]], seven())
    v, st = play(st, 0, "S7")
    assert pending(st) == [] and hand(st, 1) == {"D8", "C8", "H9"}
    assert places(st)[0] == 1 and js(st)["turn"] == 1


def test_ask_forced_holds_the_give_until_the_player_makes_it():
    st = game("nanko", [["S7", "H9"], ["D8", "C8"], ["D5"]], seven(ask_forced=True))
    v, st = play(st, 0, "S7")
    assert pending(st) == [(0, "give", 1, "seven_pass")] and hand(st, 0) == {"H9"}
    entry, = legal_moves(st, 0)
    assert entry["choose"] == {"from": ["H9"], "min": 1, "max": 1}
    bad(st, move(1, "pass"), "pending_decision")
    bad(st, move(0, "give", []), "wrong_count")
    st = give(st, 0, "H9")
    assert hand(st, 1) == {"D8", "C8", "H9"} and places(st)[0] == 1 and js(st)["turn"] == 1


def test_ask_forced_holds_a_short_give_of_every_card_left():
    st = game("nanko", [["S7", "H7", "H9"], ["D8", "C8"], ["D5"]], seven(ask_forced=True))
    _, st = play(st, 0, "S7", "H7")
    assert pending(st) == [(0, "give", 1, "seven_pass")]  # two owed, one left


def test_ask_forced_lists_the_give_and_equals_the_judge():
    st = game("nanko", [["S7", "H9"], ["D8", "C8"], ["D5"]], seven(ask_forced=True))
    _, st = play(st, 0, "S7")
    assert pending(st) == [(0, "give", 1, "seven_pass")] and perft.Check(st, 0).run().ok
    st = game("nanko", [["S7", "H7", "H9"], ["D8", "C8"], ["D5"]], seven(ask_forced=True))
    _, st = play(st, 0, "S7", "H7")
    assert perft.Check(st, 0).run().ok and perft.Check(st, 1).run().ok


def test_ask_forced_owes_nothing_for_a_play_that_goes_out():
    st = game("nanko", [["S7"], ["D8", "C8"], ["D5"]], seven(ask_forced=True))
    _, st = play(st, 0, "S7")
    assert pending(st) == [] and places(st)[0] == 1


# --- jokers bound to a rank when played with other cards (jokers.must_bind) ---------------------------------------

def bind(**params) -> dict:
    return only("nanko", jokers={"must_bind": True, **params})


HANDS_J = [["H7", "JK1", "JK2", "S4", "S5", "SK"], ["DA", "CA"], ["D6"]]


def test_by_default_the_referee_reads_a_joker_among_cards():
    v, st = play(game("nanko", HANDS_J, only("nanko")), 0, "H7", "JK1")
    assert v.reading == {"JK1": "S7"}


def test_must_bind_refuses_a_joker_left_unbound_naming_the_rule():
    st = game("nanko", HANDS_J, bind())
    verdict = refuse(st, 0, ["H7", "JK1"], "joker_unbound")
    assert verdict.rule == "jokers" and "JK1" in verdict.message and "jokers.must_bind" in verdict.message


def test_must_bind_accepts_a_rank_or_a_card():
    st = game("nanko", HANDS_J, bind())
    v, _ = play(st, 0, "H7", "JK1", as_={"JK1": "7"})
    assert v.reading == {"JK1": "S7"}  # bound to a rank: the suit is the referee's (§10.9)
    v, _ = play(st, 0, "H7", "JK1", as_={"JK1": "D7"})
    assert v.reading == {"JK1": "D7"}


def test_must_bind_wants_every_joker_of_the_play_bound():
    st = game("nanko", HANDS_J, bind())
    verdict = refuse(st, 0, ["H7", "JK1", "JK2"], "joker_unbound", as_={"JK1": "7"})
    assert "JK2" in verdict.message and "JK1" not in verdict.message.split(" is played")[0]
    play(st, 0, "H7", "JK1", "JK2", as_={"JK1": "7", "JK2": "7"})


def test_must_bind_binds_a_joker_in_stairs_too():
    st = game("nanko", HANDS_J, bind())
    refuse(st, 0, ["S4", "S5", "JK1"], "joker_unbound")
    v, _ = play(st, 0, "S4", "S5", "JK1", as_={"JK1": "S3"})
    assert v.reading == {"JK1": "S3"}


def test_jokers_played_alone_stay_jokers():
    st = game("nanko", HANDS_J, bind())
    v, _ = play(st, 0, "JK1")
    assert v.reading == {}
    play(st, 0, "JK1", "JK2")
    refuse(st, 0, ["JK1"], "invalid_cards", as_={"JK1": "S7"})  # RULES.md §10.7 stands


def test_an_attached_joker_is_read_by_the_field_it_joins():
    # gekifugo: ♠4-5-6 on the field; the joker attaches as ♠7 (RULES.md §10.6: the stronger open rank), or as 'as' says
    st = game("gekifugo", [["S4", "S5", "S6", "D3", "H9"], ["JK1", "H8", "CK"], ["SA", "HQ", "C7"]],
              {"jokers": {"must_bind": True}})
    _, st = play(st, 0, "D3")
    st = passes(st, 1, 2)
    _, st = play(st, 0, "S4", "S5", "S6", declare=["stairs"])
    v, _ = play(st, 1, "JK1", declare=["attach_revolution"])
    assert v.effects == ("attach_revolution",) and v.reading == {"JK1": "S7"}
    v, _ = play(st, 1, "JK1", as_={"JK1": "S3"}, declare=["attach_revolution"])
    assert v.reading == {"JK1": "S3"}


def test_must_bind_lists_every_joker_play_bound_and_equals_the_judge():
    st = game("nanko", HANDS_J, bind())
    plays = [m for m in legal_moves(st, 0) if "JK1" in m.get("cards", []) and set(m["cards"]) - {"JK1", "JK2"}]
    assert plays and all("JK1" in m.get("as", {}) for m in plays)
    assert perft.Check(st, 0).run().ok
    _, st = play(st, 0, "S4")
    assert perft.Check(st, 1).run().ok


# --- hooks a rule's params leave idle are never called (settings: idle_hooks) ------------------------------------

def test_the_joker_and_first_card_checks_cost_nothing_while_switched_off():
    plain = build_ruleset("nanko")
    bound = build_ruleset("nanko", {"jokers": {"must_bind": True}, "first_card": {"must_play": True}})
    assert len(bound.legality_hooks) == len(plain.legality_hooks) + 2
    assert not plain.required_hooks and len(bound.required_hooks) == 1


# --- every variant at once, in whole games ----------------------------------------------------------------------

EVERY_VARIANT = {"reseat": True, "jokers": {"must_bind": True}, "jack_back": {"parity": True},
                 "seven_pass": {"ask_forced": True}, "exchange": {"auto_ties": True, "tie_order": "CDHS"},
                 "first_card": {"every_deal": True, "must_play_every_deal": True}}


@pytest.mark.parametrize("preset, players, seed", [("nanko", 4, 1), ("nanko", 5, 2), ("gekifugo", 4, 3),
                                                   ("uecda", 5, 4), ("gekifugo", 6, 5)])
def test_every_variant_at_once_keeps_the_invariants(preset, players, seed):
    """Cards conserved, replay equal to the live state, someone always able to act, over three deals."""
    play_out(preset, EVERY_VARIANT, seed, players, deals=3)
    play_out(preset, {**EVERY_VARIANT, "reseat": {"order": "down"}}, seed, players, deals=3, table=seed % 2 == 1)


def test_every_variant_at_once_lists_exactly_what_the_judge_accepts():
    rng = random.Random(38)
    for preset, players, seed in (("nanko", 4, 6), ("gekifugo", 4, 7)):
        states = list(perft.positions(preset, EVERY_VARIANT, seed, players, deals=3))
        assert any(st.deal == 3 for st in states)
        for st in perft.sample(states, rng, 12):
            for seat, report in perft.check_position(st):
                assert report.ok, (seat, report.unlisted[:3], report.refused[:3])
