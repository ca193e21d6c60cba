"""Finishing and standing (RULES.md §3, §6, §7): finished seats, flush_on_finish, forbidden_finish,
declarations_required, capital_fall, gekokujo."""
from .helpers import deal_again, deal_in_seat_order, game, hand, js, move, bad, only, passes, places, play, refuse

PLAIN = only("nanko")


# --- turn over finished seats -----------------------------------------------------------------------------------

def test_the_turn_passes_over_finished_seats():
    st = game("nanko", [["S3", "S9"], ["H5"], ["DT", "DA"], ["CT", "CA"]], PLAIN)
    _, st = play(st, 0, "S3")
    _, st = play(st, 1, "H5")
    assert js(st)["players"][1]["place"] == 1 and js(st)["turn"] == 2
    _, st = play(st, 2, "DT")
    st = passes(st, 3, 0)                    # after seat 0 comes finished seat 1, then the owner
    assert js(st)["turn"] == 2 and js(st)["field"] is None    # seat 2 owned the field: it leads
    _, st = play(st, 2, "DA")                                   # out
    assert js(st)["turn"] == 3


def test_when_the_finished_owner_is_reached_the_next_active_player_leads():
    st = game("nanko", [["S3", "S9"], ["H5"], ["DT", "DA"], ["CT", "CA"]], PLAIN)
    _, st = play(st, 0, "S3")
    _, st = play(st, 1, "H5")                                   # seat 1 out, its H5 stays on the field
    st = passes(st, 2, 3, 0)
    assert js(st)["field"] is None and js(st)["turn"] == 2


def test_the_last_player_left_is_ranked_last():
    st = game("nanko", [["S4"], ["H5"], ["D6", "D9"]], PLAIN)
    _, st = play(st, 0, "S4")
    _, st = play(st, 1, "H5")
    assert places(st) == [1, 2, 3] and js(st)["phase"] == "deal_over" and js(st)["turn"] is None
    bad(st, move(2, "play", ["D9"]), "not_allowed")


# --- flush on finish --------------------------------------------------------------------------------------------

def test_going_out_flushes_the_field_with_flush_on_finish():
    st = game("gekifugo", [["S9"], ["HT", "HA"], ["D5", "DA"]], only("gekifugo", "flush_on_finish"))
    _, st = play(st, 0, "S9")
    assert js(st)["field"] is None and js(st)["turn"] == 1
    play(st, 1, "HT")


def test_without_flush_on_finish_the_finishing_cards_stay_to_be_beaten():
    st = game("nanko", [["S9"], ["HT", "H5", "HA"], ["D5", "DA"]], PLAIN)
    _, st = play(st, 0, "S9")
    assert js(st)["field"]["cards"] == ["S9"] and js(st)["turn"] == 1
    refuse(st, 1, ["H5"], "too_weak")


# --- forbidden finish -------------------------------------------------------------------------------------------

NANKO_FF = only("nanko", forbidden_finish={"joker": True, "strongest_rank": True, "cut": True,
                                            "sandstorm_exempt": True})


def test_going_out_with_a_joker_ranks_last():
    st = game("nanko", [["JK1"], ["H5", "HA"], ["D5", "DA"]], NANKO_FF)
    v, st = play(st, 0, "JK1")
    assert "forbidden_finish" in v.effects and places(st)[0] == 3


def test_going_out_with_a_plain_card_ranks_first():
    st = game("nanko", [["S9"], ["H5", "HA"], ["D5", "DA"]], NANKO_FF)
    v, st = play(st, 0, "S9")
    assert "forbidden_finish" not in v.effects and places(st)[0] == 1


def test_going_out_with_a_two_in_normal_order_is_forbidden():
    st = game("nanko", [["S2"], ["H5", "HA"], ["D5", "DA"]], NANKO_FF)
    _, st = play(st, 0, "S2")
    assert places(st)[0] == 3


