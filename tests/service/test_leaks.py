"""No endpoint shows a seat a card it could not have seen, and no seat sees a seed (the game's keyed one reaches the
table token only; the caller's is stored nowhere).

Games of every preset are played over two deals (so the exchange, and gekifugo's requests, happen) with every
real move proposed by the acting seat's own token. At every seq each seat reads its state and legal moves and,
when it must act, judges what-ifs (every rank of a pending request); at the end each seat reads the events, the
stream, the replay at every seq (from replay snapshots every 5 events) and the record. Everything it was shown is
checked against what it could have seen up to that seq (helpers.Knowledge); the annotations of its legal moves
(effects, forbidden finishes), which name no card, must be exactly those of the same table with the other hands
reshuffled.
"""
import dataclasses
import json
import random
import re

import pytest

from api.app import create_app
from referee import annotate, forbidden_last, instantiate, legal_moves, state_from_json
from referee.cards import RANKS

from ..engine.helpers import with_other_hands_swapped
from .helpers import Client, Knowledge, hands

SEATS = 4
SECRET = 184467440737095516  # a caller's seed: stored nowhere; the table sees the seed it was keyed into, no seat


@pytest.fixture(scope="module")
def client(settings):
    """Replay snapshots every few events: the replays each seat reads start from full-state snapshots too."""
    return Client(create_app(dataclasses.replace(settings, snapshot_every=5)).test_client())


class Walk:
    def __init__(self, client, game):
        self.c, self.g = client, game
        self.gid, self.table = game["game_id"], game["table_token"]
        self.seeds = (str(SECRET), str(game["state"]["seed"]))  # the caller's and the keyed one the game deals from
        self.know = Knowledge(SEATS)
        self.checked = self.annotated = 0
        self.sealed = {"request": 0, "other": 0}
        self.rng = random.Random(game["game_id"])

    def token(self, seat):
        return self.g["seat_tokens"][seat]

    def no_leak(self, seen, seq, seat, what):
        assert not self.know.leaks(seen, seq, seat), (what, seat, seq, self.know.leaks(seen, seq, seat))
        assert not any(seed in json.dumps(seen) for seed in self.seeds), (what, seat, "a seed reached a seat")
        self.checked += 1

    def observe(self):
        state, seq = self.c.state(self.gid, self.table)
        self.know.observe(seq, state)
        for seat in range(SEATS):
            view, vseq = self.c.state(self.gid, self.token(seat))
            assert vseq == seq and view["seed"] is None
            self.no_leak(view, seq, seat, "state")
            legal = self.c.legal(self.gid, self.token(seat), seat)
            self.no_leak(legal, seq, seat, "legal-moves")
            self.annotations_read_no_other_hand(state, seat, legal)
        return state, seq

    def annotations_read_no_other_hand(self, table_state, seat, served):
        """What the legal moves tell a seat besides the moves (annotations, forbidden_last) is the same for any
        table that differs only in the other hands."""
        other = with_other_hands_swapped(state_from_json(table_state), seat, self.rng)
        assert served["moves"] == annotate(other, legal_moves(other, seat)), (seat, table_state["seq"])
        assert served["forbidden_last"] == forbidden_last(other, seat), (seat, table_state["seq"])
        self.annotated += sum(1 for m in served["moves"] if m["effects"] or m["forbidden_finish"])

    def what_ifs(self, seat, moves, seq, rng):
        token, view = self.token(seat), self.c.state(self.gid, self.token(seat))[0]
        plays = [m for m in moves if m["action"] == "play"]
        picked = [m for m in moves if m["action"] != "play" or len(m.get("cards", [])) >= 3]
        picked += rng.sample(plays, min(6, len(plays)))
        requests = []
        if any(m["action"] == "request" for m in moves):
            picked += [{"seat": seat, "action": "request", "rank": r} for r in (*RANKS, "JK")]
        for move in picked:
            r = self.c.post(f"/v1/games/{self.gid}/judge", move, token)
            assert r.status_code == 200, (move, r.json)
            self.no_leak(r.json, seq, seat, f"judge {move}")
            if r.json["verdict"].get("outcome") == "hidden":
                assert r.json["state"] == view, "a sealed what-if shows the game as it stands"
                self.sealed["request" if move["action"] == "request" else "other"] += 1
            if move["action"] == "request" and r.json["verdict"]["legal"]:
                requests.append(json.dumps(r.json, sort_keys=True))
        # every rank asked gets the same answer: none tells whether the asked seat holds it
        assert len(set(requests)) <= 1, requests

    def play_deal(self, rng):
        while True:
            table_state, seq = self.observe()
            probe = self.c.legal(self.gid, self.table, 0)
            if not probe["actors"]:
                return table_state, seq
            seat = rng.choice(probe["actors"])
            moves = [instantiate(m, rng) for m in self.c.legal(self.gid, self.token(seat), seat)["moves"]]
            self.what_ifs(seat, moves, seq, rng)
            move = dict(rng.choice(moves), expected_seq=seq)
            r = self.c.post(f"/v1/games/{self.gid}/moves", move, self.token(seat))
            assert r.status_code == 200, (move, r.json)
            self.know.observe(r.json["seq"], self.c.state(self.gid, self.table)[0])
            self.no_leak(r.json, r.json["seq"], seat, "move")

    def read_the_log(self, last):
        store = self.c.c.application.extensions["referee.service"].store
        assert store.replay_inputs(self.gid, last - 1)[0] is not None, "the replays start from snapshots too"
        for seat in range(SEATS):
            token = self.token(seat)
            events = self.c.get(f"/v1/games/{self.gid}/events", token).json["events"]
            assert [e["seq"] for e in events] == list(range(last + 1))
            for e in events:
                self.no_leak(e, e["seq"], seat, "events")
            r = self.c.get(f"/v1/games/{self.gid}/stream?after=-1&wait=0", token)
            streamed = [json.loads(line[6:]) for line in r.get_data(as_text=True).splitlines()
                        if line.startswith("data: ")]
            assert [e["seq"] for e in streamed] == list(range(last + 1))
            for e in streamed:
                self.no_leak(e, e["seq"], seat, "stream")
            for seq in range(last + 1):
                self.no_leak(self.c.get(f"/v1/games/{self.gid}/replay?seq={seq}", token).json, seq, seat, "replay")
            record = self.c.get(f"/v1/games/{self.gid}/record", token).get_data(as_text=True)
            seq = 0
            for line in record.splitlines():
                if m := re.match(r"^\s*(\d+)\s", line) or re.search(r"\(seq (\d+)\)", line):
                    seq = int(m.group(1))
                self.no_leak(line, seq, seat, f"record line {line!r}")


