"""Per-game Redis storage: an append-only Stream log plus a snapshot of the latest state.

Every key of one game shares the hash tag ``{game_id}`` so they live on one cluster slot, and every write to a
game is one Lua script over those keys only (never a key of another game):

- ``<prefix>:{<id>}:meta`` hash: ``seq``, ``state`` (the snapshot), token hashes, ``bots``, ``botcfg`` (the
  registered bots' budget settings, JSON), ``over`` (1 when nobody can act: the deal is over), ``miss<seat>``
  (a registered bot seat's fallback moves in a row), ``fallbacks`` (JSON: per registered seat, its fallback
  moves by kind), ``resigned`` (JSON: the seats whose bot resigned), ``deals`` (the match's length, if set),
  ``challenge`` (``pending``, ``accepted`` or ``declined``: a game seating registered bots moves only once every
  one of them accepted, service/challenges.py) and ``chal`` (JSON: each bot's answer, the expiry, who declined and
  why), and while a bot seat owes a move: ``owed`` (= seq), ``owed_at``, ``tries``, and when only registered
  bots owe it: ``deadline`` (epoch seconds) and ``fallback`` (``timeout``, ``away`` or ``resigned`` when the
  deadline was at once);
- ``<prefix>:{<id>}:log`` stream of the applied events, never trimmed: the event with ``seq = s`` has id
  ``(s+1)-0`` (stream ids must be > 0-0);
- ``<prefix>:{<id>}:audit`` stream of rejected proposals, trimmed (``XADD MAXLEN ~``): the k-th proposal
  rejected while the game stood at seq ``s`` has id ``(s+1)-k``, k >= 1, so it sorts right after event ``s``;
- ``<prefix>:{<id>}:idem`` hash and ``…:idemw`` sorted set: the answers given under an ``Idempotency-Key``
  (service/idempotency.py: the token's and the key's digest -> JSON; the set orders them), capped per token of
  the game, each token's oldest dropped first;
- ``<prefix>:{<id>}:snaps`` stream of replay snapshots: the full state after event ``s`` (id ``(s+1)-0``),
  written by the write that carries the game's seq across a multiple of ``snapshot_every``, so the state at
  any seq is the nearest snapshot at or below it plus fewer than ``snapshot_every`` events (``replay_inputs``).

Every write refreshes the TTL of all of them (``game_ttl_s``, or ``game_ttl_over_s`` once the deal is over).
One key outside the games, ``<prefix>:bot-games`` (a sorted set: game id -> ms when registered), lists the
games with bot seats for the reaper (service/reaper.py); a game is added to it *before* its own keys are
written, so no owed bot turn is ever missing from it.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import redis

from .encoded import encode, text_of

BLOCK_STEP_MS = 2000  # well under the client's socket timeout
KEYS_OF_A_GAME = ("meta", "log", "audit", "idem", "idemw", "match", "snaps")  # match: a UECda match's own log (uecda/)

# Shared by the write scripts; KEYS = KEYS_OF_A_GAME of one game (meta, log, audit, idem, idemw, match, snaps).
_LIB = """
local function remember(digest, value, cap)
  if digest == '' then return end
  -- one window per token: members are '<owner>:<n>:<digest>' at score 0, so an owner's answers sort together,
  -- oldest first (n is zero-padded)
  local owner = string.sub(digest, 1, 16)
  local lo, hi = '[' .. owner .. ':', '(' .. owner .. ';'
  redis.call('HSET', KEYS[4], digest, value)
  local n = redis.call('HINCRBY', KEYS[1], 'idemn', 1)
  redis.call('ZADD', KEYS[5], 0, owner .. ':' .. string.format('%015d', n) .. ':' .. digest)
  local extra = redis.call('ZLEXCOUNT', KEYS[5], lo, hi) - tonumber(cap)
  if extra > 0 then
    for _, member in ipairs(redis.call('ZRANGEBYLEX', KEYS[5], lo, hi, 'LIMIT', 0, extra)) do
      redis.call('ZREM', KEYS[5], member)
      redis.call('HDEL', KEYS[4], string.sub(member, 34))
    end
  end
end
local function refresh(over, ttl, ttl_over)
  local t = ttl
  if over == '1' then t = ttl_over end
  for i = 1, #KEYS do redis.call('EXPIRE', KEYS[i], t) end
