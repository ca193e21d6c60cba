"""Replay at every seq of random games equals the live state at that seq."""
import random

import pytest

from .helpers import play_random_game


@pytest.mark.parametrize("preset,seed", [("uecda", 21), ("nanko", 22), ("gekifugo", 23)])
def test_replay_equals_live_state_at_every_seq(client, preset, seed):
    g = client.create(preset=preset, seed=seed)
    gid, t = g["game_id"], g["table_token"]
    seat_token = g["seat_tokens"][0]
    live = {0: (client.state(gid, t)[0], client.state(gid, seat_token)[0])}

    def record(_):
        (table, seq) = client.state(gid, t)
        live[seq] = (table, client.state(gid, seat_token)[0])

    play_random_game(client, g, random.Random(seed), on_move=record)
    assert sorted(live) == list(range(max(live) + 1))
    for seq, (table, view) in live.items():
        r = client.get(f"/v1/games/{gid}/replay?seq={seq}", t)
        assert r.status_code == 200 and r.json["seq"] == seq
        assert r.json["state"] == table, seq
        assert client.get(f"/v1/games/{gid}/replay?seq={seq}", seat_token).json["state"] == view, seq
    last = max(live)
    for bad in (f"{last + 1}", "-1", "x", ""):
        r = client.get(f"/v1/games/{gid}/replay?seq={bad}", t)
        assert r.status_code == 400, bad
    assert client.get(f"/v1/games/{gid}/replay", t).status_code == 400
