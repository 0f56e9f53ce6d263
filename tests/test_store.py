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