end
local function snapshot(before, last, state, every)
  local k = tonumber(every)
  if k > 0 and math.floor(last / k) > math.floor(before / k) then
    redis.call('XADD', KEYS[7], (last + 1) .. '-0', 'state', state)
  end
end
-- The bot turn a write leaves owed (service/bot_turns.py builds ``plan``): first the move's own seat's count
-- of fallback moves in a row (+1 for a fallback, 0 for any other move) and of fallbacks by kind, then who owes. A
-- worker seat's turn is played at once by the job the caller enqueues; a turn only registered bots owe gets a
-- deadline, now + the budget, or now itself when one of them resigned or is away (that many fallbacks in a
-- row). Returns the deadline or ''.
local function count_fallback(seat, kind)
  local all = cjson.decode(redis.call('HGET', KEYS[1], 'fallbacks') or '{}')
  local mine = all[tostring(seat)] or {}
  mine[kind] = (mine[kind] or 0) + 1
  all[tostring(seat)] = mine
  redis.call('HSET', KEYS[1], 'fallbacks', cjson.encode(all))
end
local function resigned(seat)
  for _, s in ipairs(cjson.decode(redis.call('HGET', KEYS[1], 'resigned') or '[]')) do
    if s == seat then return true end
  end
  return false
end
local function owe(plan, seq, now)
  local p = cjson.decode(plan)
  if p.miss then
    local field = 'miss' .. p.miss[1]
    if p.miss[2] == 'inc' then redis.call('HINCRBY', KEYS[1], field, 1) else redis.call('HSET', KEYS[1], field, 0) end
    if p.miss[3] then count_fallback(p.miss[1], p.miss[3]) end
  end
  if p.worker then
    redis.call('HSET', KEYS[1], 'owed', seq, 'owed_at', now, 'tries', 0)
    redis.call('HDEL', KEYS[1], 'deadline', 'fallback')
    return ''
  end
  if #p.remote == 0 then
    redis.call('HDEL', KEYS[1], 'owed', 'owed_at', 'tries', 'deadline', 'fallback')
    return ''
  end
  local why, deadline = 'timeout', tonumber(now) + p.budget_ms / 1000
  for _, seat in ipairs(p.remote) do
    local misses = tonumber(redis.call('HGET', KEYS[1], 'miss' .. seat) or '0')
    if resigned(seat) then why, deadline = 'resigned', tonumber(now)
    elseif p.away_after > 0 and misses >= p.away_after and why ~= 'resigned' then why, deadline = 'away', tonumber(now) end
  end
  deadline = string.format('%.3f', deadline)
  redis.call('HSET', KEYS[1], 'owed', seq, 'owed_at', now, 'tries', 0, 'deadline', deadline, 'fallback', why)
  return deadline
end
"""

# ARGV: state, table, seats, bots, plan, over, now, ttl, ttl_over, snapshot_every, bot settings, challenge status
# ('' for none), challenge (JSON), deals ('' for open), n, then n (seq, state) replay snapshots before the last event
# (an imported record's), then (seq, event) pairs. The log starts with game_created (seq 0), as good a start for a
# replay as a snapshot at 0.
_CREATE = _LIB + """
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('game exists') end
local first = 16 + 2 * tonumber(ARGV[15])
for i = 16, first - 1, 2 do
  redis.call('XADD', KEYS[7], (tonumber(ARGV[i]) + 1) .. '-0', 'state', ARGV[i + 1])
end
local last = -1
for i = first, #ARGV, 2 do
  last = tonumber(ARGV[i])
  redis.call('XADD', KEYS[2], (last + 1) .. '-0', 'kind', 'event', 'data', ARGV[i + 1])
end
redis.call('HSET', KEYS[1], 'seq', last, 'state', ARGV[1], 'rk', 0, 'table', ARGV[2], 'seats', ARGV[3],
           'bots', ARGV[4], 'over', ARGV[6], 'botcfg', ARGV[11])
if ARGV[12] ~= '' then redis.call('HSET', KEYS[1], 'challenge', ARGV[12], 'chal', ARGV[13]) end
if ARGV[14] ~= '' then redis.call('HSET', KEYS[1], 'deals', ARGV[14]) end
snapshot(0, last, ARGV[1], ARGV[10])
local deadline = owe(ARGV[5], last, ARGV[7])
refresh(ARGV[6], ARGV[8], ARGV[9])
return {last, deadline}
"""

# ARGV: expected_seq, state, plan (see owe), over, now, ttl, ttl_over, idem digest, idem answer, idem cap, snapshot_every,
# then pairs
_APPEND = _LIB + """
local cur = tonumber(redis.call('HGET', KEYS[1], 'seq'))
if cur == nil then return {-1, -1} end
if ARGV[8] ~= '' then
  local prior = redis.call('HGET', KEYS[4], ARGV[8])
  if prior then return {2, cur, prior} end
