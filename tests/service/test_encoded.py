"""service/encoded.py: a JSON object encoded once, spliced into answers as its text."""
import json

from referee import instantiate
from service.encoded import EncodedJSON, dumps, encode


def test_an_encoded_object_is_the_object_and_its_compact_text():
    obj = {"players": [{"name": "ann \"é\""}], "seq": 3, "field": None}
    enc = EncodedJSON.of(obj)
    assert enc == obj and isinstance(enc, dict) and json.loads(enc.text) == obj
    assert enc.text == encode(obj) and ": " not in enc.text and ", " not in enc.text
    assert json.loads(json.dumps(enc)) == obj, "encoded again by anyone else it is the same JSON"


def test_dumps_splices_the_text_in_and_encodes_the_rest():
    state = EncodedJSON({"a": 1}, '{"a":1}')
    out = dumps({"verdict": {"legal": True, "message": "x\ny"}, "seq": 2, "state": state, "odd \"key\"": state})
    assert json.loads(out) == {"verdict": {"legal": True, "message": "x\ny"}, "seq": 2, "state": {"a": 1},
                               "odd \"key\"": {"a": 1}}
    assert json.loads(dumps({"state": state})) == {"state": {"a": 1}}
    assert dumps({"seq": 1}) == encode({"seq": 1})
    fake = EncodedJSON({"a": 1}, '{"a":2}')
    assert json.loads(dumps({"state": fake})) == {"state": {"a": 2}}, "the text is what goes out, as it is"


def test_what_the_fast_encoder_refuses_is_written_by_json():
    obj = {"seed": 2 ** 70, 3: "int key", "name": "名前 \"q\""}
    assert json.loads(encode(obj)) == {"seed": 2 ** 70, "3": "int key", "name": "名前 \"q\""}
    assert json.loads(EncodedJSON.of({"seed": -(2 ** 64)}).text) == {"seed": -(2 ** 64)}


def test_a_game_with_a_seed_beyond_64_bits_moves(client):
    """A caller's seed is keyed into 63 bits (service/seeds.py); an imported record keeps its own seed, any size."""
    assert client.create(seed=2 ** 70)["state"]["seed"] < 2 ** 63
    made = client.create(seed=1)
    record = client.get(f"/v1/games/{made['game_id']}/record", made["table_token"]).get_data(as_text=True)
    record = record.replace(f"seed: {made['state']['seed']}", f"seed: {2 ** 70}")
    r = client.post("/v1/games", {"record": record})
    assert r.status_code == 201, r.json
    g = r.json
    gid, t = g["game_id"], g["table_token"]
    probe = client.legal(gid, t, 0)
    seat = probe["actors"][0]
    move = instantiate(client.legal(gid, t, seat)["moves"][0])
    r = client.post(f"/v1/games/{gid}/moves", dict(move, expected_seq=probe["seq"]), t)
    assert r.status_code == 200 and r.json["state"]["seed"] == 2 ** 70
    assert client.state(gid, t)[0] == r.json["state"]
