"""Hidden stays hidden, proven by a walk: no endpoint shows a seat a card it could not know.

Whole games of three deals (so the exchange happens twice) are played under each preset, with switches that put
several gives in one event: exchanges between several pairs whose strongest cards are chosen on ties, 7渡し,
Bloody Mary, 死者蘇生; and one table-mode game. Every real move is first judged as a what-if, then proposed, with
the acting seat's own token. Then every seat reads every endpoint that shows events, states, records or streams.

The oracle comes from the table token's log. At seq ``s`` a seat may know, of an event: its hand before and after
event ``s``, the cards played in public in the deal up to ``s`` (plays, the field, discards) and the cards of the
gives at ``s`` it made or received. A state may also show what the seat held or was handed earlier in the same
deal (a give's withheld cards). Every card in an answer about seq ``s`` is checked against that seat's knowledge
at ``s``, so a give between two other seats shown to a third (e.g. the automatic give that follows a seat's chosen
give in the same event) fails the walk.

The test deals every hand itself and passes no seed (the service keys a caller's seed with its own secret, so a
seed would not make a deal reproducible): the moves, chosen with a seeded generator, then make the same games on
every run.
"""
from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Iterator

import pytest

from api.app import create_app
from referee import build_ruleset, instantiate
from referee.cards import CODES, RANKS

from .helpers import Client, cards_in, hands

DEALS = 3
SAMPLE_EVERY = 7  # every seat reads its state and legal moves at every 7th seq of the play
RARE = {"bloody_mary", "resurrection"}  # plays that move cards between seats, the rarely possible first
FIRING = RARE | {"seven_pass", "ten_discard"}
PUBLIC_KINDS = ("play", "discard", "take", "cut_back", "capital_fall")  # outcome items every seat sees
GAMES = [  # (preset, seats, rule overrides, seed of the deals and the moves)
    ("uecda", 5, {"exchange": {"by_size": True, "auto_ties": False}, "seven_pass": True, "bloody_mary": True,
                  "resurrection": True}, 19),
    ("nanko", 4, {"exchange": {"top": 3, "second": 2, "give_back": False}}, 18),
    ("gekifugo", 5, {"exchange": {"by_size": True}, "bloody_mary": True, "resurrection": True}, 1),
]


@pytest.fixture(scope="module")
def client(settings) -> Client:
    """Replay snapshots every few events: each seat's replay at every seq folds a few events, not a whole game."""
    app = create_app(dataclasses.replace(settings, snapshot_every=8))
    app.config["TESTING"] = True
    return Client(app.test_client())


def card_paths(obj, path: str = "") -> Iterator[tuple[str, str]]:
    """(where, card) for every card code in ``obj``, messages and record text included. The card a joker stands
    for ({"JK1": "D9"}) names no card anyone holds, nor does a ruleset (first_card's card), or its record line."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            where = f"{path}.{key}"
            yield from ((where, c) for c in cards_in(str(key)))
            if not (str(key).startswith("JK") and isinstance(value, str) or key == "rules" and isinstance(value, dict)):
                yield from card_paths(value, where)
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield from card_paths(value, f"{path}[{i}]")
    elif isinstance(obj, str) and not obj.startswith("rules: "):
        yield from ((path, c) for c in sorted(cards_in(obj)))


def gives_of(event: dict, seat: int) -> set[str]:
    """The cards of the event's gives that ``seat`` made or received."""
    return {c for item in event.get("outcome", []) if item.get("kind") == "give" and seat in (item["from"], item["to"])
            for c in item["cards"]}


def shown_to_all(state: dict) -> set[str]:
    """The cards a state shows every seat: the field, the cards beaten beneath it, the discard pile."""
    field = state["field"] or {}
    return {*field.get("cards", []), *field.get("beneath", []), *state["discard_pile"]}


