"""Game operations shared by the HTTP blueprints and the bot workers.

Every request reads the latest snapshot (O(1)), asks the engine, and writes back
through the store's conditional append; the only state a process keeps is a cache of
the snapshots it wrote, which the conditional append makes safe to be stale.
"""
from __future__ import annotations

import logging
import secrets
import time
from dataclasses import dataclass, replace

import referee as engine
from referee.cards import parse_many
from referee.moves import parse_move
from referee.record import import_record

from . import logs, metrics, seeds
from .audit import clip_move, clip_verdict
from .bot_accounts import BotAccounts, remote_name
from .bot_games import BotGames
from .bot_turns import challenge_view, game_botcfg, miss_change, plan, time_left_ms, worker_bot
from .deadlines import Deadlines
from .encoded import EncodedJSON
from .backpressure import BotGate
from .errors import ApiError, Conflict, Forbidden, NotFound, Unauthorized
from .hooks import ServiceHooks
from .idempotency import IdempotencyKey, check_same_request
from .names import name_problem
from .ratings import Ratings
from .scheduler import BOT_STRATEGIES
from .settings import Settings
from .snapshots import SnapshotCache
from .store import GameRecord, GameStore, Written
from .tokens import digest, matching, new_token
from .whatif import hidden_outcome, sealed_verdict

log = logging.getLogger(__name__)
TABLE = "table"  # viewer marker for the table token (engine viewer None)
MAX_RETRIES = 20
MAX_RECORD_CHARS = 1_000_000
MAX_NAME_CHARS = 40
MAX_DEALS = 10_000  # a match's length, when a game sets one
DEFAULT_SETTINGS = Settings(redis_url=None, data_dir="", key_prefix="", queue_name="")


@dataclass
class Applied:
    """A legal move's write: the store's answer, and what the steps after it need."""
    written: Written
    owed: dict                # the bot turn it leaves owed (service/bot_turns.py plan)
    encoded: EncodedJSON      # the new state, encoded once for the store and the table's answer
    miss: tuple | None        # the change to the mover's count of fallbacks in a row


def viewer_arg(viewer):
    return None if viewer == TABLE else viewer


