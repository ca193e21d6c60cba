"""Operations: /metrics in Prometheus text format, X-Request-Id, JSON request logs, 503 when Redis is gone."""
from __future__ import annotations

import io
import json
import logging
import random

import pytest
from prometheus_client.parser import text_string_to_metric_families

from referee import instantiate
from api.app import create_app
from service.logs import JsonFormatter
from service.settings import Settings

from tests.procs import free_port

from .helpers import Client, play_random_game


def samples(text: str) -> dict:
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def value(found: dict, name: str, **labels) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_count_requests_moves_verdicts_and_active_games(client):
    before = samples(client.get("/metrics").get_data(as_text=True))
    game = client.create(players=3, seed=4)
    play_random_game(client, game, random.Random(4))
    bad = client.post(f"/v1/games/{game['game_id']}/moves", {"seat": 0, "action": "play", "cards": ["S3"]},
                      game["table_token"])
    assert bad.status_code == 422
    r = client.get("/metrics")
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/plain")
    after = samples(r.get_data(as_text=True))
    moves = value(after, "referee_http_requests_total", method="POST", route="/v1/games/<game_id>/moves", status="200") - \
        value(before, "referee_http_requests_total", method="POST", route="/v1/games/<game_id>/moves", status="200")
    assert moves >= 10
    assert value(after, "referee_move_duration_seconds_count") - value(before, "referee_move_duration_seconds_count") \
        == moves + 1
    assert value(after, "referee_verdicts_total", reason="legal") - value(before, "referee_verdicts_total", reason="legal") \
        == moves
    reason = bad.json["verdict"]["reason"]
    assert value(after, "referee_verdicts_total", reason=reason) - value(before, "referee_verdicts_total", reason=reason) == 1
    assert value(after, "referee_http_requests_total", method="POST", route="/v1/games", status="201") >= 1
    assert value(after, "referee_games_active") >= 1
    assert ("referee_sse_streams_open", ()) in after
    assert any(k[0] == "referee_bot_job_duration_seconds_count" for k in after)


def test_the_request_id_is_echoed_or_generated(client):
    r = client.c.get("/healthz", headers={"X-Request-Id": "abc-123"})
    assert r.headers["X-Request-Id"] == "abc-123"
    generated = client.get("/healthz").headers["X-Request-Id"]
    assert generated and generated != client.get("/healthz").headers["X-Request-Id"]
    hostile = client.c.get("/healthz", headers={"X-Request-Id": "x" * 500})
    assert len(hostile.headers["X-Request-Id"]) <= 128 and hostile.headers["X-Request-Id"] != "x" * 500


def test_request_logs_are_json_with_request_id_game_id_and_seq(client):
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("referee.request")
    logger.addHandler(handler)
    old_level = logger.level
    logger.setLevel(logging.INFO)
    try:
        game = client.create(players=3, seed=8)
        gid, tok = game["game_id"], game["table_token"]
        probe = client.legal(gid, tok, 0)
        seat = probe["actors"][0]
        move = instantiate(client.legal(gid, tok, seat)["moves"][0])
        r = client.c.post(f"/v1/games/{gid}/moves", json=move, headers={**Client.auth(tok), "X-Request-Id": "req-42"})
        assert r.status_code == 200
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    move_line = next(line for line in lines if line.get("request_id") == "req-42")
    assert move_line["game_id"] == gid and move_line["seq"] == r.json["seq"]
    assert move_line["status"] == 200 and move_line["route"] == "/v1/games/<game_id>/moves"
    assert move_line["level"] == "info" and "duration_ms" in move_line and "ts" in move_line


@pytest.fixture
def dead_app(tmp_path):
    """The app on a Redis address where nothing listens: storage is down from the start."""
    settings = Settings(redis_url=f"redis://127.0.0.1:{free_port()}/0", data_dir=str(tmp_path), key_prefix="referee-dead",
                        queue_name="referee-dead")
    return Client(create_app(settings).test_client())


@pytest.mark.parametrize("method,path", [
    ("get", "/healthz"), ("get", "/v1/rules"), ("get", "/"), ("get", "/openapi.yaml"), ("get", "/metrics"),
    ("get", "/v1/games/0123456789abcdef01234567"), ("get", "/v1/games/0123456789abcdef01234567/events"),
    ("post", "/v1/games"), ("post", "/v1/judge"), ("post", "/v1/games/0123456789abcdef01234567/moves"),
    ("get", "/no/such/route"),
])
def test_every_route_answers_503_storage_unavailable_while_redis_is_down(dead_app, method, path):
    r = getattr(dead_app.c, method)(path, json={} if method == "post" else None, headers={"Authorization": "Bearer x"})
    assert r.status_code == 503, r.get_data(as_text=True)[:300]
    assert r.json["error"]["code"] == "storage_unavailable" and r.headers["Retry-After"]
    assert r.headers["X-Request-Id"]
