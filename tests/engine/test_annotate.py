"""annotate: every legal move with the effects it fires, their kinds and whether going out with it is forbidden;
forbidden_last: the cards that could not be a seat's last one."""
import random

import pytest

from referee import InputError, actors, annotate, apply, catalog, forbidden_last, instantiate, judge, legal_moves, new_game
from referee.effects import Cut, Revolution, SevenPass, Skip
from referee.rules.attach_revolution import ClearLocks
from referee.rules.suit_lock import Lock

from .helpers import bad, game, only, pass_, play, with_other_hands_swapped

FINISHING = {"forbidden_finish", "capital_fall", "gekokujo"}  # what a verdict lists once a finish resolves


def entries(st, seat, **keys):
    """The annotated legal entries of ``seat`` whose fields include ``keys``."""
    return [e for e in annotate(st, legal_moves(st, seat)) if all(e.get(k) == v for k, v in keys.items())]


def test_a_cut_is_annotated_with_its_rule_and_kind():
    st = game("nanko", [["S3", "H8", "D4"], ["S4", "SQ"], ["H5", "HA"]], only("nanko", "eight_cut"))
    [eight] = entries(st, st.turn, cards=["H8"])
    assert eight["effects"] == ["eight_cut"] and eight["kinds"] == ["cut"] and eight["forbidden_finish"] is False
    [three] = entries(st, st.turn, cards=["S3"])
    assert three["effects"] == [] and three["kinds"] == []


def test_a_revolution_follows_the_threshold_the_engine_keeps():
    hands = [["S9", "H9", "D9", "C9", "S4", "H4", "D4"], ["S5", "H5", "D5", "C5", "SQ"], ["H6"]]
    st = game("nanko", hands, only("nanko", "revolution"))
    [four] = entries(st, 0, cards=["S9", "H9", "D9", "C9"])
    assert four["kinds"] == ["revolution"] and four["effects"] == ["revolution"]
    [three] = entries(st, 0, cards=["S4", "H4", "D4"])
    assert three["kinds"] == []
    st = game("nanko", hands, only("nanko", revolution={"min_group": 3, "min_stairs": 4}))
    [three] = entries(st, 0, cards=["S4", "H4", "D4"])
    assert three["kinds"] == ["revolution"]


def test_a_declared_effect_fires_only_in_its_declaring_variant():
    st = game("gekifugo", [["D3", "S7", "H4", "C9", "HK"], ["S4", "SQ"], ["H5", "HA"], ["D6", "DQ"]],
              only("gekifugo", "declarations_required", "seven_pass", first_card={"card": "D3", "must_play": False}))
    by_declare = {tuple(e.get("declare", ())): e for e in entries(st, 0, cards=["S7"])}
    assert by_declare[("seven_pass",)]["effects"] == ["seven_pass"] and by_declare[("seven_pass",)]["kinds"] == ["give"]
    assert by_declare[()]["effects"] == [] and by_declare[()]["kinds"] == []


def test_a_declined_jack_back_fires_nothing():
    st = game("nanko", [["SJ", "S4"], ["S5", "SQ"], ["H6", "HA"]], only("nanko", jack_back={"optional": True}))
    by_decline = {tuple(e.get("decline", ())): e for e in entries(st, 0, cards=["SJ"])}
    assert by_decline[()]["kinds"] == ["jack_back"] and by_decline[("jack_back",)]["kinds"] == []


@pytest.mark.parametrize("cards,forbidden", [(["JK1"], True), (["C2"], True), (["S3"], False), (["H8"], True)])
def test_forbidden_finish_is_set_on_every_play_that_could_not_be_the_last(cards, forbidden):
    rules = only("nanko", "eight_cut", forbidden_finish={"joker": True, "strongest_rank": True, "cut": True})
    st = game("nanko", [["S3", "C2", "H8", "JK1"], ["S4", "SQ", "HK"], ["H5", "HA"]], rules)
    [entry] = [e for e in entries(st, 0, cards=cards) if "as" not in e]
    assert entry["forbidden_finish"] is forbidden


