"""Each state table's writes, counted by SQLite itself (schema 14, issue 16).

A snapshot restored into the game's own tables (an approval's replay) writes
only the rows that differ from the snapshot's; to know which, a process that
took no snapshot itself (a cold one: `versions.kept_parts` holds nothing) read
and hashed every row of every state table but the ledgers, the Vote table most:
a cost that grew with the game. So SQLite counts, per state table (the two
ledgers aside: a snapshot keeps only their highest key), in `statewrites`:

- `changes`: every row updated or deleted (a cascade or SET NULL of a foreign
  key too: SQLite fires the child table's triggers for those), and every INSERT
  that found a row holding its primary key or one of its unique values (an
  INSERT OR REPLACE, which deletes that row without firing any delete trigger
  unless recursive triggers are on; an ignored or upserted insert is counted
  too, which only makes the count cautious);
- `inserts`: every INSERT attempted (one that failed is undone with its count);
- `epoch`: a random token made when the row is (re)made, so counts taken in
  another database file (a snapshot copied from another game) or before the
  table was dropped and made again (`log.reset_state`) never match;
- in `statelow`, for each BUCKET of the table's writes (numbered by `changes` +
  `inserts` after each), the lowest primary key any of them wrote (the key of a
  row inserted, updated, deleted, or replaced by an INSERT), or NULL when one had
  none (an INSERT leaving the key to SQLite).

The triggers are the database's own (every connection, any program, fires
them) and their writes are in the same transaction as the rows': a rollback
undoes both. A snapshot keeps the counts it was taken at with each table's
row count and highest key (`snapshots.take`). When a table's epoch and
`changes` are the snapshot's, every row the snapshot holds is still there,
unchanged; when besides the rows now after the snapshot's highest key are as
many as the INSERTs counted since, those are all the rows added: the table
is the snapshot's rows plus those (`snapshots._against_current`), told with
one COUNT of the rows added, whatever the table's length. Otherwise, with the
same epoch, every row whose key is below the lowest key written since (`low`:
the buckets from the snapshot's on, a few rows) is the snapshot's, unchanged:
its parts that end below it are alike, and only the parts after them are read
(the Proposal table's rows change near its end). A table whose triggers are
missing (`read`) is never told either way.

Only SQLite keeps snapshots, so only SQLite has the table and the triggers.
`store/steps/v14.py` made them for a game of schema 13 (its own frozen copy of
this SQL; tests/test_write_counts.py holds the two alike).
"""
from __future__ import annotations

TABLE = "statewrites"
LOW = "statelow"
KINDS = ("insert", "update", "delete")
BUCKET = 32             # writes of a table per `statelow` row


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def trigger_name(table: str, kind: str) -> str:
    return f"{TABLE}_{table}_{kind}"


def _keys(execute, table: str) -> list[list[str]]:
    """The columns of the table's primary key and of each unique index, as SQLite has them."""
    pk = [r[1] for r in sorted((r for r in execute(f"PRAGMA table_info({_q(table)})").fetchall() if r[5]),
                               key=lambda r: r[5])]
    keys = [pk] if pk else []
    for row in execute(f"PRAGMA index_list({_q(table)})").fetchall():
        name, unique, origin = row[1], row[2], row[3]
        if not unique or origin == "pk":
            continue
        cols = [c[2] for c in execute(f"PRAGMA index_info({_q(name)})").fetchall()]
        if cols and all(c is not None for c in cols) and cols not in keys:
            keys.append(cols)
    return keys


