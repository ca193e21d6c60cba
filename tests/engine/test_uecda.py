"""The uecda preset against the UEC contest server's reference behaviour (FujiGokoroUECda, src/server/)."""
from referee.state import replace

import pytest

from referee import InputError, apply, next_deal
from referee.narrate import outcome_text

from .helpers import game, hand, js, ok, pass_, passes, play, places, refuse


def led_by(st, seat):
    return replace(st, turn=seat)


def test_one_joker_in_the_deck():
    st = game("uecda", [["S3"], ["H4"]])
    assert st.rules.params("jokers")["count"] == 1
    with pytest.raises(InputError, match="JK2"):
        game("uecda", [["JK2"], ["H4"]])


def test_diamond_three_holder_leads_without_a_duty_to_play_it():
    st = game("uecda", [["S4", "H9"], ["D3", "C5"], ["S6", "H7"]])
    assert st.turn == 1
    _, st = play(st, 1, "C5")
    assert "D3" in hand(st, 1)


def test_stairs_compare_above_the_old_strongest():
    # RULES.md §9 example 6: after ♠4-5-6, ♥6-7-8 is too weak and ♥7-8-9 is legal and cuts
    st = game("uecda", [["S4", "S5", "S6", "D3"], ["H6", "H7", "H8", "H9", "C3"], ["SK", "CK"]])
    st = led_by(st, 0)
    _, st = play(st, 0, "S4", "S5", "S6")
    refuse(st, 1, ["H6", "H7", "H8"], "too_weak")
    verdict, st = play(st, 1, "H7", "H8", "H9")
    assert "eight_cut" in verdict.effects
    assert js(st)["field"] is None and st.turn == 1


def test_revolution_needs_four_of_a_kind_or_five_stairs():
    st = game("uecda", [["S5", "H5", "D5", "C5", "S9"], ["H6", "H7", "H8", "H9", "HT", "D3"]])
    verdict, st2 = play(st, 1, "H6", "H7", "H8", "H9", "HT")
    assert "revolution" in verdict.effects and js(st2)["revolution"]
    st = game("uecda", [["S5", "H5", "D5", "C5", "S9"], ["H6", "H7", "H9", "D3"]], rules=None)
    st = led_by(st, 0)
    verdict, st = play(st, 0, "S5", "H5", "D5", "C5")
    assert "revolution" in verdict.effects


def test_four_card_stairs_is_no_revolution_in_uecda():
    st = game("uecda", [["H6", "H7", "H8", "H9", "D3"], ["S4"]])
    verdict, st = play(st, 0, "H6", "H7", "H8", "H9")
    assert "revolution" not in verdict.effects and not js(st)["revolution"]


def test_five_card_group_with_the_joker_is_a_revolution():
    st = game("uecda", [["S5", "H5", "D5", "C5", "JK1", "D3"], ["S4"]])
    verdict, st = play(st, 0, "S5", "H5", "D5", "C5", "JK1")
    assert "revolution" in verdict.effects


def test_lone_joker_on_a_suit_lock_is_legal_and_ends_it():
    st = game("uecda", [["S4", "S9", "D3"], ["S6", "HK"], ["JK1", "C7"]])
    st = led_by(st, 0)
    _, st = play(st, 0, "S4")
    _, st = play(st, 1, "S6")
    assert js(st)["locks"]["suits"] == ["S"]
    refuse(st, 2, ["C7"], "locked")
    verdict, st = play(st, 2, "JK1")
    assert js(st)["locks"]["suits"] == []


def test_spade_three_beats_a_lone_joker_and_flushes():
    st = game("uecda", [["JK1", "H9"], ["C2", "HK"], ["S3", "D7"]])
    _, st = play(st, 0, "JK1")
    refuse(st, 1, ["C2"], "too_weak")
    st = pass_(st, 1)
    verdict, st = play(st, 2, "S3")
    assert "spade3" in verdict.effects
    assert js(st)["field"] is None and st.turn == 2


def test_a_pass_sits_out_until_the_flush_and_the_owner_may_play_over_its_own_cards():
    # RULES.md §3 pass_until_flush, UECDA.md §6: seat 1 passed, so the turn skips it until the flush
    st = game("uecda", [["S4", "SK", "SA", "C9"], ["D5", "C2", "H3"], ["H6", "HQ", "C4"]])
    st = led_by(st, 0)
    _, st = play(st, 0, "S4")
    st = pass_(st, 1)
    _, st = play(st, 2, "H6")
    _, st = play(st, 0, "SK")
    assert st.turn == 2 and js(st)["passed"] == [1]
    refuse(st, 1, ["C2"], "not_your_turn")
    st = pass_(st, 2)
    # every other active player has passed: the turn comes back to the field's owner, the field stays
    assert st.turn == 0 and set(js(st)["field"]["cards"]) == {"SK"}
    verdict, st = play(st, 0, "SA")
    assert verdict.legal and st.turn == 0
    st = pass_(st, 0)
    # the owner's pass: everyone has passed since the last flush, so it flushes and the last player leads
    assert js(st)["field"] is None and st.turn == 0 and js(st)["passed"] == []


