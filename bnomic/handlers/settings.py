"""Changing a key of the game's configuration during play: by the operator
(`bnomic admin setting`) or by a change a Game Document makes (Rule 4E30's
Official Quantities, handlers/changes.py). One way in, so every change is
checked, stored and recorded alike, and takes effect at once."""
from __future__ import annotations

import json
import re

from ..config import Config, ConfigError, check_value, defaults
from ..store import Setting
from .context import Context, Rejected

_TRUE = {"true", "yes", "on"}
_FALSE = {"false", "no", "off"}


def set_setting(ctx: Context, key: str, value, by: str, rule: str) -> tuple[object, object]:
    """Set configuration `key` to `value` from now on; returns (old, new).
    Refuses an unknown key, a table, or a value not of the key's kind."""
    try:
        old = like = ctx.config[key]
    except KeyError:
        # a key newer than the game (made before it existed): the default's kind
        old, like = None, Config(defaults()).get(key)
        if like is None:
            raise Rejected(f"the configuration has no key {key!r}") from None
    if isinstance(like, dict):
        raise Rejected(f"{key!r} is a table; set one of its keys")
    try:
        check_value(key, value, like)
    except ConfigError as e:
        raise Rejected(str(e)) from None
    if key == "quantities.a_jiffy" and "jiff" in str(value).lower():
        # Rule 4E30: A Jiffy measured in Jiffies would never end
        raise Rejected("A Jiffy cannot be measured in Jiffies", rule="4E30")
    Setting.insert(key=key, value=value).on_conflict_replace().execute()
    ctx.record("setting", f"configuration {key} set from {old!r} to {value!r} by {by}",
               rule=rule, key=key, before=old, after=value)
    ctx._config = None              # the new value is in force for what follows
    return old, value


def read_value(text: str, like):
    """A value written in words ("30", "4 rdays", "yes", "1 000"), read as the
    kind of `like` (the key's value now). What cannot be read is returned as
    written, so that `set_setting` says what kind it must be."""
    text = text.strip()
    if isinstance(like, str):
        return text
    if isinstance(like, bool):
        word = text.lower()
        return True if word in _TRUE else False if word in _FALSE else text
    if isinstance(like, (int, float)):
        digits = re.sub(r"(?<=\d)[\s,_](?=\d{3}\b)", "", text)
        if re.fullmatch(r"[-+]?\d+", digits):
            return int(digits)
        if isinstance(like, float) and re.fullmatch(r"[-+]?\d*\.\d+", digits):
            return float(digits)
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text
