"""RQ job: play the bot seats that must act at one seq of one game."""
from __future__ import annotations

import logging
import os
import random
import time
from datetime import datetime, timezone
from functools import lru_cache

import referee as engine
from rq import get_current_job

from service import logs, metrics
from service.backpressure import remaining_ms, shared_ms
from service.errors import NotFound
from service.bot_accounts import remote_name
from service.bot_turns import fallback_due, fallback_kind
from service.games import GameService, worker_bot
from service.redis_conn import connect_cluster, decoding
from service.scheduler import BotScheduler
from service.settings import Settings
from service.store import GameStore

from . import bots
from .bots.observer import ask
from .fallback import fallback_move


log = logging.getLogger("referee.bots")
_cluster = None  # one Redis Cluster client per worker process (it keeps the slot map)


def store_connection(raw):
    """Where games live: the Redis Cluster of REDIS_CLUSTER_NODES, else the queue's own server."""
    global _cluster
    nodes = os.environ.get("REDIS_CLUSTER_NODES")
    if not nodes:
        return decoding(raw)
    if _cluster is None:
        _cluster = connect_cluster(nodes)
    return _cluster


def play_bot_turn(game_id: str, seq: int, key_prefix: str, queue_name: str) -> dict:
    job = get_current_job()
    assert job is not None, "play_bot_turn runs as an RQ job"
    raw = job.connection
    logs.reset(game_id=game_id, seq=seq, job=job.id)
    settings = Settings.from_env(key_prefix=key_prefix, queue_name=queue_name)
    service = GameService(GameStore.from_settings(store_connection(raw), settings), BotScheduler(raw, queue_name, key_prefix),
                          settings=settings)
    if job.enqueued_at is not None:
        waited = datetime.now(timezone.utc) - job.enqueued_at.replace(tzinfo=timezone.utc)
        metrics.BOT_WAIT_SECONDS.observe(max(0.0, waited.total_seconds()))
    started = time.perf_counter()
    try:
        out = play_owed(service, game_id, seq, settings)
    except Exception:
        metrics.BOT_JOBS.labels("error").inc()
        log.exception("bot turn failed")
        raise
    finally:
        metrics.BOT_JOB_SECONDS.observe(time.perf_counter() - started)
    metrics.BOT_JOBS.labels(out["status"]).inc()
    if out["status"] == "applied" and out.get("fallback"):
        metrics.BOT_FALLBACKS.labels(out["fallback"]).inc()
    elif out["status"] == "applied" and "owed_for_s" in out:
        metrics.BOT_TURN_SECONDS.observe(out["owed_for_s"])
    try:
        metrics.touch_game(service.store.r, key_prefix, game_id)
    except Exception:  # noqa: BLE001 - a metric never fails a bot turn
        pass
    log.info("bot turn %s", out["status"], extra={k: out[k] for k in ("seat", "budget_ms") if k in out})
    logs.reset()  # the worker's own log lines after the job are not about this game
    return out


def play_owed(service: GameService, game_id: str, seq: int, settings: Settings, clock=time.time,
              backlog: tuple[int, int] | None = None) -> dict:
    """Play the turn owed at ``seq`` within what is left of the bot's budget, counted from when the turn became
    owed (the ``owed_at`` the appending script stored): a turn that waited in the queue searches for less, and
    one that waited its whole budget away plays the greedy policy at once. The turns queued behind this one
    (``backlog``: (turns queued, workers), looked up when not given) share that time with it, so the last of
    them is not late either."""
    status = service.store.turn_status([game_id])[0]
    owed_at = status.owed_at if status.owed == seq and status.owed_at else clock()
    full_ms = settings.mc_turn_budget_ms
    if backlog is None:
        backlog = (service.scheduler.queue.count, service.scheduler.workers())
    left_ms = shared_ms(remaining_ms(full_ms, owed_at, clock()), *backlog)
    given: dict = {}

    def strategy(name: str):
        bot, given["budget_ms"] = bot_within(name, left_ms, full_ms, settings.mc_playouts)
        return bot

    out = play(service, game_id, seq, strategy=strategy)
    out.update(given)
    if out["status"] == "applied":
        out["owed_for_s"] = max(0.0, clock() - owed_at)
    return out