end
if cur ~= tonumber(ARGV[1]) then return {0, cur, redis.call('HGET', KEYS[1], 'state')} end
local challenge = redis.call('HGET', KEYS[1], 'challenge')
if challenge and challenge ~= 'accepted' then return {-2, cur, challenge} end
local last = cur
for i = 12, #ARGV, 2 do
  local s = tonumber(ARGV[i])
  if s <= last then return redis.error_reply('event seq ' .. s .. ' after ' .. last) end
  redis.call('XADD', KEYS[2], (s + 1) .. '-0', 'kind', 'event', 'data', ARGV[i + 1])
  last = s
end
redis.call('HSET', KEYS[1], 'seq', last, 'state', ARGV[2], 'rk', 0, 'over', ARGV[4])
snapshot(cur, last, ARGV[2], ARGV[11])
local deadline = owe(ARGV[3], last, ARGV[5])
remember(ARGV[8], ARGV[9], ARGV[10])
refresh(ARGV[4], ARGV[6], ARGV[7])
return {1, last, deadline}
"""

# ARGV: expected_seq, audit entry, audit cap, ttl, ttl_over, idem digest, idem answer, idem cap
_REJECT = _LIB + """
local cur = tonumber(redis.call('HGET', KEYS[1], 'seq'))
if cur == nil then return {-1, -1} end
if ARGV[6] ~= '' then
  local prior = redis.call('HGET', KEYS[4], ARGV[6])
  if prior then return {2, cur, prior} end
end
if cur ~= tonumber(ARGV[1]) then return {0, cur, redis.call('HGET', KEYS[1], 'state')} end
local k = redis.call('HINCRBY', KEYS[1], 'rk', 1)
redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[3], (cur + 1) .. '-' .. k, 'kind', 'rejected', 'data', ARGV[2])
remember(ARGV[6], ARGV[7], ARGV[8])
refresh(redis.call('HGET', KEYS[1], 'over'), ARGV[4], ARGV[5])
return {1, cur}
"""

# KEYS: snaps, log. ARGV: the stream id of the seq asked for. The nearest snapshot at or below it (or false) and
# the log entries after that snapshot (after the start without one) up to it.
_REPLAY_INPUTS = """
local snap = redis.call('XREVRANGE', KEYS[1], ARGV[1], '-', 'COUNT', 1)
if #snap == 0 then return {false, redis.call('XRANGE', KEYS[2], '-', ARGV[1])} end
return {snap[1][2][2], redis.call('XRANGE', KEYS[2], '(' .. snap[1][1], ARGV[1])}
"""

# KEYS: meta. ARGV: seq, tries seen, now. The reaper's compare-and-set before it enqueues retry tries + 1.
_RETRY = """
if redis.call('HGET', KEYS[1], 'seq') ~= ARGV[1] or redis.call('HGET', KEYS[1], 'owed') ~= ARGV[1]
   or redis.call('HGET', KEYS[1], 'tries') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'tries', tonumber(ARGV[2]) + 1, 'owed_at', ARGV[3])
