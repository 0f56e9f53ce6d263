"""What a scratch game reads of its history only when a statement needs it (issue 16).

A scratch game (`bnomic show --as-of`, runner.replay_into) replayed from a
snapshot needs the state tables as they stood then (the snapshot's rows) and
the two ledgers, `event` and `outcome`, up to the snapshot's highest keys:
rows the real game holds unchanged. Copying the ledgers costs what the game's
length costs (38,000 events at 50,000 messages), and so does writing the
biggest state table, the Vote table (16,000 of the state's 19,000 rows there),
while the few entries replayed after the snapshot, and most views, read almost
none of them. So the scratch game starts with only

- of the ledgers (`hold`): each one's last row up to the snapshot (its largest
  key is the game's: the engine counts new keys from it, `SELECT MAX`); the
  outcomes of the log entries the scratch game holds (the day's actions of a
  sender, engine.actions_today, read Outcomes only through the log rows they
  join); the snapshot's own outcomes (the parked ones as they stood then),
  which the caller writes after; the real game attached read-only under the
  name `game`;
- of the state: every table but the big ones no table refers to
  (snapshots.deferrable), whose rows stay their parts' JSON text, checked
  against their names already.

Every statement is checked as SQLite prepares it (its authorizer sees each
table and column it reads or writes). While the ledgers are partial, a read,
update or delete of one is refused, unless the statement is one known to read
only what is held (`allowed`, and a ledger's MAX key); a plain INSERT (a new
row) is let through. While a deferred table is unwritten, any use of it is
refused, and so is a DELETE from a table it refers to (the cascade must reach
its rows). A refused statement runs again once what it needs is written in
(`_bring`: the rest of the ledgers up to the snapshot, INSERT OR IGNORE so that
the rows held win; a deferred table's rows). Each such write is marked in a
TEMP table in the same transaction: a rollback that undid it undid its mark,
and the next statement writes it in again.

So `show players --as-of` costs what the entries after the snapshot cost, and
`show events --as-of` (which reads the whole ledger) what it always did, and
each shows exactly what writing everything first shows
(tests/test_as_of_ledgers.py).
"""
from __future__ import annotations

import json
import re
import sqlite3

from peewee import DatabaseError, OperationalError

from . import versions
from .db import StoreError

_READ, _INSERT, _UPDATE, _DELETE = (sqlite3.SQLITE_READ, sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE,
                                    sqlite3.SQLITE_DELETE)
_OK, _DENY = sqlite3.SQLITE_OK, sqlite3.SQLITE_DENY
LEDGERS = "the ledgers"             # the unit `_bring` writes for either ledger

# a ledger's largest key, as peewee and the engine ask it: answered by the last row held
_MAX_KEY = re.compile(r'SELECT MAX\((?:"t1"\.)?"(?:seq|id)"\) FROM "(?:event|outcome)"(?: AS "t1")?'
                      r'(?: LIMIT \?)?\s*$')
_MARKS = 'temp."bnomic_brought"'


class ChangedUnderUs(StoreError, OperationalError):
    """What a scratch game left out could not be written in (the real game's history
    before the point was rewritten meanwhile, or a part failed): the scratch game is
    no good. Every statement after it fails the same way (a handler that turns an
    action's failure into a refusal cannot hide it), and runner.replay_into raises it
    once the replay is done (`Guard.broken`)."""