def warm_up() -> None:
    """Load what a first bot turn would: the engine's modules and one decision of every strategy."""
    state, _ = engine.new_game("uecda", players=["a", "b", "c", "d"], seed=0)
    seat = engine.actors(state)[0]
    for name in bots.names():
        ask(_bot(name, None, None), state, seat, random.Random(0), history=[], legal=engine.legal_moves(state, seat))


def bot_within(name: str, left_ms: float, full_ms: float, playouts: int | None):
    """(the bot for strategy ``name`` searching at most ``left_ms``, the budget it was given; None: it has none)."""
    if name not in bots.SEARCHES:
        return _bot(name, None, None), None
    if left_ms <= 0:
        return bots.get("greedy"), 0.0
    if left_ms >= full_ms:
        return _bot(name, full_ms, playouts), full_ms
    options = {"budget_ms": left_ms, **({"playouts": playouts} if playouts is not None else {})}
    return bots.make(name, **options), left_ms


@lru_cache(maxsize=None)
def _bot(name: str, mc_budget_ms: float | None, mc_playouts: int | None):
    options = {k: v for k, v in (("budget_ms", mc_budget_ms), ("playouts", mc_playouts)) if v is not None}
    return bots.make(name, **options) if name in bots.SEARCHES and options else bots.get(name)


def play(service: GameService, game_id: str, seq: int, strategy=bots.get) -> dict:
    """Submit one bot move through the same conditional append as any client.

    The bot gets what the observer builds (the seat's view and its annotated legal moves) and (if it wants it) the seat's redacted log; ``mc`` stops
    searching at its time budget (200 ms by default), so the move is proposed well within budget + 1 s.
    Once no worker seat acts and the registered bots' deadline has passed, the fallback plays a registered
    seat (a resigned or away one first), its move marked ``fallback`` (``resigned``, ``away`` or ``timeout``).
    On a seq conflict, re-read: if the game moved on (a late answer of the registered bot included), the
    applier of the newer seq scheduled its own job, so this one only retries while it is still current.
    """
    while True:
        try:
            rec = service.load(game_id)
        except NotFound:
            return {"status": "gone", "seq": seq}  # deleted or expired while the turn waited
        if rec.seq != seq:
            return {"status": "superseded", "seq": rec.seq}
        state = service.state_of(rec)
        actors = engine.actors(state)
        seats = [s for s in actors if worker_bot(rec.bots[s])]
        fallback = None
        if not seats and fallback_due(rec):
            seats = sorted((s for s in actors if remote_name(rec.bots[s])), key=lambda s: fallback_kind(rec, s) == "timeout")
            fallback = fallback_kind(rec, seats[0]) if seats else None
        if not seats:
            return {"status": "no_bot_to_act", "seq": seq}
        seat = seats[0]
        legal = engine.legal_moves(state, seat)
        if not legal:
            return {"status": "no_legal_move", "seq": seq, "seat": seat}
        rng = random.Random(f"{game_id}:{seq}:{seat}")
        if fallback:
            move = fallback_move((rec.botcfg or {}).get("fallback", "pass"), state, seat, rng, legal)
        else:
            bot = strategy(rec.bots[seat])
            history = None
            if bots.wants_history(bot):
                # the seat's own redacted log: what it could have seen at the table, nothing more
                history = [engine.redact_event(e, seat) for e in service.store.events(game_id)]
            move = ask(bot, state, seat, rng, history=history, legal=legal)
        try:
            status, body = service.propose(game_id, move, viewer=seat, expected_seq=seq, rec=rec, fallback=fallback)
        except Exception as exc:  # noqa: BLE001 - a conflict means: re-read and decide again
            if getattr(exc, "code", None) == "stale_seq":
                metrics.BOT_RETRIES.inc()
                continue
            if isinstance(exc, NotFound):
                return {"status": "gone", "seq": seq}
            raise
        out = {"status": "applied" if status == 200 else "rejected", "seq": body["seq"], "seat": seat,
               "verdict": body["verdict"]}
        return {**out, "fallback": fallback} if fallback else out
