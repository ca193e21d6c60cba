"""A clock no limit breaks: a registered bot's answers to the turns it owes are never refused by the per-token or
per-address move rate; its other moves are, and a refusal while it owes a turn never asks it to wait past the
turn. Fallbacks are counted per seat in the game's state. The API on the suite's real Redis and real RQ workers."""
from __future__ import annotations

import secrets

from referee import instantiate

from .test_limits import _app, _client, _error


def _owed(c, gid, token, seat=0):
    legal = c.get(f"/v1/games/{gid}/legal-moves?seat={seat}", token).json
    return legal if seat in legal["actors"] else None


def _bot_game(c, budget_ms: int) -> tuple[str, str]:
    """A new bot's token and a game seating it at seat 0 beside three `random` workers."""
    bot = c.post("/v1/bots", {"name": f"clk{secrets.token_hex(3)}"}).json
    players = [{"name": "me", "bot": bot["seat"]}] + [{"name": f"w{i}", "bot": "random"} for i in range(3)]
    g = c.post("/v1/games", {"preset": "uecda", "seed": 9, "players": players, "bot_budget_ms": budget_ms}).json
    return bot["bot_token"], g["game_id"]


def test_a_bots_answers_to_its_owed_turns_pass_any_move_rate(settings, run_bots):
    app, _ = _app(settings, rate_moves_per_token=2, rate_moves_per_address=3, rate_create_per_address=0)
    c = _client(app, "10.9.0.1")
    token, gid = _bot_game(c, 60_000)
    answered = 0
    while True:
        run_bots()
        legal = _owed(c, gid, token)
        if legal is None:
            break
        move = dict(instantiate(legal["moves"][0]), expected_seq=legal["seq"])
        r = c.post(f"/v1/games/{gid}/moves", move, token)
        assert r.status_code == 200, (answered, r.json)
        answered += 1
    assert answered > 3, "the bot answered more turns than either limit allows"
    # a move that answers no owed turn (a stale expected_seq) is counted and limited as any token's
    stale = {"seat": 0, "action": "pass", "expected_seq": 0}
    statuses = [c.post(f"/v1/games/{gid}/moves", stale, token).status_code for _ in range(4)]
    assert statuses[:2] == [409, 409] and 429 in statuses, statuses


def test_an_over_limit_bot_owing_a_turn_is_never_told_to_wait_past_it(settings, run_bots):
    app, _ = _app(settings, rate_moves_per_token=1, rate_moves_per_address=0, rate_create_per_address=0,
                  rate_window_s=3600)
    c = _client(app, "10.9.0.2")
    token, gid = _bot_game(c, 5000)
    run_bots()
    legal = _owed(c, gid, token)
    for _ in range(3):  # over the limit with stale answers
        c.post(f"/v1/games/{gid}/moves", {"seat": 0, "action": "pass", "expected_seq": legal["seq"] + 5}, token)
    move = dict(instantiate(legal["moves"][0]), expected_seq=legal["seq"])
    r = _error(c.post(f"/v1/games/{gid}/moves", move, token), 429, "rate_limited")
    assert 0 <= int(r.headers["Retry-After"]) <= 5, r.headers  # the hour's window would say 3600


def test_fallbacks_are_counted_per_seat_in_the_games_state(client, app):
    from rq import Queue

    from service.deadlines import DeadlineKeeper
    from service.redis_conn import connect
    from workers.rq_worker import PromptSimpleWorker

    svc = app.extensions["referee.service"]
    bot = client.post("/v1/bots", {"name": f"fb-{secrets.token_hex(3)}"}).json
    hands = [["D3", "S9"], ["S4", "H5", "S7"], ["S5", "HT", "S8"], ["SK", "C4", "H8"]]
    players = [{"name": "me", "bot": bot["seat"]}] + [{"name": f"h{i}"} for i in range(3)]
    g = client.post("/v1/games", {"preset": "nanko", "players": players, "hands": hands, "bot_budget_ms": 100,
                                  "bot_away_after": 0}).json
    gid = g["game_id"]
    rec = svc.load(gid)
    assert DeadlineKeeper(svc.store, svc.scheduler, clock=lambda: rec.deadline + 0.01).run_once() >= 1  # others' too
    raw = connect(svc.settings.redis_url, decode=False)
    PromptSimpleWorker([Queue(svc.settings.queue_name, connection=raw)], connection=raw).work(burst=True, with_scheduler=False)
    player = client.state(gid, g["table_token"])[0]["players"][0]
    assert player["fallbacks"] == {"timeout": 1, "away": 0, "resigned": 0} and player["missed"] == 1
