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
  bannerSeq: -1, evSeq: -1, banners: [], bannerShown: null, turnovers: [], bannerTimer: null, lastTrick: null, offline: false, resultDeal: null, standings: null,
  focusCard: null, kbdOption: -1,
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
  $$("[data-i18n-ph]").forEach((el) => { el.placeholder = t(el.dataset.i18nPh); });
  $$("[data-i18n-title]").forEach((el) => { el.title = t(el.dataset.i18nTitle); });
  $$("[data-i18n-aria]").forEach((el) => { el.setAttribute("aria-label", t(el.dataset.i18nAria)); });
  $$("#entry-action option").forEach((o) => { o.textContent = t(o.value); });
  $("#lang").textContent = S.lang === "en" ? "日本語" : "English";
  $("#lang").lang = S.lang === "en" ? "ja" : "en";
  if (S.catalog) { renderRules(); relabelSeats(); fitSeats(); }
  if (S.state) { setupSeatSwitch(); renderGame(); }
  if (S.replay.state) { renderReplayLog(); renderReplayState(); }
  if (S.botList) renderBots();
  if (!$("#view-new").hidden) renderKnown();
  $$(".result").forEach((el) => { if (el.rerender) el.rerender(); });  // a verdict shown stays, in the new language
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
// An API error in words: English shows the referee's own message (it names the field at fault); Japanese says
// what kind of error it is, the referee's English message left to the element's tooltip (see setError).
function errText(res) {
  const e = res.data && res.data.error;
  if (!e) return t("err_http", { status: res.status });
  if (S.lang !== "ja") return `${e.code}: ${e.message}`;
  const field = /'(\w+)'/.exec(e.message || "");  // the field the referee names ("a play takes no 'rank'")
  const words = I18N.ja[`err_${e.code}`] ? t(`err_${e.code}`) : t("err_other", { code: e.code });
  return field && I18N.ja[`err_${e.code}`] ? `${words}（${field[1]}）` : words;
}
function setError(el, res) {
  el.textContent = errText(res);
  const e = res.data && res.data.error;
  el.title = e && S.lang === "ja" ? `${e.code}: ${e.message}` : "";
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
  const hash = location.hash;
  const h = parseHash();
  let view = ["new", "table", "replay", "judge", "bots"].includes(h.view) ? h.view : "new";
  if (h.game && h.token) {
    localStorage.setItem("daifugo.last", JSON.stringify({ game: h.game, token: h.token }));
    if (!S.game || S.game.id !== h.game || S.game.token !== h.token) await openGame(h.game, h.token);
    if (location.hash !== hash) return;  // the player went elsewhere meanwhile: that route() decides the view
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
  if (view === "bots") await loadBots();
}

// ---------------------------------------------------------------- cards
// A card drawn as a card: rank and suit in two opposite corners, a suit pip in the middle, a framed face for J, Q
// and K, a star for a joker. Sizes are the CSS's (--cw, --ch): a thumb's width on a phone.
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const FACE_RANKS = new Set(["J", "Q", "K"]);
function cardEl(code, cls = "") {
  const el = document.createElement("span");
  el.className = `card ${cls}`.trim();
  el.dataset.card = code;
  el.translate = false;  // JOKER and the ranks are what is printed on the cards, in either language
  el.title = cardName(code);
  el.setAttribute("aria-label", cardName(code));
  if (code.startsWith("JK")) {
    el.classList.add("joker");
    const corner = `<b>JK</b><i>★</i>`;
    el.innerHTML = `<span class="idx tl" aria-hidden="true">${corner}</span><span class="pip face" aria-hidden="true"><i>★</i><em>JOKER</em></span>` +
      `<span class="idx br" aria-hidden="true">${corner}</span>`;
    return el;
  }
  const rank = code[1] === "T" ? "10" : code.slice(1);
  const suit = SUITS[code[0]] || code[0];
  el.classList.add(code[0] === "H" || code[0] === "D" ? "red" : "black");
  const corner = `<b>${rank}</b><i>${suit}</i>`;
  const middle = FACE_RANKS.has(rank) ? `<span class="pip face" aria-hidden="true"><b>${rank}</b><i>${suit}</i></span>`
    : `<span class="pip" aria-hidden="true">${suit}</span>`;
  el.innerHTML = `<span class="idx tl" aria-hidden="true">${corner}</span>${middle}<span class="idx br" aria-hidden="true">${corner}</span>`;
  return el;
}
function cardsText(cards) {
  if (typeof cards === "number") return countWords(cards);
  return cardsWords(cards);
}
function ruleChip(id, st = S.state) {
  const el = document.createElement("span");
  el.className = "chip";
  const r = S.catalog && S.catalog.rules.find((x) => x.id === id);
  el.textContent = ruleWord(id, st);
  el.title = r ? `${id}: ${ruleDesc(r)}` : id;
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
  for (let i = 0; i < 4; i++) addSeat(defaultName(i), i === 0 ? "" : defaultBot());
  fitSeats();
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
    row.title = r.id;
    row.innerHTML = `<input type="checkbox" data-rule="${r.id}"> <span class="rname">${escapeHtml(ruleWord(r.id, { rules: pr }))}</span>` +
      `${r.declarable ? ` <span class="tag">${t("tag_declared")}</span>` : ""}<small>${escapeHtml(ruleDesc(r))}</small>`;
    const cb = $("input", row);
    cb.checked = r.id in keep ? keep[r.id] : on;
    if (r.id in keep) cb.dataset.touched = "1";
    box.appendChild(row);
    const params = paramControls(r, pr[r.id]);
    if (params) box.appendChild(params);
    const shown = () => { if (params) params.hidden = !cb.checked; };
    cb.addEventListener("change", () => { cb.dataset.touched = "1"; shown(); rulesSummary(); });
    shown();
  }
  rulesSummary();
}
// A rule's parameters (its variants), set to the preset's values: a select for choices, a checkbox, a number.
function paramControls(r, presetParams) {
  const names = Object.keys(r.params || {});
  if (!names.length) return null;
  const wrap = document.createElement("div");
  wrap.className = "rule-params";
  for (const name of names) {
    const spec = r.params[name];
    const value = presetParams && name in presetParams ? presetParams[name] : spec.default;
    const label = document.createElement("label");
    label.title = spec.help;
    let input;
    if (spec.choices) {
      input = document.createElement("select");
      for (const c of spec.choices) input.add(new Option(String(c), String(c)));
      input.value = String(value);
    } else if (spec.type === "boolean") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = !!value;
    } else {
      input = document.createElement("input");
      input.type = "number";
      if (spec.min !== undefined) { input.min = spec.min; input.max = spec.max; }
      input.value = value;
    }
    Object.assign(input.dataset, { of: r.id, param: name, kind: spec.choices ? "choice" : spec.type });
    input.dataset.preset = JSON.stringify(value);
    const code = document.createElement("code");
    code.translate = false;  // a parameter's name is the API's (rules overrides), in either language
    code.textContent = name;
    label.append(code, " ", input);
    wrap.appendChild(label);
  }
  return wrap;
}
function paramValue(input) {
  if (input.dataset.kind === "boolean") return input.checked;
  if (input.dataset.kind === "integer") return Number(input.value);
  const choice = input.value;
  return /^-?\d+$/.test(choice) && typeof JSON.parse(input.dataset.preset) === "number" ? Number(choice) : choice;
}
// The folded rules list says what it holds, so Create game stays on the first screen right under the seats.
function rulesSummary() {
  const all = $$("input[data-rule]");
  const changed = all.filter((c) => c.dataset.touched).length + ($("#rules-json").value.trim() ? 1 : 0);
  $("#rules-summary").textContent = t("rules_summary", { preset: $("#preset").value, on: all.filter((c) => c.checked).length,
    all: all.length, changed: changed ? t("rules_changed", { n: changed }) : "" });
}
// The strongest bot that answers within the bot-turn budget: policy_mc (200 ms a turn by default), else mc, else greedy.
function defaultBot() { return ["policy_mc", "mc", "greedy"].find((b) => S.bots.includes(b)) || S.bots[0] || ""; }
// A new seat's name: "you" and "bot1"… in the page's language (あなた, ボット1…); renamed with the language until edited.
function defaultName(i) { return i === 0 ? t("default_you") : t("default_bot", { n: i }); }
function isDefaultName(name, i) {
  return [I18N.en, I18N.ja].some((d) => name === (i === 0 ? d.default_you : d.default_bot.replace("{n}", i)) ||
    name === d.player_n.replace("{n}", i + 1)) || /^p\d+$/.test(name);
}
function addSeat(name, bot) {
  const box = $("#seats");
  const n = box.children.length;
  if (n >= seatRange().max) return;
  if ($("#table-mode").checked && (!name || isDefaultName(name, n))) name = t("player_n", { n: n + 1 });
  const row = document.createElement("div");
  row.className = "seatrow";
  row.innerHTML = `<span class="seatno">${n}</span><input class="seat-name" value="${escapeHtml(name || defaultName(n))}" maxlength="40">` +
    `<select class="seat-kind"><option value=""></option>` + S.bots.map((b) => `<option value="${b}"></option>`).join("") + `</select>`;
  $(".seat-kind", row).value = bot || "";
  box.appendChild(row);
  relabelSeats();
  syncLeader();
}
// The seat rows in the page's language: the human / bot choices, and the names nobody has edited.
function relabelSeats() {
  $$(".seatrow").forEach((row, i) => {
    const kind = $(".seat-kind", row);
    kind.setAttribute("aria-label", `${t("human")} / ${t("bot")}`);
    $$("option", kind).forEach((o) => { o.textContent = o.value ? t("bot_kind", { bot: o.value }) : t("human"); });
    const name = $(".seat-name", row);
    if (isDefaultName(name.value, i)) name.value = $("#table-mode").checked ? t("player_n", { n: i + 1 }) : defaultName(i);
  });
}
// The players the chosen preset is played by (GET /v1/rules seats: nanko 3 to 6); the seat buttons keep to it.
function seatRange() {
  return (S.catalog && S.catalog.seats && S.catalog.seats[$("#preset").value]) || { min: 2, max: 8 };
}
function fitSeats() {
  const { min, max } = seatRange();
  while ($$(".seatrow").length > max) $$(".seatrow").pop().remove();
  while ($$(".seatrow").length < min) addSeat("", "");
  const n = $$(".seatrow").length;
  $("#add-seat").disabled = n >= max;
  $("#remove-seat").disabled = n <= min;
  $("#seat-range").textContent = t("seat_range", { preset: $("#preset").value, min, max });
  syncLeader();
}
function syncLeader() {
  const table = $("#table-mode").checked;
  $("#leader-wrap").hidden = !table;
  // a real table: every seat is a person, so no bot choice and no bot names
  $$(".seatrow").forEach((row, i) => {
    const kind = $(".seat-kind", row), name = $(".seat-name", row);
    kind.hidden = kind.disabled = table;
    if (isDefaultName(name.value, i)) name.value = table ? t("player_n", { n: i + 1 }) : defaultName(i);
  });
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
  // a rule on with parameters other than the preset's: every parameter, as set (the rest are its defaults)
  const params = {};
  $$("[data-param]").forEach((c) => { (params[c.dataset.of] ||= []).push(c); });
  for (const [rule, inputs] of Object.entries(params)) {
    if (overrides[rule] === false) continue;
    const on = overrides[rule] === true || (pr[rule] !== false && pr[rule] !== undefined);
    if (!on || inputs.every((c) => JSON.stringify(paramValue(c)) === c.dataset.preset)) continue;
    overrides[rule] = Object.fromEntries(inputs.map((c) => [c.dataset.param, paramValue(c)]));
  }
  const adv = $("#rules-json").value.trim();
  if (adv) {
    try { Object.assign(overrides, JSON.parse(adv)); } catch (e) {
      $("#create-error").textContent = t("judge_bad_json", { box: t("box_advanced"), why: jsonTrouble(adv, e) }); return;
    }
  }
  if (Object.keys(overrides).length) body.rules = overrides;
  if (table) {
    body.table = true;
    const leader = Number($("#leader").value || 0);
    if (leader) body.leader = leader;  // seat 0 leads by default
  }
  const res = await api("/v1/games", { method: "POST", body });
  if (!res.ok) { setError($("#create-error"), res); return; }
  afterCreate(res.data, players, table);
}
function afterCreate(g, players, table) {
  const bots = players ? players.map((p) => p.bot || null) : [];
  remember(g.game_id, { table_token: g.table_token, seat_tokens: g.seat_tokens,
    names: g.state.players.map((p) => p.name), bots, preset: g.state.preset, table: !!table });
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
  g.state.players.forEach((p, i) => {
    if (!players || !players[i] || !players[i].bot) add(t("seat_link", { n: i, name: p.name }), g.seat_tokens[i]);
  });
  add(t("table_link"), g.table_token);
  const human = players ? players.findIndex((p) => !p.bot) : -1;
  if (table || human < 0) go("table", g.game_id, g.table_token);
  else go("table", g.game_id, g.seat_tokens[human]);
}
// The seats of a saved game that are the player's own: the human seats it created, or seat links it opened.
function mySeats(g) {
  const out = [];
  (g.seat_tokens || []).forEach((tok, i) => { if (tok && !(g.bots || [])[i] && !g.table) out.push([i, tok]); });
  Object.keys(g).forEach((k) => {
    const m = /^seat(\d+)$/.exec(k);
    if (m && !out.some(([i]) => i === Number(m[1]))) out.push([Number(m[1]), g[k]]);
  });
  return out.sort((a, b) => a[0] - b[0]);
}
function renderKnown() {
  const ul = $("#known-games");
  ul.innerHTML = "";
  const all = Object.entries(known()).sort((a, b) => b[1].at - a[1].at).slice(0, 8);
  for (const [id, g] of all) {
    const li = document.createElement("li");
    li.dataset.game = id;
    li.innerHTML = `<code>${id.slice(0, 8)}</code> <span translate="no">${escapeHtml(g.preset || "")} · ${escapeHtml((g.names || []).join(", "))}</span>`;
    const seats = mySeats(g);
    for (const [i, tok] of seats) {
      const a = document.createElement("a");
      a.className = "seatlink";
      a.href = link("table", id, tok);
      a.textContent = t("your_seat", { n: i, name: (g.names || [])[i] || "" });
      a.translate = false;  // it holds a player's name
      li.append(a);
    }
    if (!seats.length) li.insertAdjacentHTML("beforeend", `<span class="muted">${t("no_seat")}</span>`);
    const tok = seats.length ? seats[0][1] : g.table_token;
    if (tok) {
      const b = document.createElement("a");
      b.href = link("replay", id, tok); b.textContent = t("nav_replay");
      li.append(b);
    }
    if (g.table_token) {
      const a = document.createElement("a");
      a.className = "tablelink";
      a.href = link("table", id, g.table_token); a.textContent = t("table_link");
      li.append(a);
    }
    ul.appendChild(li);
  }
}
async function importRecord(ev) {
  ev.preventDefault();
  $("#import-error").textContent = "";
  const res = await api("/v1/games", { method: "POST", body: { record: $("#import-text").value } });
  if (!res.ok) { setError($("#import-error"), res); return; }
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
  S.banners = []; S.bannerShown = null; S.turnovers = []; S.lastTrick = null; S.resultDeal = null; S.standings = null; S.offline = false;
  S.kinds = null; S.flight = null;
  $("#felt").innerHTML = "";  // another game's field must not fly into this one
  const res = await api(`/v1/games/${id}`, { token });
  if (!res.ok) {
    setError($("#game-title"), res);
    return;
  }
  const v = res.headers.get("X-Referee-Viewer");
  S.game.viewer = v === "table" ? "table" : Number(v);
  S.actAs = S.game.viewer === "table" ? null : S.game.viewer;
  S.state = res.data;
  S.seq = Number(res.headers.get("X-Referee-Seq"));
  S.bannerSeq = S.evSeq = S.seq;  // history is in the log; banners are for what happens from now on
  remember(id, S.game.viewer === "table" ? { table_token: token, preset: S.state.preset, names: S.state.players.map((p) => p.name) }
    : { [`seat${S.game.viewer}`]: token, preset: S.state.preset, names: S.state.players.map((p) => p.name) });
  // the table token reads the rejected proposals too (the audit), each worded against the table it was judged on
  const audit = S.game.viewer === "table" ? "&include_rejected=true" : "";
  const ev = await api(`/v1/games/${id}/events?after=${Math.max(-1, S.seq - 40)}${audit}`, { token });
  if (ev.ok) S.log = ev.data.events.filter((e) => e.type !== "game_created");
  await Promise.all([readJudgedStates(S.log), loadSeatKinds()]);
  setupSeatSwitch();
  await refreshLegal();
  renderGame();
  stream(S.streamGen);
}
// Each rejection read from the audit (table token) gets the state it was judged on: the state after the event it
// followed (GET …/replay?seq=after_seq), so that its words never follow the table on. The last ten only.
async function readJudgedStates(log) {
  const rejected = log.filter((e) => e.type === "rejected" && !e.judged && typeof e.after_seq === "number").slice(-10);
  const seqs = [...new Set(rejected.map((e) => e.after_seq))];
  const states = {};
  await Promise.all(seqs.map(async (seq) => {
    const r = await api(`/v1/games/${S.game.id}/replay?seq=${seq}`, { token: S.game.token }).catch(() => null);
    if (r && r.ok) states[seq] = r.data.state;
  }));
  rejected.forEach((e) => { if (states[e.after_seq]) e.judged = states[e.after_seq]; });
}
// Who sits where: human, or which bot (GET /web/games/{id}/seats); the seat badges on the table say it.
async function loadSeatKinds() {
  const r = await api(`/web/games/${S.game.id}/seats`, { token: S.game.token }).catch(() => null);
  S.kinds = r && r.ok ? r.data.seats : null;
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
  ingest([JSON.parse(data)]);
  refresh();
}
// New events: into the log, and the moments worth a banner (once each, in order).
function ingest(evs) {
  for (const ev of evs) {
    if (typeof ev.seq === "number") S.evSeq = Math.max(S.evSeq, ev.seq);
    if (S.log.some((e) => e.seq === ev.seq && e.type === ev.type)) continue;
    S.log.push(ev);
    if (ev.seq > S.bannerSeq) {
      S.bannerSeq = ev.seq;
      const st = S.state;
      const own = bannersFor(ev, st);
      if (own.length) S.banners.push(mergedBanner(own, ev.seq));
      if (ev.type === "deal_started" || (ev.outcome || []).some((o) => o.kind === "play")) S.turnovers.push(ev.seq);
      const outs = ev.outcome || [];
      if (outs.some((o) => o.kind === "flush")) {
        const play = outs.find((o) => o.kind === "play");
        const cards = play ? play.cards : (st && st.field ? st.field.cards : null);
        if (cards && cards.length) S.lastTrick = { cards, as: play ? play.as : (st.field.as || {}), seat: play ? play.seat : st.field.seat, until: Date.now() + 2500 };
      }
      if (ev.type === "deal_started") S.lastTrick = null;
    }
  }
  S.log.sort((a, b) => logPos(a) - logPos(b));
  if (S.log.length > 200) S.log.splice(0, S.log.length - 200);
  dropStaleBanners();
  pumpBanners();
}
// Where an entry sits in the log: an event at its seq, a rejection right after the event it was judged against.
function logPos(e) {
  if (typeof e.seq === "number") return e.seq;
  return typeof e.after_seq === "number" ? e.after_seq + 0.5 : 1e9;
}
// One banner per event: the first moment large, the others beneath it.
function mergedBanner(list, seq) {
  const [head, ...rest] = list;
  const small = [head.small, ...rest.map((b) => (b.small ? `${b.text} (${b.small})` : b.text))].filter(Boolean).join(" · ");
  return { text: head.text, small, kind: head.kind, seq };
}
// A banner belongs to its event: once the field has moved on by two plays (or a new deal), it is stale and
// dropped, shown or queued, so the banner never lags the table by more than one play (the log keeps everything).
function staleBanner(b) {
  const later = S.turnovers.filter((q) => q > b.seq);
  return later.length >= 2 || S.turnovers.some((q) => q > b.seq && S.log.some((e) => e.seq === q && e.type === "deal_started"));
}
function dropStaleBanners() {
  S.banners = S.banners.filter((b) => !staleBanner(b));
  if (S.bannerShown && staleBanner(S.bannerShown)) {
    clearTimeout(S.bannerTimer);
    S.bannerTimer = null;
    S.bannerShown = null;
    $("#banner").hidden = true;
  }
}
function pumpBanners() {
  if (S.bannerTimer || !S.banners.length) return;
  const b = S.banners.shift();
  S.bannerShown = b;
  const el = $("#banner");
  el.dataset.seq = String(b.seq);
  el.innerHTML = `${escapeHtml(b.text)}${b.small ? `<small>${escapeHtml(b.small)}</small>` : ""}`;
  el.hidden = false;
  el.style.animation = "none"; void el.offsetWidth; el.style.animation = "";
  S.bannerTimer = setTimeout(() => {
    S.bannerTimer = null;
    S.bannerShown = null;
    if (!S.banners.length) el.hidden = true;
    pumpBanners();
  }, S.banners.length > 4 ? 500 : S.banners.length > 1 ? 1200 : 2000);
}
function setLive(on) {
  const el = $("#live");
  el.textContent = t(on ? "live" : "offline");
  el.dataset.i18n = on ? "live" : "offline";
  el.classList.toggle("on", on);
  if (on && navigator.onLine !== false && S.offline) { S.offline = false; refresh(); }
  else if (!on && S.state && !S.offline) { S.offline = true; renderGame(); }
}
function goOffline() { S.offline = true; setLive(false); if (S.state) renderGame(); }
function backOnline() {
  // the actions come back once a stream has connected again (setLive(true))
  if (!S.game || !S.state) return;
  if (S.streamAbort) S.streamAbort.abort();
  stream(++S.streamGen);
}
async function refresh() {
  if (S.refreshing) { S.dirty = true; return; }
  S.refreshing = true;
  try {
    do {
      S.dirty = false;
      let res;
      const game = S.game;
      try { res = await api(`/v1/games/${game.id}`, { token: game.token }); } catch (e) { goOffline(); return; }
      // another game (or this one with another token) was opened meanwhile: openGame reads it itself
      if (game !== S.game || game.viewer === null) return;
      if (res.ok) {
        S.lastSync = Date.now();
        const seq = Number(res.headers.get("X-Referee-Seq"));
        if (seq > S.evSeq) {
          // events the stream has not brought (yet): read them, so that every outcome is seen and shown
          const ev = await api(`/v1/games/${S.game.id}/events?after=${S.evSeq}`, { token: S.game.token }).catch(() => null);
          if (ev && ev.ok) ingest(ev.data.events);
        }
        if (seq !== S.seq) {
          S.chosen = null;  // a selection kept is read again against the new legal moves
          if (!keepsSelection(res.data)) { S.selected.clear(); S.ticked.clear(); }
          const pr = $("#proposal-result");
          if (pr.classList.contains("good")) { pr.innerHTML = ""; pr.className = "result"; }
        }
        S.state = res.data; S.seq = seq;
        try { await refreshLegal(); } catch (e) { goOffline(); return; }
        renderGame();
      }
    } while (S.dirty);
  } finally { S.refreshing = false; }
}
// Another seat's move (a bot declining a cut-back while this seat leads) leaves a selection standing as long as this
// seat still acts in the same deal and still holds every card of it.
function keepsSelection(st) {
  const p = st.players[S.actAs];
  return S.selected.size > 0 && S.state && st.deal === S.state.deal && actorsOf(st).includes(S.actAs)
    && p && Array.isArray(p.hand) && [...S.selected].every((c) => p.hand.includes(c));
}
async function refreshLegal() {
  S.legal = null;
  if (S.actAs === null || S.actAs === undefined) return;
  const res = await api(`/v1/games/${S.game.id}/legal-moves?seat=${S.actAs}`, { token: S.game.token });
  if (res.ok) S.legal = res.data;
}

