"""State snapshots (issue 16): the state as it stood right after a log entry,
so that a replay starts from the nearest one instead of from entry 1.

A snapshot (table `snapshot`, derived: never the log's truth) holds

- every state table's rows, as SQLite stores them, zlib-compressed JSON, with
  the sha256 of those bytes (`checksum`): a damaged row is seen, not trusted;
- for the two ledgers, `event` and `outcome`, which only ever grow, only their
  highest key (`ledger`): the rows up to it are the same in the game, so a
  restore keeps those and drops the later ones. The one ledger row the game
  ever changes afterwards, a parked outcome a retry marks "retried", is kept
  whole in the snapshot and put back;
- `digest`: `state_digest()` at that point, which is what a rebuild gives
  there (tests hold it); `code`: the versions of bnomic and of its reader that
  made it; `approvals`: the approvals (Rule 4E50) anchored at or before it,
  which its state already carries.

Format 2 (schema 12) keeps each table's rows in parts of up to CHUNK rows,
stored once by the sha256 of their JSON in `snapshotpart`: a part unchanged
since an earlier snapshot (most of them: the Vote table only grows at its end)
is not stored again, so snapshots can be taken often. A part whose bytes do
not hash to its name, or that is missing, makes the snapshot untrusted.
Format 1 snapshots (the rows inline) are still read.

A snapshot is `checked` when it carries the state digest; a light one (taken
between checked ones, runner.LIGHT_EVERY) carries "" instead: the digest
reads every ledger row, so its cost grows with the game, while a light
snapshot's grows only with the state. Both are restored alike.

A snapshot is trusted only when its checksum matches, its JSON reads, its
code is today's, and the approvals it carries are the ones the replay must
carry; otherwise it is passed over (and the next earlier one tried). Whoever
rewrites history drops the snapshots after the point rewritten: `rebuild`
(all of them), an approval's replay (those after its anchor).

Only SQLite games keep snapshots; on PostgreSQL a replay starts from nothing.
"""
from __future__ import annotations

import bisect
import hashlib
import json
import logging
import sqlite3
import zlib
from datetime import datetime

from peewee import IntegrityError, SqliteDatabase

from . import hot, ledgers, versions, writecounts
from .db import database
from .digest import quick_state_digest
from .models import STATE_MODELS, Event, Game, Outcome, Snapshot, SnapshotPart

logger = logging.getLogger("bnomic.snapshots")

LEDGERS = {Event: Event.seq, Outcome: Outcome.id}      # grow only: kept by their highest key
FORMAT = 2                                                   # of the JSON in `tables`
READ = (1, 2)                                                # the formats still read
CHUNK = 200                                                  # rows per part (format 2)


def enabled() -> bool:
    """Snapshots are kept on SQLite only."""
    return isinstance(database.obj, SqliteDatabase)


_COLUMNS: dict = {}


def _columns(model) -> list[str]:
    """The model's column names, in order (a new list each time: callers keep it)."""
    found = _COLUMNS.get(model)
    if found is None:
        found = _COLUMNS[model] = tuple(f.column_name for f in model._meta.sorted_fields)
    return list(found)


def _quoted(names) -> str:
    return ", ".join(f'"{n}"' for n in names)


def _rows(model, where: str = "", params=()) -> list[list]:
    pk = model._meta.primary_key.column_name
    cursor = database.execute_sql(
        f'SELECT {_quoted(_columns(model))} FROM "{model._meta.table_name}" {where} '
        f'ORDER BY "{pk}"', params)
    return [list(r) for r in cursor]


def _execute(sql: str, params=()):
    return database.execute_sql(sql, params)


def _plain(value):
    if isinstance(value, bytes):
        raise TypeError("a state table holds bytes; snapshots keep text and numbers only")
    return value


