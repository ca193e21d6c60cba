"""RULES.md §10: one scenario (or more) with explicit hands for every ruling, numbered as there."""
from referee.state import replace

import pytest

from referee import apply

from .helpers import bad, deal_again, game, hand, js, move, only, pass_, passes, pending, places, play, refuse


def test_10_1_a_play_that_empties_the_hand_owes_no_gift_discard_or_take():
    rules = only("nanko", "seven_pass", "ten_discard", "resurrection")
    st = game("nanko", [["H7"], ["S4", "SQ"], ["H5", "HA"]], rules)
    st = replace(st, turn=0)
    v, st = play(st, 0, "H7")
    assert pending(st) == [] and places(st)[0] == 1
    st = replace(game("nanko", [["HT"], ["S4", "SQ"], ["H5", "HA"]], rules), turn=0)
    _, st = play(st, 0, "HT")
    assert pending(st) == [] and places(st)[0] == 1


def test_10_1_going_out_by_a_seven_pass_give_is_an_ordinary_finish():
    # the last card given is a joker: no forbidden finish; no flush_on_finish for a give
    rules = only("gekifugo", "seven_pass", "flush_on_finish", forbidden_finish={"joker": True})
    st = game("gekifugo", [["S7", "JK1", "D9"], ["S4", "SQ"], ["H5", "HA"]], rules)
    _, st = play(st, 0, "S7")
    assert pending(st) == [(0, "give", 1, "seven_pass")]
    _, st = ok_give(st, 0, "JK1")
    assert places(st)[0] is None and "JK1" in hand(st, 1)
    # one card left (D9): the turn goes on; now a 7-pass of the last card
    st = game("gekifugo", [["S7", "JK1"], ["S4", "SQ"], ["H5", "HA"]], rules)
    _, st = play(st, 0, "S7")  # the only card left is given at once (nothing to choose)
    assert places(st)[0] == 1 and "JK1" in hand(st, 1)
    assert js(st)["field"]["cards"] == ["S7"] and st.turn == 1


def ok_give(st, seat, *cards):
    verdict, new, _ = apply(st, move(seat, "give", cards))
    assert verdict.legal, verdict.message
    return verdict, new


def test_10_2_bloody_mary_empties_hands_the_player_first_then_in_turn_order():
    rules = only("nanko", "bloody_mary")
    st = game("nanko", [["SQ", "HQ", "DQ"], ["S5", "S6"], ["H5", "H6", "H9"], ["D5", "DK"]], rules)
    st = replace(st, turn=0)
    _, st = play(st, 0, "SQ", "HQ", "DQ")
    # seat 1 and seat 3 lose their last two cards; seat 2 keeps one
    assert js(st)["finish_order"] == [0, 1, 3, 2] and places(st) == [1, 2, 4, 3] and st.phase == "deal_over"


def _deal_two(rules, hands2):
    """gekifugo rules, a first deal that ends 0, 1, 2, 3 (seat 0 on top), then a second deal of ``hands2``."""
    st = game("gekifugo", [["S4"], ["S5"], ["S6"], ["S7"]], rules)
    for seat, card in enumerate(["S4", "S5", "S6"]):
        _, st = play(st, seat, card)
    assert places(st) == [1, 2, 3, 4]
    return deal_again(st, hands2)


def test_10_3_capital_fall_waits_for_place_1_and_the_fallen_top_takes_the_lowest_free_place():
    rules = only("gekifugo", "capital_fall", forbidden_finish={"joker": True})
    st = _deal_two(rules, [["S5", "SK", "S9"], ["JK1"], ["H6"], ["D4", "D9", "DK"]])
    assert st.turn == 3  # the last of deal 1 leads deal 2
    _, st = play(st, 3, "D4")
    _, st = play(st, 0, "S5")
    v, st = play(st, 1, "JK1")  # out with a joker: forbidden, ranked last
    assert places(st)[1] == 4 and places(st)[0] is None  # nobody took place 1: no capital fall yet
    st = passes(st, 2, 3, 0)
    assert st.turn == 2
    _, st = play(st, 2, "H6")  # place 1 is taken by someone other than the previous top
    assert places(st) == [3, 4, 1, 2]  # the top falls to the lowest free place (3); seat 3 is left in 2nd


