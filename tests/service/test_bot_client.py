"""run_bot and arun_bot play games side by side: one game's slow policy call costs that game a timeout and
delays no other; the late answer's 409 stale_seq and the fallback are reported. Real processes (gunicorn,
`referee worker`) on the suite's Redis; the bot runs in this process, as its author would run it."""
from __future__ import annotations

import asyncio
import threading
import time

import requests

from referee_client import Referee, arun_bot, concrete, run_bot
from tests.procs import wait_until

from . import test_faults
from .test_faults import api_with_bot

fault_env = test_faults.fault_env  # real processes on the suite's Redis, SIGKILLed at the end
BUDGET_MS = 1000
SLOW_S = 1.8  # past the budget


# short deals: the bot (seat 0) leads with the 3 of diamonds, and every game lasts a dozen moves or so
HANDS = [["D3", "S9", "HQ", "C5", "DK"], ["S4", "H5", "S7", "D8", "CJ"], ["S5", "HT", "S8", "C9", "DA"],
         ["SK", "C4", "H8", "D6", "CQ"]]


def _games(base, bot, count):
    warm = requests.post(f"{base}/v1/games", json={"preset": "uecda", "hands": HANDS, "players": [
        {"name": f"w{i}", "bot": "greedy"} for i in range(4)]}, timeout=10).json()
    wait_until(lambda: _over(base, warm), 60, "the worker to be up and playing")  # its deadline keeper too
    players = [{"name": "bot", "bot": bot["seat"]}] + [{"name": f"g{i}", "bot": "greedy"} for i in range(3)]
    return [requests.post(f"{base}/v1/games", timeout=10, json={
        "preset": "uecda", "hands": HANDS, "players": players, "bot_budget_ms": BUDGET_MS, "bot_away_after": 0,
        "deals": 1}).json() for _ in range(count)]


def _fallbacks(base, game):
    events = requests.get(f"{base}/v1/games/{game['game_id']}/events", timeout=10,
                          headers={"Authorization": f"Bearer {game['table_token']}"}).json()["events"]
    return [e["fallback"] for e in events if e["type"] == "move" and e["move"]["seat"] == 0 and e.get("fallback")]


def _over(base, game):
    r = requests.get(f"{base}/v1/games/{game['game_id']}", timeout=10,
                     headers={"Authorization": f"Bearer {game['table_token']}"})
    return r.json()["phase"] == "deal_over"


def _check(base, games, reports, slow_game):
    for game in games:
        wait_until(lambda: _over(base, game), 120, "every game to end")
    assert _fallbacks(base, slow_game) == ["timeout"]
    assert all(_fallbacks(base, g) == [] for g in games if g is not slow_game), [_fallbacks(base, g) for g in games]
    wait_until(lambda: {r.kind for r in reports if r.game_id == slow_game["game_id"]} >= {"late", "stale_seq", "fallback"},
               20, "the late answer, its stale_seq and the deal's fallback to be reported")
    assert {r.game_id for r in reports if r.kind in ("late", "stale_seq", "fallback")} == {slow_game["game_id"]}


def test_run_bot_plays_three_games_side_by_side(fault_env):
    settings, procs, base, bot = api_with_bot(fault_env, "sides")
    games = _games(base, bot, 3)
    slow_game, slowed = games[0], []

    def policy(turn):
        if turn.game_id == slow_game["game_id"] and not slowed:
            slowed.append(turn.seq)
            time.sleep(SLOW_S)
        return concrete(turn.legal_moves.moves[0])

    reports, stop = [], threading.Event()
    runner = threading.Thread(target=run_bot, args=(bot["bot_token"], policy),
                              kwargs={"client": Referee(base), "should_stop": stop.is_set, "on_report": reports.append},
                              daemon=True)
    runner.start()
    try:
        _check(base, games, reports, slow_game)
    finally:
        stop.set()
    runner.join(30)
    assert not runner.is_alive(), "run_bot stops when told to, within a keep-alive"


def test_arun_bot_plays_games_side_by_side_with_an_async_policy(fault_env):
    settings, procs, base, bot = api_with_bot(fault_env, "async")
    games = _games(base, bot, 2)
    slow_game, slowed = games[0], []

    async def policy(turn):
        if turn.game_id == slow_game["game_id"] and not slowed:
            slowed.append(turn.seq)
            await asyncio.sleep(SLOW_S)
        return concrete(turn.legal_moves.moves[0])

    reports, stop = [], threading.Event()
    runner = threading.Thread(target=asyncio.run, args=(arun_bot(bot["bot_token"], policy, client=Referee(base),
                                                                 should_stop=stop.is_set, on_report=reports.append),),
                              daemon=True)
    runner.start()
    try:
        _check(base, games, reports, slow_game)
    finally:
        stop.set()
    runner.join(30)
    assert not runner.is_alive()
