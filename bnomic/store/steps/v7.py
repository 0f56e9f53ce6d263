"""Version 7: Consultations (Rule 4E18), Indictments, Juries and fines (4E72,
4E73, 4E60), and the State of Emergency (4E0): Ordained and Mental States on
players. Adding the player's non-null columns rebuilds the player table on
SQLite: migrations.py keeps foreign keys off meanwhile, so no row that refers
to a player is lost."""
from __future__ import annotations

import tomllib

from peewee import (AutoField, BooleanField, CharField, DateTimeField, ForeignKeyField,
                    IntegerField, TextField)
from playhouse.migrate import migrate

from .frozen import Frozen, fill_config

VERSION = 7

# the configuration this version brought in, as its defaults.toml had it
CONFIG = tomllib.loads('''
[emergency]
forum = ""

[justice]
tidbits = ["cheese", "CREAMPUFF", "3"]
jury_size = 3
contempt_min_fine = 10
contempt_max_fine = 60
''')


class Player(Frozen):                        # referred to only
    id = AutoField()

    class Meta:
        table_name = "player"


class Consultation(Frozen):
    id = AutoField()
    number = IntegerField(null=True, unique=True)
    question = TextField()
    reasoning = TextField()
    supplicant = CharField()
    supplicant_player = ForeignKeyField(Player, null=True, on_delete="SET NULL")
    unbeliever = ForeignKeyField(Player, null=True, on_delete="SET NULL")
    priest = ForeignKeyField(Player, null=True, on_delete="SET NULL")
    former_priests = TextField()             # JSON
    state = CharField(index=True)
    answer = CharField(null=True)
    answer_reasoning = TextField()
    oracularity = TextField(null=True)
    answered_at = DateTimeField(null=True)
    answer_round = IntegerField()
    zot_requested = BooleanField()
    submitted_at = DateTimeField()
    entry = IntegerField(null=True)
    draws = TextField()                      # JSON

    class Meta:
        table_name = "consultation"


class Claim(Frozen):
    id = AutoField()
    consultation = ForeignKeyField(Consultation, on_delete="CASCADE")
    player = ForeignKeyField(Player, on_delete="CASCADE")
    claim = CharField()
    answer_round = IntegerField()
    at = DateTimeField()

    class Meta:
        table_name = "claim"


class Indictment(Frozen):
    id = AutoField()
    author = ForeignKeyField(Player, on_delete="CASCADE")
    offender = ForeignKeyField(Player, on_delete="CASCADE")
    accusation = TextField()
    example = TextField()
    tidbit = CharField()
    reasoning = TextField()
    submitted_at = DateTimeField()
    entry = IntegerField(null=True)
    jury = TextField()                       # JSON
    draw = TextField()                       # JSON
    state = CharField(index=True)
    punishment = TextField(null=True)

    class Meta:
        table_name = "indictment"


class Verdict(Frozen):
    id = AutoField()
    indictment = ForeignKeyField(Indictment, on_delete="CASCADE")
    juror = ForeignKeyField(Player, on_delete="CASCADE")
    answer = CharField()
    at = DateTimeField()

    class Meta:
        table_name = "verdict"


class Fine(Frozen):
    id = AutoField()
    player = ForeignKeyField(Player, on_delete="CASCADE")
    amount = IntegerField()
    reason = TextField()
    indictment = ForeignKeyField(Indictment, null=True, on_delete="SET NULL")
    at = DateTimeField()
    paid = BooleanField()

    class Meta:
        table_name = "fine"


class Emergency(Frozen):
    id = AutoField()
    started_at = DateTimeField()
    first_step = IntegerField()
    coordinator = ForeignKeyField(Player, null=True, on_delete="SET NULL")
    forum = TextField(null=True)
    forum_by = CharField(null=True)
    pause = IntegerField(null=True)
    pause_changed_at = DateTimeField(null=True)
    increment_asked_at = DateTimeField(null=True)
    increment_objected = BooleanField()
    ballot_published = BooleanField()
    state = CharField(index=True)
    count = TextField()                      # JSON
    winner = IntegerField(null=True)

    class Meta:
        table_name = "emergency"


class RefreshProposal(Frozen):
    id = AutoField()
    emergency = ForeignKeyField(Emergency, on_delete="CASCADE")
    author = ForeignKeyField(Player, on_delete="CASCADE")
    body = TextField()
    state = CharField()
    revisions = IntegerField()
    at = DateTimeField()

    class Meta:
        table_name = "refreshproposal"


class RankedBallot(Frozen):
    id = AutoField()
    emergency = ForeignKeyField(Emergency, on_delete="CASCADE")
    voter = ForeignKeyField(Player, on_delete="CASCADE")
    ranking = TextField()                    # JSON
    at = DateTimeField()

    class Meta:
        table_name = "rankedballot"


def apply(migrator) -> None:
    migrate(migrator.add_column("player", "ordained", BooleanField(default=False)),
            migrator.add_column("player", "unordained_until_nweek", IntegerField(null=True)),
            migrator.add_column("player", "mental_state", CharField(default="Calm")))
    migrator.database.create_tables([Consultation, Claim, Indictment, Verdict, Fine, Emergency,
                                     RefreshProposal, RankedBallot])
    fill_config(CONFIG)
