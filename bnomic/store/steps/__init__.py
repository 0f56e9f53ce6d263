"""The schema steps: `vN.py` takes a game database from version N-1 to N.

Each step is frozen: the tables it creates and the columns it adds are
defined in the step itself (small peewee models and plain peewee fields), as
they were at that version, and so is any data it writes (a data file it reads
is its own frozen copy here, as v5's `v5-ruleset.txt`). Nothing here imports
today's `models.py` (or anything outside the store) or reads a file the
package ships today, so a later change of a model can never change an old step.

A step is a module with `VERSION` and `apply(migrator)`; `migrations.py` runs
each in its own transaction (on SQLite with foreign keys off, checked before
commit). To add version N+1: write `v{N+1}.py` like the others (its own
models and operations, nothing from models.py) and add it to the tuple below.
"""
from __future__ import annotations

from . import v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14

STEPS = {step.VERSION: step.apply for step in (v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14)}
