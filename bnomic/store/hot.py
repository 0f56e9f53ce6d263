"""The statements run for every entry, their SQL text built once per shape.

Building a statement's text through peewee's query tree costs about forty
times what SQLite takes to run it (bench/profile.py). The statements the
engine runs for every entry have a handful of shapes: saving a row (INSERT of
these columns, UPDATE of those), fetching rows of a table by equal columns.
This module writes each shape's SQL once, keeps it, and binds the values:

* `save(row, force_insert, only)`: what peewee's `Model.save` does (the same
  columns, the same defaults, the same conversions by each field's
  `db_value`, the primary key set the same way), on SQLite;
* `rows(Model, where, order_by, limit)` / `first(...)`: model rows whose
  columns equal the given values (`None`: IS NULL), converted by each field's
  `python_value`, as peewee's cursor gives them;
* `update_rows(rows, names)`: these columns of many rows of one table, one
  executemany (the tally's closed proposals);
* `execute(key, build, params)`: any other statement of ours, its text made
  by `build()` the first time `key` is seen.

On any database but SQLite (PostgreSQL), `save` and `rows` answer None and
the caller goes through peewee; `execute` takes text in SQLite's form ("?"
parameters) and is for SQLite only (the callers check `fast()`).
"""
from __future__ import annotations

from typing import Callable

from peewee import Field, ForeignKeyField, IntegerField, Node, SqliteDatabase, _StringField

from .db import database

_SQL: dict = {}


def fast() -> bool:
    """Whether the hot statements run here (a SQLite database: the game's file
    or the in-memory copy of a preview)."""
    return isinstance(database.obj, SqliteDatabase)


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def execute(key, build: Callable[[], str], params=()):
    """Run the statement `build()` makes, made once per `key`; the cursor."""
    sql = _SQL.get(key)
    if sql is None:
        sql = _SQL[key] = build()
    return database.obj.execute_sql(sql, params)


# ------------------------------------------------------------------ writes

def save(row, force_insert: bool = False, only=None):
    """peewee's Model.save, its SQL made once per (table, columns): the rows
    changed (1 for an insert); None when it cannot (not SQLite, a composite
    key, a value that is an SQL expression): the caller saves through peewee."""
    meta = row._meta
    if not fast() or meta.only_save_dirty or meta.composite_key or meta.primary_key is False:
        return None
    field_dict = row.__data__.copy()
    pk_field, pk_value = meta.primary_key, row._pk
    if only is not None:
        field_dict = row._prune_fields(field_dict, only)
    for value in field_dict.values():
        if isinstance(value, Node) and not hasattr(value, "_meta"):    # an expression, not a row
            return None
    row._populate_unsaved_relations(field_dict)
    if meta.auto_increment and pk_value is None:
        field_dict.pop(pk_field.name, None)
    fields = meta.fields
    db = database.obj
    if pk_value is not None and not force_insert:
        field_dict.pop(pk_field.name, None)
        if not field_dict:
            raise ValueError("no data to save!")
        names = tuple(field_dict)
        key = (meta.table_name, "update", names)
        sql = _SQL.get(key)
        if sql is None:
            table = _q(meta.table_name)
            sql = _SQL[key] = (f"UPDATE {table} SET "
                               + ", ".join(f"{_q(fields[n].column_name)} = ?" for n in names)
                               + f" WHERE ({table}.{_q(pk_field.column_name)} = ?)")
        params = [fields[n].db_value(field_dict[n]) for n in names]
        params.append(pk_field.db_value(pk_value))
        rows = db.execute_sql(sql, params).rowcount
    else:
        values = dict(field_dict)
        for f, default in meta.defaults.items():       # peewee's insert fills what is missing
            if f.name not in values:
                values[f.name] = default() if callable(default) else default
        names = tuple(values)
        key = (meta.table_name, "insert", names)
        sql = _SQL.get(key)
        if sql is None:
            sql = _SQL[key] = (f"INSERT INTO {_q(meta.table_name)} ("
                               + ", ".join(_q(fields[n].column_name) for n in names)
                               + ") VALUES (" + ", ".join("?" for _ in names) + ")")
        pk = db.execute_sql(sql, [fields[n].db_value(values[n]) for n in names]).lastrowid
        if pk is not None and (meta.auto_increment or pk_value is None):
            row._pk = pk
            row._dirty.discard(pk_field.name)
        rows = 1
    row._dirty -= set(field_dict)
    return rows


