"""The intake spool: mail the LMTP/SMTP receiver has answered 250 for, waiting
for the engine to take it into the log.

The daemon's receivers write table `arrived`: the raw bytes and the envelope,
nothing read from the mail, through a `Writer` (a sqlite3 connection of its
own that commits every message waiting at that moment in one transaction:
group commit). The mail is read (Message-ID, sender, the time our server
received it) when it is drained, in the engine's process, by the `reader` the
mailer registers (mailer/inbound.spooled_fields). Table `intake` holds mail
spooled already read (`put`, and spools left by bnomic before 0.16's split).

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
import sqlite3
import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Callable

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


class Arrived(Model):
    """One stored mail as the receiver got it, not read yet. The id is the arrival order."""
    id = AutoField()
    raw = BlobField()
    stored_at = UTCDateTimeField()
    source = CharField(default="")
    envelope_from = CharField(null=True)
    rcpt_tos = JSONField(null=True)

    class Meta:
        database = spool
        table_name = "arrived"


# (raw, stored_at, envelope_from) -> (Message-ID, sender, at): registered by the
# mailer (store/ imports nothing of ours); drain reads `arrived` rows with it.
reader: Callable[[bytes, datetime, str | None], tuple[str, str, datetime]] | None = None


@dataclass
class Waiting:
    """A spooled mail as the drain takes it (from either table)."""
    table: str
    id: int
    message_id: str
    sender: str
    raw: bytes
    at: datetime
    stored_at: datetime
    source: str
    envelope_from: str | None
    rcpt_tos: list[str] | None


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
                spool.create_tables([Spooled, Arrived])
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


def put_arrived(mails: list[tuple[bytes, datetime, str, str | None, list[str] | None]]) -> list[int]:
    """Commit (raw, stored_at, source, envelope_from, rcpt_tos) rows to `arrived`
    in one transaction, through peewee (a receiver without a Writer of its own)."""
    _open(create=True)
    with _lock, spool.atomic(lock_type="IMMEDIATE"):
        return [Arrived.create(raw=raw, stored_at=at, source=source, envelope_from=envelope_from,
                               rcpt_tos=rcpt_tos).id
                for raw, at, source, envelope_from, rcpt_tos in mails]


def waiting(limit: int = 500) -> list[Waiting]:
    """The oldest spooled mail of each table (arrival order), `arrived` rows
    read by the registered `reader`."""
    if not _open(create=False):
        return []
    out = [Waiting("intake", r.id, r.message_id, r.sender, bytes(r.raw), r.at, r.stored_at,
                   r.source, r.envelope_from, r.rcpt_tos)
           for r in Spooled.select().order_by(Spooled.id).limit(limit)]
    arrived = list(Arrived.select().order_by(Arrived.id).limit(limit))
    if arrived and reader is None:
        raise RuntimeError("spooled mail is read by bnomic's mailer (bnomic.mailer.inbound), "
                           "which is not loaded")
    for r in arrived:
        raw = bytes(r.raw)
        mid, sender, at = reader(raw, r.stored_at, r.envelope_from)
        out.append(Waiting("arrived", r.id, mid, sender, raw, at, r.stored_at, r.source,
                           r.envelope_from, r.rcpt_tos))
    return out


def remove(rows: list[Waiting]) -> None:
    if rows and _open(create=False):
        with _lock, spool.atomic(lock_type="IMMEDIATE"):
            for model, table in ((Spooled, "intake"), (Arrived, "arrived")):
                ids = [r.id for r in rows if r.table == table]
                if ids:
                    model.delete().where(model.id.in_(ids)).execute()


def count() -> int:
    return Spooled.select().count() + Arrived.select().count() if _open(create=False) else 0


class Writer:
    """The receivers' one connection to the spool (sqlite3, WAL, synchronous=FULL),
    used by one thread: `put` commits many arrived mails in ONE transaction
    (group commit) and returns when they are on disk."""

    INSERT = ("INSERT INTO arrived (raw, stored_at, source, envelope_from, rcpt_tos) "
              "VALUES (?, ?, ?, ?, ?)")

    def __init__(self):
        if not _open(create=True):     # the file and its tables, made by the models
            raise RuntimeError("no intake spool: the game is not a SQLite file")
        self.con = sqlite3.connect(_path, isolation_level=None, check_same_thread=False,
                                   timeout=PRAGMAS["busy_timeout"] / 1000)
        for name, value in PRAGMAS.items():
            self.con.execute(f"PRAGMA {name}={value}")

    def put(self, mails: list[tuple[bytes, datetime, str, str | None, list[str] | None]]) -> list[int]:
        """Commit (raw, stored_at, source, envelope_from, rcpt_tos) rows; their ids."""
        stored, rcpts = Arrived.stored_at, Arrived.rcpt_tos
        con = self.con
        con.execute("BEGIN IMMEDIATE")
        try:
            ids = [con.execute(self.INSERT, (raw, str(stored.db_value(at)), source, envelope_from,
                                             rcpts.db_value(rcpt_tos))).lastrowid
                   for raw, at, source, envelope_from, rcpt_tos in mails]
            con.execute("COMMIT")
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise
        return ids

    def close(self) -> None:
        self.con.close()


def close() -> None:
    global _opened
    if spool.obj is not None and not spool.is_closed():
        spool.close()
    _opened = None
