"""The game's configuration: bnomic's defaults merged with an operator's TOML.

The defaults (defaults.toml) hold every number the ruleset sets. The merged
configuration is stored in the game database when the game is created, so a
replay always runs under the configuration the game was played with.
"""
from __future__ import annotations

import copy
import re
import tomllib
from importlib import resources
from pathlib import Path


class ConfigError(ValueError):
    """An operator's configuration file that cannot be used."""


# Rule 4E14's units of time, as durations are written ("3 rdays", "a Jiffy")
DURATION_UNITS = {
    "rday": "rdays", "rdays": "rdays", "day": "rdays", "days": "rdays",
    "nday": "ndays", "ndays": "ndays",
    "ndelay": "ndelays", "ndelays": "ndelays",
    "nweek": "nweeks", "nweeks": "nweeks",
    "jiffy": "jiffies", "jiffies": "jiffies",
}


def parse_duration(text: str) -> tuple[int, str]:
    """'3 rdays' -> (3, 'rdays'); 'a Jiffy' -> (1, 'jiffies'). The syntax of a
    duration, as quantities are written in the configuration and the rules."""
    m = re.fullmatch(r"\s*(a|an|\d+)\s+([a-z]+)\s*", text.lower())
    if not m or m.group(2) not in DURATION_UNITS:
        raise ValueError(f"not a duration: {text!r}")
    n = 1 if m.group(1) in ("a", "an") else int(m.group(1))
    return n, DURATION_UNITS[m.group(2)]


def defaults() -> dict:
    text = resources.files("bnomic").joinpath("defaults.toml").read_text("utf-8")
    return tomllib.loads(text)


