"""The uecda preset against the UEC contest server's reference behaviour (FujiGokoroUECda, src/server/)."""
from dataclasses import replace

import pytest

from referee import InputError, next_deal

from .helpers import game, hand, js, pass_, play, places, refuse


def led_by(st, seat):
    return replace(st, turn=seat)


def test_one_joker_in_the_deck():
    st = game("uecda", [["S3"], ["H4"]])
    assert st.rules.params("jokers") == {"count": 1}
    with pytest.raises(InputError, match="JK2"):
        game("uecda", [["JK2"], ["H4"]])


def test_diamond_three_holder_leads_without_a_duty_to_play_it():
    st = game("uecda", [["S4", "H9"], ["D3", "C5"], ["S6", "H7"]])
    assert st.turn == 1
    _, st = play(st, 1, "C5")
    assert "D3" in hand(st, 1)


def test_stairs_compare_above_the_old_strongest():
    # RULES.md §9 example 6: after ♠4-5-6, ♥6-7-8 is too weak and ♥7-8-9 is legal and cuts
    st = game("uecda", [["S4", "S5", "S6", "D3"], ["H6", "H7", "H8", "H9", "C3"], ["SK", "CK"]])
    st = led_by(st, 0)
    _, st = play(st, 0, "S4", "S5", "S6")
    refuse(st, 1, ["H6", "H7", "H8"], "too_weak")
    verdict, st = play(st, 1, "H7", "H8", "H9")
    assert "eight_cut" in verdict.effects
    assert js(st)["field"] is None and st.turn == 1


def test_revolution_needs_four_of_a_kind_or_five_stairs():
    st = game("uecda", [["S5", "H5", "D5", "C5", "S9"], ["H6", "H7", "H8", "H9", "HT", "D3"]])
    verdict, st2 = play(st, 1, "H6", "H7", "H8", "H9", "HT")
    assert "revolution" in verdict.effects and js(st2)["revolution"]
    st = game("uecda", [["S5", "H5", "D5", "C5", "S9"], ["H6", "H7", "H9", "D3"]], rules=None)
    st = led_by(st, 0)
    verdict, st = play(st, 0, "S5", "H5", "D5", "C5")
    assert "revolution" in verdict.effects


def test_four_card_stairs_is_no_revolution_in_uecda():
    st = game("uecda", [["H6", "H7", "H8", "H9", "D3"], ["S4"]])
    verdict, st = play(st, 0, "H6", "H7", "H8", "H9")
    assert "revolution" not in verdict.effects and not js(st)["revolution"]


def test_five_card_group_with_the_joker_is_a_revolution():
    st = game("uecda", [["S5", "H5", "D5", "C5", "JK1", "D3"], ["S4"]])
    verdict, st = play(st, 0, "S5", "H5", "D5", "C5", "JK1")
    assert "revolution" in verdict.effects


def test_lone_joker_on_a_suit_lock_is_legal_and_ends_it():
    st = game("uecda", [["S4", "S9", "D3"], ["S6", "HK"], ["JK1", "C7"]])
    st = led_by(st, 0)
    _, st = play(st, 0, "S4")
    _, st = play(st, 1, "S6")
    assert js(st)["locks"]["suits"] == ["S"]
    refuse(st, 2, ["C7"], "locked")
    verdict, st = play(st, 2, "JK1")
    assert js(st)["locks"]["suits"] == []


def test_spade_three_beats_a_lone_joker_and_flushes():
    st = game("uecda", [["JK1", "H9"], ["C2", "HK"], ["S3", "D7"]])
    _, st = play(st, 0, "JK1")
    refuse(st, 1, ["C2"], "too_weak")
    st = pass_(st, 1)
    verdict, st = play(st, 2, "S3")
    assert "spade3" in verdict.effects
    assert js(st)["field"] is None and st.turn == 2


def test_passing_does_not_bar_a_later_play_in_the_same_trick():
    # RULES.md §3 (all presets): the UEC server differs here, see docs/rules.md
    st = game("uecda", [["S4", "SK"], ["D5", "C2"], ["H6", "HQ"]])
    _, st = play(st, 0, "S4")
    st = pass_(st, 1)
    _, st = play(st, 2, "H6")
    _, st = play(st, 0, "SK")
    verdict, st = play(st, 1, "C2")
    assert verdict.legal


def test_no_forbidden_finish_in_uecda():
    st = game("uecda", [["C2"], ["S4", "S5"], ["H6", "H7"]])
    st = led_by(st, 0)
    _, st = play(st, 0, "C2")
    assert places(st)[0] == 1


def test_exchange_takes_the_strongest_cards_automatically_even_when_tied():
    st = game("uecda", [["D3"], ["S4"], ["H6"], ["D8"], ["HT"]])
    for seat, card in enumerate(["D3", "S4", "H6", "D8"]):
        _, st = play(st, seat, card)
    assert places(st) == [1, 2, 3, 4, 5]
    deal = [["S7", "H8", "C9"], ["DT", "CJ"], ["SQ", "HQ"], ["DK", "CK", "C3"], ["SA", "HA", "DA", "S6"]]
    new, _ = next_deal(st, hands=deal)
    # ties among the three aces are broken S, H, D: no decision is left to the last player
    assert {"SA", "HA"} <= hand(new, 0) and "DA" in hand(new, 4)
    assert "DK" in hand(new, 1)
    assert [(p["seat"], p["action"], p["count"]) for p in js(new)["pending"]] == [(0, "give", 2), (1, "give", 1)]
