"""Version 10: pinned readings (issue 13): each entry's mail as it was read
(canonical JSON, with the reader's version). A log-side table: `rebuild`
keeps it and replays the readings, so a new reader never rewrites history;
`bnomic reread` replaces them, with a record in the log. A game from before
has no rows: its entries are read (and pinned) at its next replay."""
from __future__ import annotations

from peewee import IntegerField, TextField

from .frozen import Frozen

VERSION = 10


class Pinned(Frozen):
    entry = IntegerField(primary_key=True)
    reader = IntegerField()
    readings = TextField(null=True)

    class Meta:
        table_name = "pinned"


def apply(migrator) -> None:
    migrator.database.create_tables([Pinned])
