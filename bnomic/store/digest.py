"""A hash of the whole gamestate: equal state, equal digest (invariant 2)."""
from __future__ import annotations

import hashlib
import json
import re

from .fields import UTCDateTimeField
from .models import STATE_MODELS


def state_rows():
    """Every row of every state table, in primary-key order, as plain values."""
    for model in STATE_MODELS:
        pk = model._meta.primary_key
        for row in model.select().order_by(pk).dicts():
            yield model._meta.table_name, row


def state_digest() -> str:
    h = hashlib.sha256()
    for table, row in state_rows():
        h.update(json.dumps([table, row], sort_keys=True, default=str).encode())
        h.update(b"\n")
    return h.hexdigest()


def _plain(field):
    """How a stored value becomes the value `state_rows` gives (peewee's python_value),
    or None where it is the stored value itself."""
    from peewee import AutoField, CharField, ForeignKeyField, IntegerField, TextField
    from .fields import JSONField
    if isinstance(field, ForeignKeyField):
        return _plain(field.rel_field)
    if isinstance(field, (AutoField, IntegerField)) or \
            (isinstance(field, (CharField, TextField)) and not isinstance(field, JSONField)):
        return None
    if isinstance(field, UTCDateTimeField):
        return _utc_text(field)
    return field.python_value


_STORED_UTC = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{6})?+")


def _utc_text(field):
    """A UTC time as stored (naive, by peewee) → the text `str()` gives of it as
    python_value returns it (aware): the same, with "+00:00"; anything else by
    python_value itself."""
    def convert(value):
        if isinstance(value, str) and _STORED_UTC.fullmatch(value):
            return value + "+00:00"
        return field.python_value(value)
    return convert


def quick_state_digest() -> str:
    """`state_digest()`, the same bytes hashed, read with one plain cursor per table
    instead of peewee's row objects (several times faster; snapshots take it).
    tests/test_snapshots.py holds the two equal."""
    from .db import database
    h = hashlib.sha256()
    for model in STATE_MODELS:
        fields = model._meta.sorted_fields
        names = [f.name for f in fields]
        plain = [_plain(f) for f in fields]
        convert = [(i, p) for i, p in enumerate(plain) if p is not None]
        cols = ", ".join(f'"{f.column_name}"' for f in fields)
        pk = model._meta.primary_key.column_name
        table = model._meta.table_name
        cursor = database.execute_sql(f'SELECT {cols} FROM "{table}" ORDER BY "{pk}"')
        for raw in cursor:
            row = list(raw)
            for i, p in convert:
                row[i] = p(row[i])
            h.update(json.dumps([table, dict(zip(names, row))], sort_keys=True, default=str).encode())
            h.update(b"\n")
    return h.hexdigest()
