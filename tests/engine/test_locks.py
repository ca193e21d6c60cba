"""Locks (RULES.md §5): suit_lock, partial_suit_lock, rank_lock, and color_lock (docs/rules.md)."""
from .helpers import game, js, only, passes, play, refuse

SUIT = only("uecda", "suit_lock")
PARTIAL = only("uecda", "partial_suit_lock")
COLOR = only("uecda", "color_lock")


# --- suit lock --------------------------------------------------------------------------------------------------

def test_two_plays_of_the_same_suit_lock_the_suit():
    st = game("uecda", [["S4", "SK"], ["S6", "HA"], ["H7", "S9", "DA"]], SUIT)
    _, st = play(st, 0, "S4")
    v, st = play(st, 1, "S6")
    assert "suit_lock" in v.effects
    assert js(st)["locks"]["suits"] == ["S"] and js(st)["locks"]["kind"] == "exact"
    refuse(st, 2, ["H7"], "locked")
    play(st, 2, "S9")


def test_different_suits_do_not_lock():
    st = game("uecda", [["S4", "SK"], ["H6", "HA"], ["D7", "S9"]], SUIT)
    _, st = play(st, 0, "S4")
    v, st = play(st, 1, "H6")
    assert "suit_lock" not in v.effects and js(st)["locks"]["kind"] is None
    play(st, 2, "D7")


def test_the_suit_lock_ends_when_the_field_flushes():
    st = game("uecda", [["S4", "SK"], ["S6", "HA"], ["H7", "S9", "DA"]], SUIT)
    _, st = play(st, 0, "S4")
    _, st = play(st, 1, "S6")
    st = passes(st, 2, 0)
    assert js(st)["field"] is None and js(st)["locks"]["kind"] is None and js(st)["turn"] == 1
    _, st = play(st, 1, "HA")
    assert js(st)["turn"] == 2


def test_a_lone_joker_may_be_played_on_a_locked_field_and_ends_the_lock():
    st = game("uecda", [["S4", "SK"], ["S6", "HA"], ["JK1", "DA"]], SUIT)
    _, st = play(st, 0, "S4")
    _, st = play(st, 1, "S6")
    _, st = play(st, 2, "JK1")
    assert js(st)["locks"]["kind"] is None


def test_pairs_lock_on_the_exact_suit_set():
    st = game("uecda", [["S4", "H4", "SK"], ["S6", "H6", "HA"], ["S7", "D7", "S9", "H9", "DA"]], SUIT)
    _, st = play(st, 0, "S4", "H4")
    _, st = play(st, 1, "S6", "H6")
    assert js(st)["locks"]["suits"] == ["S", "H"]
    refuse(st, 2, ["S7", "D7"], "locked")
    play(st, 2, "S9", "H9")


def test_a_joker_stand_in_takes_the_locked_suit():
    st = game("uecda", [["S4", "H4", "SK"], ["S6", "H6", "HA"], ["S7", "JK1", "DA"]], SUIT)
    _, st = play(st, 0, "S4", "H4")
    _, st = play(st, 1, "S6", "H6")
    v, st = play(st, 2, "S7", "JK1")
    assert v.reading == {"JK1": "H7"}


def test_a_joker_stand_in_declared_off_suit_is_locked():
    st = game("uecda", [["S4", "H4", "SK"], ["S6", "H6", "HA"], ["S7", "JK1", "DA"]], SUIT)
    _, st = play(st, 0, "S4", "H4")
    _, st = play(st, 1, "S6", "H6")
    refuse(st, 2, ["S7", "JK1"], "locked", as_={"JK1": "D7"})


def test_a_joker_stand_in_can_create_the_lock():
    st = game("uecda", [["S4", "H4", "SK"], ["S6", "JK1", "HA"], ["D7", "C7", "DA"]], SUIT)
    _, st = play(st, 0, "S4", "H4")
    v, st = play(st, 1, "S6", "JK1", as_={"JK1": "H6"})
    assert v.reading == {"JK1": "H6"} and js(st)["locks"]["suits"] == ["S", "H"]
    refuse(st, 2, ["D7", "C7"], "locked")


# --- partial suit lock ------------------------------------------------------------------------------------------

def test_multi_card_plays_sharing_a_suit_lock_that_suit():
    st = game("uecda", [["S5", "H5", "SK"], ["S6", "D6", "HA"], ["H7", "D7", "S7", "C7", "DA"]], PARTIAL)
    _, st = play(st, 0, "S5", "H5")
    v, st = play(st, 1, "S6", "D6")
    assert "partial_suit_lock" in v.effects
    assert js(st)["locks"] == {"suits": ["S"], "kind": "partial", "rank": False, "color": None}
    refuse(st, 2, ["H7", "D7"], "locked")
    play(st, 2, "S7", "C7")


