"""Locks (RULES.md §5): suit_lock, partial_suit_lock, rank_lock."""
from .helpers import game, js, only, passes, play, refuse

SUIT = only("uecda", "suit_lock")
PARTIAL = only("uecda", "partial_suit_lock")


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
    assert js(st)["locks"] == {"suits": ["S"], "kind": "partial", "rank": False}
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
