"""RULES.md §9: every public worked example, each as its own test, on the full presets."""
from .helpers import deal_again, game, give, discard, hand, js, passes, pending, places, play, refuse


def test_example_1_a_five_skips_one_player():
    st = game("nanko", [["H5", "S9", "SK"], ["HT", "HA"], ["DT", "DA"]])
    v, st = play(st, 0, "H5")
    assert "five_skip" in v.effects and js(st)["turn"] == 2


def test_example_1_two_fives_come_back_and_the_player_may_follow_its_own_pair():
    st = game("nanko", [["H5", "D5", "S6", "C6", "SK"], ["HT", "HA"], ["DT", "DA"]])
    _, st = play(st, 0, "H5", "D5")
    assert js(st)["turn"] == 0 and js(st)["field"]["seat"] == 0
    _, st = play(st, 0, "S6", "C6")
    assert js(st)["turn"] == 1


def test_example_1_two_fives_come_back_and_a_pass_flushes_and_leads():
    st = game("nanko", [["H5", "D5", "S6", "C6", "SK"], ["HT", "HA"], ["DT", "DA"]])
    _, st = play(st, 0, "H5", "D5")
    st = passes(st, 0)
    assert js(st)["field"] is None and js(st)["turn"] == 0 and {"H5", "D5"} <= set(js(st)["discard_pile"])


def test_example_2_attach_revolution_on_stairs():
    st = game("gekifugo", [["HT", "HJ", "HQ", "S4"], ["H9", "CA"], ["DK", "D2"]])
    _, st = play(st, 0, "HT", "HJ", "HQ", declare=["stairs"])
    refuse(st, 1, ["H9"], "shape_mismatch")
    v, st = play(st, 1, "H9", declare=["attach_revolution"])
    assert "attach_revolution" in v.effects
    assert js(st)["revolution"] is True and js(st)["order"] == "reversed"
    assert set(js(st)["field"]["cards"]) == {"H9", "HT", "HJ", "HQ"} and js(st)["field"]["seat"] == 1


def test_example_3_attach_revolution_needs_exactly_the_fourth_card():
    st = game("gekifugo", [["S3", "S4", "S5", "HK"], ["S6", "S7", "S2", "CA"], ["DK", "D2"]])
    _, st = play(st, 0, "S3", "S4", "S5", declare=["stairs"])
    refuse(st, 1, ["S6", "S7"], "shape_mismatch", declare=["attach_revolution"])
    refuse(st, 1, ["S2"], "shape_mismatch", declare=["attach_revolution"])
    v, st = play(st, 1, "S6", declare=["attach_revolution"])
    assert js(st)["revolution"] is True and set(js(st)["field"]["cards"]) == {"S3", "S4", "S5", "S6"}


def test_example_3_three_more_stairs_are_a_plain_play_and_the_attach_declaration_is_void():
    st = game("gekifugo", [["S3", "S4", "S5", "HK"], ["S6", "S7", "S8", "CA"], ["DK", "D2"]])
    _, st = play(st, 0, "S3", "S4", "S5", declare=["stairs"])
    v, st = play(st, 1, "S6", "S7", "S8", declare=["stairs", "attach_revolution"])
    assert v.void_declarations == ("attach_revolution",) and js(st)["revolution"] is False
    assert set(js(st)["field"]["cards"]) == {"S6", "S7", "S8"}


def test_example_4_going_out_with_a_cutting_eight_is_forbidden():
    st = game("nanko", [["D8"], ["H2", "HQ"], ["D4", "DA"], ["C4", "CA"]])
    v, st = play(st, 0, "D8")
    assert "eight_cut" in v.effects
    # no cut-back window: both jokers are out of play (a partial deal), so the finish is judged at once
    assert js(st)["turn"] == 1 and js(st)["pending"] == []       # the cut's leader is out: next active leads
    assert places(st) == [4, None, None, None]
    assert js(st)["field"] is None and js(st)["turn"] == 1
    _, st = play(st, 1, "HQ")
    st = passes(st, 2, 3)
    _, st = play(st, 1, "H2")                                   # the strongest rank: forbidden too
    assert places(st) == [4, 3, None, None]