def test_multi_card_plays_without_a_shared_suit_do_not_lock():
    st = game("uecda", [["S5", "H5", "SK"], ["D6", "C6", "HA"], ["H7", "D7", "DA"]], PARTIAL)
    _, st = play(st, 0, "S5", "H5")
    _, st = play(st, 1, "D6", "C6")
    assert js(st)["locks"]["kind"] is None
    play(st, 2, "H7", "D7")


def test_singles_never_make_a_partial_lock():
    st = game("uecda", [["S5", "SK"], ["S6", "HA"], ["H7", "DA"]], PARTIAL)
    _, st = play(st, 0, "S5")
    _, st = play(st, 1, "S6")
    assert js(st)["locks"]["kind"] is None
    play(st, 2, "H7")


# --- rank lock --------------------------------------------------------------------------------------------------

RANK_ANY = only("nanko", rank_lock={"second_play_only": False})
RANK_SECOND = only("gekifugo", rank_lock={"second_play_only": True})


def test_the_next_rank_locks_ranks_to_keep_rising_by_one():
    st = game("nanko", [["S4", "SK"], ["H5", "HA"], ["D7", "D6", "DA"]], RANK_ANY)
    _, st = play(st, 0, "S4")
    v, st = play(st, 1, "H5")
    assert "rank_lock" in v.effects and js(st)["locks"]["rank"] is True
    refuse(st, 2, ["D7"], "locked")
    play(st, 2, "D6")


def test_a_gap_in_ranks_does_not_lock():
    st = game("nanko", [["S4", "SK"], ["H6", "HA"], ["D9", "DA"]], RANK_ANY)
    _, st = play(st, 0, "S4")
    _, st = play(st, 1, "H6")
    assert js(st)["locks"]["rank"] is False
    play(st, 2, "D9")


def test_nanko_rank_lock_can_start_on_a_later_play():
    st = game("nanko", [["S4", "SK"], ["H6", "HA"], ["D7", "DA"], ["C8", "C9", "CA"]], RANK_ANY)
    _, st = play(st, 0, "S4")
    _, st = play(st, 1, "H6")
    _, st = play(st, 2, "D7")
    assert js(st)["locks"]["rank"] is True
    refuse(st, 3, ["C9"], "locked")


def test_geki_rank_lock_only_on_the_tricks_second_play():
    st = game("gekifugo", [["S4", "SK"], ["H6", "HA"], ["D7", "DA"], ["C8", "C9", "CA"]], RANK_SECOND)
    _, st = play(st, 0, "S4")
    _, st = play(st, 1, "H6")
    _, st = play(st, 2, "D7")               # successor, but on the third play
    assert js(st)["locks"]["rank"] is False
    play(st, 3, "C9")


def test_geki_rank_lock_on_the_second_play():
    st = game("gekifugo", [["S4", "SK"], ["H5", "HA"], ["D7", "D6", "DA"]], RANK_SECOND)
    _, st = play(st, 0, "S4")
    _, st = play(st, 1, "H5")
    assert js(st)["locks"]["rank"] is True
    refuse(st, 2, ["D7"], "locked")


def test_rank_lock_follows_the_reversed_order():
    rules = only("nanko", "revolution", rank_lock={"second_play_only": False})
    st = game("nanko", [["S9", "H9", "D9", "C9", "S8", "SK"], ["H7", "H6", "HA"], ["D6", "D5", "DA"]], rules)
    _, st = play(st, 0, "S9", "H9", "D9", "C9")
    st = passes(st, 1, 2)
    _, st = play(st, 0, "S8")
    _, st = play(st, 1, "H7")               # 7 follows 8 in reversed order
    assert js(st)["locks"]["rank"] is True
    refuse(st, 2, ["D5"], "locked")
    play(st, 2, "D6")


def test_rank_lock_ends_with_the_flush():
    st = game("nanko", [["S4", "SK"], ["H5", "HA"], ["D9", "DA"]], RANK_ANY)
    _, st = play(st, 0, "S4")
    _, st = play(st, 1, "H5")
    st = passes(st, 2, 0)
    assert js(st)["locks"]["rank"] is False and js(st)["turn"] == 1


def test_suit_lock_and_partial_lock_on_the_same_play_keep_the_exact_lock():
    rules = only("gekifugo", "suit_lock", "partial_suit_lock")
    st = game("gekifugo", [["S5", "H5", "S9"], ["S6", "H6", "SK"], ["S7", "H7", "D7", "DA"]], rules)
    _, st = play(st, 0, "S5", "H5")
    v, st = play(st, 1, "S6", "H6")
    assert "suit_lock" in v.effects
    assert js(st)["locks"]["kind"] == "exact" and js(st)["locks"]["suits"] == ["S", "H"]