def triggers_sql(execute, table: str) -> list[str]:
    """The three triggers that count the writes to `table` (whose primary key is one column)."""
    where = f"WHERE \"name\" = '{table}'"
    keys = _keys(execute, table)
    assert keys and len(keys[0]) == 1, table
    pk = _q(keys[0][0])
    found = " OR ".join("(" + " AND ".join(f"{_q(c)} = NEW.{_q(c)}" for c in cols) + ")" for cols in keys)

    def low(key: str) -> str:           # the lowest key this write touched, in its bucket
        return (f"INSERT INTO {_q(LOW)} (\"name\", \"bucket\", \"low\") SELECT \"name\", "
                f"(\"changes\" + \"inserts\") / {BUCKET}, {key} FROM {_q(TABLE)} {where} "
                f"ON CONFLICT (\"name\", \"bucket\") DO UPDATE SET \"low\" = min(\"low\", excluded.\"low\"); ")
    return [
        f"CREATE TRIGGER {_q(trigger_name(table, 'insert'))} BEFORE INSERT ON {_q(table)} BEGIN "
        f"UPDATE {_q(TABLE)} SET \"inserts\" = \"inserts\" + 1, \"changes\" = \"changes\" + "
        f"EXISTS (SELECT 1 FROM {_q(table)} WHERE {found}) {where}; "
        + low(f"min(NEW.{pk}, coalesce((SELECT min({pk}) FROM {_q(table)} WHERE {found}), NEW.{pk}))")
        + "END",
        f"CREATE TRIGGER {_q(trigger_name(table, 'update'))} AFTER UPDATE ON {_q(table)} BEGIN "
        f"UPDATE {_q(TABLE)} SET \"changes\" = \"changes\" + 1 {where}; "
        + low(f"min(OLD.{pk}, NEW.{pk})") + "END",
        f"CREATE TRIGGER {_q(trigger_name(table, 'delete'))} AFTER DELETE ON {_q(table)} BEGIN "
        f"UPDATE {_q(TABLE)} SET \"changes\" = \"changes\" + 1 {where}; "
        + low(f"OLD.{pk}") + "END",
    ]


TABLE_SQL = (f'CREATE TABLE IF NOT EXISTS "{TABLE}" ("name" TEXT NOT NULL PRIMARY KEY, '
             '"epoch" TEXT NOT NULL, "changes" INTEGER NOT NULL, "inserts" INTEGER NOT NULL)')
LOW_SQL = (f'CREATE TABLE IF NOT EXISTS "{LOW}" ("name" TEXT NOT NULL, "bucket" INTEGER NOT NULL, '
           '"low", PRIMARY KEY ("name", "bucket"))')


def counted_tables() -> list[str]:
    """The state tables counted: all but the two ledgers."""
    from .models import STATE_MODELS, Event, Outcome
    return [m._meta.table_name for m in STATE_MODELS if m not in (Event, Outcome)]


def install(execute, tables: list[str] | None = None) -> None:
    """Make (again) the tables, each state table's row with a new epoch and counts of 0
    (its buckets dropped), and its triggers (inside the caller's transaction).
    `execute(sql, params=())`."""
    execute(TABLE_SQL)
    execute(LOW_SQL)
    for table in tables if tables is not None else counted_tables():
        for kind in KINDS:
            execute(f"DROP TRIGGER IF EXISTS {_q(trigger_name(table, kind))}")
        execute(f'DELETE FROM "{LOW}" WHERE "name" = ?', (table,))
        execute(f'INSERT OR REPLACE INTO "{TABLE}" ("name", "epoch", "changes", "inserts") '
                "VALUES (?, lower(hex(randomblob(8))), 0, 0)", (table,))
        for sql in triggers_sql(execute, table):
            execute(sql)


def installed(execute) -> frozenset[str]:
    """The names of the tables and triggers of this module's that the database has."""
    return frozenset(name for (name,) in execute(
        "SELECT name FROM sqlite_master WHERE type IN ('trigger', 'table') AND name LIKE 'state%'").fetchall())


def read(execute, have: frozenset[str] | None = None) -> dict[str, list]:
    """Each counted table whose three triggers are in place: [epoch, changes, inserts].
    `have`: installed(execute), if the caller knows it (the schema unchanged since)."""
    if have is None:
        have = installed(execute)
    if TABLE not in have or LOW not in have:       # (a database made before schema 14)
        return {}
    rows = execute(f'SELECT "name", "epoch", "changes", "inserts" FROM "{TABLE}"').fetchall()
    return {name: [epoch, changes, inserts] for name, epoch, changes, inserts in rows
            if all(trigger_name(name, k) in have for k in KINDS)}


NOWHERE = object()      # `low`: nothing written since


def low(execute, table: str, since: int, now: int):
    """The lowest key written to `table` by its writes numbered after `since` (`changes`
    + `inserts` then) up to `now` (the same now), and by the few before them in the
    first bucket; NOWHERE when there were none; None when that cannot be told (a write
    whose key SQLite chose, a bucket missing). Read only with the epoch checked."""
    if now == since:
        return NOWHERE
    if now < since:
        return None
    first, last = (since + 1) // BUCKET, now // BUCKET
    lowest, unknown, buckets = execute(
        f'SELECT min("low"), sum("low" IS NULL), count(*) FROM "{LOW}" WHERE "name" = ? AND "bucket" >= ? '
        'AND "bucket" <= ?', (table, first, last)).fetchone()
    if buckets != last - first + 1 or unknown:      # (every write since has its bucket: none skipped)
        return None
    return lowest
