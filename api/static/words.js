// What happened, in words people use: card symbols, player names, Japanese rule names (glossed in English), banners.
// Uses app.js's globals (S, t, escapeHtml) at call time.
"use strict";

const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK_ORDER = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2"];

function cardName(code) {
  if (!code) return "";
  if (code.startsWith("JK")) return "JOKER";
  if (!SUIT_SYMBOLS[code[0]]) return code === "T" ? "10" : code;  // a joker read as a rank only
  return (SUIT_SYMBOLS[code[0]] || code[0]) + (code[1] === "T" ? "10" : code.slice(1));
}
function cardsWords(cards, as) {
  if (typeof cards === "number") return countWords(cards);
  return (cards || []).map((c) => (as && as[c] ? `${cardName(c)}(=${cardName(as[c])})` : cardName(c))).join(" ");
}
function countWords(n) { return t(n === 1 ? "one_card" : "n_cards", { n }); }
// strength of a card in the current order (jokers strongest); reversed flips the ranks
function cardStrength(code, reversed) {
  if (code.startsWith("JK")) return 100;
  const r = RANK_ORDER.indexOf(SUIT_SYMBOLS[code[0]] ? code[1] : code[0]);
  return reversed ? RANK_ORDER.length - r : r + 1;
}
function sortCards(cards, reversed) {
  const suit = { S: 0, H: 1, D: 2, C: 3 };
  return [...cards].sort((a, b) => cardStrength(a, reversed) - cardStrength(b, reversed) || (suit[a[0]] ?? 9) - (suit[b[0]] ?? 9) || (a < b ? -1 : 1));
}
function rulesOf(st) { return (st && st.rules) || (S.catalog && S.catalog.presets[$("#preset").value]) || {}; }

// Names the catalogue does not list: a declaration alias (declaring it declares its rule), in Japanese and its
// English gloss. A rule's own names come from the catalogue (GET /v1/rules: name_ja, name_en).
const ALIAS_NAMES_JA = { counter_revolution: "革命返し" };
const ALIAS_GLOSS_EN = { counter_revolution: "counter-revolution" };
// The English gloss of a rule's Japanese name (its module's NAME_EN, served by the catalogue), or of an alias: a rule
// is named in Japanese in both languages, and in English mode its gloss follows ("8切り (eight cut)").
function ruleGloss(id) {
  const r = S.catalog && S.catalog.rules.find((x) => x.id === id);
  return (r && r.name_en) || ALIAS_GLOSS_EN[id];
}
// The titles of the places (from the state) and their English glosses
const TITLE_GLOSS_EN = { 大富豪: "tycoon", 富豪: "rich", 平民: "commoner", 貧民: "poor", 大貧民: "beggar", 檄富豪: "tycoon", 檄貧民: "beggar" };