class Oracle:
    """What each seat may know at each seq, from the table token's events and states (seq -> state)."""

    def __init__(self, events: list[dict], states: dict[int, dict]):
        seats = len(states[0]["players"])
        self.holders = {s: {c: i for i, h in enumerate(hands(st)) for c in h} for s, st in states.items()}
        self.of_event: list[list[frozenset]] = []
        self.of_state: list[list[frozenset]] = []
        public: set[str] = set()
        in_deal: list[set[str]] = []
        for event in events:
            seq = event["seq"]
            if event["type"] in ("game_created", "deal_started"):
                public, in_deal = set(), [set() for _ in range(seats)]
            public |= shown_to_all(states[seq]) | {c for item in event.get("outcome", [])
                                                   if item.get("kind") in PUBLIC_KINDS for c in item["cards"]}
            before, after = hands(states[max(seq - 1, 0)]), hands(states[seq])
            row = [frozenset({*before[v], *after[v], *gives_of(event, v), *public}) for v in range(seats)]
            for v in range(seats):
                in_deal[v] |= row[v]
            self.of_event.append(row)
            self.of_state.append([frozenset(known) for known in in_deal])

    def unknown(self, answer, seat: int, seq: int, state: bool) -> list[str]:
        """Where ``answer`` (about seq ``seq``) shows ``seat`` a card it could not know, and who held it."""
        known = (self.of_state if state else self.of_event)[seq][seat]
        return [f"{card} at {where} (held by seat {self.holders[seq].get(card, '?')})"
                for where, card in card_paths(answer) if card not in known][:12]


def counts_only_in_state(view: dict, seat: int) -> None:
    for p in view["players"]:
        if p["seat"] != seat:
            assert p["hand"] is None and isinstance(p["hand_count"], int), (seat, p)


def counts_only_in_event(event: dict, seat: int) -> None:
    for i, hand in enumerate(event.get("hands") or []):
        assert i == seat or hand is None or isinstance(hand, int), (seat, event["seq"], "hands", i)
    for item in event.get("outcome", []):
        if item.get("kind") == "give" and seat not in (item["from"], item["to"]):
            assert isinstance(item["cards"], int), (seat, event["seq"], item)


def several_gives(event: dict) -> bool:
    """A seat's give followed, in the same event, by a give another seat made."""
    move = event.get("move") or {}
    return move.get("action") == "give" and any(item.get("kind") == "give" and item["from"] != move["seat"]
                                                for item in event["outcome"])


def deal_hands(jokers: int, seats: int, rng: random.Random, places=()) -> list[list[str]]:
    """A deck with ``jokers`` jokers, shuffled by ``rng`` and dealt so that the rules under test fire: the leader
    holds three Qs (Bloody Mary). From the second deal (``places``: the previous deal's) the last-placed seat holds
    the four 2s and no joker, so its strongest cards are a choice among tied 2s, and the second-last one card of each
    rank from the A down, so its strongest go at once: in the same event as the last's chosen give."""
    deck = list(CODES[:52 + jokers])
    rng.shuffle(deck)
    sizes = [len(deck[seat::seats]) for seat in range(seats)]
    dealt: list[list[str]] = [[] for _ in range(seats)]
    last = second = None
    if places:
        last, second = places.index(seats), places.index(seats - 1)
        dealt[last] = [c for c in deck if c[1:] == "2"]
        tops = {c[1]: c for c in reversed(deck) if c[1] in RANKS[:-1]}  # one card of each rank but the 2
        dealt[second] = [tops[r] for r in reversed(RANKS[:-1])][:sizes[second]]
    # the three Qs go with the first cards (the first deal's leader) or to the last (a later deal's leader)
    leader = rng.randrange(seats) if last is None else last
    spare = [c for c in deck if second is None or c not in dealt[second]]
    dealt[leader] += [c for c in spare if c[1] == "Q"][:3] + [c for c in spare if c in ("D3", "S3")]
    rest = [c for c in deck if not any(c in hand for hand in dealt)]
    for seat in sorted(range(seats), key=lambda seat: (seat != second, seat != last)):
        # the second-last fills up with the lowest cards, the last with anything but a joker
        pool = sorted(rest, key=lambda c: RANKS.find(c[1])) if seat == second else \
            [c for c in rest if seat != last or not c.startswith("JK")]
        taken = pool[:sizes[seat] - len(dealt[seat])]
        dealt[seat] += taken
        rest = [c for c in rest if c not in taken]
    return dealt


