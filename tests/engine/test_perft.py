"""Legal moves equal what the judge accepts, proven by exhaustion at each position (referee/perft.py): the bounded
run CI makes, the check catching a listing bug planted on purpose, and a scenario for each mismatch it found."""
import random

import pytest

from referee import compiled, legal, legal_moves, perft
from referee.deals import new_game
from referee.ruleset import Ruleset
from referee.state import replace

from .helpers import game, only, passes, play

POSITIONS = 360  # the long run: python benchmarks/perft.py (5,000 positions; benchmarks/RESULTS.md)


def test_legal_moves_list_exactly_what_the_judge_accepts_at_self_play_positions():
    """Every preset, plain and under random rule switches: every proposal judged, 0 mismatches either way."""
    totals = perft.run(POSITIONS, seed=2026, per_game=8)
    assert totals.positions == POSITIONS
    for preset in ("uecda", "nanko", "gekifugo"):
        assert totals.by_preset.get(preset) and totals.by_preset.get(f"{preset} + switches"), totals.by_preset
    assert totals.proposals > 100 * POSITIONS and totals.accepted
    assert totals.mismatches == []


def _attach_onto_stairs():
    """gekifugo: seat 0 has played ♠4-5-6; seat 1 holds a joker, which may attach as ♠3 or as ♠7 (RULES.md §10.6)."""
    st = game("gekifugo", [["S4", "S5", "S6", "D3", "H9"], ["JK1", "H8", "CK"], ["SA", "HQ", "C7"]])
    _, st = play(st, 0, "D3")
    st = passes(st, 1, 2)
    return play(st, 0, "S4", "S5", "S6", declare=["stairs"])[1]


def test_the_check_finds_a_listing_that_leaves_out_an_accepted_play(monkeypatch):
    st = game("gekifugo", [["S4", "S5"], ["H8", "CK"], ["SA", "HQ"]], only("gekifugo"))
    assert perft.Check(st, 0).run().ok
    real = legal.legal_moves
    monkeypatch.setattr(perft, "legal_moves", lambda state, seat: [m for m in real(state, seat) if m.get("cards") != ["S4"]])
    report = perft.Check(st, 0).run()
    assert report.unlisted == [{"seat": 0, "action": "play", "cards": ["S4"]}]


@pytest.mark.skipif(compiled.running_compiled(), reason="a monkeypatch reaches the listing only in pure Python")
def test_the_check_covers_the_quick_no_before_judging(monkeypatch):
    """legal._cannot_beat turns candidates away before the judge: one that said no too often is caught."""
    st = game("nanko", [["S4", "S9"], ["H8", "CK"], ["SA", "HQ"]], only("nanko"))
    _, st = play(st, 0, "S4")
    assert perft.Check(st, 1).run().ok
    monkeypatch.setattr(legal, "_cannot_beat", lambda *judged: True)
    rs = st.rules  # a ruleset of its own: the listing must not come from the memos
    st = replace(st, rules=Ruleset(rs.preset, {rid: rs.params(rid) for rid in rs.to_json()["rules"] if rs.on(rid)}))
    report = perft.Check(st, 1).run()
    assert {"seat": 1, "action": "play", "cards": ["H8"]} in report.unlisted


def test_the_check_finds_a_listed_move_the_judge_refuses(monkeypatch):
    st = game("nanko", [["S4", "S9"], ["H8", "CK"], ["SA", "HQ"]], only("nanko"))
    real = legal.legal_moves

    def listing(state, seat, annotated=False):
        return real(state, seat, annotated) + [{"seat": seat, "action": "play", "cards": ["SA"]}]

    monkeypatch.setattr(perft, "legal_moves", listing)
    report = perft.Check(st, 0).run()
    assert [r[:2] for r in report.refused] == [({"seat": 0, "action": "play", "cards": ["SA"]}, "not_in_hand")]


# Mismatches the check found, each fixed in legal.py (legal._forms): a joker attached to the field (attach
# revolution, JOINS_FIELD) was listed only as the judge reads it without 'as' (the strongest combined field), while
# 'as' may name any other reading of the joined cards, with other effects.

def test_a_joker_attached_onto_stairs_is_listed_as_either_open_rank():
    st = _attach_onto_stairs()
    moves = [m for m in legal_moves(st, 1) if m["action"] == "play"]
    assert {"seat": 1, "action": "play", "cards": ["JK1"], "declare": ["attach_revolution", "seven_pass"]} in moves
    assert {"seat": 1, "action": "play", "cards": ["JK1"], "as": {"JK1": "S3"},
            "declare": ["attach_revolution"]} in moves
    v, after = play(st, 1, "JK1", as_={"JK1": "S3"}, declare=["attach_revolution"])
    assert v.effects == ("attach_revolution",) and after.field.reading.lo == 0  # ♠3-4-5-6, no 7 to pass