class Guard:
    """The statement check of a scratch game whose ledgers up to `tops` (table -> key
    column, highest key) are partial, the rest in the attached game `source`, and whose
    `deferred` tables (table -> columns, their rows' JSON texts) are unwritten."""

    def __init__(self, db, tops: dict[str, tuple[str, int]], columns: dict[str, list[str]],
                 allowed=(), snapshot: tuple[int, str] | None = None, source: str = "game",
                 deferred: dict[str, tuple[list[str], list[bytes]]] | None = None):
        self.db = db
        self.tops = tops
        self.columns = columns
        self.allowed = frozenset(allowed)
        self.snapshot = snapshot        # (seq, checksum): the snapshot the state came from
        self.source = source
        self.deferred = dict(deferred or {})
        # a table a deferred one refers to -> those deferred tables
        self.parents: dict[str, set[str]] = {}
        for parent, children in versions.REFERRERS.items():
            for child in children & set(self.deferred):
                self.parents.setdefault(parent, set()).add(child)
        self.pending: set[str] = ({LEDGERS} if tops else set()) | set(self.deferred)
        self.brought: set[str] = set()
        self.check = False              # a rollback since: are the marks of what was brought there?
        self.fills = 0                  # how many times the ledgers were written in (tests, bench)
        self.written: dict[str, int] = {}   # how many times each deferred table was
        self.refused = 0                # statements refused and run again
        self._allow = False
        self._need: set[str] = set()
        self.broken: ChangedUnderUs | None = None

    @property
    def filled(self) -> bool:
        return LEDGERS not in self.pending

    # -- installed on the connection (versions.GameDatabase calls these)

    def install(self) -> None:
        conn = self.db.connection()
        conn.execute(f'CREATE TABLE IF NOT EXISTS {_MARKS} ("unit" TEXT PRIMARY KEY)')
        conn.set_authorizer(self._authorize if self.pending else None)

    def run(self, sql: str, execute):
        if self.broken is not None:
            raise ChangedUnderUs(str(self.broken))
        if self.check:
            self._recheck()
        if not self.pending:
            result = execute()
            if sql.lstrip()[:8].upper() == "ROLLBACK":      # (to a savepoint, in SQL of its own)
                self.check = True
            return result
        head = sql.lstrip()[:17].upper()
        if head.startswith(("REPLACE", "INSERT OR REPLACE")):       # a REPLACE deletes: its cascade
            kids = self.parents.get(versions._table_of(sql) or "", set()) & self.pending
            if kids:
                self._bring(kids)
        while True:
            self._allow = sql in self.allowed or _MAX_KEY.match(sql) is not None
            self._need = set()
            try:
                result = execute()
            except DatabaseError:
                if not self._need:
                    raise
                self.refused += 1
                self._bring(self._need)
                continue
            finally:
                self._allow = False
            if head.startswith("ROLLBACK"):
                self.check = True
            return result

    def rolled_back(self) -> None:
        if self.brought:
            self.check = True

    def _authorize(self, action, table, column, schema, trigger):
        # (a table read for no column, as COUNT(*) reads it, comes without its schema)
        if table is None or schema not in ("main", None):
            return _OK
        if table in self.tops:
            if LEDGERS not in self.pending or action == _INSERT or (action == _READ and self._allow):
                return _OK
            if action in (_READ, _UPDATE, _DELETE):
                self._need.add(LEDGERS)
                return _DENY
            return _OK
        if table in self.pending:
            if action in (_READ, _INSERT, _UPDATE, _DELETE):
                self._need.add(table)
                return _DENY
            return _OK
        if action == _DELETE and table in self.parents:
            kids = self.parents[table] & self.pending
            if kids:
                self._need |= kids
                return _DENY
        return _OK

    # -- what was left out, written in

    def _bring(self, units) -> None:
        """Write in `units` (LEDGERS, deferred tables), inside whatever transaction is open
        (the statement that needed them runs in it too), each with its mark."""
        try:
            self._write_in(units)
        except Exception as e:
            self.broken = e if isinstance(e, ChangedUnderUs) else ChangedUnderUs(
                f"--as-of could not read what it left in the game: {type(e).__name__}: {e}")
            raise self.broken from e

    def _write_in(self, units) -> None:
        conn = self.db.connection()
        conn.set_authorizer(None)
        for unit in sorted(units):
            if unit == LEDGERS:
                self._fill(conn)
            else:
                cols, texts = self.deferred[unit]
                names = ", ".join('"' + c + '"' for c in cols)
                marks = ", ".join("?" for _ in cols)
                conn.executemany(f'INSERT INTO main."{unit}" ({names}) VALUES ({marks})',
                                 [row for text in texts for row in json.loads(text)])
                self.written[unit] = self.written.get(unit, 0) + 1
            conn.execute(f'INSERT OR IGNORE INTO {_MARKS} ("unit") VALUES (?)', (unit,))
            self.pending.discard(unit)
            self.brought.add(unit)
        if self.pending:
            conn.set_authorizer(self._authorize)

    def _fill(self, conn) -> None:
        """The ledgers' rows up to the snapshot not held yet, from the real game."""
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
        self.fills += 1

    def _recheck(self) -> None:
        """After a rollback: what was brought and lost its mark (the rollback undid it) is
        brought again, now (a statement prepared meanwhile would not be checked again)."""
        self.check = False
        conn = self.db.connection()
        marked = {u for (u,) in conn.execute(f'SELECT "unit" FROM {_MARKS}').fetchall()}
        undone = self.brought - marked
        if undone:
            self.brought -= undone
            self._bring(undone)


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
