"""The golden playthroughs replay exactly with the engine as it is (tests/golden/record.py writes them)."""
from __future__ import annotations

import pytest

from tests.golden import record

FILES = sorted(record.GAMES_DIR.glob("*.txt"))


def test_every_preset_and_switch_set_has_a_golden_file():
    names = {p.stem for p in FILES}
    assert {s["name"] for s in record.PRESET_GAMES} <= names
    assert sum(n.startswith("switches-") for n in names) >= 3


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_playthrough_replays_exactly(path):
    expected = path.read_text(encoding="utf-8").splitlines()
    actual = record.play(record.read_spec(path))
    report = record.first_difference(expected, actual, path.name)
    if report is not None:
        pytest.fail(report + "\n(if this is a reviewed fix: python -m tests.golden.record --update)", pytrace=False)


def test_every_golden_game_ends_cleanly():
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        last = text.rstrip("\n").rsplit("\n", 1)[-1]
        assert last.startswith("replay of ") and last.endswith(" matches"), f"{path.name}: {last}"
        assert "stopped:" not in text and "ROUNDTRIP DIFFERS" not in text, path.name


def test_a_changed_ply_is_reported_with_its_header():
    path = record.path_of("nanko")
    lines = path.read_text(encoding="utf-8").splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("verdict ok effects="))
    changed = lines[:i] + ["verdict ok"] + lines[i + 1:]
    report = record.first_difference(lines, changed, "nanko.txt")
    ply = next(line for line in reversed(lines[:i]) if line.startswith("# ply"))
    assert report is not None and f"line {i + 1}, in {ply}" in report
    assert f"-{lines[i]}" in report and "+verdict ok" in report
    assert record.first_difference(lines, lines[:-1], "nanko.txt") is not None
    assert record.first_difference(lines, lines, "nanko.txt") is None


def test_a_choose_entry_stands_for_the_same_moves_as_the_card_sets_it_replaces():
    listed = [{"seat": 1, "action": "give", "cards": c} for c in (["S3", "H4"], ["S3", "D5"], ["H4", "D5"])]
    choose = [{"seat": 1, "action": "give", "choose": {"from": ["D5", "H4", "S3"], "min": 2, "max": 2},
               "rule": "exchange"}]
    assert record.concrete_moves(listed) == record.concrete_moves(choose)
    fixed = [{"seat": 0, "action": "discard", "cards": ["S2"], "choose": {"from": ["HA", "SA", "JK1"], "min": 1,
              "max": 1, "limit": {"cards": ["JK1"], "max": 0}}, "rule": "bloody_mary"}]
    assert [m["cards"] for m in record.concrete_moves(fixed)] == [["S2", "SA"], ["S2", "HA"]]


def test_rendering_does_not_depend_on_dict_or_card_order():
    a = {"seat": 2, "action": "play", "cards": ["JK1", "S3", "H3"], "as": {"JK1": "D3"}, "declare": ["x"]}
    b = {"declare": ["x"], "as": {"JK1": "D3"}, "cards": ["H3", "S3", "JK1"], "action": "play", "seat": 2}
    assert record.fmt_move(a, seat=True) == record.fmt_move(b, seat=True) == "2: play S3,H3,JK1+as={JK1=D3}+declare=[x]"


def test_annotations_added_to_legal_moves_change_only_the_legal_lines(monkeypatch):
    listed = record.legal_moves

    def annotated(st, seat):
        return [dict(m, effects=["seven_pass"], forbidden_finish=False) for m in listed(st, seat)]

    path = record.path_of("nanko")
    stored = path.read_text(encoding="utf-8").splitlines()
    monkeypatch.setattr(record, "legal_moves", annotated)
    now = record.play(record.read_spec(path))
    changed = [(a, b) for a, b in zip(stored, now) if a != b]
    assert len(now) == len(stored) and changed
    assert all(a.startswith("legal ") and "+effects=[seven_pass]" in b for a, b in changed)
