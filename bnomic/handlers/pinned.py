"""Pinned readings (issue 13, item 7): a mail is read once, and what it was read
as is kept beside the log, so that a replay applies the same readings and a
better reader never silently rewrites history.

`to_json` and `from_json` turn a list of `grammar.Reading` into canonical JSON
(sorted keys, no spaces) and back. They follow Reading's dataclass fields, so a
field the reader gains later is carried without a change here: an action or an
assertion by its registered name, a `grammar.When` as its fields (a time in
ISO 8601), a Transaction's steps recursively, tuples as lists and back; a field
at its default is left out, so a new field changes no stored reading.

A stored reading whose action this bnomic no longer has comes back as `Lost`:
the engine refuses it, saying why (Rule 4E7), instead of failing on it.
"""
from __future__ import annotations

import dataclasses
import json
import types
import typing
from datetime import datetime

from ..store import Pinned, hot
from . import grammar
from .registry import ACTIONS, ASSERTIONS, ActionSpec, AssertionSpec


@dataclasses.dataclass
class Lost(grammar.Reading):
    """A pinned reading whose action (or assertion, or a Transaction's step's)
    this bnomic no longer has. `error` says why it is not done, `action` names
    the Outcome's action, `stored` is the reading as it was stored."""
    action: str = ""
    stored: dict = dataclasses.field(default_factory=dict)


class _Gone(Exception):
    def __init__(self, kind: str, name: str):
        super().__init__(name)
        self.kind, self.name = kind, name


def to_json(readings: list[grammar.Reading]) -> str:
    """The readings as canonical JSON: the same readings give the same text."""
    return json.dumps([_encode(r) for r in readings], sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)


def from_json(text: str, reader: int | None = None) -> list[grammar.Reading]:
    """The readings stored by `to_json` (by reader version `reader`, for the reason
    a `Lost` one gives)."""
    return [_reading(item, reader) for item in json.loads(text)]


# ---------------------------------------------------------------- encoding

def _encode(value):
    if isinstance(value, Lost):
        return value.stored
    if isinstance(value, (ActionSpec, AssertionSpec)):
        return value.name
    if isinstance(value, datetime):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {}
        for name, default, _ in _fields(type(value)):
            v = getattr(value, name)
            if v is not default and not (v == default and default is not _NONE):
                out[name] = _encode(v)
        return out
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _encode(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"a reading cannot hold a {type(value).__name__} to be pinned")


_NONE = object()           # a field with no default: always written
_FIELDS: dict[type, tuple] = {}


def _fields(cls) -> tuple:
    """(name, default, type hint) of each field a dataclass is made with; found
    once per class (typing.get_type_hints is costly)."""
    found = _FIELDS.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        found = _FIELDS[cls] = tuple(
            (f.name, f.default if f.default is not dataclasses.MISSING else
             f.default_factory() if f.default_factory is not dataclasses.MISSING else _NONE,
             hints[f.name])
            for f in dataclasses.fields(cls) if f.init)
    return found


# ---------------------------------------------------------------- decoding

def _reading(item: dict, reader: int | None) -> grammar.Reading:
    try:
        return _dataclass(grammar.Reading, item)
    except _Gone as gone:
        by = f" (reader version {reader})" if reader is not None else ""
        return Lost(text=item.get("text", ""), stored=item,
                    action="transaction" if item.get("steps") is not None else gone.name,
                    error=f'not done: when this message was first read{by} it was read as the '
                          f'{gone.kind} "{gone.name}", which this bnomic no longer has; the '
                          f'operator may read the log again with the current reader (bnomic reread)')


def _dataclass(cls, item: dict):
    return cls(**{name: _decode(item[name], hint) for name, _, hint in _fields(cls) if name in item})


def _decode(value, hint):
    if value is None:
        return None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        return _decode(value, options[0]) if len(options) == 1 else value
    if hint is ActionSpec:
        spec = next((s for s in ACTIONS if s.name == value), None)
        if spec is None:
            raise _Gone("action", value)
        return spec
    if hint is AssertionSpec:
        spec = next((s for s in ASSERTIONS if s.name == value), None)
        if spec is None:
            raise _Gone("assertion", value)
        return spec
    if hint is datetime:
        return datetime.fromisoformat(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass(hint, value)
    if origin is list:
        return [_decode(v, args[0] if args else typing.Any) for v in value]
    if origin is tuple or hint is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(v, args[0]) for v in value)
        if args and len(args) == len(value):
            return tuple(_decode(v, a) for v, a in zip(value, args))
        return tuple(value)
    if origin is dict:
        return {k: _decode(v, args[1]) for k, v in value.items()} if args else dict(value)
    return value


# ----------------------------------------------------------------- storage

@dataclasses.dataclass
class Pin:
    """An entry's pinned readings: `text` is their canonical JSON, or None when
    the mail went over the reader's step budget (limits.read_steps)."""
    entry: int
    reader: int
    text: str | None

    def readings(self) -> list[grammar.Reading] | None:
        return None if self.text is None else from_json(self.text, self.reader)


def canonical(readings: list[grammar.Reading] | None) -> str | None:
    return None if readings is None else to_json(readings)


def load(entry: int) -> Pin | None:
    row = hot.get_or_none(Pinned, entry=entry)
    return None if row is None else Pin(row.entry, row.reader, row.readings)


def save(entry: int, readings: list[grammar.Reading] | None, new: bool = False) -> Pin:
    """Pin the readings of entry `entry`'s mail (None: over budget), made by
    the current reader, replacing its pin if it has one. `new`: the caller
    knows it has none (load found none in this transaction): inserted only."""
    pin = Pin(entry, grammar.READER_VERSION, canonical(readings))
    # delete, then insert: PostgreSQL has no INSERT OR REPLACE (peewee refuses it there)
    if not new:
        hot.delete(Pinned, {"entry": entry})
    Pinned(entry=entry, reader=pin.reader, readings=pin.text).save(force_insert=True)   # store/hot.py
    return pin


def pins_from(first: int) -> dict[int, Pin]:
    """Every pin of entries `first` and later, by entry."""
    return {r.entry: Pin(r.entry, r.reader, r.readings)
            for r in Pinned.select().where(Pinned.entry >= first).order_by(Pinned.entry)}


def pins_between(first: int, last: int) -> dict[int, Pin]:
    """Every pin of entries `first` to `last`, by entry (one statement)."""
    if hot.fast():
        rows = hot.all_rows("pins between", 'SELECT "entry", "reader", "readings" FROM "pinned" '
                            'WHERE "entry" BETWEEN ? AND ? ORDER BY "entry"', (first, last))
        return {entry: Pin(entry, reader, text) for entry, reader, text in rows}
    return {r.entry: Pin(r.entry, r.reader, r.readings)
            for r in Pinned.select().where(Pinned.entry.between(first, last)).order_by(Pinned.entry)}


def drop_from(first: int) -> dict[int, Pin]:
    """Unpin entries `first` and later (their mail is read again at the next
    replay); returns what they were."""
    old = pins_from(first)
    Pinned.delete().where(Pinned.entry >= first).execute()
    return old