def test_forbidden_last_names_the_cards_no_legal_move_plays_alone_too():
    rules = only("nanko", "eight_cut", forbidden_finish={"joker": True, "strongest_rank": True, "cut": True})
    st = game("nanko", [["S3", "H8", "C2", "JK1", "D9"], ["SK", "S5"], ["C4"]], rules)
    _, st = play(st, 0, "D9")
    _, st = play(st, 1, "SK")  # seat 0 may follow only with C2 or the joker: its 3 and 8 are no single play now
    st = pass_(st, 2)
    assert {tuple(e.get("cards", ())) for e in legal_moves(st, 0)} == {(), ("C2",), ("JK1",)}
    assert forbidden_last(st, 0) == ["H8", "C2", "JK1"]
    st = game("uecda", [["S3", "C2", "JK1"], ["S4"]], only("uecda"))
    assert forbidden_last(st, 0) == []  # no forbidden finish under these rules


def test_forbidden_last_follows_the_order_in_force():
    rules = only("nanko", "revolution", forbidden_finish={"joker": False, "strongest_rank": True, "cut": False})
    st = game("nanko", [["S4", "H4", "D4", "C4", "S3", "S2"], ["S5", "SK"], ["H5", "HA"]], rules)
    assert forbidden_last(st, 0) == ["S2"]
    _, st = play(st, 0, "S4", "H4", "D4", "C4")  # a revolution: the 3 is the strongest rank now
    assert forbidden_last(st, 0) == ["S3"]


def test_going_out_with_an_annotated_forbidden_play_ranks_the_seat_last():
    rules = only("nanko", forbidden_finish={"joker": True, "strongest_rank": True, "cut": False})
    st = game("nanko", [["C2"], ["S4", "SQ", "HK"], ["H5", "HA"]], rules)
    [two] = entries(st, 0, cards=["C2"])
    assert two["forbidden_finish"]
    verdict, after, _ = apply(st, two)
    assert "forbidden_finish" in verdict.effects and after.players[0].place == 3


def test_a_cut_back_that_would_go_out_with_a_joker_is_forbidden():
    rules = only("nanko", "eight_cut", "cut_back", jokers={"count": 1},
                 forbidden_finish={"joker": True, "strongest_rank": True, "cut": False})
    st = game("nanko", [["S3", "H8", "D4", "C9"], ["JK1"], ["H5", "HA"], ["D6", "D7"]], rules)
    _, st = play(st, 0, "H8")
    [back] = entries(st, 1, action="cut_back")
    assert back["forbidden_finish"] is True and back["effects"] == []
    assert entries(st, 2, action="pass")[0] == {"seat": 2, "action": "pass", "effects": [], "kinds": [],
                                                "forbidden_finish": False}


def test_the_next_leader_in_a_cut_back_window_is_annotated_as_if_the_window_were_closed():
    rules = only("nanko", "eight_cut", "cut_back", jokers={"count": 1})
    st = game("nanko", [["S3", "H8", "D8", "C9"], ["JK1", "S5", "S6"], ["H5", "HA"], ["D6", "D7"]], rules)
    _, st = play(st, 0, "H8")
    assert 0 in actors(st) and st.pending
    [eight] = entries(st, 0, cards=["D8"])
    assert eight["effects"] == ["eight_cut"]


def test_an_annotated_entry_is_accepted_as_a_proposal_and_its_annotations_are_not_recorded():
    st = game("nanko", [["S3", "H8", "D4"], ["S4", "SQ"], ["H5", "HA"]], only("nanko", "eight_cut"))
    [eight] = entries(st, 0, cards=["H8"])
    verdict, _, events = apply(st, eight)
    assert verdict.legal and events[0]["move"] == {"seat": 0, "action": "play", "cards": ["H8"]}
    # the annotations are the referee's answer, not a claim it checks: whatever they say, the move is judged
    assert judge(st, dict(eight, effects=["revolution"], kinds="x", forbidden_finish=True)) == verdict
    with pytest.raises(InputError):
        judge(st, dict(eight, effect=["eight_cut"]))  # any other unknown field is still malformed