def _parts(rows: list[list], new: dict[str, bytes]) -> list[str]:
    """The names (hashes) of a table's parts; their JSON put in `new`."""
    names = []
    for i in range(0, len(rows), CHUNK):
        text = json.dumps(rows[i:i + CHUNK], default=_plain, separators=(",", ":")).encode()
        name = hashlib.sha256(text).hexdigest()
        names.append(name)
        new[name] = text
    return names


def _store_parts(new: dict[str, bytes]) -> None:
    """Store the parts not stored yet (compressed only those)."""
    names = list(new)
    have = set()
    for i in range(0, len(names), 500):
        chunk = names[i:i + 500]
        # (the statements made once per number of parts: store/hot.py)
        found = hot.all_rows(("snapshot parts had", len(chunk)),
                             'SELECT "t1"."hash" FROM "snapshotpart" AS "t1" WHERE ("t1"."hash" IN ('
                             + ", ".join("?" for _ in chunk) + "))", chunk)
        if found is None:
            found = SnapshotPart.select(SnapshotPart.hash).where(SnapshotPart.hash.in_(chunk)).tuples()
        have.update(h for (h,) in found)
    missing = [{"hash": n, "blob": zlib.compress(new[n], 6)} for n in names if n not in have]
    for i in range(0, len(missing), 100):
        rows = missing[i:i + 100]
        if not hot.fast():
            SnapshotPart.insert_many(rows).on_conflict_ignore().execute()
            continue
        blob = SnapshotPart.blob.db_value
        hot.execute(("snapshot parts stored", len(rows)),
                    lambda n=len(rows): 'INSERT OR IGNORE INTO "snapshotpart" ("hash", "blob") VALUES '
                    + ", ".join("(?, ?)" for _ in range(n)),
                    [v for r in rows for v in (r["hash"], blob(r["blob"]))])


def _table_parts(model, new: dict[str, bytes], kept: dict | None, version=None,
                 info: dict | None = None) -> list[str]:
    """A table's part names, its new parts' JSON put in `new`. What the last snapshot
    through this connection found is kept (versions.kept_parts) with the table's
    rewrite stamp: while no row was changed or removed since (versions.rewrite_stamp)
    and nothing inserted, its parts are the same; when rows were only inserted and
    the rows up to the end of its last full part are still exactly those (counted),
    only the rows after them are read. So a snapshot reads what changed at the end
    of the Vote table, not all of it: its cost stays flat as the game grows.
    `info`, when given, gets the table's number of rows (`size`), its highest key
    (`top`), the key ending its last full part (`full_last`) and the key ending each
    part (`ends`), as `take` keeps them."""
    name = model._meta.table_name
    pk = model._meta.primary_key.column_name
    at = _columns(model).index(pk)
    if kept is None:
        rows = _rows(model)
        if info is not None:
            full = len(rows) // CHUNK
            info.update(size=len(rows), top=rows[-1][at] if rows else None,
                        full_last=rows[full * CHUNK - 1][at] if full else None, ends=_ends(rows, at))
        return _parts(rows, new)
    stamp = versions.rewrite_stamp(database, (name,), version)
    inserts = versions.insert_count(database, name)
    hit = kept.get(("snapshot parts", name))
    names = None
    if hit is not None and hit["stamp"] == stamp and hit["ends"] is not None:
        if hit["inserts"] == inserts:
            if info is not None:
                info.update(size=hit["size"], top=hit["top"], full_last=hit["last"], ends=hit["ends"])
            return hit["names"]
        if hit["full"]:
            full, last = hit["full"], hit["last"]
            count = database.execute_sql(f'SELECT COUNT(*) FROM "{name}" WHERE "{pk}" <= ?',
                                         (last,)).fetchone()[0]
            if count == full * CHUNK:
                tail = _rows(model, f'WHERE "{pk}" > ?', (last,))
                names = hit["names"][:full] + _parts(tail, new)
                ends = hit["ends"][:full] + _ends(tail, at)
                rows_after = tail
                kept_full, kept_last = full, last
    if names is None:
        rows = _rows(model)
        names, ends = _parts(rows, new), _ends(rows, at)
        rows_after, kept_full, kept_last = rows, 0, None
    size = kept_full * CHUNK + len(rows_after)
    top = rows_after[-1][at] if rows_after else kept_last
    # the rows up to the end of the last full part (its last key), for the next time
    more = len(rows_after) // CHUNK
    if more:
        kept_full += more
        kept_last = rows_after[more * CHUNK - 1][at]
    kept[("snapshot parts", name)] = {"stamp": stamp, "inserts": inserts, "names": names,
                                      "full": kept_full, "last": kept_last, "size": size, "top": top,
                                      "ends": ends}
    if info is not None:
        info.update(size=size, top=top, full_last=kept_last, ends=ends)
    return names