class GameService:
    def __init__(self, store: GameStore, scheduler=None, max_name_chars: int = MAX_NAME_CHARS,
                 max_record_chars: int = MAX_RECORD_CHARS, hooks: ServiceHooks | None = None,
                 bots_busy_wait_s: float = 0.0, settings: Settings | None = None):
        self.store = store
        self.scheduler = scheduler  # service.scheduler.BotScheduler or None
        self.max_name_chars, self.max_record_chars = max_name_chars, max_record_chars
        self.hooks = hooks or ServiceHooks()  # service/hooks.py: the fault tests' pause points
        self.snapshots = SnapshotCache()
        self.settings = settings or DEFAULT_SETTINGS  # the registered bots' budget defaults and cap
        self.accounts = BotAccounts(store.r, store.prefix, self.settings.bot_idle_ttl_s, self.settings.game_ttl_s)
        self.ratings = Ratings(store.r, store.prefix, self.accounts._account)
        self.bots = BotGames(self)  # service/bot_games.py: challenges, resignations, lifecycle events, ratings
        self.deadlines = Deadlines(store.r, store.prefix)
        self.bot_gate = None
        if scheduler is not None and bots_busy_wait_s > 0:
            self.bot_gate = BotGate(scheduler, self._worker_strategies, bots_busy_wait_s,
                                    self.settings.mc_turn_budget_ms, self.settings.bot_workers_started)

    def _worker_strategies(self, gids: list[str]) -> dict[str, list[str]]:
        return {gid: [b for b in bots if b and worker_bot(b)] for gid, bots in self.store.bots_of(gids).items()}

    def botcfg(self, rec: GameRecord) -> dict:
        """The game's registered-bot settings; a game stored before they existed gets the server's defaults."""
        return rec.botcfg or game_botcfg(self.settings)

    def _read(self, gid: str, digest: str | None = None) -> GameRecord | None:
        rec = self.store.load(gid, digest) if _valid_id(gid) else None
        if rec is not None and rec.botcfg is None:
            rec.botcfg = self.botcfg(rec)
        return rec

    def check_names(self, names, code: str) -> None:
        for seat, name in enumerate(names):
            problem = name_problem(name, self.max_name_chars)
            if problem:
                raise ApiError(f"seat {seat}: {problem}", code=code)

    # --- reading and access -------------------------------------------------
    def load(self, gid: str, idempotency_digest: str | None = None) -> GameRecord:
        """The game's snapshot in one round trip (with the answer stored under ``idempotency_digest``, if any)."""
        rec = self._read(gid, idempotency_digest)
        if rec is None:
            raise NotFound(f"no game {gid!r}", code="unknown_game")
        return rec

    def snapshot(self, gid: str) -> GameRecord:
        """For the move path: this process's cached snapshot of the game, else a fresh read (then cached)."""
        rec = self.snapshots.get(gid)
        if rec is None:
            rec = self.load(gid)
            self.snapshots.put(rec, None)
        return rec

    def viewer(self, rec: GameRecord, token: str | None):
        """TABLE for the table token, the seat number for a seat token."""
        if not token:
            raise Unauthorized("missing bearer token (Authorization: Bearer <token>)", code="missing_token")
        found = matching(token, [rec.table_hash, *rec.seat_hashes])
        if found is not None:
            return TABLE if found == 0 else found - 1
        seat = self._bot_seat(rec, token)
        if seat is not None:
            return seat
        raise Unauthorized("this token is not valid for this game", code="invalid_token")

    def _bot_seat(self, rec: GameRecord, token: str) -> int | None:
        """The seat a registered bot's token holds in this game (a bot token sees only its own seats)."""
        if not any(remote_name(b) for b in rec.bots):
            return None
        name = self.accounts.name_of(token)
        if name is None:
            return None
        return next((s for s, b in enumerate(rec.bots) if remote_name(b) == name), None)

    @staticmethod
    def require_seat(viewer, seat) -> None:
        if viewer != TABLE and viewer != seat:
            raise Forbidden(f"a seat token for seat {viewer} may not act for seat {seat}", code="wrong_seat")

    @staticmethod
    def view(state, viewer) -> dict:
        return engine.state_to_json(state, viewer=viewer_arg(viewer))

    @staticmethod
    def state_of(rec: GameRecord):
        return rec.parsed if rec.parsed is not None else engine.state_from_json(rec.state)

    # --- creating -----------------------------------------------------------
    def create(self, preset: str, players: list[dict], rules=None, seed=None, hands=None, table=False,
               leader=None, bot_budget_ms=None, bot_away_after=None, bot_fallback=None, deals=None) -> dict:
        """A new game. Registered bots (``"@name"``) are challenged first (service/challenges.py): a decline by a
        standing policy is a 409 and no game; a challenge left to a bot leaves the game pending."""
        self.check_names([p.get("name") for p in players], "bad_name")
        botcfg = game_botcfg(self.settings, bot_budget_ms, bot_away_after, bot_fallback)
        if deals is not None and not 1 <= deals <= MAX_DEALS:
            raise ApiError(f"deals must be 1 to {MAX_DEALS} (the match's length), or null", code="bad_deals")
        bots = [p.get("bot") for p in players]
        unknown = sorted({b for b in bots if b is not None and b not in BOT_STRATEGIES and not remote_name(b)})
        if unknown:
            raise ApiError(f"unknown bot strategy {unknown[0]!r}; known: {', '.join(BOT_STRATEGIES)}, or "
                           "'@name' for a registered bot", code="unknown_bot")
        names = [name for name in map(remote_name, bots) if name]
        self._check_registered(names)
        answers = self.bots.challenge(names, preset, len(players), botcfg["budget_ms"]) if names else {}
        if self.bot_gate is not None and any(worker_bot(b) for b in bots):
            self.bot_gate.check([b for b in bots if worker_bot(b)])
        state, events = engine.new_game(preset, rules=rules,
                                    players=[p["name"] for p in players], hands=hands, table=table,
                                    seed=seeds.engine_seed(self.settings, seed),  # keyed: seeds reveal no deck
                                    leader=leader)
        return self._store_new(state, events, bots, botcfg=botcfg, answers=answers, deals=deals)

    def _check_registered(self, names: list[str]) -> None:
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ApiError(f"the bot @{twice[0]} may hold one seat of a game, not {names.count(twice[0])}",
                           code="bot_seated_twice")
        for name in names:
            if not self.accounts.exists(name):
                raise ApiError(f"no registered bot @{name} (POST /v1/bots registers one)", code="unknown_bot")
            if self.accounts.revoked(name):
                raise ApiError(f"the bot @{name}'s token was revoked: it plays no more", code="bot_revoked")

    def create_from_record(self, text) -> dict:
        """A game whose log is a replayed record (docs/record.md); every seat is human."""
        if not isinstance(text, str):
            raise ApiError("'record' must be the text of a game record (docs/record.md)", code="bad_record")
        if len(text) > self.max_record_chars:
            raise ApiError(f"the record is longer than {self.max_record_chars} characters", code="bad_record")
        try:
            events = import_record(text)
            self.check_names(events[0]["players"], "bad_record")
            # the replay snapshots a game played move by move would hold: GET …/replay folds few events here too
            wanted = self.store.snapshot_seqs([ev["seq"] for ev in events])
            snapshots: list = []

            def keep(st):
                if st.seq in wanted:
                    snapshots.append((st.seq, engine.state_to_json(st)))
            state = engine.replay(events, each=keep)
        except engine.InputError as exc:
            raise ApiError(exc.message, code="bad_record") from None
        return self._store_new(state, events, [None] * len(state.players), snapshots)

    def _store_new(self, state, events, bots, snapshots=(), botcfg=None, answers=None, deals=None) -> dict:
        """Store a new game. A registered bot's seat gets no seat token (null): only its bot's token moves there."""
        gid = secrets.token_hex(12)
        table = new_token("tbl")
        seats = [None if remote_name(b) else new_token("seat") for b in bots]
        state_json = engine.state_to_json(state)
        botcfg = botcfg or game_botcfg(self.settings)
        challenge = self.bots.stored_challenge(answers or {})
        owed, over = plan(state, bots, botcfg)
        if challenge and challenge[0] == "pending":
            owed = {"worker": False, "remote": []}  # nobody moves before every challenged bot accepted
        if any(bots):
            self.store.register_bot_game(gid)  # indexed before the game's keys exist: no owed turn escapes the reaper
        for name in filter(None, map(remote_name, bots)):
            self.accounts.seat(name, gid)  # before the game exists, so a stream never misses it
        table_hash, seat_hashes = digest(table), [digest(t) if t else "" for t in seats]
        seq, deadline = self.store.create(gid, state_json, events, table_hash, seat_hashes, bots, plan=owed,
                                          over=over, snapshots=snapshots, botcfg=botcfg, challenge=challenge,
                                          deals=deals)
        # the first move then needs no read (and no parse) when this process answers it
        rec = GameRecord(gid, seq, state_json, table_hash, seat_hashes, bots, owed=seq if _owes(owed) else None,
                         deadline=deadline, botcfg=botcfg, misses=(0,) * len(bots),
                         challenge=challenge[0] if challenge else None, chal=challenge[1] if challenge else None,
                         deals=deals)
        self.snapshots.put(rec, state)
        self._enqueue(gid, seq, owed)
        self._arm(gid, deadline)
        if challenge is not None:
            self.bots.announce(rec)
        if _owes(owed):
            self._wake(gid, seq, state, bots)
        return {"game_id": gid, "table_token": table, "seat_tokens": seats, "seq": seq, "state": state_json,
                **({"challenge": challenge_view(rec)} if challenge else {})}

    # --- proposing ----------------------------------------------------------
    def propose(self, gid: str, move: dict, viewer, expected_seq: int | None = None, rec: GameRecord | None = None,
                idempotency: IdempotencyKey | None = None, fallback: str | None = None) -> tuple[int, dict]:
        """Judge and, if legal, apply ``move``. Returns (http status, body).

        ``rec`` is the snapshot the caller checked the token on (read, or this process's cache): the move then
        costs one script call; if the snapshot was stale the script refuses it and returns the current one, so
        a stale cache costs one more script call, never an extra read. With ``idempotency`` the answer is stored
        by the same script, and a retry with the same key, token and request gets it back (the body then carries
        ``replayed: True``). ``fallback`` (``timeout`` or ``away``): the move is the fallback's for a registered
        bot seat that did not answer in time; its event says so.
        """
        self.require_seat(viewer, move.get("seat"))
        key = idempotency.digest if idempotency else None
        for _ in range(MAX_RETRIES):
            if rec is None:
                rec = self.load(gid, key)
            if idempotency and rec.idem is not None:
                return self._replay_answer(gid, rec, rec.idem, idempotency, viewer)
            if rec.challenge not in (None, "accepted") and rec.cached:
                rec = None  # maybe started since this process cached it: read again before refusing
                continue
            self._check_mover(rec, viewer, move.get("seat"), fallback)
            if expected_seq is not None and expected_seq != rec.seq:
                if rec.cached or (key and rec.idem_digest != key):
                    rec = None  # maybe stale, or a retry whose first answer is stored: read and look again
                    continue
                raise Conflict(f"expected_seq {expected_seq} is stale: the game is at seq {rec.seq}",
                               code="stale_seq")
            state = self.state_of(rec)
            verdict, new_state, events = engine.apply(state, move)
            judged = verdict.to_json()
            if verdict.legal:
                applied = self._write_applied(rec, move, new_state, events, idempotency, judged, fallback)
                w = applied.written
                if w.status == "ok":
                    return 200, self._after_applied(rec, applied, new_state, viewer, judged)
            else:
                w = self._write_rejected(rec, move, viewer, judged, idempotency)
                if w.status == "ok":
                    metrics.verdict(judged.get("reason"))
                    return 422, {"verdict": judged, "seq": rec.seq, "state": self.view(state, viewer)}
            self.snapshots.drop(gid)
            if w.status == "replayed" and idempotency:  # a concurrent request with the same key got there first
                return self._replay_answer(gid, None, w.prior or {}, idempotency, viewer)
            self._after_conflict(gid, w, expected_seq)
            # the game moved on while we judged: judge again on the snapshot the script returned (it found no
            # answer under this key either); tokens and bots never change
            rec = replace(rec, seq=w.seq, state=w.state or {}, parsed=None, cached=False, idem=None, idem_digest=key)
        raise Conflict("too much contention on this game, try again", code="busy")

    def current(self, rec: GameRecord, expected_seq: int | None) -> GameRecord:
        """``rec``, or the game read again when it is a cached snapshot behind the seq the mover saw (the read
        propose would make anyway)."""
        if rec.cached and expected_seq is not None and expected_seq > rec.seq:
            return self.load(rec.game_id)
        return rec

    def owed_answer(self, rec: GameRecord, viewer, seat, expected_seq: int | None) -> int | None:
        """A registered bot's token moving at its own seat, in answer to the turn it owes now (``expected_seq`` the
        game's seq, or none): what is left of the turn's budget, in ms. None for any other move."""
        if not (isinstance(viewer, int) and viewer == seat and remote_name(rec.bots[seat])):
            return None
        if rec.owed != rec.seq or expected_seq not in (None, rec.seq) or seat in rec.resigned:
            return None
        if rec.challenge not in (None, "accepted") or seat not in engine.actors(self.state_of(rec)):
            return None
        return time_left_ms(rec, seat)

    @staticmethod
    def _check_mover(rec: GameRecord, viewer, seat, fallback: str | None) -> None:
        """Who may move in this game now: nobody before its challenge is accepted; at a registered bot's seat, only
        its bot (never the table's token), and once it resigned only the fallback."""
        if rec.challenge not in (None, "accepted"):
            raise not_started(rec.challenge)
        if not isinstance(seat, int) or not 0 <= seat < len(rec.bots) or not remote_name(rec.bots[seat]):
            return
        if viewer == TABLE:
            raise Forbidden(f"seat {seat} is held by the registered bot {rec.bots[seat]}: only its bot token moves "
                            "there", code="bot_seat")
        if fallback is None and seat in rec.resigned:
            raise Conflict(f"{rec.bots[seat]} resigned seat {seat}: the fallback plays it", code="resigned")

    def _write_rejected(self, rec: GameRecord, move: dict, viewer, verdict: dict,
                        idempotency: IdempotencyKey | None) -> Written:
        """Keep an illegal proposal in the game's audit stream (and its answer under the key), iff the game still
        stands where it was judged."""
        audit = {"type": "rejected", "after_seq": rec.seq, "move": clip_move(move), "verdict": clip_verdict(verdict),
                 "by": "table" if viewer == TABLE else f"seat{viewer}", "at": time.time()}
        answer = _answer(idempotency, 422, rec.seq, verdict)
        return self.store.reject(rec.game_id, rec.seq, audit, idem=answer)

    def _write_applied(self, rec: GameRecord, move: dict, new_state, events: list[dict],
                       idempotency: IdempotencyKey | None, verdict: dict, fallback: str | None) -> Applied:
        """Append a legal move's events, the new snapshot and the bot turn it leaves owed, iff the game still
        stands where it was judged."""
        miss = miss_change(rec.bots, move.get("seat"), fallback)
        owed, over = plan(new_state, rec.bots, self.botcfg(rec), miss)
        if fallback:
            events = [dict(ev, fallback=fallback) if ev.get("type") == "move" else ev for ev in events]
        last = events[-1]["seq"] if events else rec.seq
        state_json = EncodedJSON.of(engine.state_to_json(new_state))  # stored, and the table's answer
        w = self.store.append(rec.game_id, rec.seq, state_json, events, plan=owed, over=over,
                              idem=_answer(idempotency, 200, last, verdict))
        return Applied(w, owed, state_json, miss)

    def _after_applied(self, rec: GameRecord, applied: Applied, new_state, viewer, verdict: dict) -> dict:
        """What follows a stored move: the cache, the bot turn it made owed, the bots' results; then the answer."""
        gid, w, owed = rec.game_id, applied.written, applied.owed
        metrics.verdict(None)
        logs.bind(seq=w.seq)
        self.snapshots.put(rec, new_state, seq=w.seq, state=applied.encoded, owed=w.seq if _owes(owed) else None,
                           tries=0, deadline=w.deadline, misses=_missed(rec.misses, applied.miss))
        if owed["worker"] or w.deadline is not None:
            self.hooks.bot_turn_stored(gid, w.seq)
        self._enqueue(gid, w.seq, owed)
        self._arm(gid, w.deadline)
        self._wake(gid, w.seq, new_state, rec.bots)
        self.bots.deal_over(rec, new_state)
        view = applied.encoded if viewer == TABLE else self.view(new_state, viewer)
        return {"verdict": verdict, "seq": w.seq, "state": view}

    @staticmethod
    def _after_conflict(gid: str, w: Written, expected_seq) -> None:
        """A write that did not happen: the game is gone (404), or stale (409 if the caller pinned a seq)."""
        if w.status == "gone":
            raise NotFound(f"no game {gid!r}", code="unknown_game")
        if w.status == "not_started":
            raise not_started((w.prior or {}).get("challenge"))
        if expected_seq is not None:
            raise Conflict(f"another move was applied first: the game is at seq {w.seq}", code="stale_seq")

    def _replay_answer(self, gid: str, rec: GameRecord | None, prior: dict, idempotency: IdempotencyKey, viewer):
        check_same_request(prior, idempotency)
        seq = prior["seq"]
        state = self.state_at(gid, seq, rec)
        return prior["status"], {"verdict": prior["verdict"], "seq": seq, "state": self.view(state, viewer),
                                 "replayed": True}

    def judge(self, gid: str, move: dict, viewer, rec: GameRecord | None = None) -> dict:
        """A what-if: nothing is stored. A seat never learns more than it could see (service/whatif.py)."""
        self.require_seat(viewer, move.get("seat"))
        rec = rec or self.load(gid)
        state = self.known_to(gid, self.state_of(rec), viewer)
        verdict, new_state, _ = engine.apply(state, move)
        if viewer != TABLE and verdict.legal and hidden_outcome(state, new_state, move, viewer):
            return {"verdict": sealed_verdict(verdict.to_json(), viewer), "seq": rec.seq,
                    "state": self.view(state, viewer)}
        return {"verdict": verdict.to_json(), "seq": rec.seq, "state": self.view(new_state, viewer)}

    def next_deal(self, gid: str, viewer, hands=None) -> dict:
        if viewer != TABLE and hands is not None:
            raise Forbidden("only the table token may set the hands of a deal", code="table_only")
        for _ in range(MAX_RETRIES):
            rec = self.load(gid)
            state = self.state_of(rec)
            if engine.actors(state):
                raise Conflict("the current deal is not over yet", code="deal_not_over")
            if rec.deals is not None and state.deal >= rec.deals:
                raise Conflict(f"the match is over: its {rec.deals} deals are played", code="match_over")
            worker_seats = [b for b in rec.bots if worker_bot(b)]
            if self.bot_gate is not None and worker_seats:
                self.bot_gate.check(worker_seats)  # a new deal queues bot turns as a new game does
            new_state, events = engine.next_deal(state, hands=hands)
            owed, over = plan(new_state, rec.bots, rec.botcfg)
            if any(rec.bots):
                self.store.register_bot_game(gid)  # the reaper may have dropped it when the last deal ended
            w = self.store.append(gid, rec.seq, engine.state_to_json(new_state), events, plan=owed, over=over)
            if w.status == "ok":
                self._enqueue(gid, w.seq, owed)
                self._arm(gid, w.deadline)
                self._wake(gid, w.seq, new_state, rec.bots)
                return {"seq": w.seq, "state": self.view(new_state, viewer)}
            self._after_conflict(gid, w, None)
        raise Conflict("too much contention on this game, try again", code="busy")

    def correct_hands(self, gid: str, viewer, hands) -> dict:
        """Table mode: the real hands of some seats, checked against everything played so far."""
        if viewer != TABLE:
            raise Forbidden("only the table token may correct hands", code="table_only")
        for _ in range(MAX_RETRIES):
            rec = self.load(gid)
            state = self.state_of(rec)
            new_state, events = engine.correct_hands(state, hands)
            owed, over = plan(new_state, rec.bots, rec.botcfg)
            w = self.store.append(gid, rec.seq, engine.state_to_json(new_state), events, plan=owed, over=over)
            if w.status == "ok":
                self._arm(gid, w.deadline)
                self._wake(gid, w.seq, new_state, rec.bots)
                self.bots.deal_over(rec, new_state)
                return {"seq": w.seq, "state": self.view(new_state, viewer)}
            self._after_conflict(gid, w, None)
        raise Conflict("too much contention on this game, try again", code="busy")

    def legal_moves(self, gid: str, viewer, seat: int | None, rec: GameRecord | None = None) -> dict:
        """``rec``: the snapshot the caller read (and checked the token on), else read here."""
        rec = rec or self.load(gid)
        if seat is None:
            if viewer == TABLE:
                raise ApiError("the table token must say which seat: ?seat=N", code="missing_seat")
            seat = viewer
        self.require_seat(viewer, seat)
        if not 0 <= seat < len(rec.seat_hashes):
            raise ApiError(f"seat {seat} is not at this table (0..{len(rec.seat_hashes) - 1})", code="bad_seat")
        return self.legal_moves_at(rec, self.state_of(rec), seat, viewer)

    def legal_moves_at(self, rec: GameRecord, state, seat: int, viewer=None) -> dict:
        """``seat``'s legal moves, worked out on what ``viewer`` (by default that seat) knows of the hands."""
        known = self.known_to(rec.game_id, state, seat if viewer is None else viewer)
        return {"seat": seat, "seq": rec.seq, "actors": engine.actors(state),
                "moves": engine.legal_moves(known, seat, annotated=True),
                "forbidden_last": engine.forbidden_last(known, seat)}

    def known_to(self, gid: str, state, viewer):
        """The state as ``viewer`` knows it (referee/knowledge.py): in table mode a seat does not know the cards
        given between two other seats."""
        if viewer == TABLE or not state.table:
            return state
        given = 0
        for entry in self.store.entries(gid):
            if entry.data.get("type") == "deal_started":
                given = 0  # a new deal's hands owe nothing to the last one's gives
            for item in entry.data.get("outcome", ()):
                if item.get("kind") == "give" and item.get("from") == viewer:
                    given |= parse_many(item["cards"])
        return engine.as_known_to(state, viewer, given)

    # --- the log ------------------------------------------------------------
    def events(self, gid: str, viewer, after: int = -1, include_rejected: bool = False) -> dict:
        rec = self.load(gid)
        if include_rejected and viewer != TABLE:
            raise Forbidden("only the table token may read rejected proposals", code="table_only")
        out = []
        for entry in self.store.entries(gid, after_seq=after, include_rejected=include_rejected):
            if entry.kind == "event":
                out.append(engine.redact_event(entry.data, viewer_arg(viewer)))
            elif include_rejected:
                out.append(dict(entry.data, id=entry.stream_id))
        return {"seq": rec.seq, "events": out}

    def replay(self, gid: str, viewer, seq: int, rec: GameRecord | None = None) -> dict:
        rec = rec or self.load(gid)
        if not 0 <= seq <= rec.seq:
            raise ApiError(f"seq must be between 0 and {rec.seq}", code="bad_seq")
        return {"seq": seq, "state": self.view(self.state_at(gid, seq, rec), viewer)}

    def state_at(self, gid: str, seq: int, rec: GameRecord | None = None):
        """The full state after event ``seq``: the snapshot ``rec`` when it stands there, else the nearest stored
        replay snapshot at or below ``seq`` and the events after it (fewer than the store's ``snapshot_every``;
        the whole log for a game stored before the snapshots)."""
        if rec is not None and rec.seq == seq:
            return self.state_of(rec)
        start, events = self.store.replay_inputs(gid, seq)
        return engine.replay(events, upto=seq, start=start)

    def delete(self, gid: str, viewer, rec: GameRecord | None = None) -> None:
        if viewer != TABLE:
            raise Forbidden("only the table token may delete a game", code="table_only")
        self.snapshots.drop(gid)
        if not self.store.delete(gid):
            raise NotFound(f"no game {gid!r}", code="unknown_game")
        if rec is not None:
            self.bots.deleted(rec)

    # --- bots ---------------------------------------------------------------
    def _enqueue(self, gid: str, seq: int, owed: dict) -> None:
        """Enqueue the worker bot turn a write made owed. The turn is already durable in the game's meta: if this
        fails (or the process dies first), a worker's reaper enqueues it (service/reaper.py)."""
        if not owed["worker"] or self.scheduler is None:
            return
        try:
            self.scheduler.schedule(gid, seq)
        except Exception:  # noqa: BLE001 - the move is stored; the reaper recovers the turn
            log.exception("game %s: could not enqueue the bot turn at seq %d; the reaper will", gid, seq)

    def _arm(self, gid: str, deadline: float | None) -> None:
        """Tell the workers' deadline keepers when the registered bots' turn a write made owed falls to the
        fallback. Best effort: the deadline is durable in the game's meta, and the reaper finds it too."""
        if deadline is None:
            return
        try:
            self.deadlines.add(gid, deadline)
        except Exception:  # noqa: BLE001 - the move is stored; the reaper plays the turn a grace later
            log.exception("game %s: could not arm the deadline %.3f", gid, deadline)

    def bot_back(self, gid: str, seat: int) -> None:
        """The registered bot holding ``seat`` showed it is there: the seat is no longer away, and a turn that was
        to be played at once because it was away gets the full budget from now."""
        changed, deadline = self.store.bot_back(gid, seat)
        if changed:
            self.snapshots.drop(gid)
            self._arm(gid, deadline)

    def bot_returns(self, name: str) -> None:
        """Bring the bot back in every game where its seat is away (it opened its stream)."""
        for gid in self.accounts.games(name):
            rec = self._read(gid)
            if rec is None:
                continue
            seat = next((s for s, b in enumerate(rec.bots) if remote_name(b) == name), None)
            if seat is not None and seat < len(rec.misses) and rec.misses[seat]:
                self.bot_back(gid, seat)

    def _wake(self, gid: str, seq: int, state, bots) -> None:
        """Wake the streams of the registered bots that owe a move now. Best effort: a stream rescans its games
        on its own too (api/routes/bots.py), so a lost wake-up delays the turn, never loses it."""
        names = {name for name in (remote_name(bots[s]) for s in engine.actors(state)) if name}
        for name in names:
            try:
                self.accounts.wake(name, gid, seq)
            except Exception:  # noqa: BLE001 - the move is stored; the stream's rescan finds the turn
                log.exception("game %s: could not wake bot @%s at seq %d", gid, name, seq)

    def owed_turns(self, name: str) -> list[dict]:
        """Every turn the registered bot ``name`` owes now (service/bot_games.py ``scan``)."""
        return self.bots.scan(name).turns


