"""A hash of the whole gamestate: equal state, equal digest (invariant 2)."""
from __future__ import annotations

import hashlib
import json

from .models import STATE_MODELS


def state_rows():
    """Every row of every state table, in primary-key order, as plain values."""
    for model in STATE_MODELS:
        pk = model._meta.primary_key
        for row in model.select().order_by(pk).dicts():
            yield model._meta.table_name, row


def state_digest() -> str:
    h = hashlib.sha256()
    for table, row in state_rows():
        h.update(json.dumps([table, row], sort_keys=True, default=str).encode())
        h.update(b"\n")
    return h.hexdigest()
