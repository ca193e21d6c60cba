"""Attach revolution (RULES.md §10.6): the attached cards are judged like any play. The scenarios are the
reproductions of issue 9 (faults 1-4)."""
from .helpers import bad, game, js, move, pass_, pending, play, refuse


def opened(hands, rules=None):
    """gekifugo: seat 0 plays D3 (its duty) and every other seat passes."""
    st = game("gekifugo", hands, rules)
    _, st = play(st, 0, "D3")
    for seat in range(1, len(hands)):
        st = pass_(st, seat)
    return st


def test_a_joker_attached_to_three_eights_counts_as_an_eight_and_cuts():
    st = opened([["D3", "S8", "H8", "D8", "CK"], ["JK1", "HA"]])
    _, st = play(st, 0, "S8", "H8", "D8")
    v, st = play(st, 1, "JK1", declare=["attach_revolution", "eight_cut"])
    assert "eight_cut" in v.effects and v.void_declarations == ()
    assert v.reading == {"JK1": "C8"}
    assert js(st)["field"] is None and st.turn == 1 and js(st)["revolution"] is True


def test_a_joker_attached_to_three_jacks_counts_as_a_jack():
    st = opened([["D3", "SJ", "HJ", "DJ", "CK"], ["JK1", "HA"]])
    _, st = play(st, 0, "SJ", "HJ", "DJ")
    v, st = play(st, 1, "JK1", declare=["attach_revolution", "jack_back"])
    assert {"attach_revolution", "jack_back"} <= set(v.effects) and v.void_declarations == ()
    # revolution and jack back together: the order is normal again until the flush
    assert js(st)["revolution"] is True and js(st)["jack_back"] is True and js(st)["order"] == "normal"


def test_two_jokers_attached_to_two_sevens_give_two_cards_like_a_seven_and_a_joker():
    st = opened([["D3", "S7", "H7", "CK", "C4"], ["JK1", "JK2", "HA", "H4", "H5"]])
    _, st = play(st, 0, "S7", "H7")
    v, after = play(st, 1, "JK1", "JK2", declare=["attach_revolution", "seven_pass"])
    assert "seven_pass" in v.effects and pending(after) == [(1, "give", 2, "seven_pass")]
    st = opened([["D3", "S7", "H7", "CK", "C4"], ["D7", "JK1", "HA", "H4", "H5"]])
    _, st = play(st, 0, "S7", "H7")
    v, after = play(st, 1, "D7", "JK1", declare=["attach_revolution", "seven_pass"])
    assert pending(after) == [(1, "give", 2, "seven_pass")]


def test_the_verdict_reports_the_reading_the_field_shows():
    st = opened([["D3", "S7", "H7", "CK"], ["D7", "JK1", "HA"]])
    _, st = play(st, 0, "S7", "H7")
    v, st = play(st, 1, "D7", "JK1", declare=["attach_revolution"])
    assert v.reading == {"JK1": "C7"} == js(st)["field"]["as"]


def test_as_is_honoured_and_checked_in_an_attach_revolution():
    st = opened([["D3", "S5", "S6", "S7", "CK"], ["JK1", "HA"]])
    _, st = play(st, 0, "S5", "S6", "S7", declare=["stairs"])
    refuse(st, 1, ["JK1"], "invalid_cards", declare=["attach_revolution"], as_={"JK1": "S9"})
    v, low = play(st, 1, "JK1", declare=["attach_revolution"], as_={"JK1": "S4"})
    assert v.reading == {"JK1": "S4"} == js(low)["field"]["as"]
    # without 'as' the open rank takes the stronger one in the order in force before the play (normal: S8)
    v, high = play(st, 1, "JK1", declare=["attach_revolution"])
    assert v.reading == {"JK1": "S8"} == js(high)["field"]["as"]


def test_a_cut_back_after_an_attach_cut_needs_as_many_jokers_as_cards_attached():
    st = opened([["D3", "S5", "S6", "S7", "CK"], ["S8", "HA"], ["JK1", "D9"]], rules={"cut_back": True})
    _, st = play(st, 0, "S5", "S6", "S7", declare=["stairs"])
    v, st = play(st, 1, "S8", declare=["attach_revolution", "eight_cut"])
    assert "eight_cut" in v.effects
    assert pending(st) == [(0, "cut_back", 1, "cut_back"), (2, "cut_back", 1, "cut_back")]
    bad(st, move(2, "cut_back", ["JK1", "D9"]), "wrong_count")


def test_attach_revolution_ignores_and_clears_the_locks():
    st = opened([["D3", "S5", "H5", "S9", "CK"], ["S6", "H6", "HA"], ["D6", "C6", "D9"]],
                rules={"first_card": {"must_play": False}})
    _, st = play(st, 0, "S5", "H5")
    _, st = play(st, 1, "S6", "H6", declare=["suit_lock"])
    assert js(st)["locks"]["suits"] == ["S", "H"]
    refuse(st, 2, ["D6", "C6"], "too_weak")  # as a plain pair it does not beat S6 H6 (and shows D+C)
    v, st = play(st, 2, "D6", "C6", declare=["attach_revolution"])
    assert js(st)["locks"]["suits"] == [] and js(st)["revolution"] is True


def test_attach_revolution_clears_the_color_lock_too():
    # its clear names no lock: every slot declared a lock goes back to its default (referee/slots.py)
    st = opened([["D3", "H5", "D5", "CK"], ["H6", "D6", "HA"], ["S6", "C6", "D9"]],
                rules={"first_card": {"must_play": False}, "color_lock": True})
    _, st = play(st, 0, "H5", "D5")
    _, st = play(st, 1, "H6", "D6", declare=["color_lock"])
    assert js(st)["locks"]["color"] == "red"
    v, st = play(st, 2, "S6", "C6", declare=["attach_revolution"])
    assert js(st)["locks"]["color"] is None and js(st)["revolution"] is True


def test_no_attach_onto_a_field_of_jokers_only():
    st = opened([["D3", "JK1", "JK2", "CK"], ["S5", "H5", "HA"]])
    _, st = play(st, 0, "JK1", "JK2")
    refuse(st, 1, ["S5", "H5"], "too_weak", declare=["attach_revolution"])
