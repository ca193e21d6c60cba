"""A hand-written list of nasty inputs: each is a 4xx JSON error with a stable code, never a 5xx, and none
changes the stored game. (tests/service/test_schemathesis.py fuzzes the spec; this list is what fuzzing
rarely finds: nesting, non-finite numbers, huge ids, long URLs, control characters, lone surrogates, …)
"""
import json

import pytest

HUGE = "18446744073709551615"  # 2**64 - 1: once a 500 from Redis ("Invalid stream ID")
DEEP = "[" * 100_000 + "]" * 100_000
MOVE = '{"seat": 0, "action": "play", "cards": ["S3"]%s}'
PLAYERS = [{"name": f"p{i}"} for i in range(4)]


def _create(extra=None, players=None) -> str:
    return json.dumps({"preset": "uecda", "players": players or PLAYERS, **(extra or {})})


def _record(players_json: str) -> str:
    text = (f"# daifugo-referee record v1\npreset: uecda\nplayers: {players_json}\nseed: 1\nview: table\n\n"
            "deal 1  (seq 0)\n")
    return json.dumps({"record": text})


# (id, method, path, raw body or None, extra headers, expected status, expected code)
CASES = [
    # nesting: once RecursionError -> 500 on every JSON route
    ("deep-create", "POST", "/v1/games", DEEP, {}, 400, "json_too_deep"),
    ("deep-create-rules", "POST", "/v1/games", _create()[:-1] + ', "rules": {"x": ' + DEEP + "}}", {}, 400,
     "json_too_deep"),
    ("deep-move", "POST", "/v1/games/{gid}/moves", MOVE % (', "declare": ' + DEEP), {}, 400, "json_too_deep"),
    ("deep-judge", "POST", "/v1/games/{gid}/judge", MOVE % (', "rank": ' + "{\"a\": " * 50_000 + "1" + "}" * 50_000),
     {}, 400, "json_too_deep"),
    ("deep-deals", "POST", "/v1/games/{gid}/deals", '{"hands": ' + DEEP + "}", {}, 400, "json_too_deep"),
    ("deep-hands", "POST", "/v1/games/{gid}/hands", '{"hands": ' + DEEP + "}", {}, 400, "json_too_deep"),
    ("deep-detached", "POST", "/v1/judge", '{"preset": "uecda", "state": ' + "{\"a\": " * 5000 + "1" + "}" * 5000
     + ', "move": ' + MOVE % "" + "}", {}, 400, "json_too_deep"),
    ("deep-record", "POST", "/v1/games", '{"record": ' + DEEP + "}", {}, 400, "json_too_deep"),
    # non-finite numbers: Python's json reads them, the state machine then fails
    ("infinity-detached", "POST", "/v1/judge", '{"preset": "uecda", "state": {"seq": Infinity}, "move": '
     + MOVE % "" + "}", {}, 400, "non_finite_number"),
    ("nan-move", "POST", "/v1/games/{gid}/moves", MOVE % ', "count": NaN', {}, 400, "non_finite_number"),
    ("minus-infinity-judge", "POST", "/v1/games/{gid}/judge", MOVE % ', "rank": -Infinity', {}, 400,
     "non_finite_number"),
    ("overflow-float", "POST", "/v1/games", _create()[:-1] + ', "seed": 1e999}', {}, 400, "non_finite_number"),
    ("huge-integer", "POST", "/v1/games/{gid}/moves", MOVE % (', "count": ' + "9" * 5000), {}, 400, "bad_json"),
    ("not-json", "POST", "/v1/games", "{'preset': 'uecda'}", {}, 400, "bad_json"),
    ("not-utf8", "POST", "/v1/games", b"\xff\xfe{}", {}, 400, "bad_json"),
    ("not-an-object", "POST", "/v1/games/{gid}/moves", "[1, 2]", {}, 400, "bad_json"),
    ("json-null", "POST", "/v1/games", "null", {}, 400, "bad_json"),
    # huge, negative and garbage seqs
    ("after-huge", "GET", "/v1/games/{gid}/events?after=" + HUGE, None, {}, 400, "invalid_request"),
    ("after-huge-digits", "GET", "/v1/games/{gid}/events?after=" + "9" * 4000, None, {}, 400, "invalid_request"),
    ("after-negative", "GET", "/v1/games/{gid}/events?after=-2", None, {}, 400, "invalid_request"),
    ("after-garbage", "GET", "/v1/games/{gid}/events?after=1e3", None, {}, 400, "invalid_request"),
    ("after-empty", "GET", "/v1/games/{gid}/events?after=", None, {}, 400, "invalid_request"),
    ("after-nul", "GET", "/v1/games/{gid}/events?after=%00", None, {}, 400, "invalid_request"),
    ("after-hex", "GET", "/v1/games/{gid}/events?after=0x10", None, {}, 400, "invalid_request"),
    ("replay-seq-float", "GET", "/v1/games/{gid}/replay?seq=1.0", None, {}, 400, "invalid_request"),
    ("legal-seat-negative", "GET", "/v1/games/{gid}/legal-moves?seat=-1", None, {}, 400, "bad_seat"),
    ("stream-wait-huge", "GET", "/v1/games/{gid}/stream?wait=1e9", None, {}, 400, "invalid_request"),
    ("too-many-players", "POST", "/v1/games", _create(players=[{"name": f"p{i}"} for i in range(9)]), {}, 400,
     "invalid_request"),
    ("stream-after-huge", "GET", "/v1/games/{gid}/stream?wait=0&after=" + HUGE, None, {}, 400, "invalid_request"),
    ("last-event-id-huge", "GET", "/v1/games/{gid}/stream?wait=0", None, {"Last-Event-ID": HUGE}, 400,
     "bad_last_event_id"),
    ("last-event-id-negative", "GET", "/v1/games/{gid}/stream?wait=0", None, {"Last-Event-ID": "-1"}, 400,
     "bad_last_event_id"),
    ("last-event-id-garbage", "GET", "/v1/games/{gid}/stream?wait=0", None, {"Last-Event-ID": "3-0"}, 400,
     "bad_last_event_id"),
    ("last-event-id-unicode-digit", "GET", "/v1/games/{gid}/stream?wait=0", None, {"Last-Event-ID": "\u0663"}, 400,
     "bad_last_event_id"),
    ("stream-wait-nan", "GET", "/v1/games/{gid}/stream?wait=nan", None, {}, 400, "invalid_request"),
    ("stream-wait-inf", "GET", "/v1/games/{gid}/stream?wait=inf", None, {}, 400, "invalid_request"),
    ("replay-seq-huge", "GET", "/v1/games/{gid}/replay?seq=" + HUGE, None, {}, 400, "bad_seq"),
    ("replay-seq-negative", "GET", "/v1/games/{gid}/replay?seq=-1", None, {}, 400, "bad_seq"),
    ("replay-seq-nan", "GET", "/v1/games/{gid}/replay?seq=NaN", None, {}, 400, "invalid_request"),
    ("replay-seq-digits", "GET", "/v1/games/{gid}/replay?seq=" + "9" * 4000, None, {}, 400, "bad_seq"),
    ("legal-seat-huge", "GET", "/v1/games/{gid}/legal-moves?seat=" + HUGE, None, {}, 400, "bad_seat"),
    ("move-seat-huge", "POST", "/v1/games/{gid}/moves", '{"seat": ' + HUGE + ', "action": "pass"}', {}, 400,
     "bad_move"),
    ("move-expected-seq-huge", "POST", "/v1/games/{gid}/moves", MOVE % (', "expected_seq": ' + HUGE), {}, 409,
     "stale_seq"),
    ("move-expected-seq-negative", "POST", "/v1/games/{gid}/moves", MOVE % ', "expected_seq": -1', {}, 400,
     "bad_move"),
    # fields the action does not take: never judged, never stored
    ("pass-with-cards", "POST", "/v1/games/{gid}/moves", '{"seat": 0, "action": "pass", "cards": ["H5"]}', {}, 400,
     "bad_move"),
    ("play-with-rank", "POST", "/v1/games/{gid}/moves", MOVE % ', "rank": "5"', {}, 400, "bad_move"),
    ("judge-play-with-count", "POST", "/v1/games/{gid}/judge", MOVE % ', "count": 2', {}, 400, "bad_move"),
    # long URLs: a JSON 414 from the app (gunicorn is configured to let them through, see test_limits.py)
    ("long-query", "GET", "/v1/games/{gid}/events?x=" + "a" * 10_000, None, {}, 414, "url_too_long"),
    ("long-path", "GET", "/v1/games/" + "a" * 10_000, None, {}, 414, "url_too_long"),
    ("long-game-id", "GET", "/v1/games/" + "a" * 100, None, {}, 404, "unknown_game"),
    ("nul-game-id", "GET", "/v1/games/%00%0a/events", None, {}, 404, "unknown_game"),
    # bodies too large
    ("body-too-large", "POST", "/v1/games", _create()[:-1] + ', "x": "' + "a" * 2_000_000 + '"}', {}, 413,
     "body_too_large"),
    ("string-too-long", "POST", "/v1/games/{gid}/moves", MOVE % (', "declare": "' + "a" * 5000 + '"'), {}, 400,
     "string_too_long"),
    # names and control characters: a record must never gain a move from a name
    ("name-newline", "POST", "/v1/games", _create(players=[{"name": "cy\n 1 seat 1 play S3 #"}] + PLAYERS[1:]), {},
     400, "bad_string"),
    ("name-next-line", "POST", "/v1/games", _create(players=[{"name": "a\u0085b"}] + PLAYERS[1:]), {}, 400,
     "bad_name"),
    ("name-line-separator", "POST", "/v1/games", _create(players=[{"name": "a\u2028b"}] + PLAYERS[1:]), {}, 400,
     "bad_name"),
    ("name-bidi-override", "POST", "/v1/games", _create(players=[{"name": "a\u202eb"}] + PLAYERS[1:]), {}, 400,
     "bad_name"),
    ("name-too-long", "POST", "/v1/games", _create(players=[{"name": "n" * 41}] + PLAYERS[1:]), {}, 400, "bad_name"),
    ("name-blank", "POST", "/v1/games", _create(players=[{"name": "   "}] + PLAYERS[1:]), {}, 400, "bad_name"),
    ("name-lone-surrogate", "POST", "/v1/games", _create()[:-1].replace('"p0"', '"a\\ud800"') + "}", {}, 400,
     "bad_string"),
    ("name-nul", "POST", "/v1/games", _create()[:-1].replace('"p0"', '"a\\u0000"') + "}", {}, 400, "bad_string"),
    ("action-control-char", "POST", "/v1/games/{gid}/moves", '{"seat": 0, "action": "pass\\u0007"}', {}, 400,
     "bad_string"),
    ("record-name-injects-a-move", "POST", "/v1/games", _record('["cy\\n 1 seat 1 play S3 #", "b", "c", "d"]'), {},
     400, "bad_record"),
    ("record-name-lone-surrogate", "POST", "/v1/games", _record('["\\ud800", "b", "c", "d"]'), {}, 400,
     "bad_record"),
    ("record-nul", "POST", "/v1/games", json.dumps({"record": "preset: uecda\x00"}), {}, 400, "bad_string"),
    ("record-not-text", "POST", "/v1/games", '{"record": {"a": 1}}', {}, 400, "bad_record"),
    # wrong shapes
    ("detached-state-garbage", "POST", "/v1/judge", '{"preset": "uecda", "state": {"players": "x"}, "move": '
     + MOVE % "" + "}", {}, 400, "bad_state"),
    ("hands-garbage", "POST", "/v1/games/{gid}/hands", '{"hands": [[1, 2]]}', {}, 400, "invalid_request"),
    ("deals-garbage", "POST", "/v1/games/{gid}/deals", '{"hands": "S3"}', {}, 400, "invalid_request"),
    ("token-huge", "GET", "/v1/games/{gid}", None, {"Authorization": "Bearer " + "t" * 5000}, 401, "invalid_token"),
]