def test_10_4_a_lone_joker_keeps_the_suit_lock_until_the_flush_in_nanko():
    # issue 9: nanko, everything off but suit_lock: H5, H8 locks hearts, JK1 keeps the lock
    rules = only("nanko", "suit_lock")
    st = game("nanko", [["H5", "S9"], ["H8", "SK"], ["JK1", "DA"]], rules)
    st = replace(st, turn=0)
    _, st = play(st, 0, "H5")
    _, st = play(st, 1, "H8")
    assert js(st)["locks"]["suits"] == ["H"]
    _, st = play(st, 2, "JK1")
    assert js(st)["locks"] == {"suits": ["H"], "kind": "exact", "rank": False, "color": None}
    st = passes(st, 0, 1)
    assert js(st)["field"] is None and js(st)["locks"]["suits"] == []


def test_10_4_a_pair_of_jokers_keeps_the_lock_and_a_joker_keeps_the_rank_lock():
    rules = only("nanko", "suit_lock", "rank_lock")
    st = game("nanko", [["H5", "C5", "S9"], ["H6", "C6", "SK"], ["JK1", "JK2", "DA"]], rules)
    st = replace(st, turn=0)
    _, st = play(st, 0, "H5", "C5")
    _, st = play(st, 1, "H6", "C6")
    assert js(st)["locks"] == {"suits": ["H", "C"], "kind": "exact", "rank": True, "color": None}
    _, st = play(st, 2, "JK1", "JK2")
    assert js(st)["locks"] == {"suits": ["H", "C"], "kind": "exact", "rank": True, "color": None}


def test_10_4_only_uecda_ends_the_lock_on_a_lone_joker():
    st = game("uecda", [["S4", "S9", "D3"], ["S6", "HK"], ["JK1", "C7"]])
    st = replace(st, turn=0)
    _, st = play(st, 0, "S4")
    _, st = play(st, 1, "S6")
    _, st = play(st, 2, "JK1")
    assert js(st)["locks"]["suits"] == []
    assert st.rules.params("suit_lock") == {"joker_ends": True}


def test_10_5_a_cut_beats_a_skip():
    rules = only("nanko", "five_skip", "eight_cut")
    st = game("nanko", [["S5", "S6", "S7", "S8", "C9"], ["H4", "HK"], ["D4", "DK"], ["C4", "CK"]], rules)
    st = replace(st, turn=0)
    v, st = play(st, 0, "S5", "S6", "S7", "S8")
    assert {"five_skip", "eight_cut"} <= set(v.effects)
    assert js(st)["field"] is None and st.turn == 0


def test_10_5_flush_on_finish_beats_a_skip():
    rules = only("gekifugo", "five_skip", "flush_on_finish")
    st = game("gekifugo", [["H5"], ["H4", "HK"], ["D4", "DK"], ["C4", "CK"]], rules)
    st = replace(st, turn=0)
    _, st = play(st, 0, "H5")
    assert js(st)["field"] is None and st.turn == 1  # nobody skipped: the next active player leads


def test_10_6_an_open_joker_rank_takes_the_stronger_end_in_reversed_order():
    rules = only("gekifugo", "attach_revolution", "revolution", stairs={"compare": "shift"})
    st = game("gekifugo", [["S9", "H9", "D9", "C9", "S5", "S6", "S7", "CK"], ["JK1", "HA"]], rules)
    st = replace(st, turn=0)
    _, st = play(st, 0, "S9", "H9", "D9", "C9")
    assert js(st)["order"] == "reversed"
    st = pass_(st, 1)
    _, st = play(st, 0, "S5", "S6", "S7")
    v, st = play(st, 1, "JK1")
    assert v.reading == {"JK1": "S4"} == js(st)["field"]["as"]  # reversed: S4 is the stronger end


def test_10_7_a_lone_joker_cannot_carry_as():
    st = game("nanko", [["JK1", "S9"], ["H4"], ["D7"]], only("nanko"))
    st = replace(st, turn=0)
    refuse(st, 0, ["JK1"], "invalid_cards", as_={"JK1": "S5"})
    v, st = play(st, 0, "JK1")
    assert v.reading == {}


