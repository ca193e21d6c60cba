"""Japanese verdict messages for the API, chosen by ``?lang=ja`` or ``Accept-Language: ja``.

The engine writes its messages in English; here a Japanese one is built from the verdict's reason code and
fields (the move, the state, the rule), so the reason codes and every other field stay as they are.
"""
from __future__ import annotations

import re
from functools import lru_cache

import json

from flask import Response, request

import referee as engine

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SHAPES_JA = {"loose": "ばらばらの札", "single": "シングル", "group": "組", "stairs": "階段", "skip_stairs": "跳び階段",
             "double_stairs": "二重階段", "emperor": "エンペラー", "skip_emperor": "跳びエンペラー"}
ACTIONS_JA = {"give": "渡す", "discard": "捨てる", "take": "取る", "request": "要求する", "cut_back": "返す"}

REASONS_JA = {
    "not_your_turn": "{turn}の番です（{who}の番ではありません）",
    "must_play": "空の場で親番です：パスはできず、出す必要があります",
    "must_include_first_card": "最初の手には{first}を含める必要があります（{rule}）",
    "locked": "縛りがかかっています（{rule}）：この札は出せません",
    "pending_decision": "先に保留中の処理があります（{rule}）",
    "wrong_count": "枚数が違います（{rule}）",
    "shape_mismatch": "{cards}は場の形と合いません",
    "undeclared": "{cards}は{shape}として宣言が必要です（宣言必須）：「{shape}」にチェックを入れて出してください",
    "too_weak": "{cards}は場の札より弱いため出せません",
    "invalid_cards": "{cards}は一つの手になりません",
    "invalid_declaration": "その宣言はこの手には使えません",
    "not_in_hand": "{who}は{cards}を持っていません",
    "not_allowed": "今はその行動はできません（{rule}）",
    "withheld": "{cards}はこの受け渡しに含められません（{rule}）",
    "spade3_kept": "♠3は一番強い札の受け渡しに含めません（{rule}）：♠3を除いた一番強い札を渡してください",
    "given_back": "{cards}はこの交換で受け取った札なので返せません（{rule}）：交換の前から持っていた札を返してください",
    "joker_unbound": "他の札と出すジョーカーは、何の数字の代わりか指定する必要があります（{rule}）",
}


def wants_japanese() -> bool:
    # every move answer asks this: parse the query and the header only when the request has them
    lang = (request.args.get("lang") or "").lower() if request.query_string else ""
    if lang:
        return lang.startswith("ja")
    if not request.environ.get("HTTP_ACCEPT_LANGUAGE"):
        return False
    return request.accept_languages.best_match(["en", "ja"]) == "ja"


@lru_cache(maxsize=1)
def _rule_names() -> dict:
    return {r["id"]: r["name_ja"] for r in engine.catalog()["rules"]}


def card_text(code: str) -> str:
    if code.startswith("JK"):
        return "JOKER"
    return SUITS.get(code[0], code[0]) + ("10" if code[1:] == "T" else code[1:])


def cards_text(cards) -> str:
    if isinstance(cards, int):
        return f"{cards}枚"
    return " ".join(card_text(c) for c in cards or [])


def _seat(state: dict, seat) -> str:
    players = (state or {}).get("players") or []
    if isinstance(seat, int) and 0 <= seat < len(players):
        return f"{players[seat].get('name')}（席{seat}）"
    return f"席{seat}"


def rule_name(rule) -> str:
    if not rule:
        return "ルール"
    name = _rule_names().get(rule, rule)
    return re.sub(r"\s*\(.*\)$", "", name) if rule == "first_card" else name


def verdict_ja(verdict: dict, move: dict | None, state: dict | None) -> str:
    """A Japanese message for ``verdict`` (the move as proposed, the state it was judged on or produced)."""
    move, state = move or {}, state or {}
    seat = move.get("seat")
    cards = cards_text(move.get("cards") or [])
    if verdict.get("legal"):
        who = _seat(state, seat)
        act = move.get("action")
        if act == "pass":
            text = f"{who}はパス"
        elif act == "play":
            text = f"{who}が{cards}を出しました"
        elif act == "request":
            text = f"{who}がランク{move.get('rank')}を要求しました"
        else:
            act_ja = ACTIONS_JA.get(str(act), str(act))
            text = f"{who}が{cards}を{act_ja}" if cards else f"{who}：{act_ja}"
        effects = [rule_name(e) for e in verdict.get("effects") or []]
        if effects:
            text += "：" + "・".join(effects)
        void = [rule_name(d) for d in verdict.get("void_declarations") or []]
        if void:
            text += f"（無効な宣言：{'・'.join(void)}）"
        return text
    reason = verdict.get("reason") or ""
    rules = state.get("rules") or {}
    first = (rules.get("first_card") or {}).get("card") if isinstance(rules.get("first_card"), dict) else None
    shape = None
    m = re.search(r"declare: \['(\w+)'\]", verdict.get("message") or "")
    if m:
        shape = rule_name(m.group(1)) if m.group(1) in _rule_names() else SHAPES_JA.get(m.group(1), m.group(1))
    turn = state.get("turn")
    values = {"turn": _seat(state, turn) if turn is not None else "他の席", "who": _seat(state, seat),
              "cards": cards or "その札", "rule": rule_name(verdict.get("rule")),
              "first": card_text(first) if first else "最初の札", "shape": shape or "この形"}
    template = REASONS_JA.get(reason)
    if template is None:
        return verdict.get("message") or reason
    return template.format(**values)


def localize_response(resp: Response) -> Response:
    """After a POST of a move or a judging (/v1/games/<id>/moves, /v1/games/<id>/judge, /v1/judge): the verdict's
    message in Japanese when asked for. Kept out of the routes so that they stay about the game, not its words."""
    # the language first: without one asked for (nearly always) the answer's Content-Type is never parsed
    if request.method != "POST" or not wants_japanese() or not request.path.endswith(("/moves", "/judge")):
        return resp
    if not resp.is_json:
        return resp
    body = request.get_json(silent=True)
    payload = resp.get_json(silent=True)
    if not isinstance(body, dict) or not isinstance(payload, dict):
        return resp
    move = body.get("move") if request.path == "/v1/judge" else body
    resp.set_data(json.dumps(localize(payload, move if isinstance(move, dict) else None), ensure_ascii=False))
    return resp


def localize(payload: dict, move: dict | None = None) -> dict:
    """``payload`` ({verdict, state, ...}) with the verdict's message in Japanese when the request asks for it."""
    if not isinstance(payload, dict) or not isinstance(payload.get("verdict"), dict) or not wants_japanese():
        return payload
    verdict = dict(payload["verdict"])
    verdict["message"] = verdict_ja(verdict, move, payload.get("state"))
    return {**payload, "verdict": verdict}