def test_only_legal_moves_are_annotated():
    st = game("nanko", [["S3", "H8", "D4"], ["S4", "SQ"], ["H5", "HA"]], only("nanko"))
    bad(st, {"seat": 0, "action": "play", "cards": ["S4"]}, "not_in_hand")
    with pytest.raises(InputError):
        annotate(st, [{"seat": 0, "action": "play", "cards": ["S4"]}])


def test_every_effect_kind_is_named():
    assert (Cut.KIND, Revolution.KIND, Lock.KIND, SevenPass.KIND, Skip.KIND, ClearLocks.KIND) == (
        "cut", "revolution", "lock", "give", "skip", "unlock")


def _switches(rng):
    ids = [r["id"] for r in catalog()["rules"] if r["id"] not in ("jokers", "stairs", "first_card")]
    return {rid: rng.random() < 0.5 for rid in rng.sample(ids, 10)}


@pytest.mark.parametrize("preset", ["uecda", "nanko", "gekifugo", "switches"])
def test_annotations_agree_with_the_verdicts_and_never_read_another_hand(preset):
    """Over random games: each annotated move's verdict lists the annotated effects first and then only what a
    finish sets off; a finish it completes is forbidden exactly when annotated so; and reshuffling the other
    hands never changes a seat's annotations."""
    compared = finishes = swaps = 0
    for seed in range(4):
        rng = random.Random(seed)
        st, _ = new_game("nanko" if preset == "switches" else preset, _switches(rng) if preset == "switches" else None,
                         ["a", "b", "c", "d"], seed)
        while actors(st):
            for seat in actors(st):
                legal = legal_moves(st, seat)
                annotated = annotate(st, legal)
                if rng.random() < 0.2:
                    other = with_other_hands_swapped(st, seat, rng)
                    assert annotate(other, legal_moves(other, seat)) == annotated
                    assert forbidden_last(other, seat) == forbidden_last(st, seat)
                    swaps += 1
                for entry in annotated:
                    if "choose" in entry:
                        continue
                    verdict, _, events = apply(st, entry)
                    k = len(entry["effects"])
                    assert verdict.legal and list(verdict.effects[:k]) == entry["effects"], (entry, verdict.effects)
                    assert set(verdict.effects[k:]) <= FINISHING, (entry, verdict.effects)
                    compared += 1
                    for item in events[0]["outcome"]:
                        if item.get("kind") == "finish" and item["seat"] == seat and not item.get("last"):
                            assert bool(item.get("why")) == entry["forbidden_finish"], (entry, item)
                            finishes += 1
            seat = actors(st)[0]
            _, st, _ = apply(st, instantiate(rng.choice(legal_moves(st, seat)), rng))
    assert compared > 500 and finishes > 10 and swaps > 20, (compared, finishes, swaps)


@pytest.mark.parametrize("preset", ["gekifugo", "nanko"])
@pytest.mark.parametrize("seed", range(3))
def test_annotations_kept_while_listing_equal_annotations_judged_afresh(preset, seed):
    """A listing for a caller that annotates (options(noted=True), as the mc playouts ask) memoises each play's
    annotation from its judgement there (with declarations, gekifugo: from the probe's); judged afresh, with
    empty memos, every play is annotated alike."""
    from referee.annotate import play_notes
    from referee.legal import options
    from referee.moves import Move

    from .test_judged_memo import fresh_memos

    st, _ = new_game(preset, None, ["a", "b", "c", "d"], seed)
    rng = random.Random(seed)
    compared = 0
    while actors(st) and compared < 60:
        seat = actors(st)[0]
        if not st.pending and st.phase == "play":
            with fresh_memos(st.rules):
                moves = options(st, seat, noted=True)
                kept = play_notes(st, seat, moves)
            with fresh_memos(st.rules):
                fresh = play_notes(st, seat, moves)
            assert kept == fresh
            compared += sum(1 for m in moves if isinstance(m, Move) and m.action == "play"
                            and (m.declare or not st.rules.declarations))
        _, st, _ = apply(st, instantiate(rng.choice(legal_moves(st, seat)), rng))
    assert compared >= 60