def create(model, values: dict, pk_name: str, key: int):
    """`model.create(**values)` with its primary key `pk_name` given `key` (a StateModel's
    max + 1): the row peewee's create would make (its defaults, then `values`, the key;
    nothing dirty), inserted by the statement `save` makes for it, without peewee's
    per-field descriptors (issue 16: every Event and Outcome). None when it cannot (not
    SQLite, a foreign key or a name that is not a field, an SQL expression): the caller
    creates through peewee."""
    meta = model._meta
    if not fast() or meta.only_save_dirty or meta.composite_key:
        return None
    fields = meta.fields
    for name, value in values.items():
        field = fields.get(name)
        if field is None or isinstance(field, ForeignKeyField) or (isinstance(value, Node)
                                                                   and not hasattr(value, "_meta")):
            return None
    data = meta.get_default_dict()
    data.update(values)
    data[pk_name] = key
    names = tuple(data)
    sql_key = (meta.table_name, "insert", names)          # (the one `save` makes for this row)
    sql = _SQL.get(sql_key)
    if sql is None:
        sql = _SQL[sql_key] = (f"INSERT INTO {_q(meta.table_name)} ("
                               + ", ".join(_q(fields[n].column_name) for n in names)
                               + ") VALUES (" + ", ".join("?" for _ in names) + ")")
    database.obj.execute_sql(sql, [fields[n].db_value(data[n]) for n in names])
    row = model.__new__(model)
    row.__data__ = data
    row._dirty = set()
    row.__rel__ = {}
    return row


def update_rows(rows: list, names: tuple[str, ...]) -> None:
    """For each of `rows` (model rows of one table), `UPDATE <table> SET <the
    columns of names> WHERE <key> = <its key>`, with each field's `db_value`: the
    SQL made once, run for every row by one executemany on SQLite (counted as one
    write by store/versions.py), row by row elsewhere."""
    if not rows:
        return
    meta = rows[0]._meta
    fields = [meta.fields[n] for n in names]
    pk = meta.primary_key
    params = [[f.db_value(row.__data__.get(f.name)) for f in fields] + [pk.db_value(row._pk)] for row in rows]
    if not fast():
        mark = database.param
        sql = (f"UPDATE {_q(meta.table_name)} SET " + ", ".join(f"{_q(f.column_name)} = {mark}" for f in fields)
               + f" WHERE {_q(pk.column_name)} = {mark}")
        for values in params:
            database.execute_sql(sql, values)
        return
    key = (meta.table_name, "update rows", tuple(names))
    sql = _SQL.get(key)
    if sql is None:
        sql = _SQL[key] = (f"UPDATE {_q(meta.table_name)} SET "
                           + ", ".join(f"{_q(f.column_name)} = ?" for f in fields)
                           + f" WHERE {_q(pk.column_name)} = ?")
    db = database.obj
    note = getattr(db, "_note", None)       # GameDatabase: the write counted (versions.py)
    if note is not None:
        note(sql)
    db.cursor().executemany(sql, params)


def _equal(model, where: dict):
    return [getattr(model, k) == v if v is not None else getattr(model, k).is_null()
            for k, v in where.items()] or [True]


def _where_sql(model, where: dict, alias: str) -> str:
    fields = model._meta.fields
    return " AND ".join(f'({alias}.{_q(fields[k].column_name)} {"IS NULL" if v is None else "= ?"})'
                        for k, v in where.items())


def _params(model, where: dict) -> list:
    fields = model._meta.fields
    return [fields[k].db_value(v) for k, v in where.items() if v is not None]


def update(model, values: dict, where: dict) -> int:
    """`model.update(**values).where(<where's equalities>).execute()`, its SQL made once."""
    if not fast():
        return model.update(**values).where(*_equal(model, where)).execute()
    meta = model._meta
    key = (meta.table_name, "update where", tuple(values), tuple((k, v is None) for k, v in where.items()))
    table = _q(meta.table_name)
    sql = _SQL.get(key)
    if sql is None:
        sql = _SQL[key] = (f"UPDATE {table} SET "
                           + ", ".join(f"{_q(meta.fields[k].column_name)} = ?" for k in values)
                           + (f" WHERE {_where_sql(model, where, table)}" if where else ""))
    params = [meta.fields[k].db_value(v) for k, v in values.items()] + _params(model, where)
    return database.obj.execute_sql(sql, params).rowcount


def delete(model, where: dict) -> int:
    """`model.delete().where(<where's equalities>).execute()`, its SQL made once."""
    if not fast():
        return model.delete().where(*_equal(model, where)).execute()
    meta = model._meta
    key = (meta.table_name, "delete where", tuple((k, v is None) for k, v in where.items()))
    table = _q(meta.table_name)
    sql = _SQL.get(key)
    if sql is None:
        sql = _SQL[key] = f"DELETE FROM {table}" + (f" WHERE {_where_sql(model, where, table)}" if where else "")
    return database.obj.execute_sql(sql, _params(model, where)).rowcount


def exists(model, **where) -> bool:
    """`model.select().where(<where's equalities>).exists()`, its SQL made once."""
    if not fast():
        return model.select().where(*_equal(model, where)).exists()
    meta = model._meta
    key = (meta.table_name, "exists", tuple((k, v is None) for k, v in where.items()))
    sql = _SQL.get(key)
    if sql is None:
        sql = _SQL[key] = (f'SELECT EXISTS(SELECT 1 FROM {_q(meta.table_name)} AS "t1"'
                           + (f' WHERE {_where_sql(model, where, _q("t1"))}' if where else "") + ")")
    return bool(database.obj.execute_sql(sql, _params(model, where)).fetchone()[0])