def test_going_out_with_a_three_is_forbidden_only_when_reversed():
    rules = {**NANKO_FF, "revolution": True}
    st = game("nanko", [["S9", "H9", "D9", "C9", "S3"], ["H5", "HA"], ["D5", "DA"]], rules)
    _, st = play(st, 0, "S9", "H9", "D9", "C9")
    st = passes(st, 1, 2)
    v, st = play(st, 0, "S3")
    assert "forbidden_finish" in v.effects and places(st)[0] == 3
    st = game("nanko", [["S3"], ["H5", "HA"], ["D5", "DA"]], NANKO_FF)
    _, st = play(st, 0, "S3")
    assert places(st)[0] == 1


def test_nanko_going_out_with_a_cut_is_forbidden():
    rules = {**NANKO_FF, "eight_cut": {"normal_only": True}}
    st = game("nanko", [["S8"], ["H5", "HA"], ["D5", "DA"]], rules)
    _, st = play(st, 0, "S8")
    assert places(st)[0] == 3


def test_nanko_an_eight_that_does_not_cut_may_finish():
    rules = {**NANKO_FF, "eight_cut": {"normal_only": True}, "revolution": True}
    st = game("nanko", [["S9", "H9", "D9", "C9", "S8"], ["H5", "HA"], ["D5", "DA"]], rules)
    _, st = play(st, 0, "S9", "H9", "D9", "C9")
    st = passes(st, 1, 2)
    _, st = play(st, 0, "S8")
    assert places(st)[0] == 1


def test_nanko_a_sandstorm_finish_is_exempt_even_reversed():
    rules = {**NANKO_FF, "sandstorm": True, "revolution": True}
    st = game("nanko", [["S9", "H9", "D9", "C9", "S3", "H3", "D3"], ["H5", "HA"], ["D5", "DA"]], rules)
    _, st = play(st, 0, "S9", "H9", "D9", "C9")
    st = passes(st, 1, 2)
    v, st = play(st, 0, "S3", "H3", "D3")
    assert "sandstorm" in v.effects and places(st)[0] == 1


def test_geki_going_out_with_any_eight_is_forbidden():
    rules = only("gekifugo", forbidden_finish={"joker": True, "strongest_rank": True, "eight": True})
    st = game("gekifugo", [["S8"], ["H5", "HA"], ["D5", "DA"]], rules)
    _, st = play(st, 0, "S8")
    assert places(st)[0] == 3


def test_a_second_forbidden_finisher_takes_the_place_above():
    st = game("nanko", [["JK1"], ["H2"], ["D5", "DA"], ["C5", "CA"]], NANKO_FF)
    _, st = play(st, 0, "JK1")
    st = passes(st, 1, 2, 3)                 # flush, seat 0 is out: seat 1 leads
    assert js(st)["turn"] == 1
    _, st = play(st, 1, "H2")
    assert places(st)[:2] == [4, 3]


def test_forbidden_finish_off_a_joker_may_finish():
    st = game("nanko", [["JK1"], ["H5", "HA"], ["D5", "DA"]], PLAIN)
    _, st = play(st, 0, "JK1")
    assert places(st)[0] == 1


# --- declarations -----------------------------------------------------------------------------------------------

DECL = only("gekifugo", "declarations_required", "eight_cut", "jack_back", "revolution")


def test_a_declared_effect_fires():
    st = game("gekifugo", [["S8", "S4"], ["H9", "HA"]], DECL)
    v, st = play(st, 0, "S8", declare=["eight_cut"])
    assert "eight_cut" in v.effects and js(st)["turn"] == 0


def test_an_undeclared_effect_does_not_fire():
    st = game("gekifugo", [["S8", "S4"], ["H9", "HA"]], DECL)
    v, st = play(st, 0, "S8")
    assert v.effects == () and js(st)["turn"] == 1


def test_a_declaration_whose_condition_fails_is_void():
    st = game("gekifugo", [["S9", "S4"], ["HT", "HA"]], DECL)
    v, st = play(st, 0, "S9", declare=["eight_cut", "jack_back"])
    assert v.legal and v.void_declarations == ("eight_cut", "jack_back") and v.effects == ()
    assert js(st)["turn"] == 1 and js(st)["jack_back"] is False


def test_an_unknown_declaration_is_invalid():
    st = game("gekifugo", [["S9", "S4"], ["HT", "HA"]], DECL)
    refuse(st, 0, ["S9"], "invalid_declaration", declare=["fireball"])