def test_jokers_attached_onto_a_single_are_listed_in_every_run_they_may_make():
    """gekifugo, field ♣10: ♣9 and two jokers make ♣7-8-9-10, ♣8-9-10-J or ♣9-10-J-Q (the strongest, chosen
    without 'as'); ♣8-9-10-J, with its 8-cut and jack back, was listed by nothing."""
    st = game("gekifugo", [["D3", "CT", "S5"], ["C9", "JK1", "JK2", "H4"], ["SA", "HQ"]])
    _, st = play(st, 0, "D3")
    st = passes(st, 1, 2)
    _, st = play(st, 0, "CT")
    moves = [m for m in legal_moves(st, 1) if m.get("cards") == ["C9", "JK1", "JK2"]]
    assert {"seat": 1, "action": "play", "cards": ["C9", "JK1", "JK2"], "as": {"JK1": "C8", "JK2": "CJ"},
            "declare": ["attach_revolution", "eight_cut", "jack_back", "nine_reverse"]} in moves
    assert perft.Check(st, 1).run().ok


@pytest.mark.parametrize("preset", ["nanko", "uecda"])
def test_two_jokers_attached_to_a_pair_are_listed_as_the_attach_they_make(preset):
    """Without declarations, ♥K♦K then JK1 JK2: played alone the jokers beat the pair; with 'as' naming two Ks they
    join it as an attach revolution. Both are listed."""
    st, _ = new_game(preset, {"attach_revolution": True, "first_card": False, "jokers": {"count": 2}},
                     ["a", "b", "c"], 0, hands=[["HK", "DK", "S4"], ["JK1", "JK2", "C5"], ["SA", "HQ"]])
    _, st = play(st, 0, "HK", "DK")
    moves = [m for m in legal_moves(st, 1) if m.get("cards") == ["JK1", "JK2"]]
    assert {"seat": 1, "action": "play", "cards": ["JK1", "JK2"]} in moves
    assert any(m.get("as") for m in moves)
    assert perft.Check(st, 1).run().ok


def test_an_attached_joker_standing_for_a_j_is_listed_with_its_jack_back_declined():
    """nanko with attach revolution, field ♠10: ♠Q and two jokers as ♠9 and ♠J make ♠9-10-J-Q, whose joker J fires
    the optional jack back; declining it was not listed (declines were decided by the cards alone, no J)."""
    st, _ = new_game("nanko", {"attach_revolution": True, "first_card": False}, ["a", "b", "c"], 0,
                     hands=[["ST", "S4"], ["SQ", "JK1", "JK2", "C5"], ["SA", "HQ"]])
    _, st = play(st, 0, "ST")
    moves = [m for m in legal_moves(st, 1) if m.get("as") == {"JK1": "S9", "JK2": "SJ"}]
    assert [m.get("decline") for m in moves] == [None, ["jack_back"]]
    assert perft.Check(st, 1).run().ok


def test_with_the_suit_locks_off_every_suit_a_joker_may_stand_for_is_listed():
    """nanko without suit_lock: H9+JK1 was listed with the joker as ♠9 only, while ♦9 and ♣9 were accepted (no rule
    of the table reads the suit today, but the field shows it and any rule may)."""
    st, _ = new_game("nanko", {"suit_lock": False, "first_card": False}, ["a", "b", "c"], 0,
                     hands=[["H9", "JK1", "C4"], ["D4", "S5"], ["SA", "HQ"]])
    moves = [m for m in legal_moves(st, 0) if m.get("cards") == ["H9", "JK1"]]
    assert sorted(m["as"]["JK1"] for m in moves) == ["C9", "D9", "S9"]
    assert perft.Check(st, 0).run().ok


@pytest.mark.parametrize("preset", ["uecda", "gekifugo"])
def test_under_a_color_lock_legal_moves_list_exactly_what_the_judge_accepts(preset):
    """color_lock is off in every preset: switched on here (with suit_lock and a joker that ends it), at positions
    of self-play games, many of them color-locked."""
    from referee.rules.color_lock import LOCK_COLOR
    switches = {"color_lock": {"joker_ends": True}, "suit_lock": True, "attach_revolution": True}
    checked = locked = 0
    for seed in range(3):
        states = list(perft.positions(preset, switches, seed, 4))
        for st in perft.sample(states, random.Random(seed), 10):
            checked += 1
            locked += st.slot(LOCK_COLOR) is not None
            assert all(report.ok for _, report in perft.check_position(st)), (preset, seed, st.seq)
    assert checked == 30 and locked >= 3
