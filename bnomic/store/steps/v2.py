"""Version 2: the mail edge (issue 3): SMTP envelopes on messages, the outbox,
IMAP checkpoints, and configuration settings changed during play."""
from __future__ import annotations

import tomllib

from peewee import AutoField, CharField, DateTimeField, IntegerField, TextField
from playhouse.migrate import migrate

from .frozen import Frozen, fill_config

VERSION = 2

# the configuration this version brought in, as its defaults.toml had it
CONFIG = tomllib.loads('''
[addresses]
processor = ""
public_fora = []
discussion_fora = []

[auth]
policy = "trust"
authserv_id = ""

[receipts]
to = "sender"
daily_cap = 20
''')


class Outbox(Frozen):
    id = AutoField()
    message_id = CharField(unique=True)
    kind = CharField()
    to = TextField()                         # JSON
    subject = TextField()
    body = TextField()
    in_reply_to = CharField(null=True)
    references = TextField(null=True)
    auto_submitted = CharField(default="auto-generated")
    entry = IntegerField(null=True, index=True)
    queued_at = DateTimeField()
    state = CharField(default="queued", index=True)
    attempts = IntegerField(default=0)
    next_attempt_at = DateTimeField(null=True)
    last_error = TextField(null=True)
    sent_at = DateTimeField(null=True)

    class Meta:
        table_name = "outbox"


class Checkpoint(Frozen):
    source = CharField(primary_key=True)
    uidvalidity = IntegerField(null=True)
    last_uid = IntegerField(default=0)
    updated_at = DateTimeField(null=True)

    class Meta:
        table_name = "checkpoint"


class Setting(Frozen):
    key = CharField(primary_key=True)
    value = TextField()                      # JSON

    class Meta:
        table_name = "setting"


def apply(migrator) -> None:
    migrate(migrator.add_column("message", "envelope_from", CharField(null=True)),
            migrator.add_column("message", "rcpt_tos", TextField(null=True)))
    migrator.database.create_tables([Outbox, Checkpoint, Setting])
    fill_config(CONFIG)