def test_geki_an_undeclared_lock_does_not_lock():
    rules = only("gekifugo", "suit_lock", "declarations_required")
    st = game("gekifugo", [["S5", "S9"], ["S6", "SK"], ["H7", "S7", "DA"]], rules)
    _, st = play(st, 0, "S5")
    _, st = play(st, 1, "S6")
    assert js(st)["locks"]["kind"] is None
    st2 = play(game("gekifugo", [["S5", "S9"], ["S6", "SK"], ["H7", "S7", "DA"]], rules), 0, "S5")[1]
    _, st2 = play(st2, 1, "S6", declare=["suit_lock"])
    refuse(st2, 2, ["H7"], "locked")


# --- color lock (色縛り) -------------------------------------------------------------------------------------------

def color_refused(st, seat, cards, **kw):
    """The play is refused by the color lock, as a lock: reason ``locked``, the rule named."""
    v = refuse(st, seat, cards, "locked", **kw)
    assert v.rule == "color_lock" and "(color_lock)" in v.message, v.message
    return v


def test_two_red_plays_lock_the_trick_to_red():
    st = game("uecda", [["H4", "SK"], ["D6", "HA"], ["S7", "H9", "DA"]], COLOR)
    _, st = play(st, 0, "H4")
    v, st = play(st, 1, "D6")  # another suit, the same color
    assert "color_lock" in v.effects and js(st)["locks"]["color"] == "red"
    assert js(st)["locks"]["kind"] is None  # no suit lock: the suits differ
    v = color_refused(st, 2, ["S7"])
    assert "H+D" in v.message and "shows S" in v.message
    play(st, 2, "H9")


def test_two_black_plays_lock_the_trick_to_black():
    st = game("uecda", [["S4", "HK"], ["C6", "HA"], ["D7", "S9", "DA"]], COLOR)
    _, st = play(st, 0, "S4")
    _, st = play(st, 1, "C6")
    assert js(st)["locks"]["color"] == "black"
    color_refused(st, 2, ["D7"])
    play(st, 2, "S9")


def test_plays_of_two_colors_do_not_lock():
    st = game("uecda", [["H4", "SK"], ["S6", "HA"], ["D7", "S9"]], COLOR)
    _, st = play(st, 0, "H4")
    v, st = play(st, 1, "S6")
    assert "color_lock" not in v.effects and js(st)["locks"]["color"] is None
    play(st, 2, "D7")


def test_a_mixed_play_neither_locks_nor_meets_the_lock():
    st = game("uecda", [["H4", "D4", "SK"], ["S6", "H6", "HA"], ["H7", "D7", "S8", "C8", "S9", "H9", "DA"]], COLOR)
    _, st = play(st, 0, "H4", "D4")
    _, st = play(st, 1, "S6", "H6")  # red and black: no lock
    assert js(st)["locks"]["color"] is None
    st = game("uecda", [["H4", "D4", "SK"], ["H6", "D6", "HA"], ["S8", "H8", "S9", "C9", "H9", "D9", "DA"]], COLOR)
    _, st = play(st, 0, "H4", "D4")
    _, st = play(st, 1, "H6", "D6")
    assert js(st)["locks"]["color"] == "red"
    color_refused(st, 2, ["S8", "H8"])  # one red card is not enough: every card must be red
    color_refused(st, 2, ["S9", "C9"])
    play(st, 2, "H9", "D9")


def test_stairs_of_two_suits_of_one_color_lock_it():
    st = game("uecda", [["H3", "H4", "H5", "SK"], ["D6", "D7", "D8", "HA"], ["S9", "ST", "SJ", "HT", "HJ", "HQ"]],
              only("uecda", "color_lock", "stairs"))
    _, st = play(st, 0, "H3", "H4", "H5")
    _, st = play(st, 1, "D6", "D7", "D8")
    assert js(st)["locks"]["color"] == "red"
    color_refused(st, 2, ["S9", "ST", "SJ"])
    play(st, 2, "HT", "HJ", "HQ")


def test_the_color_lock_ends_when_the_field_flushes():
    st = game("uecda", [["H4", "SK"], ["D6", "SA"], ["S7", "DA"]], COLOR)
    _, st = play(st, 0, "H4")
    _, st = play(st, 1, "D6")
    st = passes(st, 2, 0)
    assert js(st)["field"] is None and js(st)["locks"]["color"] is None and js(st)["turn"] == 1
    play(st, 1, "SA")


