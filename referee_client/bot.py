"""run_bot and arun_bot: play every game a registered bot is seated in, side by side, as lichess-bot does.

Each game gets its own worker (a thread; a task for ``arun_bot``), so a slow policy call in one game delays no
other. A turn's clock starts when it arrives (``Turn.deadline()``: its ``time_left_ms`` from then); a worker always
answers the newest turn of its game. What the bot should know but cannot see in its answers is reported through
``on_report`` and the ``referee_client`` log: an answer sent after its time ran out (``late``), one the fallback
beat (``stale_seq``), moves the fallback played in a finished deal (``fallback``), a policy that failed or chose an
illegal move (``policy_error``, ``illegal``: the first legal move is sent instead), the challenges answered
(``challenge``) and other refusals (``error``).
"""
from __future__ import annotations

import asyncio
import inspect
import logging
import random
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Awaitable, Callable, Union

from .client import Referee
from .errors import RefereeError
from .models import BotEvent, Turn

log = logging.getLogger("referee_client")
Policy = Callable[[Turn], Union[dict, Awaitable[dict]]]
IDLE_S = 120.0  # a game's worker thread ends after this long without a turn (a new turn starts another)


@dataclass(frozen=True)
class Report:
    """Something the bot should know: ``kind`` (late, stale_seq, fallback, policy_error, illegal, challenge,
    error), the game, the turn's seq when there is one, and what happened in words."""
    kind: str
    game_id: str
    seq: int | None
    detail: str


def concrete(entry: dict, rng: random.Random | None = None) -> dict:
    """A move the referee accepts from a legal-moves entry: a ``choose`` entry gets a valid random choice."""
    if "choose" not in entry:
        return {k: v for k, v in entry.items() if k not in ("effects", "kinds", "forbidden_finish")}
    c, rng = entry["choose"], rng or random.Random(0)
    limit = c.get("limit") or {"cards": [], "max": 0}
    capped, room, want = set(limit["cards"]), limit["max"], rng.randint(c["min"], c["max"])
    chosen: list[str] = []
    for card in rng.sample(c["from"], len(c["from"])):
        if len(chosen) == want:
            break
        if card in capped:
            if room == 0:
                continue
            room -= 1
        chosen.append(card)
    return {"seat": entry["seat"], "action": entry["action"], "cards": list(entry.get("cards", [])) + chosen}


def first_legal(turn: Turn) -> dict:
    """The simplest policy: the first legal move served."""
    return concrete(turn.legal_moves.moves[0])


