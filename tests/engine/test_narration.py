"""What `referee simulate` prints: names and titles, never a dict; the end of a deal after what else it set off."""
import io
import re

from referee.cli import simulate
from referee.narrate import outcome_lines


def test_the_end_of_the_deal_is_told_after_the_flush_the_same_move_made():
    outcome = [{"kind": "finish", "seat": 1, "place": 3}, {"kind": "deal_over"}, {"kind": "flush"}]
    assert outcome_lines(outcome, ["ann", "bo", "cy"]) == [
        "seat 1 (bo) finishes 3rd", "the field is flushed (流れ)", "the deal is over"]


def test_simulate_ends_each_deal_with_places_by_name_and_title():
    out = io.StringIO()
    simulate("nanko", 1, 4, 2, None, out=out)
    lines = out.getvalue().splitlines()
    ends = [line for line in lines if re.match(r"deal \d over:", line)]
    assert len(ends) == 2 and ends[-1] == lines[-1]
    for line in ends:
        assert "{" not in line
        assert line.split(": ", 1)[1].startswith("1. bot")
        assert "(大富豪)" in line and "(大貧民)" in line
        assert sorted(re.findall(r"bot\d", line)) == ["bot0", "bot1", "bot2", "bot3"]
    assert all(line.strip() != "the deal is over" or nxt.startswith("deal ") for line, nxt in zip(lines, lines[1:]))
