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
  table was dropped and made again (`log.reset_state`) never match.

The triggers are the database's own (every connection, any program, fires
them) and their writes are in the same transaction as the rows': a rollback
undoes both. A snapshot keeps the counts it was taken at with each table's
row count and highest key (`snapshots.take`). When a table's epoch and
`changes` are the snapshot's, every row the snapshot holds is still there,
unchanged; when besides the rows now after the snapshot's highest key are as
many as the INSERTs counted since, those are all the rows added: the table
is the snapshot's rows plus those (`snapshots._against_current`), told with
one COUNT of the rows added, whatever the table's length. A table whose
triggers are missing (`present`) is never told this way.

Only SQLite keeps snapshots, so only SQLite has the table and the triggers.
`store/steps/v14.py` made them for a game of schema 13 (its own frozen copy of
this SQL; tests/test_write_counts.py holds the two alike).
"""
from __future__ import annotations

TABLE = "statewrites"
KINDS = ("insert", "update", "delete")


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
    """The three triggers that count the writes to `table`."""
    where = f"WHERE \"name\" = '{table}'"
    found = " OR ".join("(" + " AND ".join(f"{_q(c)} = NEW.{_q(c)}" for c in cols) + ")"
                        for cols in _keys(execute, table)) or "0"
    return [
        f"CREATE TRIGGER {_q(trigger_name(table, 'insert'))} BEFORE INSERT ON {_q(table)} BEGIN "
        f"UPDATE {_q(TABLE)} SET \"inserts\" = \"inserts\" + 1, \"changes\" = \"changes\" + "
        f"EXISTS (SELECT 1 FROM {_q(table)} WHERE {found}) {where}; END",
        f"CREATE TRIGGER {_q(trigger_name(table, 'update'))} AFTER UPDATE ON {_q(table)} BEGIN "
        f"UPDATE {_q(TABLE)} SET \"changes\" = \"changes\" + 1 {where}; END",
        f"CREATE TRIGGER {_q(trigger_name(table, 'delete'))} AFTER DELETE ON {_q(table)} BEGIN "
        f"UPDATE {_q(TABLE)} SET \"changes\" = \"changes\" + 1 {where}; END",
    ]


TABLE_SQL = (f'CREATE TABLE IF NOT EXISTS "{TABLE}" ("name" TEXT NOT NULL PRIMARY KEY, '
             '"epoch" TEXT NOT NULL, "changes" INTEGER NOT NULL, "inserts" INTEGER NOT NULL)')


def counted_tables() -> list[str]:
    """The state tables counted: all but the two ledgers."""
    from .models import STATE_MODELS, Event, Outcome
    return [m._meta.table_name for m in STATE_MODELS if m not in (Event, Outcome)]


def install(execute, tables: list[str] | None = None) -> None:
    """Make (again) the table, each table's row with a new epoch and counts of 0, and
    its triggers (inside the caller's transaction). `execute(sql, params=())`."""
    execute(TABLE_SQL)
    for table in tables if tables is not None else counted_tables():
        for kind in KINDS:
            execute(f"DROP TRIGGER IF EXISTS {_q(trigger_name(table, kind))}")
        execute(f'INSERT OR REPLACE INTO "{TABLE}" ("name", "epoch", "changes", "inserts") '
                "VALUES (?, lower(hex(randomblob(8))), 0, 0)", (table,))
        for sql in triggers_sql(execute, table):
            execute(sql)


def read(execute) -> dict[str, list]:
    """Each counted table whose three triggers are in place: [epoch, changes, inserts]."""
    have = {name for (name,) in execute(
        "SELECT name FROM sqlite_master WHERE type IN ('trigger', 'table') AND name LIKE ?",
        (TABLE + "%",)).fetchall()}
    if TABLE not in have:           # (a database made before schema 14 and not migrated)
        return {}
    rows = execute(f'SELECT "name", "epoch", "changes", "inserts" FROM "{TABLE}"').fetchall()
    return {name: [epoch, changes, inserts] for name, epoch, changes, inserts in rows
            if all(trigger_name(name, k) in have for k in KINDS)}
