"""Typed views of the referee's answers. Each keeps the raw JSON in ``raw`` for whatever it does not name."""
from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Verdict:
    legal: bool
    reason: str | None
    message: str | None
    raw: dict = field(repr=False)

    @classmethod
    def from_json(cls, data: dict) -> "Verdict":
        return cls(bool(data.get("legal")), data.get("reason"), data.get("message"), data)


@dataclass(frozen=True)
class Judged:
    """The answer to a move or a what-if: the verdict, the seq after it, the state as the bearer may see it."""
    verdict: Verdict
    seq: int | None
    state: dict
    replayed: bool = False  # the stored answer to an earlier request with the same Idempotency-Key

    @classmethod
    def from_json(cls, data: dict, replayed: bool = False) -> "Judged":
        return cls(Verdict.from_json(data["verdict"]), data.get("seq"), data["state"], replayed)


@dataclass(frozen=True)
class CreatedGame:
    game_id: str
    table_token: str
    seat_tokens: list[str]
    seq: int
    state: dict

    @classmethod
    def from_json(cls, data: dict) -> "CreatedGame":
        return cls(data["game_id"], data["table_token"], list(data["seat_tokens"]), data["seq"], data["state"])


@dataclass(frozen=True)
class LegalMoves:
    """GET …/legal-moves: the seat's annotated legal moves (a ``choose`` entry stands for several moves)."""
    seat: int
    seq: int
    actors: list[int]
    moves: list[dict]
    forbidden_last: list[str]

    @classmethod
    def from_json(cls, data: dict) -> "LegalMoves":
        return cls(data["seat"], data["seq"], list(data["actors"]), list(data["moves"]), list(data["forbidden_last"]))


@dataclass(frozen=True)
class SeqState:
    seq: int
    state: dict

    @classmethod
    def from_json(cls, data: dict) -> "SeqState":
        return cls(data["seq"], data["state"])


@dataclass(frozen=True)
class BotAccount:
    name: str
    seat: str  # what a game's player names as its "bot" to seat this bot: "@<name>"
    bot_token: str

    @classmethod
    def from_json(cls, data: dict) -> "BotAccount":
        return cls(data["name"], data["seat"], data["bot_token"])


@dataclass(frozen=True)
class Turn:
    """A move a registered bot owes: one ``turn`` message of GET /v1/bots/stream."""
    id: str
    game_id: str
    seat: int
    seq: int
    state: dict
    legal_moves: LegalMoves
    time_left_ms: int | None  # left of the game's per-move budget when sent, then the fallback plays (None: an
    budget_ms: int | None = None  # older server without budgets)
    received_at: float = field(default_factory=time.monotonic)  # when it arrived (time.monotonic()): its clock

    @classmethod
    def from_json(cls, event_id: str, data: dict) -> "Turn":
        return cls(event_id, data["game_id"], data["seat"], data["seq"], data["state"],
                   LegalMoves.from_json(data["legal_moves"]), data.get("time_left_ms"), data.get("budget_ms"))

    @property
    def key(self) -> str:
        """The turn's own name, the same on every connection: ``<game id>.<seq>``."""
        return f"{self.game_id}.{self.seq}"

    def deadline(self) -> float | None:
        """When the turn's time runs out (time.monotonic()), counted from its arrival; None without a budget."""
        return None if self.time_left_ms is None else self.received_at + self.time_left_ms / 1000


@dataclass(frozen=True)
class BotEvent:
    """A lifecycle message of GET /v1/bots/stream: ``challenge``, ``game_start``, ``deal_over`` or ``game_end``."""
    kind: str
    id: str
    data: dict

    @property
    def game_id(self) -> str:
        return self.data.get("game_id", "")