class _Bot:
    """What both runners share: answering one turn, answering a challenge, reading a deal's end."""

    def __init__(self, ref: Referee, token: str, policy: Policy, on_report, accept):
        self.ref, self.token, self.policy = ref, token, policy
        self.on_report, self.accept = on_report, accept
        self._local = threading.local()  # one HTTP session per thread: requests' sessions are not shared safely

    def client(self) -> Referee:
        if not hasattr(self._local, "ref"):
            self._local.ref = Referee(self.ref.base, timeout=self.ref.timeout, retries=self.ref.retries,
                                      backoff=self.ref.backoff)
        return self._local.ref

    def report(self, kind: str, game_id: str, seq: int | None, detail: str) -> None:
        (log.info if kind == "challenge" else log.warning)("%s %s%s: %s", kind, game_id,
                                                          "" if seq is None else f".{seq}", detail)
        if self.on_report is not None:
            try:
                self.on_report(Report(kind, game_id, seq, detail))
            except Exception:  # noqa: BLE001 - a failing callback must not stop the bot
                log.exception("on_report failed")

    def choose(self, turn: Turn) -> dict:
        try:
            return self.policy(turn)  # type: ignore[return-value]  # a plain policy here
        except Exception as exc:  # noqa: BLE001 - a broken policy must not lose the game: fall back
            self.report("policy_error", turn.game_id, turn.seq, f"{type(exc).__name__}: {exc}; the first legal move")
            return first_legal(turn)

    def send(self, turn: Turn, move: dict) -> None:
        """Answer ``turn`` with ``move`` (the first legal move if it is illegal), reporting what went wrong."""
        deadline = turn.deadline()
        if deadline is not None and time.monotonic() > deadline:
            self.report("late", turn.game_id, turn.seq, f"the policy took {time.monotonic() - turn.received_at:.2f} s "
                        f"of {turn.time_left_ms} ms; sending anyway")
        try:
            judged = _send(self.client(), self.token, turn, move, f"turn-{turn.key}", deadline)
            if not judged.verdict.legal:
                self.report("illegal", turn.game_id, turn.seq, f"{judged.verdict.message}; the first legal move")
                _send(self.client(), self.token, turn, first_legal(turn), f"turn-{turn.key}-fallback", deadline)
        except RefereeError as exc:
            if exc.code == "stale_seq":
                self.report("stale_seq", turn.game_id, turn.seq, "the answer came after the game moved on (the "
                            "fallback played the turn when its time ran out)")
            elif exc.code not in ("unknown_game", "resigned"):  # a game gone or given up owes nothing
                self.report("error", turn.game_id, turn.seq, str(exc))

    def challenge(self, event: BotEvent) -> None:
        """Answer a challenge the server left to the bot: ``accept(challenge)`` says True, False or a reason."""
        verdict = True if self.accept is None else self.accept(event.data)
        try:
            if verdict is True:
                self.client().accept_challenge(self.token, event.game_id)
            else:
                self.client().decline_challenge(self.token, event.game_id, verdict if isinstance(verdict, str) else "generic")
            self.report("challenge", event.game_id, None, "accepted" if verdict is True else f"declined ({verdict})")
        except RefereeError as exc:
            if exc.code not in ("challenge_not_pending", "unknown_challenge"):  # answered already, or gone
                self.report("error", event.game_id, None, f"answering the challenge: {exc}")

    def deal_over(self, event: BotEvent) -> None:
        missed = {kind: n for kind, n in (event.data.get("fallbacks") or {}).items() if n}
        if missed:
            counts = ", ".join(f"{n} {kind}" for kind, n in missed.items())
            self.report("fallback", event.game_id, None, f"deal {event.data.get('deal')}: the fallback played {counts}")


def _send(ref: Referee, token: str, turn: Turn, move: dict, key: str, deadline: float | None):
    """Answer ``turn`` under ``key``; a key this token already used for another answer (a restarted bot whose
    policy chose otherwise) is retried once under a fresh key: ``expected_seq`` still makes it apply at most once."""
    try:
        return ref.move(turn.game_id, token, move, expected_seq=turn.seq, idempotency_key=key, give_up_at=deadline)
    except RefereeError as exc:
        if exc.code != "idempotency_key_reused":
            raise
        log.info("%s: key %s was used for another answer; sending under a fresh key", turn.id, key)
        return ref.move(turn.game_id, token, move, expected_seq=turn.seq, idempotency_key=f"{key}-{uuid.uuid4().hex}",
                        give_up_at=deadline)


class _GameWorker(threading.Thread):
    """One game's turns, answered one after another on a thread of its own; only the newest waiting turn counts."""

    def __init__(self, bot: _Bot, game_id: str):
        super().__init__(name=f"game-{game_id[:8]}", daemon=True)
        self.bot, self.game_id = bot, game_id
        self._cond = threading.Condition()
        self._next: Turn | None = None
        self._done = False

    def offer(self, turn: Turn) -> bool:
        """Queue ``turn`` (replacing an older one not started yet); False once this worker has ended."""
        with self._cond:
            if self._done:
                return False
            if self._next is None or turn.seq >= self._next.seq:
                self._next = turn
            self._cond.notify()
            return True

    def finish(self) -> None:
        with self._cond:
            self._done = True
            self._cond.notify()

    def run(self) -> None:
        while True:
            with self._cond:
                if self._next is None and not self._done:
                    self._cond.wait(IDLE_S)
                turn, self._next = self._next, None
                if turn is None:
                    self._done = True
                    return
            self.bot.send(turn, self.bot.choose(turn))


