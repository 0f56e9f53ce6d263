"""Column types bnomic needs that peewee does not give as-is."""
from __future__ import annotations

import json
from datetime import datetime, timezone

from peewee import TextField, DateTimeField


class UTCDateTimeField(DateTimeField):
    """An aware UTC datetime, stored naive in UTC so every backend sorts it alike."""

    def db_value(self, value):
        if value is not None and value.tzinfo is not None:
            value = value.astimezone(timezone.utc).replace(tzinfo=None)
        return super().db_value(value)

    def python_value(self, value):
        value = super().python_value(value)
        if isinstance(value, datetime) and value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        return value


class JSONField(TextField):
    """A JSON document, written with sorted keys so equal values store equal text."""

    def db_value(self, value):
        return None if value is None else json.dumps(value, sort_keys=True)

    def python_value(self, value):
        return None if value is None else json.loads(value)