def _ends(rows: list[list], at: int) -> list:
    """The key ending each part of these rows (column `at`)."""
    return [rows[min(i + CHUNK, len(rows)) - 1][at] for i in range(0, len(rows), CHUNK)]


def take(seq: int, at: datetime, code: str, approvals: list[int], checked: bool = True) -> Snapshot | None:
    """Keep the state as it stands now as the snapshot after entry `seq`
    (replacing one there). Call it inside the transaction that applied the entry.
    `checked`: with the state digest (else a light snapshot: "")."""
    if not enabled():
        return None
    tables, ledger, new = {}, {}, {}
    kept = versions.kept_parts(database)
    # SQLite's data_version, once for every table's stamp: in a write transaction nothing
    # else commits meanwhile (outside one, each stamp asks)
    version = versions.data_version(database) if kept is not None and versions.active(database) else None
    # each table's write counts (schema 14), read BEFORE its rows: a write committed by
    # another connection in between would make the rows newer than the counts, never older,
    # and a later comparison then finds the counts moved (store/writecounts.py)
    # (which triggers there are: asked once per write transaction, not at every snapshot,
    # while no statement has changed the schema and none of ours has written the counts:
    # writecounts.install does, so a rollback over it is seen, store/versions.py)
    counts = writecounts.read(_execute, versions.cached(database, "write count triggers",
                                                        (writecounts.TABLE, writecounts.LOW),
                                                        lambda: writecounts.installed(_execute)))
    for model in STATE_MODELS:
        name = model._meta.table_name
        if model in LEDGERS:
            key = LEDGERS[model]
            top = hot.value(("snapshot ledger", name), f'SELECT MAX("{key.column_name}") FROM "{name}"')
            if top is hot.NOTHING:
                top = model.select(key).order_by(key.desc()).limit(1).scalar()
            ledger[name] = top or 0
            if model is Outcome:
                # only a parked entry (one with a `parked` row, runner.park) has such an
                # outcome: found through the entry index, not by scanning the whole ledger
                tables[name] = {"columns": _columns(model),
                                "rows": _rows(model, 'WHERE "entry" IN (SELECT "entry" FROM "parked") '
                                                     "AND action IN ('parked', 'retried')")}
            continue
        info = {}
        tables[name] = {"columns": _columns(model), "parts": _table_parts(model, new, kept, version, info)}
        if name in counts:      # how a cold process tells the table unchanged since (_by_counts)
            tables[name].update(count=counts[name], size=info["size"], top=info["top"],
                                full_last=info["full_last"], ends=info["ends"])
    _store_parts(new)
    blob = zlib.compress(json.dumps({"format": FORMAT, "tables": tables}, default=_plain,
                                    separators=(",", ":")).encode(), 6)
    found = hot.rows(Game, None, (), 1)         # (None: not SQLite; []: no game, as Game.get says)
    game = found[0] if found else Game.get()
    row = dict(seq=seq, at=at, nweek=game.nweek, digest=quick_state_digest() if checked else "",
               code=code, approvals=sorted(approvals), ledger=ledger,
               checksum=hashlib.sha256(blob).hexdigest(), tables=blob)
    if not hot.fast():
        Snapshot.insert(row).on_conflict_replace().execute()
        return Snapshot.get_by_id(seq)
    # peewee's INSERT OR REPLACE, its SQL made once (store/hot.py), each field's db_value
    fields = Snapshot._meta.fields
    hot.execute("snapshot stored", lambda: 'INSERT OR REPLACE INTO "snapshot" ('
                + ", ".join(f'"{fields[n].column_name}"' for n in row) + ") VALUES ("
                + ", ".join("?" for _ in row) + ")", [fields[n].db_value(v) for n, v in row.items()])
    return hot.get(Snapshot, seq=seq)


