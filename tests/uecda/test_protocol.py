"""The protocol, byte for byte, with scripted socket clients (UECDA.md §2-§6) against ``uecda-server``."""
from __future__ import annotations

import referee
from uecda.match import MatchLog

from .script import Raw, Table, cards, empty, join, single


def first_turn(port):
    clients = join(port)
    table = Table(clients)
    deals = table.deal()
    return clients, table, deals


def test_handshake_numbers_players_in_accept_order_and_deals_a_reset_game(start_server):
    srv = start_server(games=1)
    clients, table, deals = first_turn(srv.port)
    assert [c.number for c in clients] == [0, 1, 2, 3, 4]
    for t in deals:
        assert t[5][:8] == [1, 0, 0, 6, 0, 0, 0, 0]          # deal table of a reset game: no exchange
        assert t[6][5:10] == [0, 0, 0, 0, 0]                  # classes reset
        assert sorted(t[6][10:15]) == [0, 1, 2, 3, 4]         # a seating
        assert t[7] == [0] * 15
    counts = deals[0][6][0:5]
    assert sorted(counts) == [10, 10, 11, 11, 11] and all(t[6][0:5] == counts for t in deals)
    assert [len(cards(t)) for t in deals] == counts
    # the holder of the diamond 3 ([2][1]) leads
    tables = table.turn_tables()
    holder = next(p for p, t in enumerate(deals) if t[2][1] == 1)
    assert all(t[5][3] == holder and t[5][4] == 1 for t in tables.values())
    assert [p for p, t in tables.items() if t[5][2] == 1] == [holder]
    assert table.play_out(tables=tables) == 2
    summary = srv.join()
    assert summary["games"] == 1 and summary["faults"] == 0
    assert sorted(p["points"] for p in summary["players"]) == [1, 2, 3, 4, 5]


def test_pass_replies_and_a_flush_by_all_passes(start_server):
    srv = start_server(games=1)
    clients, table, deals = first_turn(srv.port)
    tables = table.turn_tables()
    leader = next(p for p, t in tables.items() if t[5][2] == 1)
    # a pass on the empty field is accepted (9) and changes nothing but the turn
    reply, field, flag = table.act(tables, empty())
    assert (reply, flag) == (9, 0)
    assert field[:5] == empty()[:5] and field[5][3] == leader and field[5][4] == 1
    tables = table.turn_tables()
    second = next(p for p, t in tables.items() if t[5][2] == 1)
    assert second != leader
    play = table.simple_move(tables[second])
    reply, field, _ = table.act(tables, play)
    assert reply == 9 and field[:5] == play[:5] and field[5][3] == second and field[5][4] == 0
    # everyone else passes (8 on a field); the turn comes back to the player of the field ...
    seen = set()
    while True:
        tables = table.turn_tables()
        mover = next(p for p, t in tables.items() if t[5][2] == 1)
        if mover == second:
            break
        assert mover not in seen and mover != leader   # a passed player sits out until the flush
        seen.add(mover)
        reply, field, _ = table.act(tables, empty())
        assert reply == 8 and field[:5] == play[:5]
    assert tables[second][5][4] == 0
    # ... who passes too: the field flushes and he leads on an empty field
    reply, field, _ = table.act(tables, empty())
    assert reply == 8 and field[5][4] == 0                # the field table shows the state before the flush
    tables = table.turn_tables()
    assert all(t[5][3] == second and t[5][4] == 1 for t in tables.values())
    table.play_out(tables=tables)
    srv.join()


