// A small client for the Daifugō referee (written against openapi.yaml): plain ES modules for Node 20, no
// dependencies. `Referee` makes the calls; `runBot` plays a registered bot's games side by side.
//
//   import { Referee, runBot, concrete } from "./referee.mjs";
import { messages } from "./sse.mjs";

const RETRIED = new Set([429, 502, 503, 504]); // the same request may succeed shortly
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** An error answer of the referee: its HTTP status and the stable `code` of its JSON body. */
export class RefereeError extends Error {
  constructor(status, code, message) {
    super(`${status} ${code}: ${message}`);
    Object.assign(this, { status, code, detail: message });
  }
}

async function errorOf(resp) {
  try {
    const { error } = await resp.json();
    return new RefereeError(resp.status, error.code, error.message);
  } catch {
    return new RefereeError(resp.status, "http_error", resp.statusText);
  }
}

export class Referee {
  constructor(baseUrl = "http://127.0.0.1:8000", { retries = 4, backoffMs = 500 } = {}) {
    this.base = baseUrl.replace(/\/$/, "");
    Object.assign(this, { retries, backoffMs });
  }

  /** One call; 429/502/503/504 and lost connections are retried (after Retry-After), never past `giveUpAt`. */
  async call(method, path, { token, body, headers = {}, ok = [200, 201, 204], giveUpAt } = {}) {
    const sent = { ...headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) };
    if (body !== undefined) sent["Content-Type"] = "application/json";
    for (let attempt = 0; ; attempt++) {
      let resp;
      try {
        resp = await fetch(this.base + path, { method, headers: sent, body: body === undefined ? undefined : JSON.stringify(body) });
      } catch (err) {
        if (attempt >= this.retries) throw err;
        await sleep(this.backoffMs * 2 ** attempt);
        continue;
      }
      const pause = Number(resp.headers.get("Retry-After")) * 1000 || this.backoffMs * 2 ** attempt;
      if (RETRIED.has(resp.status) && attempt < this.retries && (giveUpAt === undefined || performance.now() + pause < giveUpAt)) {
        await sleep(pause);
        continue;
      }
      if (!ok.includes(resp.status)) throw await errorOf(resp);
      return resp.status === 204 ? null : resp.json();
    }
  }

  // --- games
  createGame(players, { preset = "uecda", ...extra } = {}) {
    const seats = players.map((p) => (typeof p === "string" ? { name: p } : p));
    return this.call("POST", "/v1/games", { body: { preset, players: seats, ...extra } });
  }
  state(gameId, token) { return this.call("GET", `/v1/games/${gameId}`, { token }); }
  legalMoves(gameId, token, seat) {
    return this.call("GET", `/v1/games/${gameId}/legal-moves${seat === undefined ? "" : `?seat=${seat}`}`, { token });
  }
  events(gameId, token, after = -1) { return this.call("GET", `/v1/games/${gameId}/events?after=${after}`, { token }); }
  /** Propose a move; a 422 (illegal) is an answer: see `verdict.legal`. Retries reuse one Idempotency-Key. */
  move(gameId, token, move, { expectedSeq, idempotencyKey = crypto.randomUUID(), giveUpAt } = {}) {
    const body = expectedSeq === undefined ? move : { ...move, expected_seq: expectedSeq };
    return this.call("POST", `/v1/games/${gameId}/moves`, { token, body, ok: [200, 422], giveUpAt,
      headers: { "Idempotency-Key": idempotencyKey } });
  }

  // --- bots
  registerBot(name) { return this.call("POST", "/v1/bots", { body: { name }, ok: [201] }); }
  bots({ limit = 50, recent = 10, sort = "recent" } = {}) { return this.call("GET", `/v1/bots?limit=${limit}&recent=${recent}&sort=${sort}`); }
  leaderboard(limit = 50) { return this.call("GET", `/v1/bots/leaderboard?limit=${limit}`); }
  me(token) { return this.call("GET", "/v1/bots/me", { token }); }
  setPolicy(token, policy) { return this.call("PUT", "/v1/bots/policy", { token, body: policy }); }
  acceptChallenge(token, gameId) { return this.call("POST", `/v1/bots/challenges/${gameId}/accept`, { token }); }
  declineChallenge(token, gameId, reason = "generic") {
    return this.call("POST", `/v1/bots/challenges/${gameId}/decline`, { token, body: { reason } });
  }
  resign(token, gameId) { return this.call("POST", `/v1/bots/games/${gameId}/resign`, { token }); }
  rotateToken(token) { return this.call("POST", "/v1/bots/token", { token, ok: [201] }); }
  revokeToken(token) { return this.call("DELETE", "/v1/bots/token", { token }); }
  deleteBot(token) { return this.call("DELETE", "/v1/bots/me", { token }); }

  /** Every message of the bot's stream, for ever: {event, id, data} (data parsed; a turn gets `receivedAt`),
   * reconnecting with Last-Event-ID whenever it ends, until `signal` aborts. */
  async *botStream(token, { signal } = {}) {
    let last = null;
    let delay = 1000;
    while (!signal?.aborted) {
      try {
        const headers = { Authorization: `Bearer ${token}`, Accept: "text/event-stream", ...(last ? { "Last-Event-ID": last } : {}) };
        const resp = await fetch(`${this.base}/v1/bots/stream`, { headers, signal });
        if ([401, 403, 404].includes(resp.status)) throw await errorOf(resp); // a wrong token does not get better
        if (resp.status === 400 && last) { last = null; continue; } // an id it no longer knows: start afresh
        if (resp.ok) {
          delay = 1000;
          for await (const msg of messages(resp.body)) {
            if (msg.id !== null) last = msg.id;
            const data = JSON.parse(msg.data);
            if (msg.event === "turn") data.receivedAt = performance.now();
            yield { event: msg.event, id: msg.id, data };
          }
        }
      } catch (err) {
        if (err instanceof RefereeError) throw err;
        if (signal?.aborted) return;
      }
      await sleep(delay);
      delay = Math.min(30000, delay * 2);
    }
  }
}

