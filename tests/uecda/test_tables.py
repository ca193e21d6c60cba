"""The codec and the card cells (UECDA.md §1, §3), and the client's judge catching a wrong server."""
from __future__ import annotations

import struct

import pytest

from referee.cards import parse_many
from uecda import protocol, status, tables
from uecda.tracker import Tracker


def test_table_is_480_big_endian_bytes_row_major_negatives_sent_as_zero():
    t = protocol.empty()
    t[0][0], t[1][2], t[7][14], t[5][1] = 20070, 65, 7, -2
    buf = protocol.pack_table(t)
    assert len(buf) == 480
    assert buf[:4] == b"\x00\x00\x4e\x66"
    assert struct.unpack(">i", buf[4 * (15 * 1 + 2):4 * (15 * 1 + 3)])[0] == 65
    assert buf[-4:] == b"\x00\x00\x00\x07"
    back = protocol.unpack_table(buf)
    assert back[5][1] == 0 and back[0][0] == 20070
    assert protocol.pack_int(9) == b"\x00\x00\x00\x09" and protocol.unpack_int(b"\x00\x00\x00\x02") == 2


def test_profile_keeps_fourteen_chars():
    t = protocol.profile("FujiGokoroUECda-long")
    assert t[0][0] == 20070 and protocol.name_of(t) == "FujiGokoroUECd"


def test_hand_cells_joker_at_row_4_column_1():
    mask = parse_many(["S3", "D3", "C2", "HT", "JK1"])
    t = tables.hand_table(mask)
    assert t[0][1] == 1 and t[2][1] == 1 and t[3][13] == 1 and t[1][8] == 1 and t[4][1] == 2
    assert sum(v for row in t for v in row) == 6
    assert tables.hand_of(t) == mask


@pytest.mark.parametrize("cells, move", [
    ({(0, 5): 1}, {"cards": ["S7"]}),
    ({(0, 5): 1, (1, 5): 1, (2, 5): 2}, {"cards": ["S7", "H7", "JK1"], "as": {"JK1": "D7"}}),
    ({(3, 2): 1, (3, 3): 2, (3, 4): 1}, {"cards": ["C4", "C6", "JK1"], "as": {"JK1": "C5"}}),
    ({(0, 14): 2}, {"cards": ["JK1"]}),                       # a lone joker, where FujiGokoro puts it
    ({(0, 0): 2}, {"cards": ["JK1"]}),                        # ... and during a revolution
    ({(0, 9): 1, (1, 9): 1, (2, 9): 1, (3, 9): 1, (4, 9): 2}, {"cards": ["SJ", "HJ", "DJ", "CJ", "JK1"],
                                                              "as": {"JK1": "J"}}),
])
def test_play_cells_to_moves_and_back(cells, move):
    t = protocol.empty()
    for (r, c), v in cells.items():
        t[r][c] = v
    got = tables.move_of(t, 3)
    assert got == {"seat": 3, "action": "play", **move}
    again = tables.play_table(got["cards"], got.get("as"), reversed_order=cells.get((0, 0)) == 2)
    assert again[:5] == t[:5]


def test_a_stairs_joker_beyond_the_ends_is_read_at_the_other_end():
    """The reference server accepts JK-3-4 (joker at column 0) and A-2-JK (column 14); the engine's ranks stop at
    3 and 2, so the joker is read at the run's other end: the same stairs length, suit and shape."""
    t = protocol.empty()
    t[1][0], t[1][1], t[1][2] = 2, 1, 1
    assert tables.move_of(t, 0)["as"] == {"JK1": "H5"}
    t = protocol.empty()
    t[3][12], t[3][13], t[3][14] = 1, 1, 2
    assert tables.move_of(t, 0)["as"] == {"JK1": "CK"}


def test_all_zero_is_a_pass():
    assert tables.move_of(protocol.empty(), 1) == {"seat": 1, "action": "pass"}


