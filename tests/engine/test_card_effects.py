"""Card effects (RULES.md §5): seven_pass, ten_discard, nine_reverse, bloody_mary, resurrection, five_skip."""
from .helpers import bad, deal_again, discard, game, give, hand, js, move, ok, only, passes, pending, places, play

# --- seven pass -------------------------------------------------------------------------------------------------

SEVEN = only("nanko", "seven_pass")


def test_a_seven_gives_one_card_of_choice_to_the_next_player():
    st = game("nanko", [["S7", "S4", "SK"], ["H9", "HA"], ["D9", "DA"]], SEVEN)
    v, st = play(st, 0, "S7")
    assert "seven_pass" in v.effects
    assert pending(st) == [(0, "give", 1, "seven_pass")] and js(st)["pending"][0]["to"] == 1
    bad(st, move(1, "play", ["HA"]), "pending_decision")
    bad(st, move(0, "give", ["S4", "SK"]), "wrong_count")
    bad(st, move(0, "give", ["HA"]), "not_in_hand")
    st = give(st, 0, "S4")
    assert hand(st, 0) == {"SK"} and hand(st, 1) == {"H9", "HA", "S4"}
    assert js(st)["pending"] == [] and js(st)["turn"] == 1


def test_no_seven_no_gift():
    st = game("nanko", [["S6", "S4"], ["H9"], ["C5"]], SEVEN)
    v, st = play(st, 0, "S6")
    assert v.effects == () and js(st)["pending"] == [] and js(st)["turn"] == 1


def test_two_sevens_give_two_but_fewer_when_the_hand_runs_out():
    st = game("nanko", [["S7", "H7", "S4"], ["H9"], ["D9"]], SEVEN)
    v, st = play(st, 0, "S7", "H7")
    # only one card left: it goes automatically, and seat 0 is out
    assert hand(st, 1) == {"H9", "S4"} and hand(st, 0) == set()
    assert js(st)["players"][0]["place"] == 1


def test_a_seven_goes_to_the_next_active_player_over_a_finished_seat():
    st = game("nanko", [["S3", "S7", "S4", "SK"], ["H5"], ["D9", "DA"], ["CT", "CA"]], SEVEN)
    _, st = play(st, 0, "S3")
    _, st = play(st, 1, "H5")                       # seat 1 is out
    assert js(st)["players"][1]["place"] == 1
    st = passes(st, 2, 3)
    _, st = play(st, 0, "S7")
    assert js(st)["pending"][0]["to"] == 2
    st = give(st, 0, "S4")
    assert "S4" in hand(st, 2) and js(st)["turn"] == 2


# --- ten discard ------------------------------------------------------------------------------------------------

TEN = only("nanko", "ten_discard")


def test_a_ten_discards_one_card_of_choice():
    st = game("nanko", [["ST", "S4", "SK"], ["HA"], ["C5"]], TEN)
    v, st = play(st, 0, "ST")
    assert pending(st) == [(0, "discard", 1, "ten_discard")]
    bad(st, move(0, "discard", ["S4", "SK"]), "wrong_count")
    st = discard(st, 0, "S4")
    assert hand(st, 0) == {"SK"} and "S4" in js(st)["discard_pile"] and js(st)["turn"] == 1


def test_no_ten_no_discard():
    st = game("nanko", [["S9", "S4"], ["HA"], ["C5"]], TEN)
    v, st = play(st, 0, "S9")
    assert js(st)["pending"] == []


def test_discarding_the_last_card_finishes_the_player():
    st = game("nanko", [["ST", "S4"], ["HA"], ["DA"]], TEN)
    _, st = play(st, 0, "ST")
    assert hand(st, 0) == set() and js(st)["players"][0]["place"] == 1
    assert "S4" in js(st)["discard_pile"]


# --- nine reverse -----------------------------------------------------------------------------------------------

def test_a_nine_flips_the_direction():
    st = game("nanko", [["S9", "S4"], ["HT", "HA"], ["DT", "DA"], ["CT", "CA"]], only("nanko", "nine_reverse"))
    v, st = play(st, 0, "S9")
    assert "nine_reverse" in v.effects and js(st)["direction"] == -1 and js(st)["turn"] == 3


def test_no_nine_keeps_the_direction():
    st = game("nanko", [["S8", "S4"], ["HT", "HA"], ["DT", "DA"], ["CT", "CA"]], only("nanko", "nine_reverse"))
    _, st = play(st, 0, "S8")
    assert js(st)["direction"] == 1 and js(st)["turn"] == 1


def test_geki_nine_reverse_ends_when_the_field_flushes():
    rules = only("gekifugo", nine_reverse={"scope": "trick"})
    st = game("gekifugo", [["S9", "S4"], ["HT", "HA"], ["DT", "DA"], ["CT", "CA"]], rules)
    _, st = play(st, 0, "S9")
    st = passes(st, 3, 2, 1)
    assert js(st)["field"] is None and js(st)["direction"] == 1 and js(st)["turn"] == 0