def test_a_counter_revolution_is_declared_as_such():
    st = game("gekifugo", [["S9", "H9", "D9", "C9", "S4"], ["S5", "H5", "D5", "C5", "HA"]], DECL)
    _, st = play(st, 0, "S9", "H9", "D9", "C9", declare=["revolution"])
    assert js(st)["revolution"] is True
    v, st = play(st, 1, "S5", "H5", "D5", "C5", declare=["counter_revolution"])
    assert "revolution" in v.effects and v.void_declarations == () and js(st)["revolution"] is False


def test_a_counter_revolution_may_also_be_declared_as_revolution():
    st = game("gekifugo", [["S9", "H9", "D9", "C9", "S4"], ["S5", "H5", "D5", "C5", "HA"]], DECL)
    _, st = play(st, 0, "S9", "H9", "D9", "C9", declare=["revolution"])
    v, st = play(st, 1, "S5", "H5", "D5", "C5", declare=["revolution"])
    assert js(st)["revolution"] is False


def test_counter_revolution_without_a_revolution_in_force_is_void():
    st = game("gekifugo", [["S9", "H9", "D9", "C9", "S4"], ["HA"]], DECL)
    v, st = play(st, 0, "S9", "H9", "D9", "C9", declare=["counter_revolution"])
    assert js(st)["revolution"] is False and v.void_declarations == ("counter_revolution",)


# --- capital fall and gekokujo ----------------------------------------------------------------------------------

CF = only("gekifugo", "capital_fall")
GK = only("gekifugo", "capital_fall", "gekokujo")


def test_capital_fall_the_previous_top_drops_to_last_at_once():
    st = deal_in_seat_order("gekifugo", CF)
    st = deal_again(st, [["S9", "SK"], ["H5"], ["D6", "DA"], ["C3", "CA"]])
    assert js(st)["turn"] == 3                                  # the previous last leads
    _, st = play(st, 3, "C3")
    st = passes(st, 0)
    v, st = play(st, 1, "H5")                                   # not the previous top: seat 0 falls
    assert "capital_fall" in v.effects
    assert places(st) == [4, 1, None, None]
    assert hand(st, 0) == set() and {"S9", "SK"} <= set(js(st)["discard_pile"])
    assert js(st)["turn"] == 2
    _, st = play(st, 2, "D6")
    st = passes(st, 3)                                          # the fallen seat 0 is skipped
    assert js(st)["turn"] == 2 and js(st)["field"] is None


def test_capital_fall_no_fall_when_the_previous_top_finishes_first():
    st = deal_in_seat_order("gekifugo", CF)
    st = deal_again(st, [["S9"], ["HT"], ["DJ"], ["C3", "CA"]])
    _, st = play(st, 3, "C3")
    v, st = play(st, 0, "S9")
    assert "capital_fall" not in v.effects and places(st) == [1, None, None, None]
    _, st = play(st, 1, "HT")
    _, st = play(st, 2, "DJ")
    assert places(st) == [1, 2, 3, 4]


def test_capital_fall_only_from_the_second_deal():
    st = game("gekifugo", [["S4", "S9"], ["S5"], ["S6", "SK"], ["S7", "SA"]], CF)
    _, st = play(st, 0, "S4")
    v, st = play(st, 1, "S5")
    assert "capital_fall" not in v.effects and places(st) == [None, 1, None, None]


def test_gekokujo_the_previous_bottom_finishing_first_turns_the_standings_upside_down():
    st = deal_in_seat_order("gekifugo", GK)
    st = deal_again(st, [["S9", "SK"], ["H5", "HA"], ["D6", "DA"], ["C3"]])
    v, st = play(st, 3, "C3")
    assert "gekokujo" in v.effects and "capital_fall" not in v.effects
    assert js(st)["phase"] == "deal_over" and places(st) == [4, 3, 2, 1] and js(st)["ended_by"] == "gekokujo"


