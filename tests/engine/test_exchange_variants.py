"""Exchange variants (issue 29 item 8): ♠3 never forced into the strongest-cards give (exchange.keep_spade3), and a
higher player that may not give back a card it has just received (exchange.give_back: false). Seat 0 is the top,
seat 1 the second, seat 2 the second-last and seat 3 the bottom of the previous deal."""
from referee import legal_moves, state_from_json, state_to_json

from .helpers import bad, deal_again, deal_in_seat_order, give, hand, js, move, ok, only, pending

# the other seats' hands, in no tie and no exchange trouble: seat 1 and seat 2 exchange one card
OTHERS = [["S9", "S8", "SK"], ["HT", "H4"], ["D5", "DA", "D6"]]


def second_deal(preset: str, bottom: list, **exchange):
    rules = only(preset, exchange={"top": 2, "second": 1, **exchange})
    return deal_again(deal_in_seat_order(preset, rules), [*OTHERS, bottom])


# --- ♠3 is never forced into the give (exchange.keep_spade3) ------------------------------------------------------

def test_auto_ties_would_hand_over_spade3_unless_it_is_kept():
    # JK1 then one of the 3s: UECda's tie-break takes the spade first, keep_spade3 takes the next 3
    plain = second_deal("uecda", ["JK1", "S3", "H3"], auto_ties=True)
    assert {"JK1", "S3"} <= hand(plain, 0) and hand(plain, 3) == {"H3"}
    kept = second_deal("uecda", ["JK1", "S3", "H3"], auto_ties=True, keep_spade3=True)
    assert {"JK1", "H3"} <= hand(kept, 0) and hand(kept, 3) == {"S3"}


def test_a_hand_short_of_other_cards_keeps_spade3_and_gives_fewer():
    plain = second_deal("nanko", ["S3", "C5"])
    assert {"S3", "C5"} <= hand(plain, 0) and hand(plain, 3) == set()
    kept = second_deal("nanko", ["S3", "C5"], keep_spade3=True)
    assert "C5" in hand(kept, 0) and hand(kept, 3) == {"S3"}


def test_a_chosen_give_with_spade3_is_refused_naming_the_rule():
    # JK1 must go and one 3 of three: the bottom chooses, and under keep_spade3 never ♠3
    plain = second_deal("nanko", ["JK1", "S3", "H3", "D3"])
    assert pending(plain)[0] == (3, "give", 2, "exchange")
    ok(plain, move(3, "give", ["JK1", "S3"]))
    kept = second_deal("nanko", ["JK1", "S3", "H3", "D3"], keep_spade3=True)
    verdict = bad(kept, move(3, "give", ["JK1", "S3"]), "spade3_kept")
    assert verdict.rule == "exchange" and "exchange.keep_spade3" in verdict.message
    entry, = legal_moves(kept, 3)
    assert entry["cards"] == ["JK1"] and sorted(entry["choose"]["from"]) == ["D3", "H3"]
    _, st = ok(kept, move(3, "give", ["JK1", "D3"]))
    assert hand(st, 3) == {"S3", "H3"}


def test_spade3_kept_is_public_in_the_pending_give():
    kept = second_deal("nanko", ["JK1", "S3", "H3", "D3"], keep_spade3=True)
    assert js(kept)["pending"][0]["withheld"] == ["S3"]
    assert state_to_json(kept, 3)["pending"][0]["withheld"] == ["S3"]


# --- the top may not give back what it just received (exchange.give_back: false) ---------------------------------

def test_by_default_the_top_may_give_back_a_card_it_just_received():
    st = second_deal("nanko", ["C3", "C2", "JK1", "C7"])
    assert {"JK1", "C2"} <= hand(st, 0)
    ok(st, move(0, "give", ["C2", "S8"]))


