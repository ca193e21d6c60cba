// What happened, in words people use: card symbols, player names, Japanese rule names, banners for the table.
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
// The rule's Japanese name; first_card names the card the ruleset really uses (nanko: ♠3, not the engine's default ♦3).
function ruleLabel(id, st) {
  const r = S.catalog && S.catalog.rules.find((x) => x.id === id);
  let name = r ? r.name_ja : id;
  if (id === "first_card") {
    const p = rulesOf(st).first_card;
    const card = p && typeof p === "object" && p.card;
    name = name.replace(/\s*[(（].*[)）]\s*$/, "");
    if (card) name += ` (${cardName(card)})`;
  }
  return name;
}
// A rule's description in the page's language.
function ruleDesc(r) { return (S.lang === "ja" && window.RULE_DESC_JA && RULE_DESC_JA[r.id]) || r.description; }
function seatWord(seat, st) {
  st = st || S.state;
  if (S.game && S.game.viewer === seat) return t("you");
  const p = st && st.players && st.players[seat];
  return p ? p.name : `${t("seat")} ${seat}`;
}
function shapeWord(shape, n) {
  if (shape === "group") return t(n === 2 ? "shape_pair" : n === 3 ? "shape_triple" : n >= 4 ? "shape_quad" : "shape_single", { n });
  if (shape === "single" || shape === "stairs") return t(`shape_${shape}`);
  if (shape && S.catalog && S.catalog.rules.find((r) => r.id === shape)) return ruleLabel(shape);
  return shape || "";
}
function ordinalWord(place) { return t("place_n", { n: place }); }

// One line per outcome item, for the log and the banners.
function outcomeWords(o, st) {
  const who = (s) => seatWord(s, st);
  const mine = (s) => S.game && S.game.viewer === s;
  switch (o.kind) {
    case "flush": return t("o_flush");
    case "finish":
      if (o.rule === "forbidden_finish") return t("o_forbidden", { who: who(o.seat), place: ordinalWord(o.place), rule: ruleLabel("forbidden_finish") });
      return t(mine(o.seat) ? "o_finish_you" : "o_finish", { who: who(o.seat), place: ordinalWord(o.place) });
    case "deal_over": return t("deal_over");
    case "give": return t(o.to === S.game.viewer ? "o_received" : mine(o.from) ? "o_give_you" : "o_give",
      { who: who(o.from), to: who(o.to), cards: cardsWords(o.cards), rule: ruleLabel(o.rule, st) });
    case "discard": return t(mine(o.seat) ? "o_discard_you" : "o_discard", { who: who(o.seat), cards: cardsWords(o.cards), rule: ruleLabel(o.rule, st) });
    case "take": return t(mine(o.seat) ? "o_take_you" : "o_take", { who: who(o.seat), cards: cardsWords(o.cards), rule: ruleLabel(o.rule, st) });
    case "skip": return t((o.seats || []).includes(S.game.viewer) ? "o_skip_you" : "o_skip", { who: (o.seats || []).map(who).join(", ") });
    case "play_starts": return t("o_starts", { who: who(o.leader) });
    case "combo": return t("o_combo", { who: who(o.seat) });
    case "cut_back": return t("o_cut_back", { who: who(o.seat), cards: cardsWords(o.cards), rule: ruleLabel("cut_back") });
    case "decline": return t("o_decline", { who: who(o.seat), rule: ruleLabel(o.rule, st) });
    case "request": return t(o.held ? "o_request_held" : "o_request_none", { who: who(o.seat), rank: o.rank, rule: ruleLabel(o.rule, st) });
    case "capital_fall": return t("o_capital_fall", { who: who(o.seat), place: ordinalWord(o.place), rule: ruleLabel("capital_fall") });
    case "gekokujo": return t("o_gekokujo", { rule: ruleLabel("gekokujo") });
    case "abort": return t("o_abort", { rule: ruleLabel(o.rule || "pass_abort") });
    default: return o.kind;
  }
}