def test_nanko_nine_reverse_stays_after_the_flush():
    rules = only("nanko", nine_reverse={"scope": "deal"})
    st = game("nanko", [["S9", "S4"], ["HT", "HA"], ["DT", "DA"], ["CT", "CA"]], rules)
    _, st = play(st, 0, "S9")
    st = passes(st, 3, 2, 1)
    assert js(st)["direction"] == -1
    _, st = play(st, 0, "S4")
    assert js(st)["turn"] == 3


def test_a_nine_in_a_reversed_trick_flips_it_back():
    rules = only("gekifugo", nine_reverse={"scope": "trick"}, stairs={"compare": "shift"})
    st = game("gekifugo", [["S6", "S7", "S8", "S4"], ["H7", "H8", "H9", "HA"], ["DT", "DA"],
                           ["C8", "C9", "CT", "CA"]], rules)
    _, st = play(st, 0, "S6", "S7", "S8")
    _, st = play(st, 1, "H7", "H8", "H9")           # reversed: seat 0 next
    assert js(st)["turn"] == 0
    st = passes(st, 0)
    assert js(st)["turn"] == 3
    _, st = play(st, 3, "C8", "C9", "CT")           # clockwise again
    assert js(st)["direction"] == 1 and js(st)["turn"] == 0
    st = passes(st, 0, 1, 2)
    assert js(st)["field"] is None and js(st)["direction"] == 1 and js(st)["turn"] == 3


# --- bloody mary ------------------------------------------------------------------------------------------------

BM = only("nanko", "bloody_mary")


def test_three_queens_make_every_other_player_discard_its_two_strongest():
    st = game("nanko", [["SQ", "HQ", "DQ", "S4"], ["H2", "HA", "H5"], ["JK1", "DK", "D9", "D3"]], BM)
    v, st = play(st, 0, "SQ", "HQ", "DQ")
    assert "bloody_mary" in v.effects
    assert hand(st, 1) == {"H5"} and hand(st, 2) == {"D9", "D3"}
    assert {"H2", "HA", "JK1", "DK"} <= set(js(st)["discard_pile"])
    assert hand(st, 0) == {"S4"}


def test_bloody_mary_ties_are_chosen_by_the_discarding_player():
    st = game("nanko", [["SQ", "HQ", "DQ", "S4"], ["HA", "DA", "CA", "H5"], ["D9", "D3", "D2"]], BM)
    _, st = play(st, 0, "SQ", "HQ", "DQ")
    assert pending(st) == [(1, "discard", 2, "bloody_mary"), (2, "discard", 2, "bloody_mary")]
    # the state JSON names who acts: the head of the queue only, not every seat with a discard pending
    assert js(st)["actors"] == [1]
    bad(st, move(2, "discard", ["D9", "D2"]), "pending_decision")
    bad(st, move(1, "discard", ["HA", "H5"]), "not_allowed")
    st = discard(st, 1, "HA", "CA")
    # seat 2 has no tie: its D2 and D9 go without asking
    assert hand(st, 1) == {"DA", "H5"} and hand(st, 2) == {"D3"}
    assert js(st)["pending"] == [] and js(st)["turn"] == 1


def test_bloody_mary_uses_the_reversed_order_in_force():
    rules = only("nanko", "bloody_mary", "revolution")
    st = game("nanko", [["S6", "H6", "D6", "C6", "SQ", "HQ", "DQ", "SA"], ["H2", "H3", "H4", "H5"], ["DK"]], rules)
    _, st = play(st, 0, "S6", "H6", "D6", "C6")
    st = passes(st, 1, 2)
    _, st = play(st, 0, "SQ", "HQ", "DQ")
    assert hand(st, 1) == {"H2", "H5"}      # 3 and 4 are the strongest when reversed


def test_two_or_four_queens_are_no_bloody_mary():
    st = game("nanko", [["SQ", "HQ", "S4"], ["H2", "HA"], ["C5", "CK"]], BM)
    v, st = play(st, 0, "SQ", "HQ")
    assert v.effects == () and hand(st, 1) == {"H2", "HA"} and hand(st, 2) == {"C5", "CK"}
    st = game("nanko", [["SQ", "HQ", "DQ", "CQ", "S4"], ["H2", "HA"], ["C5", "CK"]], BM)
    v, st = play(st, 0, "SQ", "HQ", "DQ", "CQ")
    assert v.effects == () and hand(st, 1) == {"H2", "HA"} and hand(st, 2) == {"C5", "CK"}


# --- resurrection ---------------------------------------------------------------------------------------------

RES = only("nanko", "resurrection")


def _pile_then_fours():
    """Seat 0 wins a trick (pile S3 H5 D7 S2) and leads, holding S4 H4 S9."""
    st = game("nanko", [["S3", "S2", "S4", "H4", "S9"], ["H5", "D6"], ["D7", "D8"]], RES)
    _, st = play(st, 0, "S3")
    _, st = play(st, 1, "H5")
    _, st = play(st, 2, "D7")
    _, st = play(st, 0, "S2")
    st = passes(st, 1, 2)
    assert js(st)["turn"] == 0 and set(js(st)["discard_pile"]) == {"S3", "H5", "D7", "S2"}
    return st


