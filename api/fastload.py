"""``schema.load`` without marshmallow's per-field machinery for the bodies it plainly accepts.

A move body costs marshmallow ~25 µs to load, a tenth of the move. ``load(schema, data)`` reads the schema's
declared fields once (per schema class) and takes a fast path when every value is of the JSON type its field
loads unchanged and passes that field's own validators, no required field is missing and no key is unknown:
the answer is then the one marshmallow gives (same keys, same order). Any other body, and any schema or field
this does not know, goes to ``schema.load``, so every refusal is marshmallow's own error.

Only marshmallow's public surface is read: the declared fields (``load_fields``) and their public attributes, and
whether the schema class has hooks (pre_load, post_load, validates, validates_schema), which its metaclass's
``resolve_hooks()`` answers from the decorated methods; a schema with any, or one that overrides ``load``, is
always loaded by marshmallow.
"""
from __future__ import annotations

from typing import Any, Callable

from marshmallow import RAISE, Schema, ValidationError, fields, missing

_NO = object()  # a value the fast path does not accept
_TYPES = {fields.String: str, fields.Integer: int, fields.Boolean: bool}
_loaders: dict[type, Callable[[dict], Any] | None] = {}


def load(schema: Schema, data: dict):
    fast = None
    if _plain(schema):
        if type(schema) not in _loaders:
            _loaders[type(schema)] = _compile(schema)
        fast = _loaders[type(schema)]
    if fast is not None:
        out = fast(data)
        if out is not _NO:
            return out
    return schema.load(data)


def _plain(schema: Schema) -> bool:
    """An instance configured as its class declares it: the class's compiled loader applies."""
    return (schema.only is None and not schema.exclude and not schema.partial and not schema.many
            and schema.unknown == RAISE and schema.unknown == schema.opts.unknown and not schema.load_only
            and not schema.dump_only)


def has_hooks(cls: type[Schema]) -> bool:
    """Whether marshmallow runs methods of ``cls`` when it loads: decorated hooks, or a ``load`` of its own."""
    return any(cls.resolve_hooks().values()) or cls.load is not Schema.load


def _compile(schema: Schema):
    if has_hooks(type(schema)):
        return None
    plan = []
    for name, field in schema.load_fields.items():
        check = _check(field)
        attr = field.attribute or name
        if check is None or "." in attr:
            return None
        plan.append((name if field.data_key is None else field.data_key, attr, check, field.required,
                     field.load_default))
    known = frozenset(key for key, *_ in plan)

    def fast(data: dict):
        if not data.keys() <= known:
            return _NO
        out = {}
        for key, attr, check, required, default in plan:
            if key in data:
                value = check(data[key])
                if value is _NO:
                    return _NO
                out[attr] = value
            elif required:
                return _NO
            elif default is not missing:
                out[attr] = default() if callable(default) else default
        return out
    return fast


def _check(field: fields.Field):
    """value -> what ``field.deserialize`` returns for it, or _NO; None for a field this does not know."""
    if field.pre_load or field.post_load:
        return None
    kind = type(field)
    if kind is fields.Raw:
        def convert(value):
            return value
    elif kind in _TYPES:
        wanted = _TYPES[kind]

        def convert(value):
            return value if type(value) is wanted else _NO
    elif kind is fields.List and isinstance(field, fields.List):  # exactly a List (isinstance: for the type checker)
        inner = _check(field.inner)
        if inner is None:
            return None

        def convert(value):
            if type(value) is not list:
                return _NO
            out = [inner(v) for v in value]
            return _NO if _NO in out else out
    elif kind is fields.Dict and isinstance(field, fields.Dict):
        keys = _check(field.key_field) if field.key_field is not None else _same
        values = _check(field.value_field) if field.value_field is not None else _same
        if keys is None or values is None:
            return None

        def convert(value):
            if type(value) is not dict:
                return _NO
            out = {keys(k): values(v) for k, v in value.items()}
            return _NO if _NO in out or _NO in out.values() else out
    else:
        return None
    validators, allow_none = tuple(field.validators), field.allow_none

    def check(value):
        if value is None:
            return None if allow_none else _NO
        value = convert(value)
        if value is _NO:
            return _NO
        for validate in validators:
            try:
                if validate(value) is False:
                    return _NO
            except ValidationError:
                return _NO
        return value
    return check


def _same(value):
    return value
