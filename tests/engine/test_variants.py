"""House-rule variants other tables play (docs/rules.md, "Variants"): each switch, with explicit hands."""
from __future__ import annotations

import pytest

from referee import InputError, new_game, state_to_json

from .helpers import deal_again, deal_in_seat_order, field, game, js, move, ok, only, passes, pending, places, play


def titles_after_first_finish(preset: str, rules=None) -> str:
    st = game(preset, [["S3"], ["H4", "D4"], ["C5", "H6"], ["C7", "H8"]], rules)
    _, st = play(st, 0, "S3")
    return state_to_json(st)["players"][0]["title"]


def test_titles_follow_the_preset_not_capital_fall():
    assert titles_after_first_finish("gekifugo") == "檄富豪"
    assert titles_after_first_finish("gekifugo", {"capital_fall": False}) == "檄富豪"
    assert titles_after_first_finish("nanko", {"capital_fall": True}) == "大富豪"
    assert titles_after_first_finish("uecda", {"capital_fall": True}) == "大富豪"


# --- 9切り (nine_cut) ---------------------------------------------------------------------------------------------

NINE_CUT = only("uecda", "nine_cut")


def test_two_nines_cut_and_their_player_leads():
    st = game("uecda", [["S9", "H9", "S4"], ["DA", "CA"], ["D5"], ["C6"], ["C7"]], NINE_CUT)
    v, st = play(st, 0, "S9", "H9")
    assert v.effects == ("nine_cut",)
    assert field(st) is None and js(st)["turn"] == 0


def test_a_lone_nine_cuts_nothing_unless_count_is_one():
    hands = [["S9", "S4"], ["DA"], ["D5"], ["C6"], ["C7"]]
    v, st = play(game("uecda", hands, NINE_CUT), 0, "S9")
    assert v.effects == () and field(st) == {"S9"} and js(st)["turn"] == 1
    v, st = play(game("uecda", hands, only("uecda", nine_cut={"count": 1})), 0, "S9")
    assert v.effects == ("nine_cut",) and field(st) is None and js(st)["turn"] == 0


def test_a_joker_standing_in_for_a_nine_counts():
    st = game("uecda", [["S9", "JK1", "S4"], ["DA", "CA"], ["D5"], ["C6"], ["C7"]], NINE_CUT)
    v, st = play(st, 0, "S9", "JK1", as_={"JK1": "H9"})
    assert v.effects == ("nine_cut",) and field(st) is None


def test_nine_cut_and_nine_reverse_both_fire():
    st = game("nanko", [["S9", "H9", "S4"], ["DA", "CA"], ["D5", "D6"]], only("nanko", "nine_cut", "nine_reverse"))
    v, st = play(st, 0, "S9", "H9")
    assert set(v.effects) == {"nine_cut", "nine_reverse"}
    assert field(st) is None and js(st)["turn"] == 0 and js(st)["direction"] == -1


def test_a_nine_cut_opens_the_cut_back_window():
    st = game("nanko", [["S9", "H9", "S4"], ["JK1", "JK2", "CA"], ["D5", "D6"]], only("nanko", "nine_cut", "cut_back"))
    _, st = play(st, 0, "S9", "H9")
    assert {p[1] for p in pending(st)} == {"cut_back"}
    _, st = ok(st, move(1, "cut_back", ["JK1", "JK2"]))        # seat 1 cuts back with as many jokers
    assert field(st) is None and js(st)["turn"] == 1


# --- 5とばし with another rank (five_skip.rank) --------------------------------------------------------------------

def test_k_skip_skips_as_many_players_as_kings():
    rules = only("nanko", five_skip={"rank": "K"})
    hands = [["SK", "HK", "S4"], ["DA"], ["D2"], ["C6", "C2"]]
    v, st = play(game("nanko", hands, rules), 0, "SK")
    assert v.effects == ("five_skip",) and js(st)["turn"] == 2
    v, st = play(game("nanko", hands, rules), 0, "SK", "HK")
    assert v.effects == ("five_skip",) and js(st)["turn"] == 3