def _owes(owed: dict) -> bool:
    return bool(owed["worker"] or owed["remote"])


def _missed(misses: tuple, change) -> tuple:
    """``misses`` after the append script applied ``change`` (seat, "inc" or "reset", …)."""
    if change is None:
        return misses
    seat, op = change[0], change[1]
    out = list(misses) + [0] * max(0, seat + 1 - len(misses))
    out[seat] = out[seat] + 1 if op == "inc" else 0
    return tuple(out)


def not_started(challenge: str | None) -> ApiError:
    """The answer to a move in a game whose challenge is not accepted (service/challenges.py)."""
    if challenge == "pending":
        return Conflict("the game has not started: a registered bot it seats has not accepted its challenge yet "
                        "(GET /v1/games/{id} shows the challenge)", code="challenge_pending")
    return Conflict("the game is void: a registered bot it seats declined its challenge, or did not answer in time",
                    code="challenge_declined")


def _answer(idempotency: IdempotencyKey | None, status: int, seq: int, verdict: dict) -> tuple[str, dict] | None:
    """What the write script keeps under the key: the answer a retry of the same request gets back."""
    if idempotency is None:
        return None
    return idempotency.digest, {"fp": idempotency.fingerprint, "status": status, "seq": seq, "verdict": verdict}


def judge_detached(preset: str, rules, state_json: dict, move: dict) -> dict:
    """Stateless judging of a client-held table state; nothing is stored.

    The request's preset and overrides say which rules decide the dispute: they
    replace the ruleset the state JSON carries (its "preset" and "rules" keys).
    """
    ruleset = engine.build_ruleset(preset, rules)
    try:
        state = engine.state_from_json({**state_json, **ruleset.to_json()})
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        raise _bad_state(exc) from None
    parse_move(move)  # a move the engine refuses is the move's fault (400 bad_move), whatever the state
    try:
        verdict, new_state, _ = engine.apply(state, move)
        return {"verdict": verdict.to_json(), "state": engine.state_to_json(new_state)}
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        raise _bad_state(exc) from None


def _bad_state(exc: Exception) -> ApiError:
    """A client-held state can be inconsistent in ways state_from_json does not check."""
    log.warning("inconsistent client state: %r", exc)
    return ApiError(f"the state is not one the referee could have produced ({type(exc).__name__}: {exc})",
                    code="bad_state")


def _valid_id(gid: str) -> bool:
    return 0 < len(gid) <= 64 and all(c in "0123456789abcdef" for c in gid)
