"""The registered bots' side of served games: challenges answered, seats resigned, the lifecycle events of their
streams (``challenge``, ``game_start``, ``deal_over``, ``game_end``) and the rating of the deals they finish.

A ``BotGames`` belongs to one GameService (``svc.bots``), whose store, accounts and ratings it uses. Everything
here follows a write the game's own scripts made atomically (the challenge's answer, the resignation, the move
that ended a deal): the events, results and ratings after it are best effort, as the recent results always were
(a process killed in between loses them; the game itself keeps the truth).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import referee as engine
from referee.scoring import uecda_points

from .bot_accounts import remote_name, summary
from .bot_turns import FALLBACK_KINDS, challenge_view, plan, time_left_ms, with_bot_seats, worker_bot
from .challenges import DECLINE_REASONS, DEFAULT_POLICY, ChallengeDeclined, decide, in_progress, new_challenge
from .errors import ApiError, Conflict, NotFound
from .ratings import rating_view
from .store import GameRecord

if TYPE_CHECKING:
    from .games import GameService

log = logging.getLogger(__name__)
LEADERBOARD_FIELDS = ("kind", "name", "seat", "status", "rating", "deals", "mean_place", "fallbacks")


@dataclass
class SeatDeal:
    """What one seat did in a deal: its own moves and the fallback's, by kind."""
    own: int = 0
    fallbacks: dict = field(default_factory=lambda: {kind: 0 for kind in FALLBACK_KINDS})


@dataclass
class Scan:
    """What a bot's stream sends from the games themselves: turns owed, challenges to answer, games in progress."""
    turns: list[dict]
    challenges: list[dict]
    games: list[dict]


