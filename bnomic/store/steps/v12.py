"""Version 12 (issue 16, part E): snapshot parts. A snapshot (format 2) names
each state table's rows by parts of up to a few hundred rows, stored once by
their hash in `snapshotpart`, so that a part unchanged since the last snapshot
costs nothing more, and snapshots can be taken often. A derived table, neither
log nor state: a game from before has none; its snapshots (format 1, the rows
inline) are still read."""
from __future__ import annotations

from peewee import BlobField, CharField

from .frozen import Frozen

VERSION = 12


class SnapshotPart(Frozen):
    hash = CharField(primary_key=True)
    blob = BlobField()

    class Meta:
        table_name = "snapshotpart"


def apply(migrator) -> None:
    migrator.database.create_tables([SnapshotPart])
