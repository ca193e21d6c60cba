"""The exchange from the second deal (RULES.md §4): exchange, exchange_request, inflation."""
from .helpers import bad, deal_again, deal_in_seat_order, game, give, hand, js, move, ok, only, passes, pending, places, play


EX = only("nanko", exchange={"top": 2, "second": 1})


def test_the_bottom_gives_its_strongest_and_the_top_gives_back_its_choice():
    st = deal_in_seat_order("nanko", EX)
    st = deal_again(st, [["S9", "S3", "SK"], ["HT", "H4"], ["D5", "DA", "D6"], ["C3", "C2", "JK1", "C7"]])
    assert js(st)["phase"] == "exchange"
    # the strongest cards left without a choice: JK1 C2 to seat 0, DA to seat 1
    assert {"JK1", "C2"} <= hand(st, 0) and "DA" in hand(st, 1)
    assert hand(st, 3) == {"C3", "C7"} and hand(st, 2) == {"D5", "D6"}
    assert pending(st) == [(0, "give", 2, "exchange"), (1, "give", 1, "exchange")]
    bad(st, move(1, "give", ["H4"]), "pending_decision")
    bad(st, move(0, "give", ["S3"]), "wrong_count")
    st = give(st, 0, "S3", "S9")
    st = give(st, 1, "H4")
    assert hand(st, 3) == {"C3", "C7", "S3", "S9"} and hand(st, 2) == {"D5", "D6", "H4"}
    assert hand(st, 0) == {"SK", "JK1", "C2"} and hand(st, 1) == {"HT", "DA"}
    assert js(st)["phase"] == "play" and js(st)["turn"] == 3      # the previous bottom leads


def test_the_giver_chooses_among_equally_strong_cards():
    st = deal_in_seat_order("nanko", EX)
    st = deal_again(st, [["S9", "S3"], ["HT", "H4"], ["D5", "D6"], ["SA", "HA", "DA", "C7"]])
    assert pending(st)[0] == (3, "give", 2, "exchange")
    bad(st, move(3, "give", ["SA", "C7"]), "not_allowed")
    st = give(st, 3, "SA", "DA")
    assert hand(st, 0) >= {"SA", "DA"} and hand(st, 3) == {"HA", "C7"}


def test_uecda_ties_are_broken_by_the_referee():
    rules = only("uecda", exchange={"top": 2, "second": 1, "auto_ties": True})
    st = deal_in_seat_order("uecda", rules)
    st = deal_again(st, [["S9", "S3"], ["HT", "H4"], ["D5", "D6"], ["SA", "HA", "DA", "C7"]])
    assert pending(st)[0][0] == 0 and len(hand(st, 3)) == 2 and "C7" in hand(st, 3)


def test_three_players_exchange_only_top_and_bottom():
    st = deal_in_seat_order("nanko", EX, n=3)
    st = deal_again(st, [["S9", "S3"], ["HT", "H4"], ["D5", "DA", "D2"]])
    assert hand(st, 0) == {"S9", "S3", "DA", "D2"} and hand(st, 1) == {"HT", "H4"}
    assert pending(st) == [(0, "give", 2, "exchange")]


def test_middle_players_never_exchange():
    st = deal_in_seat_order("nanko", EX, n=5)
    st = deal_again(st, [["S9", "S3"], ["HT", "H4"], ["C9", "CK"], ["D5", "DA"], ["C3", "C2", "CA"]])
    assert hand(st, 2) == {"C9", "CK"}
    assert [p[0] for p in pending(st)] == [0, 1]


def test_the_exchange_uses_the_normal_order():
    # a revolution in deal 1 does not carry into the exchange: 2s are still the strongest
    rules = only("nanko", "revolution", exchange={"top": 2, "second": 1})
    st = game("nanko", [["S4", "H4", "D4", "C4"], ["S5"], ["S6", "H6"], ["S7", "H7"]], rules)
    _, st = play(st, 0, "S4", "H4", "D4", "C4")
    assert js(st)["revolution"] is True and places(st)[0] == 1
    st = passes(st, 1, 2, 3)
    _, st = play(st, 1, "S5")
    st = passes(st, 2, 3)
    _, st = play(st, 2, "S6", "H6")
    assert js(st)["phase"] == "deal_over" and places(st) == [1, 2, 3, 4]
    st = deal_again(st, [["S9", "S8"], ["HT", "H9"], ["D5", "D6"], ["C3", "C2", "C4"]])
    assert js(st)["revolution"] is False and {"C2", "C4"} <= hand(st, 0)


def test_no_exchange_in_the_first_deal_or_when_off():
    st = deal_in_seat_order("nanko", only("nanko"))
    st = deal_again(st, [["S9"], ["HT"], ["D5"], ["C3", "C2"]])
    assert js(st)["pending"] == [] and js(st)["phase"] == "play" and hand(st, 3) == {"C3", "C2"}


# --- exchange request -------------------------------------------------------------------------------------------

REQ = only("gekifugo", "exchange_request", exchange={"top": 2, "second": 1})