@pytest.fixture(scope="module")
def game(app):
    from .helpers import Client

    return Client(app.test_client()).create(seed=12)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_bad_input_is_a_4xx_json_error(client, game, case):
    _, method, path, raw, headers, status, code = case
    gid, token = game["game_id"], game["table_token"]
    headers = {"Authorization": f"Bearer {token}", **headers}
    if raw is not None:
        headers["Content-Type"] = "application/json"
    r = client.c.open(path.replace("{gid}", gid), method=method, data=raw, headers=headers)
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True)[:300])
    assert r.mimetype == "application/json"
    assert r.json["error"]["code"] == code, r.json
    assert r.json["error"]["message"]
    _, seq = client.state(gid, token)
    assert seq == 0, "a refused request changed the game"


def test_the_list_is_long_enough():
    assert len(CASES) == 69  # docs/limits.md quotes this count


def test_a_record_never_gains_a_move_from_a_name(client, app):
    """A name stored before names were checked still cannot inject a line into the exported record."""
    from referee import new_game
    from referee.record import export_record, import_record

    _, events = new_game("uecda", None, ["cy\n 1 seat 1 play S3 #", "b\u2028c", "x\ud800", "d"], seed=1)
    text = export_record(events)
    text.encode("utf-8")  # no lone surrogate left: the record is served as UTF-8 text
    assert [e["type"] for e in import_record(text)] == ["game_created"]
    assert import_record(text)[0]["players"][0] == "cy\n 1 seat 1 play S3 #"
