"""Schema versions and the migrations between them.

A new database is created at the latest version straight from today's models.
An older one is brought up only on purpose, by `bnomic migrate` or by
`bnomic run` after a backup (`migrate`); every other command refuses it
(`require_current`). Each step of `steps/` takes version N-1 to N with its own
frozen table definitions, in its own transaction. On SQLite foreign keys are
off meanwhile (a step that rebuilds a table must not cascade into the rows
that refer to it), and before each step commits `PRAGMA foreign_key_check`
and `PRAGMA integrity_check` must be clean, else the step is rolled back.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from peewee import SqliteDatabase
from playhouse.migrate import SchemaMigrator

from .db import StoreError, database, write_transaction
from .models import ALL_MODELS, SchemaVersion
from . import writecounts
from .steps import STEPS


# version -> function(migrator) that brings version-1 up to version.
# Version 1 is the initial schema (no step: a new database is made from the models).
MIGRATIONS: dict[int, callable] = dict(STEPS)

LATEST = max([1, *MIGRATIONS])


class SchemaTooOld(StoreError):
    """A game database at an older schema version than this bnomic's."""

    def __init__(self, found: int, needed: int):
        super().__init__(f"this game database has schema version {found}; "
                         f"this bnomic needs {needed}")
        self.found = found
        self.needed = needed


@dataclass
class Migrated:
    """What `migrate` did: the versions before and after, and the backup it made."""
    before: int | None          # None: the database was empty and was created
    after: int
    backup: Path | None = None


def current_version() -> int | None:
    if not database.table_exists(SchemaVersion._meta.table_name):
        return None
    row = database.execute_sql("SELECT version FROM schemaversion").fetchone()
    return row[0] if row else None


def _create(counted: bool = True) -> int:
    with write_transaction():
        database.create_tables(ALL_MODELS)
        if counted and isinstance(database.obj, SqliteDatabase):   # each state table's writes counted (v14)
            writecounts.install(lambda sql, params=(): database.execute_sql(sql, params))
        SchemaVersion.create(version=LATEST)
    return LATEST


def _refuse_newer(version: int) -> None:
    if version > LATEST:
        raise StoreError(
            f"this database has schema version {version}, newer than this bnomic "
            f"understands ({LATEST}); upgrade bnomic")


def require_current() -> int:
    """The schema version of the open database, which must be this bnomic's: an
    empty database gets the latest schema; an older one is refused (SchemaTooOld)
    and left exactly as it is; a newer one is refused too."""
    version = current_version()
    if version is None:
        return _create()
    _refuse_newer(version)
    if version < LATEST:
        raise SchemaTooOld(version, LATEST)
    return version


def upgrade(counted: bool = True) -> int:
    """Create or migrate the schema to LATEST; returns the version now in force.
    No backup: `migrate` is what the commands call. Without `counted`, a new database
    gets no write counts (store/writecounts.py): a scratch game of `--as-of`, thrown
    away after, never restores a snapshot into its own tables."""
    version = current_version()
    if version is None:
        return _create(counted)
    _refuse_newer(version)
    if version < LATEST:
        _run_steps(version)
    return LATEST


def _run_steps(version: int) -> None:
    db = database.obj
    on_sqlite = isinstance(db, SqliteDatabase)
    migrator = SchemaMigrator.from_database(db)
    if on_sqlite:
        # only outside a transaction does this take effect
        db.execute_sql("PRAGMA foreign_keys=OFF")
        if db.execute_sql("PRAGMA foreign_keys").fetchone()[0]:
            raise StoreError("cannot turn foreign keys off to migrate (a transaction is open)")
    try:
        for target in range(version + 1, LATEST + 1):
            with write_transaction():
                MIGRATIONS[target](migrator)
                if on_sqlite:
                    _check(target)
                p = database.param
                database.execute_sql(f"UPDATE schemaversion SET version = {p}", (target,))
    finally:
        if on_sqlite:
            db.execute_sql("PRAGMA foreign_keys=ON")


def _check(target: int) -> None:
    """Raise (rolling the step back) if the step left a dangling reference or a damaged file."""
    dangling = database.execute_sql("PRAGMA foreign_key_check").fetchall()
    if dangling:
        shown = "; ".join(f"{table} row {rowid} refers to a missing {parent} row"
                          for table, rowid, parent, _ in dangling[:5])
        raise StoreError(f"schema step {target - 1}->{target} was rolled back: {len(dangling)} "
                         f"broken reference(s): {shown}; the database stays at version {target - 1}")
    integrity = [r[0] for r in database.execute_sql("PRAGMA integrity_check").fetchall()]
    if integrity != ["ok"]:
        raise StoreError(f"schema step {target - 1}->{target} was rolled back: integrity check: "
                         f"{'; '.join(integrity[:5])}; the database stays at version {target - 1}")


def backup(version: int, now: datetime) -> Path | None:
    """Copy the open SQLite game, whole and consistent (SQLite's online backup),
    to a file beside it named with its schema version and `now` (UTC), e.g.
    game.sqlite.v6-20261122T211500Z.bak. None for a database that is not a
    SQLite file (PostgreSQL: back it up with pg_dump)."""
    db = database.obj
    if not isinstance(db, SqliteDatabase) or db.database in ("", ":memory:"):
        return None
    path = Path(db.database)
    stem = f"{path.name}.v{version}-{now.strftime('%Y%m%dT%H%M%SZ')}"
    dest, n = path.with_name(stem + ".bak"), 1
    while dest.exists():
        dest, n = path.with_name(f"{stem}-{n}.bak"), n + 1
    copy = sqlite3.connect(dest)
    try:
        db.connection().backup(copy)
    finally:
        copy.close()
    return dest


def migrate(now: datetime, backup_required: bool = False) -> Migrated:
    """What `bnomic migrate` and `bnomic run` do: back up an older game (SQLite),
    then bring it to LATEST. `now` (UTC, the caller's wall clock) names the
    backup. With backup_required, a database that cannot be backed up here
    (PostgreSQL) is refused rather than migrated."""
    version = current_version()
    if version is None:
        return Migrated(None, _create())
    _refuse_newer(version)
    if version == LATEST:
        return Migrated(version, version)
    saved = backup(version, now)
    if saved is None and backup_required:
        raise SchemaTooOld(version, LATEST)
    _run_steps(version)
    return Migrated(version, LATEST, saved)
