"""States that put a seat in front of each kind of decision, built from explicit deals with the engine."""
from __future__ import annotations

from referee import apply, new_game, next_deal, state_to_json
from referee.presets import PRESETS


def only(preset: str, *keep: str, **params) -> dict:
    """Overrides switching off every rule except ``keep`` (and jokers/stairs); ``params`` set parameters."""
    every = {rid for rules in PRESETS.values() for rid in rules}
    out = {rid: False for rid in every if rid not in keep and rid not in ("jokers", "stairs") and rid not in params}
    for rid in keep:
        out[rid] = True
    out.update(params)
    return out


def game(preset, hands, rules=None):
    st, _ = new_game(preset, rules, [f"p{i}" for i in range(len(hands))], seed=0, hands=hands)
    return st


def do(st, seat, action, cards=None, **kw):
    m = {"seat": seat, "action": action, **kw}
    if cards is not None:
        m["cards"] = list(cards)
    verdict, st, _ = apply(st, m)
    assert verdict.legal, (m, verdict.to_json())
    return st


def head(st):
    p = state_to_json(st)["pending"]
    return p[0] if p else None


def seven_pass():
    st = game("nanko", [["S3", "H7", "D4", "C9", "DK"], ["S4", "SQ"], ["H4", "HQ"], ["D6", "DQ"]],
              only("nanko", "seven_pass"))
    return do(st, 0, "play", ["H7"])


def ten_discard():
    st = game("nanko", [["S3", "HT", "D4", "C9", "DK"], ["S4", "SQ"], ["H4", "HQ"], ["D6", "DQ"]],
              only("nanko", "ten_discard"))
    return do(st, 0, "play", ["HT"])


def resurrection():
    """Seat 1 plays two fours on an empty field while the discard pile holds H6 and SQ."""
    st = game("nanko", [["S3", "H6", "DK", "C9"], ["S4", "H4", "SQ", "C8", "HK"], ["H5", "HA"], ["D7", "DA"]],
              only("nanko", "resurrection"))
    st = do(st, 0, "play", ["H6"])
    st = do(st, 1, "play", ["SQ"])
    for s in (2, 3, 0):
        st = do(st, s, "pass")
    return do(st, 1, "play", ["S4", "H4"])


def bloody_mary_tie():
    st = game("nanko", [["S3", "SQ", "HQ", "DQ", "C9"], ["SK", "HK", "DK", "S5"], ["H5", "HA"], ["D6", "D7"]],
              only("nanko", "bloody_mary"))
    return do(st, 0, "play", ["SQ", "HQ", "DQ"])


def cut_back():
    st = game("nanko", [["S3", "H8", "D4", "C9"], ["JK1", "S5", "S6"], ["H5", "HA"], ["D6", "D7"]],
              only("nanko", "eight_cut", "cut_back", jokers={"count": 1}))
    return do(st, 0, "play", ["H8"])


def _first_deal_in_order(preset, rules):
    cards = ["S4", "S5", "S6", "S7"]
    st = game(preset, [[c] for c in cards], rules)
    for seat in range(3):
        st = do(st, seat, "play", [cards[seat]])
    return st


def exchange_give():
    """The bottom (seat 3) chooses among equally strong cards."""
    st = _first_deal_in_order("nanko", only("nanko", exchange={"top": 2, "second": 1}))
    st, _ = next_deal(st, hands=[["S9", "S3"], ["HT", "H4"], ["D5", "D6"], ["SA", "HA", "DA", "C7"]])
    return st


def exchange_give_back():
    """The top (seat 0) gives back cards of its choice."""
    st = _first_deal_in_order("nanko", only("nanko", exchange={"top": 2, "second": 1}))
    st, _ = next_deal(st, hands=[["S9", "S3", "SK"], ["HT", "H4"], ["D5", "DA", "D6"], ["C3", "C2", "JK1", "C7"]])
    return st


def exchange_request():
    st = _first_deal_in_order("gekifugo", only("gekifugo", "declarations_required", "exchange_request",
                                               exchange={"top": 2, "second": 1}))
    st, _ = next_deal(st, hands=[["S9", "S3", "SK"], ["HT", "H4"], ["D5", "DA", "D6"], ["C3", "C2", "JK1", "C7"]])
    return st


SCENARIOS = {
    "seven_pass": (seven_pass, "give"),
    "ten_discard": (ten_discard, "discard"),
    "resurrection": (resurrection, "take"),
    "bloody_mary_tie": (bloody_mary_tie, "discard"),
    "cut_back": (cut_back, "cut_back"),
    "exchange_give": (exchange_give, "give"),
    "exchange_give_back": (exchange_give_back, "give"),
    "exchange_request": (exchange_request, "request"),
}
