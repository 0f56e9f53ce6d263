"""Reading model rows with their SELECT built once (issue 16).

peewee builds the text of a query anew for every `get`, `first` or
`get_or_none` (about 0.4 ms each, forty times what SQLite takes to run it), and
the tally of a busy nweek asks hundreds of them (each player a proposal sets
the points of, each Rule it changes). `first(Model, where, params)` runs
`SELECT <every column> FROM <table> WHERE <where> LIMIT 1`, its text kept per
model and `where`, and returns the row as peewee would (each field's
`python_value`, nothing dirty), or None. `where` is plain SQL with `?` for each
parameter (the database's own mark on PostgreSQL), written by the caller in the table's own column names.
"""
from __future__ import annotations

from peewee import Model

from .db import database

_SQL: dict[tuple, tuple[str, list]] = {}


def _statement(model: type[Model], where: str, mark: str) -> tuple[str, list]:
    meta = model._meta
    fields = list(meta.sorted_fields)
    sql = (f'SELECT {", ".join(chr(34) + f.column_name + chr(34) for f in fields)} '
           f'FROM "{meta.table_name}" WHERE {where.replace("?", mark)} LIMIT 1')
    _SQL[(model, where, mark)] = sql, fields
    return sql, fields


def first(model: type[Model], where: str, params: tuple | list = ()) -> Model | None:
    """The first row of `model` where `where` holds (SQLite's order: give an ORDER BY
    in `where` when more than one may match), or None."""
    mark = database.param
    sql, fields = _SQL.get((model, where, mark)) or _statement(model, where, mark)
    row = database.execute_sql(sql, params).fetchone()
    if row is None:
        return None
    obj = model(__no_default__=1)
    obj.__data__ = {f.name: f.python_value(v) for f, v in zip(fields, row)}
    obj._dirty.clear()
    return obj
