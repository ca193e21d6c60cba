"""Player and bot names: nothing invisible, no look-alike mixes of scripts, Japanese names as they are written;
bot names unique once NFKC-normalised and case-folded, and never holding '@'."""
import secrets

import pytest

from service.names import bot_name_problem, folded, name_problem

from .test_limits import _error

INVISIBLE = ["a\u200bb", "a\u200db", "a\u2060b", "a\u202eb", "a\ufeffb", "a\u00adb",  # format (Cf)
             "a\u1680b", "a\u3164b", "\u3164", "a\u115fb", "a\u1160b", "a\uffa0b", "a\u2800b", "\u2800",  # blanks
             "a\u034fb", "a\u17b4b", "a\ue000b", "a\U000f0000b", "a\u0378b", "a\u2028b", "a\nb",  # Co, Cn, Zl, Cc
             "\u3000", "\u00a0 "]
LOOK_ALIKES = ["b\u043et",      # Latin b, t with a Cyrillic о
               "\u0443ser",     # Cyrillic у in a Latin name
               "p\u0430ypal",   # Cyrillic а
               "b\u03bft",      # Greek ο
               "\u0410lice",    # Cyrillic А
               "\u0432\u03bf\u0442",  # Cyrillic and Greek
               "5\u00b5s",      # MICRO SIGN: Greek μ once normalised
               "\u0561pple"]    # Armenian ա
FINE = ["Taro", "たろう", "山田太郎", "タロウ", "S4ボット", "ｓ4bot", "山田 Taro", "Taro（たろう）", "ゆうき々",
        "ボーイ2号", "あいう　えお", "Ann Lee", "Zoë", "Straße", "Ελένη", "Пётр", "김연아", "김연아 Kim",
        "李小龍 Bruce", "ㄅㄆ 李", "bot-7_x.y", "🂡 Ace", "a\u00a0b", "Café"]


@pytest.mark.parametrize("name", INVISIBLE)
def test_invisible_characters_are_refused(name):
    problem = name_problem(name, 40)
    assert problem is not None and ("printable" in problem or "non-empty" in problem or "show" in problem), problem


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_look_alike_mixes_of_scripts_are_refused(name):
    assert "mixes scripts" in (name_problem(name, 40) or ""), name


@pytest.mark.parametrize("name", FINE)
def test_names_in_one_script_and_japanese_mixes_are_fine(name):
    assert name_problem(name, 40) is None


def test_bot_names_fold_case_and_width_and_hold_no_at_sign():
    assert folded("S4BOT") == folded("ｓ４ｂｏｔ") == folded("s4bot") == "s4bot"
    assert folded("STRASSE") == folded("straße")
    assert "'@'" in bot_name_problem("@x", 40) and "'@'" in bot_name_problem("a@b", 40)
    assert bot_name_problem("b\u043et", 40).startswith("a bot's name")
    assert bot_name_problem("s4bot", 40) is None


def test_the_api_refuses_such_names_for_players_bots_and_records(client):
    for name in ["b\u043et", "a\u3164", "x\u2800"]:
        _error(client.post("/v1/games", {"preset": "uecda", "players": [{"name": name}, {"name": "b"}]}), 400,
               "bad_name")
        _error(client.post("/v1/bots", {"name": name}), 400, "bad_name")
    r = _error(client.post("/v1/bots", {"name": "@x"}), 400, "bad_name")
    assert "@" in r.json["error"]["message"]
    game = client.create(players=4)
    record = client.get(f"/v1/games/{game['game_id']}/record", game["table_token"]).get_data(as_text=True)
    assert '"p0"' in record
    _error(client.post("/v1/games", {"record": record.replace('"p0"', '"p\u043e"')}), 400, "bad_record")
    assert client.post("/v1/games", {"record": record.replace('"p0"', '"たろう Taro"')}).status_code == 201


def test_bot_names_are_unique_across_case_and_width(client):
    base = f"s{secrets.token_hex(3)}bot"
    r = client.post("/v1/bots", {"name": base})
    assert r.status_code == 201, r.json
    wide = "".join(chr(ord(c) + 0xFEE0) for c in base)  # the full-width forms of the ASCII letters and digits
    for other in [base.upper(), wide, base[0].upper() + base[1:]]:
        _error(client.post("/v1/bots", {"name": other}), 409, "bot_name_taken")
    # the name a seat uses is the one registered
    game = client.post("/v1/games", {"preset": "uecda", "players": [{"name": "a", "bot": f"@{base.upper()}"},
                                                                    {"name": "b"}]})
    _error(game, 400, "unknown_bot")
    assert client.post("/v1/games", {"preset": "uecda", "players": [{"name": "a", "bot": f"@{base}"},
                                                                    {"name": "b"}]}).status_code == 201
