"""Version 14 (issue 16): each state table's writes, counted by SQLite triggers,
so that a cold process can tell a state table unchanged since a snapshot
without reading it (store/writecounts.py says how they are read). A derived
table, `statewrites` (neither log nor state: a row per state table but the two
ledgers, with a random epoch, the rows changed and the INSERTs), `statelow` (per
table and bucket of 32 writes, the lowest key written), and three triggers per
table. SQLite only (only SQLite keeps snapshots). A game from
before starts counting here; its snapshots carry no counts, so they are
compared with the tables by reading them, as before."""
from __future__ import annotations

from peewee import SqliteDatabase

VERSION = 14

TABLE = "statewrites"
LOW = "statelow"
BUCKET = 32
# the state tables at version 14, the two ledgers (event, outcome) aside
TABLES = ("game", "player", "address", "deadline", "setting", "intent", "stance", "ministry", "usurpation",
          "obligation", "rule", "proposal", "vote", "tweak", "consultation", "claim", "indictment", "verdict",
          "fine", "emergency", "refreshproposal", "rankedballot", "bounce", "corporation", "contract",
          "contractparty", "contractversion", "delegation", "breach", "trick", "trickdraw", "sock", "subgame",
          "victorycondition")


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _keys(execute, table: str) -> list[list[str]]:
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


def _triggers(execute, table: str) -> list[str]:
    where = f"WHERE \"name\" = '{table}'"
    keys = _keys(execute, table)
    pk = _q(keys[0][0])
    found = " OR ".join("(" + " AND ".join(f"{_q(c)} = NEW.{_q(c)}" for c in cols) + ")" for cols in keys)
    name = f"{TABLE}_{table}_"

    def low(key: str) -> str:
        return (f"INSERT INTO {_q(LOW)} (\"name\", \"bucket\", \"low\") SELECT \"name\", "
                f"(\"changes\" + \"inserts\") / {BUCKET}, {key} FROM {_q(TABLE)} {where} "
                f"ON CONFLICT (\"name\", \"bucket\") DO UPDATE SET \"low\" = min(\"low\", excluded.\"low\"); ")
    return [
        f"CREATE TRIGGER {_q(name + 'insert')} BEFORE INSERT ON {_q(table)} BEGIN "
        f"UPDATE {_q(TABLE)} SET \"inserts\" = \"inserts\" + 1, \"changes\" = \"changes\" + "
        f"EXISTS (SELECT 1 FROM {_q(table)} WHERE {found}) {where}; "
        + low(f"min(NEW.{pk}, coalesce((SELECT min({pk}) FROM {_q(table)} WHERE {found}), NEW.{pk}))")
        + "END",
        f"CREATE TRIGGER {_q(name + 'update')} AFTER UPDATE ON {_q(table)} BEGIN "
        f"UPDATE {_q(TABLE)} SET \"changes\" = \"changes\" + 1 {where}; "
        + low(f"min(OLD.{pk}, NEW.{pk})") + "END",
        f"CREATE TRIGGER {_q(name + 'delete')} AFTER DELETE ON {_q(table)} BEGIN "
        f"UPDATE {_q(TABLE)} SET \"changes\" = \"changes\" + 1 {where}; "
        + low(f"OLD.{pk}") + "END",
    ]


def apply(migrator) -> None:
    db = migrator.database
    if not isinstance(db, SqliteDatabase):
        return

    def execute(sql, params=()):
        return db.execute_sql(sql, params)
    execute(f'CREATE TABLE IF NOT EXISTS "{TABLE}" ("name" TEXT NOT NULL PRIMARY KEY, '
            '"epoch" TEXT NOT NULL, "changes" INTEGER NOT NULL, "inserts" INTEGER NOT NULL)')
    execute(f'CREATE TABLE IF NOT EXISTS "{LOW}" ("name" TEXT NOT NULL, "bucket" INTEGER NOT NULL, '
            '"low", PRIMARY KEY ("name", "bucket"))')
    for table in TABLES:        # (made again if there: a step may be run again on a fresh game)
        for kind in ("insert", "update", "delete"):
            execute(f"DROP TRIGGER IF EXISTS {_q(TABLE + '_' + table + '_' + kind)}")
        execute(f'DELETE FROM "{LOW}" WHERE "name" = ?', (table,))
        execute(f'INSERT OR REPLACE INTO "{TABLE}" ("name", "epoch", "changes", "inserts") '
                "VALUES (?, lower(hex(randomblob(8))), 0, 0)", (table,))
        for sql in _triggers(execute, table):
            execute(sql)
