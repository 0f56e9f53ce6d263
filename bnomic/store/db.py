"""The database connection: SQLite by default, PostgreSQL by URL.

Every model binds to `database`, a proxy that `open_database` points at the
real database, so the same models serve a file path and a database URL.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager

from peewee import DatabaseProxy, SqliteDatabase
from playhouse import db_url

from . import intake
from .versions import GameDatabase



class _DatabaseProxy(DatabaseProxy):
    """peewee's proxy, whose savepoints (database.atomic() inside a transaction) are
    the database's own: a game's SQLite (GameDatabase) makes lighter ones (versions.py)."""

    def savepoint(self):
        if self.obj is None:
            raise AttributeError("Cannot use uninitialized Proxy.")
        return self.obj.savepoint()


database = _DatabaseProxy()

SQLITE_PRAGMAS = {
    "journal_mode": "wal",     # readers never block the one writer
    "foreign_keys": 1,
    "busy_timeout": 10_000,    # ms: a second process waits instead of failing
    "synchronous": "normal",   # with WAL; the writes we acknowledge use durable_transaction
}


class StoreError(RuntimeError):
    """A database that cannot be opened or is not a bnomic game."""


def open_database(target: str):
    """Open the game database named by a file path or a database URL."""
    if "://" in target:
        try:
            db = db_url.connect(target)
        except Exception as e:  # unknown scheme, missing driver
            raise StoreError(f"cannot open database URL {target!r}: {e}") from None
    else:
        db = GameDatabase(target, pragmas=SQLITE_PRAGMAS)    # counts writes per table (versions.py)
    # SQLite: the receivers' spool beside the file (store/intake.py); PostgreSQL needs none
    intake.use(db.database if isinstance(db, SqliteDatabase) and db.database != ":memory:" else None)
    try:
        database.initialize(db)
        db.connect(reuse_if_open=True)
    except Exception as e:
        raise StoreError(f"cannot open database {target!r}: {e}") from None
    return db


_writers = threading.RLock()


@contextmanager
def write_transaction():
    """A transaction that writes. On SQLite it takes the write lock at BEGIN
    (IMMEDIATE), so it waits its turn instead of failing when another writer
    commits between its first read and its first write; threads of one process
    queue on a lock first, rather than in SQLite's sleeping busy handler (the
    daemon's receiver would otherwise stall behind the engine)."""
    if not isinstance(database.obj, SqliteDatabase):
        with database.atomic() as txn:
            yield txn
        return
    with _writers:
        with database.atomic(lock_type="IMMEDIATE") as txn:
            yield txn


@contextmanager
def durable_transaction():
    """A write transaction that is on disk when it returns, even after a power
    cut (SQLite synchronous=FULL): for what is acknowledged to others, the raw
    mail before "250 OK" and the outbox's "sending" mark. Processing commits
    need not be: one lost is simply done again."""
    if not isinstance(database.obj, SqliteDatabase):
        with write_transaction() as txn:
            yield txn
        return
    with _writers:
        database.execute_sql("PRAGMA synchronous=FULL")
        try:
            with write_transaction() as txn:
                yield txn
        finally:
            database.execute_sql("PRAGMA synchronous=NORMAL")


class _Discard(Exception):
    """Raised to roll a scratch transaction back."""


@contextmanager
def snapshot():
    """Work on a private copy of the game that is thrown away afterwards.

    On SQLite the copy is made in memory with SQLite's backup API, which only
    reads (a consistent snapshot, even under WAL): the block never holds the
    real database's write lock, so a long preview cannot make the daemon or
    `bnomic admin` wait. While the block runs, `database` points at the copy;
    use it only in a process with no other thread writing (the command line).
    On PostgreSQL: one transaction, rolled back."""
    real = database.obj
    if not isinstance(real, SqliteDatabase):
        try:
            with database.atomic():
                yield
                raise _Discard
        except _Discard:
            pass
        return
    copy = SqliteDatabase(":memory:", pragmas={"foreign_keys": 1})
    copy.connect()
    real.connection().backup(copy.connection())     # reads; takes no write lock
    database.initialize(copy)
    try:
        yield
    finally:
        database.initialize(real)
        copy.close()


def close_database():
    intake.close()
    if database.obj is not None and not database.is_closed():
        database.close()
