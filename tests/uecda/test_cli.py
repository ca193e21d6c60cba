"""The ``referee uecda-server`` / ``uecda-client`` commands as the console script runs them."""
from __future__ import annotations

import json
import secrets

import cli
from service.redis_conn import connect


def test_server_command_with_our_bots_only_prints_results_and_a_json_last_line(uecda_redis_url, monkeypatch,
                                                                                  capsys):
    prefix = f"referee-test-uecda-cli-{secrets.token_hex(4)}"
    monkeypatch.setenv("REDIS_URL", uecda_redis_url)
    monkeypatch.setenv("REFEREE_KEY_PREFIX", prefix)
    try:
        assert cli.main(["uecda-server", "--port", "0", "--games", "2", "--seed", "4",
                         "--seats", "random,greedy,random,random,random"]) == 0
        out = capsys.readouterr().out.splitlines()
        summary = json.loads(out[-1])
        assert summary["games"] == 2 and summary["faults"] == 0
        assert [p["name"] for p in summary["players"]] == ["random0", "greedy1", "random2", "random3", "random4"]
        assert sum(p["points"] for p in summary["players"]) == 30
        assert out[0].startswith(f"uecda: game {summary['game_id']} table token ")
        assert out[1].startswith("game 1: classes ") and out[2].startswith("game 2: classes ")
    finally:
        conn = connect(uecda_redis_url)
        for key in conn.scan_iter(f"{prefix}:*"):
            conn.delete(key)


def test_bad_seats_are_refused_before_anything_starts(capsys):
    assert cli.main(["uecda-server", "--seats", "human,human,human,human"]) == 2
    assert cli.main(["uecda-server", "--seats", "human,human,human,human,alphago"]) == 2
    err = capsys.readouterr().err
    assert "needs 5 entries" in err and "unknown seat 'alphago'" in err


def test_a_busy_port_and_a_closed_port_are_clean_errors(uecda_redis_url, monkeypatch, capsys):
    import socket
    monkeypatch.setenv("REDIS_URL", uecda_redis_url)
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    port = busy.getsockname()[1]
    try:
        assert cli.main(["uecda-server", "--port", str(port), "--games", "1"]) == 1
    finally:
        busy.close()
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    assert cli.main(["uecda-client", "--port", str(port), "--bot", "random", "--connect-timeout", "0.2"]) == 1
    err = capsys.readouterr().err
    assert "cannot listen on" in err and "cannot connect to" in err
