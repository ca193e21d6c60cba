"""The one scoring of finished deals: UECda points, the mean place with its 95% interval, and the per-bot summary
that in-process tournaments and leagues on a server print."""
import math

import pytest

from referee.scoring import mean_ci95, standing, uecda_points
from workers.tournament import last_line, summarize, table


def test_uecda_points_are_the_contests_at_five_seats_and_the_same_ladder_elsewhere():
    assert [uecda_points(p, 5) for p in range(1, 6)] == [5, 4, 3, 2, 1]  # 大富豪 … 大貧民
    assert [uecda_points(p, 4) for p in range(1, 5)] == [4, 3, 2, 1]
    assert [uecda_points(p, 2) for p in (1, 2)] == [2, 1]
    for bad in (0, 6):
        with pytest.raises(ValueError):
            uecda_points(bad, 5)


def test_the_interval_is_the_normal_approximation():
    mean, low, high = mean_ci95([1, 2, 3, 4])
    half = 1.96 * math.sqrt(5 / 3) / 2  # sample sd of 1..4 is sqrt(5/3)
    assert mean == 2.5 and low == pytest.approx(2.5 - half) and high == pytest.approx(2.5 + half)
    assert mean_ci95([3]) == (3, 3, 3)
    with pytest.raises(ValueError):
        mean_ci95([])


def test_the_interval_counts_the_deals_of_a_match_as_dependent():
    """Cluster-robust over matches: alike within matches and apart between them widens it, the reverse narrows it;
    one match per deal (or a single match) is the plain interval."""
    xs = [1.0, 1.0, 4.0, 4.0]
    plain = mean_ci95(xs)
    assert mean_ci95(xs, ["a", "b", "c", "d"]) == pytest.approx(plain)
    assert mean_ci95(xs, ["m", "m", "m", "m"]) == pytest.approx(plain)
    mean, low, high = mean_ci95(xs, ["a", "a", "b", "b"])
    assert mean == 2.5 and high - mean == pytest.approx(1.96 * math.sqrt(((2 - 5) ** 2 + (8 - 5) ** 2) * 2) / 4)
    assert high - mean > plain[2] - plain[0]
    assert mean_ci95([1.0, 4.0, 1.0, 4.0], ["a", "a", "b", "b"]) == (2.5, 2.5, 2.5)


def test_a_summary_reads_the_match_of_each_deal():
    others = {1: [2, 3, 4], 2: [1, 3, 4], 3: [1, 2, 4], 4: [1, 2, 3]}
    records = [{"places": [p] + others[p], "bots": ["me", "x", "y", "z"], "forbidden": [0, 0, 0, 0], "match": m}
               for p, m in ((1, "0"), (1, "0"), (2, "0"), (2, "0"), (3, "1"), (3, "1"), (4, "1"), (4, "1"))]
    assert summarize(records)["me"]["ci95"] == [1.0, 4.0]  # 2.5 ± 1.96: two matches, far apart, clipped
    alone = summarize([{k: v for k, v in r.items() if k != "match"} for r in records])["me"]["ci95"]
    assert alone == [round(2.5 - 1.96 * math.sqrt(10 / 7) / math.sqrt(8), 3), round(2.5 + 1.96 * math.sqrt(10 / 7) / math.sqrt(8), 3)]
    assert summarize([dict(r, game_id=r["match"]) for r in records], "game_id")["me"]["ci95"] == [1.0, 4.0]


def test_a_standing_counts_points_per_table_size_and_clips_the_interval_to_the_places():
    s = standing([1, 1, 1, 2], [4, 4, 4, 4], forbidden=1)
    assert s["deals"] == 4 and s["mean_place"] == 1.25 and s["first_share"] == 0.75
    assert s["points"] == 4 + 4 + 4 + 3 and s["mean_points"] == 3.75 and s["forbidden_finishes"] == 1
    assert s["ci95"][0] == 1.0 and s["ci95"][1] == round(1.25 + 1.96 * 0.5 / 2, 3)  # the low end clipped at 1
    assert standing([4, 4, 5], [4, 4, 5])["ci95"][1] <= 5
    assert standing([2, 5], [5, 5])["points"] == 4 + 1


def test_a_summary_gathers_each_bot_over_rotated_seats():
    records = [{"places": [1, 2, 3, 4], "bots": ["@me", "greedy", "random", "random"], "forbidden": [0, 0, 1, 0]},
               {"places": [4, 1, 2, 3], "bots": ["random", "@me", "greedy", "random"], "forbidden": [0, 0, 0, 0]}]
    s = summarize(records)
    assert list(s) == ["@me", "greedy", "random"]
    assert s["@me"]["deals"] == 2 and s["@me"]["mean_place"] == 1 and s["@me"]["points"] == 8
    assert s["random"]["deals"] == 4 and s["random"]["points"] == 2 + 1 + 1 + 2
    assert s["random"]["forbidden_finishes"] == 1
    assert sum(b["points"] for b in s.values()) == 2 * (4 + 3 + 2 + 1)  # every deal hands out every place once
    summary = {"preset": "uecda", "deals": 2, "seats": ["@me", "greedy", "random", "random"], "bots": s}
    assert "@me" in table(summary) and "points" in table(summary)
    assert last_line(summary)["bots"]["@me"] == {"mean_place": 1.0, "ci95": [1.0, 1.0], "first_share": 1.0,
                                                 "points": 8, "mean_points": 4.0}


def test_the_standings_are_printed_best_first():
    records = [{"places": [4, 1, 2, 3], "bots": ["alpha", "zeta", "mid", "mid"], "forbidden": [0, 0, 0, 0]}]
    s = summarize(records)
    assert list(s) == ["zeta", "mid", "alpha"]  # by mean place, not by name
    rows = table({"preset": "uecda", "deals": 1, "seats": ["alpha", "zeta", "mid", "mid"], "bots": s}).splitlines()[2:]
    assert [r.split()[0] for r in rows] == ["zeta", "mid", "alpha"]


def test_a_league_warns_when_a_registered_bots_seats_were_mostly_played_by_the_fallback():
    from workers.league import fallback_warnings

    none = {"timeout": 0, "away": 0, "resigned": 0}
    records = [{"bots": ["@gone", "@here", "mc", "random"], "seat_moves": [10, 10, 10, 10],
                "fallbacks": [{**none, "timeout": 2, "away": 7}, {**none, "timeout": 1}, none, none]}]
    warnings = fallback_warnings(records)
    assert len(warnings) == 1 and warnings[0].startswith("@gone: 9 of its 10 moves were played by the server's fallback")
