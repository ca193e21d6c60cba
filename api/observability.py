"""Per-request plumbing: X-Request-Id, the JSON request log, Prometheus metrics, and the storage gate that turns
a Redis outage into 503 storage_unavailable on every route."""
from __future__ import annotations

import logging
import re
import secrets
import time

from flask import Flask, Response, current_app, g, request

from service import logs, metrics

log = logging.getLogger("referee.request")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:/+=-]{1,128}$")
CHECK_EVERY_S = 1.0  # routes that never touch Redis still answer 503 within this long of an outage


class StorageGate:
    """Remembers whether Redis answered lately; routes that do not touch it ping it at most once a second."""

    def __init__(self, ping):
        self.ping = ping
        self.ok_at = 0.0
        self.down = False

    def check(self) -> None:
        if not self.down and time.monotonic() - self.ok_at < CHECK_EVERY_S:
            return
        try:
            self.ping()
        except Exception:
            self.down = True
            raise
        self.down, self.ok_at = False, time.monotonic()

    def failed(self) -> None:
        self.down = True


def install(app: Flask, gate: StorageGate) -> None:
    app.extensions["referee.gate"] = gate

    @app.before_request
    def start():
        g.t0 = time.perf_counter()
        rid = request.headers.get("X-Request-Id", "")
        g.request_id = rid if _REQUEST_ID.match(rid) else secrets.token_hex(8)
        game_id = (request.view_args or {}).get("game_id")
        logs.reset(request_id=g.request_id, game_id=game_id)
        if game_id is None and request.path != "/v1/games":
            gate.check()  # a game's routes and create reach Redis themselves: an outage there is a 503 already

    @app.after_request
    def finish(response: Response):
        response.headers["X-Request-Id"] = g.get("request_id") or secrets.token_hex(8)
        response.headers["X-Content-Type-Options"] = "nosniff"
        if request.path.startswith("/v1/"):
            response.headers["Cache-Control"] = "no-store"  # answers differ by token and change with each move
        route = request.url_rule.rule if request.url_rule is not None else "unmatched"
        elapsed = time.perf_counter() - g.get("t0", time.perf_counter())
        metrics.REQUESTS.labels(request.method, route, str(response.status_code)).inc()
        metrics.REQUEST_SECONDS.labels(route).observe(elapsed)
        if request.endpoint == "moves.propose":
            metrics.MOVE_SECONDS.observe(elapsed)
        game_id = (request.view_args or {}).get("game_id")
        if game_id and response.status_code < 400:
            try:
                svc = current_app.extensions["referee.service"]
                metrics.touch_game(current_app.extensions["referee.metrics_conn"], svc.store.prefix, game_id)
            except Exception:  # noqa: BLE001 - a metric must never fail the request
                pass
        seq = response.headers.get("X-Referee-Seq")
        log.info("%s %s %s", request.method, request.path, response.status_code,
                 extra={"method": request.method, "path": request.path, "route": route,
                        "status": response.status_code, "duration_ms": round(elapsed * 1000, 2),
                        **({"seq": int(seq)} if seq and seq.isdigit() else {})})
        return response

    @app.get("/metrics")
    def prometheus():
        svc = current_app.extensions["referee.service"]
        backlog = svc.scheduler.backlog() if svc.scheduler is not None else None
        body = metrics.render(current_app.extensions["referee.metrics_conn"], svc.store.prefix, backlog=backlog)
        return Response(body, mimetype="text/plain; version=0.0.4; charset=utf-8")


def counted_stream(events):
    """An SSE body generator counted in referee_sse_streams_open while it runs."""
    metrics.STREAMS.inc()
    try:
        yield from events
    finally:
        metrics.STREAMS.dec()