def last(checked: bool = False) -> Snapshot | None:
    """The latest snapshot (seq, at, nweek; shared: read it only; `checked`: the
    latest carrying the digest), asked after every entry: kept within a
    transaction while the table is unchanged (versions.py)."""
    def find():
        if hot.fast():      # its SQL written once (store/hot.py): asked again after every snapshot taken
            found = hot.all_rows(("last snapshot", checked),
                                 'SELECT "seq", "at", "nweek" FROM "snapshot"'
                                 + (' WHERE ("digest" != ?)' if checked else "") + ' ORDER BY "seq" DESC LIMIT 1',
                                 ("",) if checked else ())
            if not found:
                return None
            row = Snapshot.__new__(Snapshot)
            row.__data__ = {f.name: f.python_value(v) for f, v in
                            zip((Snapshot.seq, Snapshot.at, Snapshot.nweek), found[0])}
            row._dirty, row.__rel__ = set(), {}
            return row
        query = Snapshot.select(Snapshot.seq, Snapshot.at, Snapshot.nweek)
        if checked:
            query = query.where(Snapshot.digest != "")
        return query.order_by(Snapshot.seq.desc()).first()
    return versions.cached(database, ("last snapshot", checked), ("snapshot",), find)


def drop_after(seq: int) -> int:
    """Forget the snapshots after entry `seq` (history after it is being rewritten)."""
    return Snapshot.delete().where(Snapshot.seq > seq).execute()


def forget_kept() -> None:
    """Forget the part names kept for the next snapshot (their parts are gone)."""
    kept = versions.kept_parts(database)
    if kept is not None:
        for key in [k for k in kept if isinstance(k, tuple) and k[0] == "snapshot parts"]:
            del kept[key]


def drop_all() -> int:
    forget_kept()
    SnapshotPart.delete().execute()
    return Snapshot.delete().execute()


def _load(names, parse: bool = True) -> dict | None:
    """The rows of the parts named, by name (without `parse`, their JSON text); None
    when one is missing or its bytes are not what its name says."""
    names = list(dict.fromkeys(names))
    found = {}
    for i in range(0, len(names), 500):
        for name, blob in (SnapshotPart.select(SnapshotPart.hash, SnapshotPart.blob)
                           .where(SnapshotPart.hash.in_(names[i:i + 500])).tuples()):
            text = zlib.decompress(bytes(blob))
            if hashlib.sha256(text).hexdigest() != name:
                return None
            found[name] = json.loads(text) if parse else text
    return found if len(found) == len(names) else None


# a scratch game (`usable(defer=True)`) leaves unwritten, until a statement touches
# them (store/ledgers.Guard), the tables of this many parts or more that no table
# refers to (the Vote table: 16,000 rows of the 19,000 at 50,000 messages)
DEFER_PARTS = 2


def deferrable(tables: dict) -> set[str]:
    """The tables of a format 2 snapshot a scratch game may write only when needed."""
    return {m._meta.table_name for m in STATE_MODELS
            if m not in LEDGERS and m._meta.table_name not in versions.REFERRERS
            and len(tables.get(m._meta.table_name, {}).get("parts", ())) >= DEFER_PARTS}


