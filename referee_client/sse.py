"""Server-Sent Events over requests: messages parsed as they arrive, reconnecting with Last-Event-ID."""
from __future__ import annotations

import time
from dataclasses import dataclass

import requests


@dataclass(frozen=True)
class Message:
    id: str | None
    event: str
    data: str


def parse(lines):
    """SSE messages from an iterator of text lines (comments skipped)."""
    fields: dict[str, list[str]] = {}
    for line in lines:
        if line == "":
            if "data" in fields:
                yield Message(fields.get("id", [None])[-1], fields.get("event", ["message"])[-1], "\n".join(fields["data"]))
            fields = {}
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        fields.setdefault(name, []).append(value[1:] if value.startswith(" ") else value)


def messages(session: requests.Session, url: str, headers: dict, *, reconnect_delay: float = 1.0,
             max_delay: float = 30.0, timeout: float = 60.0, should_stop=lambda: False):
    """Every message of the stream at ``url``, for ever: when the connection ends or fails, reconnect (backing
    off up to ``max_delay``) sending the id of the last message seen as ``Last-Event-ID``."""
    last: str | None = None
    delay = reconnect_delay
    while not should_stop():
        sent = dict(headers, Accept="text/event-stream", **({"Last-Event-ID": last} if last else {}))
        try:
            with session.get(url, headers=sent, stream=True, timeout=timeout) as resp:
                if resp.status_code in (401, 403, 404):
                    from .client import raise_for

                    raise_for(resp)  # a wrong token does not get better by retrying
                if resp.status_code == 200:
                    delay = reconnect_delay
                    for msg in parse(resp.iter_lines(decode_unicode=True)):
                        if msg.id is not None:
                            last = msg.id
                        yield msg
        except (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError):
            pass
        if should_stop():
            return
        time.sleep(delay)
        delay = min(max_delay, delay * 2)
