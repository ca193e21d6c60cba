"""Shapes (RULES.md §1-§2): singles, groups, jokers, first card, and every sequence shape."""
import pytest
from hypothesis import given
from hypothesis import strategies

from referee import InputError, new_game
from referee.cards import count

from .helpers import bad, game, js, move, only, pass_, play, refuse

PLAIN = only("uecda")                      # no effects at all: only shapes
SHIFT = only("uecda", stairs={"compare": "shift", "min_length": 3})


# --- basic legality -------------------------------------------------------------------------------------------

def test_a_stronger_single_beats_a_weaker_one_and_the_turn_moves_on():
    st = game("uecda", [["S4", "S9"], ["H5", "HK"], ["D6"]], PLAIN)
    _, st = play(st, 0, "S4")
    _, st = play(st, 1, "H5")
    assert js(st)["turn"] == 2 and js(st)["field"]["cards"] == ["H5"]


def test_an_equal_or_weaker_single_is_too_weak():
    st = game("uecda", [["S5", "S9"], ["H5", "H4", "HK"], ["D6"]], PLAIN)
    _, st = play(st, 0, "S5")
    refuse(st, 1, ["H5"], "too_weak")
    refuse(st, 1, ["H4"], "too_weak")


def test_wrong_shape_or_count_is_shape_mismatch():
    st = game("uecda", [["S5", "S9"], ["H7", "D7", "HK"], ["D6"]], PLAIN)
    _, st = play(st, 0, "S5")
    refuse(st, 1, ["H7", "D7"], "shape_mismatch")


def test_playing_out_of_turn_or_cards_not_held_is_rejected():
    st = game("uecda", [["S5", "S9"], ["H7", "HK"], ["D6"]], PLAIN)
    refuse(st, 1, ["H7"], "not_your_turn")
    refuse(st, 0, ["H7"], "not_in_hand")


def test_mixed_ranks_are_no_shape():
    st = game("uecda", [["S5", "H6", "S9"], ["H7"]], PLAIN)
    refuse(st, 0, ["S5", "H6"], "invalid_cards")


def test_the_leader_on_an_empty_field_cannot_pass_but_a_follower_can():
    st = game("uecda", [["S5", "S9"], ["H7", "HK"]], PLAIN)
    bad(st, move(0, "pass"), "must_play")
    _, st = play(st, 0, "S5")
    st = pass_(st, 1)
    # back to the field's owner: flushed, it leads again
    assert js(st)["field"] is None and js(st)["turn"] == 0 and js(st)["discard_pile"] == ["S5"]


def test_a_pass_does_not_bar_a_later_play_in_the_same_trick():
    st = game("uecda", [["S4", "S9", "SK"], ["H5", "HQ"], ["D6", "D3"]], PLAIN)
    _, st = play(st, 0, "S4")
    st = pass_(st, 1)
    _, st = play(st, 2, "D6")
    _, st = play(st, 0, "S9")
    _, st = play(st, 1, "HQ")     # seat 1 passed earlier in this trick
    assert js(st)["field"]["cards"] == ["HQ"]


def test_adjacency_never_wraps_from_two_to_three():
    st = game("uecda", [["S2", "S3", "S4", "S9"], ["H7"]], SHIFT)
    refuse(st, 0, ["S2", "S3", "S4"], "invalid_cards")


# --- jokers -----------------------------------------------------------------------------------------------------

def test_a_lone_joker_beats_a_two_and_nothing_beats_it():
    st = game("uecda", [["S2", "S9"], ["JK1", "HK"], ["D2", "D6"]], PLAIN)
    _, st = play(st, 0, "S2")
    _, st = play(st, 1, "JK1")
    refuse(st, 2, ["D2"], "too_weak")


def test_a_pair_of_jokers_is_the_strongest_pair():
    st = game("nanko", [["S2", "H2", "S9"], ["JK1", "JK2", "HK"], ["D6"]], only("nanko"))
    _, st = play(st, 0, "S2", "H2")
    v, st = play(st, 1, "JK1", "JK2")
    assert js(st)["field"]["shape"] == "group"


def test_without_jokers_in_the_deck_a_joker_cannot_be_dealt():
    with pytest.raises(InputError) as e:
        new_game("uecda", {"jokers": {"count": 0}}, ["a", "b"], seed=0, hands=[["JK1"], ["S3"]])
    assert e.value.code == "bad_hands"
    with pytest.raises(InputError):
        new_game("uecda", None, ["a", "b"], seed=0, hands=[["JK2"], ["S3"]])   # uecda has 1 joker


