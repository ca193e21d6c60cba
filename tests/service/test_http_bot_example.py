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


def test_the_bots_the_readme_shows_are_the_examples_that_run():
    """The README's bots are the examples the tests run (tests/service/test_supervisor.py runs the Python one,
    test_js_client.py the JavaScript one), line for line."""
    root = SCRIPT.parents[2]
    section = (root / "README.md").read_text().split("## A bot over HTTP", 1)[1].split("\n## ", 1)[0]
    assert "docs/examples/http_bot.py" in section
    for fence, example in (("```python\n", "examples/random_bot.py"), ("```js\n", "clients/js/examples/bot.mjs")):
        shown = section.split(fence, 1)[1].split("```", 1)[0]
        assert shown.strip() and shown in (root / example).read_text(), example
