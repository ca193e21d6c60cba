"""Revolutions and jack back (RULES.md §5): revolution, great_revolution, nuclear_bomb, attach_revolution,
jack_back."""
from .helpers import deal_again, game, js, only, passes, places, play, refuse

REV = only("nanko", revolution={"min_group": 4, "min_stairs": 4}, stairs={"compare": "shift"})


# --- revolution -------------------------------------------------------------------------------------------------

def test_four_of_a_kind_reverses_the_order():
    st = game("nanko", [["S6", "H6", "D6", "C6", "SK", "S3"], ["H5", "H7", "HA"], ["C9"]], REV)
    v, st = play(st, 0, "S6", "H6", "D6", "C6")
    assert "revolution" in v.effects
    assert js(st)["revolution"] is True and js(st)["order"] == "reversed"
    st = passes(st, 1, 2)
    _, st = play(st, 0, "SK")
    refuse(st, 1, ["HA"], "too_weak")         # A is weaker than K now
    play(st, 1, "H7")


def test_three_of_a_kind_is_no_revolution():
    st = game("nanko", [["S6", "H6", "D6", "SK"], ["H5"], ["C9"]], REV)
    v, st = play(st, 0, "S6", "H6", "D6")
    assert v.effects == () and js(st)["revolution"] is False


def test_a_second_revolution_restores_the_normal_order():
    st = game("nanko", [["S6", "H6", "D6", "C6", "SK"], ["S5", "H5", "D5", "C5", "HA"], ["C9"]], REV)
    _, st = play(st, 0, "S6", "H6", "D6", "C6")
    v, st = play(st, 1, "S5", "H5", "D5", "C5")      # weaker group beats in reversed order
    assert "revolution" in v.effects and js(st)["order"] == "normal"


def test_a_joker_counts_toward_the_revolution():
    st = game("nanko", [["S6", "H6", "D6", "JK1", "SK"], ["H5"], ["C9"]], REV)
    v, st = play(st, 0, "S6", "H6", "D6", "JK1")
    assert "revolution" in v.effects and v.reading == {"JK1": "C6"}


def test_uecda_stairs_need_five_for_a_revolution():
    rules = only("uecda", revolution={"min_group": 4, "min_stairs": 5}, stairs={"compare": "above"})
    st = game("uecda", [["S3", "S4", "S5", "S6", "H3", "H4", "H5", "H6", "H7", "SK"], ["DA"]], rules)
    v, _ = play(st, 0, "S3", "S4", "S5", "S6")
    assert v.effects == ()
    v, st = play(st, 0, "H3", "H4", "H5", "H6", "H7")
    assert "revolution" in v.effects and js(st)["revolution"] is True


def test_a_revolution_lasts_over_flushes_but_not_into_the_next_deal():
    st = game("nanko", [["S6", "H6", "D6", "C6", "SK"], ["H5", "HA"], ["C9"]], REV)
    _, st = play(st, 0, "S6", "H6", "D6", "C6")
    st = passes(st, 1, 2)
    assert js(st)["field"] is None and js(st)["revolution"] is True
    _, st = play(st, 0, "SK")                          # seat 0 goes out, the revolution still in force
    _, st = play(st, 1, "H5")                          # a 5 beats K reversed; C9 does not beat it
    st = passes(st, 2)
    _, st = play(st, 1, "HA")
    assert js(st)["phase"] == "deal_over" and js(st)["revolution"] is True
    st = deal_again(st, [["S9"], ["H5", "HA"], ["C9"]])
    assert js(st)["revolution"] is False and js(st)["order"] == "normal"


# --- great revolution / nuclear bomb ----------------------------------------------------------------------------

GREAT = only("nanko", "great_revolution", revolution={"min_group": 4, "min_stairs": 4}, stairs={"compare": "shift"})
NUKE = only("nanko", "great_revolution", "nuclear_bomb", revolution={"min_group": 4, "min_stairs": 4},
            stairs={"compare": "shift"})


