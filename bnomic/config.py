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
    """The defaults, overridden by the TOML file at path if one is given."""
    data = defaults()
    return data if path is None else merge(data, load_operator(path))


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
GAME_SECTIONS_FROM_OPERATOR = ("addresses", "auth", "receipts")


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
