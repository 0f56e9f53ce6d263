"""Version 11 (issue 15, part B): the Beast's Tricks (Rule 4E71): each Trick
taught, and each time the Beast is to perform one, with the draw that selected
it. State tables: a replay of the log teaches and draws them again. A game from
before gets the [beast] configuration keys with this version's defaults."""
from __future__ import annotations

import tomllib

from peewee import AutoField, BooleanField, CharField, DateTimeField, IntegerField, TextField

from .frozen import Frozen, fill_config

VERSION = 11

# the configuration this version brought in, as its defaults.toml had it
CONFIG = tomllib.loads('''
[beast]
trick_response = 10
trick_ndays = [1, 5, 9]
ranger_grace = "1 rdays"
''')


class Trick(Frozen):
    id = AutoField()
    changes = TextField()
    timing = CharField()
    response = IntegerField()
    taught_by = CharField()
    taught_at = DateTimeField()
    entry = IntegerField(null=True)
    ceased = BooleanField()
    performed = IntegerField()

    class Meta:
        table_name = "trick"


class TrickDraw(Frozen):
    id = AutoField()
    nweek = IntegerField()
    nday = IntegerField()
    voting = BooleanField()
    due_at = DateTimeField()
    state = CharField(index=True)
    by = TextField()
    candidates = TextField()                 # JSON
    roll = IntegerField(null=True)
    trick = IntegerField(null=True)
    event = IntegerField(null=True)
    performed_at = DateTimeField(null=True)
    responders = TextField()                 # JSON

    class Meta:
        table_name = "trickdraw"


def apply(migrator) -> None:
    migrator.database.create_tables([Trick, TrickDraw])
    fill_config(CONFIG)
