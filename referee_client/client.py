"""The HTTP calls, one method per operation; moves are retried with one Idempotency-Key, so none applies twice."""
from __future__ import annotations

import time
import uuid
from typing import Iterator

import requests

from . import sse
from .errors import RefereeError
from .models import BotAccount, BotEvent, CreatedGame, Judged, LegalMoves, SeqState, Turn

RETRIED = {429, 502, 503, 504}  # answers that say: the same request may succeed shortly


def raise_for(resp: requests.Response) -> None:
    if resp.status_code < 400:
        return
    try:
        err = resp.json()["error"]
        code, message = err["code"], err["message"]
    except (ValueError, KeyError, TypeError):
        code, message = "http_error", resp.text[:200]
    raise RefereeError(resp.status_code, code, message)


class Referee:
    def __init__(self, base_url: str = "http://127.0.0.1:8000", *, timeout: float = 10.0, retries: int = 4,
                 backoff: float = 0.5, session: requests.Session | None = None):
        self.base = base_url.rstrip("/")
        self.timeout, self.retries, self.backoff = timeout, retries, backoff
        self.http = session or requests.Session()

    # --- transport -------------------------------------------------------------------------------------------
    def _call(self, method: str, path: str, token: str | None = None, json=None, params=None,
              headers: dict | None = None, ok=(200, 201), give_up_at: float | None = None) -> requests.Response:
        """One request, retried on a lost connection and on 429/502/503/504 (after Retry-After when given), never
        waiting past ``give_up_at`` (time.monotonic(): a turn's deadline). Only requests safe to repeat come
        here: reads, and writes that carry an Idempotency-Key or create anew."""
        sent = dict(headers or {})
        if token:
            sent["Authorization"] = f"Bearer {token}"
        for attempt in range(self.retries + 1):
            try:
                resp = self.http.request(method, self.base + path, json=json, params=params, headers=sent,
                                         timeout=self.timeout)
            except (requests.ConnectionError, requests.Timeout):
                if attempt == self.retries:
                    raise
                time.sleep(self.backoff * 2 ** attempt)
                continue
            pause = _retry_after(resp) or self.backoff * 2 ** attempt
            if resp.status_code in RETRIED and attempt < self.retries and (
                    give_up_at is None or time.monotonic() + pause < give_up_at):
                time.sleep(pause)
                continue
            if resp.status_code not in ok:
                raise_for(resp)
            return resp
        raise AssertionError("unreachable")

    # --- games -----------------------------------------------------------------------------------------------
    def create_game(self, players: list[dict] | list[str], preset: str = "uecda", **extra) -> CreatedGame:
        """players: names, or {"name": …, "bot": "random" | "@registered-bot"}; extra: rules, seed, hands, table."""
        body = {"preset": preset, "players": [p if isinstance(p, dict) else {"name": p} for p in players], **extra}
        return CreatedGame.from_json(self._call("POST", "/v1/games", json=body).json())

    def create_from_record(self, record: str) -> CreatedGame:
        return CreatedGame.from_json(self._call("POST", "/v1/games", json={"record": record}).json())

    def join(self, game_id: str, token: str) -> tuple[int | str, dict]:
        """Take a seat with its token: (the seat number, or "table", and the state that token sees)."""
        resp = self._call("GET", f"/v1/games/{game_id}", token)
        viewer = resp.headers.get("X-Referee-Viewer", "")
        return (int(viewer) if viewer.isdigit() else viewer), resp.json()

    def state(self, game_id: str, token: str) -> dict:
        return self._call("GET", f"/v1/games/{game_id}", token).json()

    def legal_moves(self, game_id: str, token: str, seat: int | None = None) -> LegalMoves:
        params = {"seat": seat} if seat is not None else None
        return LegalMoves.from_json(self._call("GET", f"/v1/games/{game_id}/legal-moves", token, params=params).json())

    def move(self, game_id: str, token: str, move: dict, expected_seq: int | None = None,
             idempotency_key: str | None = None, give_up_at: float | None = None) -> Judged:
        """Propose ``move``; a 422 (illegal) is an answer, not an error: see ``Judged.verdict.legal``. Retries
        reuse one Idempotency-Key, so a move whose answer was lost is never applied twice; none waits past
        ``give_up_at`` (time.monotonic())."""
        body = dict(move, **({"expected_seq": expected_seq} if expected_seq is not None else {}))
        key = idempotency_key or uuid.uuid4().hex
        resp = self._call("POST", f"/v1/games/{game_id}/moves", token, json=body, headers={"Idempotency-Key": key},
                          ok=(200, 422), give_up_at=give_up_at)
        data = resp.json()
        if "error" in data:
            raise_for(resp)  # idempotency_key_reused
        return Judged.from_json(data, replayed=resp.headers.get("Idempotent-Replayed") == "true")

    def judge(self, game_id: str, token: str, move: dict) -> Judged:
        """What would ``move`` do in this game now? Nothing is stored."""
        return Judged.from_json(self._call("POST", f"/v1/games/{game_id}/judge", token, json=move).json())

    def judge_detached(self, state: dict, move: dict, preset: str = "uecda", rules: dict | None = None) -> Judged:
        """POST /v1/judge: settle a dispute over a table state the caller holds; nothing is stored."""
        body = {"preset": preset, "state": state, "move": move, **({"rules": rules} if rules else {})}
        return Judged.from_json(self._call("POST", "/v1/judge", json=body).json())

    def replay(self, game_id: str, token: str, seq: int) -> SeqState:
        return SeqState.from_json(self._call("GET", f"/v1/games/{game_id}/replay", token, params={"seq": seq}).json())

    def events(self, game_id: str, token: str, after: int = -1) -> list[dict]:
        return self._call("GET", f"/v1/games/{game_id}/events", token, params={"after": after}).json()["events"]

    def record(self, game_id: str, token: str) -> str:
        """The game as a text record (docs/record.md), redacted for a seat's token."""
        return self._call("GET", f"/v1/games/{game_id}/record", token).text

    # --- bots ------------------------------------------------------------------------------------------------
    def register_bot(self, name: str) -> BotAccount:
        """Register a bot; its token is shown only in this answer."""
        resp = self._call("POST", "/v1/bots", json={"name": name}, ok=(201,))
        return BotAccount.from_json(resp.json())

    def turns(self, bot_token: str, should_stop=lambda: False) -> Iterator[Turn]:
        """Every move the bot owes, for ever, reconnecting (with Last-Event-ID) whenever the stream ends."""
        for msg in self.bot_stream(bot_token, should_stop):
            if isinstance(msg, Turn):
                yield msg

    def bot_stream(self, bot_token: str, should_stop=lambda: False) -> Iterator[Turn | BotEvent]:
        """Every message of the bot's stream, for ever: its turns (``Turn``) and lifecycle events (``BotEvent``:
        challenge, game_start, deal_over, game_end), reconnecting with Last-Event-ID whenever the stream ends."""
        import json

        headers = {"Authorization": f"Bearer {bot_token}"}
        for msg in sse.messages(self.http, f"{self.base}/v1/bots/stream", headers, should_stop=should_stop,
                                timeout=self.timeout + 30):
            data = json.loads(msg.data)
            yield Turn.from_json(msg.id or "", data) if msg.event == "turn" else BotEvent(msg.event, msg.id or "", data)

    def accept_challenge(self, bot_token: str, game_id: str) -> dict:
        return self._call("POST", f"/v1/bots/challenges/{game_id}/accept", bot_token).json()

    def decline_challenge(self, bot_token: str, game_id: str, reason: str = "generic") -> dict:
        return self._call("POST", f"/v1/bots/challenges/{game_id}/decline", bot_token, json={"reason": reason}).json()

    def resign(self, bot_token: str, game_id: str) -> dict:
        return self._call("POST", f"/v1/bots/games/{game_id}/resign", bot_token).json()

    def set_policy(self, bot_token: str, **policy) -> dict:
        """The bot's standing challenge policy (mode, presets, seats, budget_ms, max_games: docs/remote-bots.md)."""
        return self._call("PUT", "/v1/bots/policy", bot_token, json=policy).json()

    def me(self, bot_token: str) -> dict:
        return self._call("GET", "/v1/bots/me", bot_token).json()

    def rotate_token(self, bot_token: str) -> BotAccount:
        """A new token, shown once; ``bot_token`` stops at once."""
        return BotAccount.from_json(self._call("POST", "/v1/bots/token", bot_token, ok=(201,)).json())

    def revoke_token(self, bot_token: str) -> None:
        self._call("DELETE", "/v1/bots/token", bot_token, ok=(204,))

    def delete_bot(self, bot_token: str) -> None:
        self._call("DELETE", "/v1/bots/me", bot_token, ok=(204,))

    def bots(self, limit: int = 50, recent: int = 10, sort: str = "recent") -> dict:
        return self._call("GET", "/v1/bots", params={"limit": limit, "recent": recent, "sort": sort}).json()

    def leaderboard(self, limit: int = 50) -> dict:
        return self._call("GET", "/v1/bots/leaderboard", params={"limit": limit}).json()


def _retry_after(resp: requests.Response) -> float | None:
    try:
        return float(resp.headers["Retry-After"])
    except (KeyError, ValueError):
        return None
