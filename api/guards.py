"""Limits every request passes before a route runs: URL length, body size, JSON shape, rate limits.

Each limit is a setting (service/settings.py) and each refusal a JSON error with a stable code.
Rate-limit counters live in Redis (one INCR + EXPIRE per counter, single-key commands in one pipeline), so
every API process shares them, and they work on Redis Cluster too.
"""
from __future__ import annotations

import hashlib
import json
import math
import re
import time

from flask import Flask, current_app, g, request

from service.errors import ApiError
from service.settings import Settings

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")
_BAD_CHARS = re.compile("[\x00-\x1f\x7f\ud800-\udfff]")
_BAD_RECORD_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")  # a record has lines and tabs

# endpoint -> the rate buckets it counts in
RATED = {"games.create_game": "create", "games.next_deal": "create", "bots.register": "bots",
         "moves.propose": "moves", "moves.judge": "moves", "judge.judge": "moves"}


_WHAT = {"create": "new games and deals", "bots": "bot registrations", "moves": "moves"}


class RateLimited(ApiError):
    status, code = 429, "rate_limited"

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.headers = {"Retry-After": str(retry_after)}


def settings() -> Settings:
    return current_app.config["REFEREE_SETTINGS"]


def install(app: Flask, s: Settings) -> None:
    app.config["MAX_CONTENT_LENGTH"] = s.max_body_bytes  # also bounds bodies sent without a Content-Length
    app.before_request(_check_request)


def _check_request():
    s = settings()
    # gunicorn runs with --limit-request-line 0, so long URLs get this JSON 414 rather than its own HTML one
    url = len(request.path) + len(request.query_string)
    if url > s.max_url_chars:
        raise ApiError(f"the URL is longer than {s.max_url_chars} characters", code="url_too_long", status=414)
    if request.content_length is not None and request.content_length > s.max_body_bytes:
        raise ApiError(f"the request body is larger than {s.max_body_bytes} bytes", code="body_too_large", status=413)
    bucket = RATED.get(request.endpoint or "")
    if bucket == "moves" and request.endpoint == "moves.propose" and _bot_bearer():
        g.rate_deferred = True  # a bot's answer to a turn it owes is not refused: the route decides (bot_move_rate)
    elif bucket:
        _rate_limit(s, bucket)


def _bot_bearer() -> bool:
    from .http import bearer  # http imports this module

    return (bearer() or "").startswith("bot_")