def run_bot(token: str, policy: Policy = first_legal, base_url: str = "http://127.0.0.1:8000",
            client: Referee | None = None, should_stop=lambda: False, on_report: Callable[[Report], None] | None = None,
            accept: Callable[[dict], bool | str] | None = None) -> None:
    """Play every turn the bot owes, in every game, each game on a thread of its own, until ``should_stop()``.

    Each answer is sent with ``expected_seq`` and an Idempotency-Key naming the turn, so a retried or repeated
    answer applies at most once. A policy that fails or picks an illegal move is covered by the first legal move.
    ``accept(challenge)`` answers the challenges the bot's standing policy leaves to it (``"mode": "manual"``):
    True accepts, False or a reason (``later``, ``preset``…) declines; without it every such challenge is accepted.
    ``on_report(Report)`` hears what went wrong (the module's docstring)."""
    ref = client or Referee(base_url)
    bot = _Bot(ref, token, policy, on_report, accept)
    workers: dict[str, _GameWorker] = {}
    for msg in ref.bot_stream(token, should_stop=should_stop):
        if isinstance(msg, Turn):
            worker = workers.get(msg.game_id)
            if worker is None or not worker.offer(msg):
                worker = workers[msg.game_id] = _GameWorker(bot, msg.game_id)
                worker.offer(msg)
                worker.start()
        elif msg.kind == "challenge":
            threading.Thread(target=bot.challenge, args=(msg,), daemon=True).start()
        elif msg.kind == "deal_over":
            bot.deal_over(msg)
        elif msg.kind == "game_end" and msg.game_id in workers:
            workers.pop(msg.game_id).finish()
        if should_stop():
            break
    for worker in workers.values():
        worker.finish()


async def arun_bot(token: str, policy: Policy = first_legal, base_url: str = "http://127.0.0.1:8000",
                   client: Referee | None = None, should_stop=lambda: False,
                   on_report: Callable[[Report], None] | None = None,
                   accept: Callable[[dict], bool | str] | None = None) -> None:
    """``run_bot`` on asyncio: a task per game. ``policy`` may be a coroutine function (awaited on the loop) or a
    plain function (run in a worker thread, so a slow one holds up no other game); the HTTP calls run in threads."""
    ref = client or Referee(base_url)
    bot = _Bot(ref, token, policy, on_report, accept)
    loop = asyncio.get_running_loop()
    inbox: asyncio.Queue = asyncio.Queue()
    stopped = threading.Event()

    def pump() -> None:  # the stream is read by requests, on a thread of its own
        try:
            for msg in ref.bot_stream(token, should_stop=lambda: stopped.is_set() or should_stop()):
                loop.call_soon_threadsafe(inbox.put_nowait, msg)
            loop.call_soon_threadsafe(inbox.put_nowait, None)
        except RuntimeError:  # the loop closed: arun_bot has returned
            pass

    async def play(game_id: str) -> None:
        while (turn := newest.pop(game_id, None)) is not None:
            if inspect.iscoroutinefunction(policy):
                try:
                    move = await policy(turn)
                except Exception as exc:  # noqa: BLE001 - as the plain policy: the first legal move
                    bot.report("policy_error", turn.game_id, turn.seq, f"{type(exc).__name__}: {exc}")
                    move = first_legal(turn)
            else:
                move = await asyncio.to_thread(bot.choose, turn)
            await asyncio.to_thread(bot.send, turn, move)

    newest: dict[str, Turn] = {}
    tasks: dict[str, asyncio.Task] = {}
    reader = threading.Thread(target=pump, name="bot-stream", daemon=True)
    reader.start()
    try:
        while not should_stop():
            try:
                msg = await asyncio.wait_for(inbox.get(), timeout=1.0)
            except asyncio.TimeoutError:
                continue
            if msg is None:
                break
            if isinstance(msg, Turn):
                newest[msg.game_id] = msg
                if msg.game_id not in tasks or tasks[msg.game_id].done():
                    tasks[msg.game_id] = asyncio.create_task(play(msg.game_id))
            elif msg.kind == "challenge":
                asyncio.create_task(asyncio.to_thread(bot.challenge, msg))
            elif msg.kind == "deal_over":
                bot.deal_over(msg)
    finally:
        stopped.set()
        await asyncio.gather(*tasks.values(), return_exceptions=True)
