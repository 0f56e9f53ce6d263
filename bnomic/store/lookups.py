"""Reading model rows with their SELECT built once (issue 16).

peewee builds the text of a query anew for every `get`, `first` or
`get_or_none` (about 0.4 ms each, forty times what SQLite takes to run it), and
the tally of a busy nweek asks hundreds of them (each player a proposal sets
the points of, each Rule it changes). `first(Model, where, params)` runs
`SELECT <every column> FROM <table> WHERE <where> LIMIT 1`, its text kept per
model and `where`, and returns the row as peewee would (each field's
`python_value`, nothing dirty), or None; `every` all the rows. `where` is plain SQL with `?` for each
parameter (the database's own mark on PostgreSQL), written by the caller in the table's own column names.
"""
from __future__ import annotations

from peewee import Model

from .db import database

_SQL: dict[tuple, tuple[str, list]] = {}


def _statement(model: type[Model], where: str, mark: str, one: bool) -> tuple[str, list]:
    meta = model._meta
    fields = list(meta.sorted_fields)
    sql = (f'SELECT {", ".join(chr(34) + f.column_name + chr(34) for f in fields)} '
           f'FROM "{meta.table_name}" WHERE {where.replace("?", mark)}' + (" LIMIT 1" if one else ""))
    _SQL[(model, where, mark, one)] = sql, fields
    return sql, fields


def _row(model: type[Model], fields: list, values) -> Model:
    obj = model(__no_default__=1)
    obj.__data__ = {f.name: f.python_value(v) for f, v in zip(fields, values)}
    obj._dirty.clear()
    return obj


def first(model: type[Model], where: str, params: tuple | list = ()) -> Model | None:
    """The first row of `model` where `where` holds (SQLite's order: give an ORDER BY
    in `where` when more than one may match), or None."""
    mark = database.param
    sql, fields = _SQL.get((model, where, mark, True)) or _statement(model, where, mark, True)
    row = database.execute_sql(sql, params).fetchone()
    return None if row is None else _row(model, fields, row)


def every(model: type[Model], where: str, params: tuple | list = ()) -> list[Model]:
    """Every row of `model` where `where` holds (which may end in an ORDER BY)."""
    mark = database.param
    sql, fields = _SQL.get((model, where, mark, False)) or _statement(model, where, mark, False)
    return [_row(model, fields, row) for row in database.execute_sql(sql, params)]