def test_five_cards_make_a_great_revolution_that_raises_the_threshold():
    st = game("nanko", [["S6", "H6", "D6", "C6", "JK1", "SK"], ["S5", "H5", "D5", "C5", "HA"], ["C9"]], GREAT)
    v, st = play(st, 0, "S6", "H6", "D6", "C6", "JK1")
    assert "great_revolution" in v.effects
    assert js(st)["revolution"] is True and js(st)["revolution_min"] == 5


def test_after_a_great_revolution_four_cards_no_longer_revolt():
    st = game("nanko", [["S3", "S4", "S5", "S6", "S7", "H9", "D9", "C9", "S9", "SK"], ["HA"], ["DA"]], GREAT)
    v, st = play(st, 0, "S3", "S4", "S5", "S6", "S7")
    assert "great_revolution" in v.effects and js(st)["revolution_min"] == 5
    st = passes(st, 1, 2)
    v, st = play(st, 0, "H9", "D9", "C9", "S9")
    assert v.effects == () and js(st)["revolution"] is True


def test_four_cards_with_great_revolution_on_are_a_plain_revolution():
    st = game("nanko", [["S6", "H6", "D6", "C6", "SK"], ["H5"], ["C9"]], GREAT)
    v, st = play(st, 0, "S6", "H6", "D6", "C6")
    assert "revolution" in v.effects and "great_revolution" not in v.effects
    assert js(st)["revolution_min"] == 0


def test_six_cards_make_a_nuclear_bomb():
    st = game("nanko", [["S3", "S4", "S5", "S6", "S7", "S8", "HK"], ["HA"], ["C9"]], NUKE)
    v, st = play(st, 0, "S3", "S4", "S5", "S6", "S7", "S8")
    assert "nuclear_bomb" in v.effects and js(st)["revolution"] is True and js(st)["revolution_min"] == 6


def test_after_a_nuclear_bomb_five_cards_no_longer_revolt():
    st = game("nanko", [["S3", "S4", "S5", "S6", "S7", "S8", "H9", "HT", "HJ", "HQ", "HK", "D2"], ["HA"], ["DA"]],
              NUKE)
    _, st = play(st, 0, "S3", "S4", "S5", "S6", "S7", "S8")
    st = passes(st, 1, 2)
    v, st = play(st, 0, "H9", "HT", "HJ", "HQ", "HK")
    assert v.effects == () and js(st)["revolution"] is True and js(st)["revolution_min"] == 6


def test_a_nuclear_bomb_needs_six_cards():
    st = game("nanko", [["S3", "S4", "S5", "S6", "S7", "HK"], ["HA"], ["C9"]], NUKE)
    v, st = play(st, 0, "S3", "S4", "S5", "S6", "S7")
    assert "nuclear_bomb" not in v.effects and "great_revolution" in v.effects


# --- attach revolution ------------------------------------------------------------------------------------------

ATTACH = only("uecda", "attach_revolution", revolution={"min_group": 4, "min_stairs": 4},
              stairs={"compare": "shift"})


def test_attach_two_cards_to_a_pair_makes_a_four_card_group_revolution():
    st = game("uecda", [["S5", "H5", "SK"], ["D5", "C5", "HA"], ["D9"]], ATTACH)
    _, st = play(st, 0, "S5", "H5")
    v, st = play(st, 1, "D5", "C5")
    assert "attach_revolution" in v.effects
    assert js(st)["revolution"] is True
    assert set(js(st)["field"]["cards"]) == {"S5", "H5", "D5", "C5"} and js(st)["field"]["seat"] == 1


def test_attach_that_makes_five_cards_is_not_allowed():
    st = game("uecda", [["S5", "H5", "D5", "SK"], ["C5", "JK1", "HA"], ["D9"]], ATTACH)
    _, st = play(st, 0, "S5", "H5", "D5")
    refuse(st, 1, ["C5", "JK1"], "shape_mismatch")