// The rule's Japanese name; first_card names the card the ruleset really uses (nanko: ♠3, not the engine's default ♦3).
function ruleLabel(id, st) {
  const r = S.catalog && S.catalog.rules.find((x) => x.id === id);
  let name = r ? r.name_ja : ALIAS_NAMES_JA[id] || id;
  if (id === "first_card") {
    const p = rulesOf(st).first_card;
    const card = p && typeof p === "object" && p.card;
    name = name.replace(/\s*[(（].*[)）]\s*$/, "");
    if (card) name += ` (${cardName(card)})`;
  }
  return name;
}
// The rule's name in the page's language: Japanese, glossed in English mode ("砂嵐 (sandstorm)"; the Japanese name's
// own alternative in brackets is left to the Japanese page).
function ruleWord(id, st) {
  const name = ruleLabel(id, st);
  const gloss = ruleGloss(id);
  if (S.lang === "ja" || !gloss) return name;
  const card = id === "first_card" && /\(([^)]*)\)\s*$/.exec(name);
  return `${name.replace(/\s*[(（].*[)）]\s*$/, "")} (${gloss}${card ? ` ${card[1]}` : ""})`;
}
// A declarable rule's label in the declarations: its Japanese name, glossed in English ("付け革 — attach revolution").
function declLabel(id, st) {
  const name = ruleLabel(id, st);
  const gloss = S.lang === "ja" ? "" : ruleGloss(id);
  return gloss ? `${name.replace(/\s*[(（].*[)）]\s*$/, "")} — ${gloss}` : name;
}
// A place's title (大富豪 … 大貧民), glossed in English mode
function titleWord(title) {
  if (!title) return "";
  const gloss = S.lang === "ja" ? "" : TITLE_GLOSS_EN[title];
  return gloss ? `${title} (${gloss})` : title;
}
// A rule's description in the page's language (the catalogue's description, or description_ja: its module's SUMMARY
// and SUMMARY_JA).
function ruleDesc(r) { return (S.lang === "ja" && r.description_ja) || r.description; }
// Is this seat the player reading the page? Never in a state pasted into the judge (it is nobody's game here).
function isMe(seat, st) { return !!(S.game && S.game.viewer === seat && !(st && st.detached)); }
function seatWord(seat, st) {
  st = st || S.state;
  if (isMe(seat, st)) return t("you");
  const p = st && st.players && st.players[seat];
  return p ? p.name : `${t("seat")} ${seat}`;
}
// The sentence whose subject is `seat`: its "_you" form when that is the reader ("you pass", not "you passes").
function subjectKey(key, seat, st) { return isMe(seat, st) && I18N[S.lang][`${key}_you`] ? `${key}_you` : key; }
function shapeWord(shape, n) {
  if (shape === "group") return t(n === 2 ? "shape_pair" : n === 3 ? "shape_triple" : n >= 4 ? "shape_quad" : "shape_single", { n });
  if (shape === "single" || shape === "stairs") return t(`shape_${shape}`);
  if (shape && S.catalog && S.catalog.rules.find((r) => r.id === shape)) return ruleWord(shape);
  return shape || "";
}
function ordinalWord(place) { return t("place_n", { n: place }); }

// One line per outcome item, for the log and the banners.
function outcomeWords(o, st) {
  const who = (s) => seatWord(s, st);
  const say = (key, seat, vars) => t(subjectKey(key, seat, st), vars);
  switch (o.kind) {
    case "flush": return t("o_flush");
    case "finish":
      if (o.rule === "forbidden_finish") return say("o_forbidden", o.seat, { who: who(o.seat), place: ordinalWord(o.place), rule: ruleWord("forbidden_finish") });
      return say("o_finish", o.seat, { who: who(o.seat), place: ordinalWord(o.place) });
    case "deal_over": return t("deal_over");
    case "give": return t(isMe(o.to, st) ? "o_received" : subjectKey("o_give", o.from, st),
      { who: who(o.from), to: who(o.to), cards: cardsWords(o.cards), rule: ruleWord(o.rule, st) });
    case "discard": return say("o_discard", o.seat, { who: who(o.seat), cards: cardsWords(o.cards), rule: ruleWord(o.rule, st) });
    case "take": return say("o_take", o.seat, { who: who(o.seat), cards: cardsWords(o.cards), rule: ruleWord(o.rule, st) });
    case "skip": return t((o.seats || []).some((s) => isMe(s, st)) ? "o_skip_you" : "o_skip", { who: (o.seats || []).map(who).join(", ") });
    case "play_starts": return say("o_starts", o.leader, { who: who(o.leader) });
    case "combo": return say("o_combo", o.seat, { who: who(o.seat) });
    case "cut_back": return say("o_cut_back", o.seat, { who: who(o.seat), cards: cardsWords(o.cards), rule: ruleWord("cut_back") });
    case "decline": return say("o_decline", o.seat, { who: who(o.seat), rule: ruleWord(o.rule, st) });
    case "request": return say(o.held ? "o_request_held" : "o_request_none", o.seat, { who: who(o.seat), rank: cardName(o.rank), rule: ruleWord(o.rule, st) });
    case "capital_fall": return say("o_capital_fall", o.seat, { who: who(o.seat), place: ordinalWord(o.place), rule: ruleWord("capital_fall") });
    case "gekokujo": return t("o_gekokujo", { rule: ruleWord("gekokujo") });
    case "abort": return t("o_abort", { rule: ruleWord(o.rule || "pass_abort") });
    default: return t("o_other", { what: o.rule ? ruleWord(o.rule, st) : o.kind });
  }
}

