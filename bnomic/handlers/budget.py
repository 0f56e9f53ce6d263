"""A bound on the work of reading one message, counted in steps, not seconds.

A step is one character a pattern attempt may scan: trying a sentence against
one phrasing costs the sentence's length plus one. Counting steps rather than
CPU time keeps the bound deterministic: a replay reads the same message with
the same steps and comes to the same verdict (invariant 2).

The engine opens a budget around reading a post (`bounded`); the reader
charges it (`charge`); over the limit, `OverBudget` is raised and nothing of
the message is applied. The mailer may set a progress callback (the daemon's
watchdog ping) with `set_progress`: it is called every `every` steps while a
message is read, and after every action while one is applied (`ping`), so a
long message never looks like a hung engine. handlers/ never imports the
mailer: the callable is passed in.
"""
from __future__ import annotations

import contextvars
from contextlib import contextmanager
from typing import Callable


class OverBudget(Exception):
    """Reading the message took more steps than its budget allows."""

    def __init__(self, spent: int, limit: int):
        super().__init__(f"{spent} steps spent of {limit}")
        self.spent = spent
        self.limit = limit


class Budget:
    def __init__(self, limit: int | None, progress: Callable[[], None] | None = None,
                 every: int = 1_000_000):
        self.limit = limit
        self.spent = 0
        self.progress = progress
        self.every = max(1, every)
        self._next_ping = self.every

    def spend(self, steps: int) -> None:
        self.spent += steps
        if self.progress is not None and self.spent >= self._next_ping:
            self._next_ping = self.spent + self.every
            self.progress()
        if self.limit is not None and self.spent > self.limit:
            raise OverBudget(self.spent, self.limit)


_current: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("budget", default=None)
_progress: Callable[[], None] | None = None
_every = 1_000_000


def set_progress(fn: Callable[[], None] | None, every: int = 1_000_000) -> None:
    """Call `fn` every `every` steps of reading and after every action applied
    (the daemon's watchdog ping); None stops it."""
    global _progress, _every
    _progress, _every = fn, every


@contextmanager
def bounded(limit: int | None):
    """A budget of `limit` steps for the work inside the block (None: counted, unbounded)."""
    budget = Budget(limit, _progress, _every)
    token = _current.set(budget)
    try:
        yield budget
    finally:
        _current.reset(token)


def charge(steps: int) -> None:
    """Spend steps from the budget in force, if any (reading outside the engine is free)."""
    budget = _current.get()
    if budget is not None:
        budget.spend(steps)


def ping() -> None:
    """Tell the watchdog the engine is alive (between actions of a long message)."""
    if _progress is not None:
        _progress()
