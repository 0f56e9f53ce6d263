"""Saving one model row with its SQL built once (issue 16).

peewee builds the text of an INSERT or UPDATE anew for every `save()`, which
costs far more than SQLite's running it (a tally writes hundreds of rows). On a
game's SQLite database (`versions.GameDatabase`), `save` here does what
peewee's `Model.save` does for a row whose primary key is set (StateModel sets
it before inserting): the same columns, the same values (each field's
`db_value`), the statement's text kept per model, verb and set of columns. It
goes through the database's `execute_sql`, so the writes are counted
(versions.py) as peewee's are. Anything else (another database, `only`, a
composite key, a value that is an SQL expression, an unsaved related row)
returns None and peewee saves it.
"""
from __future__ import annotations

from peewee import Model, Node

from .versions import GameDatabase

_SQL: dict[tuple, str] = {}


def _text(model, verb: str, names: tuple[str, ...]) -> str:
    meta = model._meta
    cols = [meta.fields[n].column_name for n in names]
    if verb == "insert":
        sql = (f'INSERT INTO "{meta.table_name}" (' + ", ".join(f'"{c}"' for c in cols)
               + ") VALUES (" + ", ".join("?" for _ in cols) + ")")
    else:
        sql = (f'UPDATE "{meta.table_name}" SET ' + ", ".join(f'"{c}" = ?' for c in cols)
               + f' WHERE "{meta.primary_key.column_name}" = ?')
    _SQL[(model, verb, names)] = sql
    return sql


def save(row: Model, db, force_insert: bool, only=None) -> int | None:
    """Rows written, as Model.save returns; None when peewee must save it."""
    meta = row._meta
    if (not isinstance(db, GameDatabase) or only is not None or meta.only_save_dirty
            or meta.composite_key or not meta.primary_key):
        return None
    pk = row._pk
    if pk is None:
        return None
    data = row.__data__
    fields = meta.fields
    for name, value in data.items():
        if name not in fields or isinstance(value, Node):
            return None
        if isinstance(value, Model) and value._pk is None:
            return None
    model = type(row)
    pk_name = meta.primary_key.name
    if force_insert:
        names = tuple(data)
        if any(f.name not in data for f in meta.defaults):   # peewee would add the default
            return None
        sql = _SQL.get((model, "insert", names)) or _text(model, "insert", names)
        db.execute_sql(sql, [fields[n].db_value(data[n]) for n in names])
        rows = 1
    else:
        names = tuple(n for n in data if n != pk_name)
        if not names:
            raise ValueError("no data to save!")
        sql = _SQL.get((model, "update", names)) or _text(model, "update", names)
        cursor = db.execute_sql(sql, [fields[n].db_value(data[n]) for n in names]
                                + [meta.primary_key.db_value(pk)])
        rows = cursor.rowcount
    row._dirty -= set(names)
    return rows
