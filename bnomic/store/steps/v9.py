"""Version 9: addresses whose mail bounced (issue 11): a delivery report naming a
player's address marks it, so bnomic stops mailing it. A state table: a replay
of the reports marks the same addresses again."""
from __future__ import annotations

from peewee import CharField, DateTimeField, IntegerField, TextField

from .frozen import Frozen

VERSION = 9


class Bounce(Frozen):
    address = CharField(primary_key=True)
    since = DateTimeField()
    entry = IntegerField()
    reason = TextField()

    class Meta:
        table_name = "bounce"


def apply(migrator) -> None:
    migrator.database.create_tables([Bounce])
