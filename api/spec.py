"""The OpenAPI document the API serves (GET /openapi.yaml): openapi.yaml with the State schema's slot keys filled in
from the rules' slots.

openapi.yaml names none of the rules' slots (referee/slots.py): each rule declares its own, with the JSON Schema of
its value, and the catalogue (``GET /v1/rules``, each rule's ``slots``) serves them. ``fill_slots`` puts them into
the State schema: a slot whose key has no dot (``revolution_min``) is a property of the State, slots under a dotted
key (``locks.rank``) properties of that key's object (``locks``, which takes no other key), every one required, as
``state_to_json`` always writes them. ``openapi_spec`` is that document, loaded once; the API serves it and the
tests check bodies and states against it, so a slot whose value breaks its declared schema fails them.
"""
from __future__ import annotations

import copy
import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

import yaml

import referee as engine
from referee.slots import LOCK_PREFIX

# how an object holding dotted slots is described: the locks (``LOCK_PREFIX``), any other
GROUP_DOC = ("the rules' slots under `{top}.` (GET /v1/rules, each rule's `slots`), one key per slot, each at its "
             "slot's `default` while its rule is off")
LOCKS_DOC = ("the locks in force, one key per lock slot of the catalogue (GET /v1/rules, each rule's `slots` with "
             "`lock: true`, under `locks.`); each is at its slot's `default` when that lock is off")


class SpecMissing(Exception):
    """openapi.yaml is not installed here."""


def spec_path() -> Path | None:
    """openapi.yaml lives at the repo root; an installed package finds it via env or cwd."""
    candidates = [os.environ.get("REFEREE_OPENAPI"), Path(__file__).resolve().parents[1] / "openapi.yaml",
                  Path.cwd() / "openapi.yaml"]
    for c in candidates:
        if c and Path(c).is_file():
            return Path(c)
    return None


def fill_slots(spec: dict, slots: Iterable[dict]) -> dict:
    """``spec`` (openapi.yaml, loaded) with its State schema's slot keys filled from ``slots`` (the catalogue's
    slot entries: ``key``, ``lock`` and ``schema``), in their order; a new dict, ``spec`` is left as it was. A slot
    key the file already names is a ValueError: the file names no slot."""
    out = copy.deepcopy(spec)
    state = out["components"]["schemas"]["State"]
    props: dict[str, Any] = state.setdefault("properties", {})
    required: list[str] = state.setdefault("required", [])
    named = set(props)  # the keys the file names: none may be a slot's
    for slot in slots:
        top, _, rest = slot["key"].partition(".")
        if top in named:
            raise ValueError(f"openapi.yaml's State names {top!r}, which is the rules' slot {slot['key']!r}: remove it "
                             "there (the slots are filled in from GET /v1/rules)")
        if not rest:
            props[top] = copy.deepcopy(slot["schema"])
        else:
            doc = LOCKS_DOC if f"{top}." == LOCK_PREFIX else GROUP_DOC.format(top=top)
            group = props.setdefault(top, {"type": "object", "description": doc, "required": [],
                                           "additionalProperties": False, "properties": {}})
            group["properties"][rest] = copy.deepcopy(slot["schema"])
            group["required"].append(rest)
        if top not in required:
            required.append(top)
    return out


def catalogue_slots() -> list[dict]:
    """Every slot the catalogue serves, in registry order."""
    return [s for rule in engine.catalog()["rules"] for s in rule["slots"]]


@lru_cache(maxsize=1)
def _loaded(path: Path) -> dict:
    return fill_slots(yaml.safe_load(path.read_text(encoding="utf-8")), catalogue_slots())


def openapi_spec() -> dict:
    """The document the API serves: openapi.yaml with the rules' slots filled in (``fill_slots``), loaded once.
    SpecMissing when openapi.yaml is not installed here."""
    path = spec_path()
    if path is None:
        raise SpecMissing("openapi.yaml is not installed here (set REFEREE_OPENAPI)")
    return _loaded(path)


@lru_cache(maxsize=1)
def _text(path: Path) -> str:
    return yaml.safe_dump(_loaded(path), sort_keys=False, allow_unicode=True, width=120)


def openapi_text() -> str:
    """``openapi_spec`` as YAML, as GET /openapi.yaml serves it (made once)."""
    path = spec_path()
    if path is None:
        raise SpecMissing("openapi.yaml is not installed here (set REFEREE_OPENAPI)")
    return _text(path)