// The log line of an event (HTML).
function eventHtml(ev, st) {
  const seqno = `<span class="seqno">${ev.seq}</span> `;
  if (ev.type === "rejected") {
    const v = ev.verdict || {};
    const m = ev.move || {};
    return `<span class="badge bad">${t("illegal")}</span> <span class="who">${escapeHtml(seatWord(m.seat, st))}</span> ` +
      `${escapeHtml(moveWords(m, st))}: ${escapeHtml(reasonWords(v, m, st))}`;
  }
  if (ev.type === "deal_started") {
    const extra = (ev.outcome || []).map((o) => outcomeWords(o, st)).filter(Boolean);
    return `${seqno}<b>${escapeHtml(t("deal_n", { n: ev.deal }))}</b>${extra.length ? " — " + escapeHtml(extra.join("; ")) : ""}`;
  }
  if (ev.type === "game_created") return `${seqno}<b>${escapeHtml(ev.preset || "")}</b> ${escapeHtml((ev.players || []).join(", "))}`;
  if (ev.type !== "move") return `${seqno}${escapeHtml(ev.type)}`;
  const m = ev.move || {};
  const v = ev.verdict || {};
  const play = (ev.outcome || []).find((o) => o.kind === "play");
  let what = moveWords(m, st, play);
  const bits = [];
  (v.effects || []).forEach((e) => bits.push(`<span class="chip" title="${escapeHtml(e)}">${escapeHtml(ruleLabel(e, st))}</span>`));
  (v.void_declarations || []).forEach((d) => bits.push(`<span class="chip lock">${escapeHtml(t("void_decl", { rule: ruleLabel(d, st) }))}</span>`));
  let outs = (ev.outcome || []).filter((o) => o.kind !== "play" && o.kind !== "pass");
  const own = outs.find((o) => o.kind === m.action && ["give", "discard", "take", "cut_back", "request"].includes(o.kind));
  if (own) { what = ""; outs = [own, ...outs.filter((o) => o !== own)]; }
  outs = outs.map((o) => outcomeWords(o, st));
  if (!what) return `${seqno}${escapeHtml(outs.join("; "))} ${bits.join(" ")}`;
  return `${seqno}<span class="who">${escapeHtml(seatWord(m.seat, st))}</span> ${escapeHtml(what)} ${bits.join(" ")}` +
    (outs.length ? ` <small>— ${escapeHtml(outs.join("; "))}</small>` : "");
}
function moveWords(m, st, play) {
  if (!m) return "";
  if (m.action === "pass") return t("w_pass");
  if (m.action === "play") {
    const cards = play ? play.cards : m.cards;
    const shape = play ? shapeWord(play.shape, (play.cards || []).length) : "";
    return `${cardsWords(cards, (play && play.as) || m.as)}${shape ? ` (${shape})` : ""}`;
  }
  if (m.action === "request") return t("w_request", { rank: m.rank });
  if (m.action === "cut_back") return t("w_cut_back", { cards: cardsWords(m.cards) });
  return `${t(m.action)} ${cardsWords(m.cards)}`.trim();
}
// A rejection in words, in the page's language, from the verdict's fields: never a reason code or a card code.
// Japanese: the API's message (built from the fields by api/i18n.py); English: the page's sentence for the reason.
const CARD_CODE = /\b(?:JK[12]?|[SHDC][2-9TJQKA])\b/g;
function plainWords(text, st) {
  const ids = new Set(((S.catalog && S.catalog.rules) || []).map((r) => r.id));
  return String(text || "")
    .replace(CARD_CODE, (c) => cardName(c))
    .replace(/\bseat (\d+)/g, (_, n) => seatWord(Number(n), st))
    .replace(/\(([a-z][a-z0-9_]*)\)|\b[a-z]+(?:_[a-z0-9]+)+\b/g, (w, inParens) => {
      const id = inParens || w;
      const words = ids.has(id) ? ruleLabel(id, st) : id.replace(/_/g, " ");
      return inParens ? `(${words})` : words;
    });
}
function reasonWords(v, m, st) {
  if (!v) return "";
  st = st || S.state;
  const cards = cardsWords((m && m.cards) || []);
  if (v.reason === "undeclared") {
    const hit = /declare: \['(\w+)'\]/.exec(v.message || "");
    const name = hit ? shapeWord(hit[1]) : "";
    return t("why_undeclared", { cards, shape: name || "?" });
  }
  const key = `why_${v.reason}`;
  if (S.lang !== "ja" && v.reason && I18N.en[key]) {
    const seat = m ? m.seat : null;
    const first = rulesOf(st).first_card;
    const vars = {
      cards, rule: v.rule ? ruleLabel(v.rule, st) : "",
      who: seat === null || seat === undefined ? "" : seatWord(seat, st),
      turn: st && st.turn !== null && st.turn !== undefined ? seatWord(st.turn, st) : "",
      field: st && st.field ? cardsWords(st.field.cards, st.field.as) : t("empty_field"),
      first: cardName((first && typeof first === "object" && first.card) || "D3"),
    };
    if (v.reason === "not_your_turn" && S.game && seat === S.game.viewer) return t("why_not_your_turn_you", vars);
    if (v.reason === "not_your_turn" && vars.turn === t("you")) return t("why_not_your_turn_yours", vars);
    if (v.reason === "not_in_hand" && S.game && seat === S.game.viewer) return t("why_not_in_hand_you", vars);
    return t(key, vars);
  }
  return plainWords(v.message, st) || t("why_other");
}
// English glosses of the declarable rules' Japanese names.
const RULE_GLOSS_EN = {
  stairs: "stairs", skip_stairs: "skip stairs", double_stairs: "double stairs", emperor: "emperor",
  skip_emperor: "skip emperor", suit_lock: "suit lock", partial_suit_lock: "partial suit lock",
  rank_lock: "rank lock", revolution: "revolution", great_revolution: "great revolution",
  nuclear_bomb: "nuclear bomb", attach_revolution: "attach revolution", jack_back: "jack back",
  nine_reverse: "nine reverse", bloody_mary: "Bloody Mary", resurrection: "resurrection",
  seven_pass: "seven pass", ten_discard: "ten discard", spade3: "spade 3", sandstorm: "sandstorm",
  eight_cut: "eight cut", six_cut: "six cut", cut_back: "cut back", five_skip: "five skip",
};
// A declarable rule's label: its Japanese name, glossed in English mode ("付け革 — attach revolution").
function declLabel(id, st) {
  const name = ruleLabel(id, st);
  const gloss = S.lang === "ja" ? "" : RULE_GLOSS_EN[id];
  return gloss ? `${name} — ${gloss}` : name;
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
    if (skip && /skip/.test(e)) out.push({ text: `${ruleLabel(e, st)}: ${outcomeWords(skip, st)}`, kind: e });
    else out.push({ text: `${ruleLabel(e, st)}!`, small: `${seatWord(ev.move.seat, st)} · ${moveWords(ev.move, st, (ev.outcome || []).find((o) => o.kind === "play"))}`, kind: e });
  }
  if (skip && !out.some((b) => /skip/.test(b.kind || ""))) out.push({ text: outcomeWords(skip, st) });
  for (const d of v.void_declarations || []) out.push({ text: t("void_decl", { rule: ruleLabel(d, st) }) });
  for (const o of ev.outcome || []) {
    if (["give", "discard", "take", "capital_fall", "gekokujo", "abort", "cut_back", "request"].includes(o.kind)) out.push({ text: outcomeWords(o, st) });
    if (o.kind === "finish" && (o.rule === "forbidden_finish" || o.place === 1)) out.push({ text: outcomeWords(o, st) });
  }
  return out;
}