def test_a_play_resets_nobodys_pass():
    st = game("uecda", [["S4", "S9", "C9"], ["D5", "C2", "H3"], ["H6", "HQ", "C4"], ["D7", "DK", "C5"]])
    st = led_by(st, 0)
    _, st = play(st, 0, "S4")
    st = pass_(st, 1)
    _, st = play(st, 2, "H6")
    _, st = play(st, 3, "D7")
    _, st = play(st, 0, "S9")
    assert st.turn == 2  # seat 1 is still out after two more plays
    st = pass_(st, 2)
    st = pass_(st, 3)
    assert st.turn == 0 and js(st)["field"] is not None
    st = pass_(st, 0)
    assert js(st)["field"] is None and st.turn == 0


def test_when_the_last_player_has_finished_the_next_active_player_leads_after_the_flush():
    st = game("uecda", [["S4", "SK"], ["D5", "C2", "H3"], ["H6", "HQ", "C4"]])
    st = led_by(st, 0)
    _, st = play(st, 0, "S4")
    _, st = play(st, 1, "D5")
    _, st = play(st, 2, "H6")
    _, st = play(st, 0, "SK")
    assert places(st)[0] == 1 and st.turn == 1
    st = pass_(st, 1)
    assert st.turn == 2
    st = pass_(st, 2)
    assert js(st)["field"] is None and st.turn == 1


def test_without_pass_until_flush_a_pass_does_not_bar_a_later_play():
    # RULES.md §3 for every preset without the switch: the turn coming back to the owner flushes
    st = game("uecda", [["S4", "SK", "C9"], ["D5", "C2", "H3"], ["H6", "HQ", "C4"]], rules={"pass_until_flush": False})
    st = led_by(st, 0)
    _, st = play(st, 0, "S4")
    st = pass_(st, 1)
    _, st = play(st, 2, "H6")
    _, st = play(st, 0, "SK")
    verdict, st = play(st, 1, "C2")
    assert verdict.legal


def test_pass_until_flush_switched_on_in_nanko():
    st = game("nanko", [["S4", "SK", "C9"], ["D5", "C2", "H3"], ["H6", "HQ", "C4"]],
              rules={"pass_until_flush": True, "suit_lock": False})
    st = led_by(st, 0)
    _, st = play(st, 0, "S4")
    st = pass_(st, 1)
    _, st = play(st, 2, "H6")
    _, st = play(st, 0, "SK")
    assert st.turn == 2


def test_the_leader_may_pass_on_an_empty_field_and_leads_again_when_nobody_plays():
    # UECDA.md §6/§9 T76: a pass while leading is accepted; if nobody plays before the flush the leader leads again
    st = game("uecda", [["S4", "SK", "D3"], ["D5", "C2", "H3"], ["H6", "HQ", "C4"]])
    assert st.turn == 0
    st = pass_(st, 0)
    assert st.turn == 1 and js(st)["field"] is None
    st = pass_(st, 1)
    st = pass_(st, 2)
    assert st.turn == 0 and js(st)["field"] is None and js(st)["passed"] == []
    st = pass_(st, 0)
    _, st = play(st, 1, "D5")  # a later player may lead the trick instead
    assert st.turn == 2


def test_a_lead_pass_is_refused_without_lead_pass():
    st = game("uecda", [["S4", "D3"], ["D5", "H3"]], rules={"lead_pass": False})
    from .helpers import bad, move
    verdict = bad(st, move(0, "pass"), "must_play")
    assert verdict.rule == "lead_pass"
    st = game("nanko", [["S3", "D4"], ["D5", "H3"], ["C9"]])
    bad(st, move(0, "pass"), "must_play")


def test_twenty_passes_in_a_row_abort_the_deal_with_seeded_random_places():
    # UECDA.md §6 renzoku pass: legal passes on an empty field count too; the remaining places are random
    hands = [["S4", "SK", "D3"], ["D5", "C2", "H3", "S5"], ["H6", "HQ", "C4"], ["C7", "C8"]]
    st = game("uecda", hands)
    _, st = play(st, 0, "S4")
    _, st = play(st, 1, "D5")
    _, st = play(st, 2, "H6")
    _, st = play(st, 3, "C7")
    _, st = play(st, 0, "SK")
    _, st = play(st, 1, "C2")  # nobody can beat it
    st = passes(st, 2, 3, 0)
    assert st.turn == 1 and js(st)["idle_turns"] == 3
    st = pass_(st, 1)  # the owner passes: flush, it leads
    _, st = play(st, 1, "H3")  # a play resets the count
    assert js(st)["idle_turns"] == 0
    turns = []
    for i in range(19):
        turns.append(st.turn)
        st = pass_(st, st.turn)
        assert st.phase == "play"
    # three others, the owner (flush), then four lead passes around the table, and so on
    assert turns[:9] == [2, 3, 0, 1, 1, 2, 3, 0, 1]
    assert js(st)["idle_turns"] == 19
    verdict, st2, events = apply(st, {"seat": st.turn, "action": "pass"})
    assert verdict.legal and st2.phase == "deal_over" and st2.ended_by == "pass_abort"
    assert sorted(places(st2)) == [1, 2, 3, 4]
    abort = next(o for o in events[0]["outcome"] if o["kind"] == "abort")
    assert abort["passes"] == 20 and abort["rule"] == "pass_abort"
    assert "aborted" in outcome_text(abort)
    again = apply(st, {"seat": st.turn, "action": "pass"})[1]
    assert places(again) == places(st2)  # drawn from the seed: the same every time


