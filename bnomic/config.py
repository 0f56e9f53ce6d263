"""The game's configuration: bnomic's defaults merged with an operator's TOML.

The defaults (defaults.toml) hold every number the ruleset sets. The merged
configuration is stored in the game database when the game is created, so a
replay always runs under the configuration the game was played with.
"""
from __future__ import annotations

import copy
import tomllib
from importlib import resources
from pathlib import Path


class ConfigError(ValueError):
    """An operator's configuration file that cannot be used."""


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
    """The operator's TOML file, as written (no defaults)."""
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise ConfigError(f"configuration file not found: {path}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"configuration file {path} is not valid TOML: {e}") from None


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


# Sections of the configuration that decide how mail is read: `bnomic run`
# records a change of them in the log (as a "setting" command) so replay agrees.
GAME_SECTIONS_FROM_OPERATOR = ("addresses", "auth", "receipts", "displays")


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

OPERATOR_SECTIONS = ("database", "lmtp", "smtp", "smtp_out", "imap")
POSITIVE = {"clock.ndays_per_nweek", "clock.voting_starts_nday", "clock.nweeks_per_nyear",
            "receipts.daily_cap", "receipts.hourly_cap"}
CHOICES = {"auth.policy": ("trust", "dkim"), "receipts.to": ("sender", "list")}


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


def check_value(key: str, value, default) -> None:
    """A value for `key` must be of the default's kind (and in range)."""
    if _kind(value) != _kind(default) and not (isinstance(default, float) and _kind(value) == "a whole number"):
        raise ConfigError(f"{key} must be {_kind(default)}, not {value!r}")
    if isinstance(value, int) and not isinstance(value, bool):
        if value < (1 if key in POSITIVE else 0) or value >= 2**62:
            raise ConfigError(f"{key} must be a whole number from {1 if key in POSITIVE else 0} up")
    if key in CHOICES and value not in CHOICES[key]:
        raise ConfigError(f"{key} must be one of {', '.join(CHOICES[key])}")
    if key.startswith("quantities.") and isinstance(value, str):
        from .handlers.durations import parse
        try:
            parse(value)
        except ValueError:
            raise ConfigError(f"{key} must be a duration like \"3 rdays\", not {value!r}") from None


def validate(data: dict) -> None:
    """The game's part of a merged configuration: known keys, values of the
    defaults' kinds. The operator's own sections are checked where they are used."""
    base = flatten({k: v for k, v in defaults().items()})
    for key, value in flatten({k: v for k, v in data.items() if k not in OPERATOR_SECTIONS}).items():
        if key not in base:
            if key.startswith("currencies.") or key.startswith("calendar.holidays"):
                continue
            raise ConfigError(f"unknown configuration key {key!r} (a typo?)")
        check_value(key, value, base[key])
    if data.get("auth", {}).get("policy") == "dkim" and not data["auth"].get("authserv_id"):
        raise ConfigError("auth.policy = \"dkim\" needs auth.authserv_id (the receiving "
                          "server's name in Authentication-Results)")
    voting, last = data["clock"]["voting_starts_nday"], data["clock"]["ndays_per_nweek"]
    if voting > last:
        raise ConfigError(f"clock.voting_starts_nday ({voting}) is after the last nday ({last})")
