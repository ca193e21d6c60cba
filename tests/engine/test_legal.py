"""legal_moves lists every legal answer (RULES.md §10.13): a choice of N cards is one choose entry."""
import random
from itertools import combinations

from hypothesis import given, strategies as hs

from referee import apply, covers, instantiate, judge, legal_moves, new_game, next_deal
from referee.cards import RANKS, SUITS, cards_of, code
from referee.play import DECLARATIONS
from referee.rules import SEQUENCES

from .helpers import game, only, play
from .test_properties import PROFILE, SWITCHABLE, walk

ALL = [s + r for r in RANKS for s in SUITS]


def two_player_deal_over(preset, rules):
    st = game(preset, [["S3"], ["S4"]], rules)
    _, st = play(st, st.turn, "S3" if st.turn == 0 else "S4")
    assert st.phase == "deal_over"
    return st


def three_player_deal_over(preset, rules):
    """Seat 0 goes out first, seat 1 second, seat 2 is last (nanko is played by 3 to 6)."""
    st = game(preset, [["S3"], ["S4"], ["S5"]], rules)
    _, st = play(st, 0, "S3")
    _, st = play(st, 1, "S4")
    assert st.phase == "deal_over" and [p.place for p in st.players] == [1, 2, 3]
    return st


def test_a_give_back_of_three_from_a_big_hand_is_one_entry_and_every_choice_is_legal():
    # issue 9 fault 5: nanko {exchange: {top: 3}}, the top owes 3 cards from its hand (3 players: only the top and
    # the bottom exchange; the middle player's hand plays no part)
    rules = only("nanko", exchange={"top": 3, "second": 1})
    st = three_player_deal_over("nanko", rules)
    top, middle, bottom = [p.seat for p in sorted(st.players, key=lambda p: p.place)]
    hands = [None, None, None]
    hands[top] = ALL[:21] + ["S2", "H2", "D2"]
    hands[bottom] = ALL[24:36] + ["SA", "HA", "C2"]  # its 3 strongest are given at once
    hands[middle] = ALL[36:40]
    st, _ = next_deal(st, hands=hands)
    legal = legal_moves(st, top)
    assert len(legal) == 1
    entry = legal[0]
    assert entry["action"] == "give" and entry["rule"] == "exchange"
    assert entry["choose"]["min"] == entry["choose"]["max"] == 3 and len(entry["choose"]["from"]) == 27
    move = {"seat": top, "action": "give", "cards": ["S2", "H2", "D2"]}
    assert judge(st, move).legal and covers(entry, move)
    rng = random.Random(1)
    for _ in range(20):
        assert judge(st, instantiate(entry, rng)).legal


def test_a_ten_discard_of_three_lists_every_choice():
    rules = only("nanko", "ten_discard")
    hand = ["ST", "HT", "DT"] + ALL[:27]
    st = game("nanko", [hand, ["S2", "H2"], ["D2", "C2"]], rules)
    _, st = play(st, 0, "ST", "HT", "DT")
    entry, = legal_moves(st, 0)
    assert entry["choose"] == {"from": ALL[:27], "min": 3, "max": 3}
    # every one of the 2,925 sets is legal: check all of them against the judge
    from math import comb
    choices = list(combinations(entry["choose"]["from"], 3))
    assert len(choices) == comb(27, 3)
    for combo in choices[::97] + choices[-3:]:
        assert judge(st, {"seat": 0, "action": "discard", "cards": list(combo)}).legal


def test_bloody_mary_ties_list_the_forced_cards_and_the_choice_among_equals():
    st = game("nanko", [["S3", "SQ", "HQ", "DQ", "C9"], ["SK", "HK", "DK", "S5"], ["H5", "HA"], ["D6", "D7"]],
              only("nanko", "bloody_mary"))
    _, st = play(st, 0, "SQ", "HQ", "DQ")
    entry, = legal_moves(st, 1)
    assert entry == {"seat": 1, "action": "discard", "rule": "bloody_mary",
                     "choose": {"from": ["SK", "HK", "DK"], "min": 2, "max": 2}}
    bad = {"seat": 1, "action": "discard", "cards": ["SK", "S5"]}
    assert not judge(st, bad).legal and not covers(entry, bad)


