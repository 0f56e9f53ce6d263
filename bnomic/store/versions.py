"""What a write transaction has read, kept until a table it came from changes.

The engine asks the same small questions after every entry (who holds the
Ministry of Change, the Rules' Powers, the configuration, the game row, the
next deadline): `cached(key, tables, compute)` answers from what was computed
earlier in the same transaction, as long as none of `tables` has been written
since. The SQLite database of a game (`GameDatabase`) counts the writes to
each table from the statements it runs:

* a new transaction (BEGIN), a whole rollback and any statement that is not
  a plain read or write (CREATE, DROP, PRAGMA...) forget everything;
* a rollback to a savepoint counts a write to every table written since the
  savepoint began (what was read from the others still holds: a handler's
  refusal undoes its own writes, not what the entry read before); a savepoint
  this connection did not see begin forgets everything;
* INSERT, UPDATE, DELETE, REPLACE count a write to their table, and a DELETE
  to every table whose foreign keys refer to it (ON DELETE CASCADE or SET
  NULL; no foreign key of ours has an ON UPDATE action). A REPLACE deletes
  too: it counts as a DELETE;
* by column: an UPDATE of plain values (`UPDATE "t" SET "a" = ?, ...`) counts
  a write to each column it sets ("t.a"), any other write to the table one to
  "t.*". A value computed from some columns of a table alone is `cached` on
  `columns(table, ...)`: an UPDATE of other columns (a gift's, of mackerel)
  leaves it (issue 16: the count of Paranoid PEPs, the current Players' names).

Nothing is kept outside a transaction, across transactions, or between
threads: a transaction that writes holds SQLite's write lock (BEGIN
IMMEDIATE), so no other process can change a table under it. On any other
database (PostgreSQL, the in-memory copy of a preview) `cached` simply
computes. A cached value is shared: the callers return copies of anything
mutable (a model row: `clone`).
"""
from __future__ import annotations

import itertools
import re
from copy import deepcopy
import threading
from typing import Callable

from peewee import SqliteDatabase, _savepoint, __exception_wrapper__

_epochs = itertools.count(1)

# table -> the tables whose foreign keys refer to it (filled by models.py)
REFERRERS: dict[str, set[str]] = {}

_READS = ("SELECT", "SAVEPOINT", "RELEASE")
_SAVEPOINTS = ("SAVEPOINT", "RELEASE", "ROLLBACK T")
# SAVEPOINT x, RELEASE [SAVEPOINT] x, ROLLBACK [TRANSACTION] TO [SAVEPOINT] x (x quoted or not)
_SAVEPOINT = re.compile(r'\s*+(SAVEPOINT|RELEASE(?:\s++SAVEPOINT)?+|ROLLBACK(?:\s++TRANSACTION)?+\s++TO'
                        r'(?:\s++SAVEPOINT)?+)\s++("?+)([A-Za-z0-9_]++)\2\s*+;?+\s*+$', re.I)
_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


class _State(threading.local):
    def __init__(self):
        self.epoch = next(_epochs)
        self.written: dict[str, int] = {}
        self.values: dict = {}
        self.savepoints: list[tuple[str, dict, dict]] = []    # open ones: name, `written` and `changes` then
        # across transactions (see `take_written`): tables written through this
        # connection since last asked (None: unknown), and SQLite's data_version then
        self.touched: set[str] | None = None
        self.data_version = None
        self.reading: set[str] | None = None     # tables read, while `reading_tables` records
        # across transactions (see `rewrite_stamp`): per table, the writes other than a plain
        # INSERT (an UPDATE, a DELETE, a REPLACE, an upsert, a cascade); `undone` counts what
        # may have changed any table unseen (a rollback, a schema change, a write not named)
        self.rewrites: dict[str, int] = {}
        self.inserts: dict[str, int] = {}
        self.undone = 0
        self.kept: dict = {}                     # what a caller keeps with those stamps
        self.changes: dict[str, int] = {}        # every counted write, per table (never reset)
        self.begun: dict[str, int] | None = None  # `changes` when the transaction began (None: unknown)
        self.lazy: list = []        # this thread's lazy savepoints begun, not yet written (lazy_savepoint)

    def forget(self) -> None:
        self.epoch = next(_epochs)
        self.written = {}
        self.values = {}
        self.savepoints = []        # (name, `written`, `changes` when it began), innermost last

    def savepoint(self, verb: str, name: str) -> None:
        """SAVEPOINT, RELEASE or ROLLBACK TO the savepoint `name` (SQLite's rules: the
        most recent of that name; a rollback keeps it, a release ends it and every
        one begun after it). A rollback undid the writes since the savepoint: each table
        written since then counts a write (what was read of it is stale) and a rewrite
        (rewrite_stamp); a snapshot or its parts written since then, or a savepoint not
        known, count as anything undone."""
        found = next((i for i in range(len(self.savepoints) - 1, -1, -1) if self.savepoints[i][0] == name),
                     None)
        if verb == "SAVEPOINT":
            self.savepoints.append((name, dict(self.written), dict(self.changes)))
        elif verb == "RELEASE":
            if found is not None:
                del self.savepoints[found:]
        elif found is None:             # a rollback to a savepoint begun before we counted
            self.undone += 1
            self.forget()
        else:
            _, written, changes = self.savepoints[found]
            del self.savepoints[found + 1:]
            for table, count in self.written.items():
                if written.get(table, 0) != count:
                    self.written[table] = count + 1
            for table, n in self.changes.items():
                if changes.get(table, 0) != n:
                    self.rewrites[table] = self.rewrites.get(table, 0) + 1
                    if table in ("snapshot", "snapshotpart"):
                        self.undone += 1