def test_with_k_skip_a_five_skips_nobody():
    st = game("nanko", [["S5", "S4"], ["DA"], ["D2"], ["C6"]], only("nanko", five_skip={"rank": "K"}))
    v, st = play(st, 0, "S5")
    assert v.effects == () and js(st)["turn"] == 1


def test_a_skipping_rank_must_be_a_rank():
    with pytest.raises(InputError) as err:
        new_game("nanko", {"five_skip": {"rank": "X"}}, ["a", "b", "c"], 1)
    assert err.value.code == "bad_rules" and "five_skip.rank" in err.value.message


# --- revolution by groups only (revolution.by_stairs) ---------------------------------------------------------------

def test_groups_only_a_four_card_stairs_is_no_revolution():
    hands = [["S3", "S4", "S5", "S6", "H7", "D7", "C7", "S7"], ["DA"], ["D2"], ["C2"]]
    rules = only("nanko", revolution={"min_group": 4, "min_stairs": 4, "by_stairs": False})
    v, st = play(game("nanko", hands, rules), 0, "S3", "S4", "S5", "S6")
    assert v.effects == () and js(st)["revolution"] is False
    v, st = play(game("nanko", hands, rules), 0, "H7", "D7", "C7", "S7")
    assert v.effects == ("revolution",) and js(st)["revolution"] is True
    v, st = play(game("nanko", hands, only("nanko", "revolution")), 0, "S3", "S4", "S5", "S6")
    assert v.effects == ("revolution",)


# --- 都落ち only when the previous bottom finishes first (capital_fall.trigger) --------------------------------------

BOTTOM = only("gekifugo", capital_fall={"trigger": "bottom"})


def test_with_trigger_bottom_another_first_finisher_makes_nobody_fall():
    st = deal_again(deal_in_seat_order("gekifugo", BOTTOM), [["S9", "SK"], ["H5"], ["D6", "DA"], ["C3", "CA"]])
    _, st = play(st, 3, "C3")
    st = passes(st, 0)
    v, st = play(st, 1, "H5")                                   # seat 1 was second: the top stays
    assert "capital_fall" not in v.effects and places(st) == [None, 1, None, None]


def test_with_trigger_bottom_the_previous_bottom_finishing_first_makes_the_top_fall():
    st = deal_again(deal_in_seat_order("gekifugo", BOTTOM), [["S9", "SK"], ["H5", "HA"], ["D6", "DA"], ["C3"]])
    v, st = play(st, 3, "C3")                                   # seat 3 was last
    assert "capital_fall" in v.effects and places(st) == [4, None, None, 1]


# --- forbidden finish: the order read, and jokers standing in (forbidden_finish.order, .standin) --------------------

def _out_with_a_three_under_jack_back(order: str) -> list:
    rules = only("gekifugo", "jack_back", forbidden_finish={"strongest_rank": True, "order": order})
    st = game("gekifugo", [["HJ", "S5"], ["H3"], ["D6", "DA"], ["C7", "CA"]], rules)
    _, st = play(st, 0, "HJ")                                   # jack back: 3 is the strongest until the flush
    _, st = play(st, 1, "H3")
    return places(st)


def test_a_three_under_jack_back_is_a_forbidden_finish_in_the_order_in_force():
    assert _out_with_a_three_under_jack_back("in_force") == [None, 4, None, None]


def test_read_in_the_order_before_the_jack_a_three_finishes_freely():
    assert _out_with_a_three_under_jack_back("revolution") == [None, 1, None, None]


def _out_with_a_joker_as_a_two(standin: bool) -> list:
    rules = only("uecda", forbidden_finish={"joker": False, "strongest_rank": True, "standin": standin})
    st = game("uecda", [["SK", "SA", "JK1"], ["H4"]], rules)
    _, st = play(st, 0, "SK", "SA", "JK1", as_={"JK1": "S2"})  # stairs ♠K ♠A (joker as ♠2)
    return places(st)


