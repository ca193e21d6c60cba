"""A registered bot in a process of its own (examples/random_bot.py on referee_client) plays whole games against
worker bots through its stream, and survives being SIGKILLed mid-game: the owed turn is sent again."""
from __future__ import annotations


import requests

from . import test_faults
from tests.procs import free_port, wait_until

from .test_faults import ROOT, api_with_bot

fault_env = test_faults.fault_env  # real processes on the suite's Redis, SIGKILLed at the end

RANDOM_SEATS = [{"name": f"r{i}", "bot": "random"} for i in range(3)]


def _setup(fault_env):
    _, procs, base, bot = api_with_bot(fault_env, "remote")
    return procs, base, bot


def _new_game(base, bot, seat, seed):
    players = RANDOM_SEATS[:seat] + [{"name": "remote", "bot": bot["seat"]}] + RANDOM_SEATS[seat:]
    r = requests.post(f"{base}/v1/games", json={"preset": "uecda", "seed": seed, "players": players}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def _legal(base, game):
    r = requests.get(f"{base}/v1/games/{game['game_id']}/legal-moves?seat=0",
                     headers={"Authorization": f"Bearer {game['table_token']}"}, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def _moves_by(base, game, seat):
    r = requests.get(f"{base}/v1/games/{game['game_id']}/events",
                     headers={"Authorization": f"Bearer {game['table_token']}"}, timeout=10)
    return sum(1 for e in r.json()["events"] if e["type"] == "move" and e["move"]["seat"] == seat)


def _bot(procs, base, bot, name):
    return procs.start(name, [str(ROOT / "examples" / "random_bot.py")], BOT_TOKEN=bot["bot_token"], REFEREE_URL=base)


def test_a_bot_process_plays_whole_games_through_its_stream(fault_env):
    procs, base, bot = _setup(fault_env)
    games = [(_new_game(base, bot, seat, seed), seat) for seat, seed in [(0, 11), (2, 12)]]
    _bot(procs, base, bot, "bot")
    for game, seat in games:
        wait_until(lambda: _legal(base, game)["actors"] == [], 120, "the game to finish")
        assert _moves_by(base, game, seat) > 0  # the registered bot played its seat


def test_a_bot_killed_mid_game_gets_its_owed_turn_again_and_finishes(fault_env):
    procs, base, bot = _setup(fault_env)
    game = _new_game(base, bot, 1, 21)
    first = _bot(procs, base, bot, "bot-1")
    wait_until(lambda: _moves_by(base, game, 1) >= 2, 120, "the bot's first moves")
    first.kill()
    first.wait(timeout=20)
    # the workers play on up to the bot's seat, then the turn waits for the bot
    wait_until(lambda: 1 in _legal(base, game)["actors"] or _legal(base, game)["actors"] == [], 60, "the bot's turn to be owed")
    owed = _legal(base, game)
    assert 1 in owed["actors"], "the deal ended while the bot was down"
    played = _moves_by(base, game, 1)
    _bot(procs, base, bot, "bot-2")
    wait_until(lambda: _legal(base, game)["actors"] == [], 120, "the game to finish")
    assert _moves_by(base, game, 1) > played  # the restarted bot answered the turn owed while it was down


def test_the_client_covers_the_game_calls_and_the_dispute_example(fault_env):
    import subprocess
    import sys

    from referee_client import Referee, RefereeError, concrete

    settings, procs = fault_env
    port = free_port()
    procs.api("api", port)
    base = f"http://127.0.0.1:{port}"
    ref = Referee(base)
    game = ref.create_game(["Ann", "Ben", "Cho", "Dai"], seed=3)
    t = game.table_token
    assert ref.join(game.game_id, game.seat_tokens[2])[0] == 2 and ref.join(game.game_id, t)[0] == "table"
    seat = ref.legal_moves(game.game_id, t, 0).actors[0]
    legal = ref.legal_moves(game.game_id, game.seat_tokens[seat])
    move = concrete(legal.moves[0])
    assert ref.judge(game.game_id, t, move).verdict.legal
    first = ref.move(game.game_id, game.seat_tokens[seat], move, expected_seq=legal.seq, idempotency_key="k1")
    again = ref.move(game.game_id, game.seat_tokens[seat], move, expected_seq=legal.seq, idempotency_key="k1")
    assert first.verdict.legal and not first.replayed and again.replayed and again.seq == first.seq
    illegal = ref.move(game.game_id, game.seat_tokens[seat], move)  # the same cards again: not legal now
    assert not illegal.verdict.legal
    assert ref.replay(game.game_id, t, 0).seq == 0 and len(ref.events(game.game_id, t)) == first.seq + 1
    assert ref.record(game.game_id, t).startswith(f"# game {game.game_id}")
    idle = (seat + 1) % 4  # the deal depends on the server's seed secret: judge a seat that is not to act
    assert ref.judge_detached(game.state, {"seat": idle, "action": "pass"}).verdict.reason == "not_your_turn"
    try:
        ref.state(game.game_id, "seat_wrong")
        raise AssertionError("a wrong token was accepted")
    except RefereeError as exc:
        assert exc.status == 401 and exc.code == "invalid_token"
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "settle_dispute.py")], cwd=str(ROOT), text=True,
                         env=dict(procs.env, REFEREE_URL=base), capture_output=True, timeout=60)
    assert out.returncode == 0 and out.stdout.startswith(("legal", "not legal")), out.stderr
