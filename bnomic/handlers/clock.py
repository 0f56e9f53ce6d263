"""The Clock (Rule 4E14: NTime) and the Calendar (Rule 4E31).

At each 00:00 UTC the nday goes up (Clock On) or the ndelay does (Clock Off).
Past the last nday of the nweek the nday is 1, the nweek goes up and the Clock
turns Off. At the beginning of the Voting Period the Clock turns Off; turning
it On sets the ndelay to 0. This module says what a midnight changes; the
engine (engine.py) fires what the rules hook onto those changes, and reacts
to the Clock turned On (events.ClockTurnedOn).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..config import Config
from ..store import Game
from .context import Context, Rejected
from .events import ClockTurnedOn
from .registry import Undecidable, assertion, at_start_of, emit
from .views import Request, view


@dataclass
class Edge:
    """A period of game time beginning or ending: ('end', 'nday', 12)."""
    edge: str               # "start" | "end"
    period: str             # "nday" | "nweek" | "voting" | "ndelay"
    nday: int | None = None


@dataclass
class Midnight:
    """What one 00:00 UTC does to the Clock."""
    nweek: int
    nday: int
    clock_on: bool
    ndelay: int
    nday_changed: bool
    ndelay_changed: bool
    edges: list[Edge] = field(default_factory=list)

    def ending(self):
        return [e for e in self.edges if e.edge == "end"]

    def starting(self):
        return [e for e in self.edges if e.edge == "start"]


# ---------------------------------------------------------------- the Calendar

def nday_name(config: Config, nday: int) -> str:
    """Rule 4E31: nday 1 is Breakday..."""
    names = config["calendar.names"]
    return names[nday - 1] if 1 <= nday <= len(names) else f"nday {nday}"


def nyear(config: Config, nweek: int) -> int:
    """Rule 4E14: nweeks 1-10 are nyear 1, 11-20 nyear 2..."""
    return (nweek - 1) // config["clock.nweeks_per_nyear"] + 1


def holiday(config: Config, nweek: int, nday: int) -> str | None:
    """Rule 4E31: the Public Holidays that fall on this nday, if any."""
    per_year = config["clock.nweeks_per_nyear"]
    week_of_year = (nweek - 1) % per_year + 1
    name = nday_name(config, nday)
    for h in config.get("calendar.holidays", []):
        if h["nday_name"] == name and h["nweek_of_nyear"] == week_of_year:
            return h["name"]
    return None


def in_voting_period(config: Config, game: Game) -> bool:
    """Rule 4E15: Voting runs from the beginning of nday 9 to the end of the nweek."""
    return game.nday >= config["clock.voting_starts_nday"]


def state(game: Game, config: Config) -> dict:
    """The Clock as `bnomic show clock --json` and `bnomic status` give it (a
    contract: add, never rename)."""
    return {
        "nweek": game.nweek,
        "nday": game.nday,
        "nday_name": nday_name(config, game.nday),
        "on": game.clock_on,
        "ndelay": game.ndelay,
        "nyear": nyear(config, game.nweek),
        "holiday": holiday(config, game.nweek, game.nday),
        "voting": in_voting_period(config, game),
        "time_stopped": game.time_stopped,
        "now": game.now.isoformat().replace("+00:00", "Z"),
    }


@view("clock", template="show_clock.txt", json=lambda d, text: d["state"])
def clock_view(ctx: Context, request: Request) -> dict:
    """`bnomic show clock`: the Clock's state, and the words that describe it."""
    return {"state": state(ctx.game, ctx.config), "describe": describe(ctx.game, ctx.config)}


def describe(game: Game, config: Config) -> str:
    state = "On" if game.clock_on else f"Off (ndelay {game.ndelay})"
    return (f"nweek {game.nweek}, nday {game.nday} ({nday_name(config, game.nday)}), "
            f"Clock {state}")


# ------------------------------------------------------------------ midnights

def plan_midnight(game: Game, config: Config) -> Midnight | None:
    """Rule 4E14, Clock Changes: what this midnight does. None while time is stopped."""
    if game.time_stopped:
        return None
    if not game.clock_on:
        return Midnight(game.nweek, game.nday, False, game.ndelay + 1,
                        nday_changed=False, ndelay_changed=True,
                        edges=[Edge("end", "ndelay"), Edge("start", "ndelay")])
    last = config["clock.ndays_per_nweek"]
    voting = config["clock.voting_starts_nday"]
    edges = [Edge("end", "nday", game.nday)]
    if game.nday + 1 > last:
        # the nday would pass the last: nday 1, next nweek, Clock Off
        if game.nday >= voting:
            edges.append(Edge("end", "voting", game.nday))
        edges.append(Edge("end", "nweek", game.nday))
        edges += [Edge("start", "nweek", 1), Edge("start", "nday", 1)]
        return Midnight(game.nweek + 1, 1, False, game.ndelay,
                        nday_changed=True, ndelay_changed=False, edges=edges)
    nday = game.nday + 1
    edges.append(Edge("start", "nday", nday))
    if nday == voting:
        edges.append(Edge("start", "voting", nday))
    return Midnight(game.nweek, nday, True, game.ndelay,
                    nday_changed=True, ndelay_changed=False, edges=edges)


