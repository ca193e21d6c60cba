"""Server-Sent Event responses under the process's stream cap (Settings.sse_max_streams): every open stream,
a game's or a bot's, holds a server thread and one slot; past the cap a stream is refused with a 503."""
from __future__ import annotations

import os

from flask import Response, current_app, stream_with_context

from service.errors import ApiError

from .observability import counted_stream

# the process that started this one (gunicorn's master: the app is imported in each worker after the fork)
_PARENT = os.getppid()


def sse_response(events, poll_hint: str) -> Response:
    """``events`` (an iterator of SSE text) as a streaming response holding one slot while it runs."""
    slots = current_app.extensions["referee.streams"]
    if not slots.acquire(blocking=False):
        full = ApiError(f"this server has as many open event streams as it serves; retry shortly or {poll_hint}",
                        code="too_many_streams", status=503)
        full.headers = {"Retry-After": "5"}
        raise full

    release = _once(slots.release)

    def generate():
        try:
            for chunk in events:
                yield chunk
                if os.getppid() != _PARENT:
                    # our gunicorn master died: end the stream, so that this orphaned process can exit and the
                    # client reconnects (Last-Event-ID) to the master that replaced it
                    return
        finally:
            release()  # the stream ended, or the server closed it (its client left)

    try:
        resp = Response(stream_with_context(counted_stream(generate())), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    except BaseException:
        release()
        raise
    resp.call_on_close(release)  # also when the response is closed before the stream started
    return resp


def _once(fn):
    done = []

    def call():
        if not done:
            done.append(True)
            fn()
    return call
