// The Daifugō referee's page: create, watch, play, replay and judge games through the public /v1 API.
// Plain JS, no build step. Tokens live in the URL fragment (#table&game=ID&token=TOK) and in localStorage.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const S = {
  lang: localStorage.getItem("daifugo.lang") || "en",
  catalog: null, bots: ["random"],
  game: null,          // {id, token, viewer: "table" | seat number}
  state: null, seq: -1, legal: null, actAs: null,
  selected: new Set(), chosen: null, ticked: new Set(),
  log: [], streamGen: 0, streamAbort: null, refreshing: false, dirty: false,
  replay: { events: [], seq: 0, timer: null },
};

// ---------------------------------------------------------------- i18n
function t(key, vars = {}) {
  const s = (I18N[S.lang] && I18N[S.lang][key]) || I18N.en[key] || key;
  return s.replace(/\{(\w+)\}/g, (_, k) => (vars[k] !== undefined ? vars[k] : ""));
}
function applyLang() {
  document.documentElement.lang = S.lang;
  $$("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  $("#lang").textContent = S.lang === "en" ? "日本語" : "English";
  if (S.catalog) renderRules();
  if (S.state) renderGame();
  if (S.replay.state) renderReplayState();
}

// ---------------------------------------------------------------- API
async function api(path, { method = "GET", token, body, text = false } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  if (text) data = await r.text();
  else { try { data = await r.json(); } catch (e) { data = null; } }
  return { status: r.status, ok: r.ok, data, headers: r.headers };
}
function errText(res) {
  const e = res.data && res.data.error;
  return e ? `${e.code}: ${e.message}` : `HTTP ${res.status}`;
}

// ---------------------------------------------------------------- storage and routing
function known() { try { return JSON.parse(localStorage.getItem("daifugo.games") || "{}"); } catch (e) { return {}; } }
function remember(id, info) {
  const all = known();
  all[id] = Object.assign(all[id] || {}, info, { at: Date.now() });
  localStorage.setItem("daifugo.games", JSON.stringify(all));
}
function parseHash() {
  const parts = location.hash.replace(/^#/, "").split("&");
  const out = { view: parts[0] || "" };
  for (const p of parts.slice(1)) {
    const i = p.indexOf("=");
    if (i > 0) out[decodeURIComponent(p.slice(0, i))] = decodeURIComponent(p.slice(i + 1));
  }
  return out;
}
function link(view, id, token) {
  return `#${view}&game=${encodeURIComponent(id)}&token=${encodeURIComponent(token)}`;
}
function go(view, id, token) { location.hash = id ? link(view, id, token) : `#${view}`; }

async function route() {
  const h = parseHash();
  let view = ["new", "table", "replay", "judge"].includes(h.view) ? h.view : "new";
  if (h.game && h.token) {
    localStorage.setItem("daifugo.last", JSON.stringify({ game: h.game, token: h.token }));
    if (!S.game || S.game.id !== h.game || S.game.token !== h.token) await openGame(h.game, h.token);
  } else if ((view === "table" || view === "replay") && !S.game) {
    const last = JSON.parse(localStorage.getItem("daifugo.last") || "null");
    if (last) { go(view, last.game, last.token); return; }
    view = "new";
  }
  $$(".view").forEach((v) => { v.hidden = v.id !== `view-${view}`; });
  $$("nav a").forEach((a) => {
    a.classList.toggle("active", a.dataset.nav === view);
    if (S.game && (a.dataset.nav === "table" || a.dataset.nav === "replay")) a.href = link(a.dataset.nav, S.game.id, S.game.token);
  });
  if (view === "replay") await loadReplay();
  else stopAutoplay();
  if (view === "new") renderKnown();
}

// ---------------------------------------------------------------- cards
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
function cardEl(code, cls = "") {
  const el = document.createElement("span");
  el.className = `card ${cls}`;
  el.dataset.card = code;
  if (code.startsWith("JK")) { el.classList.add("joker"); el.innerHTML = `<b>JK</b><i>★</i>`; }
  else {
    const r = code[1] === "T" ? "10" : code.slice(1);
    el.classList.add(code[0] === "H" || code[0] === "D" ? "red" : "black");
    el.innerHTML = `<b>${r}</b><i>${SUITS[code[0]] || code[0]}</i>`;
  }
  el.title = code;
  return el;
}
function cardsText(cards) {
  if (typeof cards === "number") return `${cards} ${t("hidden")}`;
  return (cards || []).map((c) => (c.startsWith("JK") ? c : (SUITS[c[0]] || c[0]) + (c[1] === "T" ? "10" : c.slice(1)))).join(" ");
}
function ruleName(id) {
  const r = S.catalog && S.catalog.rules.find((x) => x.id === id);
  return r ? `${r.name_ja} (${id})` : id;
}
function ruleChip(id) {
  const el = document.createElement("span");
  el.className = "chip";
  const r = S.catalog && S.catalog.rules.find((x) => x.id === id);
  el.textContent = r ? r.name_ja : id;
  el.title = r ? `${id}: ${r.description}` : id;
  return el;
}

// ---------------------------------------------------------------- create
async function loadCatalog() {
  const [cat, cfg] = await Promise.all([api("/v1/rules"), api("/web/config.json")]);
  S.catalog = cat.data;
  if (cfg.ok && cfg.data && cfg.data.bots) S.bots = cfg.data.bots;
  for (const sel of [$("#preset"), $("#judge-preset")]) {
    sel.innerHTML = "";
    for (const p of Object.keys(S.catalog.presets)) sel.add(new Option(p, p));
  }
  $("#preset").value = Object.keys(S.catalog.presets).includes("nanko") ? "nanko" : $("#preset").value;
  renderRules();
  for (let i = 0; i < 4; i++) addSeat(i === 0 ? "you" : `bot${i}`, i === 0 ? "" : "random");
}
function presetRules() { return S.catalog.presets[$("#preset").value] || {}; }
function renderRules() {
  const box = $("#rules");
  const keep = {};
  $$("input[data-rule]", box).forEach((c) => { if (c.dataset.touched) keep[c.dataset.rule] = c.checked; });
  box.innerHTML = "";
  const pr = presetRules();
  for (const r of S.catalog.rules) {
    const on = pr[r.id] !== false && pr[r.id] !== undefined;
    const row = document.createElement("label");
    row.className = "rule";
    row.innerHTML = `<input type="checkbox" data-rule="${r.id}"> <span class="ja">${r.name_ja}</span> <code>${r.id}</code>` +
      `${r.declarable ? ' <span class="tag">宣言</span>' : ""}<small>${escapeHtml(r.description)}</small>`;
    const cb = $("input", row);
    cb.checked = r.id in keep ? keep[r.id] : on;
    if (r.id in keep) cb.dataset.touched = "1";
    cb.addEventListener("change", () => { cb.dataset.touched = "1"; });
    box.appendChild(row);
  }
}
function addSeat(name, bot) {
  const box = $("#seats");
  const n = box.children.length;
  if (n >= 8) return;
  const row = document.createElement("div");
  row.className = "seatrow";
  row.innerHTML = `<span class="seatno">${n}</span><input class="seat-name" value="${escapeHtml(name || `p${n}`)}" maxlength="64">` +
    `<select class="seat-kind"><option value="">${t("human")}</option>` +
    S.bots.map((b) => `<option value="${b}">${t("bot")}: ${b}</option>`).join("") + `</select>`;
  $(".seat-kind", row).value = bot || "";
  box.appendChild(row);
  syncLeader();
}
function syncLeader() {
  const table = $("#table-mode").checked;
  $("#leader-wrap").hidden = !table;
  $$(".seat-kind").forEach((s) => { s.disabled = table; });
  const sel = $("#leader");
  const v = sel.value;
  sel.innerHTML = "";
  $$(".seatrow").forEach((_, i) => sel.add(new Option(`${t("seat")} ${i}`, String(i))));
  if (v && Number(v) < sel.options.length) sel.value = v;
}
async function createGame(ev) {
  ev.preventDefault();
  $("#create-error").textContent = "";
  const table = $("#table-mode").checked;
  const players = $$(".seatrow").map((row) => {
    const p = { name: $(".seat-name", row).value.trim() || "?" };
    const bot = $(".seat-kind", row).value;
    if (bot && !table) p.bot = bot;
    return p;
  });
  const body = { preset: $("#preset").value, players };
  const seed = $("#seed").value.trim();
  if (seed) body.seed = Number(seed);
  const pr = presetRules();
  const overrides = {};
  $$("input[data-rule]").forEach((c) => {
    const on = pr[c.dataset.rule] !== false && pr[c.dataset.rule] !== undefined;
    if (c.checked !== on) overrides[c.dataset.rule] = c.checked;
  });
  const adv = $("#rules-json").value.trim();
  if (adv) {
    try { Object.assign(overrides, JSON.parse(adv)); } catch (e) { $("#create-error").textContent = `JSON: ${e.message}`; return; }
  }
  if (Object.keys(overrides).length) body.rules = overrides;
  if (table) {
    body.table = true;
    const leader = Number($("#leader").value || 0);
    if (leader) body.leader = leader;  // seat 0 leads by default
  }
  const res = await api("/v1/games", { method: "POST", body });
  if (!res.ok) { $("#create-error").textContent = errText(res); return; }
  afterCreate(res.data, players, table);
}
function afterCreate(g, players, table) {
  remember(g.game_id, { table_token: g.table_token, seat_tokens: g.seat_tokens,
    names: g.state.players.map((p) => p.name), bots: players ? players.map((p) => p.bot || null) : [], preset: g.state.preset });
  $("#created").hidden = false;
  $("#created-id").textContent = g.game_id;
  const ul = $("#created-links");
  ul.innerHTML = "";
  const add = (label, token, view = "table") => {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = link(view, g.game_id, token);
    a.textContent = label;
    li.appendChild(a);
    ul.appendChild(li);
  };
  add(t("table_token"), g.table_token);
  g.state.players.forEach((p, i) => {
    if (!players || !players[i] || !players[i].bot) add(t("seat_link", { n: i, name: p.name }), g.seat_tokens[i]);
  });
  const human = players ? players.findIndex((p) => !p.bot) : -1;
  if (table || human < 0) go("table", g.game_id, g.table_token);
  else go("table", g.game_id, g.seat_tokens[human]);
}
function renderKnown() {
  const ul = $("#known-games");
  ul.innerHTML = "";
  const all = Object.entries(known()).sort((a, b) => b[1].at - a[1].at).slice(0, 8);
  for (const [id, g] of all) {
    const li = document.createElement("li");
    li.innerHTML = `<code>${id.slice(0, 8)}</code> ${escapeHtml(g.preset || "")} ${escapeHtml((g.names || []).join(", "))} `;
    const a = document.createElement("a");
    a.href = link("table", id, g.table_token); a.textContent = t("nav_table");
    const b = document.createElement("a");
    b.href = link("replay", id, g.table_token); b.textContent = t("nav_replay");
    li.append(a, " · ", b);
    ul.appendChild(li);
  }
}
async function importRecord(ev) {
  ev.preventDefault();
  $("#import-error").textContent = "";
  const res = await api("/v1/games", { method: "POST", body: { record: $("#import-text").value } });
  if (!res.ok) { $("#import-error").textContent = errText(res); return; }
  const g = res.data;
  remember(g.game_id, { table_token: g.table_token, seat_tokens: g.seat_tokens, names: g.state.players.map((p) => p.name), preset: g.state.preset });
  go("replay", g.game_id, g.table_token);
}

// ---------------------------------------------------------------- opening a game, live updates
async function openGame(id, token) {
  S.streamGen++;
  if (S.streamAbort) S.streamAbort.abort();
  S.game = { id, token, viewer: null };
  S.lastSync = S.lastBeat = Date.now();
  S.state = null; S.log = []; S.selected.clear(); S.chosen = null; S.legal = null; S.replay.state = null;
  const res = await api(`/v1/games/${id}`, { token });
  if (!res.ok) {
    $("#game-title").textContent = errText(res);
    return;
  }
  const v = res.headers.get("X-Referee-Viewer");
  S.game.viewer = v === "table" ? "table" : Number(v);
  S.actAs = S.game.viewer === "table" ? null : S.game.viewer;
  S.state = res.data;
  S.seq = Number(res.headers.get("X-Referee-Seq"));
  remember(id, S.game.viewer === "table" ? { table_token: token, preset: S.state.preset, names: S.state.players.map((p) => p.name) }
    : { [`seat${S.game.viewer}`]: token, preset: S.state.preset, names: S.state.players.map((p) => p.name) });
  const ev = await api(`/v1/games/${id}/events?after=${Math.max(-1, S.seq - 30)}`, { token });
  if (ev.ok) S.log = ev.data.events.filter((e) => e.type !== "game_created");
  setupSeatSwitch();
  await refreshLegal();
  renderGame();
  stream(S.streamGen);
}
function setupSeatSwitch() {
  const sel = $("#seat-switch");
  sel.innerHTML = "";
  if (S.game.viewer === "table") {
    sel.add(new Option(t("table_view"), ""));
    S.state.players.forEach((p) => sel.add(new Option(`${t("as_seat")} ${p.seat} · ${p.name}`, String(p.seat))));
    sel.value = S.actAs === null ? "" : String(S.actAs);
    $("#seat-switch-wrap").hidden = false;
  } else {
    $("#seat-switch-wrap").hidden = true;
  }
}
async function stream(gen) {
  const { id, token } = S.game;
  while (gen === S.streamGen) {
    const ctl = new AbortController();
    S.streamAbort = ctl;
    try {
      // short streams (the server closes after `wait` idle seconds) and a fresh one right after: a dropped
      // connection costs at most a few seconds, and the watchdog below refreshes whatever happens
      const r = await fetch(`/v1/games/${id}/stream?after=${S.seq}&wait=4`, {
        headers: { Authorization: `Bearer ${token}` }, signal: ctl.signal });
      if (!r.ok) { setLive(false); await sleep(3000); continue; }
      setLive(true);
      S.lastBeat = Date.now();
      const reader = r.body.getReader();
      const dec = new TextDecoder();
      let buf = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done || gen !== S.streamGen) break;
        S.lastBeat = Date.now();
        buf += dec.decode(value, { stream: true });
        let i;
        while ((i = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          onSse(block);
        }
      }
    } catch (e) {
      if (e.name === "AbortError" || gen !== S.streamGen) return;
      setLive(false);
      await sleep(1000);
    }
  }
}
// The safety net: a stream that went quiet is restarted, and the state is re-read every few seconds anyway.
function watchdog() {
  if (!S.game || !S.state) return;
  const now = Date.now();
  if (S.streamAbort && now - (S.lastBeat || 0) > 12000) { S.streamAbort.abort(); stream(++S.streamGen); }
  if (now - (S.lastSync || 0) > 4000) refresh();
}
function onSse(block) {
  let data = null;
  for (const line of block.split("\n")) if (line.startsWith("data: ")) data = line.slice(6);
  if (!data) return;
  const ev = JSON.parse(data);
  if (S.log.some((e) => e.seq === ev.seq && e.type === ev.type)) return;
  S.log.push(ev);
  if (S.log.length > 200) S.log.splice(0, S.log.length - 200);
  refresh();
}
function setLive(on) {
  const el = $("#live");
  el.textContent = t(on ? "live" : "offline");
  el.dataset.i18n = on ? "live" : "offline";
  el.classList.toggle("on", on);
}
async function refresh() {
  if (S.refreshing) { S.dirty = true; return; }
  S.refreshing = true;
  try {
    do {
      S.dirty = false;
      const res = await api(`/v1/games/${S.game.id}`, { token: S.game.token });
      if (res.ok) {
        S.lastSync = Date.now();
        const seq = Number(res.headers.get("X-Referee-Seq"));
        if (seq !== S.seq) {
          S.selected.clear(); S.chosen = null; S.ticked.clear();
          const pr = $("#proposal-result");
          if (pr.classList.contains("good")) { pr.innerHTML = ""; pr.className = "result"; }
        }
        S.state = res.data; S.seq = seq;
        await refreshLegal();
        renderGame();
      }
    } while (S.dirty);
  } finally { S.refreshing = false; }
}
async function refreshLegal() {
  S.legal = null;
  if (S.actAs === null || S.actAs === undefined) return;
  const res = await api(`/v1/games/${S.game.id}/legal-moves?seat=${S.actAs}`, { token: S.game.token });
  if (res.ok) S.legal = res.data;
}

// ---------------------------------------------------------------- rendering the table
function actorsOf(st) {
  if (st.pending && st.pending.length) {
    const head = st.pending[0];
    return st.pending.filter((p) => p.action === head.action && p.rule === head.rule).map((p) => p.seat);
  }
  return st.phase === "play" && st.turn !== null && st.turn !== undefined ? [st.turn] : [];
}
function renderFelt(felt, st, bottom, acting) {
  felt.innerHTML = "";
  const n = st.players.length;
  st.players.forEach((p, i) => {
    const k = (i - (bottom || 0) + n) % n;
    const ang = Math.PI / 2 + (k * 2 * Math.PI) / n;
    const el = document.createElement("div");
    el.className = "seat";
    el.dataset.seat = String(p.seat);
    el.style.left = `${50 + 41 * Math.cos(ang)}%`;
    el.style.top = `${50 + 38 * Math.sin(ang)}%`;
    if (acting.includes(p.seat)) el.classList.add("acting");
    if (p.place) el.classList.add("done");
    if (S.game && S.game.viewer === p.seat) el.classList.add("me");
    const pend = (st.pending || []).filter((x) => x.seat === p.seat);
    el.innerHTML = `<div class="who"><span class="seatno">${p.seat}</span> ${escapeHtml(p.name)}</div>` +
      `<div class="title">${p.title ? escapeHtml(p.title) : "&nbsp;"}</div>` +
      `<div class="count"><span class="backs">${"<i></i>".repeat(Math.min(p.hand_count, 14))}</span> ${p.hand_count} ${t("cards_left")}</div>` +
      (p.place ? `<div class="place">${t("place")} ${p.place}</div>` : "") +
      (pend.length ? `<div class="pend">${pend.map((x) => `${x.action}×${x.count}`).join(", ")}</div>` : "");
    if (acting.includes(p.seat)) el.insertAdjacentHTML("beforeend", `<div class="turnmark">▶</div>`);
    felt.appendChild(el);
  });
  const c = document.createElement("div");
  c.className = "center";
  const f = st.field;
  const fieldBox = document.createElement("div");
  fieldBox.className = "field";
  fieldBox.id = felt.id === "felt" ? "field" : "rp-field";
  if (f && f.cards && f.cards.length) {
    const cards = document.createElement("div");
    cards.className = "fieldcards";
    f.cards.forEach((code) => {
      const ce = cardEl(code);
      if (f.as && f.as[code]) { ce.classList.add("read"); ce.insertAdjacentHTML("beforeend", `<u>=${escapeHtml(cardsText([f.as[code]]))}</u>`); }
      cards.appendChild(ce);
    });
    fieldBox.appendChild(cards);
    fieldBox.insertAdjacentHTML("beforeend", `<div class="shape">${escapeHtml(f.shape)} · ${t("seat")} ${f.seat}</div>`);
  } else {
    fieldBox.innerHTML = `<div class="shape empty">${t("field")}: ${t("empty_field")}</div>`;
  }
  c.appendChild(fieldBox);
  const chips = document.createElement("div");
  chips.className = "chips";
  chips.innerHTML = orderChips(st) + lockChips(st);
  c.appendChild(chips);
  if (st.phase === "deal_over") c.insertAdjacentHTML("beforeend", `<div class="over">${t("deal_over")}</div>`);
  felt.appendChild(c);
}
function orderChips(st) {
  let s = `<span class="chip ${st.order === "reversed" ? "warn" : ""}" data-k="order">${t("order")}: ${t(st.order === "reversed" ? "reversed" : "normal")}</span>`;
  if (st.revolution) s += `<span class="chip warn">${t("revolution")}</span>`;
  if (st.jack_back) s += `<span class="chip warn">${t("jack_back")}</span>`;
  s += `<span class="chip">${st.direction === -1 ? "↺ " + t("counter") : "↻ " + t("clockwise")}</span>`;
  return s;
}
function lockChips(st) {
  const l = st.locks || {};
  const parts = [];
  if (l.suits && l.suits.length) parts.push(`${t("suits")} ${l.suits.map((x) => SUITS[x] || x).join("")}`);
  if (l.kind) parts.push(`${t("kind")} ${l.kind}`);
  if (l.rank) parts.push(t("rank"));
  return parts.length ? `<span class="chip lock">縛り ${parts.join(" · ")}</span>` : "";
}
function renderStatus(dl, st, acting) {
  const rows = [
    [t("deal"), st.deal], [t("phase"), I18N.en[`phase_${st.phase}`] ? t(`phase_${st.phase}`) : st.phase], [t("seq"), st.seq],
    [t("turn"), acting.length ? acting.map((s) => `${s} (${escapeHtml(st.players[s].name)})`).join(", ") : "—"],
    [t("order"), `${t(st.order === "reversed" ? "reversed" : "normal")}${st.revolution ? " · " + t("revolution") : ""}${st.jack_back ? " · " + t("jack_back") : ""}`],
    [t("direction"), st.direction === -1 ? t("counter") : t("clockwise")],
    [t("locks"), lockText(st)],
    [t("discards"), (st.discard_pile || []).length + (st.hidden_discards || 0)],
    [t("finish_order"), (st.finish_order || []).map((s) => escapeHtml(st.players[s].name)).join(" → ") || "—"],
  ];
  if (st.table) rows.push(["table", t("unknown_hand")]);
  dl.innerHTML = rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("");
}
function lockText(st) {
  const l = st.locks || {};
  const parts = [];
  if (l.suits && l.suits.length) parts.push(`${t("suits")} ${l.suits.map((x) => SUITS[x] || x).join("")}`);
  if (l.kind) parts.push(`${t("kind")} ${l.kind}`);
  if (l.rank) parts.push(t("rank"));
  return parts.join(", ") || t("none");
}
function renderPending(ul, st) {
  ul.innerHTML = "";
  for (const p of st.pending || []) {
    const li = document.createElement("li");
    li.textContent = `${t("seat")} ${p.seat}: ${dueText(p)}`;
    ul.appendChild(li);
  }
  if (!ul.children.length) ul.innerHTML = `<li class="muted">${t("none")}</li>`;
}
function dueText(p) {
  const vars = { n: p.count, to: p.to === undefined || p.to === null ? "?" : p.to, rule: ruleName(p.rule) };
  const key = { give: "due_give", discard: "due_discard", take: "due_take", request: "due_request", cut_back: "due_cut_back" }[p.action];
  if (!key) return `${p.action} ${p.count} (${ruleName(p.rule)})`;
  return t(p.upto && (p.action === "give" || p.action === "discard") ? `${key}_upto` : key, vars);
}
function eventItem(ev) {
  const li = document.createElement("li");
  li.dataset.seq = ev.seq;
  if (ev.type === "rejected") {
    li.className = "rejected";
    const v = ev.verdict || {};
    li.innerHTML = `<span class="badge bad">${t("illegal")}</span> <b>${escapeHtml(v.reason || "")}</b> ${escapeHtml(v.message || "")}`;
    appendUnchecked(li, v);
    return li;
  }
  if (ev.type === "move") {
    const v = ev.verdict || {};
    li.innerHTML = `<span class="seqno">${ev.seq}</span> ${escapeHtml(v.message || `${ev.move.seat} ${ev.move.action}`)}`;
    if (v.effects && v.effects.length) {
      const ef = document.createElement("span");
      ef.className = "effects";
      v.effects.forEach((e) => ef.appendChild(ruleChip(e)));
      li.appendChild(ef);
    }
    appendUnchecked(li, v);
    const extra = (ev.outcome || []).filter((o) => ["finish", "flush", "deal_over", "capital_fall", "gekokujo", "skip", "abort"].includes(o.kind));
    if (extra.length) li.insertAdjacentHTML("beforeend", `<small> ${extra.map(outcomeText).join("; ")}</small>`);
  } else if (ev.type === "deal_started") {
    li.innerHTML = `<span class="seqno">${ev.seq}</span> <b>${t("deal")} ${ev.deal}</b>`;
  } else if (ev.type === "game_created") {
    li.innerHTML = `<span class="seqno">0</span> <b>${escapeHtml(ev.preset)}</b> ${escapeHtml((ev.players || []).join(", "))}`;
  } else {
    li.innerHTML = `<span class="seqno">${ev.seq}</span> ${escapeHtml(ev.type)}`;
  }
  return li;
}
function appendUnchecked(li, v) {
  if (v.unchecked && v.unchecked.length) {
    li.insertAdjacentHTML("beforeend", `<small class="unchecked"> ${t("unchecked")}: ${v.unchecked.map(escapeHtml).join(", ")}</small>`);
  }
}
function outcomeText(o) {
  const n = (s) => (S.state && S.state.players[s] ? S.state.players[s].name : `seat ${s}`);
  if (o.kind === "finish") return `${escapeHtml(n(o.seat))} → ${o.place}`;
  if (o.kind === "flush") return "流れ";
  if (o.kind === "deal_over") return t("deal_over");
  if (o.kind === "skip") return `skip ${(o.seats || []).join(",")}`;
  return escapeHtml(o.kind);
}

function renderGame() {
  const st = S.state;
  if (!st) return;
  const acting = actorsOf(st);
  const me = S.game.viewer === "table" ? S.actAs : S.game.viewer;
  document.body.dataset.seq = String(S.seq);
  document.body.dataset.phase = st.phase;
  $("#game-title").innerHTML = `<code>${S.game.id.slice(0, 8)}</code> ${escapeHtml(st.preset)}${st.table ? " · 卓モード" : ""} · ${t("deal")} ${st.deal} · ` +
    `${S.game.viewer === "table" ? t("table_view") : `${t("as_seat")} ${S.game.viewer}`}`;
  renderFelt($("#felt"), st, me === null || me === undefined ? 0 : me, acting);
  renderStatus($("#status"), st, acting);
  renderPending($("#pending"), st);
  const log = $("#log");
  log.innerHTML = "";
  S.log.slice(-14).reverse().forEach((ev) => log.appendChild(eventItem(ev)));
  $("#next-deal").hidden = st.phase !== "deal_over";
  renderHand(st, acting);
  renderEntry(st, acting);
}

// ---------------------------------------------------------------- playing a seat
function dueFor(st, seat) {
  const p = (st.pending || []).find((x) => x.seat === seat);
  if (p) return p;
  if (st.phase === "play" && st.turn === seat && !(st.pending || []).length) return { action: "play" };
  return null;
}
function renderHand(st, acting) {
  const panel = $("#hand-panel");
  const seat = S.actAs;
  if (seat === null || seat === undefined || !st.players[seat]) { panel.hidden = true; return; }
  panel.hidden = false;
  const p = st.players[seat];
  const moves = (S.legal && S.legal.seq === S.seq ? S.legal.moves : []) || [];
  const mine = acting.includes(seat) && moves.length > 0;
  const due = mine ? dueFor(st, seat) : null;
  $("#hand-title").textContent = `${t("seat")} ${seat} · ${p.name}${p.title ? " · " + p.title : ""}`;
  panel.classList.toggle("myturn", mine);
  $("#due").textContent = mine ? `${t("your_turn")} — ${due && due.action !== "play" ? dueText(due) : t("due_play")}`
    : acting.length ? `${t("waiting")} ${acting.map((s) => st.players[s].name).join(", ")}` : (st.phase === "deal_over" ? t("deal_over") : "");
  const playable = new Set();
  moves.forEach((m) => (Array.isArray(m.cards) ? m.cards : []).concat(m.choose ? m.choose.from : []).forEach((c) => playable.add(c)));
  const hand = $("#hand");
  hand.innerHTML = "";
  if (p.hand === null) {
    hand.innerHTML = `<span class="muted">${p.hand_count} ${t("cards_left")} (${t("hidden")})</span>`;
  } else {
    for (const code of p.hand) {
      const ce = cardEl(code, "handcard");
      if (playable.has(code)) ce.classList.add("playable");
      if (S.selected.has(code)) ce.classList.add("selected");
      ce.tabIndex = 0;
      ce.setAttribute("role", "button");
      ce.addEventListener("click", () => toggleCard(code));
      hand.appendChild(ce);
    }
    if (p.unknown) hand.insertAdjacentHTML("beforeend", `<span class="muted">${p.hand.length ? "+ " : ""}${p.unknown} ${t("cards_left")} · ${t("unknown_hand")}</span>`);
  }
  // declarations (gekifugo: declarations_required)
  const decl = $("#declare");
  decl.innerHTML = "";
  const declarable = declarableRules(st);
  if (declarable.length && mine && due && due.action === "play") {
    decl.insertAdjacentHTML("beforeend", `<span>${t("declarations")}:</span>`);
    const ticked = S.ticked;
    for (const r of declarable) {
      const lab = document.createElement("label");
      lab.className = "decl";
      lab.innerHTML = `<input type="checkbox" value="${r.id}"${ticked.has(r.id) ? " checked" : ""}> ${r.name_ja}`;
      lab.title = `${r.id}: ${r.description}`;
      $("input", lab).addEventListener("change", (e) => { if (e.target.checked) S.ticked.add(r.id); else S.ticked.delete(r.id); });
      decl.appendChild(lab);
    }
  }
  const action = due ? (due.action === "play" ? "play" : due.action) : "play";
  const act = $("#act");
  act.textContent = t(action === "request" ? "request" : action);
  act.dataset.action = action;
  act.disabled = !mine || action === "request";
  const canPass = moves.some((m) => m.action === "pass");
  $("#pass").disabled = !mine || !canPass;
  // options
  const opts = $("#options");
  opts.innerHTML = "";
  const shown = moves.filter((m) => m.action !== "pass");
  shown.slice(0, 40).forEach((m, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "option";
    b.dataset.index = String(moves.indexOf(m));
    b.textContent = moveLabel(m);
    if (S.chosen === m) b.classList.add("chosen");
    b.addEventListener("click", () => chooseOption(m));
    opts.appendChild(b);
  });
  if (shown.length > 40) opts.insertAdjacentHTML("beforeend", `<span class="muted">+${shown.length - 40} ${t("more")}</span>`);
  if (!shown.length) opts.innerHTML = `<span class="muted">${mine && canPass ? t("pass") : t("no_options")}</span>`;
}
function declarableRules(st) {
  if (!S.catalog || !st.rules || !st.rules.declarations_required) return [];
  return S.catalog.rules.filter((r) => r.declarable && st.rules[r.id] !== false && st.rules[r.id] !== undefined);
}
function moveLabel(m) {
  let s = m.action === "play" ? "" : `${t(m.action)} `;
  if (Array.isArray(m.cards)) s += cardsText(m.cards);
  if (m.choose) {
    // a choose entry: pick the cards in the hand, then press the action button
    const n = m.choose.min === m.choose.max ? `${m.choose.min}` : `${m.choose.min}–${m.choose.max}`;
    s += `${Array.isArray(m.cards) ? " + " : ""}${n} / ${m.choose.from.length}`;
    if (m.choose.limit) s += ` (≤${m.choose.limit.max} ${t("unknown_hand")})`;
  }
  if (m.rank !== undefined && m.rank !== null) s += ` ${m.rank}`;
  if (m.count !== undefined && m.count !== null) s += ` ×${m.count}`;
  if (m.as && Object.keys(m.as).length) s += ` (${Object.entries(m.as).map(([k, v]) => `${k}=${v}`).join(", ")})`;
  if (m.declare && m.declare.length) s += ` · ${m.declare.map((d) => (S.catalog.rules.find((r) => r.id === d) || { name_ja: d }).name_ja).join("・")}`;
  if (m.decline && (m.decline.length || m.decline === true)) s += ` · decline ${Array.isArray(m.decline) ? m.decline.join(",") : ""}`;
  return s.trim() || m.action;
}
function toggleCard(code) {
  if (S.selected.has(code)) S.selected.delete(code); else S.selected.add(code);
  S.chosen = null;
  renderHand(S.state, actorsOf(S.state));
}
function chooseOption(m) {
  if (m.choose) {
    // a choose entry: preselect its cards plus the first allowed ones (weakest first); the player may change
    // the selection by clicking cards, then presses the action button
    const capped = new Set(m.choose.limit ? m.choose.limit.cards : []);
    let room = m.choose.limit ? m.choose.limit.max : Infinity;
    const pick = [];
    for (const c of m.choose.from) {
      if (pick.length >= m.choose.min) break;
      if (capped.has(c)) { if (room <= 0) continue; room -= 1; }
      pick.push(c);
    }
    S.selected = new Set([...(m.cards || []), ...pick]);
    S.chosen = null;
    renderHand(S.state, actorsOf(S.state));
    return;
  }
  if (m.action === "request" || !Array.isArray(m.cards)) { propose(m); return; }
  S.selected = new Set(m.cards);
  S.chosen = m;
  S.ticked = new Set(m.declare || []);
  renderHand(S.state, actorsOf(S.state));
}
function sameSet(a, b) { const A = new Set(a || []); const B = new Set(b || []); return A.size === B.size && [...A].every((x) => B.has(x)); }
async function actSelected() {
  const action = $("#act").dataset.action;
  const ticked = $$("#declare input:checked").map((c) => c.value);
  const cards = [...S.selected];
  const moves = (S.legal && S.legal.moves) || [];
  const showsDecl = $$("#declare input").length > 0;
  let move = null;
  if (S.chosen && sameSet(S.chosen.cards, cards) && (!showsDecl || sameSet(S.chosen.declare, ticked))) move = S.chosen;
  if (!move) {
    const same = moves.filter((m) => !m.choose && m.action === action && sameSet(m.cards, cards));
    move = same.find((m) => !showsDecl || sameSet(m.declare, ticked)) || (!showsDecl && same[0]) || null;
  }
  if (!move) {
    if (!cards.length && action !== "cut_back") { setResult($("#proposal-result"), null, t("nothing_selected")); return; }
    move = { seat: S.actAs, action, cards };
    if (ticked.length) move.declare = ticked;
  }
  await propose(move);
}
async function propose(move) {
  const res = await api(`/v1/games/${S.game.id}/moves`, { method: "POST", token: S.game.token, body: Object.assign({}, move, { seat: S.actAs }) });
  const out = $("#proposal-result");
  if (res.status === 200 || res.status === 422) {
    setResult(out, res.data.verdict);
    if (res.status === 422) {
      S.log.push({ type: "rejected", seq: `✗`, verdict: res.data.verdict, move });
      renderGame();
    } else {
      S.selected.clear(); S.chosen = null;
      refresh();
    }
  } else {
    setResult(out, null, errText(res));
  }
}
function setResult(el, v, text) {
  el.innerHTML = "";
  el.className = "result";
  if (!v) { el.classList.add("bad"); el.textContent = text; return; }
  el.classList.add(v.legal ? "good" : "bad");
  el.innerHTML = `<span class="badge ${v.legal ? "ok" : "bad"}">${t(v.legal ? "legal" : "illegal")}</span>` +
    (v.reason ? ` <b class="reason">${escapeHtml(v.reason)}</b>` : "") + ` <span class="message">${escapeHtml(v.message || "")}</span>`;
  if (v.effects && v.effects.length) {
    const ef = document.createElement("span");
    ef.className = "effects";
    ef.append(` ${t("effects")}: `);
    v.effects.forEach((e) => ef.appendChild(ruleChip(e)));
    el.appendChild(ef);
  }
  if (v.reading && Object.keys(v.reading).length) el.insertAdjacentHTML("beforeend", ` <small>JK: ${escapeHtml(JSON.stringify(v.reading))}</small>`);
  appendUnchecked(el, v);
}

// ---------------------------------------------------------------- entering a real table's plays (table token)
function renderEntry(st, acting) {
  const panel = $("#entry-panel");
  if (S.game.viewer !== "table") { panel.hidden = true; return; }
  panel.hidden = false;
  const sel = $("#entry-seat");
  const keep = sel.dataset.touched ? sel.value : null;
  if (sel.options.length !== st.players.length) {
    sel.innerHTML = "";
    st.players.forEach((p) => sel.add(new Option(`${p.seat} · ${p.name}`, String(p.seat))));
  }
  sel.value = keep !== null ? keep : String(acting.length ? acting[0] : 0);
  const cf = $("#correct-form");
  cf.hidden = !st.table;
  const cs = $("#correct-seat");
  if (st.table && cs.options.length !== st.players.length) {
    cs.innerHTML = "";
    st.players.forEach((p) => cs.add(new Option(`${p.seat} · ${p.name} (${p.hand_count})`, String(p.seat))));
  }
}
async function submitCorrection(ev) {
  ev.preventDefault();
  const hands = S.state.players.map(() => null);
  hands[Number($("#correct-seat").value)] = $("#correct-cards").value.split(/[\s,]+/).filter(Boolean)
    .map((c) => c.toUpperCase().replace(/^([SHDC])10$/, "$1T"));
  const res = await api(`/v1/games/${S.game.id}/hands`, { method: "POST", token: S.game.token, body: { hands } });
  const out = $("#correct-result");
  out.className = `result ${res.ok ? "good" : "bad"}`;
  out.textContent = res.ok ? t("corrected") : errText(res);
  if (res.ok) { $("#correct-cards").value = ""; refresh(); }
}
async function submitEntry(ev) {
  ev.preventDefault();
  const move = { seat: Number($("#entry-seat").value), action: $("#entry-action").value };
  const cards = $("#entry-cards").value.split(/[\s,]+/).filter(Boolean).map((c) => c.toUpperCase().replace(/^([SHDC])10$/, "$1T"));
  if (cards.length && move.action !== "pass") move.cards = cards;
  const extra = $("#entry-extra").value.trim();
  if (extra) {
    try { Object.assign(move, JSON.parse(extra)); } catch (e) { setResult($("#entry-result"), null, `JSON: ${e.message}`); return; }
  }
  const res = await api(`/v1/games/${S.game.id}/moves`, { method: "POST", token: S.game.token, body: move });
  if (res.status === 200 || res.status === 422) {
    setResult($("#entry-result"), res.data.verdict);
    if (res.status === 200) {
      $("#entry-cards").value = ""; $("#entry-extra").value = "";
      $("#entry-seat").dataset.touched = "";
      refresh();
    } else {
      S.log.push({ type: "rejected", seq: "✗", verdict: res.data.verdict, move });
      renderGame();
    }
  } else setResult($("#entry-result"), null, errText(res));
}

// ---------------------------------------------------------------- replay
async function loadReplay() {
  if (!S.game) return;
  const res = await api(`/v1/games/${S.game.id}/events`, { token: S.game.token });
  if (!res.ok) { $("#replay-title").textContent = errText(res); return; }
  S.replay.events = res.data.events;
  const last = res.data.seq;
  const scrub = $("#scrub");
  scrub.max = String(last);
  const h = parseHash();
  const target = h.seq !== undefined ? Math.min(Number(h.seq), last) : (S.replay.state ? Math.min(S.replay.seq, last) : last);
  $("#replay-title").innerHTML = `<code>${S.game.id.slice(0, 8)}</code> ${escapeHtml(S.state ? S.state.preset : "")}`;
  const ol = $("#rp-log");
  ol.innerHTML = "";
  for (const ev of S.replay.events) {
    const li = eventItem(ev);
    li.addEventListener("click", () => showSeq(ev.seq));
    ol.appendChild(li);
  }
  await showSeq(target);
}
let replayReq = 0;
async function showSeq(seq) {
  seq = Math.max(0, Math.min(Number(seq), Number($("#scrub").max)));
  $("#scrub").value = String(seq);
  S.replay.seq = seq;
  const mine = ++replayReq;
  const res = await api(`/v1/games/${S.game.id}/replay?seq=${seq}`, { token: S.game.token });
  if (mine !== replayReq || !res.ok) return;
  S.replay.state = res.data.state;
  renderReplayState();
}
function renderReplayState() {
  const st = S.replay.state;
  const seq = S.replay.seq;
  const acting = actorsOf(st);
  const bottom = S.game.viewer === "table" ? 0 : S.game.viewer;
  renderFelt($("#rp-felt"), st, bottom, acting);
  // show the hands in replay for the table token (everyone's cards), else the viewer's own
  $$("#rp-felt .seat").forEach((el) => {
    const p = st.players[Number(el.dataset.seat)];
    if (p.hand) {
      const h = document.createElement("div");
      h.className = "minihand";
      p.hand.forEach((c) => h.appendChild(cardEl(c, "mini")));
      el.appendChild(h);
    }
  });
  renderStatus($("#rp-status"), st, acting);
  renderPending($("#rp-pending"), st);
  $("#rp-seq").textContent = `${t("seq")} ${seq} / ${$("#scrub").max}`;
  const ev = S.replay.events.find((e) => e.seq === seq);
  const box = $("#rp-event");
  box.innerHTML = "";
  if (ev) box.appendChild(eventItem(ev));
  $$("#rp-log li").forEach((li) => li.classList.toggle("current", Number(li.dataset.seq) === seq));
  const cur = $("#rp-log li.current");
  const ol = $("#rp-log");
  if (cur) ol.scrollTop = Math.max(0, cur.offsetTop - ol.clientHeight / 2);
}
function stopAutoplay() { if (S.replay.timer) { clearInterval(S.replay.timer); S.replay.timer = null; $("#rp-play").classList.remove("on"); } }

// ---------------------------------------------------------------- judge (detached)
function holdState() {
  if (!S.state) return;
  $("#judge-state").value = JSON.stringify(S.state, null, 1);
  $("#judge-preset").value = S.state.preset;
}
async function submitJudge(ev) {
  ev.preventDefault();
  const out = $("#judge-result");
  let state, move, rules = null;
  try {
    state = JSON.parse($("#judge-state").value);
    move = JSON.parse($("#judge-move").value);
    const r = $("#judge-rules").value.trim();
    if (r) rules = JSON.parse(r);
  } catch (e) { setResult(out, null, `JSON: ${e.message}`); return; }
  const body = { preset: $("#judge-preset").value, state, move };
  if (rules) body.rules = rules;
  const res = await api("/v1/judge", { method: "POST", body });
  if (!res.ok) { setResult(out, null, errText(res)); return; }
  setResult(out, res.data.verdict);
  const st = res.data.state;
  out.insertAdjacentHTML("beforeend", `<div class="after">→ ${t("turn")}: ${st.turn} · ${t("field")}: ${st.field ? cardsText(st.field.cards) : t("empty_field")} · ${t("order")}: ${t(st.order === "reversed" ? "reversed" : "normal")}</div>`);
}

// ---------------------------------------------------------------- misc
function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}
async function downloadRecord() {
  const res = await api(`/v1/games/${S.game.id}/record`, { token: S.game.token, text: true });
  if (!res.ok) return;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([res.data], { type: "text/plain" }));
  a.download = `daifugo-${S.game.id}.txt`;
  document.body.appendChild(a); a.click(); a.remove();
}

