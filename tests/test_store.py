"""The store: SQLite as configured, a versioned schema, the log apart from the state."""
import sqlite3

import pytest

from bnomic.store import STATE_MODELS, LOG_MODELS, StoreError, database, open_database, upgrade
from bnomic.store import migrations


def test_sqlite_pragmas(game):
    open_database(game.db)
    assert database.execute_sql("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert database.execute_sql("PRAGMA foreign_keys").fetchone()[0] == 1
    assert database.execute_sql("PRAGMA busy_timeout").fetchone()[0] == 10000


def test_acknowledged_writes_are_fully_synced(game):
    from bnomic.store import durable_transaction
    open_database(game.db)
    assert database.execute_sql("PRAGMA synchronous").fetchone()[0] == 1        # NORMAL
    with durable_transaction():
        assert database.execute_sql("PRAGMA synchronous").fetchone()[0] == 2    # FULL
    assert database.execute_sql("PRAGMA synchronous").fetchone()[0] == 1


def test_schema_is_versioned(game):
    con = sqlite3.connect(game.db)
    assert con.execute("SELECT version FROM schemaversion").fetchone()[0] == migrations.LATEST


def test_a_newer_schema_is_refused(game):
    con = sqlite3.connect(game.db)
    con.execute("UPDATE schemaversion SET version = 999")
    con.commit()
    open_database(game.db)
    with pytest.raises(StoreError, match="newer"):
        upgrade()


def test_migrations_run_in_order(game, monkeypatch):
    ran = []
    monkeypatch.setitem(migrations.MIGRATIONS, migrations.LATEST + 1, lambda m: ran.append(1))
    monkeypatch.setattr(migrations, "LATEST", migrations.LATEST + 1)
    open_database(game.db)
    assert upgrade() == migrations.LATEST
    assert ran == [1]
    assert migrations.current_version() == migrations.LATEST


def test_log_and_state_are_separate_tables():
    assert not set(LOG_MODELS) & set(STATE_MODELS)


def test_postgres_url_is_accepted_by_scheme():
    # without a server this must fail with a clear StoreError, not a crash
    with pytest.raises(StoreError, match="cannot open"):
        open_database("postgresql://bnomic@127.0.0.1:1/none")


# Upgrading real games of every earlier schema version: tests/test_migrations.py


def test_version_7_gets_the_parked_table_a_new_database_has(game):
    """Version 8 (issue 11): the step's frozen table is the model's table."""
    con = sqlite3.connect(game.db)
    schema = "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'parked' ORDER BY name"
    fresh = con.execute(schema).fetchall()
    assert fresh
    con.execute("DROP TABLE parked")
    con.execute("UPDATE schemaversion SET version = 7")
    con.commit()
    con.close()
    open_database(game.db)
    assert upgrade() == migrations.LATEST
    con = sqlite3.connect(game.db)
    assert con.execute(schema).fetchall() == fresh
    con.close()


def _traced(connection) -> list[str]:
    """Every statement SQLite runs on this connection from now on (its own trace)."""
    said: list[str] = []
    connection.set_trace_callback(lambda sql: said.append(" ".join(sql.split())))
    return said


def _committed_under_full(said: list[str], insert: str) -> bool:
    """The transaction that inserted `insert` ran and committed while the
    connection's synchronous setting was FULL."""
    at = next(i for i, s in enumerate(said) if s.startswith(f'INSERT INTO "{insert}"'))
    commit = next(i for i, s in enumerate(said) if i > at and s == "COMMIT")
    setting = [s for s in said[:commit] if s.upper().startswith("PRAGMA SYNCHRONOUS")]
    changed_after = [s for s in said[at:commit] if s.upper().startswith("PRAGMA SYNCHRONOUS")]
    return bool(setting) and setting[-1].upper().replace(" ", "").endswith("=FULL") \
        and not changed_after


def test_stored_mail_is_committed_with_synchronous_full(game):
    """Issue 14, item 7: mail acknowledged to its sender (the log's `message`
    row, and the LMTP receiver's spool row) is committed with synchronous=FULL,
    as SQLite's own trace of the statements shows; processing is not."""
    from datetime import datetime, timezone
    from bnomic.store import close_database, intake, log
    from conftest import make_mail
    now = datetime(2008, 9, 1, 12, tzinfo=timezone.utc)
    open_database(game.db)
    try:
        said = _traced(database.connection())
        log.append_message(make_mail("w@example.org", "Hi"), "<full1@example.org>", "w@example.org",
                           now, now)
        assert _committed_under_full(said, "message"), said
        assert said[-1].upper().replace(" ", "") == "PRAGMASYNCHRONOUS=NORMAL"   # and back after
        # the spool: its own file, opened with synchronous=FULL for every write
        assert intake.put(make_mail("w@example.org", "Hi"), "<full2@example.org>", "w@example.org",
                          now, now)
        spool = intake.spool.connection()
        assert spool.execute("PRAGMA synchronous").fetchone()[0] == 2        # FULL
        said = _traced(spool)
        intake.put(make_mail("w@example.org", "Hi"), "<full3@example.org>", "w@example.org", now, now)
        assert any(s.startswith('INSERT INTO "intake"') for s in said) and "COMMIT" in said
        assert spool.execute("PRAGMA synchronous").fetchone()[0] == 2
    finally:
        close_database()
