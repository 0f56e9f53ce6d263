"""Version 3: the language of actions (issue 4): intents and stances (Rules
4E21, 4E22), and deadlines at the start of an nday (scheduled actions)."""
from __future__ import annotations

from peewee import AutoField, CharField, DateTimeField, ForeignKeyField, IntegerField, TextField
from playhouse.migrate import migrate

from .frozen import Frozen

VERSION = 3


class Player(Frozen):                        # referred to only
    id = AutoField()

    class Meta:
        table_name = "player"


class Intent(Frozen):
    id = AutoField()
    author = ForeignKeyField(Player, on_delete="CASCADE")
    text = TextField()
    action = CharField()
    args = TextField()                       # JSON
    objections = IntegerField(null=True)
    supporters = IntegerField(null=True)
    announced_at = DateTimeField()
    announced_count = IntegerField()
    opens_at = DateTimeField(null=True)
    opened_count = IntegerField(null=True)
    message_id = CharField(null=True, index=True)
    entry = IntegerField(null=True)
    state = CharField(default="open", index=True)

    class Meta:
        table_name = "intent"


class Stance(Frozen):
    id = AutoField()
    intent = ForeignKeyField(Intent, on_delete="CASCADE")
    player = ForeignKeyField(Player, on_delete="CASCADE")
    stance = CharField()
    at = DateTimeField()
    count = IntegerField()

    class Meta:
        table_name = "stance"


def apply(migrator) -> None:
    migrate(migrator.add_column("deadline", "edge", CharField(default="end")))
    migrator.database.create_tables([Intent, Stance])