def test_10_8_a_partial_lock_on_several_shared_suits_needs_all_of_them():
    rules = only("gekifugo", "partial_suit_lock")
    st = game("gekifugo", [["S5", "H5", "S9"], ["S6", "H6", "SK"], ["S7", "D7", "H8", "S8", "DA"]], rules)
    st = replace(st, turn=0)
    _, st = play(st, 0, "S5", "H5")
    _, st = play(st, 1, "S6", "H6")
    assert js(st)["locks"] == {"suits": ["S", "H"], "kind": "partial", "rank": False, "color": None}
    refuse(st, 2, ["S7", "D7"], "locked")
    play(st, 2, "H8", "S8")


def test_10_9_without_as_the_reading_that_forms_a_lock_wins():
    rules = only("nanko", "suit_lock")
    st = game("nanko", [["S5", "C5", "S9"], ["S6", "JK1", "SK"], ["D9"]], rules)
    st = replace(st, turn=0)
    _, st = play(st, 0, "S5", "C5")
    v, st = play(st, 1, "S6", "JK1")
    # H6, D6 and C6 are equally strong; only C6 repeats the field's suits S+C and locks them
    assert v.reading == {"JK1": "C6"} == js(st)["field"]["as"]
    assert js(st)["locks"]["suits"] == ["S", "C"]


def test_10_9_a_group_before_stairs_and_the_verdict_shows_the_fields_reading():
    rules = only("gekifugo", stairs={"compare": "shift"})
    st = game("gekifugo", [["S9", "JK1", "JK2", "CK"], ["HA"]], rules)
    st = replace(st, turn=0)
    v, st = play(st, 0, "S9", "JK1", "JK2")
    assert js(st)["field"]["shape"] == "group"
    assert v.reading == js(st)["field"]["as"] and {r[1] for r in v.reading.values()} == {"9"}


@pytest.mark.parametrize("shape,cards", [
    ("stairs", ["S4", "S5", "S6"]),
    ("skip_stairs", ["H7", "H9", "HJ"]),
    ("double_stairs", ["D3", "C3", "D4", "C4", "D5", "C5"]),
    ("emperor", ["S8", "H9", "DT", "CJ"]),
    ("skip_emperor", ["H8", "ST", "DQ", "CA"]),
])
def test_10_10_every_sequence_shape_must_be_declared(shape, cards):
    rules = only("gekifugo", "declarations_required", "skip_stairs", "double_stairs", "emperor", "skip_emperor")
    st = game("gekifugo", [cards + ["SK"], ["HK"]], rules)
    st = replace(st, turn=0)
    refuse(st, 0, cards, "undeclared")
    v, after = play(st, 0, *cards, declare=[shape])
    assert js(after)["field"]["shape"] == shape


def test_10_12_nobody_holds_the_first_card_seat_0_leads():
    st = game("nanko", [["H5"], ["H6"], ["D3"]])
    assert st.turn == 0
    from referee import new_game
    st, _ = new_game("nanko", None, ["a", "b", "c"], seed=1, table=True, leader=2)
    assert st.turn == 2


def test_10_13_a_choice_of_cards_is_one_entry():
    # the full scenarios are in test_legal.py; here: 2 of 5 cards, one entry, every choice legal
    from itertools import combinations

    from referee import legal_moves
    rules = only("nanko", "seven_pass")
    st = game("nanko", [["S7", "H7", "D4", "C9", "DK", "SA", "HQ"], ["S4", "SQ"], ["H5", "HA"]], rules)
    st = replace(st, turn=0)
    _, st = play(st, 0, "S7", "H7")
    entry, = legal_moves(st, 0)
    assert entry["choose"] == {"from": ["D4", "C9", "HQ", "DK", "SA"], "min": 2, "max": 2}
    for combo in combinations(entry["choose"]["from"], 2):
        assert apply(st, move(0, "give", combo))[0].legal
    bad(st, move(0, "give", ["D4"]), "wrong_count")
