"""Idempotency-Key on POST /v1/games/{id}/moves: a retry gets the first answer, a reused key with another
request is refused, the answers are kept per (game, token) up to a cap: no co-player can spoil another token's keys."""
import dataclasses
import threading

import pytest

from api.app import create_app

from .helpers import Client

HANDS = [["D3", "S4", "S6"], ["S5", "H5", "S7"], ["S9", "HT", "S8"], ["SK", "C4", "H8"]]  # seat 0 leads


def moves_url(gid):
    return f"/v1/games/{gid}/moves"


def propose(client, gid, token, move, key=None):
    headers = client.auth(token)
    if key is not None:
        headers["Idempotency-Key"] = key
    return client.c.post(moves_url(gid), json=move, headers=headers)


def log(client, g):
    return client.get(f"/v1/games/{g['game_id']}/events?include_rejected=true", g["table_token"]).json["events"]


def test_a_retried_move_gets_the_first_answer(client):
    g = client.create(players=4, hands=HANDS)
    gid, t = g["game_id"], g["table_token"]
    move = {"seat": 0, "action": "play", "cards": ["D3"], "expected_seq": 0}
    first = propose(client, gid, t, move, key="k-1")
    assert first.status_code == 200 and "Idempotent-Replayed" not in first.headers
    again = propose(client, gid, t, move, key="k-1")
    assert again.status_code == 200, again.json
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json == first.json
    # without the key the same request is a stale 409: the key is what made the retry safe
    assert propose(client, gid, t, move).status_code == 409
    # still the first answer after the game moved on
    assert propose(client, gid, t, {"seat": 1, "action": "play", "cards": ["S5"]}).status_code == 200
    later = propose(client, gid, t, move, key="k-1")
    assert later.status_code == 200 and later.json["seq"] == first.json["seq"]
    assert later.json["state"] == first.json["state"]
    assert [e["seq"] for e in log(client, g)] == [0, 1, 2], "the move was applied once"


def test_a_retried_rejection_gets_the_same_verdict_and_one_audit_entry(client):
    g = client.create(players=4, hands=HANDS)
    gid, t = g["game_id"], g["table_token"]
    move = {"seat": 0, "action": "play", "cards": ["SA"]}
    first = propose(client, gid, t, move, key="bad-1")
    assert first.status_code == 422 and first.json["verdict"]["reason"] == "not_in_hand"
    again = propose(client, gid, t, move, key="bad-1")
    assert again.status_code == 422 and again.json == first.json
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len([e for e in log(client, g) if e["type"] == "rejected"]) == 1


def test_a_key_reused_for_another_request_is_refused(client):
    g = client.create(players=4, hands=HANDS)
    gid, t, seat0 = g["game_id"], g["table_token"], g["seat_tokens"][0]
    assert propose(client, gid, t, {"seat": 0, "action": "play", "cards": ["D3"]}, key="same").status_code == 200
    for move in [{"seat": 0, "action": "play", "cards": ["S4"]},                  # another body
                 {"seat": 0, "action": "play", "cards": ["D3"], "expected_seq": 0}]:   # another expected_seq
        r = propose(client, gid, t, move, key="same")
        assert r.status_code == 422, r.json
        assert r.json["error"]["code"] == "idempotency_key_reused"
    # the same key with another token is another key: judged afresh (seat 1 is to play now)
    r = propose(client, gid, seat0, {"seat": 0, "action": "play", "cards": ["D3"]}, key="same")
    assert r.status_code == 422 and r.json["verdict"]["reason"] == "not_your_turn", r.json
    assert "Idempotent-Replayed" not in r.headers
    assert [e["seq"] for e in log(client, g) if e["type"] != "rejected"] == [0, 1]


@pytest.mark.parametrize("key", ["", "x" * 256, "caf\u00e9", "a\tb"])
def test_a_malformed_key_is_a_400(client, key):
    g = client.create(players=4, hands=HANDS)
    headers = dict(client.auth(g["table_token"]))
    r = client.c.post(moves_url(g["game_id"]), json={"seat": 0, "action": "play", "cards": ["D3"]},
                      headers=[*headers.items(), ("Idempotency-Key", key)])
    assert r.status_code == 400 and r.json["error"]["code"] == "bad_idempotency_key"
    assert [e["seq"] for e in log(client, g)] == [0]