def _resolve(tables: dict, defer: bool = False) -> bool:
    """Format 2: each table's rows read from its parts, in place; False when a
    part is missing or its bytes are not what its name says. With `defer`, the
    tables `deferrable` names get their parts' JSON texts (checked) in `texts`, not
    their rows: the caller writes them when needed."""
    later = deferrable(tables) if defer else set()
    found = _load((n for name, t in tables.items() if name not in later for n in t.get("parts", ())))
    texts = _load((n for name in later for n in tables[name]["parts"]), parse=False) if later else {}
    if found is None or texts is None:
        return False
    for name, t in tables.items():
        if "parts" in t:
            t["names"] = t.pop("parts")             # kept: a restore hands them to the next take
            if name in later:
                t["texts"] = [texts[n] for n in t["names"]]
            else:
                t["rows"] = [row for n in t["names"] for row in found[n]]
    return True


def _against_current(tables: dict, current: dict) -> bool:
    """Format 2, for a restore into this game's own tables: each table's parts compared
    with the parts its rows make now (`current`: table -> names, filled on first need,
    from what the last snapshot through this connection kept where it still holds, see
    _table_parts); only the parts after the first that differs are read, their rows put
    in `rows` and the number of parts alike in `same`. So an approval's restore writes
    what changed since its snapshot (the end of the Vote table), not every row again.
    A table whose write counts (schema 14) say it holds the snapshot's rows unchanged
    and only rows added after them (`_by_counts`) is not read at all: all its parts
    are alike, and `after` says the rows to delete. One whose rows changed has its
    parts that end below the lowest key written since alike (`_below_low`): only the
    snapshot's parts after them are read, and `boundary` is the key ending the last
    alike. False when a part read is missing or damaged."""
    kept = versions.kept_parts(database)
    scratch = dict(kept) if kept is not None else None     # (names found here are not stored parts)
    if COUNTS not in current:
        current[COUNTS] = writecounts.read(_execute)
    needed = []
    for model in STATE_MODELS:
        t = tables.get(model._meta.table_name)
        if model in LEDGERS or t is None or "parts" not in t:
            continue
        name = model._meta.table_name
        added = _by_counts(model, t, current[COUNTS].get(name))
        if added is not None:
            t["same"], t["after"], t["added"] = len(t["parts"]), t["top"], added
            continue
        t.pop("after", None)
        same = _below_low(model, t, current[COUNTS].get(name))
        if same:                # the parts ending below the lowest key written since: alike, not read
            t["same"], t["boundary"] = same, t["ends"][same - 1]
            needed.extend(t["parts"][same:])
            continue
        t.pop("boundary", None)
        if name not in current:
            current[name] = _table_parts(model, {}, scratch)
        now, names = current[name], t["parts"]
        same = 0
        while same < min(len(now), len(names)) and now[same] == names[same]:
            same += 1
        t["same"] = same
        needed.extend(names[same:])
    found = _load(needed)
    if found is None:
        return False
    for t in tables.values():
        if "parts" in t:
            t["names"] = t.pop("parts")
            t["rows"] = ([] if "after" in t
                         else [row for name in t["names"][t["same"]:] for row in found[name]])
    return True


COUNTS = ("write counts",)      # (the key of the tables' write counts now, in `current`)


def _by_counts(model, t: dict, now: list | None) -> int | None:
    """Whether the table holds exactly the snapshot's rows, unchanged, and rows added
    after its highest key, told by the write counts SQLite keeps (store/writecounts.py)
    instead of reading the table: the snapshot's counts have the same epoch and the same
    `changes` as now (no row updated or deleted since, nor replaced by an INSERT), and
    the rows after its highest key are as many as the INSERTs counted since (so every
    row added lies after it). The number of rows added, or None when that cannot be told
    (the table is then compared by its parts). One bounded COUNT: what the game's length
    costs is not read."""
    then = t.get("count")
    if now is None or then is None or now[0] != then[0] or now[1] != then[1] or "size" not in t:
        return None
    inserted = now[2] - then[2]
    if inserted < 0:
        return None
    name, pk = model._meta.table_name, model._meta.primary_key.column_name
    where, params = (f'WHERE "{pk}" > ?', [t["top"]]) if t["top"] is not None else ("", [])
    after = database.execute_sql(f'SELECT COUNT(*) FROM (SELECT 1 FROM "{name}" {where} LIMIT ?)',
                                 (*params, inserted + 1)).fetchone()[0]
    return after if after == inserted else None


