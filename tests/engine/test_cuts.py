"""Cuts (RULES.md §5): eight_cut, six_cut, sandstorm, spade3, cut_back."""
from referee import actors, legal_moves, state_to_json

from .helpers import bad, field, game, hand, js, move, ok, only, passes, pending, places, play, refuse

# --- eight cut --------------------------------------------------------------------------------------------------

EIGHT = only("uecda", "eight_cut")


def test_an_eight_flushes_the_field_and_its_player_leads():
    st = game("uecda", [["S8", "S4"], ["HT", "HA"], ["DT"]], EIGHT)
    v, st = play(st, 0, "S8")
    assert "eight_cut" in v.effects
    assert js(st)["field"] is None and js(st)["turn"] == 0 and "S8" in js(st)["discard_pile"]


def test_no_eight_no_cut():
    st = game("uecda", [["S9", "S4"], ["HT", "HA"], ["DT"]], EIGHT)
    _, st = play(st, 0, "S9")
    assert js(st)["field"] is not None and js(st)["turn"] == 1


def test_stairs_through_an_eight_cut_in_uecda():
    rules = only("uecda", "eight_cut", stairs={"compare": "above"})
    st = game("uecda", [["S7", "S8", "S9", "S4"], ["HT", "HA"]], rules)
    v, st = play(st, 0, "S7", "S8", "S9")
    assert "eight_cut" in v.effects and js(st)["turn"] == 0


def test_nanko_eight_cut_only_in_normal_order():
    rules = only("nanko", "revolution", eight_cut={"normal_only": True})
    st = game("nanko", [["S9", "H9", "D9", "C9", "S8", "S4"], ["H7", "HA"], ["DT"]], rules)
    _, st = play(st, 0, "S9", "H9", "D9", "C9")
    st = passes(st, 1, 2)
    v, st = play(st, 0, "S8")
    assert "eight_cut" not in v.effects and js(st)["turn"] == 1
    play(st, 1, "H7")


def test_a_joker_standing_in_for_an_eight_cuts():
    rules = only("uecda", "eight_cut", stairs={"compare": "shift"})
    st = game("uecda", [["S7", "S9", "JK1", "S4"], ["HT", "HA"]], rules)
    v, st = play(st, 0, "S7", "JK1", "S9")
    assert v.reading == {"JK1": "S8"} and "eight_cut" in v.effects and js(st)["turn"] == 0


# --- six cut ----------------------------------------------------------------------------------------------------

SIX = only("nanko", "six_cut", "revolution")


def test_a_six_in_reversed_order_cuts():
    st = game("nanko", [["S9", "H9", "D9", "C9", "S6", "S4"], ["H5", "HA"], ["DT"]], SIX)
    _, st = play(st, 0, "S9", "H9", "D9", "C9")
    st = passes(st, 1, 2)
    v, st = play(st, 0, "S6")
    assert "six_cut" in v.effects and js(st)["field"] is None and js(st)["turn"] == 0


def test_a_six_in_normal_order_does_not_cut():
    st = game("nanko", [["S6", "S4"], ["H7", "HA"], ["DT"]], SIX)
    v, st = play(st, 0, "S6")
    assert v.effects == () and js(st)["turn"] == 1


# --- sandstorm --------------------------------------------------------------------------------------------------

SAND = only("nanko", "sandstorm")


def test_three_threes_play_on_any_field_and_cut():
    st = game("nanko", [["S2", "H2", "S4"], ["S3", "H3", "D3", "HA"], ["DT"]], SAND)
    _, st = play(st, 0, "S2", "H2")
    v, st = play(st, 1, "S3", "H3", "D3")
    assert "sandstorm" in v.effects
    assert js(st)["field"] is None and js(st)["turn"] == 1 and {"S2", "H2", "S3"} <= set(js(st)["discard_pile"])


def test_sandstorm_beats_a_lone_joker():
    st = game("nanko", [["JK1", "S4"], ["S3", "H3", "D3", "HA"], ["DT"]], SAND)
    _, st = play(st, 0, "JK1")
    v, st = play(st, 1, "S3", "H3", "D3")
    assert "sandstorm" in v.effects and js(st)["turn"] == 1


def test_three_threes_with_a_joker_are_no_sandstorm():
    st = game("nanko", [["S2", "S4"], ["S3", "H3", "JK1", "HA"], ["DT"]], SAND)
    _, st = play(st, 0, "S2")
    refuse(st, 1, ["S3", "H3", "JK1"], "shape_mismatch")


def test_four_threes_are_no_sandstorm():
    st = game("nanko", [["S2", "S4"], ["S3", "H3", "D3", "C3", "HA"], ["DT"]], SAND)
    _, st = play(st, 0, "S2")
    refuse(st, 1, ["S3", "H3", "D3", "C3"], "shape_mismatch")


def test_sandstorm_off_three_threes_are_an_ordinary_triple():
    st = game("nanko", [["S2", "S4"], ["S3", "H3", "D3", "HA"], ["DT"]], only("nanko"))
    _, st = play(st, 0, "S2")
    refuse(st, 1, ["S3", "H3", "D3"], "shape_mismatch")


