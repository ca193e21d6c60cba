"""Replay snapshots (REFEREE_SNAPSHOT_EVERY): the write that carries a game's seq across a multiple of K stores the
full state, and GET …/replay?seq=N starts from the nearest one at or below N. Every answer must equal the replay of
the whole log, for the table and for a seat, in games stored with, without and partly without snapshots."""
import dataclasses
import json
import random

import referee as engine
from api.app import create_app

from .helpers import Client, play_random_game

EVERY = 7


def client_with(settings, every: int) -> Client:
    return Client(create_app(dataclasses.replace(settings, snapshot_every=every)).test_client())


def store_of(client: Client):
    return client.c.application.extensions["referee.service"].store


def two_deals(client: Client, preset: str, seed: int, switch_to: Client | None = None) -> dict:
    """A game of two random deals (the second started by POST …/deals); the second played through ``switch_to``."""
    rng = random.Random(seed)
    g = client.create(preset=preset, seed=seed)
    play_random_game(client, g, rng)
    other = switch_to or client
    assert other.post(f"/v1/games/{g['game_id']}/deals", None, g["table_token"]).status_code == 201
    play_random_game(other, g, rng)
    return g


def snapshot_seqs(client: Client, gid: str) -> list[int]:
    return [int(sid.split("-")[0]) - 1 for sid, _ in store_of(client).r.xrange(store_of(client).key(gid, "snaps"))]


def assert_replays_equal_the_whole_log(client: Client, g: dict) -> int:
    gid, table, seat = g["game_id"], g["table_token"], g["seat_tokens"][1]
    log = client.get(f"/v1/games/{gid}/events", table).json["events"]
    for seq in range(len(log)):
        expected = engine.replay(log, upto=seq)
        r = client.get(f"/v1/games/{gid}/replay?seq={seq}", table)
        assert r.status_code == 200 and r.json["state"] == engine.state_to_json(expected), seq
        r = client.get(f"/v1/games/{gid}/replay?seq={seq}", seat)
        assert r.json["state"] == engine.state_to_json(expected, viewer=1), seq
    return len(log) - 1


def test_snapshots_are_written_where_the_seq_crosses_a_multiple(settings):
    client = client_with(settings, EVERY)
    g = two_deals(client, "nanko", 31)
    gid = g["game_id"]
    log = client.get(f"/v1/games/{gid}/events", g["table_token"]).json["events"]
    last = log[-1]["seq"]
    assert last > 3 * EVERY and any(e["type"] == "deal_started" for e in log)
    assert snapshot_seqs(client, gid) == list(range(EVERY, last + 1, EVERY))
    for sid, fields in store_of(client).r.xrange(store_of(client).key(gid, "snaps")):
        seq = int(sid.split("-")[0]) - 1
        snapshot = engine.state_from_json(json.loads(fields["state"]))
        assert snapshot == engine.replay(log, upto=seq), f"the snapshot at {seq} is the full state there"


def test_replay_at_every_seq_equals_the_replay_of_the_whole_log(settings):
    client = client_with(settings, EVERY)
    for preset, seed in (("uecda", 32), ("gekifugo", 33)):
        g = two_deals(client, preset, seed)
        last = assert_replays_equal_the_whole_log(client, g)
        store = store_of(client)
        for seq in range(last + 1):
            start, events = store.replay_inputs(g["game_id"], seq)
            if seq < EVERY:
                assert start is None and [e["seq"] for e in events] == list(range(seq + 1))
            else:  # at most K - 1 events to fold
                assert start["seq"] == seq - seq % EVERY
                assert [e["seq"] for e in events] == list(range(start["seq"] + 1, seq + 1))


def test_games_stored_without_snapshots_still_replay(settings):
    before = client_with(settings, 0)  # a game stored before the snapshots existed
    g = two_deals(before, "uecda", 34)
    assert snapshot_seqs(before, g["game_id"]) == []
    assert_replays_equal_the_whole_log(client_with(settings, EVERY), g)

    half = two_deals(before, "nanko", 35, switch_to=client_with(settings, EVERY))  # the second deal with snapshots
    seqs = snapshot_seqs(before, half["game_id"])
    assert seqs and all(s % EVERY == 0 for s in seqs)
    assert_replays_equal_the_whole_log(before, half)


def test_delete_removes_the_snapshots(settings):
    client = client_with(settings, 2)
    g = client.create(seed=36)
    play_random_game(client, g, random.Random(36))
    store, gid = store_of(client), g["game_id"]
    assert store.r.exists(store.key(gid, "snaps"))
    assert client.c.delete(f"/v1/games/{gid}", headers=client.auth(g["table_token"])).status_code == 204
    assert not any(store.r.exists(k) for k in store.keys(gid))


def test_an_imported_record_gets_the_snapshots_of_a_game_played_move_by_move(settings):
    client = client_with(settings, EVERY)
    g = two_deals(client, "gekifugo", 37)
    text = client.get(f"/v1/games/{g['game_id']}/record", g["table_token"]).get_data(as_text=True)
    made = client.post("/v1/games", {"record": text})
    assert made.status_code == 201, made.json
    new = made.json
    last = new["seq"]
    # every multiple of K below the last event, as a game played move by move, and the state after the last one
    assert snapshot_seqs(client, new["game_id"]) == list(range(EVERY, last, EVERY)) + [last]
    store = store_of(client)
    original = dict(store.r.xrange(store.key(g["game_id"], "snaps")))
    for sid, fields in store.r.xrange(store.key(new["game_id"], "snaps"))[:-1]:
        assert json.loads(fields["state"]) == json.loads(original[sid]["state"]), sid
    assert_replays_equal_the_whole_log(client, new)
