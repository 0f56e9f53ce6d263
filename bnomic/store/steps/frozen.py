"""What every step shares: a base for its own table definitions, and a way to
give a game the configuration keys a version brought in."""
from __future__ import annotations

import json

from peewee import Model

from ..db import database


class Frozen(Model):
    """The base of a step's own table definitions (bound to the game's database).
    Every subclass names its table."""

    class Meta:
        database = database


def fill_config(frozen: dict) -> None:
    """Add to the game's configuration (setup.config) the keys a version brought
    in, with that version's defaults, where the game has none: a game created
    earlier gets what a game created at that version would have had, and the
    code that reads those keys finds them. A value the game has is never changed."""
    row = database.execute_sql("SELECT id, config FROM setup").fetchone()
    if row is None:
        return
    config = json.loads(row[1])
    filled = _fill(config, frozen)
    if filled != config:
        p = database.param
        database.execute_sql(f"UPDATE setup SET config = {p} WHERE id = {p}",
                             (json.dumps(filled, sort_keys=True), row[0]))


def _fill(have: dict, frozen: dict) -> dict:
    out = dict(have)
    for key, value in frozen.items():
        if key not in out:
            out[key] = value
        elif isinstance(value, dict) and isinstance(out[key], dict):
            out[key] = _fill(out[key], value)
    return out
