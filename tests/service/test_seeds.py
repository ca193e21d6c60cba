"""Seeds reveal nothing (service/seeds.py): a served game deals from the caller's seed keyed with the server's secret.

The same seed on the same server deals the same hands; another secret, other hands; a seat that tries every small
seed through the engine's public code finds none of its own; the secret file is made once (0600, even by processes
racing to make it) and read again after a restart; a league draws a fresh unguessable seed unless given one.
"""
from __future__ import annotations

import dataclasses
import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

import referee as engine
from api.app import create_app
from referee import instantiate
from referee.cards import codes
from service import seeds
from service.settings import Settings

from .conftest import TEST_SEED_SECRET
from .helpers import Client, hands

NAMES = ["p0", "p1", "p2", "p3"]
ROOT = Path(__file__).resolve().parents[2]
GUESSES = range(2001)  # every caller's seed below 2001: the guesses that found a seed in 64 tries before


def _hands_dealt(client, seed, preset="uecda"):
    g = client.create(preset=preset, seed=seed)
    return hands(g["state"]), g


def _fresh_secret(settings, tmp_path) -> Settings:
    """The suite's settings on a data directory of its own and no REFEREE_SEED_SECRET: the secret file's path."""
    return dataclasses.replace(settings, seed_secret=None, data_dir=str(tmp_path / "data"))


def test_the_same_seed_deals_the_same_hands_on_the_same_server(client, settings):
    first, g = _hands_dealt(client, 1234)
    again, h = _hands_dealt(client, 1234)
    other, _ = _hands_dealt(client, 1235)
    assert first == again != other
    keyed = g["state"]["seed"]
    assert keyed == h["state"]["seed"] == seeds.key_seed(TEST_SEED_SECRET.encode(), 1234) != 1234
    assert 0 <= keyed < 2 ** 63  # an int64 for every client of the state JSON
    # the engine, handed the keyed seed, deals those hands: a replay on this server is reproducible
    state, _ = engine.new_game("uecda", players=NAMES, seed=keyed)
    assert [codes(p.hand) for p in state.players] == first


def test_another_secret_deals_other_hands(client, settings):
    mine, _ = _hands_dealt(client, 1234)
    elsewhere = Client(create_app(dataclasses.replace(settings, seed_secret="another server's key, 32 chars or more"))
                       .test_client())
    theirs, g = _hands_dealt(elsewhere, 1234)
    assert theirs != mine and g["state"]["seed"] != seeds.key_seed(TEST_SEED_SECRET.encode(), 1234)


def _guessed_seeds(preset: str, hand: list[str], seat: int) -> list[int]:
    """The attack: the caller's seeds whose public deal (engine.new_game, as the engine alone deals) gives ``seat``
    the hand it sees."""
    return [c for c in GUESSES
            if codes(engine.new_game(preset, players=NAMES, seed=c)[0].players[seat].hand) == hand]


@pytest.mark.parametrize("preset,seed", [("uecda", 0), ("uecda", 7), ("nanko", 1), ("nanko", 1999)])
def test_a_seat_that_tries_every_small_seed_finds_nothing(client, preset, seed):
    g = client.create(preset=preset, seed=seed)
    for seat in (0, 3):
        view, _ = client.state(g["game_id"], g["seat_tokens"][seat])
        assert view["seed"] is None and view["players"][seat]["hand"]
        assert _guessed_seeds(preset, view["players"][seat]["hand"], seat) == []
    # the same attack on the engine's own deal of that seed finds it: the attack works, the keying stops it
    public = codes(engine.new_game(preset, players=NAMES, seed=seed)[0].players[0].hand)
    assert _guessed_seeds(preset, public, 0) == [seed]


def _finish_the_deal(client, gid, token):
    while True:
        probe = client.legal(gid, token, 0)
        if not probe["actors"]:
            return
        seat = probe["actors"][0]
        moves = client.legal(gid, token, seat)["moves"]
        move = instantiate(next((m for m in moves if m["action"] == "play"), moves[0]))
        r = client.post(f"/v1/games/{gid}/moves", dict(move, expected_seq=probe["seq"]), token)
        assert r.status_code == 200, r.json


def test_a_table_record_replays_and_deals_on_as_the_game_did(client):
    """The record carries the keyed seed: imported, the game is the same, and so is every deal after it."""
    g = client.create(seed=77, hands=[["S3"], ["S4"], ["S5"], ["S6"]])
    gid, table = g["game_id"], g["table_token"]
    _finish_the_deal(client, gid, table)
    record = client.get(f"/v1/games/{gid}/record", table).get_data(as_text=True)
    assert f"seed: {g['state']['seed']}\n" in record
    imported = client.post("/v1/games", {"record": record})
    assert imported.status_code == 201, imported.json
    copy = imported.json
    assert copy["state"] == client.state(gid, table)[0]
    dealt = [client.post(f"/v1/games/{game}/deals", None, token).json["state"]
             for game, token in ((gid, table), (copy["game_id"], copy["table_token"]))]
    assert hands(dealt[0]) == hands(dealt[1]) and all(sum(map(len, hands(d))) == 53 for d in dealt)
    seat_record = client.get(f"/v1/games/{gid}/record", g["seat_tokens"][1]).get_data(as_text=True)
    assert "seed: hidden" in seat_record and str(g["state"]["seed"]) not in seat_record