@pytest.mark.parametrize("cells", [
    {(0, 3): 3},                                  # a value outside 0..2
    {(4, 5): 1},                                  # a card in the joker row
    {(0, 0): 1},                                  # a real card below the 3
    {(0, 5): 2, (1, 6): 2},                       # two jokers
    {(0, 5): 1, (1, 5): 1, (4, 5): 2},            # a row-4 joker without all four suits
    {(0, 5): 1, (0, 14): 2},                      # a joker above the 2 that extends no stairs
    {(0, 1): 1, (1, 2): 1, (0, 0): 2},            # a joker below the 3 beside a set of two suits
])
def test_tables_that_are_no_card_set(cells):
    t = protocol.empty()
    for (r, c), v in cells.items():
        t[r][c] = v
    with pytest.raises(tables.BadTable):
        tables.move_of(t, 0)


def _turn(hand, mover, me_turn, counts, seating, empty=True):
    t = tables.hand_table(parse_many(hand))
    return status.apply(t, status.Status(counts=counts, classes=(0,) * 5, seating=seating, mover=mover,
                                         empty_field=empty), my_turn=me_turn)


def _dealt_and_my_turn(counts, seating):
    """Player 0's tracker after a deal of ♦3 ♠5 and its first turn table."""
    tr = Tracker(me=0)
    deal = _turn(["D3", "S5"], 6, False, counts, seating)
    deal[5][0] = 1
    tr.on_deal(deal)
    tr.on_turn(_turn(["D3", "S5"], 0, True, counts, seating))
    return tr


def test_the_client_judge_flags_a_server_that_accepts_an_illegal_play():
    """Player 0 leads ♠5; the server then shows player 1's pair of 6s as accepted on that single."""
    seating = (0, 1, 2, 3, 4)
    counts = (2, 11, 11, 10, 10)
    tr = _dealt_and_my_turn(counts, seating)
    own = {"seat": 0, "action": "play", "cards": ["S5"]}
    tr.on_own_reply(own, protocol.ACCEPTED)
    field = status.apply(tables.play_table(["S5"], None), status.Status(
        counts=(1, 11, 11, 10, 10), classes=(0,) * 5, seating=seating, mover=0))
    tr.on_field(field, own, protocol.ACCEPTED)
    tr.on_flag(0)
    assert tr.disagreements == []
    tr.on_turn(_turn(["D3"], 1, False, (1, 11, 11, 10, 10), seating, empty=False))
    assert tr.disagreements == []
    pair = status.apply(tables.play_table(["S6", "H6"], None), status.Status(
        counts=(1, 9, 11, 10, 10), classes=(0,) * 5, seating=seating, mover=1))
    tr.on_field(pair)
    assert [d["what"] for d in tr.disagreements] == ["accepted play"]


def test_the_client_judge_flags_a_wrong_turn():
    seating = (2, 0, 1, 3, 4)
    counts = (2, 11, 11, 10, 10)
    tr = _dealt_and_my_turn(counts, seating)
    own = {"seat": 1, "action": "play", "cards": ["S5"]}
    tr.on_own_reply(own, protocol.ACCEPTED)
    tr.on_field(status.apply(tables.play_table(["S5"], None), status.Status(
        counts=(1, 11, 11, 10, 10), classes=(0,) * 5, seating=seating, mover=0)), own, protocol.ACCEPTED)
    tr.on_flag(0)
    # after the player at seat 1 the turn goes to seat 2 (player 1), not to player 2 (seat 0)
    tr.on_turn(_turn(["D3"], 2, False, (1, 11, 11, 10, 10), seating, empty=False))
    assert [d["what"] for d in tr.disagreements] == ["turn table"]
    assert tr.disagreements[0]["turn"] == {"ours": 1, "server": 2}


def test_the_client_gives_the_mc_bot_a_view_it_can_sample_deals_from():
    import random

    from referee import state_from_json, state_to_json
    from uecda.client import bot_view
    from workers.bots import mc
    tr = Tracker(me=2)
    seating = (0, 1, 2, 3, 4)
    hand = ["D3", "S5", "H5", "C6", "H7", "D9", "CJ", "SQ", "HK", "DA", "C2"]
    deal = _turn(hand, 6, False, (11, 11, 11, 10, 10), seating)
    deal[5][0] = 1
    tr.on_deal(deal)
    tr.on_turn(_turn(hand, 2, True, (11, 11, 11, 10, 10), seating))
    view = bot_view(state_to_json(tr.state, viewer=2))
    table = mc.sample_table(view, 2, random.Random(0), {})
    full = state_from_json(table)
    assert [p.left for p in full.players] == [11, 11, 11, 10, 10]
    assert not any(p.unknown for p in full.players)
