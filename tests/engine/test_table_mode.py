"""Table mode: a real table's game where the referee knows only hand counts and what was shown."""
import pytest

from referee import InputError, correct_hands, covers, judge, legal_moves, new_game, next_deal, replay, state_to_json

from .helpers import bad, js, move, ok, only, pass_, places


def table(preset="nanko", players=4, rules=None, leader=None):
    st, events = new_game(preset, rules, [f"p{i}" for i in range(players)], seed=0, table=True, leader=leader)
    return st, events


def test_counts_follow_an_even_deal_and_hands_are_unknown():
    st, _ = table("nanko", 4)          # 54 cards: seats 1 and 2 get the two extra cards
    view = js(st)
    assert [p["hand_count"] for p in view["players"]] == [13, 14, 14, 13]
    assert all(p["hand"] == [] and p["unknown"] == p["hand_count"] for p in view["players"])
    assert view["table"] is True and st.turn == 0


def test_a_play_is_trusted_and_the_verdict_says_what_was_not_checked():
    st, _ = table()
    verdict, st = ok(st, move(0, "play", ["H5"]))
    assert verdict.unchecked == ("not_in_hand",)
    assert "five_skip" in verdict.effects and st.turn == 2
    assert js(st)["players"][0]["hand_count"] == 12


def test_shape_strength_and_order_are_still_judged():
    st, _ = table()
    _, st = ok(st, move(0, "play", ["HK"]))
    bad(st, move(1, "play", ["H9"]), "too_weak")
    bad(st, move(1, "play", ["S3", "D4"]), "invalid_cards")
    bad(st, move(2, "play", ["HA"]), "not_your_turn")


@pytest.mark.parametrize("cards, stands_for", [(["S8", "S9", "JK1"], "S7"), (["S8", "S9", "JK1"], "ST"),
                                               (["S8", "JK1", "ST"], "S9")])
def test_a_joker_may_stand_in_for_a_card_the_seat_may_hold_and_the_listing_says_so(cards, stands_for):
    """The seat may hold the card the joker stands for as well as not: the judge accepts the joker, so legal moves
    must list it (they once listed a joker in a run only for cards already seen)."""
    st, _ = table("nanko", 4)
    play = move(0, "play", cards, as_={"JK1": stands_for})
    assert judge(st, play).legal
    assert any(covers(m, play) and m.get("as") == {"JK1": stands_for} for m in legal_moves(st, 0))


def test_a_card_already_seen_cannot_be_played_again():
    st, _ = table()
    _, st = ok(st, move(0, "play", ["HK"]))
    v = bad(st, move(1, "play", ["HK"]), "not_in_hand")
    assert "already seen" in v.message


def test_a_seat_cannot_play_more_cards_than_it_holds():
    st, _ = table("nanko", 4)
    st = st.with_player(0, unknown=2)
    v = bad(st, move(0, "play", ["S5", "H5", "D5"]), "not_in_hand")
    assert "more cards" in v.message


def test_a_seven_pass_moves_one_count_to_the_next_seat_and_shows_the_card_to_it():
    st, _ = table("nanko", 4, rules=only("nanko", "seven_pass"))
    _, st = ok(st, move(0, "play", ["S7"]))
    assert js(st)["pending"][0]["action"] == "give"
    verdict, st = ok(st, move(0, "give", ["C9"]))
    view = js(st)
    assert view["players"][0]["hand_count"] == 11 and view["players"][1]["hand_count"] == 15
    assert view["players"][1]["hand"] == ["C9"]
    assert verdict.unchecked == ("not_in_hand",)


def test_first_card_duty_is_enforced_on_the_leader_named_by_the_table():
    st, _ = table("gekifugo", 4, leader=2)
    assert st.turn == 2
    bad(st, move(2, "play", ["H9"]), "must_include_first_card")
    verdict, _ = ok(st, move(2, "play", ["D3"]))
    assert "first_card_holder" in verdict.unchecked