# peewee's form: the statement's table, quoted, right after its verb (anything else: None)
_TABLE = re.compile(r'\s*+(?:INSERT(?: OR [A-Z]++)?+ INTO|UPDATE(?: OR [A-Z]++)?+|DELETE FROM|REPLACE INTO)'
                    r' "([^"]++)"', re.I)


def _count_write(state, table: str, plain_insert: bool, cascades: bool, columns: tuple | None = None) -> None:
    """One write to `table` counted in the transaction's state: written, changed, touched,
    an insert or a rewrite; a delete or replace as a write to every table referring to it
    too (a cascade may follow). Besides, per column (see `columns`): an UPDATE whose
    SET columns are known (`columns`: their keys, "table.column") counts a write to each
    of those; any other write to the table counts one to "table.*", every column's."""
    written = state.written
    written[table] = written.get(table, 0) + 1
    if columns is None:
        wide = table + ".*"
        written[wide] = written.get(wide, 0) + 1
    else:
        for column in columns:
            written[column] = written.get(column, 0) + 1
    state.changes[table] = state.changes.get(table, 0) + 1
    if state.touched is not None:
        state.touched.add(table)
    if plain_insert:
        state.inserts[table] = state.inserts.get(table, 0) + 1
    else:
        state.rewrites[table] = state.rewrites.get(table, 0) + 1
    if cascades:
        for other in REFERRERS.get(table, ()):
            written[other] = written.get(other, 0) + 1
            wide = other + ".*"
            written[wide] = written.get(wide, 0) + 1
            state.rewrites[other] = state.rewrites.get(other, 0) + 1
            state.changes[other] = state.changes.get(other, 0) + 1
            if state.touched is not None:
                state.touched.add(other)


# an UPDATE of plain values (peewee's and store/hot.py's form): `UPDATE "t" SET "a" = ?,
# "b" = NULL [WHERE ...]`; its SET columns are all it writes (no foreign key of ours has an
# ON UPDATE action). Any other form (UPDATE OR ..., an expression) counts as "table.*".
_VALUE = r"""(?:\?|NULL|-?\d++|'[^']*+')"""
_UPDATE_SET = re.compile(r'\s*+UPDATE "([^"]++)" SET ("[^"]++" = ' + _VALUE + r'(?:, "[^"]++" = ' + _VALUE
                         + r')*+)(?:\s++WHERE\b.*+)?+$', re.I | re.S)
_SET_COLUMN = re.compile(r'"([^"]++)" = ' + _VALUE)


def _set_columns(sql: str) -> tuple | None:
    """The keys ("table.column") of the columns a plain UPDATE sets, or None (see _UPDATE_SET)."""
    m = _UPDATE_SET.match(sql)
    if m is None:
        return None
    table = m.group(1)
    return tuple(dict.fromkeys(f"{table}.{c}" for c in _SET_COLUMN.findall(m.group(2))))


def columns(table: str, *names: str) -> tuple[str, ...]:
    """What a value `cached` on some columns of `table` names among its `tables`: it is
    kept while no write to `table` touched those columns (an UPDATE of other columns
    leaves it; an INSERT, a DELETE or a rollback over a write of them does not). The
    value must read nothing of `table` but these columns (selected, or compared in its
    WHERE)."""
    return (table + ".*", *(f"{table}.{n}" for n in names))


