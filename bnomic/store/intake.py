"""The intake spool: mail the LMTP/SMTP receiver has answered 250 for, waiting
for the engine to take it into the log.

It is its own SQLite file beside the game's (`GAME-intake`, WAL), so storing a
message never waits behind the engine's write transaction on the game database
(SQLite has one writer per file). Every write here is on disk before it returns
(synchronous=FULL): the receiver answers 250 only after `put` returned True.
`log.drain_intake` moves the rows into the log, in order, and then deletes
them; a row whose Message-ID is already in the log is only deleted, so a crash
between the two steps neither loses nor doubles a message.

With PostgreSQL there is no spool: its writers do not wait for each other, and
the receiver appends to the log directly.
"""
from __future__ import annotations

import os
import threading
from datetime import datetime

from peewee import AutoField, BlobField, CharField, DatabaseProxy, Model, SqliteDatabase

from .fields import JSONField, UTCDateTimeField

spool = DatabaseProxy()

PRAGMAS = {"journal_mode": "wal", "synchronous": "full", "busy_timeout": 10_000}

_path: str | None = None
_opened: str | None = None
_lock = threading.Lock()        # one writer thread at a time in this process
_opening = threading.Lock()


class Spooled(Model):
    """One stored mail, not yet in the log. The id is the arrival order."""
    id = AutoField()
    message_id = CharField(unique=True)
    sender = CharField()
    raw = BlobField()
    at = UTCDateTimeField()                  # when our mail server received it, at most stored_at
    stored_at = UTCDateTimeField()
    source = CharField(default="")
    envelope_from = CharField(null=True)
    rcpt_tos = JSONField(null=True)

    class Meta:
        database = spool
        table_name = "intake"


def path_for(game_path: str) -> str:
    return f"{game_path}-intake"


def use(game_path: str | None) -> None:
    """Called when a game database is opened: a SQLite file gets a spool beside
    it (created on the first `put`); None (PostgreSQL) means no spool."""
    global _path
    _path = path_for(game_path) if game_path else None


def available() -> bool:
    return _path is not None


def _open(create: bool) -> bool:
    """Point the models at the spool file; False if there is none (and not create)."""
    global _opened
    if _path is None or (not create and not os.path.exists(_path)):
        return False
    if _opened != _path:
        with _opening:
            if _opened != _path:
                if spool.obj is not None and not spool.is_closed():
                    spool.close()
                spool.initialize(SqliteDatabase(_path, pragmas=PRAGMAS))
                spool.create_tables([Spooled])
                _opened = _path
    return True


def put(raw: bytes, message_id: str, sender: str, at: datetime, stored_at: datetime,
        source: str = "", envelope_from: str | None = None,
        rcpt_tos: list[str] | None = None) -> bool:
    """Commit one mail to the spool (on disk when this returns). False if a mail
    with this Message-ID is already waiting here."""
    _open(create=True)
    with _lock, spool.atomic(lock_type="IMMEDIATE"):
        if Spooled.select().where(Spooled.message_id == message_id).exists():
            return False
        Spooled.create(message_id=message_id, sender=sender, raw=raw, at=at, stored_at=stored_at,
                       source=source, envelope_from=envelope_from, rcpt_tos=rcpt_tos)
    return True


def waiting(limit: int = 500) -> list[Spooled]:
    """The oldest spooled mail, in the order our mail server received it
    (then in the order it was stored)."""
    if not _open(create=False):
        return []
    return list(Spooled.select().order_by(Spooled.id).limit(limit))


def remove(ids: list[int]) -> None:
    if ids and _open(create=False):
        with _lock, spool.atomic(lock_type="IMMEDIATE"):
            Spooled.delete().where(Spooled.id.in_(ids)).execute()


def count() -> int:
    return Spooled.select().count() if _open(create=False) else 0


def close() -> None:
    global _opened
    if spool.obj is not None and not spool.is_closed():
        spool.close()
    _opened = None
