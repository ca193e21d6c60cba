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
from service.errors import NotFound
from service.games import GameService, worker_bot
from service.redis_conn import connect_cluster, decoding
from service.scheduler import BotScheduler
from service.settings import Settings
from service.store import GameStore

from . import bots
from .bots.observer import ask


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
    raw = job.connection
    logs.reset(game_id=game_id, seq=seq, job=job.id)
    settings = Settings.from_env(key_prefix=key_prefix, queue_name=queue_name)
    service = GameService(GameStore.from_settings(store_connection(raw), settings), BotScheduler(raw, queue_name, key_prefix))
    if job.enqueued_at is not None:
        waited = datetime.now(timezone.utc) - job.enqueued_at.replace(tzinfo=timezone.utc)
        metrics.BOT_WAIT_SECONDS.observe(max(0.0, waited.total_seconds()))
    started = time.perf_counter()
    try:
        out = play(service, game_id, seq, strategy=lambda name: _bot(name, settings.mc_budget_ms, settings.mc_playouts))
    except Exception:
        metrics.BOT_JOBS.labels("error").inc()
        log.exception("bot turn failed")
        raise
    finally:
        metrics.BOT_JOB_SECONDS.observe(time.perf_counter() - started)
    metrics.BOT_JOBS.labels(out["status"]).inc()
    try:
        metrics.touch_game(service.store.r, key_prefix, game_id)
    except Exception:  # noqa: BLE001 - a metric never fails a bot turn
        pass
    log.info("bot turn %s", out["status"], extra={k: out[k] for k in ("seat",) if k in out})
    logs.reset()  # the worker's own log lines after the job are not about this game
    return out


@lru_cache(maxsize=None)
def _bot(name: str, mc_budget_ms: float | None, mc_playouts: int | None):
    options = {k: v for k, v in (("budget_ms", mc_budget_ms), ("playouts", mc_playouts)) if v is not None}
    return bots.make(name, **options) if name == "mc" and options else bots.get(name)


def play(service: GameService, game_id: str, seq: int, strategy=bots.get) -> dict:
    """Submit one bot move through the same conditional append as any client.

    The bot gets what the observer builds (the seat's view and its annotated legal moves) and (if it wants it) the seat's redacted log; ``mc`` stops
    searching at its time budget (200 ms by default), so the move is proposed well within budget + 1 s.
    On a seq conflict, re-read: if the game moved on, the applier of the newer
    seq scheduled its own job, so this one only retries while it is still current.
    """
    while True:
        try:
            rec = service.load(game_id)
        except NotFound:
            return {"status": "gone", "seq": seq}  # deleted or expired while the turn waited
        if rec.seq != seq:
            return {"status": "superseded", "seq": rec.seq}
        state = service.state_of(rec)
        seats = [s for s in engine.actors(state) if worker_bot(rec.bots[s])]  # never a registered bot's
        if not seats:
            return {"status": "no_bot_to_act", "seq": seq}
        seat = seats[0]
        legal = engine.legal_moves(state, seat)
        if not legal:
            return {"status": "no_legal_move", "seq": seq, "seat": seat}
        rng = random.Random(f"{game_id}:{seq}:{seat}")
        bot = strategy(rec.bots[seat])
        history = None
        if bots.wants_history(bot):
            # the seat's own redacted log: what it could have seen at the table, nothing more
            history = [engine.redact_event(e, seat) for e in service.store.events(game_id)]
        move = ask(bot, state, seat, rng, history=history, legal=legal)
        try:
            status, body = service.propose(game_id, move, viewer=seat, expected_seq=seq, rec=rec)
        except Exception as exc:  # noqa: BLE001 - a conflict means: re-read and decide again
            if getattr(exc, "code", None) == "stale_seq":
                metrics.BOT_RETRIES.inc()
                continue
            if isinstance(exc, NotFound):
                return {"status": "gone", "seq": seq}
            raise
        return {"status": "applied" if status == 200 else "rejected", "seq": body["seq"], "seat": seat,
                "verdict": body["verdict"]}