def test_the_abort_keeps_the_places_already_taken():
    st = game("uecda", [["S4"], ["D5", "C2", "H3"], ["H6", "HQ", "D3"]], rules={"pass_abort": {"turns": 3}})
    st = led_by(st, 0)
    _, st = play(st, 0, "S4")
    assert places(st)[0] == 1
    st = passes(st, 1, 2)
    assert js(st)["field"] is None and st.turn == 1  # seat 0 finished: the next active seat leads
    st = pass_(st, 1)
    assert st.phase == "deal_over" and places(st)[0] == 1 and sorted(places(st)[1:]) == [2, 3]


def test_the_diamond_three_holder_after_the_exchange_leads_every_deal():
    st = game("uecda", [["D3"], ["S4"], ["H6"], ["D8"], ["HT"]])
    for seat, card in enumerate(["D3", "S4", "H6", "D8"]):
        _, st = play(st, seat, card)
    deal = [["D3", "S7", "H8", "C9"], ["DT", "CJ"], ["SQ", "HQ"], ["DK", "CK", "C4"], ["SA", "HA", "DA", "S6"]]
    new, _ = next_deal(st, hands=deal)
    assert new.phase == "exchange"
    _, new = ok(new, {"seat": 0, "action": "give", "cards": ["D3", "S7"]})
    _, new = ok(new, {"seat": 1, "action": "give", "cards": ["DT"]})
    # seat 0 gave the D3 to the last-placed seat 4, which now leads (it would lead anyway as the last-placed)
    assert new.phase == "play" and new.turn == 4
    deal[0], deal[2] = deal[2], deal[0]
    new, _ = next_deal(st, hands=deal)
    _, new = ok(new, {"seat": 0, "action": "give", "cards": ["SQ", "HQ"]})
    _, new = ok(new, {"seat": 1, "action": "give", "cards": ["DT"]})
    assert new.turn == 2  # seat 2 kept the D3: it leads, not the last-placed seat 4
    off = game("uecda", [["D3"], ["S4"], ["H6"], ["D8"], ["HT"]], rules={"first_card": {"every_deal": False}})
    for seat, card in enumerate(["D3", "S4", "H6", "D8"]):
        _, off = play(off, seat, card)
    new, _ = next_deal(off, hands=deal)
    _, new = ok(new, {"seat": 0, "action": "give", "cards": ["SQ", "HQ"]})
    _, new = ok(new, {"seat": 1, "action": "give", "cards": ["DT"]})
    assert new.turn == 4


def test_no_forbidden_finish_in_uecda():
    st = game("uecda", [["C2"], ["S4", "S5"], ["H6", "H7"]])
    st = led_by(st, 0)
    _, st = play(st, 0, "C2")
    assert places(st)[0] == 1


def test_exchange_takes_the_strongest_cards_automatically_even_when_tied():
    st = game("uecda", [["D3"], ["S4"], ["H6"], ["D8"], ["HT"]])
    for seat, card in enumerate(["D3", "S4", "H6", "D8"]):
        _, st = play(st, seat, card)
    assert places(st) == [1, 2, 3, 4, 5]
    deal = [["S7", "H8", "C9"], ["DT", "CJ"], ["SQ", "HQ"], ["DK", "CK", "C3"], ["SA", "HA", "DA", "S6"]]
    new, _ = next_deal(st, hands=deal)
    # ties among the three aces are broken S, H, D: no decision is left to the last player
    assert {"SA", "HA"} <= hand(new, 0) and "DA" in hand(new, 4)
    assert "DK" in hand(new, 1)
    assert [(p["seat"], p["action"], p["count"]) for p in js(new)["pending"]] == [(0, "give", 2), (1, "give", 1)]


def test_the_uecda_flow_is_in_the_catalogue_and_the_uecda_preset():
    from referee import catalog

    cat = catalog()
    rules = {r["id"]: r for r in cat["rules"]}
    for rid in ("pass_until_flush", "lead_pass", "pass_abort"):
        assert rules[rid]["presets"] == ["uecda"] and cat["presets"]["uecda"][rid] is not False
        assert cat["presets"]["nanko"][rid] is False and cat["presets"]["gekifugo"][rid] is False
    assert rules["pass_abort"]["params"]["turns"]["default"] == 20
    assert rules["first_card"]["params"]["every_deal"]["default"] is False
    assert cat["presets"]["uecda"]["first_card"]["every_deal"] is True
    assert cat["presets"]["uecda"]["suit_lock"] == {"joker_ends": True}
    assert cat["presets"]["nanko"]["suit_lock"] == {"joker_ends": False}
