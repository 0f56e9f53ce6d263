"""Durations of Rule 4E14, as every later deadline uses them.

A duration becomes a `Due`: either an instant (rdays, Jiffies, a UTC time) or
a point of game time that only the Clock's moving reaches (ndays, ndelays,
nweeks). `schedule` turns a Due into a Deadline that the engine fires.

Readings (docs/readings.md, shared rulings): "X rdays" ends at the X-th
00:00 UTC after its start; "X ndays" from a moment in nday D ends at the end
of nday D+X, that is just before the (X+1)-th change of the nday from now.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from ..config import DURATION_UNITS, parse_duration
from ..store import Deadline, Game
from .context import Context, Rejected

UNITS = DURATION_UNITS


@dataclass(frozen=True)
class Due:
    at: datetime | None = None       # an instant
    counter: str | None = None       # "nday" | "ndelay": at the end of the period
    count: int | None = None         #   just before that counter reaches count
    nweek: int | None = None         # at the end (or start) of this nday of this nweek
    nday: int | None = None
    edge: str = "end"

    def describe(self) -> str:
        if self.at is not None:
            return self.at.strftime("%Y-%m-%d %H:%M UTC")
        if self.counter:
            return f"at the end of the {self.counter} before {self.counter} change #{self.count}"
        return f"at the {self.edge} of nday {self.nday} of nweek {self.nweek}"


def midnight_floor(t: datetime) -> datetime:
    return t.replace(hour=0, minute=0, second=0, microsecond=0)


def next_midnight(t: datetime) -> datetime:
    return midnight_floor(t) + timedelta(days=1)


def rdays(start: datetime, x: int) -> Due:
    """Rule 4E14: "X rdays" ends after X occurrences of midnight UTC."""
    return Due(at=midnight_floor(start) + timedelta(days=x))


def ndays(game: Game, x: int) -> Due:
    """Rule 4E14: "X ndays" ends at the end of the nday after X changes of the nday."""
    return Due(counter="nday", count=game.nday_changes + x + 1)


def ndelays(game: Game, x: int) -> Due:
    """Rule 4E14: "X ndelays" ends at the end of the ndelay after X changes of it."""
    return Due(counter="ndelay", count=game.ndelay_changes + x + 1)


def nweeks(game: Game, x: int) -> Due:
    """Rule 4E14: "X nweeks" ends at the end of the same nday, X nweeks on."""
    return Due(nweek=game.nweek + x, nday=game.nday)


parse = parse_duration      # '3 rdays' -> (3, 'rdays'); 'a Jiffy' -> (1, 'jiffies')


def due_after(ctx: Context, text: str) -> Due:
    """The Due for a duration written in words, starting now."""
    n, unit = parse(text)
    if unit == "jiffies":
        return jiffies(ctx, n)
    if unit == "rdays":
        return rdays(ctx.at, n)
    return {"ndays": ndays, "ndelays": ndelays, "nweeks": nweeks}[unit](ctx.game, n)


def jiffies(ctx: Context, n: int = 1) -> Due:
    """Rule 4E30: A Jiffy is an Official Quantity (3 rdays unless changed)."""
    per, unit = parse(ctx.config["quantities.a_jiffy"])
    if unit == "jiffies":
        raise Rejected("A Jiffy cannot be measured in Jiffies", rule="4E30")
    if unit == "rdays":
        return rdays(ctx.at, per * n)
    return {"ndays": ndays, "ndelays": ndelays, "nweeks": nweeks}[unit](ctx.game, per * n)


def schedule(ctx: Context, due: Due, action: str, rule: str, **args) -> Deadline:
    """Put a deadline on the schedule; the engine fires `action` when it is due."""
    row = Deadline.create(due_at=due.at, counter=due.counter, count=due.count,
                          nweek=due.nweek, nday=due.nday, edge=due.edge, action=action,
                          args=args, rule=rule, created_at=ctx.at)
    ctx.record("schedule", f"{action} scheduled {due.describe()}", rule=rule,
               deadline=row.id, action=action)
    return row


def cancel(ctx: Context, deadline_id: int, rule: str | None = None) -> None:
    row = Deadline.get_by_id(deadline_id)
    if row.state == "pending":
        row.state = "cancelled"
        row.save()
        ctx.record("schedule", f"{row.action} cancelled", rule=rule, deadline=row.id)


def due_of_row(row: Deadline) -> Due:
    return Due(at=row.due_at, counter=row.counter, count=row.count, nweek=row.nweek,
               nday=row.nday, edge=row.edge)