/** A move the referee accepts from a legal-moves entry: a `choose` entry gets a valid random choice. */
export function concrete(entry) {
  if (!entry.choose) {
    const { effects, kinds, forbidden_finish: ff, ...move } = entry;
    return move;
  }
  const { from, min, max, limit = { cards: [], max: 0 } } = entry.choose;
  const want = min + Math.floor(Math.random() * (max - min + 1));
  const capped = new Set(limit.cards);
  let room = limit.max;
  const chosen = [];
  for (const card of [...from].sort(() => Math.random() - 0.5)) {
    if (chosen.length === want) break;
    if (capped.has(card)) {
      if (room === 0) continue;
      room -= 1;
    }
    chosen.push(card);
  }
  return { seat: entry.seat, action: entry.action, cards: [...(entry.cards ?? []), ...chosen] };
}

export const firstLegal = (turn) => concrete(turn.legal_moves.moves[0]);

/** Play every turn the bot owes, each game on its own chain (a slow async policy in one game delays no other),
 * answering the newest turn of each game with `expected_seq` and an Idempotency-Key naming the turn. A policy that
 * throws or picks an illegal move is covered by the first legal move. `accept(challenge)` answers the challenges
 * its standing policy leaves to it (true, false or a reason; default: accept). `onReport({kind, gameId, seq,
 * detail})` hears of late answers, stale_seq, fallbacks, policy errors, illegal moves; `onEvent` sees every
 * lifecycle message. Runs until `signal` aborts. */
export async function runBot(ref, token, policy = firstLegal, { onReport = () => {}, onEvent = () => {}, accept, signal } = {}) {
  const games = new Map(); // game id -> {next: the newest turn waiting, busy: a chain is running}
  const report = (kind, gameId, seq, detail) => onReport({ kind, gameId, seq, detail });

  async function answer(turn) {
    const deadline = turn.receivedAt + (turn.time_left_ms ?? Infinity);
    let move;
    try {
      move = await policy(turn);
    } catch (err) {
      report("policy_error", turn.game_id, turn.seq, String(err));
      move = firstLegal(turn);
    }
    if (performance.now() > deadline) report("late", turn.game_id, turn.seq, `sent after its ${turn.time_left_ms} ms`);
    const key = `turn-${turn.game_id}.${turn.seq}`;
    try {
      const judged = await ref.move(turn.game_id, token, move, { expectedSeq: turn.seq, idempotencyKey: key, giveUpAt: deadline });
      if (!judged.verdict.legal) {
        report("illegal", turn.game_id, turn.seq, judged.verdict.message);
        await ref.move(turn.game_id, token, firstLegal(turn), { expectedSeq: turn.seq, idempotencyKey: `${key}-fallback`, giveUpAt: deadline });
      }
    } catch (err) {
      if (err.code === "stale_seq") report("stale_seq", turn.game_id, turn.seq, "the fallback played the turn first");
      else if (!["unknown_game", "resigned"].includes(err.code)) report("error", turn.game_id, turn.seq, String(err));
    }
  }

  async function play(gameId) {
    const game = games.get(gameId);
    game.busy = true;
    while (game.next) {
      const turn = game.next;
      game.next = null;
      await answer(turn);
    }
    game.busy = false;
  }

  async function challenge(data) {
    const verdict = accept ? await accept(data) : true;
    try {
      if (verdict === true) await ref.acceptChallenge(token, data.id);
      else await ref.declineChallenge(token, data.id, typeof verdict === "string" ? verdict : "generic");
    } catch (err) {
      if (!["challenge_not_pending", "unknown_challenge"].includes(err.code)) report("error", data.id, null, String(err));
    }
  }

  for await (const { event, data } of ref.botStream(token, { signal })) {
    if (event === "turn") {
      const game = games.get(data.game_id) ?? { next: null, busy: false };
      games.set(data.game_id, game);
      if (!game.next || data.seq >= game.next.seq) game.next = data;
      if (!game.busy) play(data.game_id);
      continue;
    }
    onEvent({ event, data });
    if (event === "challenge") challenge(data);
    if (event === "deal_over" && Object.values(data.fallbacks).some((n) => n > 0)) {
      report("fallback", data.game_id, null, `deal ${data.deal}: ${JSON.stringify(data.fallbacks)}`);
    }
    if (event === "game_end" && !games.get(data.game_id)?.busy) games.delete(data.game_id);
  }
}
