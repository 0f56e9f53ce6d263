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


# Each row's line of the digest, kept by table and primary key with the row's
# stored values it was made from: a line is a pure function of those values, so
# a row read again unchanged (most of the state between two snapshots, every
# row of the event ledger) is not converted and encoded again. Bounded by the
# bytes of the lines kept; past it, rows are encoded each time.
_LINES: dict[str, dict] = {}
_LINES_KEPT = 16 << 20        # about 50,000 rows (their values kept too: some 50 MB)
_lines_size = [0]
_ENCODER = json.JSONEncoder(sort_keys=True, default=str)     # json.dumps's, made once


def quick_state_digest() -> str:
    """`state_digest()`, the same bytes hashed, read with one plain cursor per table
    instead of peewee's row objects (several times faster; snapshots take it), each
    row's line made again only when the row changed (`_LINES`); the two ledgers'
    lines kept whole across snapshots while their rows were only added (`_ledger_lines`).
    tests/test_snapshots.py holds the two equal."""
    from .db import database
    h = hashlib.sha256()
    encode = _ENCODER.encode
    for model in STATE_MODELS:
        table, pk, names, convert, key_at, cols = _shape(model)
        if table in _LEDGERS:
            _ledger_lines(database, h, table, pk, cols, names, convert, key_at)
            continue
        kept = _LINES.setdefault(table, {})
        cursor = database.execute_sql(f'SELECT {cols} FROM "{table}" ORDER BY "{pk}"')
        for raw in cursor:
            key = raw[key_at]
            hit = kept.get(key)
            if hit is not None and hit[0] == raw:
                h.update(hit[1])
                continue
            row = list(raw)
            for i, p in convert:
                row[i] = p(row[i])
            line = encode([table, dict(zip(names, row))]).encode() + b"\n"
            h.update(line)
            old = kept.pop(key, None)
            if old is not None:
                _lines_size[0] -= len(old[1])
            if _lines_size[0] + len(line) <= _LINES_KEPT:
                kept[key] = (raw, line)
                _lines_size[0] += len(line)
    return h.hexdigest()


# per model, what quick_state_digest reads it by (its fields' names and conversions, its
# key's place, its columns): made once, not at every checked snapshot (issue 16)
_SHAPES: dict = {}


def _shape(model) -> tuple:
    """(table, key column, field names, [(position, conversion)], the key's position,
    the columns quoted and joined) of a state model."""
    found = _SHAPES.get(model)
    if found is None:
        fields = model._meta.sorted_fields
        convert = [(i, p) for i, p in enumerate(_plain(f) for f in fields) if p is not None]
        found = _SHAPES[model] = (model._meta.table_name, model._meta.primary_key.column_name,
                                  [f.name for f in fields], convert, fields.index(model._meta.primary_key),
                                  ", ".join(f'"{f.column_name}"' for f in fields))
    return found


# The ledgers (snapshots.LEDGERS): their rows are only ever added at the end of their
# keys, so the lines of those up to the last key hashed are kept, joined, with the
# table's rewrite stamp (versions.py, per connection): while it holds (nothing but
# plain INSERTs since) and the rows up to that key are as many, those lines are the
# same, and only the rows after it are read. Without this, every checked snapshot
# read and hashed row by row the whole ledger (80,000 events at 50,000 messages):
# a rebuild's cost grew with the square of the game's length.
_LEDGERS = ("event", "outcome")


def _ledger_lines(database, h, table, pk, cols, names, convert, key_at) -> None:
    from . import versions
    encode = _ENCODER.encode
    kept = versions.kept_parts(database)
    stamp = versions.rewrite_stamp(database, (table,))
    hit = kept.get(("digest ledger", table)) if kept is not None else None
    if hit is not None and hit["stamp"] == stamp and hit["last"] is not None and database.execute_sql(
            f'SELECT COUNT(*) FROM "{table}" WHERE "{pk}" <= ?', (hit["last"],)).fetchone()[0] == hit["count"]:
        chunks, last, count = hit["chunks"], hit["last"], hit["count"]
        cursor = database.execute_sql(f'SELECT {cols} FROM "{table}" WHERE "{pk}" > ? ORDER BY "{pk}"', (last,))
    else:
        chunks, last, count = [], None, 0
        cursor = database.execute_sql(f'SELECT {cols} FROM "{table}" ORDER BY "{pk}"')
    for chunk in chunks:
        h.update(chunk)
    added = bytearray()         # (grown in place: the ledger's bytes are held once, never copied)
    for raw in cursor:
        row = list(raw)
        for i, p in convert:
            row[i] = p(row[i])
        added += encode([table, dict(zip(names, row))]).encode()
        added += b"\n"
        last = raw[key_at]
        count += 1
    if added:
        h.update(added)
        chunks = chunks + [added]
    if kept is not None:
        kept[("digest ledger", table)] = {"stamp": stamp, "last": last, "count": count, "chunks": chunks}
