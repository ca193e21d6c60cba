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
    off up to ``max_delay``) sending the id of the last message seen as ``Last-Event-ID``. A server that no longer
    knows that id (400 ``bad_last_event_id``: a bot deleted and registered again) gets a fresh connection."""
    last: str | None = None
    delay = reconnect_delay
    while not should_stop():
        sent = dict(headers, Accept="text/event-stream", **({"Last-Event-ID": last} if last else {}))
        try:
            with session.get(url, headers=sent, stream=True, timeout=timeout) as resp:
                if resp.status_code in (401, 403, 404):
                    from .client import raise_for

                    raise_for(resp)  # a wrong token does not get better by retrying
                if resp.status_code == 400 and last is not None:
                    last = None  # start afresh: the stream then sends what is current
                    continue
                if resp.status_code == 200:
                    delay = reconnect_delay
                    for msg in parse(_lines(resp, should_stop)):
                        if msg.id is not None:
                            last = msg.id
                        yield msg
        except (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError):
            pass
        if should_stop():
            return
        time.sleep(delay)
        delay = min(max_delay, delay * 2)


def _lines(resp: requests.Response, should_stop):
    """The response's lines until ``should_stop()``, asked after each line: keep-alive comments included, so a
    stop is seen within a keep-alive interval even when no message comes."""
    for line in resp.iter_lines(decode_unicode=True):
        yield line
        if should_stop():
            return
