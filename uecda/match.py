"""A UECda match under our referee: seating, deals, exchange, turns, results (UECDA.md §5-7).

Every deal is a deal of one stored game (service.games.GameService, the code behind the HTTP API), with the
engine's ``exchange`` rule off: the contest's exchange is done here, on the protocol (the lower players' strongest
cards are taken, the upper ones answer with a TABLE), and the dealt hands after it are the deal's hands. Engine
seats are table positions; the player at each seat changes every 3 games, which the match log records.
"""
from __future__ import annotations

import dataclasses
import json
import logging
import random
import secrets
import sys
import time
from dataclasses import dataclass, field

from referee import InputError
from referee.cards import cards_of, deck, parse_many
from referee.scoring import uecda_points

from . import protocol, status, tables
from .conn import Fault
from .players import card_list, strongest

log = logging.getLogger("uecda.server")
P = protocol.PLAYERS
RULES = {"exchange": False}       # done on the protocol, see above
SEAT_CHANGE_EVERY = 3


@dataclass
class Config:
    games: int = 1000
    seed: int | None = None
    reset_every: int = 100        # FLASH_MIBUN_NUMBER: class resets at games 1, 1+N, ...
    time_limit_ms: int = 0        # per decision; 0 = wait for ever, as the reference server does
    out: object = None            # where results are printed (default stdout)


@dataclass
class Tally:
    points: list = field(default_factory=lambda: [0] * P)
    classes: list = field(default_factory=lambda: [[0] * P for _ in range(P)])  # [player][class] counts
    faults: list = field(default_factory=list)
    rejected: int = 0
    aborted: int = 0


class MatchLog:
    """The match's own entries (seating, exchange, results, faults), stored next to the game's log."""

    def __init__(self, store, gid: str):
        self.r, self.key = store.r, store.key(gid, "match")

    def add(self, entry: dict) -> None:
        self.r.rpush(self.key, json.dumps(entry))

    @staticmethod
    def read(store, gid: str) -> list[dict]:
        return [json.loads(x) for x in store.r.lrange(store.key(gid, "match"), 0, -1)]


def draw_seed() -> int:
    """A match's seed when the operator gives none: the deals come from it by public code, so it must be too many
    to try (a client that sees its own hand could otherwise find the seed and every other hand)."""
    return secrets.randbits(63)