def test_example_5_capital_fall():
    rules = {"exchange": False}
    st = game("gekifugo", [["S5"], ["S6"], ["D3"], ["S7"]], rules)
    assert js(st)["turn"] == 2
    _, st = play(st, 2, "D3")
    _, st = play(st, 3, "S7")
    _, st = play(st, 0, "S5")
    assert places(st) == [3, 4, 1, 2]
    st = deal_again(st, [["S9"], ["C4", "C5", "C7"], ["DT", "DJ", "DQ"], ["H5", "H6"]])
    assert js(st)["turn"] == 1
    _, st = play(st, 1, "C4")
    st = passes(st, 2, 3)
    v, st = play(st, 0, "S9")
    assert "capital_fall" in v.effects
    assert places(st) == [1, None, 4, None]
    assert hand(st, 2) == set() and {"DT", "DJ", "DQ"} <= set(js(st)["discard_pile"])
    assert js(st)["turn"] == 1
    _, st = play(st, 1, "C5")
    assert js(st)["turn"] == 3                                  # seat 2 is no longer in the deal


def test_example_6_uecda_stairs_compare_above_and_cut():
    st = game("uecda", [["S4", "S5", "S6", "SK"], ["H6", "H7", "H8", "H9", "CA"], ["DK", "D2"]])
    _, st = play(st, 0, "S4", "S5", "S6")
    refuse(st, 1, ["H6", "H7", "H8"], "too_weak")
    v, st = play(st, 1, "H7", "H8", "H9")
    assert "eight_cut" in v.effects and js(st)["field"] is None and js(st)["turn"] == 1


def test_example_7_six_cut_tested_before_the_plays_own_revolution():
    st = game("nanko", [["SK", "HK", "DK", "CK", "S6", "H6", "D6", "C6", "S4"], ["HT", "HA"], ["DT", "DA"]])
    _, st = play(st, 0, "SK", "HK", "DK", "CK")
    assert js(st)["order"] == "reversed"
    st = passes(st, 1, 2)
    v, st = play(st, 0, "S6", "H6", "D6", "C6")
    assert "six_cut" in v.effects and "revolution" in v.effects
    assert js(st)["order"] == "normal" and js(st)["turn"] == 0
    _, st = play(st, 0, "S4")                                   # the cutter's lead closes the cut-back window
    assert js(st)["field"]["cards"] == ["S4"]


ALL8 = ["stairs", "seven_pass", "eight_cut", "ten_discard", "jack_back", "great_revolution"]


def test_example_8_geki_stairs_with_every_declaration():
    st = game("gekifugo", [["S7", "S8", "S9", "ST", "SJ", "H3", "H4", "HK"], ["C5", "CA"], ["DK", "D2"],
                           ["C6", "C9"]])
    v, st = play(st, 0, "S7", "S8", "S9", "ST", "SJ", declare=ALL8)
    assert set(v.effects) >= {"seven_pass", "eight_cut", "ten_discard", "jack_back", "great_revolution"}
    assert v.void_declarations == ()
    assert pending(st) == [(0, "give", 1, "seven_pass"), (0, "discard", 1, "ten_discard")]
    st = give(st, 0, "H3")
    assert "H3" in hand(st, 1)
    st = discard(st, 0, "H4")
    assert hand(st, 0) == {"HK"} and "H4" in js(st)["discard_pile"]
    s = js(st)
    assert s["revolution"] is True and s["revolution_min"] == 5
    assert s["jack_back"] is False and s["order"] == "reversed"     # jack back ended with the cut
    assert s["field"] is None and s["turn"] == 0 and s["direction"] == 1


def test_example_8_with_nine_reverse_declared_too_the_gift_goes_the_other_way():
    st = game("gekifugo", [["S7", "S8", "S9", "ST", "SJ", "H3", "H4", "HK"], ["C5", "CA"], ["DK", "D2"],
                           ["C6", "C9"]])
    v, st = play(st, 0, "S7", "S8", "S9", "ST", "SJ", declare=ALL8 + ["nine_reverse"])
    assert "nine_reverse" in v.effects
    assert js(st)["pending"][0]["to"] == 3
    st = give(st, 0, "H3")
    st = discard(st, 0, "H4")
    assert "H3" in hand(st, 3)
    assert js(st)["direction"] == 1 and js(st)["turn"] == 0         # geki: the reverse ends with the cut


def test_example_8_without_declarations_only_the_stairs_are_played():
    st = game("gekifugo", [["S7", "S8", "S9", "ST", "SJ", "H3", "H4", "HK"], ["C5", "CA"], ["DK", "D2"],
                           ["C6", "C9"]])
    refuse(st, 0, ["S7", "S8", "S9", "ST", "SJ"], "undeclared")
    v, st = play(st, 0, "S7", "S8", "S9", "ST", "SJ", declare=["stairs"])
    assert v.effects == () and js(st)["revolution"] is False and js(st)["turn"] == 1