@pytest.mark.parametrize("preset,seed", [("uecda", 41), ("nanko", 42), ("gekifugo", 43)])
def test_no_endpoint_shows_a_seat_a_card_it_could_not_have_seen(client, preset, seed):
    rng = random.Random(seed)
    g = client.create(preset=preset, players=SEATS, seed=SECRET)
    walk = Walk(client, g)
    walk.play_deal(rng)
    dealer = rng.randrange(SEATS)  # a seat token may start the next deal: its answer is that seat's view
    r = client.post(f"/v1/games/{g['game_id']}/deals", None, walk.token(dealer))
    assert r.status_code == 201, r.json
    walk.know.observe(r.json["seq"], client.state(g["game_id"], g["table_token"])[0])
    walk.no_leak(r.json, r.json["seq"], dealer, "deals")
    _, last = walk.play_deal(rng)
    walk.read_the_log(last)
    assert walk.checked > 1000
    assert walk.annotated > 20, "no move with an effect or a forbidden finish was served: the swap check saw nothing"
    if preset == "gekifugo":
        assert walk.sealed["request"] >= 10, walk.sealed  # the top asked the bottom: every rank was tried
    # the table token sees the keyed seed the game deals from (its record replays with it), not the caller's
    t, keyed = g["table_token"], g["state"]["seed"]
    assert keyed != SECRET and 0 <= keyed < 2 ** 63
    assert client.state(g["game_id"], t)[0]["seed"] == keyed
    assert client.get(f"/v1/games/{g['game_id']}/events", t).json["events"][0]["seed"] == keyed
    record = client.get(f"/v1/games/{g['game_id']}/record", t).get_data(as_text=True)
    assert f"seed: {keyed}" in record and str(SECRET) not in record


def test_the_leak_check_finds_a_leak(client):
    """The check above can fail: another seat's hand shown to a seat is flagged."""
    g = client.create(players=SEATS, seed=5)
    table, seq = client.state(g["game_id"], g["table_token"])
    know = Knowledge(SEATS)
    know.observe(seq, table)
    assert know.leaks({"message": f"seat 1 holds {hands(table)[1][0]}"}, seq, 0) == {hands(table)[1][0]}
    assert not know.leaks(hands(table)[0], seq, 0)