# ------------------------------------------------------------------- reads

def _select_sql(model, where: tuple, order_by: tuple, limit: int | None) -> str:
    meta = model._meta
    fields = meta.sorted_fields
    sql = ("SELECT " + ", ".join(f'"t1".{_q(f.column_name)}' for f in fields)
           + f' FROM {_q(meta.table_name)} AS "t1"')
    if where:
        sql += " WHERE " + " AND ".join(
            f'("t1".{_q(meta.fields[name].column_name)} {"IS NULL" if is_null else "= ?"})'
            for name, is_null in where)
    if order_by:
        sql += " ORDER BY " + ", ".join(
            f'"t1".{_q(meta.fields[name.lstrip("-")].column_name)}'
            + (" DESC" if name.startswith("-") else "") for name in order_by)
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return sql


def rows(model, where: dict | None = None, order_by: tuple = (), limit: int | None = None):
    """The rows of `model` whose fields equal `where`'s values (None: IS NULL),
    in `order_by`'s order (field names, "-name" descending), as model objects
    as peewee makes them; None when not on SQLite (use peewee)."""
    if not fast():
        return None
    where = where or {}
    shape = tuple((name, value is None) for name, value in where.items())
    key = (model, "select", shape, tuple(order_by), limit)
    sql = _SQL.get(key)
    if sql is None:
        sql = _SQL[key] = _select_sql(model, shape, tuple(order_by), limit)
    cursor = database.obj.execute_sql(sql, _params(model, where))
    return [_row(model, r) for r in cursor.fetchall()]


def first(model, where: dict | None = None, order_by: tuple = ()):
    """The first of `rows(model, where, order_by)` or None; raises LookupError
    when not on SQLite (see `get_or_none`)."""
    found = rows(model, where, order_by, 1)
    if found is None:
        raise LookupError("not SQLite")
    return found[0] if found else None


def get_or_none(model, **where):
    """`model.get_or_none(model.a == x, ...)` for plain equalities, its SQL built once."""
    found = rows(model, where, (), 1)
    if found is None:
        return model.get_or_none(*_equal(model, where))
    return found[0] if found else None


def get(model, **where):
    """`model.get(...)` for plain equalities: raises model.DoesNotExist as peewee does."""
    row = get_or_none(model, **where)
    if row is None:
        raise model.DoesNotExist(f"{model.__name__} matching {where} does not exist")
    return row


def fetch(model, key, tail: str, params=()):
    """Rows of `model` (every column, as peewee makes them) from
    `SELECT <its columns> FROM <its table> AS "t1" <tail>`, the text made once
    per `key` (SQLite's form: "?" parameters); None when not on SQLite (the
    caller runs its peewee query)."""
    if not fast():
        return None
    full = (model, "fetch", key)
    sql = _SQL.get(full)
    if sql is None:
        meta = model._meta
        sql = _SQL[full] = ("SELECT " + ", ".join(f'"t1".{_q(f.column_name)}' for f in meta.sorted_fields)
                            + f' FROM {_q(meta.table_name)} AS "t1" {tail}')
    return [_row(model, r) for r in database.obj.execute_sql(sql, params).fetchall()]


def value(key, sql: str, params=()):
    """The first column of the first row of `sql` (None without a row), or
    `NOTHING` when not on SQLite (the caller runs its peewee query)."""
    if not fast():
        return NOTHING
    row = execute(key, lambda: sql, params).fetchone()
    return row[0] if row else None


def all_rows(key, sql: str, params=()):
    """Every row of `sql` as tuples, or None when not on SQLite."""
    if not fast():
        return None
    return execute(key, lambda: sql, params).fetchall()


NOTHING = object()


# per model: its fields' names in column order, and for each field how a stored value
# becomes the Python one: (position, name, python_value, the type of a value it returns
# as it is or None, whether it returns None for None)
_CONVERT: dict = {}


def _converters(model):
    found = _CONVERT.get(model)
    if found is None:
        fields = model._meta.sorted_fields
        convert = []
        for i, f in enumerate(fields):
            kind = type(f)
            plain = kind.python_value is Field.python_value     # None -> None, else adapt(value)
            same = None
            if plain and kind.adapt is IntegerField.adapt:      # int(value): an int is itself
                same = int
            elif plain and kind.adapt is _StringField.adapt:    # a str is itself
                same = str
            convert.append((i, f.name, f.python_value, same, plain))
        found = _CONVERT[model] = (tuple(f.name for f in fields), tuple(convert))
    return found


def _row(model, values):
    """A model row from a row of its columns, each value by its field's python_value,
    as peewee's cursor gives it (not called where it gives the value itself: an int of
    an integer field, a str of a text one, None of either)."""
    names, convert = _converters(model)
    data = dict(zip(names, values))
    for i, name, python_value, same, plain in convert:
        v = values[i]
        if (v is None and plain) or (same is not None and type(v) is same):
            continue
        data[name] = python_value(v)
    obj = model.__new__(model)
    obj.__data__ = data
    obj._dirty = set()
    obj.__rel__ = {}
    return obj
