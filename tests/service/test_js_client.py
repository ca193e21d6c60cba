"""The JavaScript client (clients/js/, Node 20, written against openapi.yaml) proves the spec from another
language: its own tests pass under `node --test`, and its example bot (clients/js/examples/bot.mjs) plays a
registered bot's seat to the end of a game against a real server (gunicorn and `referee worker` processes)."""
from __future__ import annotations

import shutil
import subprocess

import requests

from tests.procs import wait_until

from . import test_faults
from .test_faults import ROOT, api_with_bot

fault_env = test_faults.fault_env  # real processes on the suite's Redis, SIGKILLed at the end
NODE = shutil.which("node") or "node"  # Node 20 is on the machines; a missing one fails, loudly


def _auth(token):
    return {"Authorization": f"Bearer {token}"}


def test_the_js_client_passes_its_own_tests():
    out = subprocess.run([NODE, "--test", "clients/js/test/"], cwd=str(ROOT), capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_js_example_bot_plays_a_game_to_its_end(fault_env):
    settings, procs, base, bot = api_with_bot(fault_env, "js")
    players = [{"name": "js", "bot": bot["seat"]}] + [{"name": f"r{i}", "bot": "random"} for i in range(3)]
    game = requests.post(f"{base}/v1/games", json={"preset": "uecda", "seed": 7, "players": players, "deals": 1},
                         timeout=10).json()
    gid = game["game_id"]
    log = procs.tmp / "node-bot.log"
    with open(log, "wb") as out:
        node = subprocess.Popen([NODE, "clients/js/examples/bot.mjs"], cwd=str(ROOT), stdout=out, stderr=subprocess.STDOUT,
                                env={**procs.env, "BOT_TOKEN": bot["bot_token"], "REFEREE_URL": base})
    try:
        wait_until(lambda: f"game {gid} over: finished" in log.read_text(), 120, "the JS bot to hear its game end")
    finally:
        node.kill()
        node.wait(timeout=10)
    events = requests.get(f"{base}/v1/games/{gid}/events", headers=_auth(game["table_token"]), timeout=10).json()["events"]
    mine = [e for e in events if e["type"] == "move" and e["move"]["seat"] == 0]
    assert mine and not [e for e in mine if e.get("fallback")], log.read_text()  # it played its seat itself
    state = requests.get(f"{base}/v1/games/{gid}", headers=_auth(game["table_token"]), timeout=10).json()
    assert state["phase"] == "deal_over" and f"deal 1: place {state['players'][0]['place']}" in log.read_text()