// ---------------------------------------------------------------- rendering the table
// Who must act now: the engine says so in the state (engine.actors); the page derives no rule of its own.
function actorsOf(st) {
  return st.actors || [];
}
// Seats that passed since the last flush (from the log; pass_until_flush also lists them in the state).
function passedSeats(events, st) {
  const out = new Set(st.passed || []);
  for (let i = events.length - 1; i >= 0; i--) {
    const ev = events[i];
    if (ev.type === "deal_started") break;
    if (ev.type !== "move") continue;
    const outs = ev.outcome || [];
    const flush = outs.map((o) => o.kind).lastIndexOf("flush");
    const after = flush >= 0 ? outs.slice(flush + 1) : outs;
    after.filter((o) => o.kind === "pass").forEach((o) => out.add(o.seat));
    if (flush >= 0) break;
  }
  return out;
}
function fieldCardsEl(cards, as, cls = "") {
  const box = document.createElement("div");
  box.className = `fieldcards ${cls}`;
  cards.forEach((code) => {
    const ce = cardEl(code, "fieldcard");
    if (as && as[code]) { ce.classList.add("read"); ce.insertAdjacentHTML("beforeend", `<u>=${escapeHtml(cardName(as[code]))}</u>`); }
    box.appendChild(ce);
  });
  return box;
}
// A seat's badge: human, or which bot (registered bots by their @name; "away" when its fallback plays for it).
function seatKind(st, seat) {
  const p = st.players[seat] || {};
  const k = (S.kinds && S.kinds[seat]) || (p.bot ? { kind: "bot", bot: p.bot } : null);
  if (!k) return null;
  if (k.kind !== "bot") return { cls: "human", text: t("kind_human") };
  return { cls: "bot", text: t("kind_bot", { bot: k.bot }) + (p.away ? ` · ${t("kind_away")}` : "") };
}
// The table: the seats around the felt (the one to act ringed and marked, the one whose cards lie on the field
// marked too) and the field in the middle. lastTrick: {cards, as, seat} of a play the field no longer shows
// (flushed), drawn faded with 流れ. The field is redrawn only when what it shows changes, so a set in flight keeps
// flying; a new play (animate) flies in from the hand that played it, or from its player's seat.
function renderFelt(felt, st, bottom, acting, { passed = new Set(), lastTrick = null, hands = false, animate = false } = {}) {
  $$(":scope > .seat", felt).forEach((e) => e.remove());
  const n = st.players.length;
  const f = st.field && st.field.cards && st.field.cards.length ? st.field : null;
  st.players.forEach((p, i) => {
    const k = (i - (bottom || 0) + n) % n;
    const ang = Math.PI / 2 + (k * 2 * Math.PI) / n;
    const el = document.createElement("div");
    el.className = "seat";
    el.dataset.seat = String(p.seat);
    // inside the felt: the seat boxes are at most ~30% wide and ~30% high
    el.style.left = `${50 + 35 * Math.cos(ang)}%`;
    el.style.top = `${50 + 35 * Math.sin(ang)}%`;
    if (acting.includes(p.seat)) el.classList.add("acting");
    if (p.place) el.classList.add("done");
    if (isMe(p.seat, st)) el.classList.add("me");
    if (f && f.seat === p.seat) el.classList.add("lastplay");
    const pend = (st.pending || []).filter((x) => x.seat === p.seat);
    const kind = seatKind(st, p.seat);
    el.innerHTML = `<div class="who"><span class="seatno">${p.seat}</span> <span class="name" translate="no">${escapeHtml(p.name)}</span></div>` +
      (kind ? `<div class="kind ${kind.cls}">${escapeHtml(kind.text)}</div>` : "") +
      `<div class="title">${p.title ? escapeHtml(titleWord(p.title)) : "&nbsp;"}</div>` +
      `<div class="count"><span class="backs">${"<i></i>".repeat(Math.min(p.hand_count, 14))}</span> ${p.hand_count} ${t("cards_left")}</div>` +
      (p.place ? `<div class="place">${escapeHtml(ordinalWord(p.place))}</div>` : "") +
      (pend.length ? `<div class="pend">${pend.map((x) => escapeHtml(I18N.en[x.action] ? t(x.action) : x.action)).join(", ")}</div>` : "");
    if (passed.has(p.seat) && !p.place) el.insertAdjacentHTML("beforeend", `<div class="passmark">${t("pass_mark")}</div>`);
    if (acting.includes(p.seat)) el.insertAdjacentHTML("beforeend", `<div class="turnmark">▶ ${t("to_play")}</div>`);
    else if (f && f.seat === p.seat) el.insertAdjacentHTML("beforeend", `<div class="lastmark">${t("last_play")}</div>`);
    if (hands && Array.isArray(p.hand) && p.hand.length) {
      const h = document.createElement("div");
      h.className = "minihand";
      sortCards(p.hand, st.order === "reversed").forEach((c) => h.appendChild(cardEl(c, "mini")));
      el.appendChild(h);
    }
    felt.appendChild(el);
  });
  let c = $(":scope > .center", felt);
  if (!c) {
    c = document.createElement("div");
    c.className = "center";
    c.innerHTML = `<div class="field" id="${felt.id === "felt" ? "field" : "rp-field"}"></div><div class="chips"></div><div class="over"></div>`;
    felt.appendChild(c);
  }
  const shown = f ? { cards: f.cards, as: f.as, seat: f.seat, cls: "" } : lastTrick ? Object.assign({ cls: "lasttrick" }, lastTrick) : null;
  const key = JSON.stringify(shown ? [shown.cards, shown.as || {}, shown.seat, shown.cls, st.deal, S.lang] : [S.lang]);
  const fieldBox = $(".field", c);
  if (fieldBox.dataset.key !== key) {
    const before = fieldBox.dataset.key;
    fieldBox.dataset.key = key;
    fieldBox.innerHTML = "";
    if (shown) {
      const cards = fieldCardsEl(shown.cards, shown.as, shown.cls);
      fieldBox.appendChild(cards);
      const what = shown.cls ? `<span class="flushmark">${t("flush_mark")}</span>` : escapeHtml(shapeWord(f.shape, f.cards.length));
      fieldBox.insertAdjacentHTML("beforeend", `<div class="shape">${what} · <span translate="no">${escapeHtml(seatWord(shown.seat, st))}</span></div>`);
      const sameLang = before && JSON.parse(before).slice(-1)[0] === S.lang;
      if (animate && sameLang && !shown.cls) flyIn(cards, shown, felt);
    } else {
      fieldBox.innerHTML = `<div class="shape empty">${t("field")}: ${t("empty_field")}</div>`;
    }
  }
  $(".chips", c).innerHTML = orderChips(st) + lockChips(st);
  $(".over", c).textContent = st.phase === "deal_over" ? t("deal_over") : "";
}
function reducedMotion() { return window.matchMedia("(prefers-reduced-motion: reduce)").matches; }
// The cards just played move onto the field: from where they were in the player's hand (this page's own play:
// S.flight holds their places, taken before the proposal), else from their player's seat. Not with reduced motion.
function flyIn(box, shown, felt) {
  const mine = S.flight && Date.now() - S.flight.at < 15000 && shown.cards.every((c) => S.flight.rects[c]) ? S.flight : null;
  S.flight = null;
  if (reducedMotion()) { box.dataset.flight = "none"; return; }
  const seatEl = $(`:scope > .seat[data-seat="${shown.seat}"]`, felt);
  const seatBox = seatEl ? seatEl.getBoundingClientRect() : null;
  if (!mine && !seatBox) return;
  box.dataset.flight = mine ? "hand" : "seat";
  $$(".card", box).forEach((el, i) => {
    const to = el.getBoundingClientRect();
    const from = mine ? mine.rects[el.dataset.card] : { left: seatBox.left + seatBox.width / 2 - to.width / 2, top: seatBox.top + seatBox.height / 2 - to.height / 2, width: to.width };
    const dx = from.left - to.left, dy = from.top - to.top, scale = from.width / to.width;
    el.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: mine ? 1 : 0.2 }, { transform: "none", opacity: 1 }],
      { duration: 420 + 40 * i, easing: "cubic-bezier(.2,.7,.3,1)" });
  });
}
// The table's chips say only what differs from a plain table (the side panel says everything): a reversed order
// and why, play going the other way round.
function orderChips(st) {
  let s = st.order === "reversed" ? `<span class="chip warn" data-k="order">${t("order")}: ${t("reversed")}</span>` : "";
  if (st.revolution) s += `<span class="chip warn">${t("revolution")}</span>`;
  if (st.jack_back) s += `<span class="chip warn">${t("jack_back")}</span>`;
  if (st.direction === -1) s += `<span class="chip">↺ ${t("counter")}</span>`;
  return s;
}
// A rule's slot in the state (its dotted key: "locks.rank" is st.locks.rank), undefined where the state has none.
function slotValue(st, key) { return key.split(".").reduce((o, k) => (o && typeof o === "object" ? o[k] : undefined), st); }
// A slot's value in the page's language, from the words its rule declares (GET /v1/rules, each rule's slots): a
// template per language, or per value ("exact" → 縛り, the rule's name, never the engine's word); {suits} says
// the value's suits as symbols, {value} the value, {rule} the slot's own rule's name and {rule:ID} another's.
function slotWords(slot, value, owner, st) {
  const words = slot.words || {};
  let said = words[S.lang] || words.en;
  if (said && typeof said === "object") said = said[String(value)];
  if (typeof said !== "string") return "";
  return said.replace(/\{(\w+)(?::(\w+))?\}/g, (_, field, arg) => {
    if (field === "suits") return [].concat(value).map((x) => SUITS[x] || x).join("");
    if (field === "rule") return ruleWord(arg || owner, st);
    return [].concat(value).join(" ");
  });
}
// The locks in force, in words: every slot the catalogue flags a lock whose value is not its default, in registry
// order. A new lock is shown from its slot's declaration alone.
function lockParts(st) {
  const parts = [];
  for (const r of (S.catalog && S.catalog.rules) || []) {
    for (const slot of r.slots || []) {
      if (!slot.lock) continue;
      const value = slotValue(st, slot.key);
      if (value === undefined || JSON.stringify(value) === JSON.stringify(slot.default)) continue;
      const said = slotWords(slot, value, r.id, st);
      if (said) parts.push(said);
    }
  }
  return parts;
}
function lockChips(st) {
  const parts = lockParts(st);
  return parts.length ? `<span class="chip lock">${escapeHtml(t("lock_chip", { what: parts.join(" · ") }))}</span>` : "";
}
// The side panel: what a player reads (whose turn, the order, the locks…); the referee's own fields (seq, phase,
// the game id) wait in a folded Details panel.
function renderStatus(dl, st, acting) {
  const who = (s) => `<span translate="no">${escapeHtml(seatWord(s, st))}</span>`;
  const rows = [
    [t("turn"), acting.length ? acting.map(who).join(", ") : "—"],
    [t("order"), `${t(st.order === "reversed" ? "reversed" : "normal")}${st.revolution ? " · " + t("revolution") : ""}${st.jack_back ? " · " + t("jack_back") : ""}`],
    [t("direction"), st.direction === -1 ? t("counter") : t("clockwise")],
    [t("locks"), escapeHtml(lockParts(st).join(", ") || t("none"))],
    [t("discards"), (st.discard_pile || []).length + (st.hidden_discards || 0)],
    [t("finish_order"), (st.finish_order || []).map(who).join(" → ") || "—"],
  ];
  if (st.table) rows.push([t("table_mode_short"), t("unknown_hand")]);
  dl.innerHTML = rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("");
  const details = dl.parentElement.querySelector(".devfields");
  if (details) {
    const dev = [[t("deal"), st.deal], [t("phase"), I18N.en[`phase_${st.phase}`] ? t(`phase_${st.phase}`) : st.phase], [t("seq"), st.seq],
      [t("game_id"), S.game ? `<code>${escapeHtml(S.game.id)}</code>` : "—"], [t("preset"), `<span translate="no">${escapeHtml(st.preset)}</span>`]];
    details.innerHTML = dev.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("");
  }
}
function renderPending(ul, st) {
  ul.innerHTML = "";
  for (const p of st.pending || []) {
    const li = document.createElement("li");
    li.textContent = `${seatWord(p.seat, st)}: ${dueText(p, st)}`;
    ul.appendChild(li);
  }
  if (!ul.children.length) ul.innerHTML = `<li class="muted">${t("none")}</li>`;
}
// A decision owed, in words: "7渡し (seven pass): give 2 cards to Ren".
function dueText(p, st = S.state) {
  const vars = { n: p.count, cards: countWords(p.count), to: p.to === undefined || p.to === null ? "—" : seatWord(p.to, st), rule: ruleWord(p.rule, st) };
  const key = { give: "due_give", discard: "due_discard", take: "due_take", request: "due_request", cut_back: "due_cut_back" }[p.action];
  if (!key) return t("due_other", { rule: vars.rule, action: I18N.en[p.action] ? t(p.action) : p.action });
  return t(p.upto && (p.action === "give" || p.action === "discard") ? `${key}_upto` : key, vars);
}
// A log line. A rejection is worded against the state it was judged on (kept with it), never against today's table:
// without that state (an old audit entry), in the referee's own words.
function eventItem(ev, st) {
  const li = document.createElement("li");
  li.dataset.seq = typeof ev.seq === "number" ? ev.seq : "✗";
  if (ev.type === "rejected") {
    li.className = "rejected";
    const base = st || S.state;
    li.innerHTML = eventHtml(ev, ev.judged || { players: base.players, rules: base.rules, unjudged: true });
  } else li.innerHTML = eventHtml(ev, st || S.state);
  appendUnchecked(li, ev.verdict || {});
  return li;
}
function appendUnchecked(li, v) {
  if (v.unchecked && v.unchecked.length) {
    li.insertAdjacentHTML("beforeend", `<small class="unchecked"> ${t("unchecked")}: ${v.unchecked.map((u) => escapeHtml(uncheckedWord(u))).join(", ")}</small>`);
  }
}
// What the referee could not check (table mode), named as its rejection would be: "not_in_hand" → "cards in hand"
function uncheckedWord(u) { return I18N.en[`unchecked_${u}`] ? t(`unchecked_${u}`) : u.replace(/_/g, " "); }
function outcomeText(o) { return escapeHtml(outcomeWords(o, S.state)); }
function renderGame() {
  const st = S.state;
  if (!st || S.game.viewer === null) return;  // openGame has not learnt who is looking yet
  const acting = actorsOf(st);
  const me = S.game.viewer === "table" ? S.actAs : S.game.viewer;
  document.body.dataset.seq = String(S.seq);
  document.body.dataset.phase = st.phase;
  document.body.dataset.game = S.game.id;
  document.body.dataset.offline = S.offline ? "1" : "";
  const viewer = S.game.viewer === "table" ? t("table_view") : t("viewing_as", { name: st.players[S.game.viewer].name });
  $("#game-title").innerHTML = `<span translate="no">${escapeHtml(st.preset)}</span>${st.table ? ` · ${t("table_mode_short")}` : ""} · ` +
    `${escapeHtml(t("deal_n", { n: st.deal }))} · ${escapeHtml(viewer)}`;
  const lt = S.lastTrick && S.lastTrick.until > Date.now() && !(st.field && st.field.cards && st.field.cards.length) ? S.lastTrick : null;
  if (lt) setTimeout(() => { if (S.lastTrick === lt) renderGame(); }, lt.until - Date.now() + 20);
  renderFelt($("#felt"), st, me === null || me === undefined ? 0 : me, acting,
    { passed: passedSeats(S.log, st), lastTrick: lt, hands: S.game.viewer === "table", animate: true });
  renderStatus($("#status"), st, acting);
  renderPending($("#pending"), st);
  const log = $("#log");
  log.innerHTML = "";
  S.log.slice(-30).reverse().forEach((ev) => log.appendChild(eventItem(ev, st)));
  $("#offline-banner").hidden = !S.offline;
  $("#next-deal").hidden = st.phase !== "deal_over";
  $("#show-result").hidden = st.phase !== "deal_over";
  renderHand(st, acting);
  renderEntry(st, acting);
  renderResult(st);
}
// ---------------------------------------------------------------- playing a seat
function dueFor(st, seat) {
  const p = (st.pending || []).find((x) => x.seat === seat);
  if (p) return p;
  // in a cut-back window the next leader may lead at once (its lead closes the window)
  const inWindow = (st.pending || []).length && st.pending[0].action === "cut_back";
  if (st.phase === "play" && st.turn === seat && (!(st.pending || []).length || inWindow)) return { action: "play" };
  return null;
}
// The player's cards to play now: the cards of the legal moves, the `choose` lists of give/discard decisions.
function renderHand(st, acting) {
  const panel = $("#hand-panel");
  const seat = S.actAs;
  if (seat === null || seat === undefined || !st.players[seat]) { panel.hidden = true; return; }
  panel.hidden = false;
  const p = st.players[seat];
  const unknownHand = p.hand === null || p.hand === undefined || p.unknown > 0;
  const moves = (S.legal && S.legal.seq === S.seq ? S.legal.moves : []) || [];
  const mine = acting.includes(seat) && moves.length > 0;
  const live = !S.offline;
  const due = mine ? dueFor(st, seat) : null;
  $("#hand-title").innerHTML = `<span translate="no">${escapeHtml(p.name)}</span>${p.title ? " · " + escapeHtml(titleWord(p.title)) : ""} (${t("seat")} ${seat})`;
  panel.classList.toggle("myturn", mine);
  const canPass = moves.some((m) => m.action === "pass");
  const canPlay = moves.some((m) => m.action === "play");
  // "Play or pass" only when both are possible
  const choice = canPass && canPlay ? "due_play" : canPass ? "due_pass_only" : "due_lead";
  $("#due").textContent = S.offline ? t("offline_banner") : mine ? `${t("your_turn")} — ${due && due.action !== "play" ? dueText(due, st) : t(choice)}`
    : acting.length ? `${t("waiting")} ${acting.map((s) => seatWord(s, st)).join(", ")}` : (st.phase === "deal_over" ? t("deal_over") : "");
  // a card is "playable" when it is a legal play alone (or may be chosen for a give/discard); a selection that
  // completes a legal play of several cards is marked "complete"
  const playable = new Set();
  moves.forEach((m) => {
    if (m.choose) m.choose.from.concat(m.cards || []).forEach((c) => playable.add(c));
    else if (Array.isArray(m.cards) && m.cards.length === 1) playable.add(m.cards[0]);
  });
  const sel = [...S.selected];
  const complete = sel.length > 1 && moves.some((m) => !m.choose && Array.isArray(m.cards) && sameSet(m.cards, sel));
  const received = receivedCards(seat);
  const hand = $("#hand");
  hand.innerHTML = "";
  if (p.hand === null) {
    hand.innerHTML = `<span class="muted">${p.hand_count} ${t("cards_left")} (${t("hidden")})</span>`;
  } else {
    for (const code of sortCards(p.hand, st.order === "reversed")) {
      const ce = cardEl(code, "handcard");
      if (playable.has(code)) ce.classList.add("playable");
      if (S.selected.has(code)) ce.classList.add("selected");
      if (complete && S.selected.has(code)) ce.classList.add("complete");
      if (received.has(code)) { ce.classList.add("received"); ce.dataset.new = t("new_card"); }
      ce.tabIndex = 0;
      ce.setAttribute("role", "button");
      ce.setAttribute("aria-pressed", S.selected.has(code) ? "true" : "false");
      ce.addEventListener("click", () => toggleCard(code));
      hand.appendChild(ce);
    }
    if (p.unknown) hand.insertAdjacentHTML("beforeend", `<span class="muted">${p.hand.length ? "+ " : ""}${p.unknown} ${t("cards_left")} · ${t("unknown_hand")}</span>`);
    if (S.focusCard) { const f = $(`.handcard[data-card="${S.focusCard}"]`, hand); if (f) f.focus(); }
  }
  renderDeclarations(st, mine && due && due.action === "play" && live, moves);
  const action = due ? (due.action === "play" ? "play" : due.action) : "play";
  const act = $("#act");
  act.textContent = t(action === "request" ? "request" : action);
  act.dataset.action = action;
  act.disabled = !live || !mine || action === "request";
  $("#pass").disabled = !live || !mine || !canPass;
  $("#clear").disabled = !live;
  // options: every legal move, weakest first; never enumerated for a hand the referee does not know
  const opts = $("#options");
  opts.innerHTML = "";
  if (unknownHand && moves.length && !moves.every((m) => m.action === "pass")) {
    opts.innerHTML = `<span class="muted">${t("unknown_hand_opts")}</span>`;
    return;
  }
  const shown = sortMoves(moves.filter((m) => m.action !== "pass"), st);
  shown.forEach((m, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "option";
    b.dataset.index = String(moves.indexOf(m));
    b.textContent = moveLabel(m);
    b.disabled = !live;
    if (S.chosen === m) b.classList.add("chosen");
    b.addEventListener("click", () => chooseOption(m));
    opts.appendChild(b);
  });
  if (!shown.length) opts.innerHTML = `<span class="muted">${mine && canPass ? t("pass") : t("no_options")}</span>`;
}
// Cards given to this seat since its own last move (the exchange, 7渡し, a request answered): highlighted in the hand.
function receivedCards(seat) {
  const out = new Set();
  for (let i = S.log.length - 1; i >= 0; i--) {
    const ev = S.log[i];
    if (ev.type === "move" && ev.move && ev.move.seat === seat && ev.move.action === "play") break;
    for (const o of ev.outcome || []) if (o.kind === "give" && o.to === seat && Array.isArray(o.cards)) o.cards.forEach((c) => out.add(c));
    if (ev.type === "deal_started") break;
  }
  return out;
}
function moveStrength(m, reversed) {
  const cards = (m.cards || []).map((c) => (m.as && m.as[c]) || c);
  const ranks = cards.map((c) => cardStrength(c, reversed));
  return ranks.length ? Math.min(...ranks) : -1;
}
function sortMoves(moves, st) {
  const reversed = st.order === "reversed";
  return [...moves].sort((a, b) => moveStrength(a, reversed) - moveStrength(b, reversed) ||
    (a.cards || []).length - (b.cards || []).length || (b.declare || []).length - (a.declare || []).length);
}
// Gekifugo: the declarations the selected cards can carry (from the legal moves whose cards are the selection)
// are offered ticked; every other declarable rule waits behind "more".
function renderDeclarations(st, active, moves) {
  const decl = $("#declare");
  decl.innerHTML = "";
  const declarable = declarableRules(st);
  if (!declarable.length || !active) return;
  const sel = [...S.selected];
  const matching = sel.length ? moves.filter((m) => m.action === "play" && sameSet(m.cards, sel)) : [];
  const suggested = new Set();
  matching.forEach((m) => (m.declare || []).forEach((d) => suggested.add(d)));
  if (S.declFor !== sel.sort().join(" ")) {
    // a new selection: tick what its fullest legal reading declares (the player may untick)
    S.declFor = sel.sort().join(" ");
    const fullest = matching.reduce((best, m) => ((m.declare || []).length > (best ? best.length : -1) ? (m.declare || []) : best), null);
    S.ticked = new Set(S.chosen && S.chosen.declare ? S.chosen.declare : fullest || []);
  }
  const box = (r) => {
    const lab = document.createElement("label");
    lab.className = "decl";
    lab.innerHTML = `<input type="checkbox" value="${r.id}"${S.ticked.has(r.id) ? " checked" : ""}> ${escapeHtml(declLabel(r.id, st))}`;
    lab.title = `${r.id}: ${ruleDesc(r)}`;
    $("input", lab).addEventListener("change", (e) => { if (e.target.checked) S.ticked.add(r.id); else S.ticked.delete(r.id); });
    return lab;
  };
  if (suggested.size) {
    decl.insertAdjacentHTML("beforeend", `<span>${t("declarations")} (${t("suggested")}):</span>`);
    declarable.filter((r) => suggested.has(r.id)).forEach((r) => { const l = box(r); l.classList.add("suggested"); decl.appendChild(l); });
  }
  const rest = declarable.filter((r) => !suggested.has(r.id));
  if (rest.length) {
    const more = document.createElement("details");
    more.className = "more";
    more.open = !!S.moreOpen || rest.some((r) => S.ticked.has(r.id));
    more.innerHTML = `<summary>${t("more_decl")} (${rest.length})</summary>`;
    more.addEventListener("toggle", () => { S.moreOpen = more.open; });
    rest.forEach((r) => more.appendChild(box(r)));
    decl.appendChild(more);
  }
}
function declarableRules(st) {
  if (!S.catalog || !st.rules || !st.rules.declarations_required) return [];
  return S.catalog.rules.filter((r) => r.declarable && st.rules[r.id] !== false && st.rules[r.id] !== undefined);
}
function moveLabel(m) {
  let s = m.action === "play" ? "" : `${t(m.action)} `;
  if (Array.isArray(m.cards)) s += cardsWords(m.cards, m.as);
  if (m.choose) {
    const n = m.choose.min === m.choose.max ? `${m.choose.min}` : `${m.choose.min}–${m.choose.max}`;
    s += `${Array.isArray(m.cards) && m.cards.length ? " + " : ""}${n === "1" ? t("one_card") : t("n_cards", { n })} / ${m.choose.from.length}`;
  }
  if (m.rank !== undefined && m.rank !== null) s += ` ${cardName(m.rank)}`;
  if (m.count !== undefined && m.count !== null) s += ` ×${m.count}`;
  if (m.declare && m.declare.length) s += ` · ${m.declare.map((d) => declLabel(d, S.state)).join("・")}`;
  if (m.decline && (m.decline.length || m.decline === true)) {
    const declined = Array.isArray(m.decline) ? m.decline : m.rule ? [m.rule] : [];
    s += ` · ${t("w_decline", { rule: declined.map((d) => ruleWord(d, S.state)).join("・") })}`;
  }
  return s.trim() || t(m.action);
}
function toggleCard(code) {
  if (S.offline) return;
  if (S.selected.has(code)) S.selected.delete(code); else S.selected.add(code);
  S.chosen = null;
  S.focusCard = code;
  renderHand(S.state, actorsOf(S.state));
}
function chooseOption(m) {
  if (S.offline) return;
  if (m.choose) {
    // a choice of N cards: preselect its fixed cards plus the weakest allowed ones (table mode: at most
    // limit.max of the cards the referee has seen); the player may change them, then presses the action button
    const capped = new Set(m.choose.limit ? m.choose.limit.cards : []);
    let room = m.choose.limit ? m.choose.limit.max : Infinity;
    const pick = [];
    for (const c of sortCards(m.choose.from, S.state.order === "reversed")) {
      if (pick.length >= m.choose.min) break;
      if (capped.has(c)) { if (room <= 0) continue; room -= 1; }
      pick.push(c);
    }
    S.selected = new Set([...(m.cards || []), ...pick]);
    S.chosen = null;
    renderHand(S.state, actorsOf(S.state));
    return;
  }
  // a request names a rank and a take (死者蘇生) names a discard: neither has hand cards to select first
  if (m.action === "request" || m.action === "take" || !Array.isArray(m.cards)) { propose(m); return; }
  S.selected = new Set(m.cards);
  S.chosen = m;
  S.declFor = null;
  renderHand(S.state, actorsOf(S.state));
}
function sameSet(a, b) { const A = new Set(a || []); const B = new Set(b || []); return A.size === B.size && [...A].every((x) => B.has(x)); }
function moveOf(m) {
  const out = {};
  for (const [k, v] of Object.entries(m)) if (k !== "choose" && k !== "rule") out[k] = v;
  return out;
}
async function actSelected() {
  if (S.offline) return;
  const action = $("#act").dataset.action;
  const showsDecl = $$("#declare input").length > 0;
  const ticked = showsDecl ? [...S.ticked] : [];
  const cards = [...S.selected];
  const moves = (S.legal && S.legal.moves) || [];
  let move = null;
  if (S.chosen && sameSet(S.chosen.cards, cards) && (!showsDecl || sameSet(S.chosen.declare, ticked))) move = S.chosen;
  if (!move) {
    const same = moves.filter((m) => m.action === action && !m.choose && sameSet(m.cards, cards));
    move = same.find((m) => !showsDecl || sameSet(m.declare, ticked)) || (!showsDecl && same[0]) || null;
  }
  if (!move) {
    const ch = moves.find((m) => m.action === action && m.choose);
    if (ch) {
      const fixed = ch.cards || [];
      const picked = cards.filter((c) => !fixed.includes(c));
      if (picked.every((c) => ch.choose.from.includes(c)) && picked.length >= ch.choose.min && picked.length <= ch.choose.max) {
        move = Object.assign(moveOf(ch), { cards: [...fixed, ...picked] });
      }
    }
  }
  if (!move) {
    if (!cards.length && action !== "cut_back") { setResult($("#proposal-result"), null, () => t("nothing_selected")); return; }
    move = { seat: S.actAs, action, cards };
    if (ticked.length) move.declare = ticked;
  }
  await propose(moveOf(move));
}
// The page asks for the referee's English message (?lang=en, whatever the browser's Accept-Language): the page words
// every verdict itself, in either language, from the verdict's fields and the state it was judged on.
async function propose(move) {
  if (S.offline) return;
  const out = $("#proposal-result");
  const sent = Object.assign(moveOf(move), { seat: S.actAs });
  takeOff(sent);
  let res;
  try {
    res = await api(`/v1/games/${S.game.id}/moves?lang=en`, { method: "POST", token: S.game.token, body: sent });
  } catch (e) { S.flight = null; goOffline(); return; }
  if (res.status === 200 || res.status === 422) {
    const judged = res.status === 422 ? res.data.state : S.state;
    setResult(out, res.data.verdict, null, sent, judged);
    if (res.status === 422) {
      S.flight = null;
      S.log.push({ type: "rejected", after_seq: res.data.seq, verdict: res.data.verdict, move: sent, judged });
      S.selected.clear(); S.chosen = null; S.declFor = null;
      renderGame();
    } else {
      S.selected.clear(); S.chosen = null; S.focusCard = null;
      refresh();
    }
  } else {
    S.flight = null;
    setResult(out, null, () => errText(res));
  }
}
// Where the cards of a play leave the hand from: the field's new cards fly in from there (flyIn).
function takeOff(move) {
  if (move.action !== "play" || !Array.isArray(move.cards)) return;
  const rects = {};
  for (const c of move.cards) {
    const el = $(`#hand .handcard[data-card="${c}"]`);
    if (el) rects[c] = el.getBoundingClientRect();
  }
  S.flight = { cards: move.cards, rects, at: Date.now() };
}
// A verdict in words in `el`, in the page's language: the rejection's reason worded against `st`, the state it was
// judged on. `text` (a string, or a function giving it) for an error instead. Said again on a language switch.
function setResult(el, v, text, move, st = S.state) {
  el.rerender = () => setResult(el, v, text, move, st);
  el.innerHTML = "";
  el.className = el.className.includes("big") ? "result big" : "result";
  if (!v) { el.classList.add("bad"); el.textContent = typeof text === "function" ? text() : text; return; }
  el.classList.add(v.legal ? "good" : "bad");
  const m = move || {};
  const said = v.legal ? `${seatWord(m.seat, st)} ${moveWords(m, st)}` : reasonWords(v, m, st);
  el.innerHTML = `<span class="badge ${v.legal ? "ok" : "bad"}">${t(v.legal ? "legal" : "illegal")}</span>` +
    ` <span class="message">${escapeHtml(said)}</span>`;
  if (v.reason) el.dataset.reason = v.reason;
  if (v.effects && v.effects.length) {
    const ef = document.createElement("span");
    ef.className = "effects";
    ef.append(` ${t("effects")}: `);
    v.effects.forEach((e) => ef.appendChild(ruleChip(e, st)));
    el.appendChild(ef);
  }
  (v.void_declarations || []).forEach((d) => el.insertAdjacentHTML("beforeend", ` <span class="chip lock">${escapeHtml(t("void_decl", { rule: ruleWord(d, st) }))}</span>`));
  if (v.reading && Object.keys(v.reading).length) el.insertAdjacentHTML("beforeend", ` <small>JOKER = ${escapeHtml(Object.values(v.reading).map(cardName).join(" "))}</small>`);
  appendUnchecked(el, v);
}
// ---------------------------------------------------------------- entering a real table's plays (table token)
// The table device's forms, rebuilt from the current state at every change (names, card counts, whose turn).
function renderEntry(st, acting) {
  const panel = $("#entry-panel");
  if (S.game.viewer !== "table") { panel.hidden = true; return; }
  panel.hidden = false;
  const fill = (sel, label) => {
    const keep = sel.dataset.touched ? sel.value : null;
    sel.innerHTML = "";
    st.players.forEach((p) => sel.add(new Option(label(p), String(p.seat))));
    return keep;
  };
  const sel = $("#entry-seat");
  const keep = fill(sel, (p) => `${p.seat} · ${p.name} (${p.hand_count})`);
  sel.value = keep !== null ? keep : String(acting.length ? acting[0] : 0);
  const due = dueFor(st, Number(sel.value));
  const actSel = $("#entry-action");
  if (!actSel.dataset.touched) actSel.value = due ? due.action : "play";
  const cs = $("#correct-seat");
  const keepC = fill(cs, (p) => `${p.seat} · ${p.name} (${p.hand_count})`);
  if (keepC !== null) cs.value = keepC;
  $("#correct-form").hidden = !st.table;
  // declarations as checkboxes (declarations_required), kept across re-renders until a proposal is accepted
  const box = $("#entry-declare");
  const ticked = new Set($$("input:checked", box).map((c) => c.value));
  const wasOpen = $("details", box) ? $("details", box).open : window.matchMedia("(min-width: 900px)").matches;
  box.innerHTML = "";
  const declarable = declarableRules(st);
  if (declarable.length) {
    const det = document.createElement("details");
    det.open = wasOpen;
    det.innerHTML = `<summary>${t("declarations")} (${ticked.size}/${declarable.length})</summary>`;
    for (const r of declarable) {
      const lab = document.createElement("label");
      lab.innerHTML = `<input type="checkbox" value="${r.id}"${ticked.has(r.id) ? " checked" : ""}> ${escapeHtml(declLabel(r.id, st))}`;
      lab.title = `${r.id}: ${ruleDesc(r)}`;
      $("input", lab).addEventListener("change", () => {
        $("summary", det).textContent = `${t("declarations")} (${$$("input:checked", det).length}/${declarable.length})`;
      });
      det.appendChild(lab);
    }
    box.appendChild(det);
  }
}
function parseCards(text) {
  return text.split(/[\s,]+/).filter(Boolean).map((c) => c.toUpperCase().replace(/^([SHDC])10$/, "$1T")
    .replace(/^JOKER$/, "JK1").replace(/^[♠]/, "S").replace(/^[♥]/, "H").replace(/^[♦]/, "D").replace(/^[♣]/, "C").replace(/^([SHDC])10$/, "$1T"));
}
async function submitCorrection(ev) {
  ev.preventDefault();
  const seat = Number($("#correct-seat").value);
  const hands = S.state.players.map(() => null);
  hands[seat] = parseCards($("#correct-cards").value);
  const res = await api(`/v1/games/${S.game.id}/hands`, { method: "POST", token: S.game.token, body: { hands } });
  const out = $("#correct-result");
  out.className = `result ${res.ok ? "good" : "bad"}`;
  if (res.ok) {
    const st = res.data.state || {};
    const p = (st.players || [])[seat] || {};
    out.textContent = `${t("corrected")}: ${t("corrected_hand", { who: seatWord(seat, st), cards: cardsWords(sortCards(p.hand || hands[seat], st.order === "reversed")) })}`;
    $("#correct-cards").value = "";
    refresh();
  } else out.textContent = errText(res);
}
async function submitEntry(ev) {
  ev.preventDefault();
  const move = { seat: Number($("#entry-seat").value), action: $("#entry-action").value };
  const cards = parseCards($("#entry-cards").value);
  if (cards.length && move.action !== "pass") move.cards = cards;
  const declare = $$("#entry-declare input:checked").map((c) => c.value);
  if (declare.length && move.action === "play") move.declare = declare;
  const extra = $("#entry-extra").value.trim();
  if (extra) {
    try { Object.assign(move, JSON.parse(extra)); } catch (e) {
      setResult($("#entry-result"), null, () => t("judge_bad_json", { box: t("extra"), why: jsonTrouble(extra, e) })); return;
    }
  }
  const res = await api(`/v1/games/${S.game.id}/moves?lang=en`, { method: "POST", token: S.game.token, body: move });
  if (res.status === 200 || res.status === 422) {
    const judged = res.status === 422 ? res.data.state : S.state;
    setResult($("#entry-result"), res.data.verdict, null, move, judged);
    if (res.status === 200) {
      $("#entry-cards").value = ""; $("#entry-extra").value = "";
      $$("#entry-declare input").forEach((c) => { c.checked = false; });
      $("#entry-seat").dataset.touched = ""; $("#entry-action").dataset.touched = "";
      refresh();
    } else {
      S.log.push({ type: "rejected", after_seq: res.data.seq, verdict: res.data.verdict, move, judged });
      renderGame();
    }
  } else setResult($("#entry-result"), null, () => errText(res));
}

