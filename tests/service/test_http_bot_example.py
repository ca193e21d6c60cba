"""The README's bot over HTTP (docs/examples/http_bot.py) plays its seat to the end against a live referee."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.web.live import LiveReferee

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "http_bot.py"


@pytest.fixture(scope="module")
def live():
    server = LiveReferee().start()
    yield server
    server.stop()


def test_the_readme_http_bot_plays_its_seat_until_it_finishes(live):
    out = subprocess.run([sys.executable, str(SCRIPT), live.base], capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr[-2000:] + live.worker_tail()
    lines = out.stdout.splitlines()
    assert [line for line in lines if line.startswith("200 seat 0 ")], out.stdout  # its own moves were accepted
    assert re.match(r"game \S+: I finished [1-4] \(\S+\)$|the deal is over$", lines[-1]), out.stdout


def test_the_loop_the_readme_shows_is_the_script_s():
    readme = (SCRIPT.parents[2] / "README.md").read_text()
    section = readme.split("## A bot over HTTP", 1)[1]
    shown = section.split("```python\n", 1)[1].split("```", 1)[0]
    assert shown.strip() and shown in SCRIPT.read_text()
