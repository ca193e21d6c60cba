"""Proposals, verdicts, audit entries, seat permissions, judging and racing proposals."""
import threading

import referee as engine
from referee import instantiate

from .helpers import hands


def _turn(client, g):
    probe = client.legal(g["game_id"], g["table_token"], 0)
    seat = probe["actors"][0]
    moves = client.legal(g["game_id"], g["table_token"], seat)["moves"]
    return seat, [instantiate(m) for m in moves], probe["seq"]


def _illegal_play(table_state, seat):
    """A play of a card the seat does not hold: illegal under every rule."""
    other = hands(table_state)[(seat + 1) % len(table_state["players"])][0]
    return {"seat": seat, "action": "play", "cards": [other]}


def test_legal_move_applies(client):
    g = client.create()
    gid = g["game_id"]
    seat, moves, seq = _turn(client, g)
    r = client.post(f"/v1/games/{gid}/moves", dict(moves[0], expected_seq=seq), g["seat_tokens"][seat])
    assert r.status_code == 200, r.json
    assert r.json["verdict"]["legal"] is True and r.json["seq"] == seq + 1
    # the mover gets its own view back
    assert all(p["hand"] is None for i, p in enumerate(r.json["state"]["players"]) if i != seat)
    _, now = client.state(gid, g["table_token"])
    assert now == seq + 1


def test_a_served_entry_is_proposed_as_it_is_and_its_annotations_are_not_recorded(client):
    eights = ["S8", "H8", "D8", "C8"]
    g = client.create(preset="nanko", rules={"first_card": False}, hands=[[s + "3", e] for s, e in zip("SHDC", eights)])
    gid, t = g["game_id"], g["table_token"]
    seat = client.legal(gid, t, 0)["actors"][0]
    answer = client.legal(gid, g["seat_tokens"][seat], seat)
    served = answer["moves"]
    assert answer["forbidden_last"] == [eights[seat]]  # nanko: going out with a cut is forbidden
    assert all({"effects", "kinds", "forbidden_finish"} <= set(m) for m in served)
    eight = next(m for m in served if m.get("cards") == [eights[seat]])
    assert eight["effects"] == ["eight_cut"] and eight["kinds"] == ["cut"]
    r = client.post(f"/v1/games/{gid}/moves", eight, g["seat_tokens"][seat])
    assert r.status_code == 200 and r.json["verdict"]["effects"] == ["eight_cut"], r.json
    event = client.get(f"/v1/games/{gid}/events", t).json["events"][-1]
    assert event["move"] == {"seat": seat, "action": "play", "cards": [eights[seat]]}


def _illegal_proposal(client):
    """A new game, its table state and seq, and a play the acting seat cannot make."""
    g = client.create()
    before, seq = client.state(g["game_id"], g["table_token"])
    seat, _, _ = _turn(client, g)
    return g, before, seq, _illegal_play(before, seat)


def test_illegal_move_is_422_recorded_and_changes_nothing(client):
    g, before, seq, move = _illegal_proposal(client)
    gid, t = g["game_id"], g["table_token"]
    r = client.post(f"/v1/games/{gid}/moves", move, t)
    assert r.status_code == 422
    assert r.json["verdict"]["legal"] is False and r.json["verdict"]["reason"]
    assert r.json["state"] == before and r.json["seq"] == seq
    after, seq2 = client.state(gid, t)
    assert after == before and seq2 == seq
    log = client.get(f"/v1/games/{gid}/events?include_rejected=true", t).json["events"]
    rejected = [e for e in log if e["type"] == "rejected"]
    assert len(rejected) == 1 and rejected[0]["move"] == move and rejected[0]["after_seq"] == seq
    assert rejected[0]["id"] == f"{seq + 1}-1"
    # a second rejection at the same seq gets the next audit id; plain events stay clean
    client.post(f"/v1/games/{gid}/moves", move, t)
    log = client.get(f"/v1/games/{gid}/events?include_rejected=true", t).json["events"]
    assert [e["id"] for e in log if e["type"] == "rejected"] == [f"{seq + 1}-1", f"{seq + 1}-2"]
    assert all(e["type"] != "rejected" for e in client.get(f"/v1/games/{gid}/events", t).json["events"])


