"""A scratch game's ledgers up to its snapshot, read where they are (issue 16).

A scratch game (`bnomic show --as-of`, runner.replay_into) replayed from a
snapshot needs the state tables as they stood then (the snapshot's rows) and
the two ledgers, `event` and `outcome`, up to the snapshot's highest keys:
rows the real game holds unchanged. Copying them costs what the game's length
costs (tens of thousands of rows at 50,000 messages), while the few entries
replayed after the snapshot, and most views, read almost none of them. So
the scratch game starts with only (`hold`):

- each ledger's last row up to the snapshot: its largest key is the game's
  (the engine counts new keys from it, `SELECT MAX`);
- the outcomes of the log entries it holds (the day's actions of a sender,
  engine.actions_today, read Outcomes only through the log's rows they join);
- the snapshot's own outcomes (the parked ones as they stood then), which the
  caller writes after;

with the real game attached (read-only where SQLite allows it) under the name
`game`. Every statement is checked as SQLite prepares it (its authorizer sees
each table and column it reads or writes): while the ledgers are partial, a
read, update or delete of a ledger in the scratch game is refused, unless the
statement is one of those known to read only what is held (`Guard.allowed`,
and a ledger's MAX key); the refused statement is run again once the rest of
the ledgers up to the snapshot is copied in (`fill`: INSERT OR IGNORE, so the
rows held, the snapshot's own outcomes, win). A plain INSERT (a new row) is
let through. A rollback after a fill may have undone it: the next statement
counts the rows and fills again if they are short.

So `show players --as-of` costs what the entries after the snapshot cost, and
`show events --as-of` (which reads the whole ledger) what it always did, and
each shows exactly what a full copy shows (tests/test_as_of_ledgers.py).
"""
from __future__ import annotations

import re
import sqlite3

from peewee import DatabaseError

_SQLITE_READ, _SQLITE_INSERT = sqlite3.SQLITE_READ, sqlite3.SQLITE_INSERT
_WRITES = (sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE)

# a ledger's largest key, as peewee and the engine ask it: answered by the last row held
_MAX_KEY = re.compile(r'SELECT MAX\((?:"t1"\.)?"(?:seq|id)"\) FROM "(?:event|outcome)"(?: AS "t1")?'
                      r'(?: LIMIT \?)?\s*$')


class ChangedUnderUs(RuntimeError):
    """The real game's history before the point was rewritten while we read it."""


class Guard:
    """The statement check of a scratch game whose ledgers up to `tops` (table -> key
    column, highest key) are partial; the rest is in the attached game `source`."""

    def __init__(self, db, tops: dict[str, tuple[str, int]], columns: dict[str, list[str]],
                 allowed=(), snapshot: tuple[int, str] | None = None, source: str = "game"):
        self.db = db
        self.tops = tops
        self.columns = columns
        self.allowed = frozenset(allowed)
        self.snapshot = snapshot        # (seq, checksum): the snapshot the state came from
        self.source = source
        self.filled = False
        self.check = False              # a rollback after the fill: count before the next statement
        self.counts: dict[str, int] = {}
        self.fills = 0                  # how many times the ledgers were filled (tests, bench)
        self.refused = 0                # statements refused and run again after a fill
        self._allow = False
        self._denied = False

    # -- installed on the connection (versions.GameDatabase calls these)

    def install(self) -> None:
        self.db.connection().set_authorizer(self._authorize)

    def run(self, sql: str, execute):
        if self.check:
            self._recount()
        if self.filled:
            result = execute()
            if sql.lstrip()[:8].upper() == "ROLLBACK":      # (to a savepoint, in SQL of its own)
                self.check = True
            return result
        self._allow = sql in self.allowed or _MAX_KEY.match(sql) is not None
        self._denied = False
        try:
            return execute()
        except DatabaseError:
            if not self._denied:
                raise
            self.refused += 1
            self.fill()
            return execute()
        finally:
            self._allow = False

    def rolled_back(self) -> None:
        if self.filled:
            self.check = True

    def _authorize(self, action, table, column, schema, trigger):
        # (a table read for no column, as COUNT(*) reads it, comes without its schema)
        if table not in self.tops or schema not in ("main", None):
            return sqlite3.SQLITE_OK
        if action == _SQLITE_INSERT or (action == _SQLITE_READ and self._allow):
            return sqlite3.SQLITE_OK
        if action == _SQLITE_READ or action in _WRITES:
            self._denied = True
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    # -- the rest of the ledgers

    def fill(self) -> None:
        """Copy in the ledgers' rows up to the snapshot not held yet (inside whatever
        transaction is open: the statement that needed them runs in it too)."""
        conn = self.db.connection()
        conn.set_authorizer(None)
        if self.snapshot is not None:
            seq, checksum = self.snapshot
            found = conn.execute(f'SELECT "checksum" FROM {self.source}."snapshot" WHERE "seq" = ?',
                                 (seq,)).fetchone()
            if found is None or found[0] != checksum:
                raise ChangedUnderUs("the game's history before that point was rewritten meanwhile "
                                     "(an approval, a rebuild); ask again")
        for table, (key, top) in self.tops.items():
            cols = ", ".join(f'"{c}"' for c in self.columns[table])
            conn.execute(f'INSERT OR IGNORE INTO main."{table}" ({cols}) SELECT {cols} '
                         f'FROM {self.source}."{table}" WHERE "{key}" <= ?', (top,))
            self.counts[table] = self._count(conn, table)
        self.filled, self.check = True, False
        self.fills += 1

    def _count(self, conn, table: str) -> int:
        key, top = self.tops[table]
        return conn.execute(f'SELECT COUNT(*) FROM main."{table}" WHERE "{key}" <= ?', (top,)).fetchone()[0]

    def _recount(self) -> None:
        self.check = False
        conn = self.db.connection()
        if any(self._count(conn, t) != n for t, n in self.counts.items()):
            self.filled = False         # (the authorizer is off: fill again now)
            self.fill()


def hold(conn_execute, table: str, key: str, top: int, columns: list[str], source: str = "game") -> None:
    """Put in the scratch game's ledger `table` its last row up to `top` from the
    attached game, and, for `outcome`, the outcomes up to `top` of the log entries the
    scratch game holds (`conn_execute(sql, params)`)."""
    cols = ", ".join(f'"{c}"' for c in columns)
    conn_execute(f'INSERT INTO main."{table}" ({cols}) SELECT {cols} FROM {source}."{table}" '
                 f'WHERE "{key}" = ?', (top,))
    if table == "outcome":
        conn_execute(f'INSERT OR IGNORE INTO main."{table}" ({cols}) SELECT {cols} FROM {source}."{table}" '
                     f'WHERE "{key}" <= ? AND "entry" IN (SELECT "seq" FROM main."log")', (top,))