def test_a_joker_standing_in_for_a_two_counts_as_a_two_by_default():
    assert _out_with_a_joker_as_a_two(True) == [2, 1]


def test_with_standin_off_only_a_real_two_makes_the_finish_forbidden():
    assert _out_with_a_joker_as_a_two(False) == [1, 2]


# --- jack back by parity, or kept by a second J (jack_back.again) ---------------------------------------------------

def _order_after_two_jacks(again: str) -> str:
    rules = only("gekifugo", jack_back={"again": again})
    st = game("gekifugo", [["HJ", "HQ", "HK", "S5"], ["DT", "DJ", "DQ", "D4"], ["C6", "CA"]], rules)
    _, st = play(st, 0, "HJ", "HQ", "HK")
    assert js(st)["order"] == "reversed"
    v, st = play(st, 1, "DT", "DJ", "DQ")                       # lower stairs beat in the reversed order
    return js(st)["order"]


def test_a_second_jack_restores_the_order_by_default():
    assert _order_after_two_jacks("restores") == "normal"


def test_with_again_keeps_a_second_jack_leaves_the_order_reversed():
    assert _order_after_two_jacks("keeps") == "reversed"


# --- exchange by table size (exchange.by_size) ----------------------------------------------------------------------

def _after_one_deal(players: int, rules, preset: str = "nanko") -> dict:
    """The second deal's state after a first deal in which seat i finished i-th."""
    st = deal_in_seat_order(preset, rules, players)
    deck = ["H3", "D3", "C3", "H4", "D4", "C4", "H5", "D5", "C5", "H6", "D6", "C6", "H7", "D7", "C7", "H8", "D8",
            "C8", "H9", "D9", "C9", "HT", "DT", "CT", "HJ", "DJ", "CJ", "HQ", "DQ", "CQ", "HK", "DK", "CK", "HA",
            "DA", "CA", "H2", "D2"]
    return js(deal_again(st, [deck[i::players] for i in range(players)]))


def test_by_table_size_six_players_exchange_three_two_and_one():
    rules = only("nanko", exchange={"by_size": True})
    st = _after_one_deal(6, rules)
    assert st["exchange_counts"] == [3, 2, 1]
    # the lower players' strongest cards went up already (no choice left); the higher ones give back as many
    assert [(p["seat"], p["count"], p["to"]) for p in st["pending"]] == [(0, 3, 5), (1, 2, 4), (2, 1, 3)]
    assert [p["hand_count"] for p in st["players"]] == [10, 9, 7, 5, 4, 3]  # dealt 7, 7, 6, 6, 6, 6


def test_by_table_size_three_players_exchange_one_card():
    st = _after_one_deal(3, only("nanko", exchange={"by_size": True}))
    assert st["exchange_counts"] == [1]
    assert [(p["seat"], p["count"], p["to"]) for p in st["pending"]] == [(0, 1, 2)]


def test_by_table_size_eight_players_exchange_four_three_two_one():
    # nanko is played by 3 to 6 (RULES.md §8): eight seats are a uecda (or gekifugo) table
    assert _after_one_deal(8, only("uecda", exchange={"by_size": True}), "uecda")["exchange_counts"] == [4, 3, 2, 1]


def test_without_by_size_middle_pairs_never_exchange():
    st = _after_one_deal(6, only("nanko", "exchange"))
    assert st["exchange_counts"] == [2, 1] and [p["seat"] for p in st["pending"]] == [0, 1]


# --- the cut-back window reads public facts only (cut_back) ---------------------------------------------------------