def choose(moves: list[dict], rng: random.Random) -> dict:
    """A random legal move, most often one that fires a rule moving cards between seats (a rare one first)."""
    for wanted in (RARE, FIRING):
        firing = [m for m in moves if wanted & set(m.get("effects", ()))]
        if firing and rng.random() < 0.9:
            return instantiate(rng.choice(firing), rng)
    return instantiate(rng.choice(moves), rng)


class Walk:
    """One game: played with the seats' own tokens, every answer kept to be checked once the log is complete."""

    def __init__(self, client: Client, preset: str, seats: int, rules: dict, seed: int, table: bool = False):
        self.c, self.seats, self.table_mode = client, seats, table
        self.rng, self.deals = random.Random(seed), random.Random(-seed)
        self.jokers = build_ruleset(preset, rules).jokers
        self.g = client.create(preset=preset, players=seats, seed=None, rules=rules, table=table,
                               **({} if table else {"hands": deal_hands(self.jokers, seats, self.deals)}))
        self.gid, self.table = self.g["game_id"], self.g["table_token"]
        self.states: dict[int, dict] = {}
        self.events: list[dict] = []  # the table's log, once played
        self.answers: list[tuple[str, int, int, object, str]] = []  # (what, seat, seq, answer, its form)

    def token(self, seat: int) -> str:
        return self.g["seat_tokens"][seat]

    def keep(self, what: str, seat: int, seq: int, answer, form: str) -> None:
        """``form``: a state ("view"), an answer holding one ("answer"), "legal" moves, an "event", a record "line"."""
        self.answers.append((what, seat, seq, answer, form))

    def play_deal(self) -> None:
        while True:
            state, seq = self.c.state(self.gid, self.table)
            self.states[seq] = state
            if seq % SAMPLE_EVERY == 0:
                for seat in range(self.seats):
                    self.keep("GET state", seat, seq, self.c.state(self.gid, self.token(seat))[0], "view")
                    self.keep("GET legal-moves", seat, seq, self.c.legal(self.gid, self.token(seat), seat), "legal")
            if not state["actors"]:
                return
            seat = self.rng.choice(state["actors"])
            token = self.token(seat)
            legal = self.c.legal(self.gid, token, seat)
            self.keep("GET legal-moves", seat, seq, legal, "legal")
            if self.table_mode:  # a seat may list cards it cannot know went elsewhere: the table plays what it holds
                legal = self.c.legal(self.gid, self.table, seat)
            move = choose(legal["moves"], self.rng)
            judged = self.c.post(f"/v1/games/{self.gid}/judge", move, token)
            assert judged.status_code == 200, (move, judged.json)
            r = self.c.post(f"/v1/games/{self.gid}/moves", dict(move, expected_seq=seq), token)
            assert r.status_code == 200, (move, r.json)
            self.keep("POST judge (what-if)", seat, r.json["seq"], judged.json, "answer")  # unsealed: event seq + 1
            self.keep("POST moves", seat, r.json["seq"], r.json, "answer")

    def play(self) -> None:
        for deal in range(1, DEALS + 1):
            if deal > 1:
                places = [p["place"] for p in self.states[max(self.states)]["players"]]
                dealt = None if self.table_mode else deal_hands(self.jokers, self.seats, self.deals, places)
                r = self.c.post(f"/v1/games/{self.gid}/deals", {"hands": dealt} if dealt else None, self.table)
                assert r.status_code == 201, r.json
            self.play_deal()

    def read_everything(self, last: int) -> None:
        """Every seat reads every endpoint that shows events, states, records or streams."""
        for seat in range(self.seats):
            token, base = self.token(seat), f"/v1/games/{self.gid}"
            view, seq = self.c.state(self.gid, token)
            assert seq == last
            self.keep("GET state", seat, last, view, "view")
            self.keep("GET legal-moves", seat, last, self.c.legal(self.gid, token, seat), "legal")
            events = self.c.get(f"{base}/events?after=-1", token).json["events"]
            assert [e["seq"] for e in events] == list(range(last + 1))
            for e in events:
                self.keep("GET events", seat, e["seq"], e, "event")
            for after in sorted({0, 1, last // 3, last // 2, last - 1, last, self.rng.randrange(last)}):
                assert self.c.get(f"{base}/events?after={after}", token).json["events"] == events[after + 1:], after
            self.read_stream(seat, events)
            for s in range(last + 1):
                r = self.c.get(f"{base}/replay?seq={s}", token)
                assert r.status_code == 200 and r.json["seq"] == s
                self.keep("GET replay", seat, s, r.json, "answer")
            self.read_record(seat)

    def read_stream(self, seat: int, events: list[dict]) -> None:
        r = self.c.get(f"/v1/games/{self.gid}/stream?after=-1&wait=0", self.token(seat))
        streamed = [json.loads(line[6:]) for line in r.get_data(as_text=True).splitlines() if line.startswith("data: ")]
        assert streamed == events
        for e in streamed:
            self.keep("GET stream", seat, e["seq"], e, "event")

    def read_record(self, seat: int) -> None:
        """Each line of the record is about the seq of the move or deal it is under (the header: seq 0)."""
        text = self.c.get(f"/v1/games/{self.gid}/record", self.token(seat)).get_data(as_text=True)
        seq = 0
        for line in text.splitlines():
            if m := (re.match(r"^\s*(\d+)\s", line) or re.search(r"\(seq (\d+)\)", line)
                     or re.match(r"^# event (\d+):", line)):
                seq = int(m.group(1))
            self.keep("GET record", seat, seq, line, "line")

    def check(self, events: list[dict]) -> None:
        """Every answer kept, against what its seat could know at its seq."""
        assert sorted(self.states) == [e["seq"] for e in events], "the table saw a state at every seq"
        oracle = Oracle(events, self.states)
        for what, seat, seq, answer, form in self.answers:
            # table mode: a seat's legal moves name the unseen cards it may hold (below: what they leave out)
            if not (self.table_mode and form == "legal"):
                unknown = oracle.unknown(answer, seat, seq, state=form in ("view", "answer", "legal"))
                assert not unknown, (f"{what}: seat {seat} reads, about seq {seq}, cards it could not know: "
                                     f"{'; '.join(unknown)}\n{json.dumps(answer, ensure_ascii=False)[:1500]}")
            if form in ("view", "answer"):
                counts_only_in_state(answer if form == "view" else answer["state"], seat)
            elif form == "event":
                counts_only_in_event(answer, seat)


def walk(client: Client, preset: str, seats: int, rules: dict, seed: int, table: bool = False) -> Walk:
    """Play one game, have every seat read it, check every answer."""
    game = Walk(client, preset, seats, rules, seed, table)
    game.play()
    game.read_everything(max(game.states))
    game.events = client.get(f"/v1/games/{game.gid}/events", game.table).json["events"]
    game.check(game.events)
    return game


def fired(events: list[dict]) -> dict[str, int]:
    """How often the log moved cards between seats, by rule, and its events with several gives."""
    out = {"several_gives": sum(1 for e in events if several_gives(e))}
    for e in events:
        for item in e.get("outcome", []):
            if item.get("kind") in ("give", "discard", "take") and item.get("rule"):
                out[item["rule"]] = out.get(item["rule"], 0) + 1
    return out


@pytest.mark.parametrize("preset,seats,rules,seed", GAMES, ids=[g[0] for g in GAMES])
def test_no_seat_reads_a_card_it_could_not_know(client, preset, seats, rules, seed):
    events = walk(client, preset, seats, rules, seed).events
    counts = fired(events)
    assert sum(1 for e in events if e["type"] == "deal_started") == DEALS - 1
    # the walk saw what it is for (else pick another seed): a seat's give and another seat's in one event, and
    # every switch that moves cards between seats
    assert counts["several_gives"] >= 1, counts
    assert counts.get("exchange", 0) + counts.get("exchange_request", 0) >= 2 * (DEALS - 1) * (seats // 2), counts
    assert counts.get("bloody_mary", 0) and counts.get("resurrection", 0) and counts.get("seven_pass", 0), counts


def test_table_mode_hides_what_the_table_entered(client):
    """Table mode: the cards entered for a give stay with its two seats; discards (capital fall's too) are public."""
    game = walk(client, "nanko", 4, {"capital_fall": True}, 11, table=True)
    counts = fired(game.events)
    assert counts.get("seven_pass", 0) and counts.get("exchange", 0) and counts.get("bloody_mary", 0), counts
    assert any(st["hidden_discards"] for st in game.states.values()), "no capital fall discarded unseen cards"


def test_table_mode_legal_moves_do_not_tell_a_give_between_other_seats(client):
    def listed_after_giving(card: str) -> set[str]:
        g = client.create(preset="nanko", players=4, seed=None, table=True, leader=0)
        for move in ({"seat": 0, "action": "play", "cards": ["S7"]}, {"seat": 0, "action": "give", "cards": [card]},
                     {"seat": 1, "action": "pass"}):
            assert client.post(f"/v1/games/{g['game_id']}/moves", move, g["table_token"]).status_code == 200
        legal = client.legal(g["game_id"], g["seat_tokens"][2], 2)
        return {c for m in legal["moves"] for c in m.get("cards", [])}

    # seat 2 sees neither give (seat 0's 7渡し to seat 1): its legal moves must not tell which card it was
    assert listed_after_giving("C2") == listed_after_giving("D2")


def test_table_mode_what_ifs_do_not_tell_a_give_between_other_seats(client):
    def judged_after_giving(card: str) -> tuple:
        g = client.create(preset="nanko", players=4, seed=None, table=True, leader=0)
        for move in ({"seat": 0, "action": "play", "cards": ["S7"]}, {"seat": 0, "action": "give", "cards": [card]},
                     {"seat": 1, "action": "pass"}):
            assert client.post(f"/v1/games/{g['game_id']}/moves", move, g["table_token"]).status_code == 200
        answers = []
        for probe in ("C2", "D2"):
            r = client.post(f"/v1/games/{g['game_id']}/judge", {"seat": 2, "action": "play", "cards": [probe]},
                            g["seat_tokens"][2])
            answers.append((r.status_code, r.json["verdict"]["legal"], r.json["verdict"]["reason"]))
        return tuple(answers)

    # a what-if by seat 2 of playing the card given between seats 0 and 1 reads as any other unseen card's
    assert judged_after_giving("C2") == judged_after_giving("D2") == ((200, True, None), (200, True, None))


def test_table_mode_a_giver_still_knows_where_its_card_went(client):
    g = client.create(preset="nanko", players=4, seed=None, table=True, leader=0)
    for move in ({"seat": 0, "action": "play", "cards": ["S7"]}, {"seat": 0, "action": "give", "cards": ["C2"]},
                 {"seat": 1, "action": "pass"}, {"seat": 2, "action": "pass"}, {"seat": 3, "action": "pass"}):
        assert client.post(f"/v1/games/{g['game_id']}/moves", move, g["table_token"]).status_code == 200
    legal = client.legal(g["game_id"], g["seat_tokens"][0], 0)
    assert "C2" not in {c for m in legal["moves"] for c in m.get("cards", [])}
    # the table knows it too, whichever seat it asks for
    legal = client.legal(g["game_id"], g["table_token"], 2)
    assert "C2" not in {c for m in legal["moves"] for c in m.get("cards", [])}


def test_the_oracle_flags_a_give_between_two_other_seats():
    """The oracle is strict enough: an event showing seat 3 the cards seat 0 gave seat 1 fails it."""
    states = {0: {"players": [{"hand": ["H2", "JK1", "S3"]}, {"hand": ["D4"]}, {"hand": ["C5"]}, {"hand": ["S6"]}],
                  "field": None, "discard_pile": []}}
    states[1] = {**states[0], "players": [{"hand": ["S3"]}, {"hand": ["D4", "H2", "JK1"]}, {"hand": ["C5"]},
                                          {"hand": ["S6"]}]}
    give = {"kind": "give", "from": 0, "to": 1, "cards": ["H2", "JK1"], "rule": "exchange"}
    oracle = Oracle([{"seq": 0, "type": "game_created"}, {"seq": 1, "type": "move", "outcome": [give]}], states)
    seen = {"move": {"seat": 0, "action": "give", "cards": ["H2", "JK1"]},
            "verdict": {"message": "seat 0 gives H2 JK1"}}
    assert len(oracle.unknown(seen, 3, 1, state=False)) == 4
    assert not oracle.unknown(seen, 1, 1, state=False) and not oracle.unknown(seen, 0, 1, state=False)
