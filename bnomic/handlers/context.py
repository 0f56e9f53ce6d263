"""What every handler is given: the moment, the cause, the game, and the way to
change it. Handlers never read the wall clock (invariant 3): `ctx.at` is the time.
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from datetime import datetime

from ..config import Config, with_settings
from ..store import Event, Game, Setting, Setup, database, hot, versions


def game_config(setup: Setup | None = None) -> Config:
    """The configuration in force now: the game's, with settings changed in play
    (decoded once per transaction while neither table changes: store/versions.py)."""
    if setup is not None:
        return _config_of(setup)
    return versions.cached(database, "game_config", ("setup", "setting"),
                           lambda: _config_of(Setup.get()))


def _config_of(setup: Setup) -> Config:
    settings = {s.key: s.value for s in Setting.select().order_by(Setting.key)}
    return Config(with_settings(setup.config, settings) if settings else setup.config)


def current_game() -> Game:
    """The game row (a copy the caller may change), read once per transaction
    while the table is unchanged (store/versions.py)."""
    return versions.clone(versions.cached(database, "game", ("game",), _game_row))


def _game_row() -> Game:
    """Game.get(), by a statement made once (store/hot.py)."""
    found = hot.rows(Game, None, (), 1)
    if found is None:
        return Game.get()
    if not found:
        raise Game.DoesNotExist("there is no game row")
    return found[0]


class Rejected(Exception):
    """An action the rules do not allow, with the reason a player will read."""

    def __init__(self, reason: str, rule: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.rule = rule

    def __str__(self):
        return f"{self.reason} (Rule {self.rule})" if self.rule else self.reason


class RetroactiveChange(Exception):
    """Rule 4E50 (approving a display): the gamestate must be set as of an
    earlier entry and every later change simulated again. The runner records the
    change in the log and replays it (Rule 4E26: simulated, not retroactive)."""

    def __init__(self, anchor_entry: int, values: dict, why: str):
        super().__init__(why)
        self.anchor_entry, self.values, self.why = anchor_entry, values, why


@dataclass
class Context:
    at: datetime
    cause: str                  # "mail" | "command" | "midnight" | "deadline"
    entry: int | None = None    # the log seq of the mail or command
    post: "object | None" = None   # the Post being applied, for actions that need it
    notes: list = field(default_factory=list)   # remarks for the sender's receipt
    intent: "object | None" = None  # the intent an action is being performed under
    minister_power: str | None = None   # the Ministry whose power the action used (4E45: ministries.require_minister)
    _config: Config | None = None
    _setup: Setup | None = None

    @property
    def setup(self) -> Setup:
        if self._setup is None:
            self._setup = versions.clone(versions.cached(database, "setup", ("setup",), Setup.get),
                                         deep=False)    # read, never changed
        return self._setup

    @property
    def config(self) -> Config:
        if self._config is None:
            self._config = game_config(self._setup)
        return self._config

    @property
    def game(self) -> Game:
        return current_game()

    def record(self, kind: str, summary: str, rule: str | None = None, **data) -> Event:
        """Write one change to the event log (every change to the gamestate has one)."""
        return Event.create(at=self.at, cause=self.cause, entry=self.entry,
                            rule=rule, kind=kind, summary=summary, data=data)

    def rng(self) -> random.Random:
        """Chance for the next event (invariant 4): seeded by the game's seed and
        the sequence number the next event will get, so a replay draws the same."""
        last = Event.select(Event.seq).order_by(Event.seq.desc()).first()
        next_seq = (last.seq if last else 0) + 1
        digest = hashlib.sha256(f"{self.setup.seed}:{next_seq}".encode()).digest()
        return random.Random(int.from_bytes(digest[:16], "big"))

    def derive(self, cause: str, entry: int | None = None) -> "Context":
        return Context(self.at, cause, entry, _config=self._config, _setup=self._setup)