def test_attach_revolution_after_it_needs_a_four_card_answer():
    st = game("uecda", [["S5", "H5", "SK"], ["D5", "C5", "HA"], ["S4", "H4", "D4", "C4", "D9"]], ATTACH)
    _, st = play(st, 0, "S5", "H5")
    _, st = play(st, 1, "D5", "C5")
    refuse(st, 2, ["S4", "H4"], "shape_mismatch")
    v, st = play(st, 2, "S4", "H4", "D4", "C4")       # weaker wins reversed; its own revolution restores normal
    assert js(st)["order"] == "normal"


def test_attach_onto_a_lone_joker_is_not_allowed():
    st = game("uecda", [["JK1", "SK"], ["D5", "C5", "H5", "HA"], ["D9"]], ATTACH)
    _, st = play(st, 0, "JK1")
    refuse(st, 1, ["D5", "C5", "H5"], "shape_mismatch")


# --- jack back --------------------------------------------------------------------------------------------------

JB = only("gekifugo", "jack_back")
JB_OPT = only("nanko", jack_back={"optional": True})


def test_a_jack_reverses_the_order_until_the_flush():
    st = game("gekifugo", [["SJ", "S4"], ["HQ", "HT"], ["D9", "DK"]], JB)
    v, st = play(st, 0, "SJ")
    assert "jack_back" in v.effects and js(st)["jack_back"] is True and js(st)["order"] == "reversed"
    refuse(st, 1, ["HQ"], "too_weak")
    _, st = play(st, 1, "HT")
    st = passes(st, 2, 0)
    assert js(st)["field"] is None and js(st)["jack_back"] is False and js(st)["order"] == "normal"


def test_no_jack_no_jack_back():
    st = game("gekifugo", [["SQ", "S4"], ["HK"]], JB)
    v, st = play(st, 0, "SQ")
    assert v.effects == () and js(st)["jack_back"] is False


def test_jack_back_during_a_revolution_gives_the_normal_order():
    rules = only("gekifugo", "jack_back", revolution={"min_group": 4, "min_stairs": 4})
    st = game("gekifugo", [["S6", "H6", "D6", "C6", "SJ", "S4"], ["HQ", "H9"], ["DA"]], rules)
    _, st = play(st, 0, "S6", "H6", "D6", "C6")
    st = passes(st, 1, 2)
    _, st = play(st, 0, "SJ")
    assert js(st)["revolution"] is True and js(st)["jack_back"] is True and js(st)["order"] == "normal"
    refuse(st, 1, ["H9"], "too_weak")
    play(st, 1, "HQ")


def test_nanko_jack_back_may_be_declined():
    st = game("nanko", [["SJ", "S4"], ["HQ", "HT"], ["C9"]], JB_OPT)
    v, st2 = play(st, 0, "SJ", decline=["jack_back"])
    assert v.effects == () and js(st2)["jack_back"] is False
    play(st2, 1, "HQ")
    v, st3 = play(st, 0, "SJ")
    assert "jack_back" in v.effects


def test_a_mandatory_jack_back_cannot_be_declined():
    st = game("gekifugo", [["SJ", "S4"], ["HQ"]], JB)
    refuse(st, 0, ["SJ"], "not_allowed", decline=["jack_back"])


def test_a_joker_standing_in_for_a_jack_fires_jack_back():
    st = game("gekifugo", [["ST", "SQ", "JK1", "S4"], ["HQ"]], only("gekifugo", "jack_back", stairs={"compare": "shift"}))
    v, st = play(st, 0, "ST", "JK1", "SQ")
    assert v.reading == {"JK1": "SJ"} and "jack_back" in v.effects