return 1
"""

# KEYS: meta. ARGV: seat, now. A registered bot is back (its stream opened, or it posted a move): its count of
# fallbacks in a row is 0 again, and if the turn owed now was to be played at once because it was away (and no
# job was claimed for it yet), it gets the game's full budget from now instead. Returns '' (it had missed nothing),
# 'back', or the turn's new deadline.
_BACK = """
local field = 'miss' .. ARGV[1]
if tonumber(redis.call('HGET', KEYS[1], field) or '0') == 0 then return '' end
redis.call('HSET', KEYS[1], field, 0)
local m = redis.call('HMGET', KEYS[1], 'seq', 'owed', 'tries', 'fallback', 'botcfg')
if m[2] ~= m[1] or m[3] ~= '0' or m[4] ~= 'away' or not m[5] then return 'back' end
local deadline = string.format('%.3f', tonumber(ARGV[2]) + cjson.decode(m[5]).budget_ms / 1000)
redis.call('HSET', KEYS[1], 'deadline', deadline, 'fallback', 'timeout')
return deadline
"""

# KEYS: the game's keys. ARGV: bot name, answer ('accepted' or 'declined'), reason, now, plan (see owe). A registered
# bot answers the game's challenge (service/challenges.py). Returns {outcome, deadline}: 'waiting' (others still
# to answer), 'accepted' (the last answer: the game starts, its first bot turn owed as ``plan`` says), 'declined',
# 'expired' (too late: the game is declined for every bot), 'answered' (this bot answered already: its answer
# second), 'closed' (the challenge is over: its status second) or 'none' (no challenge, or not for this bot).
_ANSWER = _LIB + """
local status = redis.call('HGET', KEYS[1], 'challenge')
if not status then return {'none'} end
if status ~= 'pending' then return {'closed', status} end
local chal = cjson.decode(redis.call('HGET', KEYS[1], 'chal'))
local mine = chal.bots[ARGV[1]]
if mine == nil then return {'none'} end
local function void(reason, by)
  chal.reason, chal.by = reason, by
  redis.call('HSET', KEYS[1], 'challenge', 'declined', 'chal', cjson.encode(chal), 'over', 1)
  redis.call('HDEL', KEYS[1], 'owed', 'owed_at', 'tries', 'deadline', 'fallback')
  refresh('1', ARGV[6], ARGV[7])
end
if tonumber(ARGV[4]) > tonumber(chal.expires_at) then
  void('expired', '')
  return {'expired'}
end
if mine ~= 'pending' then return {'answered', mine} end
chal.bots[ARGV[1]] = ARGV[2]
if ARGV[2] == 'declined' then
  void(ARGV[3], ARGV[1])
  return {'declined'}
end
for _, answer in pairs(chal.bots) do
  if answer ~= 'accepted' then
    redis.call('HSET', KEYS[1], 'chal', cjson.encode(chal))
    return {'waiting'}
  end
end
redis.call('HSET', KEYS[1], 'challenge', 'accepted', 'chal', cjson.encode(chal))
local seq = redis.call('HGET', KEYS[1], 'seq')
return {'accepted', owe(ARGV[5], seq, ARGV[4])}
"""

# KEYS: meta. ARGV: seat, now, '1' if the seat owes the move now. A registered bot resigns its seat: the fallback
# plays it from now on ('resigned'), the turn it owes now at once unless a job was claimed for it. Returns
# {1, deadline or ''}, {0} when it had resigned already, {-1} for a game gone.
_RESIGN = """
if not redis.call('HGET', KEYS[1], 'seq') then return {-1} end
local seat = tonumber(ARGV[1])
local seats = cjson.decode(redis.call('HGET', KEYS[1], 'resigned') or '[]')
for _, s in ipairs(seats) do if s == seat then return {0} end end
table.insert(seats, seat)
redis.call('HSET', KEYS[1], 'resigned', cjson.encode(seats))
local m = redis.call('HMGET', KEYS[1], 'seq', 'owed', 'tries', 'deadline')
if ARGV[3] == '1' and m[2] == m[1] and m[3] == '0' and m[4] then
  local deadline = string.format('%.3f', tonumber(ARGV[2]))
  redis.call('HSET', KEYS[1], 'deadline', deadline, 'fallback', 'resigned')
  return {1, deadline}
end
return {1, ''}
"""

# KEYS: a sorted set (the reaper's index, the deadlines). ARGV: member, the score read. Removes the member only if
# its score is unchanged: nobody registered it again (or gave it a new deadline) since it was read.
ZREM_IF_SCORE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0
"""


@dataclass
class GameRecord:
    game_id: str
    seq: int
    state: dict
    table_hash: str
    seat_hashes: list[str]
    bots: list[str | None]
    owed: int | None = None       # the seq at which a bot seat owes a move
    tries: int = 0                # retries of that bot turn so far
    deadline: float | None = None  # when registered bots owe it: when the fallback plays it (epoch seconds)
    botcfg: dict | None = None    # the registered bots' budget settings (service/bot_turns.py); None: defaults
    misses: tuple = ()            # per seat, fallback moves in a row (registered bot seats; 0 elsewhere)
    challenge: str | None = None  # pending, accepted or declined; None: no registered bot seat (or an older game)
    chal: dict | None = None      # the challenge: each bot's answer, expires_at, reason, by
    resigned: tuple = ()          # the seats whose registered bot resigned
    fallbacks: dict | None = None  # per registered seat (str), its fallback moves by kind
    deals: int | None = None      # the match's length in deals (None: open)
    idem: dict | None = None      # the stored answer for the Idempotency-Key asked about, if any
    idem_digest: str | None = None  # the key (digest) that was asked about
    parsed: object = None         # the engine state of ``state``, when a cache kept it (service/snapshots.py)
    cached: bool = False          # from the process's cache: maybe stale


