"""Game operations shared by the HTTP blueprints and the bot workers.

Every request reads the latest snapshot (O(1)), asks the engine, and writes back
through the store's conditional append, so no game state lives in the process.
"""
from __future__ import annotations

import logging
import secrets
import time

import referee as engine
from referee.record import import_record

from . import logs, metrics
from .scheduler import BOT_STRATEGIES
from .errors import ApiError, Conflict, Forbidden, NotFound, Unauthorized
from .store import GameRecord, GameStore
from .tokens import digest, matches, new_token

log = logging.getLogger(__name__)
TABLE = "table"  # viewer marker for the table token (engine viewer None)
MAX_RETRIES = 20
MAX_RECORD_CHARS = 4_000_000


def viewer_arg(viewer):
    return None if viewer == TABLE else viewer


class GameService:
    def __init__(self, store: GameStore, scheduler=None):
        self.store = store
        self.scheduler = scheduler  # service.scheduler.BotScheduler or None

    # --- reading and access -------------------------------------------------
    def load(self, gid: str) -> GameRecord:
        rec = self.store.load(gid) if _valid_id(gid) else None
        if rec is None:
            raise NotFound(f"no game {gid!r}", code="unknown_game")
        return rec

    def viewer(self, rec: GameRecord, token: str | None):
        """TABLE for the table token, the seat number for a seat token."""
        if not token:
            raise Unauthorized("missing bearer token (Authorization: Bearer <token>)", code="missing_token")
        if matches(token, rec.table_hash):
            return TABLE
        for seat, hashed in enumerate(rec.seat_hashes):
            if matches(token, hashed):
                return seat
        raise Unauthorized("this token is not valid for this game", code="invalid_token")

    @staticmethod
    def require_seat(viewer, seat) -> None:
        if viewer != TABLE and viewer != seat:
            raise Forbidden(f"a seat token for seat {viewer} may not act for seat {seat}", code="wrong_seat")

    @staticmethod
    def view(state, viewer) -> dict:
        return engine.state_to_json(state, viewer=viewer_arg(viewer))

    @staticmethod
    def state_of(rec: GameRecord):
        return engine.state_from_json(rec.state)

    # --- creating -----------------------------------------------------------
    def create(self, preset: str, players: list[dict], rules=None, seed=None, hands=None, table=False,
               leader=None) -> dict:
        bots = [p.get("bot") for p in players]
        unknown = sorted({b for b in bots if b is not None and b not in BOT_STRATEGIES})
        if unknown:
            raise ApiError(f"unknown bot strategy {unknown[0]!r}; known: {', '.join(BOT_STRATEGIES)}",
                           code="unknown_bot")
        state, events = engine.new_game(preset, rules=rules,
                                    players=[p["name"] for p in players], seed=seed, hands=hands, table=table,
                                    leader=leader)
        return self._store_new(state, events, bots)

    def create_from_record(self, text) -> dict:
        """A game whose log is a replayed record (docs/record.md); every seat is human."""
        if not isinstance(text, str):
            raise ApiError("'record' must be the text of a game record (docs/record.md)", code="bad_record")
        if len(text) > MAX_RECORD_CHARS:
            raise ApiError(f"the record is longer than {MAX_RECORD_CHARS} characters", code="bad_record")
        try:
            events = import_record(text)
            state = engine.replay(events)
        except engine.InputError as exc:
            raise ApiError(exc.message, code="bad_record") from None
        return self._store_new(state, events, [None] * len(state.players))

    def _store_new(self, state, events, bots) -> dict:
        gid = secrets.token_hex(12)
        table = new_token("tbl")
        seats = [new_token("seat") for _ in state.players]
        state_json = engine.state_to_json(state)
        seq = self.store.create(gid, state_json, events, digest(table), [digest(t) for t in seats], bots)
        self._schedule(gid, seq, state, bots)
        return {"game_id": gid, "table_token": table, "seat_tokens": seats, "seq": seq, "state": state_json}

    # --- proposing ----------------------------------------------------------
    def propose(self, gid: str, move: dict, viewer, expected_seq: int | None = None) -> tuple[int, dict]:
        """Judge and, if legal, apply ``move``. Returns (http status, body)."""
        self.require_seat(viewer, move.get("seat"))
        for _ in range(MAX_RETRIES):
            rec = self.load(gid)
            if expected_seq is not None and expected_seq != rec.seq:
                raise Conflict(f"expected_seq {expected_seq} is stale: the game is at seq {rec.seq}",
                               code="stale_seq")
            state = self.state_of(rec)
            verdict, new_state, events = engine.apply(state, move)
            vj = verdict.to_json()
            if not verdict.legal:
                audit = {"type": "rejected", "after_seq": rec.seq, "move": move, "verdict": vj,
                         "by": "table" if viewer == TABLE else f"seat{viewer}", "at": time.time()}
                if self.store.reject(gid, rec.seq, audit):
                    metrics.verdict(vj.get("reason"))
                    return 422, {"verdict": vj, "seq": rec.seq, "state": self.view(state, viewer)}
                continue  # the game moved on while we judged: judge again
            ok, seq = self.store.append(gid, rec.seq, engine.state_to_json(new_state), events)
            if not ok:
                if expected_seq is not None:
                    raise Conflict(f"another move was applied first: the game is at seq {seq}", code="stale_seq")
                continue
            metrics.verdict(None)
            logs.bind(seq=seq)
            self._schedule(gid, seq, new_state, rec.bots)
            return 200, {"verdict": vj, "seq": seq, "state": self.view(new_state, viewer)}
        raise Conflict("too much contention on this game, try again", code="busy")

    def judge(self, gid: str, move: dict, viewer) -> dict:
        self.require_seat(viewer, move.get("seat"))
        rec = self.load(gid)
        state = self.state_of(rec)
        verdict, new_state, _ = engine.apply(state, move)
        return {"verdict": verdict.to_json(), "seq": rec.seq, "state": self.view(new_state, viewer)}

    def next_deal(self, gid: str, viewer, hands=None) -> dict:
        if viewer != TABLE and hands is not None:
            raise Forbidden("only the table token may set the hands of a deal", code="table_only")
        for _ in range(MAX_RETRIES):
            rec = self.load(gid)
            state = self.state_of(rec)
            if engine.actors(state):
                raise Conflict("the current deal is not over yet", code="deal_not_over")
            new_state, events = engine.next_deal(state, hands=hands)
            ok, seq = self.store.append(gid, rec.seq, engine.state_to_json(new_state), events)
            if ok:
                self._schedule(gid, seq, new_state, rec.bots)
                return {"seq": seq, "state": self.view(new_state, viewer)}
        raise Conflict("too much contention on this game, try again", code="busy")

    def correct_hands(self, gid: str, viewer, hands) -> dict:
        """Table mode: the real hands of some seats, checked against everything played so far."""
        if viewer != TABLE:
            raise Forbidden("only the table token may correct hands", code="table_only")
        for _ in range(MAX_RETRIES):
            rec = self.load(gid)
            state = self.state_of(rec)
            new_state, events = engine.correct_hands(state, hands)
            ok, seq = self.store.append(gid, rec.seq, engine.state_to_json(new_state), events)
            if ok:
                return {"seq": seq, "state": self.view(new_state, viewer)}
        raise Conflict("too much contention on this game, try again", code="busy")

    def legal_moves(self, gid: str, viewer, seat: int | None) -> dict:
        rec = self.load(gid)
        if seat is None:
            if viewer == TABLE:
                raise ApiError("the table token must say which seat: ?seat=N", code="missing_seat")
            seat = viewer
        self.require_seat(viewer, seat)
        if not 0 <= seat < len(rec.seat_hashes):
            raise ApiError(f"seat {seat} is not at this table (0..{len(rec.seat_hashes) - 1})", code="bad_seat")
        state = self.state_of(rec)
        return {"seat": seat, "seq": rec.seq, "actors": engine.actors(state),
                "moves": engine.legal_moves(state, seat)}

    # --- the log ------------------------------------------------------------
    def events(self, gid: str, viewer, after: int = -1, include_rejected: bool = False) -> dict:
        rec = self.load(gid)
        if include_rejected and viewer != TABLE:
            raise Forbidden("only the table token may read rejected proposals", code="table_only")
        out = []
        for entry in self.store.entries(gid, after_seq=after):
            if entry.kind == "event":
                out.append(engine.redact_event(entry.data, viewer_arg(viewer)))
            elif include_rejected:
                out.append(dict(entry.data, id=entry.stream_id))
        return {"seq": rec.seq, "events": out}

    def replay(self, gid: str, viewer, seq: int) -> dict:
        rec = self.load(gid)
        if not 0 <= seq <= rec.seq:
            raise ApiError(f"seq must be between 0 and {rec.seq}", code="bad_seq")
        state = engine.replay(self.store.events(gid, upto_seq=seq), upto=seq)
        return {"seq": seq, "state": self.view(state, viewer)}

    # --- bots ---------------------------------------------------------------
    def _schedule(self, gid: str, seq: int, state, bots) -> None:
        if self.scheduler is None or not any(bots):
            return
        if any(bots[s] for s in engine.actors(state)) and self.store.claim_bot_turn(gid, seq):
            self.scheduler.schedule(gid, seq)


def judge_detached(preset: str, rules, state_json: dict, move: dict) -> dict:
    """Stateless judging of a client-held table state; nothing is stored.

    The request's preset and overrides say which rules decide the dispute: they
    replace the ruleset the state JSON carries (its "preset" and "rules" keys).
    """
    ruleset = engine.build_ruleset(preset, rules)
    try:
        state = engine.state_from_json({**state_json, **ruleset.to_json()})
        verdict, new_state, _ = engine.apply(state, move)
        return {"verdict": verdict.to_json(), "state": engine.state_to_json(new_state)}
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        # a client-held state can be inconsistent in ways state_from_json does not check
        log.warning("inconsistent client state: %r", exc)
        raise ApiError(f"the state is not one the referee could have produced ({type(exc).__name__}: {exc})",
                       code="bad_state") from None


def _valid_id(gid: str) -> bool:
    return 0 < len(gid) <= 64 and all(c in "0123456789abcdef" for c in gid)