def test_a_forbidden_finish_place_is_not_final_while_gekokujo_may_still_turn_the_standings():
    """Gekokujo rewrites every place on the finish that takes place 1, a place a forbidden finish gave first
    included: flow.place_final (where the mc playouts stop) says a place is final only once gekokujo cannot
    fire any more."""
    from referee.flow import place_final

    st = deal_in_seat_order("gekifugo", only("gekifugo", "gekokujo", "forbidden_finish"))
    st = deal_again(st, [["S9", "SK"], ["H8"], ["D6", "DA"], ["C3", "C7"]])
    _, st = play(st, 3, "C3")
    st = passes(st, 0)
    v, st = play(st, 1, "H8")                                   # an 8 is a forbidden finish in gekifugo
    assert "forbidden_finish" in v.effects and places(st) == [None, 4, None, None]
    assert not place_final(st, 1)                               # seat 3, last in deal 1, may still finish first
    st = passes(st, 2, 3, 0)
    _, st = play(st, 2, "D6")
    v, st = play(st, 3, "C7")
    assert "gekokujo" in v.effects and places(st) == [4, 3, 2, 1]  # seat 1's 4th place became 3rd
    assert place_final(st, 1)


def test_a_place_is_final_once_given_when_gekokujo_cannot_fire():
    from referee.flow import place_final

    st = deal_in_seat_order("gekifugo", only("gekifugo", "gekokujo", "forbidden_finish"))
    st = deal_again(st, [["S9", "SK"], ["H5"], ["D6", "DA"], ["C3", "CA"]])
    _, st = play(st, 3, "C3")
    st = passes(st, 0)
    _, st = play(st, 1, "H5")                                   # place 1 is taken: gekokujo cannot fire
    assert places(st) == [None, 1, None, None] and place_final(st, 1) and not place_final(st, 0)


def test_gekokujo_not_when_another_player_finishes_first():
    st = deal_in_seat_order("gekifugo", only("gekifugo", "gekokujo"))
    st = deal_again(st, [["S9", "SK"], ["H5"], ["D6", "DA"], ["C3", "CA"]])
    _, st = play(st, 3, "C3")
    st = passes(st, 0)
    v, st = play(st, 1, "H5")
    assert "gekokujo" not in v.effects and js(st)["phase"] == "play" and places(st) == [None, 1, None, None]


def test_declaring_a_shape_the_play_does_not_have_is_void():
    st = game("gekifugo", [["S5", "H5", "S4"], ["HT", "HA"]], DECL)
    v, st = play(st, 0, "S5", "H5", declare=["stairs"])
    assert v.legal and v.void_declarations == ("stairs",)


def test_under_jack_back_going_out_with_a_three_is_forbidden():
    rules = only("gekifugo", "jack_back", forbidden_finish={"joker": True, "strongest_rank": True, "eight": True})
    st = game("gekifugo", [["SJ", "HK"], ["H3"], ["D2", "D5"], ["CA", "C4"]], rules)
    _, st = play(st, 0, "SJ")
    assert js(st)["order"] == "reversed"
    _, st = play(st, 1, "H3")
    assert places(st)[1] == 4


def test_capital_fall_that_leaves_one_player_ends_the_deal():
    rules = only("gekifugo", "capital_fall")
    st = game("gekifugo", [["S4"], ["S5"], ["S6"]], rules)
    _, st = play(st, 0, "S4")
    _, st = play(st, 1, "S5")
    assert places(st) == [1, 2, 3]
    st = deal_again(st, [["S9", "SK"], ["H5"], ["D4", "DA"]])
    assert js(st)["turn"] == 2
    _, st = play(st, 2, "D4")
    st = passes(st, 0)
    _, st = play(st, 1, "H5")
    assert places(st) == [3, 1, 2] and js(st)["phase"] == "deal_over"


def test_finished_seats_are_skipped_counter_clockwise_too():
    rules = only("nanko", nine_reverse={"scope": "deal"})
    st = game("nanko", [["S3", "SJ", "SK"], ["H4", "HA"], ["D5"], ["CT", "C9", "CA"]], rules)
    _, st = play(st, 0, "S3")
    _, st = play(st, 1, "H4")
    _, st = play(st, 2, "D5")                                   # seat 2 out
    _, st = play(st, 3, "C9")                                   # counter-clockwise from now on
    assert js(st)["direction"] == -1
    assert js(st)["turn"] == 1                                  # 3 -> 2 (finished) -> 1
    st = passes(st, 1, 0)                                       # 1 -> 0 -> 3, the owner: flush
    assert js(st)["field"] is None and js(st)["turn"] == 3