function wire() {
  $("#lang").addEventListener("click", () => {
    S.lang = S.lang === "en" ? "ja" : "en";
    localStorage.setItem("daifugo.lang", S.lang);
    applyLang();
  });
  $("#preset").addEventListener("change", () => { $$("input[data-rule]").forEach((c) => delete c.dataset.touched); renderRules(); });
  $("#add-seat").addEventListener("click", () => addSeat("", ""));
  $("#remove-seat").addEventListener("click", () => { const rows = $$(".seatrow"); if (rows.length > 2) { rows[rows.length - 1].remove(); syncLeader(); } });
  $("#table-mode").addEventListener("change", syncLeader);
  $("#create-form").addEventListener("submit", createGame);
  $("#open-form").addEventListener("submit", (e) => { e.preventDefault(); go("table", $("#open-id").value.trim(), $("#open-token").value.trim()); });
  $("#import-form").addEventListener("submit", importRecord);
  $("#seat-switch").addEventListener("change", async (e) => {
    S.actAs = e.target.value === "" ? null : Number(e.target.value);
    S.selected.clear(); S.chosen = null;
    await refreshLegal(); renderGame();
  });
  $("#act").addEventListener("click", actSelected);
  $("#pass").addEventListener("click", () => propose({ seat: S.actAs, action: "pass" }));
  $("#clear").addEventListener("click", () => { S.selected.clear(); S.chosen = null; renderHand(S.state, actorsOf(S.state)); });
  $("#next-deal").addEventListener("click", async () => {
    const res = await api(`/v1/games/${S.game.id}/deals`, { method: "POST", token: S.game.token });
    if (!res.ok) setResult($("#proposal-result"), null, errText(res)); else refresh();
  });
  $("#download-record").addEventListener("click", downloadRecord);
  $("#entry-form").addEventListener("submit", submitEntry);
  $("#correct-form").addEventListener("submit", submitCorrection);
  $("#entry-seat").addEventListener("change", (e) => { e.target.dataset.touched = "1"; });
  $("#scrub").addEventListener("input", (e) => showSeq(e.target.value));
  $("#rp-first").addEventListener("click", () => showSeq(0));
  $("#rp-prev").addEventListener("click", () => showSeq(S.replay.seq - 1));
  $("#rp-next").addEventListener("click", () => showSeq(S.replay.seq + 1));
  $("#rp-last").addEventListener("click", () => showSeq(Number($("#scrub").max)));
  $("#rp-play").addEventListener("click", () => {
    if (S.replay.timer) { stopAutoplay(); return; }
    $("#rp-play").classList.add("on");
    S.replay.timer = setInterval(() => {
      if (S.replay.seq >= Number($("#scrub").max)) stopAutoplay(); else showSeq(S.replay.seq + 1);
    }, 500);
  });
  $("#judge-hold").addEventListener("click", holdState);
  $("#judge-form").addEventListener("submit", submitJudge);
  document.addEventListener("keydown", (e) => {
    if (!$("#view-replay").hidden && e.target === document.body) {
      if (e.key === "ArrowLeft") showSeq(S.replay.seq - 1);
      if (e.key === "ArrowRight") showSeq(S.replay.seq + 1);
    }
  });
  window.addEventListener("hashchange", route);
}

(async function main() {
  wire();
  await loadCatalog();
  applyLang();
  await route();
  setInterval(watchdog, 2000);
  document.body.dataset.ready = "1";
})();
