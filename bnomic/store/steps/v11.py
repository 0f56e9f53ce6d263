"""Version 11 (issue 15): Legal Entities, Contracts and Corporations (part A:
Rules 4E81, 4E70, 4E79, 4E45), the Beast's Tricks and Socks (part B: Rules 4E71, 4E68):
each Trick taught, and each time the Beast is to perform one, with the draw
that selected it, and each Sock. State tables only, all new: a game from before has none of
these rows, and its replay makes none unless its log does what makes them (a
Laundry Corporation's row is made when it is first needed), so an old game's
digest does not move. A game from before gets the [beast] and [socks] configuration keys
with this version's defaults.
Also (part C: Rules 4E82, 4E36, 4E0, 4E60): Subgames and Victory Conditions, the
Players Rule 4E0's PEPs fall back to (`game.peps_before`), and Rule 4E60's limit of
one proposal in the nweek after a fine for Contempt of Court (columns added only
where missing).
And (issue 16): state snapshots, a derived table, neither log nor state: the
state right after some log entries, so that a replay (`--as-of`, an approval's)
starts from the nearest one instead of from nothing. A game from before has
none; its next replay or rebuild takes them."""
from __future__ import annotations

import tomllib

from peewee import (AutoField, BlobField, BooleanField, CharField, DateTimeField, ForeignKeyField, IntegerField,
                    TextField)

from playhouse.migrate import migrate

from .frozen import Frozen, fill_config

VERSION = 11

# the configuration this version brought in, as its defaults.toml had it
CONFIG = tomllib.loads('''
[beast]
trick_response = 10
trick_ndays = [1, 5, 9]
ranger_grace = "1 rdays"

[socks]
most_at_once = 100
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


class Player(Frozen):                        # referred to only
    id = AutoField()

    class Meta:
        table_name = "player"


class Ministry(Frozen):                      # referred to only
    name = CharField(primary_key=True)

    class Meta:
        table_name = "ministry"


class Consultation(Frozen):                  # referred to only
    id = AutoField()

    class Meta:
        table_name = "consultation"


class Corporation(Frozen):
    id = AutoField()
    name = CharField()
    name_key = CharField(unique=True)
    entity = ForeignKeyField(Player, unique=True, on_delete="CASCADE")
    color = CharField(null=True)
    contract = IntegerField(null=True)
    officers = TextField()                   # JSON
    created_at = DateTimeField()
    entry = IntegerField(null=True)

    class Meta:
        table_name = "corporation"


class Contract(Frozen):
    id = AutoField()
    title = TextField()
    text = TextField()
    version = IntegerField()
    author = ForeignKeyField(Player, on_delete="CASCADE")
    articles = BooleanField()
    state = CharField(index=True)
    created_at = DateTimeField()
    entry = IntegerField(null=True)

    class Meta:
        table_name = "contract"


class ContractParty(Frozen):
    id = AutoField()
    contract = ForeignKeyField(Contract, on_delete="CASCADE")
    party = ForeignKeyField(Player, on_delete="CASCADE")
    joined_at = DateTimeField()
    left_at = DateTimeField(null=True)
    state = CharField(index=True)

    class Meta:
        table_name = "contractparty"


class ContractVersion(Frozen):
    id = AutoField()
    contract = ForeignKeyField(Contract, on_delete="CASCADE")
    version = IntegerField()
    text = TextField()
    author = ForeignKeyField(Player, on_delete="CASCADE")
    at = DateTimeField()
    entry = IntegerField(null=True)

    class Meta:
        table_name = "contractversion"


class Delegation(Frozen):
    id = AutoField()
    contract = ForeignKeyField(Contract, on_delete="CASCADE")
    ministry = ForeignKeyField(Ministry, on_delete="CASCADE")
    minister = ForeignKeyField(Player, on_delete="CASCADE")
    delegate = ForeignKeyField(Player, on_delete="CASCADE")
    at = DateTimeField()
    state = CharField(index=True)

    class Meta:
        table_name = "delegation"


class Breach(Frozen):
    consultation = ForeignKeyField(Consultation, primary_key=True, on_delete="CASCADE")
    contract = ForeignKeyField(Contract, on_delete="CASCADE")
    party = ForeignKeyField(Player, on_delete="CASCADE")

    class Meta:
        table_name = "breach"


class Sock(Frozen):
    id = AutoField()
    color = CharField()
    holder = ForeignKeyField(Player, on_delete="CASCADE")
    created_at = DateTimeField()
    entry = IntegerField(null=True)
    destroyed_at = DateTimeField(null=True)

    class Meta:
        table_name = "sock"


class Subgame(Frozen):
    id = AutoField()
    name = TextField()
    text = TextField()
    parts = TextField()                      # JSON
    author = ForeignKeyField(Player, on_delete="CASCADE")
    status = CharField(index=True)
    created_at = DateTimeField()
    opened_at = DateTimeField(null=True)
    won_at = DateTimeField(null=True)
    winners = TextField()                    # JSON
    trophy = TextField()

    class Meta:
        table_name = "subgame"


class VictoryCondition(Frozen):
    id = AutoField()
    title = TextField()
    text = TextField()
    source = TextField()
    created_at = DateTimeField()
    repealed = BooleanField()
    history = TextField()                    # JSON

    class Meta:
        table_name = "victorycondition"


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


def _missing(migrator, table: str, column: str) -> bool:
    return column not in {c.name for c in migrator.database.get_columns(table)}


def apply(migrator) -> None:
    # each column only where it is missing, as create_tables makes only missing tables
    added = [("game", "peps_before", TextField(null=True)),                  # Rule 4E0
             ("fine", "proposal_limit_nweek", IntegerField(null=True)),       # Rule 4E60
             ("fine", "limited_proposals", IntegerField(default=0))]
    migrate(*(migrator.add_column(t, c, f) for t, c, f in added if _missing(migrator, t, c)))
    migrator.database.create_tables([Corporation, Contract, ContractParty, ContractVersion,
                                     Delegation, Breach, Trick, TrickDraw, Sock, Subgame, VictoryCondition,
                                     Snapshot])
    fill_config(CONFIG)
