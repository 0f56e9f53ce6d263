"""Version 8: parked log entries (issue 11): an entry the engine failed on,
set aside with its error so the game goes on. A log-side table: `rebuild`
keeps it, and a replay parks the entry again at the same point."""
from __future__ import annotations

from peewee import CharField, DateTimeField, IntegerField, TextField

from .frozen import Frozen

VERSION = 8


class Parked(Frozen):               # the name gives the index its name: parked_state
    entry = IntegerField(primary_key=True)
    error = TextField()
    first_failed_at = DateTimeField()
    last_failed_at = DateTimeField()
    attempts = IntegerField(default=1)
    state = CharField(default="parked", index=True)
    retried_by = IntegerField(null=True)

    class Meta:
        table_name = "parked"


def apply(migrator) -> None:
    migrator.database.create_tables([Parked])
