"""Version 5: the ruleset (issue 6): the Rules with their Powers (Rules 4E36,
4E75), and the initial ruleset kept with the log (setup.ruleset)."""
from __future__ import annotations

import json
import re
from datetime import timezone
from importlib import resources

from peewee import BooleanField, DateTimeField, IntegerField, TextField
from playhouse.migrate import migrate

from .frozen import Frozen

VERSION = 5

# The seed ruleset as version 5 shipped it (bnomic/rulesets/b-nomic-2008-08-27.txt
# then), frozen beside this step: a later edit of the shipped ruleset cannot
# change what this step gives an old game.
SEED = "v5-ruleset.txt"
_HEADING = re.compile(r"(?:###\s++)?+Rule\s++4E(\d++)\s*+:\s*+(.++)")


class Setup(Frozen):
    id = IntegerField(primary_key=True)
    start_at = DateTimeField()

    class Meta:
        table_name = "setup"


class Rule(Frozen):
    number = IntegerField(primary_key=True)
    title = TextField()
    text = TextField()
    section = TextField()
    power_num = IntegerField()
    power_den = IntegerField()
    repealed = BooleanField()
    history = TextField()                    # JSON

    class Meta:
        table_name = "rule"


def seed_rules(text: str) -> list[dict]:
    """The rules of a ruleset in the seed's format, read as version 5 read them:
    "## Section", then "### Rule 4E14: NTime" (or a bare "Rule 4E28: ...") and text."""
    rules, section, current = [], "", None
    for line in text.splitlines():
        if line.startswith("## ") and not line.startswith("###"):
            section = line[3:].strip()
            continue
        m = _HEADING.fullmatch(line)
        if m and m.group(2).strip():
            current = {"number": int(m.group(1)), "title": m.group(2).strip(),
                       "section": section, "lines": []}
            rules.append(current)
        elif current is not None:
            current["lines"].append(line)
    for r in rules:
        r["text"] = "\n".join(r.pop("lines")).strip()
    return rules


def apply(migrator) -> None:
    migrate(migrator.add_column("setup", "ruleset", TextField(null=True)))
    migrator.database.create_tables([Rule])
    # a game that exists already gets the rules a new game started with: the
    # seed's, each at the default Power 1/2 (Rule 4E75)
    setup = Setup.select(Setup.start_at).first()
    if setup is None:
        return
    start = setup.start_at.replace(tzinfo=timezone.utc)
    history = json.dumps([{"at": start.isoformat(), "what": "in the initial ruleset"}],
                         sort_keys=True)
    text = resources.files(__package__).joinpath(SEED).read_text("utf-8")
    for r in seed_rules(text):
        Rule.insert(power_num=1, power_den=2, repealed=False, history=history, **r).execute()
