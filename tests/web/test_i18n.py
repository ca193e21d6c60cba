"""api/i18n.py: a Japanese message for every reason code the engine gives, built from the verdict's fields."""
from __future__ import annotations

import pytest

from api.i18n import REASONS_JA, verdict_ja
from tests.web.test_language import engine_reasons

STATE = {"turn": 2, "players": [{"name": n} for n in ("Aoi", "Ren", "Mei", "Sora")],
         "rules": {"first_card": {"card": "S3"}}}
MOVE = {"seat": 1, "action": "play", "cards": ["S5", "S7", "JK1"]}


@pytest.mark.parametrize("reason", sorted(REASONS_JA))
def test_every_reason_has_a_japanese_message(reason):
    text = verdict_ja({"legal": False, "reason": reason, "rule": "suit_lock",
                       "message": "x (declare: ['skip_stairs']; declarations_required)"}, MOVE, STATE)
    assert text and "{" not in text and "x (declare" not in text
    assert any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in text), text


def test_the_fields_are_in_the_words():
    assert "Mei（席2）" in verdict_ja({"legal": False, "reason": "not_your_turn"}, MOVE, STATE)
    assert "♠3" in verdict_ja({"legal": False, "reason": "must_include_first_card", "rule": "first_card"}, MOVE, STATE)
    undeclared = verdict_ja({"legal": False, "reason": "undeclared", "message": "... (declare: ['skip_stairs']; ...)"}, MOVE, STATE)
    assert "跳び階段" in undeclared and "♠5 ♠7 JOKER" in undeclared
    legal = verdict_ja({"legal": True, "effects": ["eight_cut"], "void_declarations": ["suit_lock"]},
                       {"seat": 0, "action": "play", "cards": ["H8"]}, STATE)
    assert legal == "Aoi（席0）が♥8を出しました：8切り（無効な宣言：縛り）"
    assert verdict_ja({"legal": False, "reason": "no_such_reason", "message": "as is"}, MOVE, STATE) == "as is"


def test_every_reason_the_engine_gives_has_a_japanese_message():
    assert engine_reasons() - set(REASONS_JA) == set()

