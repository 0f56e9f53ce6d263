"""Version 11: Subgames (Rule 4E82) and Victory Conditions (Rule 4E36) (issue
15, part C), the Players Rule 4E0's PEPs fall back to (`game.peps_before`), and
Rule 4E60's limit of one proposal in the nweek after a fine for Contempt of Court.
State: created empty, a replay of the log fills them."""
from __future__ import annotations

from peewee import (AutoField, BooleanField, CharField, DateTimeField, ForeignKeyField, IntegerField,
                    TextField)

from playhouse.migrate import migrate

from .frozen import Frozen

VERSION = 11


class Player(Frozen):                        # referred to only
    id = AutoField()

    class Meta:
        table_name = "player"


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


def _missing(migrator, table: str, column: str) -> bool:
    return column not in {c.name for c in migrator.database.get_columns(table)}


def apply(migrator) -> None:
    # each column only where it is missing, as create_tables makes only missing tables
    added = [("game", "peps_before", TextField(null=True)),                  # Rule 4E0
             ("fine", "proposal_limit_nweek", IntegerField(null=True)),       # Rule 4E60
             ("fine", "limited_proposals", IntegerField(default=0))]
    migrate(*(migrator.add_column(t, c, f) for t, c, f in added if _missing(migrator, t, c)))
    migrator.database.create_tables([Subgame, VictoryCondition])