def test_no_window_opens_when_the_only_other_joker_is_out_of_play():
    # a partial deal: JK2 was never dealt (out_of_play), so after seat 1 cuts back with JK1 nobody could answer
    st = game("nanko", [["S3", "H8", "CK"], ["JK1", "D4"], ["SA", "HQ"], ["C6", "CA"]])
    assert "JK2" in js(st)["out_of_play"]
    _, st = play(st, 0, "S3")
    st = passes(st, 1, 2, 3)
    _, st = play(st, 0, "H8")                                   # 8-cut: seat 1 holds a joker, the window opens
    assert {p[0] for p in pending(st)} == {1, 2, 3}
    _, st = ok(st, move(1, "cut_back", ["JK1"]))
    assert pending(st) == [] and field(st) is None and js(st)["turn"] == 1


# --- a joker standing in fires nothing (jokers.standin_effects) -----------------------------------------------------

NO_STANDIN = {"jokers": {"count": 2, "standin_effects": False}}


@pytest.mark.parametrize("rule, low, high, stand_in", [
    ("eight_cut", "S7", "S9", "S8"), ("jack_back", "ST", "SQ", "SJ"), ("nine_reverse", "S8", "ST", "S9"),
    ("five_skip", "S4", "S6", "S5"), ("ten_discard", "S9", "SJ", "ST"), ("seven_pass", "S6", "S8", "S7")])
def test_a_joker_standing_in_for_the_rank_fires_its_effect_only_by_default(rule, low, high, stand_in):
    hands = [[low, high, "JK1", "D4"], ["DA", "CA"], ["D5", "D6"]]
    stairs = (low, "JK1", high)

    def effects(rules):
        v, _ = play(game("nanko", hands, rules), 0, *stairs, as_={"JK1": stand_in})
        return v.effects

    assert effects(only("nanko", rule)) == (rule,)
    assert effects({**only("nanko", rule), **NO_STANDIN}) == ()


def test_a_real_card_still_fires_beside_a_joker_and_only_the_real_ones_count():
    hands = [["S7", "JK1", "S4", "S5", "S6"], ["DA", "CA"], ["D5", "D6"]]
    _, st = play(game("nanko", hands, {**only("nanko", "seven_pass"), **NO_STANDIN}), 0, "S7", "JK1")
    assert pending(st)[0][2] == 1                               # a pair of 7s, one of them real: one card to give
    _, st = play(game("nanko", hands, only("nanko", "seven_pass")), 0, "S7", "JK1")
    assert pending(st)[0][2] == 2


def test_a_joker_standing_in_for_a_suit_makes_no_lock():
    hands = [["H5", "S5", "D4"], ["H8", "JK1", "D9"], ["HT", "D6"]]

    def locked(rules):
        _, st = play(game("uecda", hands, rules), 0, "H5", "S5")
        _, st = play(st, 1, "H8", "JK1", as_={"JK1": "S8"})     # ♥8 + joker as ♠8 on ♥5 ♠5: the same suits
        return js(st)["locks"]["suits"]

    assert locked(only("uecda", "suit_lock")) == ["S", "H"]
    assert locked({**only("uecda", "suit_lock"), **NO_STANDIN}) == []


# --- passers sit out and the field's owner does not play on (pass_until_flush.owner_plays_on) -----------------------

def _after_everyone_else_passes(owner_plays_on: bool):
    rules = only("uecda", pass_until_flush={"owner_plays_on": owner_plays_on})
    st = game("uecda", [["S5", "S6", "S7"], ["D4", "DA"], ["C4", "CA"]], rules)
    _, st = play(st, 0, "S5")
    return passes(st, 1, 2)


def test_by_default_the_owner_gets_the_turn_back_on_its_own_cards():
    st = _after_everyone_else_passes(True)
    assert field(st) == {"S5"} and js(st)["turn"] == 0
    _, st = play(st, 0, "S6")                                   # it plays over its own cards
    assert field(st) == {"S6"}


