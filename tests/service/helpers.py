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
    """Cards held by other seats that appear in what ``viewer`` was shown (also inside messages).

    Only what one state tells; ``Knowledge`` below has the precise notion over a whole game.
    """
    hidden = {c for i, h in enumerate(hands(table_state)) if i != viewer for c in h}
    return (cards_in(seen) & hidden) - seen_in_public(table_state)


CARD_WORD = re.compile(r"(?<![A-Za-z0-9])(?:[SHDC][3-9TJQKA2]|JK[12])(?![A-Za-z0-9])")


STAND_IN = re.compile(r'(JK[12])"?\s*(?::|\bas\b)\s*"?[SHDC][3-9TJQKA2]')


def cards_in(obj) -> set[str]:
    """Every card code in ``obj``: whole strings and card words inside longer ones (messages, record text).

    The card a joker stands for ({"JK1": "D9"}, "JK1 as D9") names a rank and suit, not a card anyone holds.
    """
    if isinstance(obj, dict):
        return {c for k, v in obj.items() if not (CARD_WORD.fullmatch(str(k)) and str(k).startswith("JK"))
                for c in cards_in(k) | cards_in(v)} | {k for k in obj if CARD_WORD.fullmatch(str(k))}
    if isinstance(obj, list):
        return {c for v in obj for c in cards_in(v)}
    if isinstance(obj, str):
        return set(CARD_WORD.findall(STAND_IN.sub(r"\1", obj)))
    return set()


def seen_in_public(table_state: dict) -> set[str]:
    """Cards every seat sees in a state: the field, the discard pile, … (not the hands, not out_of_play)."""
    bare = dict(table_state, players=[dict(p, hand=None) for p in table_state["players"]], out_of_play=None)
    return cards_in(bare)


class Knowledge:
    """What each seat *could have seen* up to each seq, from the table's states at every seq.

    A seat could have seen: every card it held at some point (dealt, received in an exchange, a 7-pass or a
    request; a card it gave away it held before), and every card that was public at some point (played to the
    field, in the discard pile: Bloody Mary's and a fallen capital's discards, …). Hidden from it at seq u: the
    cards in other seats' hands at u-1 or u (an event describes the step between them) that it could not have
    seen by u.
    """

    def __init__(self, seats: int):
        self.known = [set() for _ in range(seats)]
        self.hidden: dict[int, list[set[str]]] = {}
        self._before: list[list[str]] | None = None

    def observe(self, seq: int, table_state: dict) -> None:
        if seq in self.hidden:
            return  # seen already: keep the cards of seq - 1 in its hidden set
        held, public = hands(table_state), seen_in_public(table_state)
        before = self._before or held
        for s, known in enumerate(self.known):
            known |= set(held[s]) | public
        self.hidden[seq] = [{c for i in range(len(held)) if i != s for c in (*held[i], *before[i])} - known
                            for s, known in enumerate(self.known)]
        self._before = held

    def leaks(self, seen, seq: int, seat: int) -> set[str]:
        return cards_in(seen) & self.hidden[seq][seat]


def play_random_game(client: Client, game: dict, rng: random.Random, max_moves: int = 2000,
                     on_move=None, movers: dict | None = None) -> int:
    """Drive every seat with random legal moves (the table token; ``movers``: seat -> the token that moves there,
    a registered bot's token at its seat) until the deal is over."""
    gid, table = game["game_id"], game["table_token"]
    for _ in range(max_moves):
        probe = client.legal(gid, table, 0)
        if not probe["actors"]:
            return probe["seq"]
        seat = rng.choice(probe["actors"])
        moves = client.legal(gid, table, seat)["moves"]
        assert moves, f"seat {seat} must act but has no legal move"
        move = dict(instantiate(rng.choice(moves), rng), expected_seq=probe["seq"])
        r = client.post(f"/v1/games/{gid}/moves", move, (movers or {}).get(seat, table))
        assert r.status_code == 200, (move, r.json)
        if on_move:
            on_move(r.json)
    raise AssertionError("the deal did not end")