def test_rejected_play_is_a_pass_and_is_in_the_log(start_server, service):
    srv = start_server(games=1)
    clients, table, deals = first_turn(srv.port)
    tables = table.turn_tables()
    leader = next(p for p, t in tables.items() if t[5][2] == 1)
    missing = next((r, c) for r in range(4) for c in range(1, 14) if not tables[leader][r][c])
    reply, field, flag = table.act(tables, single(*missing))
    assert (reply, flag) == (8, 0)                        # one try only
    assert field[:5] == empty()[:5] and field[5][3] == leader
    tables = table.turn_tables()
    assert tables[leader][5][2] == 0                      # the turn moved on: the rejected play was a pass
    table.play_out(tables=tables)
    summary = srv.join()
    assert summary["rejected_plays"] == 1 and summary["faults"] == 0
    gid = summary["game_id"]
    audit = [e for e in service.events(gid, "table", include_rejected=True)["events"] if e.get("type") == "rejected"]
    assert len(audit) == 1 and audit[0]["verdict"]["reason"] == "not_in_hand"


def test_an_eight_cuts_and_its_player_leads(start_server):
    srv = start_server(games=1, seed=3)
    clients, table, deals = first_turn(srv.port)
    cut = {}

    def eights(mover, t):
        f = table.field
        on = [(r, c) for r in range(5) for c in range(15) if f[r][c]]
        eight = next((r for r in range(4) if t[r][6]), None)
        if not cut and t[5][4] == 0 and len(on) == 1 and on[0][1] < 6 and eight is not None and not t[5][7]:
            cut["by"] = mover
            return single(eight, 6)
        return None

    while not cut:
        tables = table.turn_tables()
        mover = next(p for p, t in tables.items() if t[5][2] == 1)
        move = eights(mover, tables[mover]) or table.simple_move(tables[mover])
        reply, field, flag = table.act(tables, move)
        assert flag == 0
    assert reply == 9 and field[5][4] == 0 and sum(field[r][6] for r in range(4)) == 1
    tables = table.turn_tables()
    assert all(t[5][3] == cut["by"] and t[5][4] == 1 for t in tables.values())   # flushed; the cutter leads
    table.play_out(tables=tables)
    srv.join()


def test_exchange_tables_and_answers(start_server, service):
    srv = start_server(games=2, reset_every=100)
    clients, table, deals = first_turn(srv.port)
    assert table.play_out() == 1
    deals = table.deal()
    classes = deals[0][6][5:10]
    assert sorted(classes) == [0, 1, 2, 3, 4]
    by_class = {c: p for p, c in enumerate(classes)}
    gives = {p: deals[p][5][1] for p in range(5)}
    assert gives == {by_class[0]: 2, by_class[1]: 1, by_class[2]: 0, by_class[3]: 0, by_class[4]: 0}
    assert all(t[5][0] == 1 for t in deals)
    counts = deals[0][6][0:5]
    # the upper classes' tables include what they received, the lower ones' still show what was taken
    assert len(cards(deals[by_class[0]])) == counts[by_class[0]] + 2
    assert len(cards(deals[by_class[1]])) == counts[by_class[1]] + 1
    assert [len(cards(deals[by_class[c]])) for c in (2, 3, 4)] == [counts[by_class[c]] for c in (2, 3, 4)]
    # the daifugo returns its two lowest cards; the fugo sends garbage (three cards): it gives its strongest
    top = clients[by_class[0]]
    low2 = sorted((c, r) for r, c in cards(deals[by_class[0]]) if r < 4)[:2]
    answer = empty()
    for c, r in low2:
        answer[r][c] = 1
    top.send_table(answer)
    junk = empty()
    for r, c in cards(deals[by_class[1]])[:3]:
        junk[r][c] = deals[by_class[1]][r][c]
    clients[by_class[1]].send_table(junk)
    tables = table.turn_tables()
    for c, r in low2:
        assert tables[by_class[0]][r][c] == 0 and tables[by_class[4]][r][c] == 1
    assert len(cards(tables[by_class[1]])) == counts[by_class[1]]
    table.play_out(tables=tables)
    summary = srv.join()
    assert [f["during"] for f in MatchLog.read(service.store, summary["game_id"]) if f["type"] == "fault"] == \
        ["exchange"]