def test_after_a_great_revolution_an_attach_revolution_is_not_possible():
    rules = {**ATTACH, "great_revolution": True}
    st = game("uecda", [["S3", "S4", "S5", "S6", "S7", "H5", "H9", "SK"], ["D9", "C9", "HA"], ["DA"]], rules)
    _, st = play(st, 0, "S3", "S4", "S5", "S6", "S7")
    st = passes(st, 1, 2)
    _, st = play(st, 0, "H9")
    refuse(st, 1, ["D9", "C9"], "shape_mismatch")


def test_double_stairs_of_six_make_a_nuclear_bomb():
    rules = only("gekifugo", "double_stairs", "great_revolution", "nuclear_bomb",
                 revolution={"min_group": 4, "min_stairs": 4})
    st = game("gekifugo", [["S5", "H5", "S6", "H6", "S7", "H7", "SK"], ["HA"]], rules)
    v, st = play(st, 0, "S5", "H5", "S6", "H6", "S7", "H7")
    assert "nuclear_bomb" in v.effects and js(st)["revolution_min"] == 6


def test_a_lone_joker_beats_a_three_during_a_revolution():
    st = game("nanko", [["S9", "H9", "D9", "C9", "S3", "SK"], ["JK1", "HA"], ["D4", "DA"]], REV)
    _, st = play(st, 0, "S9", "H9", "D9", "C9")
    st = passes(st, 1, 2)
    _, st = play(st, 0, "S3")
    _, st = play(st, 1, "JK1")
    assert js(st)["field"]["cards"] == ["JK1"]


def test_going_out_with_four_twos_is_forbidden_even_though_it_revolts():
    rules = {**REV, "forbidden_finish": {"joker": True, "strongest_rank": True}}
    st = game("nanko", [["S2", "H2", "D2", "C2"], ["HA", "H4"], ["D5", "D4"]], rules)
    v, st = play(st, 0, "S2", "H2", "D2", "C2")
    assert "forbidden_finish" in v.effects and places(st)[0] == 3


def test_going_out_with_four_threes_is_allowed_the_order_before_the_play_counts():
    rules = {**REV, "forbidden_finish": {"joker": True, "strongest_rank": True}}
    st = game("nanko", [["S3", "H3", "D3", "C3"], ["HA", "H4"], ["D5", "D4"]], rules)
    v, st = play(st, 0, "S3", "H3", "D3", "C3")
    assert "forbidden_finish" not in v.effects and places(st)[0] == 1


def test_the_revolution_threshold_resets_at_the_next_deal():
    st = game("nanko", [["S3", "S4", "S5", "S6", "S7"], ["HA", "H9"], ["C4"]], GREAT)
    _, st = play(st, 0, "S3", "S4", "S5", "S6", "S7")      # a great revolution: seat 0 goes out first
    assert js(st)["revolution_min"] == 5
    st = passes(st, 1, 2)
    _, st = play(st, 1, "H9")
    _, st = play(st, 2, "C4")                              # 4 beats 9 reversed: seat 2 second, seat 1 last
    assert js(st)["phase"] == "deal_over"
    st = deal_again(st, [["S9", "H9", "D9", "C9", "SK"], ["HA", "H4"], ["C5"]])
    assert js(st)["revolution_min"] == 0 and js(st)["revolution"] is False
    assert js(st)["turn"] == 1                              # the previous last leads
    _, st = play(st, 1, "H4")


def test_attached_cards_need_not_be_a_play_by_themselves():
    # RULES.md §5: "the new cards + field cards form a legal 4-card group/stairs"
    st = game("gekifugo", [["S5", "HK"], ["S3", "S4", "S6", "H9"]], rules={"first_card": False})
    _, st = play(st, 0, "S5")
    refuse(st, 1, ["S3", "S4", "S6"], "shape_mismatch")
    v, st = play(st, 1, "S3", "S4", "S6", declare=["attach_revolution"])
    assert "attach_revolution" in v.effects
    assert set(js(st)["field"]["cards"]) == {"S3", "S4", "S5", "S6"} and js(st)["revolution"] is True