class BotGames:
    def __init__(self, svc: "GameService"):
        self.svc = svc
        self.store, self.accounts, self.ratings = svc.store, svc.accounts, svc.ratings

    # --- challenges ---------------------------------------------------------------------------------------------
    def challenge(self, names: list[str], preset: str, seats: int, budget_ms: int) -> dict[str, str]:
        """Each seated bot's answer by its standing policy: {name: "accepted" | "pending"}; 409
        ``challenge_declined`` (nothing created) when one declines."""
        answers, declined = {}, []
        for name in names:
            verdict, reason = decide(self.accounts.policy(name), preset, seats, budget_ms, self.games_in_progress(name))
            if verdict == "decline":
                declined.append((name, reason or "generic"))
            answers[name] = "pending" if verdict == "manual" else "accepted"
        if declined:
            raise ChallengeDeclined(declined)
        return answers

    def games_in_progress(self, name: str) -> int:
        gids = self.accounts.games(name)
        return sum(1 for game in self.store.progress(gids) if in_progress(game, name)) if gids else 0

    def stored_challenge(self, answers: dict[str, str]) -> tuple[str, dict] | None:
        """(status, challenge) to store with a new game, None without registered bots."""
        if not answers:
            return None
        status = "pending" if "pending" in answers.values() else "accepted"
        return status, new_challenge(answers, self.svc.settings.challenge_timeout_s)

    def announce(self, rec: GameRecord) -> None:
        """A new game: a ``challenge`` event to each bot left to answer it, or ``game_start`` to all if it started."""
        if rec.challenge == "accepted":
            self.started(rec)
            return
        for seat, name in self.seated(rec):
            if (rec.chal or {}).get("bots", {}).get(name) == "pending":
                self._emit(name, "challenge", self.challenge_event(rec, seat))

    def answer(self, name: str, gid: str, accept: bool, reason: str = "generic") -> dict:
        """The bot ``name`` accepts or declines the game's challenge. The last acceptance starts the game; a decline
        voids it for everyone (it never seats the bot)."""
        if reason not in DECLINE_REASONS:
            raise ApiError(f"reason must be one of {', '.join(DECLINE_REASONS)}", code="bad_reason")
        rec, seat = self._seat_or_404(name, gid, "unknown_challenge")
        state = self.svc.state_of(rec)
        owed, _ = plan(state, rec.bots, self.svc.botcfg(rec))
        wanted = "accepted" if accept else "declined"
        outcome, detail = self.store.answer_challenge(gid, name, wanted, reason, owed)
        self.svc.snapshots.drop(gid)
        if outcome == "accepted":
            self.svc._enqueue(gid, rec.seq, owed)
            self.svc._arm(gid, float(detail) if detail else None)
            self.svc._wake(gid, rec.seq, state, rec.bots)
            self.started(self.svc.load(gid))
        elif outcome in ("declined", "expired"):
            self._voided(self.svc.load(gid), outcome)
        if outcome == "expired":
            raise Conflict("this challenge expired before it was answered: the game is void", code="challenge_expired")
        if outcome in ("answered", "closed") and detail != wanted:  # the same answer again is answered again
            raise Conflict(f"this challenge is not waiting for an answer from @{name} (it is {detail})",
                           code="challenge_not_pending")
        if outcome == "none":
            raise NotFound(f"game {gid!r} has no challenge for @{name}", code="unknown_challenge")
        return {"game_id": gid, "seat": seat, "challenge": challenge_view(self.svc.load(gid))}

    def _voided(self, rec: GameRecord, why: str) -> None:
        """A declined or expired challenge: the game never starts; every bot that had accepted hears it ended."""
        who = (rec.chal or {}).get("by")
        for seat, name in self.seated(rec):
            if name == who:
                self.accounts.forget(name, rec.game_id)  # never seated: the game leaves its list
            elif (rec.chal or {}).get("bots", {}).get(name) == "accepted":
                self._emit(name, "game_end", self.game_end_event(rec, seat, why))

    # --- resigning ----------------------------------------------------------------------------------------------
    def resign(self, name: str, gid: str) -> dict:
        """The bot gives its seat up: the fallback plays it from now on (``"fallback": "resigned"``), at once for a
        turn owed now; the rest of the game is not rated for the bot."""
        rec, seat = self._seat_or_404(name, gid, "unknown_game")
        if rec.challenge == "pending":
            raise Conflict("the game has not started: decline its challenge instead", code="challenge_pending")
        owes = seat in engine.actors(self.svc.state_of(rec))
        done, deadline = self.store.resign(gid, seat, owes)
        self.svc.snapshots.drop(gid)
        self.svc._arm(gid, deadline)
        if done == 1:
            self._emit(name, "game_end", self.game_end_event(rec, seat, "resigned"))
        return {"game_id": gid, "seat": seat, "resigned": True}

    def retire(self, name: str) -> int:
        """Resign (or decline) every game the bot plays now: its token was revoked, or it is deleted."""
        gids = self.accounts.games(name)
        left = 0
        for gid, game in zip(gids, self.store.progress(gids) if gids else []):
            if not in_progress(game, name):
                continue
            try:
                if game is not None and game["challenge"] == "pending":
                    self.answer(name, gid, accept=False)
                else:
                    self.resign(name, gid)
                left += 1
            except ApiError as exc:  # the game moved on meanwhile (ended, voided): nothing to give up
                log.info("bot @%s: game %s: %s", name, gid, exc.message)
        return left

    def _seat_or_404(self, name: str, gid: str, code: str) -> tuple[GameRecord, int]:
        try:
            rec = self.svc.load(gid)
        except NotFound:
            raise NotFound(f"no game {gid!r} seats @{name}", code=code) from None
        seat = seat_of(rec, name)
        if seat is None:
            raise NotFound(f"no game {gid!r} seats @{name}", code=code)
        return rec, seat

    def account(self, name: str) -> dict:
        """The bot's own view of itself: its public summary, its standing policy and the games it sits in now."""
        mine = self.accounts.account(name)
        if mine is None:
            raise NotFound(f"no registered bot @{name}", code="unknown_bot")
        gids = self.accounts.games(name)
        games = []
        for gid, game in zip(gids, self.store.progress(gids) if gids else []):
            if in_progress(game, name) and game is not None:
                seat = next(s for s, b in enumerate(game["bots"]) if b == f"@{name}")
                status = "pending" if game["challenge"] == "pending" else "playing"
                games.append({"game_id": gid, "seat": seat, "status": status, "seq": game["seq"]})
        return dict(mine, policy=self.accounts.policy(name) or dict(DEFAULT_POLICY), games=games)

    def leaderboard(self, limit: int) -> dict:
        """The rated players, best score first: registered bots and the built-in bots they met."""
        entries = []
        for rank, (player, fields) in enumerate(self.ratings.leaderboard(limit), 1):
            if player.startswith("@"):
                entry = dict(summary(player[1:], fields), kind="registered")
            else:
                entry = {"kind": "builtin", "name": player, "seat": player, "status": "builtin",
                         "rating": rating_view(fields), "deals": int(fields.get("rated") or 0), "mean_place": None,
                         "fallbacks": None}
            entries.append({k: entry[k] for k in LEADERBOARD_FIELDS} | {"rank": rank})
        return {"count": len(entries), "entries": entries}

    # --- the end of a deal and of a game ------------------------------------------------------------------------
    def deal_over(self, rec: GameRecord, state) -> None:
        """A write ended a deal: once per deal, rate it, keep each seated bot's result, and tell each bot (``deal_over``,
        and ``game_end`` after a match's last deal). Best effort, after the move is stored: the game itself stays
        the record of the deal."""
        if state.phase != "deal_over" or not self.seated(rec):
            return
        try:
            self._deal_over(rec, state)
        except Exception:  # noqa: BLE001 - the move is stored; only the bots' results, ratings and events miss it
            log.exception("game %s: could not keep the bots' results of deal %d", rec.game_id, state.deal)

    def _deal_over(self, rec: GameRecord, state) -> None:
        places = [p.place for p in state.players]
        if any(p is None for p in places) or not self.store.r.hsetnx(self.store.key(rec.game_id, "meta"),
                                                                      f"done{state.deal}", 1):
            return  # a deal without every place (none yet), or one a retried write already counted
        seats = self._deal_seats(rec.game_id, len(places))
        rated = {seat for seat, _ in self.seated(rec) if rated_seat(rec, seat, seats[seat])}
        ratings = self._rate(rec, places, rated)
        n, finished = len(places), bool(rec.deals) and state.deal >= (rec.deals or 0)
        preset = state.rules.preset or "custom"
        points = [uecda_points(p, n) for p in places]
        for seat, name in self.seated(rec):
            self.accounts.record_result(name, rec.game_id, state.deal, preset, seat, n, places[seat],
                                        fallbacks=seats[seat].fallbacks, rated=seat in rated)
            if seat in rec.resigned:
                continue  # it left the game, and heard so then
            self._emit(name, "deal_over", {"game_id": rec.game_id, "seat": seat, "deal": state.deal, "places": places,
                                           "points": points, "place": places[seat], "fallbacks": seats[seat].fallbacks,
                                           "rated": seat in rated, "rating": ratings.get(f"@{name}")})
            if finished:
                self._emit(name, "game_end", self.game_end_event(rec, seat, "finished", deals=state.deal))

    def _deal_seats(self, gid: str, n: int) -> list[SeatDeal]:
        seats = [SeatDeal() for _ in range(n)]
        for event in self.store.deal_moves(gid):
            if event.get("type") == "move" and isinstance((event.get("move") or {}).get("seat"), int):
                mine = seats[event["move"]["seat"]]
                if event.get("fallback") in FALLBACK_KINDS:
                    mine.fallbacks[event["fallback"]] += 1
                else:
                    mine.own += 1
        return seats

    def _rate(self, rec: GameRecord, places: list[int], rated: set[int]) -> dict[str, dict]:
        if not rated:
            return {}
        who = [f"@{remote_name(b)}" if remote_name(b) else (b if worker_bot(b) else None) for b in rec.bots]
        players = {who[s] for s in rated} | {b for b in rec.bots if worker_bot(b)}
        try:
            return self.ratings.rate_deal(who, places, {p for p in players if p})
        except Exception:  # noqa: BLE001 - the deal is stored; only its rating is lost
            log.exception("game %s: could not rate the deal", rec.game_id)
            return {}

    def deleted(self, rec: GameRecord) -> None:
        """The table deleted the game: every bot still in it hears it ended."""
        if rec.challenge == "declined":
            return
        for seat, name in self.seated(rec):
            if seat not in rec.resigned:
                self._emit(name, "game_end", self.game_end_event(rec, seat, "deleted"))

    def started(self, rec: GameRecord) -> None:
        for seat, name in self.seated(rec):
            self._emit(name, "game_start", self.game_info(rec, seat))

    # --- what the stream sends ----------------------------------------------------------------------------------
    def scan(self, name: str) -> Scan:
        """From the bot's games themselves: every turn it owes now, every challenge waiting for its answer, and the
        games it plays now. Games gone from the store leave the bot's list."""
        gids = self.accounts.games(name)
        out = Scan([], [], [])
        for gid, game in zip(gids, self.store.progress(gids) if gids else []):
            if game is None:
                self.accounts.forget_gone(name, gid)  # gone, or not written yet: kept while newly seated
                continue
            if not in_progress(game, name):
                continue
            rec = self.svc._read(gid)
            seat = seat_of(rec, name) if rec is not None else None
            if rec is None or seat is None:
                continue
            if rec.challenge == "pending":
                if (rec.chal or {}).get("bots", {}).get(name) == "pending":
                    out.challenges.append(self.challenge_event(rec, seat))
                continue
            out.games.append(self.game_info(rec, seat))
            turn = self._turn(rec, seat)
            if turn is not None:
                out.turns.append(turn)
        return out

    def _turn(self, rec: GameRecord, seat: int) -> dict | None:
        state = self.svc.state_of(rec)
        if seat not in engine.actors(state):
            return None
        return {"game_id": rec.game_id, "seat": seat, "seq": rec.seq,
                "state": with_bot_seats(self.svc.view(state, seat), rec),
                "legal_moves": self.svc.legal_moves_at(rec, state, seat),
                "time_left_ms": time_left_ms(rec, seat), "budget_ms": self.svc.botcfg(rec)["budget_ms"]}

    def game_info(self, rec: GameRecord, seat: int) -> dict:
        cfg = self.svc.botcfg(rec)
        players = [{"name": p["name"], "bot": b} for p, b in zip(rec.state["players"], rec.bots)]
        return {"game_id": rec.game_id, "seat": seat, "preset": rec.state.get("preset") or "custom",
                "players": players, "seats": len(players), "budget_ms": cfg["budget_ms"],
                "away_after": cfg["away_after"], "fallback": cfg["fallback"], "deals": rec.deals}

    def challenge_event(self, rec: GameRecord, seat: int) -> dict:
        return dict(self.game_info(rec, seat), id=rec.game_id, status="pending",
                    expires_at=(rec.chal or {}).get("expires_at"))

    def game_end_event(self, rec: GameRecord, seat: int, reason: str, deals: int | None = None) -> dict:
        return {"game_id": rec.game_id, "seat": seat, "reason": reason,
                "deals": rec.state.get("deal") if deals is None else deals}

    @staticmethod
    def seated(rec: GameRecord) -> list[tuple[int, str]]:
        return [(seat, name) for seat, name in ((s, remote_name(b)) for s, b in enumerate(rec.bots)) if name]

    def _emit(self, name: str, kind: str, data: dict) -> None:
        try:
            self.accounts.emit(name, kind, data)
        except Exception:  # noqa: BLE001 - best effort, after the write that made it true
            log.exception("bot @%s: could not add its %s event", name, kind)


def seat_of(rec: GameRecord, name: str) -> int | None:
    return next((s for s, b in enumerate(rec.bots) if remote_name(b) == name), None)


def rated_seat(rec: GameRecord, seat: int, deal: SeatDeal) -> bool:
    """Is this finished deal rated for the registered bot at ``seat``? Its game's challenge was accepted, the bot
    had not resigned, the fallback played none of its moves for being away or resigned, and it moved itself."""
    return (rec.challenge == "accepted" and seat not in rec.resigned and deal.own > 0
            and deal.fallbacks["away"] == 0 and deal.fallbacks["resigned"] == 0)