# --- spade three ------------------------------------------------------------------------------------------------

S3 = only("uecda", "spade3")


def test_spade_three_beats_a_lone_joker_and_cuts():
    st = game("uecda", [["JK1", "S4"], ["S3", "HA"], ["DT"]], S3)
    _, st = play(st, 0, "JK1")
    v, st = play(st, 1, "S3")
    assert "spade3" in v.effects
    assert js(st)["field"] is None and js(st)["turn"] == 1 and {"JK1", "S3"} <= set(js(st)["discard_pile"])


def test_another_three_does_not_beat_the_joker():
    st = game("uecda", [["JK1", "S4"], ["H3", "HA"], ["DT"]], S3)
    _, st = play(st, 0, "JK1")
    refuse(st, 1, ["H3"], "too_weak")


def test_spade_three_does_not_beat_a_two():
    st = game("uecda", [["S2", "S4"], ["S3", "HA"], ["DT"]], S3)
    _, st = play(st, 0, "S2")
    refuse(st, 1, ["S3"], "too_weak")


def test_spade_three_off_does_not_beat_the_joker():
    st = game("uecda", [["JK1", "S4"], ["S3", "HA"], ["DT"]], only("uecda"))
    _, st = play(st, 0, "JK1")
    refuse(st, 1, ["S3"], "too_weak")


def test_spade_three_on_a_joker_standing_in_is_no_special():
    st = game("uecda", [["S5", "JK1", "S4"], ["S3", "H3", "HA"], ["DT"]], S3)
    _, st = play(st, 0, "S5", "JK1")
    refuse(st, 1, ["S3"], "shape_mismatch")


# --- cut back ---------------------------------------------------------------------------------------------------

CB = only("nanko", "cut_back", eight_cut={"normal_only": True})


def test_after_an_eight_a_joker_holder_may_cut_back_and_lead():
    st = game("nanko", [["S8", "S4"], ["HT", "HA", "JK2"], ["JK1", "DT", "D5"]], CB)
    _, st = play(st, 0, "S8")
    assert pending(st) == [(1, "cut_back", 1, "cut_back"), (2, "cut_back", 1, "cut_back")]
    assert actors(st) == [1, 2, 0]                 # the window seats, then the cutter who may lead at once
    bad(st, move(2, "cut_back", ["DT"]), "wrong_count")
    bad(st, move(1, "cut_back", ["JK1"]), "not_in_hand")
    v, st = ok(st, move(2, "cut_back", ["JK1"]))
    assert pending(st) == [(0, "cut_back", 1, "cut_back"), (1, "cut_back", 1, "cut_back")]  # JK2 is in a hand
    st = passes(st, 0, 1)
    assert js(st)["field"] is None and js(st)["turn"] == 2 and "JK1" in js(st)["discard_pile"]


def test_a_declined_cut_back_leaves_the_cutter_leading():
    st = game("nanko", [["S8", "S4"], ["HT", "HA"], ["JK1", "DT", "D5"]], CB)
    _, st = play(st, 0, "S8")
    st = ok(st, move(2, "pass"))[1]
    assert pending(st) == [(1, "cut_back", 1, "cut_back")] and js(st)["turn"] == 0
    st = ok(st, move(1, "pass"))[1]
    assert js(st)["pending"] == [] and js(st)["turn"] == 0 and js(st)["field"] is None


def test_the_cutters_lead_closes_the_window():
    st = game("nanko", [["S8", "S4", "S5"], ["HT", "HA"], ["JK1", "DT", "D5"]], CB)
    _, st = play(st, 0, "S8")
    v, st = play(st, 0, "S4")                      # nobody shouted 切り返し before the lead
    assert js(st)["pending"] == [] and field(st) == {"S4"} and js(st)["turn"] == 1
    assert "S8" in js(st)["discard_pile"] and "JK1" in hand(st, 2)
    bad(st, move(2, "cut_back", ["JK1"]), "not_your_turn")


def test_a_rejected_lead_leaves_the_window_open():
    st = game("nanko", [["S8", "S4", "S5"], ["HT", "HA"], ["JK1", "DT", "D5"]], CB)
    _, st = play(st, 0, "S8")
    bad(st, move(0, "play", ["S4", "S5"]), "invalid_cards")
    assert pending(st) == [(1, "cut_back", 1, "cut_back"), (2, "cut_back", 1, "cut_back")]
    bad(st, move(0, "pass"), "must_play")          # the leader's pass neither declines nor closes the window


