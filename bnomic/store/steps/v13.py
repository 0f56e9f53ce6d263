"""Version 13 (issue 16, part H): each mail's parsed fields, kept with the log.
When a mail's entry is first applied, what the engine reads of the mail that
does not depend on the configuration (the Post's fields, the few headers the
checks read) is stored as JSON in `parsedmail`, keyed by the entry, so that a
replay never parses the raw mail again. A log-side table, derived from the
raw mail alone: `rebuild` keeps it (`rebuild --reparse` makes it again). A
game from before has no rows: its mail is parsed, and its fields stored, at
its next replay."""
from __future__ import annotations

from peewee import IntegerField, TextField

from .frozen import Frozen

VERSION = 13


class ParsedMail(Frozen):
    entry = IntegerField(primary_key=True)
    version = IntegerField()
    fields = TextField()

    class Meta:
        table_name = "parsedmail"


def apply(migrator) -> None:
    migrator.database.create_tables([ParsedMail])