// A player's name in a log line: never translated (translate="no" also tells the page's language test so)
function whoHtml(seat, st) { return `<span class="who" translate="no">${escapeHtml(seatWord(seat, st))}</span>`; }
// The log line of an event (HTML). A rejection is worded against `st`, the table it was judged on.
function eventHtml(ev, st) {
  const seqno = `<span class="seqno">${typeof ev.seq === "number" ? ev.seq : "✗"}</span> `;
  if (ev.type === "rejected") {
    const v = ev.verdict || {};
    const m = ev.move || {};
    return `<span class="badge bad">${t("illegal")}</span> ${whoHtml(m.seat, st)} ` +
      `${escapeHtml(moveWords(m, st))}: ${escapeHtml(reasonWords(v, m, st))}`;
  }
  if (ev.type === "deal_started") {
    const extra = (ev.outcome || []).map((o) => outcomeWords(o, st)).filter(Boolean);
    return `${seqno}<b>${escapeHtml(t("deal_n", { n: ev.deal }))}</b>${extra.length ? " — " + escapeHtml(extra.join("; ")) : ""}`;
  }
  if (ev.type === "game_created") return `${seqno}<b translate="no">${escapeHtml(ev.preset || "")}</b> <span translate="no">${escapeHtml((ev.players || []).join(", "))}</span>`;
  if (ev.type === "hands_corrected") return `${seqno}${escapeHtml(t("corrected"))}`;
  if (ev.type !== "move") return `${seqno}${escapeHtml(ev.type)}`;
  const m = ev.move || {};
  const v = ev.verdict || {};
  const play = (ev.outcome || []).find((o) => o.kind === "play");
  let what = moveWords(m, st, play);
  const bits = [];
  (v.effects || []).forEach((e) => bits.push(`<span class="chip" title="${escapeHtml(e)}">${escapeHtml(ruleWord(e, st))}</span>`));
  (v.void_declarations || []).forEach((d) => bits.push(`<span class="chip lock">${escapeHtml(t("void_decl", { rule: ruleWord(d, st) }))}</span>`));
  let outs = (ev.outcome || []).filter((o) => o.kind !== "play" && o.kind !== "pass");
  const own = outs.find((o) => o.kind === m.action && ["give", "discard", "take", "cut_back", "request"].includes(o.kind));
  if (own) { what = ""; outs = [own, ...outs.filter((o) => o !== own)]; }
  outs = outs.map((o) => outcomeWords(o, st));
  if (!what) return `${seqno}${escapeHtml(outs.join("; "))} ${bits.join(" ")}`;
  return `${seqno}${whoHtml(m.seat, st)} ${escapeHtml(what)} ${bits.join(" ")}` +
    (outs.length ? ` <small>— ${escapeHtml(outs.join("; "))}</small>` : "");
}
// What a move does, said after its player's name: "♠3 (single)", "passes" ("pass" after "you").
function moveWords(m, st, play) {
  if (!m) return "";
  const say = (key, vars) => t(subjectKey(key, m.seat, st), vars);
  if (m.action === "pass") return say("w_pass");
  if (m.action === "play") {
    const cards = play ? play.cards : m.cards;
    const shape = play ? shapeWord(play.shape, (play.cards || []).length) : "";
    return `${cardsWords(cards, (play && play.as) || m.as)}${shape ? ` · ${shape}` : ""}`;
  }
  if (m.action === "request") return say("w_request", { rank: cardName(m.rank) });
  if (m.action === "cut_back") return say("w_cut_back", { cards: cardsWords(m.cards) });
  return `${I18N.en[m.action] ? t(m.action) : m.action} ${cardsWords(m.cards)}`.trim();
}
// Text from the referee (an English message) with cards, seats and rule ids in words.
const CARD_CODE = /\b(?:JK[12]?|[SHDC][2-9TJQKA])\b/g;
function plainWords(text, st) {
  const ids = new Set(((S.catalog && S.catalog.rules) || []).map((r) => r.id));
  return String(text || "")
    .replace(CARD_CODE, (c) => cardName(c))
    .replace(/\bseat (\d+)/g, (_, n) => seatWord(Number(n), st))
    .replace(/\(([a-z][a-z0-9_]*)\)|\b[a-z]+(?:_[a-z0-9]+)+\b/g, (w, inParens) => {
      const id = inParens || w;
      const words = ids.has(id) ? ruleWord(id, st) : id.replace(/_/g, " ");
      return inParens ? `(${words})` : words;
    });
}
// Reasons whose English message says more than a sentence could (which cards, how many): English reads the message.
const DETAILED_REASONS = new Set(["pending_decision", "wrong_count", "not_allowed", "withheld", "given_back"]);
// A rejection in words, in the page's language, from the verdict's fields and `st`, the state it was judged on:
// never a reason code or a card code. The page asks the referee for its English message (?lang=en), whose fields
// (the undeclared shape) it can read, and words the rest itself in either language.
function reasonWords(v, m, st) {
  if (!v) return "";
  st = st || S.state;
  const cards = cardsWords((m && m.cards) || []);
  if (v.reason === "undeclared") {
    const hit = /declare: \['(\w+)'\]/.exec(v.message || "");
    // no English message to read the shape from (an answer in Japanese): the referee's own words
    if (!hit) return plainWords(v.message, st) || t("why_other");
    return t("why_undeclared", { cards, shape: shapeWord(hit[1]) });
  }
  const key = `why_${v.reason}`;
  if (!v.reason || !I18N.en[key]) return (S.lang !== "ja" && plainWords(v.message, st)) || t("why_other");
  if (S.lang !== "ja" && DETAILED_REASONS.has(v.reason) && v.message && /^[\x20-\x7e♠♥♦♣…]*$/.test(v.message)) return plainWords(v.message, st);
  const seat = m ? m.seat : null;
  const first = rulesOf(st).first_card;
  const vars = {
    cards: cards || "—", rule: v.rule ? ruleWord(v.rule, st) : "",
    who: seat === null || seat === undefined ? "" : seatWord(seat, st),
    turn: st && st.turn !== null && st.turn !== undefined ? seatWord(st.turn, st) : "",
    field: st && st.field ? cardsWords(st.field.cards, st.field.as) : t("empty_field"),
    first: cardName((first && typeof first === "object" && first.card) || "D3"),
  };
  if (v.reason === "not_your_turn" && isMe(seat, st)) return t("why_not_your_turn_you", vars);
  if (v.reason === "not_your_turn" && st && isMe(st.turn, st)) return t("why_not_your_turn_yours", vars);
  if (v.reason === "not_in_hand" && isMe(seat, st)) return t("why_not_in_hand_you", vars);
  return t(key, vars).replace(/（）|\(\)/g, "").trim();
}