def _table_of(sql: str) -> str | None:
    m = _TABLE.match(sql)
    return m.group(1) if m else None


class GameDatabase(SqliteDatabase):
    """SqliteDatabase that counts the writes to each table, for `cached`."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._versions = _State()
        # a scratch game's check of the statements that read its partial ledgers
        # (store/ledgers.Guard); None on every other game
        self.statement_guard = None

    def execute_sql(self, sql, params=None, *args, **kwargs):
        self._note(sql)
        if self.statement_guard is not None:
            return self.statement_guard.run(
                sql, lambda: SqliteDatabase.execute_sql(self, sql, params, *args, **kwargs))
        conn = self._state.conn
        if args or kwargs or self.query_hooks or conn is None or self._state.closed:
            return super().execute_sql(sql, params, *args, **kwargs)
        # peewee's execute_sql (_execute_cursor) without its detours: about half its
        # cost on top of SQLite's for a statement found by key (issue 16)
        self._log_query(sql, params)
        with __exception_wrapper__:
            cursor = conn.cursor()
            cursor.execute(sql, params or ())
        return cursor

    def _note(self, sql: str) -> None:
        # what a statement's text says is worked out once per text (a few hundred
        # shapes): a plain read, or a write to a named table (_KNOWN); any other
        # statement (savepoints, transactions, schema) is read each time below
        known = _KNOWN.get(sql)
        if known is not None:
            state = self._versions
            if known[0] is _READ:
                if state.reading is not None:
                    tables = known[1]
                    if tables is None:
                        tables = _KNOWN[sql] = (_READ, tuple(_READ_TABLES.findall(sql)))
                        tables = tables[1]
                    state.reading.update(tables)
                return
            if self._versions.lazy:
                self._materialize()
            _, table, plain_insert, cascades, set_columns = known
            _count_write(state, table, plain_insert, cascades, set_columns)
            return
        head = sql.lstrip()[:10].upper()
        if len(_KNOWN) < _KNOWN_MOST:
            if head.startswith("SELECT"):
                _KNOWN[sql] = (_READ, None)
            elif head.startswith(_WRITES):
                table = _table_of(sql)
                if table is not None:
                    _KNOWN[sql] = (_WRITE, table, head.startswith("INSERT IN") and not _UPSERT.search(sql),
                                   head.startswith(("DELETE", "REPLACE", "INSERT OR")),
                                   _set_columns(sql) if head.startswith("UPDATE") else None)
            if sql in _KNOWN:
                return self._note(sql)
        if self._versions.lazy and not head.startswith("SELECT"):
            self._materialize()
        state = self._versions
        if head.startswith(_SAVEPOINTS):
            m = _SAVEPOINT.match(sql)
            if m:
                state.savepoint(m.group(1).split()[0].upper(), m.group(3).lower())
                return
        if head.startswith(_READS):
            if state.reading is not None:
                state.reading.update(_READ_TABLES.findall(sql))
            return
        if head.startswith(_WRITES):
            table = _table_of(sql)
            if table is not None:
                _count_write(state, table, head.startswith("INSERT IN") and not _UPSERT.search(sql),  # (head: 10 letters)
                             head.startswith(("DELETE", "REPLACE", "INSERT OR")),     # a cascade may follow
                             _set_columns(sql) if head.startswith("UPDATE") else None)
                return
            state.touched = None            # a write to a table not named: any table
        elif head.startswith(("CREATE", "DROP", "ALTER")):
            state.touched = None
        if head.startswith(("BEGIN", "COMMIT", "END")):
            state.savepoints = []
            state.begun = None              # (`begin` sets it again, after its BEGIN)
        elif not head.startswith("PRAGMA"):
            state.undone += 1               # ROLLBACK, schema changes, anything else
            state.savepoints = []
            state.begun = None
        state.forget()

    def lazy_savepoint(self):
        """A savepoint whose SAVEPOINT statement waits for the block's first statement
        that is not a plain read (`_materialize`): a block that only reads (a Ministry's
        duty with nothing to do, the Emergency's watch) runs no SAVEPOINT and no RELEASE,
        and, rolled back, has nothing to undo. Begun, it is an ordinary savepoint. A
        scratch game's (statement_guard: its reads may write) is an ordinary one."""
        return _Savepoint(self, lazy=self.statement_guard is None)

    def _materialize(self) -> None:
        """Begin the lazy savepoints waiting, outermost first (before a write)."""
        waiting, self._versions.lazy = self._versions.lazy, []
        for sp in waiting:
            sp.waiting = False
            sp._run("SAVEPOINT", "SAVEPOINT %s;" % sp.quoted_sid)

    def savepoint(self):
        """A savepoint as peewee's (database.atomic() inside a transaction), lighter: named
        by a counter, not a uuid4, and counted here without parsing its SQL (issue 16:
        peewee's cost 23 us a savepoint against SQLite's 1.3; the engine opens five an entry)."""
        return _Savepoint(self)

    def take_written(self) -> set[str] | None:
        """The tables written through this connection since the last call, or None
        when that is not known: the first call, a schema change, or a commit by
        any other connection in between (SQLite's data_version moved)."""
        state = self._versions
        version = super().execute_sql("PRAGMA data_version").fetchone()[0]
        out = state.touched if state.data_version == version else None
        state.touched, state.data_version = set(), version
        return out

    def begin(self, *args, **kwargs):
        self._versions.lazy = []
        self._versions.forget()
        self._versions.savepoints = []
        result = super().begin(*args, **kwargs)
        self._versions.begun = dict(self._versions.changes)
        return result

    def rollback(self, *args, **kwargs):
        """A whole rollback undid what the transaction wrote: when its beginning was seen
        (`begin`), the tables written since count a rewrite each (rewrite_stamp), the
        others keep their stamps (an entry refused whole, or an approval's entry rolled
        back before its replay, leaves the snapshot parts kept for the tables it did not
        write); else, or when a snapshot was written, anything may have changed."""
        self._versions.lazy = []
        state = self._versions
        state.forget()
        begun, state.begun = state.begun, None
        if begun is None:
            state.undone += 1
        else:
            for table, n in state.changes.items():
                if begun.get(table, 0) != n:
                    state.rewrites[table] = state.rewrites.get(table, 0) + 1
                    if table in ("snapshot", "snapshotpart"):
                        state.undone += 1
        state.savepoints = []
        try:
            return super().rollback(*args, **kwargs)
        finally:
            if self.statement_guard is not None:
                self.statement_guard.rolled_back()

    def close(self, *args, **kwargs):
        self._versions.lazy = []
        self._versions.undone += 1      # a transaction left open is rolled back with the connection
        self._versions.savepoints = []
        self._versions.begun = None
        return super().close(*args, **kwargs)

    def commit(self, *args, **kwargs):
        self._versions.lazy = []
        self._versions.forget()
        self._versions.savepoints = []
        self._versions.begun = None
        return super().commit(*args, **kwargs)


_savepoint_ids = itertools.count(1)


class _Savepoint(_savepoint):
    """peewee's savepoint (the same statements, the same rollback on an exception)
    whose statements are counted by GameDatabase directly (`_State.savepoint`, as
    `_note` would after parsing them) and run by SqliteDatabase's execute_sql."""

    def __init__(self, db, sid=None, lazy: bool = False):
        self.db = db
        self.sid = sid or f"s{next(_savepoint_ids)}"
        self.quoted_sid = self.sid.join(db.quote)
        self.lazy = lazy
        self.waiting = False        # lazy, and its SAVEPOINT not run yet

    def _run(self, verb: str, sql: str) -> None:
        if verb == "SAVEPOINT" and self.db._versions.lazy:
            self.db._materialize()      # (a savepoint inside lazy ones waiting: they first)
        self.db._versions.savepoint(verb, self.sid.lower())
        SqliteDatabase.execute_sql(self.db, sql)

    def _begin(self):
        if self.lazy:
            self.waiting = True
            self.db._versions.lazy.append(self)
            return
        self._run("SAVEPOINT", "SAVEPOINT %s;" % self.quoted_sid)

    def _forget_waiting(self) -> bool:
        """Ended before its SAVEPOINT ran: nothing to release or undo (True)."""
        if not self.waiting:
            return False
        self.waiting = False
        if self in self.db._versions.lazy:
            del self.db._versions.lazy[self.db._versions.lazy.index(self):]
        return True

    def commit(self, begin=True):
        if not self._forget_waiting():
            self._run("RELEASE", "RELEASE SAVEPOINT %s;" % self.quoted_sid)
        if begin:
            self._begin()

    def rollback(self, begin=True):
        if self._forget_waiting():
            if begin:
                self._begin()
            return
        self._run("ROLLBACK", "ROLLBACK TO SAVEPOINT %s;" % self.quoted_sid)
        if self.db.statement_guard is not None:
            self.db.statement_guard.rolled_back()
        if begin:
            self._begin()


_UPSERT = re.compile(r"\bON\s++CONFLICT\b", re.I)

# GameDatabase._note's reading of each statement text seen: (_READ, the tables it reads
# or None until asked) or (_WRITE, its table, a plain INSERT, may cascade, the keys of
# the columns a plain UPDATE sets or None)
_KNOWN: dict[str, tuple] = {}
_KNOWN_MOST = 20_000           # texts kept at most (past it, read each time)
_READ, _WRITE = "read", "write"


def lazy_savepoint(database):
    """database.atomic(), but on a game's SQLite inside a transaction a lazy savepoint
    (GameDatabase.lazy_savepoint: no statement until the block first writes)."""
    db = database.obj if hasattr(database, "obj") else database
    if isinstance(db, GameDatabase) and db.in_transaction():
        return db.lazy_savepoint()
    return database.atomic()


def data_version(database):
    """SQLite's data_version now (one PRAGMA), for rewrite_stamp(..., version=) when
    many stamps are taken at once; None on any other database."""
    db = database.obj if hasattr(database, "obj") else database
    if not isinstance(db, GameDatabase):
        return None
    return SqliteDatabase.execute_sql(db, "PRAGMA data_version").fetchone()[0]


def rewrite_stamp(database, tables: tuple[str, ...], version=None) -> tuple | None:
    """What tells, across transactions, that none of `tables` has had a row changed or
    removed through this connection (new rows may have been added: compare `inserts`)
    and that no other connection has committed anything: equal stamps, nothing but
    plain INSERTs in between. None (unknown) on any other database. One PRAGMA, unless
    `version` is data_version() taken in the same write transaction (nothing else can
    commit meanwhile)."""
    db = database.obj if hasattr(database, "obj") else database
    if not isinstance(db, GameDatabase):
        return None
    state = db._versions
    if version is None:
        version = SqliteDatabase.execute_sql(db, "PRAGMA data_version").fetchone()[0]
    return (state.undone, version, *(state.rewrites.get(t, 0) for t in tables))


def kept_rows_stamp(database, tables: tuple[str, ...]) -> tuple | None:
    """What tells, within this write transaction, that no row of `tables` has been
    changed or removed since (rows may have been added): equal stamps. No statement
    (nobody else can commit while this transaction writes). None outside a
    transaction or on any other database."""
    db = database.obj if hasattr(database, "obj") else database
    if not isinstance(db, GameDatabase) or not db.in_transaction():
        return None
    state = db._versions
    return (state.epoch, state.undone, *(state.rewrites.get(t, 0) for t in tables))


def values(database) -> dict | None:
    """This transaction's own dict of kept values (emptied when it ends), or None
    outside a transaction or on any other database: for a caller that keeps what it
    read with kept_rows_stamp."""
    db = database.obj if hasattr(database, "obj") else database
    if not isinstance(db, GameDatabase) or not db.in_transaction():
        return None
    return db._versions.values


def insert_count(database, table: str) -> int:
    """The plain INSERTs into `table` through this connection so far (see rewrite_stamp)."""
    db = database.obj if hasattr(database, "obj") else database
    return db._versions.inserts.get(table, 0) if isinstance(db, GameDatabase) else -1


def kept_parts(database) -> dict | None:
    """A dict a caller keeps across transactions with `rewrite_stamp`s (this connection's
    and thread's); None on any other database."""
    db = database.obj if hasattr(database, "obj") else database
    return db._versions.kept if isinstance(db, GameDatabase) else None


# the tables a SELECT reads: each name after FROM or JOIN, quoted (peewee's form) or not
_READ_TABLES = re.compile(r'\b(?:FROM|JOIN)\s++"?+([A-Za-z_][A-Za-z0-9_]*+)', re.I)


class reading_tables:
    """Record the tables read (by statements, or through `cached`) within the block:
    `with reading_tables(database) as read: ...` leaves their names in `read`
    (an empty set on a database that does not count; see GameDatabase)."""

    def __init__(self, database):
        self.db = database.obj if hasattr(database, "obj") else database
        self.read: set[str] = set()

    def __enter__(self) -> set[str]:
        if isinstance(self.db, GameDatabase):
            self.outer = self.db._versions.reading
            self.db._versions.reading = self.read
        return self.read

    def __exit__(self, *exc) -> None:
        if isinstance(self.db, GameDatabase):
            self.db._versions.reading = self.outer
            if self.outer is not None:
                self.outer.update(self.read)


def take_written(database) -> set[str] | None:
    """GameDatabase.take_written of this database; None (unknown) on any other."""
    db = database.obj if hasattr(database, "obj") else database
    return db.take_written() if isinstance(db, GameDatabase) else None


def active(database) -> bool:
    """Whether `cached` keeps what it computes here (a game's SQLite, in a transaction)."""
    db = database.obj if hasattr(database, "obj") else database
    return isinstance(db, GameDatabase) and db.in_transaction()


def cached(database, key, tables: tuple[str, ...], compute: Callable):
    """compute(), or what it gave earlier in this transaction while none of
    `tables` has been written since (see the module's note)."""
    db = database.obj if hasattr(database, "obj") else database
    if not isinstance(db, GameDatabase) or not db.in_transaction():
        return compute()
    state = db._versions
    if state.reading is not None:       # a value read earlier is read here too (its tables)
        state.reading.update(t.partition(".")[0] for t in tables)
    stamp = (state.epoch, *map(state.written.get, tables, _ZEROS))
    hit = state.values.get(key)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    value = compute()
    if (state.epoch, *map(state.written.get, tables, _ZEROS)) == stamp:   # compute wrote nothing
        state.values[key] = (stamp, value)
    return value


def kept(database, key, tables: tuple[str, ...]):
    """What `cached(key, tables, ...)` would answer now without computing, or None."""
    db = database.obj if hasattr(database, "obj") else database
    if not isinstance(db, GameDatabase) or not db.in_transaction():
        return None
    hit = db._versions.values.get(key)
    return hit[1] if hit is not None and hit[0] == _stamp(db, tables) else None


def keep(database, key, tables: tuple[str, ...], value) -> None:
    """Keep `value` under `key` as of now (a write-through: the caller wrote `tables`
    and changed `value`, taken from `kept` before the write, as the write changed them)."""
    db = database.obj if hasattr(database, "obj") else database
    if isinstance(db, GameDatabase) and db.in_transaction():
        db._versions.values[key] = (_stamp(db, tables), value)


def _stamp(db, tables):
    state = db._versions
    return (state.epoch, *map(state.written.get, tables, _ZEROS))


_ZEROS = itertools.repeat(0)     # (map's second argument: a table's count is 0 until written)


def next_key(database, table: str, largest: Callable[[], int | None]) -> int:
    """The next number for a row of `table`: largest() + 1, counted on from the
    last number this transaction gave while nobody else wrote to the table."""
    db = database.obj if hasattr(database, "obj") else database
    if not isinstance(db, GameDatabase) or not db.in_transaction():
        return (largest() or 0) + 1
    hit = db._versions.values.get(("next key", table))
    if hit is not None and hit[0] == _stamp(db, (table,)):
        return hit[1]
    return (largest() or 0) + 1


def known_key(database, table: str) -> int | None:
    """The next number for a row of `table` if this transaction already knows it
    (see next_key), else None: never a query."""
    db = database.obj if hasattr(database, "obj") else database
    if not isinstance(db, GameDatabase) or not db.in_transaction():
        return None
    hit = db._versions.values.get(("next key", table))
    return hit[1] if hit is not None and hit[0] == _stamp(db, (table,)) else None


def used_key(database, table: str, key: int) -> None:
    """A row numbered `key` was just inserted into `table` (see next_key)."""
    db = database.obj if hasattr(database, "obj") else database
    if isinstance(db, GameDatabase) and db.in_transaction():
        db._versions.values[("next key", table)] = (_stamp(db, (table,)), key + 1)


def clone(row, deep: bool = True):
    """A copy of a model row that its caller may change (with `deep` False, its
    JSON values stay shared: for a caller that only reads them)."""
    if row is None:
        return None
    copy = type(row).__new__(type(row))
    data = copy.__data__ = row.__data__.copy()
    if deep:
        for k, v in data.items():
            if isinstance(v, (dict, list)):
                data[k] = deepcopy(v)       # (a value replaced, not a key added: safe while iterating)
    copy._dirty = set()
    copy.__rel__ = {}
    return copy