def test_hands_correction_consistent_with_the_play_is_accepted():
    st, events = table("uecda", 3, rules=only("uecda"))
    _, st = ok(st, move(0, "play", ["S4"]))
    st = pass_(st, 1)
    st = pass_(st, 2)
    hands = [None] * 3
    counts = [p["hand_count"] for p in js(st)["players"]]
    deck = [c for c in ("S5 H5 D5 C5 S6 H6 D6 C6 S7 H7 D7 C7 S8 H8 D8 C8 S9 H9".split())]
    hands[0] = deck[:counts[0]]
    new, ev = correct_hands(st, hands)
    assert js(new)["players"][0]["hand"] == sorted(hands[0], key=lambda c: js(new)["players"][0]["hand"].index(c))
    assert js(new)["players"][0]["unknown"] == 0
    # once known, the seat's hand is checked like any other
    bad(new, move(0, "play", ["HA"]), "not_in_hand")
    events = events + [{"seq": 1, "type": "move", "move": move(0, "play", ["S4"])},
                       {"seq": 2, "type": "move", "move": move(1, "pass")},
                       {"seq": 3, "type": "move", "move": move(2, "pass")}] + ev
    assert state_to_json(replay(events)) == state_to_json(new)


@pytest.mark.parametrize("fix, why", [
    (["S4"], "already seen"),                  # it played S4: it cannot still hold it
    (["S5", "H5"], "holds"),                   # wrong count
])
def test_hands_correction_inconsistent_with_the_play_is_refused(fix, why):
    st, _ = table("uecda", 3, rules=only("uecda"))
    _, st = ok(st, move(0, "play", ["S4"]))
    with pytest.raises(InputError, match=why):
        correct_hands(st, [fix, None, None])


def test_hands_correction_only_in_table_mode():
    st, _ = new_game("uecda", None, ["a", "b"], seed=1)
    with pytest.raises(InputError, match="table-mode"):
        correct_hands(st, [None, None])


def test_exchange_request_is_answered_by_the_asked_seat():
    st, _ = table("gekifugo", 4, rules=only("gekifugo", "exchange", "exchange_request"), leader=0)
    for seat, card in enumerate(["D3", "S4", "H6", "D7"]):
        st = st.with_player(seat, unknown=1)
    for seat, card in enumerate(["D3", "S4", "H6"]):
        _, st = ok(st, move(seat, "play", [card]))
    assert places(st) == [1, 2, 3, 4]
    st, _ = next_deal(st)
    head = js(st)["pending"][0]
    assert (head["seat"], head["action"], head["from"]) == (0, "request", 3)
    _, st = ok(st, move(0, "request", rank="A"))
    answer = js(st)["pending"][0]
    assert (answer["seat"], answer["action"], answer.get("upto")) == (3, "give", True)
    verdict, st = ok(st, move(3, "pass"))
    assert "rank_not_held" in verdict.unchecked
    assert js(st)["pending"][0]["not_held"] == ["A"]
    bad(st, move(0, "request", rank="A"), "not_allowed")
    _, st = ok(st, move(0, "request", rank="2"))
    _, st = ok(st, move(3, "give", ["S2"]))
    head = js(st)["pending"][0]
    assert (head["action"], head["count"]) == ("request", 1)
    assert "S2" in js(st)["players"][0]["hand"]


def test_exchange_request_ends_when_every_rank_was_answered_not_held():
    # only a table-mode answer can say "not held" for every rank; the request then ends with what was received
    st, _ = table("gekifugo", 4, rules=only("gekifugo", "exchange", "exchange_request"), leader=0)
    for seat in range(4):
        st = st.with_player(seat, unknown=1)
    for seat, card in enumerate(["D3", "S4", "H6"]):
        _, st = ok(st, move(seat, "play", [card]))
    st, _ = next_deal(st)
    for rank in ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "JK"]:
        assert js(st)["pending"][0]["action"] == "request"
        _, st = ok(st, move(0, "request", rank=rank))
        _, st = ok(st, move(3, "pass"))
    assert not any(p["action"] == "request" for p in js(st)["pending"]), "nothing is left to name"