def test_a_joker_fills_a_group_and_the_reading_is_reported():
    st = game("uecda", [["S4", "H4", "S9"], ["S5", "JK1", "HK"], ["D6"]], PLAIN)
    _, st = play(st, 0, "S4", "H4")
    v, st = play(st, 1, "S5", "JK1")
    assert list(v.reading) == ["JK1"] and v.reading["JK1"][1:] == "5"


def test_a_joker_in_stairs_takes_the_only_possible_card():
    st = game("nanko", [["S5", "JK1", "S7", "S9"], ["H7"], ["D9"]], SHIFT)
    v, st = play(st, 0, "S5", "JK1", "S7")
    assert v.reading == {"JK1": "S6"}
    assert js(st)["field"]["as"] == {"JK1": "S6"}


def test_an_ambiguous_joker_gets_the_strongest_reading():
    # S5 S6 JK1 is S4-5-6 or S5-6-7: the referee picks the stronger S7
    st = game("nanko", [["S5", "S6", "JK1", "S9"], ["H6", "H7", "H8", "HK"], ["D9"]], SHIFT)
    v, st = play(st, 0, "S5", "S6", "JK1")
    assert v.reading == {"JK1": "S7"}
    # lo is now 5: H6-7-8 (lo 6) beats it
    play(st, 1, "H6", "H7", "H8")


def test_an_explicit_as_reading_is_used():
    st = game("nanko", [["S5", "S6", "JK1", "S9"], ["H5", "H6", "H7", "HK"], ["D9"]], SHIFT)
    v, st = play(st, 0, "S5", "S6", "JK1", as_={"JK1": "S4"})
    assert v.reading == {"JK1": "S4"}
    # the field is S4-5-6 (lo 4), so H5-6-7 now beats it
    play(st, 1, "H5", "H6", "H7")


def test_an_impossible_as_reading_is_invalid_cards():
    st = game("nanko", [["S5", "S6", "JK1", "S9"], ["H7"], ["D9"]], SHIFT)
    refuse(st, 0, ["S5", "S6", "JK1"], "invalid_cards", as_={"JK1": "S9"})


# --- first card -------------------------------------------------------------------------------------------------

def test_the_holder_of_the_first_card_leads_the_first_deal():
    st = game("uecda", [["S5"], ["H7"], ["D3", "D9"]], only("uecda", "first_card"))
    assert js(st)["turn"] == 2


def test_without_first_card_seat_0_leads():
    st = game("uecda", [["S5"], ["H7"], ["D3", "D9"]], PLAIN)
    assert js(st)["turn"] == 0


def test_first_card_not_dealt_seat_0_leads():
    st = game("uecda", [["S5"], ["H7"], ["D9"]], only("uecda", "first_card"))
    assert js(st)["turn"] == 0


def test_uecda_first_card_need_not_be_played():
    st = game("uecda", [["S5"], ["H7"], ["D3", "D9"]], only("uecda", "first_card"))
    play(st, 2, "D9")


def test_geki_first_card_must_be_part_of_the_first_play_only():
    rules = only("gekifugo", "first_card")
    st = game("gekifugo", [["S5", "S7"], ["H7", "HK"], ["D3", "S3", "D9", "DK"]], rules)
    refuse(st, 2, ["D9"], "must_include_first_card")
    _, st = play(st, 2, "D3", "S3")          # inside a group is fine
    st = pass_(st, 0)
    st = pass_(st, 1)
    play(st, 2, "D9")                         # no duty after the first play


def test_geki_first_play_lists_only_plays_with_the_first_card():
    from referee import legal_moves
    rules = only("gekifugo", "first_card")
    st = game("gekifugo", [["S5", "S7"], ["H7", "HK"], ["D3", "S3", "D9", "DK"]], rules)
    from referee.cards import parse
    from referee.rules import first_card
    params = st.rules.params("first_card")
    # the listing does not even judge the sets without D3 (required_cards), and lists what the judge accepts
    assert first_card.required_cards(st, 2, params) == 1 << parse("D3")
    assert first_card.required_cards(st, 0, params) == 0
    plays = [m["cards"] for m in legal_moves(st, 2) if m["action"] == "play"]
    assert sorted(map(sorted, plays)) == [["D3"], ["D3", "S3"]]
    _, st = play(st, 2, "D3")
    assert first_card.required_cards(st, 0, params) == 0


# --- stairs -----------------------------------------------------------------------------------------------------

