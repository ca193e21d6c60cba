"""A league on a running referee: `referee tournament --server … --seat @bot …` seats a registered bot played by
its own process (examples/random_bot.py on referee_client.run_bot) next to worker bots, reads every deal's
result from the server and prints the standings; the server then lists the bot's recent results."""
from __future__ import annotations

import json
import secrets
import subprocess
import sys

import requests

from . import test_faults
from tests.procs import wait_until

from .test_faults import ROOT, api_with_bot

fault_env = test_faults.fault_env  # real processes on the suite's Redis, SIGKILLed at the end

DEALS = 3


def _league(procs, base, *args, timeout=240):
    return subprocess.run([sys.executable, "-m", "cli", "tournament", "--server", base, "--json", *args], cwd=str(ROOT),
                          env=procs.env, capture_output=True, text=True, timeout=timeout)


def test_a_league_seats_a_registered_bot_next_to_the_built_in_bots(fault_env):
    # a small mc budget: the deals end quickly
    settings, procs, base, bot = api_with_bot(fault_env, "league", REFEREE_MC_BUDGET_MS="20")
    name = bot["name"]
    procs.start("bot", [str(ROOT / "examples" / "random_bot.py")], BOT_TOKEN=bot["bot_token"], REFEREE_URL=base)

    seats = [f"@{name}", "greedy", "mc", "random"]
    out = _league(procs, base, *[a for s in seats for a in ("--seat", s)], "--deals", str(DEALS),
                  "--match-deals", "2", "--seed", "4", "--no-progress")
    assert out.returncode == 0, out.stderr + procs.logs()
    lines = out.stdout.strip().splitlines()
    last = json.loads(lines[-1])
    assert last["preset"] == "uecda" and last["deals"] == DEALS and len(last["games"]) == 2  # matches of 2 + 1
    assert last["seed"] == 4 and "league seed 4 " in out.stdout  # the organiser's, printed where it is useful
    standings = last["bots"]
    assert set(standings) == set(seats)
    # the printed table: one row per seat, every seat played every deal
    rows: dict = {}
    for line in lines:  # the standings' rows (the rating table after it names the seats again)
        if line.split() and line.split()[0] in seats:
            rows.setdefault(line.split()[0], line.split())
    assert set(rows) == set(seats) and all(int(r[1]) == DEALS for r in rows.values())
    # every deal hands out the places 1..4 once, and 4+3+2+1 UECda points
    assert round(sum(b["mean_place"] * DEALS for b in standings.values())) == DEALS * (1 + 2 + 3 + 4)
    assert sum(b["points"] for b in standings.values()) == DEALS * (4 + 3 + 2 + 1)
    for b in standings.values():
        assert 1 <= b["ci95"][0] <= b["mean_place"] <= b["ci95"][1] <= 4
        assert b["points"] == round(b["mean_points"] * DEALS)

    # the server kept the bot's results: one per deal of the league's games, matching the league's standings
    def listed():
        found = next(b for b in requests.get(f"{base}/v1/bots?limit=200", timeout=10).json()["bots"]
                     if b["name"] == name)
        return found if found["deals"] == DEALS else None

    mine = wait_until(listed, 30, "the bot's results on the server")
    assert {r["game_id"] for r in mine["recent"]} == set(last["games"])
    assert sorted((r["game_id"], r["deal"]) for r in mine["recent"]) == \
        sorted([(last["games"][0], 1), (last["games"][0], 2), (last["games"][1], 1)])
    assert mine["mean_place"] == standings[f"@{name}"]["mean_place"]
    assert mine["points"] == standings[f"@{name}"]["points"]
    assert "bot_" not in json.dumps(mine)


def test_a_league_stops_with_a_clear_error_when_a_registered_bot_does_not_play(fault_env):
    settings, procs, base, bot = api_with_bot(fault_env, "idle")
    name = bot["name"]
    out = _league(procs, base, "--seat", f"@{name}", "--seat", "random", "--seat", "random", "--seat", "random",
                  "--deals", "1", "--deal-timeout", "3", "--no-progress")
    assert out.returncode == 1
    assert f"(@{name}) — is the registered bot's process running?" in out.stderr
    out = _league(procs, base, "--seat", "@nobody-here", "--seat", "random", "--deals", "1", "--no-progress")
    assert out.returncode == 1 and "unknown_bot" in out.stderr


def test_a_league_interrupted_deletes_its_unfinished_games(fault_env):
    import signal

    from service.bot_accounts import BotAccounts
    from service.redis_conn import connect

    settings, procs, base, bot = api_with_bot(fault_env, "gone")
    name = bot["name"]
    accounts = BotAccounts(connect(settings.redis_url), settings.key_prefix)
    league = subprocess.Popen([sys.executable, "-m", "cli", "tournament", "--server", base, "--seat", f"@{name}",
                               "--seat", "random", "--seat", "random", "--deals", "4", "--match-deals", "2",
                               "--parallel", "2", "--no-progress"], cwd=str(ROOT), env=procs.env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        games = wait_until(lambda: len(accounts.games(name)) == 2 and accounts.games(name), 60, "both matches' games")
        league.send_signal(signal.SIGINT)  # the bot never plays: both deals wait for it
        _, err = league.communicate(timeout=60)
    finally:
        if league.poll() is None:
            league.kill()
    assert league.returncode == 130 and "interrupted" in err, err
    for gid in games:  # a game that exists answers 401 without a token; a deleted one 404
        r = requests.get(f"{base}/v1/games/{gid}", timeout=10)
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_game", gid


def test_a_league_of_2000_moves_meets_no_429_and_reports_fallbacks_per_seat(fault_env):
    """The bot's answers to its owed turns pass a per-token move rate far below what the league needs (50 a
    minute against hundreds): no 429 on the server, no fallback for the bot, and the report counts fallbacks per
    seat."""
    from tests.procs import free_port

    settings, procs = fault_env
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    procs.api("api", port, threads=12, REFEREE_RATE_MOVES_PER_TOKEN="50")  # 4 games' streams and the bot's
    for i in range(2):
        procs.worker(f"worker-{i}")
    bot = requests.post(f"{base}/v1/bots", json={"name": f"busy-{secrets.token_hex(3)}"}, timeout=10).json()
    procs.start("bot", [str(ROOT / "examples" / "random_bot.py")], BOT_TOKEN=bot["bot_token"], REFEREE_URL=base)
    seats = [bot["seat"], "random", "random", "random"]
    out = _league(procs, base, *[a for s in seats for a in ("--seat", s)], "--deals", "20", "--match-deals", "5",
                  "--parallel", "4", "--seed", "8", "--no-progress", timeout=600)
    assert out.returncode == 0, out.stderr + procs.logs()
    last = json.loads(out.stdout.strip().splitlines()[-1])
    assert last["moves"] >= 2000, last["moves"]
    mine = last["bots"][bot["seat"]]
    assert mine["fallbacks"] == {"timeout": 0, "away": 0, "resigned": 0}, mine
    assert set(last["bots"]["random"]["fallbacks"]) == {"timeout", "away", "resigned"}
    lo, hi = mine["rating"]["interval"]
    assert lo < mine["rating"]["mu"] < hi
    assert "timeouts" in out.stdout and "95% interval" in out.stdout  # the printed fallback and rating table
    metrics = requests.get(f"{base}/metrics", timeout=10).text
    refused = [line for line in metrics.splitlines() if 'status="429"' in line and not line.startswith("#")]
    assert not refused, refused
