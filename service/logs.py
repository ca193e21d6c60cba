"""JSON structured logs: one object per line with the request id, game id and seq of what is being done."""
from __future__ import annotations

import contextvars
import json
import logging
import sys
import time

CONTEXT: contextvars.ContextVar[dict | None] = contextvars.ContextVar("referee_log_context", default=None)
_FIELDS = ("request_id", "game_id", "seq", "method", "path", "route", "status", "duration_ms", "job", "seat",
           "reason")


def bind(**fields) -> None:
    """Add fields to every log line of the current request or job."""
    CONTEXT.set({**(CONTEXT.get() or {}), **{k: v for k, v in fields.items() if v is not None}})


def reset(**fields) -> None:
    CONTEXT.set({k: v for k, v in fields.items() if v is not None})


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out = {"ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
               "level": record.levelname.lower(), "logger": record.name, "msg": record.getMessage()}
        out.update(CONTEXT.get() or {})
        for key in _FIELDS:
            if key in record.__dict__:
                out[key] = record.__dict__[key]
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def configure(level: int = logging.INFO) -> None:
    """JSON lines on stderr for this process's root logger (and RQ's, which would add its own handler)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in ("rq.worker", "rq.job", "rq.scheduler", "rq"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.propagate = False
