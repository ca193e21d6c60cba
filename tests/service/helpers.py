"""Test helpers: an HTTP client wrapper and engine-agnostic checks on states and events."""
from __future__ import annotations

import random
import re

from referee import instantiate

CARD = re.compile(r"^(?:[SHDC][3-9TJQKA2]|JK[12])$")


class Client:
    def __init__(self, flask_client):
        self.c = flask_client

    @staticmethod
    def auth(token):
        return {"Authorization": f"Bearer {token}"} if token else {}

    def get(self, path, token=None, **kw):
        return self.c.get(path, headers=self.auth(token), **kw)

    def post(self, path, json=None, token=None, **kw):
        return self.c.post(path, json=json, headers=self.auth(token), **kw)

    def create(self, preset="uecda", players=4, bots=(), seed=1, **extra):
        body = {"preset": preset, "seed": seed,
                "players": [{"name": f"p{i}", **({"bot": "random"} if i in bots else {})} for i in range(players)]}
        body.update(extra)
        r = self.post("/v1/games", body)
        assert r.status_code == 201, r.json
        return r.json

    def legal(self, gid, token, seat):
        r = self.get(f"/v1/games/{gid}/legal-moves?seat={seat}", token)
        assert r.status_code == 200, r.json
        return r.json

    def state(self, gid, token):
        r = self.get(f"/v1/games/{gid}", token)
        assert r.status_code == 200, r.json
        return r.json, int(r.headers["X-Referee-Seq"])


def hands(table_state: dict) -> list[list[str]]:
    return [list(p.get("hand") or []) for p in table_state["players"]]


def strings(obj) -> set[str]:
    out = set()
    if isinstance(obj, str):
        out.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out |= strings(k) | strings(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= strings(v)
    return out


def public_strings(table_state: dict) -> set[str]:
    """Strings the table shows outside the hands (field, discards, ruleset, …)."""
    bare = dict(table_state, players=[dict(p, hand=None) for p in table_state["players"]])
    return strings(bare)


def leaked(seen: dict, table_state: dict, viewer: int) -> set[str]:
    """Cards held by other seats that appear in what ``viewer`` was shown."""
    hidden = {c for i, h in enumerate(hands(table_state)) if i != viewer for c in h}
    return (strings(seen) & hidden) - public_strings(table_state)


def play_random_game(client: Client, game: dict, rng: random.Random, max_moves: int = 2000,
                     on_move=None) -> int:
    """Drive every seat with random legal moves (table token) until the deal is over."""
    gid, table = game["game_id"], game["table_token"]
    for _ in range(max_moves):
        probe = client.legal(gid, table, 0)
        if not probe["actors"]:
            return probe["seq"]
        seat = rng.choice(probe["actors"])
        moves = client.legal(gid, table, seat)["moves"]
        assert moves, f"seat {seat} must act but has no legal move"
        move = dict(instantiate(rng.choice(moves), rng), expected_seq=probe["seq"])
        r = client.post(f"/v1/games/{gid}/moves", move, table)
        assert r.status_code == 200, (move, r.json)
        if on_move:
            on_move(r.json)
    raise AssertionError("the deal did not end")
