"""Version 11: state snapshots (issue 16). A derived table, neither log nor
state: the state right after some log entries, so that a replay (`--as-of`,
an approval's) starts from the nearest one instead of from nothing. A game
from before has none; its next replay or rebuild takes them."""
from __future__ import annotations

from peewee import BlobField, CharField, DateTimeField, IntegerField, TextField

from .frozen import Frozen

VERSION = 11


class Snapshot(Frozen):
    seq = IntegerField(primary_key=True)
    at = DateTimeField()
    nweek = IntegerField()
    digest = TextField()
    code = CharField()
    approvals = TextField(default="[]")
    ledger = TextField(default="{}")
    checksum = CharField()
    tables = BlobField()

    class Meta:
        table_name = "snapshot"


def apply(migrator) -> None:
    migrator.database.create_tables([Snapshot])