def bot_move_rate(time_left_ms: int | None) -> None:
    """The move rate of a registered bot's ``POST …/moves`` (deferred by the before-request check to the route,
    which knows the game). ``time_left_ms``: the answer is to a turn the bot owes now, with that much of its
    budget left; such an answer is not counted, and refused only while the bot's counters are already over a limit
    (from other requests: illegal answers, late ones, what-ifs), with a Retry-After that never outlasts the turn.
    None: any other move, counted and limited as every token's."""
    if not g.get("rate_deferred"):
        return
    s = settings()
    if time_left_ms is None:
        _rate_limit(s, "moves")
        return
    counters, index, window = _counters(s, "moves")
    if not counters:
        return
    pipe = _redis().pipeline(transaction=False)
    for kind, who, _ in counters:
        pipe.get(_key(s, kind, who, index))
    for (kind, _, limit), n in zip(counters, pipe.execute()):
        if int(n or 0) > limit:
            retry = min(max(1, math.ceil((index + 1) * window - time.time())), max(0, time_left_ms // 1000))
            raise RateLimited(f"more than {limit} moves per {window} s from this {_per(kind)}; this turn's answer is "
                              f"still taken if it comes within its {time_left_ms} ms", retry)


def charge_bot_move() -> None:
    """Count a bot's answer to its owed turn that was refused as illegal: only legal answers are free."""
    if g.get("rate_deferred"):
        _rate_limit(settings(), "moves", raising=False)


def client_address() -> str:
    return request.remote_addr or "unknown"


def charge_record_bytes() -> None:
    """A record import costs one more create per started Settings.rate_record_bytes of its body: a long record
    is that much more to parse and store than a new game."""
    s = settings()
    if s.rate_record_bytes > 0:
        _rate_limit(s, "create", math.ceil(len(request.get_data(cache=True)) / s.rate_record_bytes))


def _counters(s: Settings, bucket: str) -> tuple[list[tuple[str, str, int]], int, int]:
    """(kind, who, limit) of each counter ``bucket`` counts in for this request, the window's index and length."""
    if bucket == "create":
        limits = [("create-address", s.rate_create_per_address)]
    elif bucket == "bots":
        limits = [("bots-address", s.rate_bots_per_address)]
    else:
        limits = [("moves-token", s.rate_moves_per_token), ("moves-address", s.rate_moves_per_address)]
    from .http import bearer  # http imports this module

    counters = []
    for kind, limit in limits:
        if limit <= 0:
            continue
        if kind.endswith("address"):
            counters.append((kind, client_address(), limit))
        elif token := bearer():
            counters.append((kind, hashlib.sha256(token.encode()).hexdigest()[:32], limit))
    window = max(1, s.rate_window_s)
    return counters, int(time.time() // window), window


def _key(s: Settings, kind: str, who: str, index: int) -> str:
    return f"{s.key_prefix}:rate:{kind}:{who}:{index}"


def _per(kind: str) -> str:
    return "client address" if kind.endswith("address") else "token"


def _redis():
    from .http import service  # http imports this module

    return service().store.r


def _rate_limit(s: Settings, bucket: str, cost: int = 1, raising: bool = True) -> None:
    counters, index, window = _counters(s, bucket)
    if not counters or cost <= 0:
        return
    pipe = _redis().pipeline(transaction=False)
    for kind, who, _ in counters:
        key = _key(s, kind, who, index)
        pipe.incrby(key, cost)
        pipe.expire(key, window + 1)
    counts = pipe.execute()[::2]
    for (kind, _, limit), n in zip(counters, counts):
        if n > limit and raising:
            retry = max(1, math.ceil((index + 1) * window - time.time()))
            raise RateLimited(f"more than {limit} {_WHAT[bucket]} per {window} s "
                              f"from this {_per(kind)}; retry after {retry} s", retry)


def json_body(record_key: str | None = None):
    """The request's JSON, parsed once and checked against the limits; None for an empty body.

    ``record_key``: a top-level key whose string is a game record (long, with newlines).
    """
    if "_referee_json" in g:
        return g._referee_json
    raw = request.get_data(cache=True)
    limit = settings().max_body_bytes
    if len(raw) >= limit and request.content_length is None:
        # a body without Content-Length is cut at the limit (MAX_CONTENT_LENGTH): reaching it means too long
        raise ApiError(f"the request body is larger than {limit} bytes", code="body_too_large", status=413)
    data = None
    if raw.strip():
        data = parse_json(raw, settings(), record_key)
    g._referee_json = data
    return data


def parse_json(raw: bytes, s: Settings, record_key: str | None = None):
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError("the request body must be UTF-8 JSON", code="bad_json") from None
    if text.count("[") + text.count("{") > s.max_json_depth:  # with fewer openings it cannot nest deeper
        _check_depth(text, s.max_json_depth)
    try:
        data = json.loads(text, parse_constant=_non_finite, parse_float=_finite)
    except RecursionError:
        raise ApiError(f"the JSON is nested deeper than {s.max_json_depth} levels", code="json_too_deep") from None
    except ValueError as exc:  # JSONDecodeError, and integers longer than Python converts
        raise ApiError(f"the request body is not valid JSON: {str(exc)[:120]}", code="bad_json") from None
    if record_key is not None or len(text) > s.max_string_chars or "\\" in text or "\x7f" in text:
        _check_strings(data, s, record_key)
    # else no string can be too long or hold a bad character: strict JSON has raw control characters only as
    # escapes, and UTF-8 text holds no lone surrogate
    return data


def _check_depth(text: str, limit: int) -> None:
    depth = deepest = 0
    for m in _BRACKET.finditer(_STRING.sub("", text)):
        depth += 1 if m.group() in "[{" else -1
        if depth > deepest:
            deepest = depth
            if deepest > limit:
                raise ApiError(f"the JSON is nested deeper than {limit} levels", code="json_too_deep")


def _non_finite(word: str):
    raise ApiError(f"{word} is not a JSON number: numbers must be finite", code="non_finite_number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ApiError(f"{text[:40]} is too large: numbers must be finite", code="non_finite_number")
    return value


def _check_strings(data, s: Settings, record_key: str | None) -> None:
    stack = [data]
    if isinstance(data, dict) and record_key is not None and isinstance(data.get(record_key), str):
        record = data[record_key]
        if _BAD_RECORD_CHARS.search(record):
            raise ApiError("the record contains a control character or a lone surrogate", code="bad_string")
        stack = [{k: v for k, v in data.items() if k != record_key}]
    while stack:
        obj = stack.pop()
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, list):
            stack.extend(obj)
        elif isinstance(obj, str):
            if len(obj) > s.max_string_chars:
                raise ApiError(f"a JSON string is longer than {s.max_string_chars} characters", code="string_too_long")
            if bad_char := _BAD_CHARS.search(obj):
                bad = bad_char.group()
                raise ApiError(f"a JSON string contains {ascii(bad)}: control characters and lone surrogates are "
                               "not accepted", code="bad_string")