def test_concurrent_retries_apply_once(client):
    g = client.create(players=4, hands=HANDS)
    gid, t = g["game_id"], g["table_token"]
    move = {"seat": 0, "action": "play", "cards": ["D3"]}
    answers, start = [], threading.Barrier(4)

    def send():
        start.wait()
        r = propose(client, gid, t, move, key="racing")
        answers.append((r.status_code, r.json["seq"]))

    threads = [threading.Thread(target=send) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert answers == [(200, 1)] * 4
    assert [e["seq"] for e in log(client, g)] == [0, 1]


def test_the_answers_kept_per_token_are_capped(settings):
    client = Client(create_app(dataclasses.replace(settings, idempotency_keys=2)).test_client())
    g = client.create(players=4, hands=HANDS)
    gid, t = g["game_id"], g["table_token"]
    for i in range(3):
        assert propose(client, gid, t, {"seat": 1, "action": "play", "cards": ["SA"]}, key=f"r{i}").status_code == 422
    store = client.c.application.extensions["referee.service"].store
    assert store.r.hlen(store.keys(gid)[3]) == 2
    # the oldest answer was dropped: its key is new again (judged afresh: a new audit entry)
    propose(client, gid, t, {"seat": 1, "action": "play", "cards": ["SA"]}, key="r0")
    assert len([e for e in log(client, g) if e["type"] == "rejected"]) == 4
    propose(client, gid, t, {"seat": 1, "action": "play", "cards": ["SA"]}, key="r2")
    assert len([e for e in log(client, g) if e["type"] == "rejected"]) == 4


def test_a_co_player_cannot_spoil_the_keys_another_token_will_use(client):
    """A seat stores junk under the keys a bot's client will use (``turn-<game>.<seq>``): the bot's answers
    under those keys are judged as its own."""
    g = client.create(players=4, hands=HANDS)
    gid, seat0, seat1 = g["game_id"], *g["seat_tokens"][:2]
    for seq in range(4):
        junk = propose(client, gid, seat1, {"seat": 1, "action": "play", "cards": ["SA"]}, key=f"turn-{gid}.{seq}")
        assert junk.status_code == 422
    r = propose(client, gid, seat0, {"seat": 0, "action": "play", "cards": ["D3"], "expected_seq": 0},
                key=f"turn-{gid}.0")
    assert r.status_code == 200 and "Idempotent-Replayed" not in r.headers, r.json
    assert [e["seq"] for e in log(client, g) if e["type"] != "rejected"] == [0, 1]


def test_another_tokens_flood_does_not_push_my_key_out_of_the_window(settings):
    """My retried pass is applied once, however many keys another seat used since."""
    client = Client(create_app(dataclasses.replace(settings, idempotency_keys=5)).test_client())
    g = client.create(players=4, hands=HANDS)
    gid, seat0, seat1 = g["game_id"], *g["seat_tokens"][:2]
    assert propose(client, gid, seat0, {"seat": 0, "action": "play", "cards": ["D3"]}, key="mine").status_code == 200
    assert propose(client, gid, seat1, {"seat": 1, "action": "pass"}, key="pass-1").status_code == 200
    for i in range(20):
        assert propose(client, gid, seat1, {"seat": 1, "action": "play", "cards": ["SA"]}, key=f"j{i}").status_code == 422
    again = propose(client, gid, seat0, {"seat": 0, "action": "play", "cards": ["D3"]}, key="mine")
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true", again.json
    store = client.c.application.extensions["referee.service"].store
    assert store.r.hlen(store.keys(gid)[3]) == 5 + 1, "seat 1 keeps its window's worth, seat 0 its one answer"
    assert [e["seq"] for e in log(client, g) if e["type"] != "rejected"] == [0, 1, 2]