def _request_deal():
    st = deal_in_seat_order("gekifugo", REQ)
    return deal_again(st, [["S9", "S3"], ["HT", "H4"], ["D5", "DA", "D6"], ["C3", "C7", "H7", "C2", "JK1"]])


def test_the_top_names_a_rank_and_receives_it():
    st = _request_deal()
    assert pending(st)[0] == (0, "request", 2, "exchange_request")
    st = ok(st, move(0, "request", rank="7"))[1]
    assert {"C7", "H7"} <= hand(st, 0) and hand(st, 3) == {"C3", "C2", "JK1"}
    assert pending(st)[0] == (0, "give", 2, "exchange")


def test_a_rank_not_held_cannot_be_named_again():
    st = _request_deal()
    st = ok(st, move(0, "request", rank="K"))[1]
    assert pending(st)[0] == (0, "request", 2, "exchange_request")
    assert js(st)["pending"][0]["not_held"] == ["K"]
    bad(st, move(0, "request", rank="K"), "not_allowed")


def test_the_top_may_take_fewer_than_held_and_names_again():
    st = _request_deal()
    st = ok(st, move(0, "request", rank="7", count=1))[1]
    # seat 3 holds two 7s: it picks which one goes
    assert pending(st)[0] == (3, "give", 1, "exchange_request")
    st = give(st, 3, "H7")
    assert pending(st)[0] == (0, "request", 1, "exchange_request")
    st = ok(st, move(0, "request", rank="JK"))[1]
    assert {"H7", "JK1"} <= hand(st, 0) and hand(st, 3) == {"C3", "C7", "C2"}


def test_requests_replace_the_strongest_only_for_the_top_pair():
    st = _request_deal()
    assert "DA" not in hand(st, 1)                             # the request comes first
    st = ok(st, move(0, "request", rank="2"))[1]
    st = ok(st, move(0, "request", rank="3"))[1]
    assert {"C2", "C3"} <= hand(st, 0)
    assert "DA" in hand(st, 1)                                 # the second pair gives its strongest


# --- inflation --------------------------------------------------------------------------------------------------

INF = only("gekifugo", "inflation", exchange={"top": 2, "second": 1})


def _same_order_again(st):
    """Deal 2 whose exchange is undone and which ends in the same order 0, 1, 2, 3."""
    st = deal_again(st, [["D9"], ["DT"], ["DJ"], ["C3", "C4", "C5"]])
    got0 = sorted(hand(st, 0) - {"D9"})
    st = give(st, 0, *got0)
    got1 = sorted(hand(st, 1) - {"DT"})
    assert pending(st) == [(1, "give", 1, "exchange")]
    st = give(st, 1, *got1)
    assert js(st)["turn"] == 3
    _, st = play(st, 3, "C3")
    for seat, c in ((0, "D9"), (1, "DT"), (2, "DJ")):
        _, st = play(st, seat, c)
    assert places(st) == [1, 2, 3, 4]
    return st


def test_the_same_ranking_twice_grows_the_exchange():
    st = deal_in_seat_order("gekifugo", INF)
    st2 = deal_again(st, [["D9"], ["DT"], ["DJ"], ["C3", "C4", "C5"]])
    assert js(st2)["exchange_counts"] == [2, 1]
    st = _same_order_again(st)
    st3 = deal_again(st, [["D9"], ["DT"], ["DJ", "DQ"], ["C3", "C4", "C5", "C6"]])
    assert js(st3)["exchange_counts"] == [3, 2]


def test_inflation_resets_on_a_change_and_stops_at_its_caps():
    from types import SimpleNamespace

    from referee.flow_events import ExchangeCounts
    from referee.rules import inflation
    from referee.rules.exchange import COUNTS

    def counts(st, places, base):
        return inflation.new_deal(st, ExchangeCounts(places, base), params).counts

    def deal_over(previous_places, exchange_counts):
        """What inflation reads of the deal just over: the places before it, its counts (exchange's slot)."""
        return SimpleNamespace(previous_places=previous_places, slot={COUNTS: exchange_counts}.__getitem__)

    params = {"max_top": 5, "max_second": 4}
    grown, capped = (deal_over((1, 2, 3, 4), c) for c in ((4, 3), (5, 4)))
    assert counts(grown, (2, 1, 3, 4), (2, 1)) == (2, 1)
    assert counts(grown, (1, 2, 3, 4), (2, 1)) == (5, 4)
    assert counts(capped, (1, 2, 3, 4), (2, 1)) == (5, 4)
    first = deal_over((), (4, 3))
    assert counts(first, (1, 2, 3, 4), (2, 1)) == (2, 1)


def test_without_inflation_the_same_ranking_keeps_the_counts():
    st = deal_in_seat_order("gekifugo", only("gekifugo", exchange={"top": 2, "second": 1}))
    st = _same_order_again(st)
    st3 = deal_again(st, [["D9"], ["DT"], ["DJ", "DQ"], ["C3", "C4", "C5", "C6"]])
    assert js(st3)["exchange_counts"] == [2, 1]