def test_malformed_moves_are_400(client):
    g = client.create()
    gid, t = g["game_id"], g["table_token"]
    for body in ({"seat": 0}, {"seat": "0", "action": "pass"}, {"seat": 0, "action": "dance"},
                 {"seat": 0, "action": "play", "cards": "S3"}, {"seat": 0, "action": "pass", "x": 1},
                 {"seat": -1, "action": "pass"}, {"seat": 0, "action": "pass", "expected_seq": "a"}):
        r = client.post(f"/v1/games/{gid}/moves", body, t)
        assert r.status_code == 400, (body, r.json)
        assert r.json["error"]["code"]


def test_stale_expected_seq_is_409(client):
    g = client.create()
    gid, t = g["game_id"], g["table_token"]
    seat, moves, seq = _turn(client, g)
    assert client.post(f"/v1/games/{gid}/moves", dict(moves[0], expected_seq=seq), t).status_code == 200
    seat, moves, _ = _turn(client, g)
    r = client.post(f"/v1/games/{gid}/moves", dict(moves[0], expected_seq=seq), t)
    assert r.status_code == 409 and r.json["error"]["code"] == "stale_seq"


def test_seat_tokens_act_only_for_their_seat(client):
    g = client.create()
    gid = g["game_id"]
    seat, moves, _ = _turn(client, g)
    other = g["seat_tokens"][(seat + 1) % 4]
    for path in ("moves", "judge"):
        r = client.post(f"/v1/games/{gid}/{path}", moves[0], other)
        assert r.status_code == 403 and r.json["error"]["code"] == "wrong_seat"
    assert client.get(f"/v1/games/{gid}/legal-moves?seat={seat}", other).status_code == 403
    assert client.get(f"/v1/games/{gid}/legal-moves", g["seat_tokens"][seat]).json["seat"] == seat
    assert client.get(f"/v1/games/{gid}/legal-moves", g["table_token"]).status_code == 400
    assert client.post(f"/v1/games/{gid}/moves", moves[0]).status_code == 401
    assert client.post(f"/v1/games/{gid}/moves", moves[0], g["table_token"]).status_code == 200


def test_judge_in_game_stores_nothing(client):
    g = client.create()
    gid, t = g["game_id"], g["table_token"]
    before, seq = client.state(gid, t)
    seat, moves, _ = _turn(client, g)
    r = client.post(f"/v1/games/{gid}/judge", moves[0], t)
    assert r.status_code == 200 and r.json["verdict"]["legal"] is True
    assert r.json["state"] != before
    r = client.post(f"/v1/games/{gid}/judge", _illegal_play(before, seat), g["seat_tokens"][seat])
    assert r.status_code == 200 and r.json["verdict"]["legal"] is False
    assert client.state(gid, t) == (before, seq)
    log = client.get(f"/v1/games/{gid}/events?include_rejected=true", t).json["events"]
    assert len(log) == seq + 1


