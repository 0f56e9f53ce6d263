"""Each state table's writes counted by SQLite triggers (schema 14, issue 16;
store/writecounts.py): every kind of write moves the counts (cascades, an
INSERT OR REPLACE, an upsert), a rollback undoes them with the rows, and a
cold process restoring a snapshot into the game's own tables (an approval's
replay) reads no table whose counts say it holds the snapshot's rows and only
rows added after them, while leaving exactly the snapshot's state; counts of
another epoch (another game's snapshot, a table made again) or a table whose
triggers are gone are never trusted."""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from bnomic.mailer import runner
from bnomic.store import (
    Entry, Player, Snapshot, close_database, database, open_database, snapshots, write_transaction,
    writecounts,
)
from bnomic.store.steps import v14

from conftest import Game
from test_snapshots import play
from test_snapshot_restore import _restored_digest

SCHEMAS = Path(__file__).parent / "schemas"


def counts() -> dict:
    return writecounts.read(lambda sql, params=(): database.execute_sql(sql, params))


def triggers(path) -> dict[str, str]:
    con = sqlite3.connect(path)
    try:
        return dict(con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name"))
    finally:
        con.close()


@pytest.fixture
def small_parts(monkeypatch):
    monkeypatch.setattr(snapshots, "CHUNK", 2)
    monkeypatch.setattr(runner, "SNAPSHOT_EVERY", 2)


@pytest.fixture
def rows_read(monkeypatch):
    """The tables whose rows a snapshot comparison read (snapshots._rows)."""
    read, real = [], snapshots._rows

    def watched(model, *a, **kw):
        read.append(model._meta.table_name)
        return real(model, *a, **kw)
    monkeypatch.setattr(snapshots, "_rows", watched)
    return read


def test_every_write_is_counted_and_a_rollback_undoes_it(game: Game):
    for name, when in (("Alice", "2008-09-01T01:00:00Z"), ("Bob", "2008-09-01T02:00:00Z")):
        game.join(name, when)
    open_database(game.db)
    try:
        assert set(counts()) == set(writecounts.counted_tables())
        before = counts()
        alice = Player.get(Player.name == "Alice")
        with write_transaction():
            Player.update(mackerel=Player.mackerel + 1).where(Player.id == alice.id).execute()
        assert counts()["player"][1:] == [before["player"][1] + 1, before["player"][2]]
        # an INSERT OR REPLACE of a row deletes it without a delete trigger: counted as a change
        row = database.execute_sql('SELECT * FROM "address" LIMIT 1').fetchone()
        with write_transaction():
            database.execute_sql(f'INSERT OR REPLACE INTO "address" VALUES ({", ".join("?" for _ in row)})', row)
        assert counts()["address"][1] == before["address"][1] + 1
        # a deleted Player: its own row and its addresses by the cascade
        now = counts()
        try:
            with write_transaction():
                database.execute_sql("PRAGMA defer_foreign_keys = ON")
                Player.delete().where(Player.id == alice.id).execute()
                inside = counts()
                assert inside["player"][1] == now["player"][1] + 1
                assert inside["address"][1] > now["address"][1]
                raise KeyError
        except KeyError:
            pass
        assert counts() == now              # rolled back with the rows
        assert {k: v[0] for k, v in counts().items()} == {k: v[0] for k, v in before.items()}
    finally:
        close_database()


def test_a_cold_restore_reads_no_table_its_counts_tell(game: Game, small_parts, rows_read):
    play(game)
    open_database(game.db)
    try:
        seq = max(s.seq for s in Snapshot.select(Snapshot.seq).where(Snapshot.digest != ""))
    finally:
        close_database()
    # after the snapshot: Players join (rows added at the end of tables), one gives (rows changed)
    game.join("Frank", "2008-09-04T12:00:00Z")
    game.join("Grace", "2008-09-04T12:10:00Z")
    game.post("frank@example.org", "I give m1 to Grace", "2008-09-04T12:20:00Z")
    open_database(game.db)          # a fresh connection: nothing kept (a cold process)
    try:
        digest = Snapshot.get_by_id(seq).digest
        now = counts()
        then = {name: t.get("count") for name, t in _tables_of(seq).items()}
        rows_read.clear()
        mine, tables = _restored_digest(seq, in_place=True)
        full, _ = _restored_digest(seq, in_place=False)
        assert mine == full == digest
        told = {name for name, t in tables.items() if "after" in t}
        assert told and any(tables[name]["added"] for name in told)        # rows added, not read
        assert not told & set(rows_read)
        # every table read had its rows changed since, or no counts
        for name in set(rows_read) & set(now):
            assert then[name] is None or then[name][1] != now[name][1], name
    finally:
        close_database()


def _tables_of(seq: int) -> dict:
    import json
    import zlib
    return json.loads(zlib.decompress(bytes(Snapshot.get_by_id(seq).tables)))["tables"]


@pytest.mark.parametrize("spoil", ["epoch", "trigger"])
def test_counts_not_trusted(game: Game, small_parts, rows_read, spoil):
    """Counts of another epoch (a snapshot from another game file, a table made again)
    or a table whose triggers are gone: the table is compared by reading it, and the
    restore is still right."""
    play(game)
    open_database(game.db)
    try:
        seq = max(s.seq for s in Snapshot.select(Snapshot.seq).where(Snapshot.digest != ""))
        digest = Snapshot.get_by_id(seq).digest
        with write_transaction():
            if spoil == "epoch":
                database.execute_sql('UPDATE "statewrites" SET "epoch" = ? WHERE "name" = ?', ("other", "player"))
            else:
                database.execute_sql('DROP TRIGGER "statewrites_player_update"')
        close_database()
        open_database(game.db)
        rows_read.clear()
        mine, tables = _restored_digest(seq, in_place=True)
        assert mine == digest
        assert "after" not in tables["player"] and "player" in rows_read
    finally:
        close_database()


def test_a_rebuild_makes_the_triggers_again_with_new_epochs(game: Game):
    play(game)
    open_database(game.db)
    try:
        before = counts()
    finally:
        close_database()
    digest = game.digest()
    game.cli("rebuild")
    assert game.digest() == digest
    open_database(game.db)
    try:
        after = counts()
    finally:
        close_database()
    assert set(after) == set(before) == set(writecounts.counted_tables())
    assert all(after[t][0] != before[t][0] for t in after)


def test_version_14_counts_a_real_version_13_game(tmp_path, small_parts, rows_read):
    """The step on a real game of schema 13 (tests/schemas/v13.db): every row kept
    (tests/test_migrations.py too), the triggers those of a new game, counting from 0;
    its old snapshots carry no counts and are compared by reading, as before."""
    db = tmp_path / "v13.db"
    shutil.copyfile(SCHEMAS / "v13.db", db)
    con = sqlite3.connect(db)
    names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    before = {t: con.execute(f'SELECT * FROM "{t}" ORDER BY 1').fetchall() for t in names
              if t != "schemaversion"}
    con.close()
    game = Game.__new__(Game)
    game.tmp, game.db = tmp_path, str(db)
    game.cli("migrate")
    con = sqlite3.connect(db)
    after = {t: con.execute(f'SELECT * FROM "{t}" ORDER BY 1').fetchall() for t in names if t != "schemaversion"}
    assert con.execute("SELECT version FROM schemaversion").fetchone()[0] == 14
    assert con.execute('SELECT COUNT(*), SUM("changes"), SUM("inserts") FROM "statewrites"').fetchone() == (34, 0, 0)
    con.close()
    assert after == before and sum(map(len, after.values())) > 100
    (tmp_path / "fresh").mkdir()
    fresh = Game(tmp_path / "fresh")
    assert triggers(db) == triggers(fresh.db) and len(triggers(db)) == 3 * len(v14.TABLES)
    assert sorted(v14.TABLES) == sorted(writecounts.counted_tables())
    digest = game.digest()
    game.cli("rebuild")
    assert game.digest() == digest


def test_a_cold_restore_reads_only_the_parts_after_the_lowest_key_written(game: Game, small_parts,
                                                                          rows_read):
    """Rows changed since the snapshot near a table's end (the Proposal table's way): the
    parts ending below the lowest key written are alike and not read; a change of its
    first row, or an INSERT OR REPLACE that deletes a low row through a unique value,
    leaves none alike. The restore is every row of the snapshot each time."""
    play(game)
    open_database(game.db)
    try:
        # (the lowest key is kept per bucket of writes: the snapshot's bucket begun afresh, as in a
        # long game, where the writes of its bucket before it are a few of many)
        last = Entry.select().order_by(Entry.seq.desc()).first()
        seq = last.seq
        with write_transaction():
            database.execute_sql('UPDATE "statewrites" SET "inserts" = "inserts" + ?', (writecounts.BUCKET,))
            snapshots.take(seq, last.at, runner.code_version(), runner._approvals(seq))
        digest = Snapshot.get_by_id(seq).digest
        ids = [p.id for p in Player.select(Player.id).order_by(Player.id)]
        assert len(ids) >= 6

        def last_changed():
            Player.update(mackerel=Player.mackerel + 3).where(Player.id == ids[-1]).execute()

        def first_changed():
            Player.update(mackerel=Player.mackerel + 3).where(Player.id == ids[0]).execute()

        def replaced():         # a new row taking the name of the second: that row deleted, unseen
            cols = [c for (_, c, *rest) in database.execute_sql('PRAGMA table_info("player")').fetchall()]
            row = list(database.execute_sql('SELECT * FROM "player" WHERE "id" = ?', (ids[1],)).fetchone())
            row[cols.index("id")] = ids[-1] + 100
            database.execute_sql("PRAGMA defer_foreign_keys = ON")
            database.execute_sql(f'INSERT OR REPLACE INTO "player" VALUES ({", ".join("?" for _ in row)})', row)

        seen = {}
        for change in (last_changed, first_changed, replaced):
            close_database()
            open_database(game.db)          # cold each time
            rows_read.clear()
            mine, tables = _restored_digest(seq, in_place=True, change=change)
            assert mine == digest, change.__name__
            seen[change.__name__] = (tables["player"].get("boundary"), tables["player"]["same"],
                                     "player" in rows_read)
        boundary, same, read = seen["last_changed"]
        assert boundary is not None and same >= 2 and not read
        assert seen["first_changed"][0] is None and seen["replaced"][0] is None
        assert seen["replaced"][2]          # compared by reading its rows
    finally:
        close_database()


def test_the_lowest_key_written_is_kept_by_bucket(game: Game):
    """statelow: per table and bucket of writes, the lowest key any wrote; a write
    whose key SQLite chose makes its bucket unknown, or below every key."""

    def ids_of():
        return [p.id for p in Player.select(Player.id)]
    play(game)
    open_database(game.db)
    try:
        execute = lambda sql, params=(): database.execute_sql(sql, params)  # noqa: E731
        epoch, changes, inserts = counts()["player"]
        n = changes + inserts
        assert writecounts.low(execute, "player", 0, n) not in (None, writecounts.NOWHERE)
        assert writecounts.low(execute, "player", n, n) is writecounts.NOWHERE

        def now():
            return sum(counts()["player"][1:])
        try:
            with write_transaction():
                top = Player.select(Player.id).order_by(Player.id.desc()).scalar()

                def fresh_bucket() -> int:      # (the next write's bucket begun afresh)
                    database.execute_sql('UPDATE "statewrites" SET "inserts" = "inserts" + ? WHERE "name" = ?',
                                         (writecounts.BUCKET, "player"))
                    return now()
                since = fresh_bucket()
                assert writecounts.low(execute, "player", since, now()) is writecounts.NOWHERE
                Player.update(mackerel=Player.mackerel + 1).where(Player.id == top).execute()
                assert writecounts.low(execute, "player", since, now()) == top
                # a bucket gone (its row deleted by hand): not told
                database.execute_sql('DELETE FROM "statelow" WHERE "name" = ? AND "bucket" = ?',
                                     ("player", now() // writecounts.BUCKET))
                assert writecounts.low(execute, "player", since, now()) is None
                since = fresh_bucket()
                cols = [c for (_, c, *rest) in database.execute_sql('PRAGMA table_info("player")').fetchall()]
                row = list(database.execute_sql('SELECT * FROM "player" WHERE "id" = ?', (top,)).fetchone())
                row[cols.index("name_key")] = row[cols.index("name")] = "zzz-new"
                del row[cols.index("id")]
                names = ", ".join(f'"{c}"' for c in cols if c != "id")
                database.execute_sql(f'INSERT INTO "player" ({names}) VALUES ({", ".join("?" for _ in row)})', row)
                # (BEFORE INSERT, SQLite gives a rowid key it will choose as -1: below every key)
                lowest = writecounts.low(execute, "player", since, now())
                assert lowest is None or lowest < min(ids_of())
                raise KeyError
        except KeyError:
            pass
    finally:
        close_database()


def test_which_triggers_there_are_is_asked_once_per_transaction(game: Game, monkeypatch):
    """Issue 16: snapshots.take asks sqlite_master which triggers there are once per write
    transaction, not at every snapshot; a rollback over writecounts.install (it writes
    the counts' table) or a change of the schema makes it ask again."""
    from datetime import datetime, timezone
    game.join("Alice", "2008-09-01T01:00:00Z")
    asked, real = [], writecounts.installed
    monkeypatch.setattr(writecounts, "installed", lambda execute: (asked.append(1), real(execute))[1])
    at = datetime(2008, 9, 1, 2, tzinfo=timezone.utc)
    open_database(game.db)
    try:
        seq = Entry.select().order_by(Entry.seq.desc()).first().seq
        with write_transaction():
            for _ in range(3):
                snap = snapshots.take(seq, at, "test", [], checked=False)
                assert set(snapshots.json.loads(snapshots.zlib.decompress(bytes(snap.tables)))["tables"]
                           ["player"]) >= {"count"}
            assert len(asked) == 1
            with pytest.raises(ZeroDivisionError):
                with database.atomic():
                    database.execute_sql('DROP TRIGGER "statewrites_player_update"')
                    snapshots.take(seq, at, "test", [], checked=False)       # the schema changed: asked
                    assert len(asked) == 2
                    writecounts.install(lambda sql, params=(): database.execute_sql(sql, params), ["player"])
                    snapshots.take(seq, at, "test", [], checked=False)
                    1 / 0
            snap = snapshots.take(seq, at, "test", [], checked=False)   # the install rolled back: asked
            assert len(asked) == 4
            assert "count" in snapshots.json.loads(snapshots.zlib.decompress(bytes(snap.tables)))["tables"]["player"]
        with write_transaction():
            snapshots.take(seq, at, "test", [], checked=False)
        assert len(asked) == 5
    finally:
        close_database()
