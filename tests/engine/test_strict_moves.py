"""A move carries only the fields its action takes: anything else is a bad_move naming the field, so no junk is
judged legal and written into the event log."""
import pytest

from referee import InputError, apply, judge

from .helpers import game, move


def _st():
    return game("uecda", [["S3", "H8"], ["D4", "S5"], ["SA", "HQ"]])


@pytest.mark.parametrize("m, field", [
    ({"seat": 0, "action": "pass", "cards": ["S3"]}, "cards"),
    ({"seat": 0, "action": "play", "cards": ["S3"], "rank": "5"}, "rank"),
    ({"seat": 0, "action": "play", "cards": ["S3"], "count": 2}, "count"),
    ({"seat": 0, "action": "give", "cards": ["S3"], "declare": ["eight_cut"]}, "declare"),
    ({"seat": 0, "action": "request", "rank": "5", "cards": ["S3"]}, "cards"),
])
def test_a_field_the_action_does_not_take_is_a_bad_move_naming_it(m, field):
    st = _st()
    for call in (apply, judge):
        with pytest.raises(InputError) as e:
            call(st, m)
        assert e.value.code == "bad_move" and repr(field) in e.value.message


def test_empty_fields_and_echoed_annotations_are_accepted():
    st = _st()
    verdict, _, events = apply(st, move(0, "play", ["S3"], effects=[], kinds=[], forbidden_finish=False))
    assert verdict.legal and events[0]["move"] == {"seat": 0, "action": "play", "cards": ["S3"]}
    _, st, _ = apply(st, move(0, "play", ["S3"]))
    verdict, _, events = apply(st, {"seat": 1, "action": "pass", "cards": [], "declare": None})
    assert verdict.legal and events[0]["move"] == {"seat": 1, "action": "pass"}