def test_detached_judge_matches_the_stored_game(client):
    g = client.create(seed=11)
    gid, t = g["game_id"], g["table_token"]
    state, _ = client.state(gid, t)
    seat, moves, _ = _turn(client, g)
    r = client.post("/v1/judge", {"preset": "uecda", "state": state, "move": moves[0]})
    assert r.status_code == 200 and r.json["verdict"]["legal"] is True
    applied = client.post(f"/v1/games/{gid}/moves", moves[0], t).json
    assert r.json["state"] == applied["state"] and r.json["verdict"] == applied["verdict"]
    bad = client.post("/v1/judge", {"preset": "uecda", "state": {"nope": 1}, "move": moves[0]})
    assert bad.status_code == 400 and bad.json["error"]["code"] == "bad_state"
    assert client.post("/v1/judge", {"preset": "uecda", "state": state}).status_code == 400
    bad = client.post("/v1/judge", {"preset": "no-such", "state": state, "move": moves[0]})
    assert bad.status_code == 400 and bad.json["error"]["code"] == "bad_rules"
    # inconsistent states the engine's parser lets through are still a 400, never a 500
    for key, value in (("place", "x"), ("place", 9), ("seat", 7)):
        broken = dict(state, players=[dict(state["players"][0], **{key: value}), *state["players"][1:]])
        bad = client.post("/v1/judge", {"preset": "uecda", "state": broken, "move": moves[0]})
        assert bad.status_code == 400 and bad.json["error"]["code"] == "bad_state", (key, value, bad.json)
    # a card in two places (issue 9): a 400 naming the card, not a verdict on an impossible table
    card = state["players"][0]["hand"][0]
    twice = dict(state, players=[state["players"][0], dict(state["players"][1],
                                                            hand=state["players"][1]["hand"] + [card]),
                                 *state["players"][2:]])
    bad = client.post("/v1/judge", {"preset": "uecda", "state": twice, "move": moves[0]})
    assert bad.status_code == 400 and bad.json["error"]["code"] == "bad_state"
    assert f"card {card} is in two places" in bad.json["error"]["message"]


def test_racing_proposals_apply_once(app):
    """Threads post the same legal move at once: exactly one applies."""
    from .helpers import Client

    for with_seq in (True, False):
        setup = Client(app.test_client())
        g = setup.create(seed=5)
        gid, t = g["game_id"], g["table_token"]
        seat, moves, seq = _turn(setup, g)
        move = dict(moves[0], expected_seq=seq) if with_seq else moves[0]
        barrier, results = threading.Barrier(8), []

        def race():
            c = Client(app.test_client())
            barrier.wait()
            results.append(c.post(f"/v1/games/{gid}/moves", move, t).status_code)

        threads = [threading.Thread(target=race) for _ in range(8)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert results.count(200) == 1, results
        assert set(results) <= ({200, 409} if with_seq else {200, 422, 409}), results
        _, now = setup.state(gid, t)
        assert now == seq + 1
        assert len(setup.get(f"/v1/games/{gid}/events", t).json["events"]) == seq + 2


def test_the_verdict_message_is_in_the_language_asked_for(client):
    """?lang= first, then Accept-Language; English without either. Only the message changes."""
    g, _, _, move = _illegal_proposal(client)
    gid, t = g["game_id"], g["table_token"]

    def verdict(query="", **headers):
        r = client.c.post(f"/v1/games/{gid}/moves{query}", json=move, headers={**client.auth(t), **headers})
        assert r.status_code == 422
        return r.json["verdict"]

    english = verdict()
    assert english["reason"] == "not_in_hand" and english["message"].isascii()
    for query, headers in (("?lang=ja", {}), ("", {"Accept-Language": "ja,en;q=0.5"}), ("?lang=ja-JP", {"Accept-Language": "en"})):
        ja = verdict(query, **headers)
        assert not ja["message"].isascii() and "持っていません" in ja["message"], (query, headers)
        assert {k: v for k, v in ja.items() if k != "message"} == {k: v for k, v in english.items() if k != "message"}
    for query, headers in (("?lang=en", {"Accept-Language": "ja"}), ("?x=1", {"Accept-Language": "en-GB,fr"}), ("?x=1", {})):
        assert verdict(query, **headers) == english, (query, headers)


def test_the_table_gets_the_stored_state_back_as_json(client):
    """The table's answer carries the state as the store keeps it (encoded once): the same as a read of the game."""
    g = client.create()
    gid, t = g["game_id"], g["table_token"]
    seat, moves, seq = _turn(client, g)
    for query in ("", "?lang=ja"):
        r = client.post(f"/v1/games/{gid}/moves{query}", dict(moves[0], expected_seq=seq), t)
        assert r.status_code == 200 and r.mimetype == "application/json"
        assert list(r.json) == ["verdict", "seq", "state"] and r.json["seq"] == seq + 1
        assert r.json["state"] == client.state(gid, t)[0] == engine.state_to_json(
            engine.replay(client.get(f"/v1/games/{gid}/events", t).json["events"]))
        seat, moves, seq = _turn(client, g)