def test_stairs_shift_compare_needs_a_higher_weakest_card():
    st = game("nanko", [["S4", "S5", "S6", "S9"], ["H4", "H5", "H6", "H7", "HK"], ["D9"]], SHIFT)
    _, st = play(st, 0, "S4", "S5", "S6")
    assert js(st)["field"]["shape"] == "stairs"
    refuse(st, 1, ["H4", "H5", "H6"], "too_weak")
    refuse(st, 1, ["H4", "H5", "H6", "H7"], "shape_mismatch")
    play(st, 1, "H5", "H6", "H7")


def test_stairs_above_compare_needs_weakest_above_old_strongest():
    rules = only("uecda", stairs={"compare": "above"})
    st = game("uecda", [["S4", "S5", "S6", "SK"], ["H6", "H7", "H8", "H9", "HT", "HK"]], rules)
    _, st = play(st, 0, "S4", "S5", "S6")
    refuse(st, 1, ["H6", "H7", "H8"], "too_weak")
    play(st, 1, "H7", "H8", "H9")


def test_stairs_compare_in_reversed_order_uses_the_strongest_end():
    rules = only("nanko", "revolution", stairs={"compare": "shift"})
    st = game("nanko", [["S9", "H9", "D9", "C9", "S6", "S7", "S8", "SK"], ["H5", "H6", "H7", "H8", "HK"], ["DK"]],
              rules)
    _, st = play(st, 0, "S9", "H9", "D9", "C9")
    assert js(st)["order"] == "reversed"
    st = pass_(st, 1)
    st = pass_(st, 2)
    _, st = play(st, 0, "S6", "S7", "S8")
    refuse(st, 1, ["H6", "H7", "H8"], "too_weak")
    play(st, 1, "H5", "H6", "H7")


def test_stairs_min_length_parameter():
    rules = only("uecda", stairs={"compare": "shift", "min_length": 4})
    st = game("uecda", [["S4", "S5", "S6", "S7"], ["H9"]], rules)
    refuse(st, 0, ["S4", "S5", "S6"], "invalid_cards")
    play(st, 0, "S4", "S5", "S6", "S7")


def test_stairs_switched_off_are_no_shape():
    st = game("uecda", [["S4", "S5", "S6", "S9"], ["H9"]], {**PLAIN, "stairs": False})
    refuse(st, 0, ["S4", "S5", "S6"], "invalid_cards")


def test_stairs_must_be_one_suit():
    st = game("nanko", [["S4", "H5", "S6", "S9"], ["H9"], ["D9"]], SHIFT)
    refuse(st, 0, ["S4", "H5", "S6"], "invalid_cards")


# --- skip stairs ------------------------------------------------------------------------------------------------

SKIP = only("uecda", "skip_stairs", stairs={"compare": "shift"})


def test_skip_stairs_step_by_two_and_only_a_stronger_skip_stairs_answers():
    st = game("uecda", [["S5", "S7", "S9", "SK"], ["H6", "H8", "HT", "H7", "H9", "HK"]], SKIP)
    _, st = play(st, 0, "S5", "S7", "S9")
    assert js(st)["field"]["shape"] == "skip_stairs"
    refuse(st, 1, ["H7", "H8", "H9"], "shape_mismatch")
    play(st, 1, "H6", "H8", "HT")


def test_skip_stairs_with_an_uneven_step_is_no_shape():
    st = game("uecda", [["S5", "S7", "S8", "SK"], ["H6"]], SKIP)
    refuse(st, 0, ["S5", "S7", "S8"], "invalid_cards")


def test_skip_stairs_off_is_no_shape():
    st = game("uecda", [["S5", "S7", "S9", "SK"], ["H6"]], SHIFT)
    refuse(st, 0, ["S5", "S7", "S9"], "invalid_cards")


def test_skip_stairs_joker_fills_the_gap():
    st = game("uecda", [["S5", "JK1", "S9", "SK"], ["H6"]], SKIP)
    v, _ = play(st, 0, "S5", "JK1", "S9")
    assert v.reading == {"JK1": "S7"}


# --- double stairs ----------------------------------------------------------------------------------------------

DOUBLE = only("uecda", "double_stairs", stairs={"compare": "shift"})


def test_double_stairs_are_two_equal_stairs_in_two_suits():
    st = game("uecda", [["S4", "S5", "S6", "H4", "H5", "H6", "SK"],
                        ["D5", "D6", "D7", "C5", "C6", "C7", "HK"]], DOUBLE)
    _, st = play(st, 0, "S4", "S5", "S6", "H4", "H5", "H6")
    assert js(st)["field"]["shape"] == "double_stairs"
    play(st, 1, "D5", "D6", "D7", "C5", "C6", "C7")