def test_a_seat_without_jokers_sees_what_a_joker_holder_sees():
    """The window leaks nothing: the views and the actors are the same whoever holds the joker."""
    hands = [["S8", "S4", "S5"], ["HT", "HA", "H3"], ["DT", "D5", "D3"], ["CT", "C5", "C3"]]
    after = {}
    for holder in (1, 2, 3, 0):                    # 0: the cutter itself holds it
        hs = [list(h) for h in hands]
        hs[holder][-1] = "JK1"
        st = game("nanko", hs, CB)
        _, st = play(st, 0, "S8")
        views = {s: state_to_json(st, viewer=s) for s in range(4)}
        for v in views.values():
            for p in v["players"]:
                p["hand"] = None                   # each seat's own hand differs, of course
        after[holder] = (views, actors(st))
        assert legal_moves(st, 0)[0]["action"] == "play" and not any(m["action"] == "cut_back" for m in legal_moves(st, 0))
        for s in (1, 2, 3):
            kinds = [m["action"] for m in legal_moves(st, s)]
            assert kinds == (["pass", "cut_back"] if s == holder else ["pass"])
    assert after[1] == after[2] == after[3] == after[0]
    assert after[1][1] == [1, 2, 3, 0]


def test_no_window_when_every_joker_is_out_of_play():
    """Public facts: with both jokers undealt (out_of_play), nobody could cut back: the cut resolves at once."""
    st = game("nanko", [["S8", "S4", "S5"], ["HT", "HA", "H3"], ["DT", "D5", "D3"], ["CT", "C5", "C3"]], CB)
    _, st = play(st, 0, "S8")
    assert pending(st) == [] and actors(st) == [0] and field(st) is None


def test_no_window_when_public_facts_rule_a_cut_back_out():
    st = game("nanko", [["S8", "H8", "D8", "S4"], ["HT", "HA", "H3"], ["JK1", "JK2", "DT", "D5"]], CB)
    _, st = play(st, 0, "S8", "H8", "D8")          # three cards: there are only two jokers
    assert js(st)["pending"] == [] and js(st)["turn"] == 0 and js(st)["field"] is None
    st = game("nanko", [["S8", "H8", "S4"], ["HA"], ["JK1", "JK2", "D5"]], CB)
    _, st = play(st, 0, "S8", "H8")                # seat 1 holds one card: it cannot hold two jokers
    assert pending(st) == [(2, "cut_back", 2, "cut_back")]


def test_no_window_without_a_cut():
    st = game("nanko", [["S9", "S4"], ["HT", "HA"], ["JK1", "DT", "D5"]], CB)
    _, st = play(st, 0, "S9")
    assert js(st)["pending"] == [] and js(st)["turn"] == 1


def test_cutting_back_with_the_last_cards_is_a_forbidden_finish():
    rules = {**CB, "forbidden_finish": {"joker": True, "strongest_rank": True, "cut": True}}
    st = game("nanko", [["S8", "S4"], ["HT", "HA", "JK2"], ["JK1"]], rules)
    _, st = play(st, 0, "S8")
    v, st = ok(st, move(2, "cut_back", ["JK1"]))
    assert pending(st) == [(0, "cut_back", 1, "cut_back"), (1, "cut_back", 1, "cut_back")]
    assert js(st)["turn"] == 0                     # seat 2 is out: the next active seat leads
    v, st = play(st, 0, "S4")
    assert places(st)[2] == 3 and "forbidden_finish" in v.effects


def test_a_cut_back_can_itself_be_cut_back():
    st = game("nanko", [["S8", "S4"], ["JK1", "HA"], ["JK2", "DT"]], CB)
    _, st = play(st, 0, "S8")
    assert {p[0] for p in pending(st)} == {1, 2}
    v, st = ok(st, move(1, "cut_back", ["JK1"]))
    assert pending(st) == [(0, "cut_back", 1, "cut_back"), (2, "cut_back", 1, "cut_back")] and js(st)["turn"] == 1
    v, st = ok(st, move(2, "cut_back", ["JK2"]))
    assert js(st)["pending"] == []                 # both jokers are played: no window after the second
    assert js(st)["turn"] == 2 and js(st)["field"] is None


def test_geki_spade_three_must_be_declared():
    rules = only("gekifugo", "spade3", "declarations_required")
    st = game("gekifugo", [["JK1", "S4"], ["S3", "HA"], ["DT"]], rules)
    _, st = play(st, 0, "JK1")
    refuse(st, 1, ["S3"], "too_weak")
    v, st = play(st, 1, "S3", declare=["spade3"])
    assert "spade3" in v.effects and js(st)["turn"] == 1


def test_sandstorm_ignores_a_suit_lock():
    rules = only("nanko", "sandstorm", "suit_lock")
    st = game("nanko", [["S5", "S9"], ["S6", "HA"], ["S3", "H3", "D3", "DK"]], rules)
    _, st = play(st, 0, "S5")
    _, st = play(st, 1, "S6")
    assert js(st)["locks"]["kind"] == "exact"
    v, st = play(st, 2, "S3", "H3", "D3")
    assert "sandstorm" in v.effects and js(st)["turn"] == 2 and js(st)["locks"]["kind"] is None


def test_a_sandstorm_led_on_an_empty_field_still_cuts():
    st = game("nanko", [["S3", "H3", "D3", "C9"], ["HA", "H4"], ["D5", "D4"]], SAND)
    v, st = play(st, 0, "S3", "H3", "D3")
    assert "sandstorm" in v.effects and js(st)["field"] is None and js(st)["turn"] == 0