def test_without_a_seed_every_deal_is_secret(client):
    r = client.post("/v1/games", {"preset": "uecda", "players": [{"name": f"p{i}"} for i in range(4)]})
    g = r.json
    state, _ = client.state(g["game_id"], g["table_token"])
    assert state["seed"] is None  # nothing to brute-force: each deal's 256-bit seed is never stored
    deals = {tuple(map(tuple, hands(client.create(seed=None)["state"]))) for _ in range(3)}
    assert len(deals) == 3


def _bloody_mary_answers(client, others):
    hands = [["S3", "SQ", "HQ", "DQ", "C5"], *others]
    g = client.create(preset="nanko", players=SEATS, hands=hands)
    move = {"seat": 0, "action": "play", "cards": ["SQ", "HQ", "DQ"]}
    seat = client.post(f"/v1/games/{g['game_id']}/judge", move, g["seat_tokens"][0])
    table = client.post(f"/v1/games/{g['game_id']}/judge", move, g["table_token"])
    assert seat.status_code == table.status_code == 200
    return seat.json, table.json


def test_a_what_if_that_reads_other_hands_is_sealed(client):
    """Bloody Mary makes the others discard their strongest cards: seat 0's what-if must not show them."""
    a, table_a = _bloody_mary_answers(client, [["JK1", "S2", "H4"], ["H2", "D2", "S5"], ["C2", "SA", "D6"]])
    b, table_b = _bloody_mary_answers(client, [["C2", "SA", "D6"], ["JK1", "S2", "H4"], ["H2", "D2", "S5"]])
    assert a["verdict"]["legal"] and a["verdict"]["outcome"] == "hidden"
    assert a == b  # the answer does not depend on the hands seat 0 cannot see
    assert len(a["state"]["players"][0]["hand"]) == 5  # the game as it stands: the Qs not yet played
    assert not {"JK1", "S2", "H2", "D2", "C2", "SA"} & set(a["state"]["discard_pile"])
    # the table sees everything, so its what-if is not sealed
    assert "outcome" not in table_a["verdict"] and "bloody_mary" in table_a["verdict"]["effects"]
    assert table_a != table_b


def test_a_what_if_on_own_cards_shows_its_outcome(client):
    g = client.create(preset="uecda", players=SEATS, seed=8)
    gid = g["game_id"]
    seat = client.legal(gid, g["table_token"], 0)["actors"][0]
    move = instantiate(client.legal(gid, g["seat_tokens"][seat], seat)["moves"][0])
    r = client.post(f"/v1/games/{gid}/judge", move, g["seat_tokens"][seat])
    assert r.json["verdict"]["legal"] and "outcome" not in r.json["verdict"]
    assert r.json["state"]["seq"] == r.json["seq"] + 1  # the state the move would lead to


def _after_an_eight_cut(client, jokers_at):
    hands = [["S3", "S8", "C5"], ["H4", "H5"], ["D4", "D5"], ["C4", "C6"]]
    fillers, jokers = ["H6", "D6", "C7"], ["JK1", "JK2"]
    for seat in (1, 2, 3):  # the same counts everywhere: only where the jokers are differs
        hands[seat].append(jokers.pop(0) if seat in jokers_at else fillers[seat - 1])
    g = client.create(preset="nanko", players=SEATS, hands=hands)
    move = {"seat": 0, "action": "play", "cards": ["S8"]}
    what_if = client.post(f"/v1/games/{g['game_id']}/judge", move, g["seat_tokens"][0]).json
    assert client.post(f"/v1/games/{g['game_id']}/moves", move, g["seat_tokens"][0]).status_code == 200
    view = client.state(g["game_id"], g["seat_tokens"][2])[0]
    return what_if, {k: v for k, v in view.items() if k != "players"}


def test_a_what_if_does_not_tell_who_may_cut_back(client):
    a, _ = _after_an_eight_cut(client, [1])
    b, _ = _after_an_eight_cut(client, [3])
    assert a["verdict"].get("outcome") == "hidden" and a == b


def test_a_real_cut_does_not_tell_who_holds_jokers(client):
    _, a = _after_an_eight_cut(client, [1])
    _, b = _after_an_eight_cut(client, [3])
    assert a == b