def test_the_secret_file_is_made_once_0600_and_read_after_a_restart(settings, tmp_path):
    fresh = _fresh_secret(settings, tmp_path)
    path = tmp_path / "data" / seeds.SECRET_FILE
    before, _ = _hands_dealt(Client(create_app(fresh).test_client()), 42)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600 and len(path.read_bytes()) == seeds.SECRET_BYTES
    secret = path.read_bytes()
    seeds._load_once.cache_clear()  # a restart: nothing of the first start is left in this process
    after, g = _hands_dealt(Client(create_app(fresh).test_client()), 42)
    assert after == before and path.read_bytes() == secret
    assert g["state"]["seed"] == seeds.key_seed(secret, 42)
    assert seeds.describe(fresh) == str(path)


RACER = """
import sys, time
from service.seeds import load_secret
time.sleep(max(0.0, float(sys.argv[2]) - time.time()))  # every racer starts at the same instant
print(load_secret(None, sys.argv[1]).hex())
"""


def test_processes_starting_at_once_make_one_secret_and_all_read_it(tmp_path):
    data = tmp_path / "data"
    start = time.time() + 1.5  # after every interpreter has started
    racers = [subprocess.Popen([sys.executable, "-c", RACER, str(data), str(start)], stdout=subprocess.PIPE,
                               text=True, cwd=ROOT) for _ in range(8)]
    read = {racer.communicate(timeout=60)[0].strip() for racer in racers}
    assert all(r.returncode == 0 for r in racers)
    assert len(read) == 1 and bytes.fromhex(read.pop()) == (data / seeds.SECRET_FILE).read_bytes()
    assert os.listdir(data) == [seeds.SECRET_FILE]
    assert stat.S_IMODE(os.stat(data / seeds.SECRET_FILE).st_mode) == 0o600


def test_a_half_written_secret_stops_the_start_and_says_why(tmp_path, monkeypatch):
    (tmp_path / seeds.SECRET_FILE).write_bytes(b"short")
    monkeypatch.setattr(seeds, "WRITER_WAIT_S", 0.05)
    with pytest.raises(RuntimeError, match="holds 5 bytes, not 32.*remove it"):
        seeds.load_secret(None, str(tmp_path))


def test_the_seed_secret_setting(monkeypatch, settings, tmp_path):
    monkeypatch.setenv("REFEREE_SEED_SECRET", "s" * 40)
    s = Settings.from_env()
    assert s.seed_secret == "s" * 40 and "s" * 40 not in repr(s)
    shared = dataclasses.replace(settings, seed_secret="s" * 40, data_dir=str(tmp_path))
    assert seeds.secret_for(shared) == b"s" * 40 and seeds.describe(shared) == "REFEREE_SEED_SECRET"
    assert not os.listdir(tmp_path), "no file is made when the setting gives the secret"
    with pytest.raises(ValueError, match="REFEREE_SEED_SECRET has 8 characters; it needs at least 32"):
        create_app(dataclasses.replace(settings, seed_secret="too-shrt"))


class FakeReferee:
    """The few answers a league reads, each match's deal already over: what the league sends is what is tested."""

    def __init__(self):
        self.created: list[dict] = []

    def request(self, method, url, json=None, headers=None, timeout=None):
        path = url.split("://", 1)[1].split("/", 1)[1]
        if method == "POST" and path == "v1/games":
            self.created.append(json)
            return _Answer({"game_id": f"g{len(self.created)}", "table_token": "tbl", "seq": 0}, 201)
        if path.endswith("events?after=0"):
            return _Answer({"events": []})
        if path.startswith("v1/games/"):
            return _Answer({"phase": "deal_over", "deal": 1, "players": [{"place": s + 1} for s in range(4)]})
        return _Answer({"status": "ok"})


class _Answer:
    def __init__(self, body, status=200):
        self.body, self.status_code = body, status
        self.content = json.dumps(body).encode()

    def json(self):
        return self.body


def _league(monkeypatch, *args) -> tuple[dict, list[dict], str]:
    """`referee tournament --server …` in this process on a FakeReferee: (its last line, the games it asked, stdout)."""
    import io
    from contextlib import redirect_stdout

    import cli
    from workers import league

    fake = FakeReferee()
    monkeypatch.setattr(league.requests, "Session", lambda: fake)
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli.main(["tournament", "--server", "http://referee.test", "--seats", "random,greedy,random,random",
                         "--deals", "3", "--match-deals", "1", "--no-progress", "--json", *args]) == 0
    return json.loads(out.getvalue().splitlines()[-1]), fake.created, out.getvalue()


def test_a_league_draws_a_fresh_unguessable_seed_unless_given_one(monkeypatch):
    first, games, out = _league(monkeypatch)
    second, games_again, _ = _league(monkeypatch)
    assert first["seed"] != second["seed"] and all(0 <= s["seed"] < 2 ** 63 for s in (first, second))
    assert f"league seed {first['seed']}" in out  # the organiser's terminal, where it is useful
    sent = [g["seed"] for g in games]
    assert len(set(sent)) == 3 and not set(sent) & {g["seed"] for g in games_again}
    assert all(0 <= s < 2 ** 63 for s in sent) and max(sent) >= 2 ** 40, "match seeds too wide to enumerate"
    # a seed given is used, and the league's games are asked for again alike
    given, games_given, _ = _league(monkeypatch, "--seed", str(first["seed"]))
    assert given["seed"] == first["seed"] and [g["seed"] for g in games_given] == sent
