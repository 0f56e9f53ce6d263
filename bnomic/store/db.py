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

database = DatabaseProxy()

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
        db = SqliteDatabase(target, pragmas=SQLITE_PRAGMAS)
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


def close_database():
    intake.close()
    if database.obj is not None and not database.is_closed():
        database.close()
