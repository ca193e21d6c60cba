"""Game records (referee.record): export -> import -> replay reproduces the match, for every preset."""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as hs

from referee import (InputError, actors, apply, instantiate, legal_moves, new_game, next_deal, redact_event, replay,
                     state_to_json)
from referee.presets import PRESETS
from referee.record import export_record, import_record, parse_record

PROFILE = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMES = ["ann", "bo #2", 'cy "the cat"', "dee", "大富豪", "eve", "fay"]


def random_match(preset, seed, players, deals, overrides=None, stop_early=None):
    rng = random.Random(seed)
    st, events = new_game(preset, overrides, NAMES[:players], seed)
    for _ in range(4000):
        seats = actors(st)
        if not seats:
            if st.deal >= deals:
                break
            st, new = next_deal(st)
            events += new
            continue
        if stop_early is not None and st.seq >= stop_early:
            break
        seat = rng.choice(seats)
        _, st, new = apply(st, instantiate(rng.choice(legal_moves(st, seat)), rng))
        events += new
    return st, events


@PROFILE
@given(preset=hs.sampled_from(sorted(PRESETS)), seed=hs.integers(0, 10**6), players=hs.integers(3, 6),
       deals=hs.integers(1, 2), stop=hs.one_of(hs.none(), hs.integers(0, 120)))
def test_export_import_replay_reproduces_the_final_state(preset, seed, players, deals, stop):
    st, events = random_match(preset, seed, players, deals, stop_early=stop)
    text = export_record(events)
    back = import_record(text)
    assert state_to_json(replay(back)) == state_to_json(st)
    assert back == events  # the very same log, verdicts and outcomes included


@pytest.mark.parametrize("overrides", [{"jack_back": False, "stairs": {"compare": "above"}},
                                       {"eight_cut": False, "revolution": {"min_group": 5, "min_stairs": 5}}])
def test_rule_overrides_survive(overrides):
    st, events = random_match("nanko", 3, 4, 1, overrides)
    text = export_record(events)
    rules_line = next(line for line in text.splitlines() if line.startswith("rules:"))
    assert json.loads(rules_line[len("rules:"):]) != {}
    assert state_to_json(replay(import_record(text))) == state_to_json(st)


def test_record_is_readable():
    _, events = random_match("gekifugo", 5, 4, 2)
    text = export_record(events)
    assert text.startswith("# daifugo-referee record v1")
    for line in ("preset: gekifugo", "view: table", "deal 1  (seq 0)", "deal 2  (seq"):
        assert line in text
    assert "      = seat " in text  # verdict messages
    assert "finishes 1st" in text
    moves = [e for e in events if e["type"] == "move"]
    assert len(parse_record(text)["deals"][0]["moves"]) + len(parse_record(text)["deals"][1]["moves"]) == len(moves)


def test_redacted_record_says_so_and_cannot_be_imported():
    _, events = random_match("nanko", 8, 4, 2)
    text = export_record([redact_event(e, 2) for e in events], viewer=2)
    assert "view: seat 2 (redacted" in text
    assert "seed: hidden" in text
    assert " hidden    # " in text
    with pytest.raises(InputError) as err:
        import_record(text)
    assert err.value.code == "bad_record" and "redacted" in err.value.message


@pytest.mark.parametrize("edit, needle", [
    (lambda t: t.replace("preset: uecda\n", ""), "no 'preset:' line"),
    (lambda t: t.replace("players: [", "players: {"), "'players:' is not JSON"),
    (lambda t: t.replace("\n   3  seat", "\n   4  seat", 1), "move numbered 4, expected 3"),
    (lambda t: t + "\nwhat is this\n", "cannot read this line"),
    (lambda t: t.replace("  hand 1:", "  hand 0:", 1), "hand 0 appears twice"),
    (lambda t: "", "empty"),
])
def test_bad_records_name_the_problem(edit, needle):
    _, events = random_match("uecda", 1, 4, 1)
    with pytest.raises(InputError) as err:
        import_record(edit(export_record(events)))
    assert err.value.code == "bad_record"
    assert needle in err.value.message


def test_illegal_move_names_its_line_and_the_verdict():
    st, events = new_game("uecda", None, ["a", "b", "c", "d"], 1,
                          hands=[["D3", "S4"], ["H5", "C6"], ["S7", "H8"], ["D9", "CT"]])
    _, st, new = apply(st, {"seat": 0, "action": "play", "cards": ["D3"]})
    text = export_record(events + new).replace("seat 0 play D3", "seat 0 play H5")
    with pytest.raises(InputError) as err:
        import_record(text)
    assert "record line" in err.value.message and "illegal" in err.value.message and "H5" in err.value.message


def test_the_events_a_rule_names_after_itself_are_narrated_by_that_rule():
    from referee.narrate import outcome_text
    players = ["ann", "bo"]
    assert outcome_text({"kind": "capital_fall", "seat": 1, "place": 4, "cards": ["S3", "JK"], "rule": "capital_fall"},
                        players) == "capital fall (都落ち): seat 1 (bo) drops to place 4, cards out: S3 JK"
    assert outcome_text({"kind": "gekokujo", "places": [4, 3, 2, 1], "rule": "gekokujo"}) == \
        "gekokujo (下剋上): places become [4, 3, 2, 1]"
    assert outcome_text({"kind": "cut_back", "seat": 0, "cards": ["JK"], "rule": "cut_back"}, players) == \
        "seat 0 (ann) cuts back with JK"
