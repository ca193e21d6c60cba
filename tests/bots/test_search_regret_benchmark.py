"""benchmarks/search_regret.py as a user runs it: hard turns kept, every candidate valued, variants' regrets printed."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> str:
    done = subprocess.run([sys.executable, "benchmarks/search_regret.py", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_points_oracle_and_regret(tmp_path):
    points, oracle = tmp_path / "points.json", tmp_path / "oracle.json"
    _run("points", "--preset", "uecda", "--points", "3", "--budget-ms", "15", "--out", str(points))
    kept = json.loads(points.read_text())
    assert len(kept) == 3 and all(p["playouts"] > 0 and p["legal"][0]["seat"] == 0 for p in kept)
    _run("oracle", str(points), "--worlds", "3", "--processes", "2", "--out", str(oracle))
    valued = json.loads(oracle.read_text())
    assert [o["point"] for o in valued] == [0, 1, 2]
    assert all(len(o["moves"]) == len(o["places"]) >= 2 and all(1 <= p <= 4 for p in o["places"]) for o in valued)
    out = _run("regret", str(points), str(oracle), "--variant", "{}", "--variant", '{"confident": 0.0}',
               "--repeats", "2", "--processes", "1")
    lines = [line for line in out.splitlines() if " regret " in line]
    assert len(lines) == 2 and "against the first" in lines[1]
    for line in lines:
        regret = float(line.split(" regret ")[1].split()[0])
        assert 0.0 <= regret <= 3.0
