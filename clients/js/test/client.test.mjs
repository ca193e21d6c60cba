// node --test clients/js/test/: the SSE reader and concrete(), without a server.
import assert from "node:assert/strict";
import { test } from "node:test";

import { concrete } from "../referee.mjs";
import { messages } from "../sse.mjs";

async function* chunks(...parts) {
  for (const part of parts) yield new TextEncoder().encode(part);
}

test("messages are parsed across chunks; comments and keep-alives are skipped", async () => {
  const got = [];
  const wire = ": bot @me\n\nid: 1-0\nevent: game_start\ndata: {\"game_id\":\"ab\"}\n\n: keep-alive\n\nid: 1-0.ab.3\r\nevent: turn\r\ndata: {\"seq\":3}\r\n\r\n";
  for await (const msg of messages(chunks(wire.slice(0, 20), wire.slice(20, 61), wire.slice(61)))) got.push(msg);
  assert.deepEqual(got, [
    { id: "1-0", event: "game_start", data: "{\"game_id\":\"ab\"}" },
    { id: "1-0.ab.3", event: "turn", data: "{\"seq\":3}" },
  ]);
});

test("concrete drops the annotations and fills a choose entry within its bounds", () => {
  assert.deepEqual(concrete({ seat: 1, action: "pass", effects: [], kinds: [], forbidden_finish: false }), { seat: 1, action: "pass" });
  const entry = { seat: 0, action: "give", cards: ["S3"], choose: { from: ["H4", "H5", "H6"], min: 1, max: 2 }, rule: "seven_pass" };
  for (let i = 0; i < 20; i++) {
    const move = concrete(entry);
    assert.equal(move.cards[0], "S3");
    assert.ok(move.cards.length >= 2 && move.cards.length <= 3);
    assert.equal(new Set(move.cards).size, move.cards.length);
  }
});