@dataclass
class Written:
    status: str                   # "ok", "stale" (the game moved on), "gone", "replayed" (idempotency key known),
                                  # "not_started" (its challenge is pending or declined: ``prior`` says which)
    seq: int
    prior: dict | None = None     # the stored answer when "replayed"
    state: dict | None = None     # the current snapshot when "stale": judge again without another read
    deadline: float | None = None  # "ok": the deadline of the registered bots' turn it left owed


@dataclass
class TurnStatus:
    """What the reaper needs of one indexed game (None fields: the game is gone)."""
    seq: int | None
    owed: int | None
    owed_at: float
    tries: int
    over: bool
    deadline: float | None = None  # only registered bots owe the turn: no job plays it before this


@dataclass
class LogEntry:
    kind: str  # "event" or "rejected"
    stream_id: str
    data: dict


MAX_SEATS = 8
MISS_FIELDS = tuple(f"miss{seat}" for seat in range(MAX_SEATS))


def _plan(plan: dict | None) -> str:
    return json.dumps(plan or {"worker": False, "remote": []})


def entry_id_for_seq(seq: int) -> str:
    return f"{seq + 1}-0"


def _sid(stream_id: str) -> tuple[int, int]:
    ms, _, k = stream_id.partition("-")
    return int(ms), int(k or 0)