def test_a_joker_stand_in_takes_a_suit_of_the_locked_color():
    st = game("uecda", [["H4", "D4", "SK"], ["H6", "D6", "HA"], ["S7", "JK1", "H7", "DA"]], COLOR)
    _, st = play(st, 0, "H4", "D4")
    _, st = play(st, 1, "H6", "D6")
    color_refused(st, 2, ["S7", "JK1"])  # ♠7 is black whatever the joker reads as
    color_refused(st, 2, ["H7", "JK1"], as_={"JK1": "C7"})
    v, _ = play(st, 2, "H7", "JK1")
    assert v.reading == {"JK1": "D7"}


def test_a_joker_stand_in_can_make_the_color_lock():
    st = game("uecda", [["H4", "D4", "SK"], ["H5", "JK1", "HA"], ["S7", "C7", "DA"]], COLOR)
    _, st = play(st, 0, "H4", "D4")
    v, st = play(st, 1, "H5", "JK1")  # equally strong readings: the one that locks (RULES.md §10.9)
    assert v.reading == {"JK1": "D5"} and "color_lock" in v.effects and js(st)["locks"]["color"] == "red"
    color_refused(st, 2, ["S7", "C7"])


def test_no_color_lock_from_a_stand_in_without_standin_effects():
    rules = only("uecda", "color_lock", jokers={"standin_effects": False})
    st = game("uecda", [["H4", "D4", "SK"], ["H5", "JK1", "HA"], ["S7", "C7", "DA"]], rules)
    _, st = play(st, 0, "H4", "D4")
    v, st = play(st, 1, "H5", "JK1", as_={"JK1": "D5"})
    assert "color_lock" not in v.effects and js(st)["locks"]["color"] is None
    play(st, 2, "S7", "C7")


def test_a_lone_joker_may_be_played_on_a_color_lock_which_stays():
    st = game("uecda", [["H4", "SK"], ["D6", "HA"], ["JK1", "DA"], ["S2", "H2"]], COLOR)
    _, st = play(st, 0, "H4")
    _, st = play(st, 1, "D6")
    v, st = play(st, 2, "JK1")
    assert "color_lock" not in v.effects and js(st)["locks"]["color"] == "red"


def test_joker_ends_lets_a_lone_joker_end_the_color_lock():
    rules = only("uecda", color_lock={"joker_ends": True})
    st = game("uecda", [["H4", "SK"], ["D6", "HA"], ["JK1", "DA"]], rules)
    _, st = play(st, 0, "H4")
    _, st = play(st, 1, "D6")
    v, st = play(st, 2, "JK1")
    assert js(st)["locks"]["color"] is None and "color_lock" not in v.effects  # the unlock is quiet


def test_a_suit_lock_and_a_color_lock_hold_together_the_suit_lock_the_stronger():
    rules = only("uecda", "suit_lock", "color_lock")
    st = game("uecda", [["H4", "SK"], ["H6", "HA"], ["D7", "S7", "H8", "DA"]], rules)
    _, st = play(st, 0, "H4")
    v, st = play(st, 1, "H6")
    assert {"suit_lock", "color_lock"} <= set(v.effects)
    assert js(st)["locks"]["suits"] == ["H"] and js(st)["locks"]["color"] == "red"
    assert refuse(st, 2, ["D7"], "locked").rule == "suit_lock"  # red, but not the locked suit
    assert refuse(st, 2, ["S7"], "locked").rule == "suit_lock"  # wrong for both: the stronger lock says so
    play(st, 2, "H8")


def test_a_suit_lock_may_come_on_top_of_a_color_lock():
    rules = only("uecda", "suit_lock", "color_lock")
    st = game("uecda", [["D4", "SK"], ["H6", "HA"], ["H7", "DA"], ["D8", "H9", "CA"]], rules)
    _, st = play(st, 0, "D4")
    v, st = play(st, 1, "H6")  # red on red: the color lock alone
    assert "color_lock" in v.effects and "suit_lock" not in v.effects and js(st)["locks"]["kind"] is None
    v, st = play(st, 2, "H7")  # ♥ on ♥: the suit lock too; the color lock is kept, not made again
    assert v.effects == ("suit_lock",) and js(st)["locks"]["color"] == "red"
    refuse(st, 3, ["D8"], "locked")
    play(st, 3, "H9")


def test_geki_an_undeclared_color_lock_does_not_lock():
    rules = only("gekifugo", "color_lock", "declarations_required")
    hands = [["H5", "S9"], ["D6", "SK"], ["S7", "DA"]]
    _, st = play(game("gekifugo", hands, rules), 0, "H5")
    _, st = play(st, 1, "D6")
    assert js(st)["locks"]["color"] is None
    _, st = play(game("gekifugo", hands, rules), 0, "H5")
    _, st = play(st, 1, "D6", declare=["color_lock"])
    color_refused(st, 2, ["S7"])
