"""Version 6: proposals and votes (Rule 4E15), the Ballot's nweek (4E14),
Proposal Colors (4E69) and Tweaks (4E77)."""
from __future__ import annotations

from peewee import (AutoField, BooleanField, CharField, DateTimeField, ForeignKeyField,
                    IntegerField, TextField)
from playhouse.migrate import migrate

from .frozen import Frozen

VERSION = 6


class Player(Frozen):                        # referred to only
    id = AutoField()

    class Meta:
        table_name = "player"


class Proposal(Frozen):
    id = AutoField()
    number = IntegerField(null=True, unique=True)
    title = TextField()
    body = TextField()
    author = ForeignKeyField(Player, on_delete="CASCADE")
    status = CharField(index=True)
    success = CharField()
    conflicts = TextField()                  # JSON
    dependencies = TextField()               # JSON
    color = CharField()
    submitted_at = DateTimeField()
    entry = IntegerField(null=True)
    revisions = IntegerField()
    voting_nweek = IntegerField(null=True)
    shelved_nweek = IntegerField(null=True)
    was_won = BooleanField()
    passed = BooleanField()
    failed = BooleanField()
    stamina = IntegerField(null=True)
    strength = IntegerField(null=True)
    decided_by = TextField()

    class Meta:
        table_name = "proposal"


class Vote(Frozen):
    id = AutoField()
    proposal = ForeignKeyField(Proposal, on_delete="CASCADE")
    voter = ForeignKeyField(Player, on_delete="CASCADE")
    vote = CharField()
    nweek = IntegerField()
    at = DateTimeField()
    entry = IntegerField(null=True)

    class Meta:
        table_name = "vote"


class Tweak(Frozen):
    id = AutoField()
    author = ForeignKeyField(Player, on_delete="CASCADE")
    body = TextField()
    nweek = IntegerField()
    at = DateTimeField()
    state = CharField()

    class Meta:
        table_name = "tweak"


def apply(migrator) -> None:
    migrate(migrator.add_column("game", "ballot_nweek", IntegerField(null=True)),
            migrator.add_column("player", "color_changed_count", IntegerField(null=True)))
    migrator.database.create_tables([Proposal, Vote, Tweak])
