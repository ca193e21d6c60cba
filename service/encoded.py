"""JSON encoded once: the state a move stores is the same text its answer carries.

``EncodedJSON`` is the JSON object itself (a dict, so any caller may read it or encode it again) that also keeps
its text; the store writes that text, and the API splices it into an answer (``dumps``) instead of encoding
the state a second time.
"""
from __future__ import annotations

import json

import orjson


def encode(obj) -> str:
    """Compact JSON: what the store keeps and the answers send. orjson writes a state ~9x faster than json; what
    it refuses (an integer beyond 64 bits, such as a caller's seed) json writes."""
    try:
        return orjson.dumps(obj).decode()
    except orjson.JSONEncodeError:
        return json.dumps(obj, separators=(",", ":"))


class EncodedJSON(dict):
    __slots__ = ("text",)

    def __init__(self, obj: dict, text: str):
        super().__init__(obj)
        self.text = text

    @classmethod
    def of(cls, obj: dict) -> "EncodedJSON":
        return cls(obj, encode(obj))


def text_of(obj) -> str:
    return obj.text if isinstance(obj, EncodedJSON) else encode(obj)


def dumps(payload: dict) -> str:
    """``payload`` as a JSON object; its EncodedJSON values go in as their text (after the other items)."""
    plain = {key: value for key, value in payload.items() if not isinstance(value, EncodedJSON)}
    if len(plain) == len(payload):
        return encode(payload)
    spliced = ",".join(f"{encode(key)}:{value.text}" for key, value in payload.items() if key not in plain)
    return encode(plain)[:-1] + ("," if plain else "") + spliced + "}"