class Match:
    def __init__(self, service, players: list, config: Config):
        self.service, self.players, self.cfg = service, players, config
        self.seed = config.seed if config.seed is not None else draw_seed()
        self.rng = random.Random(f"uecda:{self.seed}")
        self.tally = Tally()
        self.gid = self.token = None
        self.mlog = None
        self.seating = tuple(range(P))
        self.classes = [0] * P      # by player, from the previous game
        self.out = config.out or sys.stdout
        self.timeout = config.time_limit_ms / 1000 if config.time_limit_ms else None
        self.game = 0
        self.view = None            # the table's state JSON as the service returned it

    # --- helpers ----------------------------------------------------------------
    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def seat_of(self, player: int) -> int:
        return self.seating.index(player)

    def hand(self, player: int) -> int:
        return parse_many(self.view["players"][self.seat_of(player)]["hand"])

    def broadcast(self, buf: bytes) -> None:
        for p in self.players:
            p.send(buf)

    def fault(self, player: int, what: str, reason: str) -> None:
        entry = {"type": "fault", "game": self.game, "player": player, "name": self.players[player].name,
                 "during": what, "reason": reason}
        self.tally.faults.append(entry)
        log.warning("game %d: player %d (%s): %s played as %s: %s", self.game, player, self.players[player].name,
                    what, "a pass" if what == "turn" else "the strongest cards", reason)
        if self.mlog is not None:
            self.mlog.add(entry)

    # --- the match --------------------------------------------------------------
    def run(self) -> dict:
        started = time.monotonic()
        for g in range(1, self.cfg.games + 1):
            self.game = g
            self.play_game(g)
        seconds = time.monotonic() - started
        summary = self.summary(seconds)
        if self.mlog is not None:
            self.mlog.add({"type": "match", **summary})
        return summary

    def summary(self, seconds: float) -> dict:
        t = self.tally
        return {"game_id": self.gid, "games": self.game, "seed": self.seed,
                "players": [{"player": i, "name": p.name, "points": t.points[i], "classes": t.classes[i]}
                            for i, p in enumerate(self.players)],
                "faults": len(t.faults), "rejected_plays": t.rejected, "aborted_games": t.aborted,
                "seconds": round(seconds, 2), "games_per_minute": round(self.game / seconds * 60, 1) if seconds else None}

    def deal(self, start_player: int) -> list[int]:
        """The reference server's deal: one card at a time in seat order from the starting player's seat."""
        cards = cards_of(deck(1))
        self.rng.shuffle(cards)
        hands = [0] * P
        s = self.seat_of(start_player)
        for i, c in enumerate(cards):
            hands[self.seating[(s + i) % P]] |= 1 << c
        return hands

    def play_game(self, g: int) -> None:
        if (g - 1) % SEAT_CHANGE_EVERY == 0:
            seats = list(range(P))
            self.rng.shuffle(seats)
            self.seating = tuple(seats)
        reset = (g - 1) % self.cfg.reset_every == 0
        by_class = {c: p for p, c in enumerate(self.classes)}
        start = self.rng.randrange(P) if reset else by_class[0]
        hands = self.deal(start)
        counts = tuple(h.bit_count() for h in hands)
        shown = [0] * P if reset else list(self.classes)
        base = status.Status(counts=counts, classes=tuple(shown), seating=self.seating, exchange=True)
        exchange = []
        if reset:
            for p in range(P):
                self.players[p].send(protocol.pack_table(status.apply(tables.hand_table(hands[p]), base)))
        else:
            exchange = self.exchange(hands, by_class, base)
        self.start_deal(g, hands, reset, exchange)
        self.turns(g)

    def exchange(self, hands: list[int], by_class: dict, base: status.Status) -> list[dict]:
        before = list(hands)
        moves = []
        for low, high, n in ((by_class[4], by_class[0], 2), (by_class[3], by_class[1], 1)):
            taken = strongest(hands[low], n)
            hands[low] &= ~taken
            hands[high] |= taken
            moves.append({"from": low, "to": high, "cards": card_list(taken), "auto": True})
        for cls in range(P):    # every deal table first, then the answers (daifugo, then fugo)
            p = by_class[cls]
            give = (2, 1, 0, 0, 0)[cls]
            shown = hands[p] if cls < 3 else before[p]
            buf = protocol.pack_table(status.apply(tables.hand_table(shown), dataclasses.replace(base, give=give)))
            if give and self.players[p].remote:
                self.players[p].question(buf)
            else:
                self.players[p].send(buf)
        for high, low, n in ((by_class[0], by_class[4], 2), (by_class[1], by_class[3], 1)):
            chosen, why = self.give_back(high, hands[high], n)
            if why:
                self.fault(high, "exchange", why)
                chosen = strongest(hands[high], n)
            hands[high] &= ~chosen
            hands[low] |= chosen
            moves.append({"from": high, "to": low, "cards": card_list(chosen), "auto": bool(why)})
        return moves

    def give_back(self, player: int, hand: int, n: int) -> tuple[int, str | None]:
        p = self.players[player]
        if not p.remote:
            return p.give_back(hand, n), None
        try:
            t = p.answer(self.timeout)
        except Fault as f:
            return 0, f.reason
        want = tables.hand_table(hand)
        got = tables.cells(t)
        if any(v != want[r][c] for r, c, v in got):
            return 0, "the exchange table holds cards not in the hand"
        if len(got) != n:
            return 0, f"the exchange table holds {len(got)} cards, not {n}"
        return tables.hand_of(t), None

    def start_deal(self, g: int, hands: list[int], reset: bool, exchange: list[dict]) -> None:
        by_seat = [card_list(hands[self.seating[s]]) for s in range(P)]
        if self.gid is None:
            names = [f"seat{s}" for s in range(P)]
            created = self.service.create("uecda", [{"name": n} for n in names], rules=RULES, seed=self.seed,
                                          hands=by_seat)
            self.gid, self.token, self.view = created["game_id"], created["table_token"], created["state"]
            self.mlog = MatchLog(self.service.store, self.gid)
            self.mlog.add({"type": "match_start", "seed": self.seed,
                           "players": [{"player": i, "name": p.name, "remote": p.remote}
                                       for i, p in enumerate(self.players)]})
            self.say(f"uecda: game {self.gid} table token {self.token}")
        else:
            self.view = self.service.next_deal(self.gid, "table", hands=by_seat)["state"]
        self.mlog.add({"type": "game_start", "game": g, "deal": self.view["deal"], "seating": list(self.seating),
                       "classes": None if reset else list(self.classes), "reset": reset, "exchange": exchange})

    # --- turns ------------------------------------------------------------------
    def current(self, mover: int | None, empty: bool, lock: bool) -> status.Status:
        counts = [0] * P
        for s, pl in enumerate(self.view["players"]):
            counts[self.seating[s]] = pl["hand_count"]
        shown = [0] * P if (self.game - 1) % self.cfg.reset_every == 0 else list(self.classes)
        return status.Status(counts=tuple(counts), classes=tuple(shown), seating=self.seating,
                             mover=status.NOBODY if mover is None else mover, empty_field=empty,
                             revolution=self.view["revolution"], lock=lock)

    def turns(self, g: int) -> None:
        field_rows = protocol.empty()
        while self.view["phase"] != "deal_over":
            seat = self.view["turn"]
            mover = self.seating[seat]
            empty = self.view["field"] is None
            lock = bool(self.view["locks"]["suits"])
            st = self.current(mover, empty, lock)
            for p in range(P):
                if p != mover:
                    self.players[p].send(protocol.pack_table(status.apply(tables.hand_table(self.hand(p)), st)))
            buf = protocol.pack_table(status.apply(tables.hand_table(self.hand(mover)), st, my_turn=True))
            accepted, rows, effects = self.one_turn(mover, seat, buf)
            if accepted is not None and rows is not None:
                field_rows = rows
            reply = protocol.ACCEPTED if accepted or (accepted is None and empty) else protocol.REJECTED
            self.players[mover].send(protocol.pack_int(reply))
            # the field table shows the state right after the move, before any flush (UECDA.md §5 d, §9 T39)
            if accepted:
                after_lock = "suit_lock" in effects or (lock and not empty and "joker_alone" not in effects)
                shown_empty = False
            else:
                after_lock, shown_empty = lock, empty
            ft = status.apply([list(r) for r in field_rows[:5]] + protocol.empty()[5:],
                              self.current(mover, shown_empty, after_lock))
            self.broadcast(protocol.pack_table(ft))
            flushed = self.view["field"] is None
            if flushed:
                field_rows = protocol.empty()
            over = self.view["phase"] == "deal_over"
            flag = protocol.GO_ON if not over else protocol.MATCH_OVER if g == self.cfg.games else protocol.GAME_OVER
            self.broadcast(protocol.pack_int(flag))
        self.finish_game(g)

    def one_turn(self, mover: int, seat: int, buf: bytes):
        """(True: play accepted | False: rejected or pass on a field | None: pass, field rows, effects)."""
        p = self.players[mover]
        if not p.remote:
            try:
                move = p.play(self.view, seat)
            except Exception as exc:  # noqa: BLE001 - a bot's bug must not end the match
                log.exception("bot %s failed", p.name)
                self.fault(mover, "turn", f"bot error: {exc!r}")
                self.pass_turn(seat)
                return False, None, ()
            table = None
        else:
            try:
                table = p.ask(buf, self.timeout)
            except Fault as f:
                self.fault(mover, "turn", f.reason)
                self.pass_turn(seat)
                return False, None, ()
            try:
                move = tables.move_of(table, seat)
            except tables.BadTable as exc:
                self.fault(mover, "turn", f"unreadable play table: {exc}")
                self.pass_turn(seat)
                return False, None, ()
        if move["action"] == "pass":
            self.pass_turn(seat)
            return None, None, ()
        try:
            code, body = self.service.propose(self.gid, move, "table")
        except InputError as exc:   # a move the engine cannot even read: rejected like any bad play
            code, body = 422, {"verdict": {"message": exc.message}}
        if code != 200:
            self.tally.rejected += 1
            log.info("game %d: player %d (%s) rejected: %s", self.game, mover, p.name, body["verdict"]["message"])
            self.pass_turn(seat)   # one try per turn: a rejected play is a pass
            return False, None, ()
        self.view = body["state"]
        effects = tuple(body["verdict"]["effects"])
        if len(move["cards"]) == 1 and move["cards"][0].startswith("JK"):
            effects += ("joker_alone",)
        if table is None:
            table = tables.play_table(move["cards"], body["verdict"]["reading"], self.view["revolution"])
        return True, table, effects

    def pass_turn(self, seat: int) -> None:
        code, body = self.service.propose(self.gid, {"seat": seat, "action": "pass"}, "table")
        if code != 200:
            raise RuntimeError(f"the engine refused a pass: {body['verdict']}")
        self.view = body["state"]

    def finish_game(self, g: int) -> None:
        places = [0] * P
        for s, pl in enumerate(self.view["players"]):
            places[self.seating[s]] = pl["place"]
        aborted = self.view.get("ended_by") == "pass_abort"
        self.tally.aborted += aborted
        self.classes = [pl - 1 for pl in places]
        points = [uecda_points(c + 1, P) for c in self.classes]  # class 0..4 is place 1..5
        for p in range(P):
            self.tally.points[p] += points[p]
            self.tally.classes[p][self.classes[p]] += 1
        entry = {"type": "game_result", "game": g, "classes": self.classes, "points": points,
                 "totals": list(self.tally.points), "aborted": aborted, "seq": self.view["seq"]}
        self.mlog.add(entry)
        self.say(f"game {g}: classes {' '.join(map(str, self.classes))}  points {' '.join(map(str, points))}  "
                 f"totals {' '.join(map(str, self.tally.points))}" + ("  (aborted: 20 passes)" if aborted else ""))