def test_two_fours_take_one_card_back_from_the_discard_pile():
    st = _pile_then_fours()
    v, st = play(st, 0, "S4", "H4")
    assert "resurrection" in v.effects and pending(st) == [(0, "take", 1, "resurrection")]
    bad(st, move(0, "take", ["S2", "S3"]), "wrong_count")
    bad(st, move(0, "take", ["D6"]), "not_allowed")           # not in the pile
    st = ok(st, move(0, "take", ["S2"]))[1]
    assert hand(st, 0) == {"S2", "S9"} and "S2" not in js(st)["discard_pile"] and js(st)["turn"] == 1


def test_a_single_four_takes_nothing():
    st = _pile_then_fours()
    v, st = play(st, 0, "S4")
    assert v.effects == () and js(st)["pending"] == []


def test_two_fours_on_an_empty_pile_take_nothing():
    st = game("nanko", [["S4", "H4", "S9"], ["H5", "D6"], ["C5"]], RES)
    v, st = play(st, 0, "S4", "H4")
    assert js(st)["pending"] == [] and js(st)["turn"] == 1


# --- five skip --------------------------------------------------------------------------------------------------

FIVE = only("nanko", "five_skip")


def test_a_five_skips_the_next_player():
    st = game("nanko", [["S5", "S4"], ["HT", "HA"], ["DT", "DA"], ["CT", "CA"]], FIVE)
    v, st = play(st, 0, "S5")
    assert "five_skip" in v.effects and js(st)["turn"] == 2


def test_two_fives_skip_two_players():
    st = game("nanko", [["S5", "H5", "S4"], ["HT", "HA"], ["DT", "DA"], ["CT", "CA"]], FIVE)
    _, st = play(st, 0, "S5", "H5")
    assert js(st)["turn"] == 3


def test_no_five_no_skip():
    st = game("nanko", [["S6", "S4"], ["HT", "HA"], ["DT", "DA"], ["CT", "CA"]], FIVE)
    _, st = play(st, 0, "S6")
    assert js(st)["turn"] == 1


def test_finished_players_are_not_counted_by_the_skip():
    st = game("nanko", [["S3", "S5", "S4"], ["H4"], ["DT", "DA"], ["CT", "CA"]], FIVE)
    _, st = play(st, 0, "S3")
    _, st = play(st, 1, "H4")                       # seat 1 out
    st = passes(st, 2, 3)
    _, st = play(st, 0, "S5")                       # skips seat 2 (seat 1 is finished)
    assert js(st)["turn"] == 3


def test_a_joker_standing_in_for_a_queen_makes_bloody_mary():
    st = game("nanko", [["SQ", "HQ", "JK1", "S4"], ["H2", "HA", "H5"], ["DK", "D9", "D3"]], BM)
    v, st = play(st, 0, "SQ", "HQ", "JK1")
    assert "bloody_mary" in v.effects and hand(st, 1) == {"H5"} and hand(st, 2) == {"D3"}


def test_a_joker_standing_in_for_a_seven_counts_for_the_pass():
    st = game("nanko", [["S7", "JK1", "S4", "S5", "SK"], ["H9", "HA"], ["DA"]], SEVEN)
    v, st = play(st, 0, "S7", "JK1")
    assert v.reading["JK1"][1:] == "7" and pending(st) == [(0, "give", 2, "seven_pass")]


def test_more_fives_than_other_players_come_back_to_the_player():
    st = game("nanko", [["S5", "H5", "D5", "C9"], ["HA", "H4"], ["DK", "D4"]], FIVE)
    _, st = play(st, 0, "S5", "H5", "D5")
    assert js(st)["turn"] == 0 and js(st)["field"]["seat"] == 0


def test_giving_or_taking_without_a_pending_decision_is_not_allowed():
    st = game("nanko", [["S7", "S4", "SK"], ["H9", "HA"], ["C5"]], SEVEN)
    bad(st, move(0, "give", ["S4"]), "not_allowed")
    bad(st, move(0, "take", ["S4"]), "not_allowed")


def test_the_direction_resets_at_the_next_deal():
    rules = only("nanko", nine_reverse={"scope": "deal"})
    st = game("nanko", [["S9"], ["HA"], ["DT", "D4"]], rules)
    _, st = play(st, 0, "S9")                       # out; counter-clockwise for the rest of the deal
    assert js(st)["direction"] == -1 and js(st)["turn"] == 2
    st = passes(st, 2, 1)
    assert js(st)["direction"] == -1 and js(st)["turn"] == 2
    _, st = play(st, 2, "DT")
    _, st = play(st, 1, "HA")
    assert places(st) == [1, 2, 3]
    st = deal_again(st, [["S5", "S6"], ["H5", "H6"], ["D5", "D6"]])
    assert js(st)["direction"] == 1 and js(st)["turn"] == 2
    _, st = play(st, 2, "D5")
    assert js(st)["turn"] == 0
