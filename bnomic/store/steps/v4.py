"""Version 4: ministries, usurpations and obligations (issue 5); when the Clock
was first turned On in the nweek (Rule 4E49), the Threat Flag (4E40) and the
Message of the nweek (4E39); publications, subscriptions and approvals."""
from __future__ import annotations

import json
import tomllib

from peewee import AutoField, CharField, DateTimeField, ForeignKeyField, IntegerField, TextField
from playhouse.migrate import migrate

from .frozen import Frozen, fill_config

VERSION = 4

# the configuration this version brought in, as its defaults.toml had it
CONFIG = tomllib.loads('''
[ministries]
default_reward = 100
min_reward = 1
usurpation_settles = "2 rdays"
delegated_duties = ["clock_on", "displays"]
order = ["Law", "Time", "Society", "Change", "Ministry", "Questions", "Laundry", "Fauna",
         "Games", "Business", "Judging"]

[ministries.Law]
title = "Rulekeeper"
aliases = ["Minister of Law"]
rule = "4E36"

[ministries.Time]
title = "The Doctor"
aliases = ["Doctor", "Minister of Time"]
rule = "4E14"

[ministries.Society]
title = "Registrar"
aliases = ["Minister of Society"]
rule = "4E4"

[ministries.Change]
title = "Chairman"
aliases = ["Minister of Change", "Chair"]
rule = "4E15"

[ministries.Ministry]
title = "MetaMin"
aliases = ["MoM", "Kurt Gödel", "Kurt Godel", "Minister of Ministry", "Minister of Ministries", "MetaMinistry", "Ministry of Ministries", "Meta Minister"]
rule = "4E51"

[ministries.Questions]
title = "Oracle"
aliases = ["Minister of Questions"]
rule = "4E18"

[ministries.Laundry]
title = "Washerwoman"
aliases = ["Minister of Laundry", "Laundress"]
rule = "4E80"

[ministries.Fauna]
title = "Ranger"
aliases = ["Minister of Fauna"]
rule = "4E71"

[ministries.Games]
title = "Gamemaster"
aliases = ["GM", "Minister of Games"]
rule = "4E82"

[ministries.Business]
title = "Arbiter"
aliases = ["Minister of Business"]
rule = "4E70"

[ministries.Judging]
title = "Judge"
aliases = ["Minister of Judging"]
rule = "4E73"

[displays]
min_interval_minutes = 60
''')


class Player(Frozen):                        # referred to only
    id = AutoField()

    class Meta:
        table_name = "player"


class Ministry(Frozen):
    name = CharField(primary_key=True)
    holder = ForeignKeyField(Player, null=True, on_delete="SET NULL")
    reward = IntegerField()
    held_since = DateTimeField(null=True)
    kept_duties = TextField()                # JSON
    display_digest = CharField(null=True)

    class Meta:
        table_name = "ministry"


class Usurpation(Frozen):
    id = AutoField()
    ministry = ForeignKeyField(Ministry, on_delete="CASCADE")
    usurper = ForeignKeyField(Player, on_delete="CASCADE")
    proposed = IntegerField()
    at = DateTimeField()
    state = CharField(default="pending")

    class Meta:
        table_name = "usurpation"


class Obligation(Frozen):
    id = AutoField()
    ministry = ForeignKeyField(Ministry, on_delete="CASCADE")
    kind = CharField()
    text = TextField()
    rule = CharField()
    arose_at = DateTimeField()
    deadline = IntegerField(null=True)
    state = CharField(default="open", index=True)
    lapsed_holder = ForeignKeyField(Player, null=True, on_delete="SET NULL")
    data = TextField()                       # JSON

    class Meta:
        table_name = "obligation"


class Publication(Frozen):
    name = CharField(primary_key=True)
    digest = CharField()
    at = DateTimeField()
    message_id = CharField()

    class Meta:
        table_name = "publication"


class Subscription(Frozen):
    address = CharField(primary_key=True)
    period = CharField()
    since = DateTimeField()

    class Meta:
        table_name = "subscription"


class Approval(Frozen):
    entry = IntegerField(primary_key=True)
    anchor = IntegerField(index=True)
    values = TextField()                     # JSON
    why = TextField()

    class Meta:
        table_name = "approval"


def apply(migrator) -> None:
    migrate(migrator.add_column("game", "clock_first_on_at", DateTimeField(null=True)),
            migrator.add_column("game", "threat_flag", CharField(default="Pink Ponies")),
            migrator.add_column("game", "flag_changed_count", IntegerField(null=True)),
            migrator.add_column("game", "motnw",
                                TextField(default="This space intentionally left blank")),
            migrator.add_column("game", "motnw_changed_nweek", IntegerField(null=True)))
    migrator.database.create_tables([Ministry, Usurpation, Obligation, Publication,
                                     Subscription, Approval])
    fill_config(CONFIG)
    # a game that exists already gets its ministries as a new game did: every
    # configured one Vacant, at the default Reward (Rules 4E45, 4E48)
    row = migrator.database.execute_sql("SELECT config FROM setup").fetchone()
    if row is not None:
        spec = json.loads(row[0])["ministries"]
        for name, value in spec.items():
            if isinstance(value, dict):
                Ministry.insert(name=name, reward=spec["default_reward"], kept_duties="[]").execute()