def test_without_give_back_the_top_gives_from_the_cards_it_held_before():
    st = second_deal("nanko", ["C3", "C2", "JK1", "C7"], give_back=False)
    assert {"JK1", "C2"} <= hand(st, 0)                        # received at once: the strongest are unambiguous
    verdict = bad(st, move(0, "give", ["C2", "S8"]), "given_back")
    assert verdict.rule == "exchange" and "C2" in verdict.message and "exchange.give_back" in verdict.message
    entry, = legal_moves(st, 0)
    assert set(entry["choose"]["from"]) == {"S9", "S8", "SK"}
    st = give(st, 0, "S8", "S9")
    assert hand(st, 3) == {"C3", "C7", "S8", "S9"} and hand(st, 0) == {"SK", "JK1", "C2"}


def test_without_give_back_the_second_keeps_what_the_second_last_gave_it_too():
    st = second_deal("nanko", ["C3", "C2", "JK1", "C7"], give_back=False)
    st = give(st, 0, "S8", "S9")
    assert "DA" in hand(st, 1)
    bad(st, move(1, "give", ["DA"]), "given_back")
    st = give(st, 1, "H4")
    assert hand(st, 2) == {"D5", "D6", "H4"} and js(st)["phase"] == "play"


def test_what_the_top_received_shows_only_to_the_two_seats_and_survives_the_state_json():
    st = second_deal("nanko", ["C3", "C2", "JK1", "C7"], give_back=False)
    back = js(st)["pending"][0]
    assert back["seat"] == 0 and sorted(back["withheld"]) == ["C2", "JK1"]
    assert sorted(state_to_json(st, 3)["pending"][0]["withheld"]) == ["C2", "JK1"]
    assert state_to_json(st, 1)["pending"][0]["withheld"] == 2 == state_to_json(st, 2)["pending"][0]["withheld"]
    again = state_from_json(js(st))
    assert js(again) == js(st)
    bad(again, move(0, "give", ["JK1", "S8"]), "given_back")


def test_without_give_back_a_chosen_give_is_withheld_once_it_is_made():
    # the bottom chooses among the aces; only the ace it gave is withheld from the top's give back
    st = second_deal("nanko", ["SA", "HA", "CA", "C7"], give_back=False)
    st = give(st, 3, "SA", "CA")
    bad(st, move(0, "give", ["CA", "S8"]), "given_back")
    ok(st, move(0, "give", ["S9", "S8"]))


def test_without_give_back_a_requested_card_is_not_given_back_either():
    rules = only("gekifugo", "exchange_request", exchange={"top": 2, "second": 1, "give_back": False},
                 first_card=False)
    st = deal_again(deal_in_seat_order("gekifugo", rules), [*OTHERS, ["C3", "C2", "JK1", "C7"]])
    assert pending(st)[0] == (0, "request", 2, "exchange_request")
    _, st = ok(st, move(0, "request", rank="2"))              # the only 2 and the only joker: handed over at once
    _, st = ok(st, move(0, "request", rank="JK"))
    assert {"C2", "JK1"} <= hand(st, 0) and hand(st, 3) == {"C3", "C7"}
    assert pending(st)[0] == (0, "give", 2, "exchange")
    assert sorted(js(st)["pending"][0]["withheld"]) == ["C2", "JK1"]
    bad(st, move(0, "give", ["C2", "S8"]), "given_back")
    ok(st, move(0, "give", ["S9", "S8"]))


# --- which 2 the bottom gives when it holds two (exchange.auto_ties, already there) ----------------------------------

def test_the_bottom_holding_two_twos_chooses_one_unless_the_referee_breaks_ties():
    chosen = second_deal("nanko", ["D2", "S2", "C7"], top=1)
    assert pending(chosen)[0] == (3, "give", 1, "exchange")
    bad(chosen, move(3, "give", ["C7"]), "not_allowed")
    _, st = ok(chosen, move(3, "give", ["D2"]))
    assert hand(st, 3) == {"S2", "C7"}
    auto = second_deal("nanko", ["D2", "S2", "C7"], top=1, auto_ties=True)   # suits S, H, D, C: the spade goes
    assert "S2" in hand(auto, 0) and hand(auto, 3) == {"D2", "C7"}