// Banners for one new event: the moments a player must not miss.
const QUIET_EFFECTS = new Set(["capital_fall"]);  // said by their own outcome line
function bannersFor(ev, st) {
  const out = [];
  if (ev.type === "deal_started") {
    const gives = (ev.outcome || []).filter((o) => o.kind === "give");
    if (gives.length) out.push({ text: t("b_exchange"), small: gives.map((o) => outcomeWords(o, st)).join(" · ") });
    return out;
  }
  if (ev.type !== "move") return out;
  const v = ev.verdict || {};
  const skip = (ev.outcome || []).find((o) => o.kind === "skip");
  for (const e of v.effects || []) {
    if (QUIET_EFFECTS.has(e)) continue;
    if (skip && /skip/.test(e)) out.push({ text: `${ruleWord(e, st)}: ${outcomeWords(skip, st)}`, kind: e });
    else out.push({ text: `${ruleWord(e, st)}!`, small: `${seatWord(ev.move.seat, st)} · ${moveWords(ev.move, st, (ev.outcome || []).find((o) => o.kind === "play"))}`, kind: e });
  }
  if (skip && !out.some((b) => /skip/.test(b.kind || ""))) out.push({ text: outcomeWords(skip, st) });
  for (const d of v.void_declarations || []) out.push({ text: t("void_decl", { rule: ruleWord(d, st) }) });
  for (const o of ev.outcome || []) {
    if (["give", "discard", "take", "capital_fall", "gekokujo", "abort", "cut_back", "request"].includes(o.kind)) out.push({ text: outcomeWords(o, st) });
    if (o.kind === "finish" && (o.rule === "forbidden_finish" || o.place === 1)) out.push({ text: outcomeWords(o, st) });
  }
  return out;
}
