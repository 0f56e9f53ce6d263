"""Operator commands (`bnomic admin ...`). They are kept in the log like mail,
so a replay repeats them; each says what it did in the event log."""
from __future__ import annotations

import json

from ..store import Address, Obligation, Player
from .clock import resume_time, set_clock, stop_time
from .context import Context, Rejected
from .events import PlayerInactive
from .obligations import fulfil
from .players import clean_name, distinct_name, find_player, leave, name_key, starting_mackerel
from .registry import command, emit
from .settings import set_setting

BOOL_WORDS = {"true": True, "yes": True, "on": True, "1": True,
              "false": False, "no": False, "off": False, "0": False}

# attribute -> how its value is read
SETTABLE = {
    "points": int,
    "mackerel": int,
    "active": lambda v: BOOL_WORDS[v.lower()],
    "vested": lambda v: BOOL_WORDS[v.lower()],
}


@command("clock")
def clock(ctx: Context, state: str) -> str:
    """clock on|off: Rule 4E14 lets the Chairman or the MoM do this; operators may too."""
    if state not in ("on", "off"):
        raise Rejected("say 'clock on' or 'clock off'")
    set_clock(ctx, on=state == "on", rule="4E14", by="the operator")
    return f"the Clock is {state.capitalize()}"


@command("time")
def time(ctx: Context, state: str) -> str:
    """time stop|resume: stop or resume game time (what Rule 4E0 does in an Emergency)."""
    if state == "stop":
        stop_time(ctx, rule="operator", why="by the operator")
    elif state == "resume":
        resume_time(ctx, rule="operator", why="by the operator")
    else:
        raise Rejected("say 'time stop' or 'time resume'")
    return f"game time {'stopped' if state == 'stop' else 'resumed'}"


@command("set")
def set_attribute(ctx: Context, player: str, attribute: str, value: str) -> str:
    """set PLAYER ATTRIBUTE VALUE: correct a player's points, mackerel, Active or Vested."""
    target = find_player(ctx, player, "4E4")
    attribute = attribute.lower()
    if attribute not in SETTABLE:
        raise Rejected(f"cannot set {attribute!r}; settable: {', '.join(SETTABLE)}")
    try:
        new = SETTABLE[attribute](value.lstrip("m") if attribute == "mackerel" else value)
    except (KeyError, ValueError):
        raise Rejected(f"{value!r} is not a value for {attribute}") from None
    if isinstance(new, int) and not isinstance(new, bool) and not 0 <= new < 2**62:
        raise Rejected(f"{attribute} must be a whole number from 0 up", rule="4E17")
    old = getattr(target, attribute)
    setattr(target, attribute, new)
    target.save()
    ctx.record(attribute, f"{target.name}'s {attribute} set from {old} to {new} by the operator",
               rule="operator", player=target.name, before=old, after=new)
    if attribute == "active" and not new:
        emit(ctx, PlayerInactive(target, by="operator"))     # Rules 4E47, 4E18 react
    return f"{target.name}: {attribute} = {new}"


@command("add-player")
def add_player(ctx: Context, name: str, *addresses: str) -> str:
    """add-player NAME ADDRESS...: register a Player the operator vouches for (Rule 4E4)."""
    name = clean_name(name)
    if Player.get_or_none(Player.name_key == name_key(name)):
        raise Rejected(f"the name {name!r} is already taken", rule="4E4")
    name = distinct_name(ctx, name)
    if not addresses:
        raise Rejected("give at least one address for the new player")
    for a in addresses:
        if Address.get_or_none(Address.address == a.lower()):
            raise Rejected(f"the address {a} already belongs to a player")
    player = Player.create(name=name, name_key=name_key(name), joined_nweek=ctx.game.nweek,
                           active=True, last_action_nweek=ctx.game.nweek)
    for a in addresses:
        Address.create(address=a.lower(), player=player)
    ctx.record("join", f"{name} added as a Player by the operator", rule="operator",
               player=name, addresses=[a.lower() for a in addresses])
    starting_mackerel(ctx, player)
    return f"{name} is a Player"


@command("remove-player")
def remove_player(ctx: Context, name: str) -> str:
    """remove-player NAME: the player stops being a Player, as by forfeiting."""
    target = find_player(ctx, name, "4E4")
    leave(ctx, target, "operator", f"{target.name} removed from the game by the operator", "operator")
    return f"{target.name} is no longer a Player"


@command("add-address")
def add_address(ctx: Context, name: str, address: str) -> str:
    """add-address NAME ADDRESS: a player may post from another address too."""
    target = find_player(ctx, name, "4E4")
    if Address.get_or_none(Address.address == address.lower()):
        raise Rejected(f"the address {address} already belongs to a player")
    Address.create(address=address.lower(), player=target)
    ctx.record("address", f"{target.name} may post from {address.lower()}", rule="operator",
               player=target.name, address=address.lower())
    return f"{target.name} may post from {address.lower()}"


@command("setting")
def setting(ctx: Context, key: str, value: str) -> str:
    """setting KEY JSON-VALUE: change a key of the game's configuration from now on."""
    try:
        new = json.loads(value)
    except ValueError:
        new = value
    set_setting(ctx, key, new, by="the operator", rule="operator")
    return f"{key} = {new!r}"


@command("fulfil")
def fulfil_obligation(ctx: Context, number: str, *how: str) -> str:
    """fulfil N [HOW...]: record that a Minister did what obligation #N asks
    (e.g. made a passed proposal's changes bnomic could not apply, Rule 4E15)."""
    o = Obligation.get_or_none(Obligation.id == int(number.lstrip("#"))) if number.lstrip("#").isdigit() else None
    if o is None:
        raise Rejected(f"there is no obligation #{number}")
    if o.state != "open":
        raise Rejected(f"obligation #{o.id} is {o.state}")
    fulfil(ctx, o, "the operator: " + (" ".join(how) or "done"))
    return f"obligation #{o.id} fulfilled"