def test_a_forced_card_plus_a_choice_among_ties():
    st = game("nanko", [["S3", "SQ", "HQ", "DQ", "C9"], ["S2", "HK", "DK", "S5"], ["H5", "HA"], ["D6", "D7"]],
              only("nanko", "bloody_mary"))
    _, st = play(st, 0, "SQ", "HQ", "DQ")
    entry, = legal_moves(st, 1)
    assert entry["cards"] == ["S2"] and entry["choose"] == {"from": ["HK", "DK"], "min": 1, "max": 1}
    assert judge(st, instantiate(entry, chosen=["DK"])).legal


def test_an_inflated_exchange_gives_four_of_many():
    rules = only("gekifugo", "inflation", exchange={"top": 4, "second": 1}, first_card=False)
    st = two_player_deal_over("gekifugo", rules)
    top = next(p.seat for p in st.players if p.place == 1)
    hands = [ALL[:27], ALL[27:]]
    st, _ = next_deal(st, hands=hands)
    entry, = legal_moves(st, top)
    assert entry["choose"]["min"] == 4 and len(entry["choose"]["from"]) == 31
    assert judge(st, instantiate(entry, random.Random(3))).legal


def test_table_mode_limits_the_unseen_cards_a_seat_may_give():
    from referee import new_game
    st, _ = new_game("nanko", only("nanko", "seven_pass"), ["a", "b", "c"], seed=1, table=True, leader=0)
    # seat 0 is known to hold S7 H7 S3 H3 and one card more, unknown to the referee
    st = st.with_player(0, hand=(1 << 16) | (1 << 17) | 1 | 2, unknown=1)
    v, st, _ = apply(st, {"seat": 0, "action": "play", "cards": ["S7", "H7"]})
    assert v.legal
    entry, = legal_moves(st, 0)
    c = entry["choose"]
    assert c["min"] == c["max"] == 2 and {"S3", "H3"} <= set(c["from"]) and len(c["from"]) > 40
    assert c["limit"]["max"] == 1 and set(c["limit"]["cards"]) == set(c["from"]) - {"S3", "H3"}
    unseen = c["limit"]["cards"][:2]
    assert not judge(st, {"seat": 0, "action": "give", "cards": unseen}).legal
    assert not covers(entry, {"seat": 0, "action": "give", "cards": unseen})
    rng = random.Random(2)
    for _ in range(10):
        assert judge(st, instantiate(entry, rng)).legal


@PROFILE
@given(seed=hs.integers(0, 10 ** 6), players=hs.integers(2, 6),
       switches=hs.dictionaries(hs.sampled_from(SWITCHABLE), hs.booleans(), max_size=8))
def test_declaring_less_never_makes_a_play_legal(seed, players, switches):
    """legal_moves stops at a card reading whose play declaring every effect is rejected (legal._listed): with the
    same shapes declared, fewer declarations must be rejected too (declarations_required on, sampled states and
    card sets). Declared shapes are kept alike: declaring a sequence picks the readings, which is no effect."""
    st, _ = new_game("gekifugo", {**switches, "declarations_required": True}, [f"p{i}" for i in range(players)],
                     seed)
    rng = random.Random(seed)
    effects = sorted(DECLARATIONS - set(SEQUENCES))
    rejected = []

    def step(st, seat, ply):
        if not st.pending and st.turn == seat and st.phase == "play":
            hand = cards_of(st.hand(seat))
            for _ in range(12):
                cards = [code(c) for c in rng.sample(hand, min(len(hand), rng.randint(1, 5)))]
                shapes = rng.sample(SEQUENCES, rng.randint(0, 1))
                if judge(st, {"seat": seat, "action": "play", "cards": cards, "declare": shapes + effects}).legal:
                    continue
                rejected.append(cards)
                fewer = shapes + rng.sample(effects, rng.randint(0, len(effects) - 1))
                verdict = judge(st, {"seat": seat, "action": "play", "cards": cards, "declare": fewer})
                assert not verdict.legal, (cards, fewer)
        return apply(st, instantiate(rng.choice(legal_moves(st, seat)), rng))[1]

    walk(st, rng, 200, step)
    assert rejected