def test_double_stairs_with_shifted_ranks_is_no_shape():
    st = game("uecda", [["S4", "S5", "S6", "H5", "H6", "H7", "SK"], ["HK"]], DOUBLE)
    refuse(st, 0, ["S4", "S5", "S6", "H5", "H6", "H7"], "invalid_cards")


def test_double_stairs_count_for_a_revolution():
    rules = only("uecda", "double_stairs", "revolution", stairs={"compare": "shift"})
    st = game("uecda", [["S4", "S5", "S6", "H4", "H5", "H6", "SK"], ["HK"]], rules)
    v, st = play(st, 0, "S4", "S5", "S6", "H4", "H5", "H6")
    assert "revolution" in v.effects and js(st)["revolution"] is True


# --- emperor and skip emperor -----------------------------------------------------------------------------------

EMP = only("uecda", "emperor", "skip_emperor", stairs={"compare": "shift"})


def test_emperor_is_four_consecutive_ranks_in_four_suits():
    st = game("uecda", [["S4", "H5", "D6", "C7", "SK"], ["S5", "H6", "D7", "C8", "HK"]], EMP)
    _, st = play(st, 0, "S4", "H5", "D6", "C7")
    assert js(st)["field"]["shape"] == "emperor"
    play(st, 1, "S5", "H6", "D7", "C8")


def test_emperor_with_a_repeated_suit_is_no_shape():
    st = game("uecda", [["S4", "S5", "D6", "C7", "SK"], ["HK"]], EMP)
    refuse(st, 0, ["S4", "S5", "D6", "C7"], "invalid_cards")


def test_emperor_off_is_no_shape():
    st = game("uecda", [["S4", "H5", "D6", "C7", "SK"], ["HK"]], PLAIN)
    refuse(st, 0, ["S4", "H5", "D6", "C7"], "invalid_cards")


def test_skip_emperor_steps_by_two_in_four_suits():
    st = game("uecda", [["S4", "H6", "D8", "CT", "SK"], ["S5", "H7", "D9", "CJ", "HK"]], EMP)
    _, st = play(st, 0, "S4", "H6", "D8", "CT")
    assert js(st)["field"]["shape"] == "skip_emperor"
    play(st, 1, "S5", "H7", "D9", "CJ")


def test_an_emperor_does_not_answer_a_skip_emperor():
    st = game("uecda", [["S4", "H6", "D8", "CT", "SK"], ["SJ", "HQ", "DK", "CA", "HK"]], EMP)
    _, st = play(st, 0, "S4", "H6", "D8", "CT")
    refuse(st, 1, ["SJ", "HQ", "DK", "CA"], "shape_mismatch")


def test_a_joker_completes_an_emperor_with_the_missing_suit():
    st = game("uecda", [["S4", "H5", "D6", "JK1", "SK"], ["HK"]], EMP)
    v, _ = play(st, 0, "S4", "H5", "D6", "JK1")
    assert v.reading == {"JK1": "C7"}          # the strongest reading


def test_geki_sequences_must_declare_their_shape():
    rules = only("gekifugo", "declarations_required", "skip_stairs", "emperor")
    st = game("gekifugo", [["S4", "S5", "S6", "H7", "H9", "HJ", "SK"], ["HK"]], rules)
    refuse(st, 0, ["S4", "S5", "S6"], "undeclared")
    refuse(st, 0, ["H7", "H9", "HJ"], "undeclared")
    play(st, 0, "S4", "S5", "S6", declare=["stairs"])
    play(st, 0, "H7", "H9", "HJ", declare=["skip_stairs"])


def test_an_as_reading_may_name_only_the_rank_in_a_group():
    st = game("uecda", [["S7", "JK1", "S9"], ["HK"]], PLAIN)
    v, st = play(st, 0, "S7", "JK1", as_={"JK1": "7"})
    assert list(v.reading) == ["JK1"] and v.reading["JK1"][-1] == "7"
    refuse(game("uecda", [["S7", "JK1", "S9"], ["HK"]], PLAIN), 0, ["S7", "JK1"], "invalid_cards", as_={"JK1": "8"})


@given(strategies.integers(min_value=0, max_value=(1 << 80) - 1))
def test_count_is_the_number_of_bits_set(mask):
    assert count(mask) == mask.bit_count()
