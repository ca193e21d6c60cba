"""benchmarks/bots.py --strength as a user runs it: a row per preset, and with --switches the deals are played at
tables of random rule switches, each table's rules reported."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _rows(*args: str) -> list[dict]:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bots.py"), "--strength", "--bot", "policy",
                          "--against", "greedy", "--json", *args], cwd=ROOT, capture_output=True, text=True,
                         timeout=300, check=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def test_the_deals_are_shared_among_tables_of_random_switches():
    [row] = _rows("--presets", "nanko", "--deals", "5", "--switches", "2")
    assert row["preset"] == "nanko+sw" and row["deals"] == 5
    assert len(row["tables"]) == 2 and all(len(rules) == 8 for rules in row["tables"])
    assert row["tables"][0] != row["tables"][1]
    assert 1.0 <= row["mean_place"] <= 4.0 and row["ms_max"] >= row["ms_p99"]


def test_without_switches_the_preset_is_played_as_it_is():
    [row] = _rows("--presets", "uecda", "--deals", "3")
    assert row["preset"] == "uecda" and row["deals"] == 3 and row["tables"] == [None]
