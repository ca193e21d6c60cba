"""Table mode over HTTP: a real table's device enters plays, the referee trusts the hands."""


def test_table_game_judges_what_it_can_and_says_what_it_trusted(client):
    g = client.create(preset="nanko", players=3, seed=None, table=True, leader=1)
    gid, table = g["game_id"], g["table_token"]
    assert g["state"]["table"] is True and g["state"]["turn"] == 1
    assert [p["hand_count"] for p in g["state"]["players"]] == [18, 18, 18]
    r = client.post(f"/v1/games/{gid}/moves", {"seat": 1, "action": "play", "cards": ["HK"]}, table)
    assert r.status_code == 200, r.json
    assert r.json["verdict"]["unchecked"] == ["not_in_hand"]
    r = client.post(f"/v1/games/{gid}/moves", {"seat": 2, "action": "play", "cards": ["H9"]}, table)
    assert r.status_code == 422 and r.json["verdict"]["reason"] == "too_weak"
    r = client.post(f"/v1/games/{gid}/moves", {"seat": 2, "action": "play", "cards": ["HK"]}, table)
    assert r.status_code == 422 and r.json["verdict"]["reason"] == "not_in_hand"


def test_hands_correction_is_for_the_table_token_and_must_fit_the_play(client):
    g = client.create(preset="uecda", players=3, seed=None, table=True)
    gid, table = g["game_id"], g["table_token"]
    client.post(f"/v1/games/{gid}/moves", {"seat": 0, "action": "play", "cards": ["S4"]}, table)
    r = client.post(f"/v1/games/{gid}/hands", {"hands": [["S4"], None, None]}, g["seat_tokens"][0])
    assert r.status_code == 403
    r = client.post(f"/v1/games/{gid}/hands", {"hands": [["S4"], None, None]}, table)
    assert r.status_code == 400 and "already seen" in r.json["error"]["message"]
    count = client.state(gid, table)[0]["players"][1]["hand_count"]
    cards = "S5 H5 D5 C5 S6 H6 D6 C6 S7 H7 D7 C7 S8 H8 D8 C8 S9 H9 D9".split()[:count]
    r = client.post(f"/v1/games/{gid}/hands", {"hands": [None, cards, None]}, table)
    assert r.status_code == 200, r.json
    state, seq = client.state(gid, table)
    assert sorted(state["players"][1]["hand"]) == sorted(cards) and state["players"][1]["unknown"] == 0
    replayed = client.get(f"/v1/games/{gid}/replay?seq={seq}", table).json["state"]
    assert replayed == state