def apply_midnight(ctx: Context, m: Midnight) -> None:
    g = ctx.game
    g.nweek, g.nday, g.clock_on, g.ndelay = m.nweek, m.nday, m.clock_on, m.ndelay
    g.nday_changes += int(m.nday_changed)
    g.ndelay_changes += int(m.ndelay_changed)
    g.save()
    ctx.record("clock", describe(g, ctx.config), rule="4E14",
               nweek=g.nweek, nday=g.nday, on=g.clock_on, ndelay=g.ndelay)


@at_start_of("voting", rule="4E14")
def voting_turns_clock_off(ctx: Context) -> None:
    """Rule 4E14: at the beginning of each Voting Period, the Clock becomes Off."""
    set_clock(ctx, on=False, rule="4E14", by="the beginning of the Voting Period")


# ------------------------------------------------------ turning it On and Off

def set_clock(ctx: Context, on: bool, rule: str, by: str) -> None:
    """Rule 4E14: turn the Clock On (the ndelay is set to zero) or Off."""
    g = ctx.game
    if g.clock_on == on:
        raise Rejected(f"the Clock is already {'On' if on else 'Off'}", rule="4E14")
    g.clock_on = on
    if on:
        g.ndelay = 0      # "When the Clock is turned On, the ndelay is set to zero."
        if g.clock_first_on_at is None:
            g.clock_first_on_at = ctx.at      # Rule 4E49 counts Ministries held from here
    g.save()
    ctx.record("clock", f"Clock turned {'On' if on else 'Off'} by {by}: "
               f"{describe(g, ctx.config)}", rule=rule, on=on, by=by)
    if on:
        # "When the clock turns on, the current ndelay immediately ends" (engine.py reacts)
        emit(ctx, ClockTurnedOn())


def stop_time(ctx: Context, rule: str, why: str) -> None:
    """Game time stops (Rule 4E0): no midnight moves the Clock until it resumes."""
    g = ctx.game
    if g.time_stopped:
        raise Rejected("game time is already stopped", rule=rule)
    g.time_stopped = True
    g.save()
    ctx.record("time", f"game time stopped: {why}", rule=rule)


def resume_time(ctx: Context, rule: str, why: str) -> None:
    g = ctx.game
    if not g.time_stopped:
        raise Rejected("game time is not stopped", rule=rule)
    g.time_stopped = False
    g.save()
    ctx.record("time", f"game time resumed: {why}", rule=rule)


# ------------------------------------------------- assertions (Rule 4E12)

@assertion("clock_is", r"(?:the )?clock is (?P<state>on|off)", rule="4E14")
def clock_is(ctx: Context, actor, state: str) -> bool:
    return ctx.game.clock_on == (state.lower() == "on")


@assertion("nday_is", r"(?:it is|the nday is|we are in|this is) nday {number}",
           r"it is (?P<name>breakday|winday|mulberry|tango|wonko|halfday|joel|rushnight|ballotday|teucer|zarpint|thirnight)",
           rule="4E14")
def nday_is(ctx: Context, actor, number: str | None = None, name: str | None = None) -> bool:
    game = ctx.game
    if name:
        return nday_name(ctx.config, game.nday).lower() == name.lower()
    if not number.isdigit():
        raise Undecidable(f"{number!r} is not an nday")
    return game.nday == int(number)


@assertion("nweek_is", r"(?:it is|the nweek is|we are in|this is) nweek {number}", rule="4E14")
def nweek_is(ctx: Context, actor, number: str) -> bool:
    if not number.isdigit():
        raise Undecidable(f"{number!r} is not an nweek")
    return ctx.game.nweek == int(number)


@assertion("voting", r"(?:it is|we are in) (?:the )?voting(?: period)?", rule="4E15")
def voting(ctx: Context, actor) -> bool:
    return in_voting_period(ctx.config, ctx.game)


def describe_midnight(m: Midnight, config: Config) -> str:
    """What a coming midnight will do, for the Doctor's display."""
    if not m.nday_changed:
        return f"the Clock is Off: the ndelay becomes {m.ndelay}"
    if m.nday == 1:
        return f"nweek {m.nweek} begins with nday 1 ({nday_name(config, 1)}); the Clock turns Off"
    extra = "; the Voting Period begins and the Clock turns Off" if m.nday == config["clock.voting_starts_nday"] else ""
    return f"nday {m.nday} ({nday_name(config, m.nday)}) begins{extra}"
