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


def test_a_version_1_database_is_migrated_and_keeps_its_log(game):
    """Version 1 (issue 2) had no envelope columns, outbox, checkpoints or
    settings (version 2), nor intents, stances or start-of-nday deadlines (3)."""
    game.join("Wooble", "2008-09-01T10:00:00Z")
    game.tick("2008-09-03T00:00:00Z")
    digest = game.digest()
    con = sqlite3.connect(game.db)
    con.execute("ALTER TABLE message DROP COLUMN envelope_from")
    con.execute("ALTER TABLE message DROP COLUMN rcpt_tos")
    for table in ("outbox", "checkpoint", "setting"):
        con.execute(f"DROP TABLE {table}")
    con.execute("ALTER TABLE deadline DROP COLUMN edge")
    for column in ("clock_first_on_at", "threat_flag", "flag_changed_count", "motnw",
                   "motnw_changed_nweek"):
        con.execute(f"ALTER TABLE game DROP COLUMN {column}")
    con.execute("ALTER TABLE setup DROP COLUMN ruleset")
    con.execute("ALTER TABLE game DROP COLUMN ballot_nweek")
    con.execute("ALTER TABLE player DROP COLUMN color_changed_count")
    for column in ("ordained", "unordained_until_nweek", "mental_state"):
        con.execute(f"ALTER TABLE player DROP COLUMN {column}")
    for table in ("claim", "consultation", "verdict", "fine", "indictment", "rankedballot",
                  "refreshproposal", "emergency"):
        con.execute(f"DROP TABLE {table}")
    for table in ("vote", "proposal", "tweak"):
        con.execute(f"DROP TABLE {table}")
    for table in ("ministry", "usurpation", "obligation", "publication", "subscription", "approval",
                  "rule"):
        con.execute(f"DROP TABLE {table}")
    for table in ("intent", "stance"):
        con.execute(f"DROP TABLE {table}")
    con.execute("DROP TABLE bounce")            # version 9 (the mail edge's bounces)
    con.execute("UPDATE schemaversion SET version = 1")
    con.commit()
    con.close()
    open_database(game.db)
    assert migrations.current_version() == 1
    assert upgrade() == migrations.LATEST == 9
    con = sqlite3.connect(game.db)
    columns = {row[1] for row in con.execute("PRAGMA table_info(message)")}
    assert {"envelope_from", "rcpt_tos"} <= columns
    assert {"outbox", "checkpoint", "setting"} <= {
        r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    game.cli("rebuild")
    assert game.digest() == digest
    assert game.show("log")[0]["message_id"]