def test_without_owner_plays_on_the_field_flushes_and_the_owner_leads():
    st = _after_everyone_else_passes(False)
    assert field(st) is None and js(st)["turn"] == 0 and js(st)["passed"] == []


def test_without_owner_plays_on_passers_still_sit_out_until_the_flush():
    rules = only("uecda", pass_until_flush={"owner_plays_on": False})
    st = game("uecda", [["S5", "S9", "S7"], ["D4", "D6", "DA"], ["C4", "C8", "CA"]], rules)
    _, st = play(st, 0, "S5")
    st = passes(st, 1)
    _, st = play(st, 2, "C8")
    _, st = play(st, 0, "S9")                                   # seat 1 passed: it sits out, seat 2 is next
    assert js(st)["turn"] == 2
    st = passes(st, 2)                                          # everyone but seat 0 has passed: seat 0 leads
    assert field(st) is None and js(st)["turn"] == 0


# --- 5とばし round the table: a flush instead of コンボ, skips that wrap (five_skip.round, five_skip.wrap) ------------

def _after_fives(fives: list[str], **params):
    st = game("nanko", [[*fives, "S4"], ["DA", "CA"], ["D6", "C6"]], only("nanko", five_skip=params or True))
    _, st = play(st, 0, *fives)
    return st


def test_by_default_two_fives_at_three_players_come_back_round_as_a_combo():
    st = _after_fives(["H5", "D5"])
    assert field(st) == {"H5", "D5"} and js(st)["turn"] == 0


def test_with_round_flush_the_skipping_round_flushes_the_field_and_the_player_leads():
    st = _after_fives(["H5", "D5"], round="flush")
    assert field(st) is None and js(st)["turn"] == 0 and "H5" in js(st)["discard_pile"]


def test_without_wrap_skips_beyond_the_table_stop_at_the_player():
    st = _after_fives(["H5", "D5", "C5"])
    assert field(st) == {"H5", "D5", "C5"} and js(st)["turn"] == 0


def test_with_wrap_the_players_own_turn_is_skipped_too_and_counts_as_a_pass():
    """Three skips at three seats skip seats 1 and 2 and then seat 0's own turn: every skipped turn is a pass, so
    the trick ends and the next seat leads (コンボ or not: the player's turn is the one skipped)."""
    for round_ in ("combo", "flush"):
        st = _after_fives(["H5", "D5", "C5"], wrap=True, round=round_)
        assert field(st) is None and js(st)["turn"] == 1, round_
        assert {"H5", "D5", "C5"} <= set(js(st)["discard_pile"])


def test_with_wrap_skips_left_after_the_trick_ends_skip_the_leads():
    st = game("nanko", [["H5", "D5", "C5", "JK1", "S4"], ["DA", "CA"], ["D6", "C6"]],
              only("nanko", five_skip={"wrap": True}))
    v, st = play(st, 0, "H5", "D5", "C5", "JK1")                # skips 1, 2, 0 (the trick ends), then 1's lead
    assert v.reading == {"JK1": "S5"} and field(st) is None and js(st)["turn"] == 2


def test_qsonas_k_skip_test_point():
    """nanko, every optional rule off but five_skip {rank: K, round: flush, wrap: true}; HK DK CK H3 | S4 S6 |
    C8 CJ; seat 0 plays HK DK CK: seats 1 and 2 are skipped (the round flushes the field), then seat 0's own lead:
    seat 1 leads on an empty field."""
    st = game("nanko", [["HK", "DK", "CK", "H3"], ["S4", "S6"], ["C8", "CJ"]],
              only("nanko", five_skip={"rank": "K", "round": "flush", "wrap": True}))
    v, st = play(st, 0, "HK", "DK", "CK")
    assert v.effects == ("five_skip",)
    assert field(st) is None and js(st)["turn"] == 1 and {"HK", "DK", "CK"} <= set(js(st)["discard_pile"])
    v, st = ok(st, move(1, "play", ["S4"]))
    assert field(st) == {"S4"}