class GameStore:
    def __init__(self, conn: redis.Redis, prefix: str = "referee", *, ttl_s: int = 7 * 24 * 3600,
                 ttl_over_s: int = 24 * 3600, audit_max: int = 1000, idempotency_keys: int = 200,
                 snapshot_every: int = 200):
        # a redis.Redis or a redis.cluster.RedisCluster, decode_responses=True: redis-py's annotations know neither
        # that replies are then str nor which of the two it is, so replies are checked where they are read
        self.r: Any = conn
        self.prefix = prefix
        self.ttl_s, self.ttl_over_s = int(ttl_s), int(ttl_over_s)
        self.audit_max, self.idempotency_keys = int(audit_max), int(idempotency_keys)
        self.snapshot_every = int(snapshot_every)  # 0: no replay snapshots
        self._create = conn.register_script(_CREATE)
        self._append = conn.register_script(_APPEND)
        self._reject = conn.register_script(_REJECT)
        self._replay_inputs = conn.register_script(_REPLAY_INPUTS)
        self._retry = conn.register_script(_RETRY)
        self._forget = conn.register_script(ZREM_IF_SCORE)
        self._back = conn.register_script(_BACK)
        self._answer = conn.register_script(_ANSWER)
        self._resign = conn.register_script(_RESIGN)

    @classmethod
    def from_settings(cls, conn, settings) -> "GameStore":
        return cls(conn, settings.key_prefix, ttl_s=settings.game_ttl_s, ttl_over_s=settings.game_ttl_over_s,
                   audit_max=settings.audit_max, idempotency_keys=settings.idempotency_keys,
                   snapshot_every=settings.snapshot_every)

    # --- keys ---------------------------------------------------------------
    def key(self, gid: str, part: str) -> str:
        """One of the game's keys (KEYS_OF_A_GAME): they share the game's TTL, its deletion and its cluster slot."""
        return f"{self.prefix}:{{{gid}}}:{part}"

    def _meta(self, gid: str) -> str:
        return self.key(gid, "meta")

    def _log(self, gid: str) -> str:
        return self.key(gid, "log")

    def keys(self, gid: str) -> list[str]:
        return [self.key(gid, part) for part in KEYS_OF_A_GAME]

    @property
    def index_key(self) -> str:
        return f"{self.prefix}:bot-games"

    # --- writing ------------------------------------------------------------
    def register_bot_game(self, gid: str) -> None:
        """Put a game with bot seats in the reaper's index; call it before the write that may make a bot owe."""
        self.r.zadd(self.index_key, {gid: int(time.time() * 1000)})

    def create(self, gid: str, state: dict, events: list[dict], table_hash: str, seat_hashes: list[str],
               bots: list[str | None], plan: dict | None = None, over: bool = False, snapshots=(),
               botcfg: dict | None = None, challenge: tuple[str, dict] | None = None,
               deals: int | None = None) -> tuple[int, float | None]:
        """Store a new game: its log, its state after the last event, and ``snapshots``, (seq, state) replay
        snapshots before the last event in increasing seq (a record imported whole: see ``snapshot_seqs``);
        ``challenge``: (status, the challenge) of a game seating registered bots; ``deals``: the match's length.
        Returns its seq and the deadline of the registered bots' turn it leaves owed (None: none)."""
        status, chal = challenge or ("", None)
        args: list = [text_of(state), table_hash, json.dumps(seat_hashes), json.dumps(bots), _plan(plan),
                      int(over), time.time(), self.ttl_s, self.ttl_over_s, self.snapshot_every,
                      json.dumps(botcfg or {}), status, json.dumps(chal) if chal else "",
                      "" if deals is None else int(deals), len(snapshots)]
        for seq, snap in snapshots:
            args += [seq, text_of(snap)]
        for ev in events:
            args += [ev["seq"], encode(ev)]
        seq, deadline = self._create(keys=self.keys(gid), args=args)
        return int(seq), float(deadline) if deadline else None

    def snapshot_seqs(self, seqs: list[int]) -> set[int]:
        """Of the seqs of a log written at once, those after which a game written event by event would hold a
        replay snapshot (the first seq at or past each multiple of ``snapshot_every``), the last one aside (the
        write itself keeps the state after it)."""
        k, out, before = self.snapshot_every, set(), 0
        if k > 0:
            for seq in seqs[:-1]:
                if seq // k > before // k:
                    out.add(seq)
                before = seq
        return out

    def load(self, gid: str, idem: str | None = None) -> GameRecord | None:
        """The snapshot (one round trip), with the stored answer for Idempotency-Key digest ``idem`` if given."""
        fields = ("seq", "state", "table", "seats", "bots", "owed", "tries", "deadline", "botcfg", "challenge", "chal",
                  "resigned", "fallbacks", "deals", *MISS_FIELDS)
        if idem:
            pipe = self.r.pipeline(transaction=False)
            pipe.hmget(self._meta(gid), *fields)
            pipe.hget(self.key(gid, "idem"), idem)
            row, prior = pipe.execute()
        else:
            row, prior = self.r.hmget(self._meta(gid), *fields), None
        seq, state, table, seats, bots, owed, tries, deadline, botcfg, challenge, chal, resigned, fallbacks, deals, \
            *misses = row
        if seq is None:
            return None
        return GameRecord(gid, int(seq), json.loads(state), table, json.loads(seats), json.loads(bots),
                          None if owed is None else int(owed), int(tries or 0),
                          None if deadline is None else float(deadline), json.loads(botcfg) if botcfg else None,
                          tuple(int(m or 0) for m in misses), challenge, json.loads(chal) if chal else None,
                          tuple(json.loads(resigned)) if resigned else (), json.loads(fallbacks) if fallbacks else None,
                          None if deals is None else int(deals), None if prior is None else json.loads(prior),
                          idem or None)

    def append(self, gid: str, expected_seq: int, state: dict, events: list[dict], plan: dict | None = None,
               over: bool = False, idem: tuple[str, dict] | None = None) -> Written:
        """Atomically add ``events`` and the new snapshot iff the game still stands at ``expected_seq``.

        ``plan``: the bot turn the new state leaves owed and the move's miss count (service/bot_turns.py; the
        reaper's durable record of the bot turn); ``over``: nobody can act (the shorter TTL applies); ``idem``:
        (key digest, answer) to remember. A ``state`` that is EncodedJSON is stored as its text.
        """
        digest, answer = idem or ("", None)
        args: list = [expected_seq, text_of(state), _plan(plan), int(over), time.time(), self.ttl_s,
                      self.ttl_over_s, digest, json.dumps(answer) if digest else "", self.idempotency_keys,
                      self.snapshot_every]
        for ev in events:
            args += [ev["seq"], encode(ev)]
        return self._written(self._append(keys=self.keys(gid), args=args))

    def reject(self, gid: str, expected_seq: int, audit: dict, idem: tuple[str, dict] | None = None) -> Written:
        """Store a rejected proposal in the (capped) audit stream iff the game still stands at ``expected_seq``."""
        digest, answer = idem or ("", None)
        args: list[str | int] = [expected_seq, json.dumps(audit), self.audit_max, self.ttl_s, self.ttl_over_s,
                digest, json.dumps(answer) if digest else "", self.idempotency_keys]
        return self._written(self._reject(keys=self.keys(gid), args=args))

    @staticmethod
    def _written(reply) -> Written:
        code, seq = int(reply[0]), int(reply[1])
        if code == 1:
            return Written("ok", seq, deadline=float(reply[2]) if len(reply) > 2 and reply[2] else None)
        if code == 2:
            return Written("replayed", seq, json.loads(reply[2]))
        if code == 0:
            return Written("stale", seq, state=json.loads(reply[2]))
        if code == -2:
            return Written("not_started", seq, prior={"challenge": reply[2]})
        return Written("gone", seq)

    def delete(self, gid: str) -> bool:
        gone = bool(self.r.delete(*self.keys(gid)))
        self.r.zrem(self.index_key, gid)
        return gone

    # --- reading the log ----------------------------------------------------
    def entries(self, gid: str, after_seq: int = -1, upto_seq: int | None = None,
                include_rejected: bool = False) -> list[LogEntry]:
        """The events after ``after_seq`` (up to ``upto_seq``); with ``include_rejected``, the audit entries
        still kept, merged in stream-id order (each right after the event it was judged against)."""
        start = f"({entry_id_for_seq(after_seq)}" if after_seq >= 0 else "-"
        end = f"{upto_seq + 1}-0" if upto_seq is not None else "+"
        rows = self.r.xrange(self._log(gid), min=start, max=end)
        out = [LogEntry(f["kind"], sid, json.loads(f["data"])) for sid, f in rows
               if include_rejected or f["kind"] == "event"]  # logs written before the audit stream hold both
        if include_rejected:
            audit = self.r.xrange(self.key(gid, "audit"), min=start, max=end)
            out += [LogEntry(f["kind"], sid, json.loads(f["data"])) for sid, f in audit]
            out.sort(key=lambda e: _sid(e.stream_id))
        return out

    def events(self, gid: str, after_seq: int = -1, upto_seq: int | None = None) -> list[dict]:
        return [e.data for e in self.entries(gid, after_seq, upto_seq)]

    def replay_inputs(self, gid: str, seq: int) -> tuple[dict | None, list[dict]]:
        """What the state after event ``seq`` is folded from, in one round trip: the nearest snapshot at or below
        ``seq`` (None when there is none: a game younger than ``snapshot_every`` events, or stored before the
        snapshots) and the events after it up to ``seq`` (from the log's start without one)."""
        state, rows = self._replay_inputs(keys=[self.key(gid, "snaps"), self._log(gid)], args=[entry_id_for_seq(seq)])
        events = []
        for _, flat in rows:
            fields = dict(zip(flat[::2], flat[1::2]))
            if fields["kind"] == "event":  # logs written before the audit stream hold rejections too
                events.append(json.loads(fields["data"]))
        return (None if state is None else json.loads(state)), events

    def wait_entries(self, gid: str, last_id: str, block_ms: int | None = None) -> list[LogEntry]:
        """Entries after stream id ``last_id``; with ``block_ms``, wait that long for new ones.

        The wait is cut into XREADs of at most BLOCK_STEP_MS: redis-py (>= 8) reads with a 5 s socket timeout
        by default, and a longer BLOCK would end in a TimeoutError instead of an empty answer.
        """
        deadline = None if block_ms is None else time.monotonic() + block_ms / 1000
        while True:
            step = None
            if deadline is not None:
                step = max(1, min(BLOCK_STEP_MS, int((deadline - time.monotonic()) * 1000)))
            res = self.r.xread({self._log(gid): last_id}, block=step, count=100)
            if res or deadline is None or time.monotonic() >= deadline:
                break
        if not res:
            return []
        return [LogEntry(f["kind"], sid, json.loads(f["data"])) for sid, f in res[0][1]]

    def bots_of(self, gids: list[str]) -> dict[str, list[str | None]]:
        """Each game's ``bots`` (a game gone has none), in one round trip."""
        pipe = self.r.pipeline(transaction=False)
        for gid in gids:
            pipe.hget(self._meta(gid), "bots")
        return {gid: json.loads(bots or "[]") for gid, bots in zip(gids, pipe.execute())}

    # --- the reaper's view --------------------------------------------------
    def bot_games(self, batch: int = 200):
        """(game id, registration score) of every indexed game, in batches (ZSCAN: safe while it changes)."""
        yield from self.r.zscan_iter(self.index_key, count=batch)

    def turn_status(self, gids: list[str]) -> list[TurnStatus]:
        pipe = self.r.pipeline(transaction=False)
        for gid in gids:
            pipe.hmget(self._meta(gid), "seq", "owed", "owed_at", "tries", "over", "deadline")
        out = []
        for seq, owed, owed_at, tries, over, deadline in pipe.execute():
            out.append(TurnStatus(None if seq is None else int(seq), None if owed is None else int(owed),
                                  float(owed_at or 0), int(tries or 0), over == "1",
                                  None if deadline is None else float(deadline)))
        return out

    def claim_retry(self, gid: str, seq: int, tries: int) -> bool:
        """True for exactly one caller: the turn owed at ``seq`` after ``tries`` retries now has ``tries + 1``."""
        return bool(self._retry(keys=[self._meta(gid)], args=[seq, tries, time.time()]))

    def bot_back(self, gid: str, seat: int) -> tuple[bool, float | None]:
        """A registered bot seat's bot is back: its misses are 0 again. Returns (they were not 0, the owed turn's
        new deadline when it was to be played at once because the seat was away)."""
        reply = self._back(keys=[self._meta(gid)], args=[seat, time.time()])
        return bool(reply), (float(reply) if reply and reply != "back" else None)

    def answer_challenge(self, gid: str, name: str, answer: str, reason: str, plan: dict) -> tuple[str, str]:
        """The bot ``name`` accepts or declines the game's challenge (``_ANSWER``): (outcome, detail: the deadline of
        the first registered bots' turn when the game starts now, or the answer or status found)."""
        reply = self._answer(keys=self.keys(gid), args=[name, answer, reason, time.time(), _plan(plan), self.ttl_s,
                                                         self.ttl_over_s])
        return reply[0], (reply[1] if len(reply) > 1 else "") or ""

    def resign(self, gid: str, seat: int, owes_now: bool) -> tuple[int, float | None]:
        """Mark ``seat`` resigned (``_RESIGN``): (1 done, 0 already, -1 gone; the owed turn's deadline, now)."""
        reply = self._resign(keys=[self._meta(gid)], args=[seat, time.time(), int(owes_now)])
        done = int(reply[0])
        return done, float(reply[1]) if done == 1 and reply[1] else None

    def progress(self, gids: list[str]) -> list[dict | None]:
        """What a bot's listing needs of each game, in one round trip (None: the game is gone)."""
        pipe = self.r.pipeline(transaction=False)
        for gid in gids:
            pipe.hmget(self._meta(gid), "seq", "over", "challenge", "chal", "resigned", "bots", "deals")
        out: list[dict | None] = []
        for seq, over, challenge, chal, resigned, bots, deals in pipe.execute():
            out.append(None if seq is None else
                       {"seq": int(seq), "over": over == "1", "challenge": challenge,
                        "chal": json.loads(chal) if chal else None, "resigned": json.loads(resigned or "[]"),
                        "bots": json.loads(bots or "[]"), "deals": None if deals is None else int(deals)})
        return out

    def deal_moves(self, gid: str, batch: int = 256) -> list[dict]:
        """The events of the current deal (from its deal_started or game_created event), newest first."""
        out: list[dict] = []
        end = "+"
        while True:
            rows = self.r.xrevrange(self._log(gid), max=end, min="-", count=batch)
            for _, fields in rows:
                if fields.get("kind") != "event":
                    continue
                event = json.loads(fields["data"])
                out.append(event)
                if event.get("type") in ("deal_started", "game_created"):
                    return out
            if len(rows) < batch:
                return out
            end = f"({rows[-1][0]}"

    def forget(self, gid: str, score) -> bool:
        """Drop a gone or finished game from the index unless it was registered again since ``score``."""
        return bool(self._forget(keys=[self.index_key], args=[gid, score]))

    def ping(self) -> bool:
        return bool(self.r.ping())