// ---------------------------------------------------------------- the result of a deal
function renderResult(st) {
  const box = $("#result-screen");
  if (st.phase !== "deal_over" || S.resultDeal === st.deal) { box.hidden = true; return; }
  box.hidden = false;
  $("#result-title").textContent = t("places_title", { n: st.deal });
  const rows = [...st.players].sort((a, b) => (a.place || 99) - (b.place || 99));
  const n = st.players.length;
  const you = (p) => (isMe(p.seat, st) && ![I18N.en.you, I18N.ja.you].includes(p.name.toLowerCase()) ? ` (${t("you")})` : "");
  $("#result-places").innerHTML = rows.map((p) => `<tr data-seat="${p.seat}"><td>${p.place ? ordinalWord(p.place) : "—"}</td>` +
    `<td class="title">${escapeHtml(titleWord(p.title))}</td><td><span translate="no">${escapeHtml(p.name)}</span>${you(p)}</td>` +
    `<td class="pts">${p.place ? `+${placePoints(p.place, n)} ${t("points")}` : ""}</td></tr>`).join("");
  const counts = st.exchange_counts || [];
  const rules = st.rules || {};
  const byPlace = {};
  st.players.forEach((p) => { if (p.place) byPlace[p.place] = p; });
  const pairs = [];
  if (rules.exchange !== false && rules.exchange !== undefined) {
    counts.forEach((c, i) => {
      const high = byPlace[i + 1], low = byPlace[n - i];
      if (!c || !high || !low || high === low) return;
      const key = S.game.viewer === low.seat ? "exch_pair_low_you" : S.game.viewer === high.seat ? "exch_pair_high_you" : "exch_pair";
      pairs.push(t(key, { n: c, count: countWords(c), high: seatWord(high.seat, st), low: seatWord(low.seat, st) }));
    });
  }
  $("#result-exchange").innerHTML = pairs.length ? `<b>${t("exchange_next")}</b><ul>${pairs.map((x) => `<li>${escapeHtml(x)}</li>`).join("")}</ul>` : "";
  const table = $("#result-standings");
  if (!S.standings || S.standings.seq !== S.seq) {
    table.innerHTML = "";
    loadStandings();
  } else {
    const pts = S.standings.points;
    const order = st.players.map((p) => p.seat).sort((a, b) => pts[b] - pts[a]);
    table.innerHTML = `<tr><th></th><th>${t("points")}</th><th>${t("firsts")}</th><th>${t("deals")}</th></tr>` +
      order.map((s) => `<tr><td translate="no">${escapeHtml(st.players[s].name)}</td><td>${pts[s]}</td><td>${S.standings.firsts[s]}</td><td>${S.standings.deals}</td></tr>`).join("");
  }
  $("#result-points").textContent = t("points_rule", { points: Array.from({ length: n }, (_, i) => placePoints(i + 1, n)).join(" · ") });
  $("#result-next").disabled = S.offline;
}
// The one points table of the referee (referee/scoring.py, docs/bots.md "Points"): at N seats, first place scores N
// and last place 1, the UECda contest's table. The result panel, the Bots view, tournaments and leagues all use it.
function placePoints(place, seats) { return seats + 1 - place; }
// Running standings from the whole event log: each finished deal gives placePoints to every seat.
async function loadStandings() {
  const seq = S.seq;
  const res = await api(`/v1/games/${S.game.id}/events`, { token: S.game.token });
  if (!res.ok || seq !== S.seq) return;
  const n = S.state.players.length;
  const points = Array(n).fill(0), firsts = Array(n).fill(0);
  let places = Array(n).fill(null), deals = 0;
  const close = () => {
    if (places.every((p) => p)) { deals++; places.forEach((p, s) => { points[s] += placePoints(p, n); if (p === 1) firsts[s]++; }); }
    places = Array(n).fill(null);
  };
  for (const ev of res.data.events) {
    if (ev.type === "deal_started") close();
    for (const o of ev.outcome || []) {
      if (o.kind === "finish" || o.kind === "capital_fall") places[o.seat] = o.place;
      if (o.kind === "gekokujo") places = [...o.places];
    }
  }
  close();
  S.standings = { seq, points, firsts, deals };
  renderResult(S.state);
}
async function nextDeal() {
  if (S.offline) return;
  const res = await api(`/v1/games/${S.game.id}/deals`, { method: "POST", token: S.game.token });
  if (!res.ok) setResult($("#proposal-result"), null, () => errText(res)); else refresh();
}
// ---------------------------------------------------------------- replay
async function loadReplay() {
  if (!S.game) return;
  const res = await api(`/v1/games/${S.game.id}/events`, { token: S.game.token });
  if (!res.ok) { setError($("#replay-title"), res); return; }
  S.replay.events = res.data.events;
  const last = res.data.seq;
  const scrub = $("#scrub");
  scrub.max = String(last);
  const h = parseHash();
  const target = h.seq !== undefined ? Math.min(Number(h.seq), last) : (S.replay.state ? Math.min(S.replay.seq, last) : last);
  $("#replay-title").innerHTML = `<code>${S.game.id.slice(0, 8)}</code> <span translate="no">${escapeHtml(S.state ? S.state.preset : "")}</span>`;
  renderReplayLog();
  await showSeq(target);
}
function renderReplayLog() {
  const ol = $("#rp-log");
  ol.innerHTML = "";
  for (const ev of S.replay.events) {
    const li = eventItem(ev, S.state);
    li.addEventListener("click", () => showSeq(ev.seq));
    ol.appendChild(li);
  }
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
  const upto = S.replay.events.filter((e) => e.seq <= seq);
  const ev = S.replay.events.find((e) => e.seq === seq);
  // a step that flushed (8切り, everyone passed, …): its trick stays on the field, marked 流れ
  let lastTrick = null;
  if (ev && (ev.outcome || []).some((o) => o.kind === "flush") && !(st.field && st.field.cards && st.field.cards.length)) {
    const play = (ev.outcome || []).find((o) => o.kind === "play");
    if (play) lastTrick = { cards: play.cards, as: play.as, seat: play.seat };
    else {
      for (let i = upto.length - 2; i >= 0 && !lastTrick; i--) {
        const p = (upto[i].outcome || []).find((o) => o.kind === "play");
        if (p) lastTrick = { cards: p.cards, as: p.as, seat: p.seat };
      }
    }
  }
  renderFelt($("#rp-felt"), st, bottom, acting, { passed: passedSeats(upto, st), lastTrick, hands: true });
  renderStatus($("#rp-status"), st, acting);
  renderPending($("#rp-pending"), st);
  $("#rp-seq").textContent = `${t("seq")} ${seq} / ${$("#scrub").max}`;
  const box = $("#rp-event");
  box.innerHTML = "";
  if (ev) box.appendChild(eventItem(ev, st));
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
// A box's JSON, or undefined after saying in words what is wrong with it.
function jsonTrouble(text, e) {
  if (!text.trim()) return t("json_empty");
  return /end of (JSON )?input|Unterminated/.test(e.message) ? t("json_end") : t("json_other");
}
function parsedBox(text, box, out) {
  try { return JSON.parse(text); } catch (e) {
    setResult(out, null, () => t("judge_bad_json", { box: t(box), why: jsonTrouble(text, e) }));
    return undefined;
  }
}
async function submitJudge(ev) {
  ev.preventDefault();
  const out = $("#judge-result");
  out.title = "";
  const state = parsedBox($("#judge-state").value, "box_state", out);
  if (state === undefined) return;
  if (!state || typeof state !== "object" || !Array.isArray(state.players)) { setResult(out, null, () => t("judge_need_state")); return; }
  const move = parsedBox($("#judge-move").value, "box_move", out);
  if (move === undefined) return;
  const r = $("#judge-rules").value.trim();
  const rules = r ? parsedBox(r, "box_rules", out) : null;
  if (rules === undefined) return;
  const body = { preset: $("#judge-preset").value, state, move };
  if (rules) body.rules = rules;
  const res = await api("/v1/judge?lang=en", { method: "POST", body });
  if (!res.ok) {
    const e = res.data && res.data.error;
    // an inconsistent pasted state: say what to paste; the referee's own words (with its internals) stay in the tooltip
    if (e && e.code === "bad_state") { setResult(out, null, () => t("judge_need_state")); out.title = plainWords(e.message); return; }
    setResult(out, null, () => errText(res)); out.title = e && S.lang === "ja" ? `${e.code}: ${e.message}` : ""; return;
  }
  // a pasted state is nobody's game here: its seats are named, never "you"
  const judged = Object.assign({}, state, { detached: true });
  const st = Object.assign({}, res.data.state, { detached: true });
  const render = () => {
    setResult(out, res.data.verdict, null, move, judged);
    out.insertAdjacentHTML("beforeend", `<div class="after">→ ${t("turn")}: ${st.turn === null ? "—" : escapeHtml(seatWord(st.turn, st))} · ${t("field")}: ${st.field ? cardsText(st.field.cards) : t("empty_field")} · ${t("order")}: ${t(st.order === "reversed" ? "reversed" : "normal")}</div>`);
    out.rerender = render;
  };
  render();
}

// ---------------------------------------------------------------- misc
// ---------------------------------------------------------------- registered bots (GET /v1/bots: public)
async function loadBots() {
  const res = await api("/v1/bots?limit=100&recent=10&sort=rating");
  $("#bots-error").textContent = res.ok ? "" : t("bots_failed", { why: errText(res) });
  S.botList = res.ok && res.data ? res.data.bots : [];
  renderBots();
}
function renderBots() {
  const bots = S.botList || [];
  const body = $("#bots-list");
  body.innerHTML = "";
  $("#bots-table").hidden = !bots.length;
  $("#bots-empty").hidden = bots.length > 0 || !!$("#bots-error").textContent;
  const num = (x) => (x === null || x === undefined ? "—" : Number(x).toFixed(2));
  for (const b of bots) {
    const tr = document.createElement("tr");
    tr.dataset.bot = b.name;
    tr.innerHTML = `<td><strong translate="no">${escapeHtml(b.name)}</strong> <code>${escapeHtml(b.seat)}</code></td>` +
      `<td>${b.deals}</td><td>${num(b.mean_place)}</td><td>${b.points}</td><td>${num(b.mean_points)}</td>` +
      `<td class="rating">${ratingText(b.rating)}</td><td class="recent"></td>`;
    $$("td", tr).forEach((td, i) => { if (i >= 1 && i <= 5) td.dataset.label = t(["deals", "mean_place", "points", "mean_points", "rating_col"][i - 1]); });
    if (b.rating) $(".rating", tr).title = t("rating_title", { mu: b.rating.mu.toFixed(1), lo: b.rating.interval[0].toFixed(1), hi: b.rating.interval[1].toFixed(1), n: b.rating.deals });
    const cell = $(".recent", tr);
    for (const r of b.recent) {
      const chip = document.createElement("span");
      chip.className = `chip result${r.place === 1 ? " first" : ""}`;
      chip.textContent = t("recent_item", r);
      chip.title = `${new Date(r.finished_at * 1000).toLocaleString(S.lang)} · ${t("game")} ${r.game_id} · ${r.points} ${t("points")}`;
      cell.append(chip);
    }
    body.append(tr);
  }
}
// A bot's OpenSkill rating as the leaderboard ranks it: its score, mu − 3σ (— before its first rated deal).
function ratingText(r) { return r ? r.score.toFixed(1) : "—"; }
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

// Keyboard play: arrows move between the cards, Enter or Space picks one up or puts it back.
function handKeys(e) {
  const cards = $$("#hand .handcard");
  const i = cards.indexOf(document.activeElement);
  if (i < 0) return;
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    e.preventDefault();
    const j = Math.max(0, Math.min(cards.length - 1, i + (e.key === "ArrowRight" ? 1 : -1)));
    S.focusCard = cards[j].dataset.card;
    cards[j].focus();
  } else if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    toggleCard(cards[i].dataset.card);
  }
}
function wire() {
  $("#lang").addEventListener("click", () => {
    S.lang = S.lang === "en" ? "ja" : "en";
    localStorage.setItem("daifugo.lang", S.lang);
    applyLang();
  });
  $("#preset").addEventListener("change", () => { $$("input[data-rule]").forEach((c) => delete c.dataset.touched); renderRules(); fitSeats(); });
  $("#add-seat").addEventListener("click", () => { addSeat("", ""); fitSeats(); });
  $("#remove-seat").addEventListener("click", () => { const rows = $$(".seatrow"); if (rows.length > seatRange().min) { rows[rows.length - 1].remove(); fitSeats(); } });
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
  $("#next-deal").addEventListener("click", nextDeal);
  $("#result-next").addEventListener("click", nextDeal);
  $("#result-close").addEventListener("click", () => { S.resultDeal = S.state.deal; renderGame(); });
  $("#show-result").addEventListener("click", () => { S.resultDeal = null; renderGame(); });
  $("#log-toggle").addEventListener("click", () => {
    const open = $("#side").classList.toggle("open");
    $("#log-toggle").setAttribute("aria-expanded", open ? "true" : "false");
  });
  $("#entry-action").addEventListener("change", (e) => { e.target.dataset.touched = "1"; });
  $("#correct-seat").addEventListener("change", (e) => { e.target.dataset.touched = "1"; });
  $("#hand").addEventListener("keydown", handKeys);
  window.addEventListener("offline", goOffline);
  window.addEventListener("online", backOnline);
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
  $("#bots-refresh").addEventListener("click", loadBots);
  $("#judge-form").addEventListener("submit", submitJudge);
  $("#rules-json").addEventListener("input", rulesSummary);
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