def _below_low(model, t: dict, now: list | None) -> int | None:
    """How many of the snapshot's parts end below the lowest key written to the table
    since it (store/writecounts.low, same epoch): every row below that key is the
    snapshot's, unchanged, so those parts are the table's first parts now. None when
    that cannot be told."""
    then = t.get("count")
    if now is None or then is None or now[0] != then[0] or t.get("ends") is None:
        return None
    lowest = writecounts.low(_execute, model._meta.table_name, then[1] + then[2], now[1] + now[2])
    ends = t["ends"]
    if lowest is writecounts.NOWHERE:
        return len(ends)
    if lowest is None or any(type(e) is not type(lowest) for e in ends[:1]):
        return None
    return bisect.bisect_left(ends, lowest)


def _contents(snap: Snapshot, current: dict | None = None, defer: bool = False) -> dict | None:
    """The snapshot's tables, or None when it is damaged. With `current`, only the
    parts that differ from this game's tables now are read (_against_current); with
    `defer`, the rows of some are left as text (_resolve)."""
    blob = bytes(snap.tables or b"")
    if hashlib.sha256(blob).hexdigest() != snap.checksum:
        logger.warning("snapshot after entry %s is damaged (checksum): not used", snap.seq)
        return None
    try:
        data = json.loads(zlib.decompress(blob))
        if data.get("format") not in READ:
            return None
        tables = data["tables"]
        for model in STATE_MODELS:
            if model is Event:
                continue
            t = tables[model._meta.table_name]
            if t["columns"] != _columns(model):
                return None
        if not (_resolve(tables, defer and data.get("format") == 2) if current is None or data.get("format") != 2
                else _against_current(tables, current)):
            logger.warning("snapshot after entry %s has a damaged or missing part: not used", snap.seq)
            return None
        return tables
    except (ValueError, KeyError, TypeError, zlib.error):
        logger.warning("snapshot after entry %s cannot be read: not used", snap.seq)
        return None


def usable(upto: int, code: str, approvals, max_at: datetime | None = None, only_at: int | None = None,
           in_place: bool = False, defer: bool = False):
    """The latest snapshot after an entry up to `upto` that a replay may start
    from, and its tables; (None, None) if none. `approvals(seq)` gives the
    approvals anchored at or before `seq` that the replay will carry: a
    snapshot carrying others is stale. A damaged or stale one is passed over.
    `only_at`: the snapshot after that entry or none. `in_place`: for a restore into
    this game's own tables, only the parts that differ from them are read (and
    written by `restore`). `defer`: for a scratch game, the big tables no table refers
    to are left as their parts' text (`texts`), written when needed (store/ledgers.py)."""
    if not enabled():
        return None, None
    query = (Snapshot.select(Snapshot.seq, Snapshot.at, Snapshot.code, Snapshot.approvals)
             .where(Snapshot.seq <= upto).order_by(Snapshot.seq.desc()))
    if only_at is not None:
        query = query.where(Snapshot.seq == only_at)
    if max_at is not None:
        query = query.where(Snapshot.at <= max_at)
    current = {} if in_place else None         # the parts of the tables now, found once
    for head in query.limit(16):
        if head.code != code or sorted(head.approvals) != sorted(approvals(head.seq)):
            continue
        snap = Snapshot.get_by_id(head.seq)
        tables = _contents(snap, current, defer)
        if tables is not None:
            return snap, tables
    return None, None