def merge(base: dict, override: dict) -> dict:
    """Deep-merge override into a copy of base (tables merge, values replace)."""
    out = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def load_operator(path: str | Path) -> dict:
    """The operator's TOML file, as written (no defaults), checked: every key of
    every table known and of its kind; all problems are reported at once."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise ConfigError(f"configuration file not found: {path}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"configuration file {path} is not valid TOML: {e}") from None
    problems = operator_problems(data) + problems_of(merge(defaults(), data))
    if problems:
        raise ConfigError(f"{path}: " + "; ".join(problems))
    return data


def load(path: str | Path | None = None) -> dict:
    """The defaults, overridden by the TOML file at path if one is given (checked)."""
    data = defaults() if path is None else merge(defaults(), load_operator(path))
    validate(data)
    return data


class Config:
    """Read access to a configuration by dotted key: config["players.weekly_income"]."""

    def __init__(self, data: dict):
        self.data = data

    def __getitem__(self, dotted: str):
        node = self.data
        for part in dotted.split("."):
            if not isinstance(node, dict) or part not in node:
                raise KeyError(f"configuration has no {dotted!r}")
            node = node[part]
        return node

    def get(self, dotted: str, default=None):
        try:
            return self[dotted]
        except KeyError:
            return default

    def owned(self, dotted: str):
        """A quantity the game owns (invariant 7): the game's value, or, in a game
        created before bnomic had the key, bnomic's default (defaults.toml); so a
        handler never writes the number itself."""
        try:
            return self[dotted]
        except KeyError:
            return Config(defaults())[dotted]


# Sections of the configuration that decide how mail is read: `bnomic run`
# records a change of them in the log (as a "setting" command) so replay agrees.
GAME_SECTIONS_FROM_OPERATOR = ("addresses", "auth", "receipts", "displays", "limits")


def with_settings(data: dict, settings: dict[str, object]) -> dict:
    """The configuration with dotted-key settings laid over it."""
    out = copy.deepcopy(data)
    for dotted, value in settings.items():
        node = out
        *path, last = dotted.split(".")
        for part in path:
            node = node.setdefault(part, {})
        node[last] = copy.deepcopy(value)
    return out


def flatten(data: dict, prefix: str = "") -> dict[str, object]:
    """{'a': {'b': 1}} -> {'a.b': 1} (lists and scalars are leaves)."""
    out = {}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, dotted + "."))
        else:
            out[dotted] = value
    return out


# ------------------------------------------------------------------ checking

OPERATOR_SECTIONS = ("database", "lmtp", "smtp", "smtp_out", "imap", "site", "engine")
POSITIVE = {"clock.ndays_per_nweek", "clock.voting_starts_nday", "clock.nweeks_per_nyear",
            "receipts.daily_cap", "receipts.hourly_cap", "limits.name_length", "limits.title_length"}
# shares the rules state in words ("half the Reward"): a fraction from 0 to 1, as text
FRACTIONS = {"voting.stamina_share", "ministries.usurp_share", "justice.judge_priority"}
CHOICES = {"auth.policy": ("trust", "dkim"), "receipts.to": ("sender", "list"),
           "limits.lookalike_names": ("refuse", "allow"), "limits.vocabulary_names": ("refuse", "allow")}


def _kind(value) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


# The operator's own tables: each key bnomic reads, and its kind. A key not
# listed here is an error (a typo would otherwise be silently ignored).
TEXT, WHOLE, NUMBER, SWITCH, INSTANT = "text", "a whole number", "a number", "true or false", \
    "a date and time"
OPERATOR_KEYS: dict[str, dict[str, str]] = {
    "database": {"path": TEXT},
    "lmtp": {"listen": TEXT, "max_message_size": WHOLE, "catch_up_wait_seconds": NUMBER},
    "smtp": {"listen": TEXT},
    "smtp_out": {"host": TEXT, "port": WHOLE, "ssl": SWITCH, "starttls": SWITCH,
                 "cafile": TEXT, "verify": SWITCH, "username": TEXT, "password": TEXT,
                 "password_file": TEXT, "max_attempts": WHOLE, "retry_start_seconds": NUMBER},
    "imap": {"host": TEXT, "port": WHOLE, "ssl": SWITCH, "starttls": SWITCH, "cafile": TEXT,
             "verify": SWITCH, "username": TEXT, "password": TEXT, "password_file": TEXT,
             "mailbox": TEXT, "move_to": TEXT, "flag": TEXT, "not_before": INSTANT,
             "idle_renew_seconds": NUMBER, "backoff_start_seconds": NUMBER,
             "backoff_max_seconds": NUMBER, "timeout_seconds": NUMBER, "poll_seconds": NUMBER},
    "site": {"path": TEXT, "show_addresses": SWITCH, "title": TEXT},      # issue 17: the web site
    "engine": {"cpu_split": SWITCH},      # issue 16: the engine process and the receivers on their own CPUs
}


def _fits(value, kind: str) -> bool:
    import datetime
    if kind == NUMBER:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == INSTANT:     # a TOML date-time, or the same written as text
        if isinstance(value, datetime.datetime):
            return True
        try:
            datetime.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
            return isinstance(value, str)
        except ValueError:
            return False
    return _kind(value) == kind


def operator_problems(data: dict) -> list[str]:
    """What is wrong with the operator's own tables ([database], [lmtp], [smtp],
    [smtp_out], [imap]): unknown keys, values of the wrong kind. All of it."""
    problems = []
    for section, keys in OPERATOR_KEYS.items():
        table = data.get(section)
        if table is None:
            continue
        if not isinstance(table, dict):
            problems.append(f"[{section}] must be a table")
            continue
        for key, value in table.items():
            if key not in keys:
                problems.append(f"unknown key {key!r} in [{section}] (known: "
                                f"{', '.join(sorted(keys))})")
            elif not _fits(value, keys[key]):
                problems.append(f"{section}.{key} must be {keys[key]}, not {value!r}")
            elif keys[key] in (WHOLE, NUMBER) and value < 0:
                problems.append(f"{section}.{key} must not be negative")
    return problems


def check_value(key: str, value, default) -> None:
    """A value for `key` must be of the default's kind (and in range)."""
    if _kind(value) != _kind(default) and not (isinstance(default, float) and _kind(value) == "a whole number"):
        raise ConfigError(f"{key} must be {_kind(default)}, not {value!r}")
    if isinstance(value, int) and not isinstance(value, bool):
        if value < (1 if key in POSITIVE else 0) or value >= 2**62:
            raise ConfigError(f"{key} must be a whole number from {1 if key in POSITIVE else 0} up")
    if key in FRACTIONS:
        from fractions import Fraction
        try:
            ok = 0 <= Fraction(str(value)) <= 1
        except (ValueError, ZeroDivisionError):
            ok = False
        if not ok:
            raise ConfigError(f"{key} must be a fraction from 0 to 1, like \"1/2\", not {value!r}")
    if key in CHOICES and value not in CHOICES[key]:
        raise ConfigError(f"{key} must be one of {', '.join(CHOICES[key])}")
    if key.startswith("quantities.") and isinstance(value, str):
        try:
            parse_duration(value)
        except ValueError:
            raise ConfigError(f"{key} must be a duration like \"3 rdays\", not {value!r}") from None


def validate(data: dict) -> None:
    """A merged configuration: the game's keys known and of the defaults' kinds,
    the operator's tables as OPERATOR_KEYS declares. Every problem at once."""
    problems = operator_problems(data) + problems_of(data)
    if problems:
        raise ConfigError("; ".join(problems))


def problems_of(data: dict) -> list[str]:
    """The game's part of a merged configuration: known keys, values of the
    defaults' kinds (the operator's own tables: operator_problems)."""
    problems = []
    base = flatten({k: v for k, v in defaults().items()})
    for key, value in flatten({k: v for k, v in data.items() if k not in OPERATOR_SECTIONS}).items():
        if key not in base:
            if key.startswith("currencies.") or key.startswith("calendar.holidays"):
                continue
            problems.append(f"unknown configuration key {key!r} (a typo?)")
            continue
        try:
            check_value(key, value, base[key])
        except ConfigError as e:
            problems.append(str(e))
    if data.get("auth", {}).get("policy") == "dkim" and not data["auth"].get("authserv_id"):
        problems.append("auth.policy = \"dkim\" needs auth.authserv_id (the receiving "
                        "server's name in Authentication-Results)")
    try:
        voting, last = data["clock"]["voting_starts_nday"], data["clock"]["ndays_per_nweek"]
        if isinstance(voting, int) and isinstance(last, int) and voting > last:
            problems.append(f"clock.voting_starts_nday ({voting}) is after the last nday ({last})")
    except (KeyError, TypeError):
        pass
    return problems