def test_disconnect_and_stall_are_passes_and_the_match_goes_on(start_server, service):
    srv = start_server(games=2, time_limit_ms=1000)
    clients, table, deals = first_turn(srv.port)
    gone, slow = clients[1], clients[2]
    gone.close()
    alive = [c for c in clients if c is not gone]
    stalled = False

    def rest_of_turn():
        fields = [c.table() for c in alive]
        flags = [c.integer() for c in alive]
        table.field = fields[0]
        return fields[0], flags[0]

    flag = 0
    while flag != 2:
        tables = table.turn_tables(skip={gone.number})
        mover = next((p for p, t in tables.items() if t[5][2] == 1), None)
        if mover is None:                       # the disconnected client's turn: played as a pass
            field, flag = rest_of_turn()
            assert field[5][3] == gone.number
        elif mover == slow.number and not stalled:
            stalled = True                      # stays silent past the time limit ...
            assert slow.integer() in (8, 9)     # ... the server answers for it and plays a pass
            field, flag = rest_of_turn()
            assert field[5][3] == slow.number
            late = single(*max(((r, c) for r in range(4) for c in range(1, 14) if tables[mover][r][c]),
                               key=lambda rc: rc[1]))
            slow.send_table(late)               # that late answer must be skipped, not read as its next play
        else:
            before = table.field
            move = table.simple_move(tables[mover])
            reply, field, flag = table.act(tables, move, skip={gone.number})
            if mover == slow.number and stalled and not flag:
                assert field[:5] == (move[:5] if reply == 9 else before[:5])
        if flag == 1:                           # game 2's exchange: answer for whoever must
            for c in alive:
                t = c.table()
                if t[5][1]:
                    a = empty()
                    for col, r in sorted((col, r) for r, col in cards(t) if r < 4)[:t[5][1]]:
                        a[r][col] = 1
                    c.send_table(a)
            table.field = empty()
    summary = srv.join()
    assert stalled
    reasons = [f["reason"] for f in summary_faults(service, summary)]
    assert any(r.startswith("disconnected") or r.startswith("send failed") for r in reasons)
    assert sum(r.startswith("timeout") for r in reasons) == 1     # only the one stall: back in step afterwards
    assert summary["games"] == 2 and summary["rejected_plays"] == 0
    state = referee.replay(service.store.events(summary["game_id"]))
    assert state.deal == 2 and state.phase == "deal_over"


def summary_faults(service, summary):
    return [e for e in MatchLog.read(service.store, summary["game_id"]) if e["type"] == "fault"]


def test_garbage_table_is_a_pass_and_the_server_survives(start_server, service):
    srv = start_server(games=1)
    clients, table, deals = first_turn(srv.port)
    tables = table.turn_tables()
    bad = empty()
    bad[0][3] = 7
    reply, field, flag = table.act(tables, bad)
    assert (reply, flag) == (8, 0)
    table.play_out()
    summary = srv.join()
    assert summary["faults"] == 1
    assert "unreadable play table" in summary_faults(service, summary)[0]["reason"]


def test_a_connection_that_closes_during_the_handshake_does_not_take_a_seat(start_server):
    import socket
    srv = start_server(games=1)
    probe = socket.create_connection(("127.0.0.1", srv.port))
    probe.close()                                   # a port probe: connects, sends nothing, goes away
    clients, table, deals = first_turn(srv.port)    # the five real clients are still players 0..4
    table.play_out()
    assert srv.join()["faults"] == 0


def test_profile_name_is_kept(start_server, service):
    srv = start_server(games=1)
    clients = [Raw(srv.port, name) for name in ("ALPHA", "BRAVO", "CHARLIE", "DELTA", "ECHO")]
    for i, c in enumerate(clients):
        assert c.hello() == i
    table = Table(clients)
    table.deal()
    table.play_out()
    summary = srv.join()
    assert [p["name"] for p in summary["players"]] == ["ALPHA", "BRAVO", "CHARLIE", "DELTA", "ECHO"]