def restore(snap: Snapshot, tables: dict, ledger_from=None, hold_ledgers: bool = False) -> None:
    """Set the state tables to the snapshot's (inside a write transaction). The
    ledgers keep their rows up to the snapshot's highest keys: from this same
    game, or, with `ledger_from` (the schema name of an attached game), copied
    from that game's; with `hold_ledgers` too, only the few rows a scratch game
    starts with (store/ledgers.hold: the rest is copied in when a statement needs
    it, ledgers.Guard). Tables found with `usable(in_place=True)` keep the rows of
    their parts alike and have only the others written (_restore_changed)."""
    conn = database
    conn.execute_sql("PRAGMA defer_foreign_keys = ON")
    if ledger_from is None and all("same" in tables[m._meta.table_name] for m in STATE_MODELS
                                   if m not in LEDGERS):
        try:
            with conn.atomic():
                _restore_changed(snap, tables)
            _keep_restored(tables)
            return
        except (IntegrityError, sqlite3.IntegrityError):      # a unique value moved between two rows: every row written again
            if not _resolve_all(tables):
                raise
    for model in reversed(STATE_MODELS):
        name = model._meta.table_name
        if model in LEDGERS:
            key = LEDGERS[model].column_name
            top = snap.ledger.get(name, 0)
            if ledger_from is None:
                conn.execute_sql(f'DELETE FROM "{name}" WHERE "{key}" > ?', (top,))
            elif hold_ledgers:
                conn.execute_sql(f'DELETE FROM "{name}"')
                ledgers.hold(conn.execute_sql, name, key, top, _columns(model), ledger_from)
            else:
                conn.execute_sql(f'DELETE FROM "{name}"')
                cols = _quoted(_columns(model))
                conn.execute_sql(f'INSERT INTO main."{name}" ({cols}) SELECT {cols} '
                                 f'FROM {ledger_from}."{name}" WHERE "{key}" <= ?', (top,))
        else:
            conn.execute_sql(f'DELETE FROM "{name}"')
    cursor = conn.cursor()
    for model in STATE_MODELS:
        name = model._meta.table_name
        if model is Event:
            continue
        t = tables[name]
        if "rows" not in t:             # deferred: written when needed (store/ledgers.Guard)
            continue
        cols = t["columns"]
        marks = ", ".join("?" for _ in cols)
        verb = "INSERT OR REPLACE" if model in LEDGERS else "INSERT"
        cursor.executemany(f'{verb} INTO main."{name}" ({_quoted(cols)}) VALUES ({marks})', t["rows"])
    if ledger_from is None:         # (a scratch game has not the parts: they are the attached game's)
        _keep_restored(tables)
    else:
        forget_kept()


def _resolve_all(tables: dict) -> bool:
    """The rows of every part of tables found against the current ones (`same`): all
    of them, for a restore that writes every row again."""
    for t in tables.values():
        if "same" in t:
            t["parts"] = t.pop("names")
            del t["same"], t["rows"]
            t.pop("after", None)
            t.pop("boundary", None)
    return _resolve(tables)


