"""service/encoded.py: a JSON object encoded once, spliced into answers as its text."""
import json

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