def _restore_changed(snap: Snapshot, tables: dict) -> None:
    """The restore of tables whose first `same` parts are the rows they hold now: the
    rows after those parts that the snapshot has not are deleted (in reverse order of
    STATE_MODELS, as a full restore deletes: a cascade from them reaches only rows the
    snapshot has not either, since its own rows are whole), and the snapshot's rows
    after them written in place (an upsert by primary key: an UPDATE sets no foreign
    key action off, where a DELETE and INSERT of a Player would cascade to every row
    naming it). The ledgers are cut back to the snapshot's highest keys."""
    conn = database
    for model in reversed(STATE_MODELS):
        name = model._meta.table_name
        if model in LEDGERS:
            key = LEDGERS[model].column_name
            conn.execute_sql(f'DELETE FROM "{name}" WHERE "{key}" > ?', (snap.ledger.get(name, 0),))
            continue
        t = tables[name]
        pk = model._meta.primary_key.column_name
        if "after" in t:        # the snapshot's rows unchanged (_by_counts): only the rows added go
            if t["added"]:
                where, params = (f'WHERE "{pk}" > ?', (t["after"],)) if t["after"] is not None else ("", ())
                conn.execute_sql(f'DELETE FROM "{name}" {where}', params)
            continue
        at = t["columns"].index(pk)
        keys = json.dumps([row[at] for row in t["rows"]])
        if "boundary" in t:     # the key ending the parts alike (_below_low): what follows it goes
            conn.execute_sql(f'DELETE FROM "{name}" WHERE "{pk}" > ? AND "{pk}" NOT IN '
                             f'(SELECT value FROM json_each(?))', (t["boundary"], keys))
        elif t["same"]:
            found = conn.execute_sql(f'SELECT "{pk}" FROM "{name}" ORDER BY "{pk}" LIMIT 1 OFFSET ?',
                                     (t["same"] * CHUNK - 1,)).fetchone()
            if found is None:       # every part alike, the last of them not full: nothing after
                continue
            boundary = found[0]
            conn.execute_sql(f'DELETE FROM "{name}" WHERE "{pk}" > ? AND "{pk}" NOT IN '
                             f'(SELECT value FROM json_each(?))', (boundary, keys))
        else:
            conn.execute_sql(f'DELETE FROM "{name}" WHERE "{pk}" NOT IN (SELECT value FROM json_each(?))',
                             (keys,))
    cursor = conn.cursor()
    for model in STATE_MODELS:
        name = model._meta.table_name
        if model is Event:
            continue
        t = tables[name]
        cols = t["columns"]
        if not t["rows"]:
            continue
        marks = ", ".join("?" for _ in cols)
        if model in LEDGERS:
            cursor.executemany(f'INSERT OR REPLACE INTO main."{name}" ({_quoted(cols)}) VALUES ({marks})',
                               t["rows"])
            continue
        pk = model._meta.primary_key.column_name
        sets = ", ".join(f'"{c}" = excluded."{c}"' for c in cols if c != pk)
        upsert = (f'INSERT INTO main."{name}" ({_quoted(cols)}) VALUES ({marks}) ON CONFLICT ("{pk}") '
                  + (f'DO UPDATE SET {sets}' if sets else 'DO NOTHING'))
        cursor.executemany(upsert, t["rows"])


def _keep_restored(tables: dict) -> None:
    """After a restore: each table now holds exactly the snapshot's parts, so the
    next snapshot through this connection starts from them (see _table_parts)
    instead of reading every row again."""
    kept = versions.kept_parts(database)
    if kept is None:
        return
    forget_kept()
    for model in STATE_MODELS:
        name = model._meta.table_name
        t = tables.get(name)
        if model in LEDGERS or t is None or "names" not in t or t["columns"] != _columns(model):
            continue
        pk = model._meta.primary_key.column_name
        at = _columns(model).index(pk)
        if "size" in t and "ends" in t:     # the table is the snapshot's rows: its own figures
            total, last, top, ends = t["size"], t["full_last"], t["top"], t["ends"]
        else:
            ends = None if "same" in t else _ends(t["rows"], at)
            if "same" in t:         # the rows of the parts alike were not read: counted
                total = database.execute_sql(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0]
            else:
                total = len(t["rows"])
            last = top = None
            if total:
                top = database.execute_sql(f'SELECT MAX("{pk}") FROM "{name}"').fetchone()[0]
            if total // CHUNK:
                if "same" not in t:
                    last = t["rows"][total // CHUNK * CHUNK - 1][at]
                else:
                    last = database.execute_sql(f'SELECT "{pk}" FROM "{name}" ORDER BY "{pk}" LIMIT 1 OFFSET ?',
                                                (total // CHUNK * CHUNK - 1,)).fetchone()[0]
        kept[("snapshot parts", name)] = {
            "stamp": versions.rewrite_stamp(database, (name,)), "inserts": versions.insert_count(database, name),
            "names": list(t["names"]), "full": total // CHUNK, "last": last, "size": total, "top": top,
            "ends": ends}
