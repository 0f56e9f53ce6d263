"""The one presentation layer (issue 14, item 6): build a view kind's data and
render its template. The kinds are declared with handlers/views.view: the
game's beside their rule areas (clock, emergency, consultations, indictments,
a Ministry's display), the operator's here (players, events, the log, the
schedule, ministries, rules, proposals, the Ballot and the results, the digest).

`bnomic show KIND` prints `show(...)`; the daemon's publishing and the answers
to display requests render a display with `render("display", ...)`. --json
prints the data (or what the kind's `json` makes of it): a contract, add keys,
never rename.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone

from ..handlers import clock, consultations, displays, emergency, entities, justice  # noqa: F401  (declare views)
from ..handlers.context import Context, Rejected
from ..handlers.views import VIEWS, Request, context, view
from ..render import render as render_template
from ..store import (Address, Bounce, Command, Entry, Event, Message, Outcome, Parked, Pinned, Player,
                     state_digest)

__all__ = ["VIEWS", "Request", "context", "render", "show"]


def iso(t: datetime | None) -> str | None:
    return None if t is None else t.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def render(kind: str, data) -> str:
    """The text of one view kind's data, by its template."""
    k = VIEWS[kind]
    name = k.template(data) if callable(k.template) else k.template
    return render_template(name, d=data)


def show(kind: str, ctx: Context | None = None, request: Request = Request()) -> tuple[object, str]:
    """(what --json prints, the text) of one view kind, built now. A request the
    kind cannot answer raises Rejected with the reason."""
    k = VIEWS[kind]
    data = k.build(ctx or context(), request)
    text = render(kind, data)
    return (k.json(data, text) if k.json else data), text


def _last(newest_first, request: Request) -> list:
    """The rows of a newest-first query, oldest first, cut to --last N if given."""
    if request.last is not None:
        newest_first = newest_first.limit(max(request.last, 0))
    return list(reversed(list(newest_first)))


# ------------------------------------------------------------- the operator's

def player_view(p: Player, addresses: list[str] | None = None,
                bouncing: list[str] | None = None) -> dict:
    """One player as `bnomic show players --json` gives it (a contract). Its
    addresses and those bouncing are asked for unless given."""
    if addresses is None:
        addresses = [a.address for a in p.addresses.order_by(Address.address)]
    if bouncing is None:
        bouncing = sorted(b.address for b in Bounce.select().join(
            Address, on=(Bounce.address == Address.address)).where(Address.player == p.id))
    return {
        "name": p.name,
        "addresses": addresses,
        "points": p.points,
        "mackerel": p.mackerel,
        "active": p.active,
        "vested": p.vested,
        "bouncing": sorted(bouncing),
    }


@view("players", template="players.txt")
def players_view(ctx: Context, request: Request) -> list[dict]:
    # every Player's addresses and bouncing addresses in one query each, not two per Player
    addresses: dict[int, list[str]] = {}
    for player, address in Address.select(Address.player, Address.address).order_by(Address.address).tuples():
        addresses.setdefault(player, []).append(address)
    bouncing: dict[int, list[str]] = {}
    for player, address in (Bounce.select(Address.player, Bounce.address)
                            .join(Address, on=(Bounce.address == Address.address)).tuples()):
        bouncing.setdefault(player, []).append(address)
    return [player_view(p, addresses.get(p.id, []), bouncing.get(p.id, []))
            for p in Player.select().where(Player.is_player == True).order_by(Player.id)]  # noqa: E712


def event_view(e: Event) -> dict:
    return {"seq": e.seq, "at": iso(e.at), "cause": e.cause, "entry": e.entry, "rule": e.rule,
            "kind": e.kind, "summary": e.summary, "data": e.data}


@view("events", template="show_events.txt")
def events_view(ctx: Context, request: Request) -> list[dict]:
    return [event_view(e) for e in _last(Event.select().order_by(Event.seq.desc()), request)]


def parked_view(p: Parked) -> dict:
    """One parked entry as `bnomic parked --json` and `show log --json` give it (a contract)."""
    return {"entry": p.entry, "state": p.state, "error": p.error, "attempts": p.attempts,
            "first_failed_at": iso(p.first_failed_at), "last_failed_at": iso(p.last_failed_at),
            "retried_by": p.retried_by}


def entry_view(e: Entry) -> dict:
    view = {"seq": e.seq, "kind": e.kind, "at": iso(e.at), "processed": e.processed}
    if e.kind == "mail":
        m = Message.get_by_id(e.seq)
        view.update(message_id=m.message_id, sender=m.sender, size=len(m.raw))
    else:
        c = Command.get_by_id(e.seq)
        view.update(command=[c.verb, *c.args])
    view["outcomes"] = [{"action": o.action, "text": o.text, "accepted": o.accepted,
                         "reason": o.reason, "rule": o.rule}
                        for o in Outcome.select().where(Outcome.entry == e.seq)
                        .order_by(Outcome.position)]
    parked = Parked.get_or_none(Parked.entry == e.seq)
    view["parked"] = None if parked is None else parked_view(parked)
    pin = Pinned.get_or_none(Pinned.entry == e.seq)     # how its mail was read (issue 13)
    view["pinned"] = None if pin is None else {
        "reader": pin.reader, "readings": None if pin.readings is None else json.loads(pin.readings)}
    return view


@view("log", template="show_log.txt")
def log_view(ctx: Context, request: Request) -> list[dict]:
    return [entry_view(e) for e in _last(Entry.select().order_by(Entry.seq.desc()), request)]


@view("digest", template="show_digest.txt")
def digest_view(ctx: Context, request: Request) -> dict:
    return {"digest": state_digest()}


@view("rules", template="show_rules.txt")
def rules_view(ctx: Context, request: Request) -> list[dict]:
    """`bnomic show rules --json` (a contract: add, never rename)."""
    from ..handlers import rules
    return [{"number": rules.label(r.number), "title": r.title,
             "power": f"{r.power_num}/{r.power_den}" if r.power_den != 1 else str(r.power_num),
             "text": r.text, "section": r.section, "history": r.history}
            for r in rules.current()]


@view("proposals", template="show_proposals.txt")
def proposals_view(ctx: Context, request: Request) -> list[dict]:
    """`bnomic show proposals --json`: every proposal with each Registered Voter's
    Final Vote in its Voting Period (a contract: add, never rename)."""
    from ..handlers import proposals, voting
    from ..store import Proposal
    rows = list(Proposal.select().order_by(Proposal.number.is_null(), Proposal.number, Proposal.id))
    finals = voting.final_votes(rows)
    names = {p.id: p.name for p in Player.select(Player.id, Player.name)}
    return [proposals.row(p, {names[v]: w for v, w in sorted(finals.get(p.id, {}).items(),
                                                              key=lambda kv: names[kv[0]].casefold())})
            for p in rows]


@view("ministries", template="show_ministries.txt")
def ministries_view(ctx: Context, request: Request) -> list[dict]:
    """`bnomic show ministries --json` (a contract: add, never rename)."""
    from ..handlers import ministries
    from ..store import Ministry
    cfg = ctx.config
    rows = []
    for name in ministries.ministry_names(cfg):
        m = Ministry.get_or_none(Ministry.name == name)
        rows.append({"name": name, "title": ministries.title(cfg, name),
                     "holder": m.holder.name if m and m.holder_id else None,
                     "reward": m.reward if m else cfg["ministries.default_reward"],
                     "held_since": iso(m.held_since) if m else None,
                     "rule": cfg[f"ministries.{name}.rule"]})
    return rows


@view("schedule", template="show_schedule.txt")
def schedule_view(ctx: Context, request: Request) -> list[dict]:
    """Rule 4E14, the Doctor: what is scheduled, in order (a contract: add, never rename)."""
    from ..handlers import durations, intents
    from ..store import Deadline
    game = ctx.game
    items = []
    for row in Deadline.select().where(Deadline.state == "pending").order_by(Deadline.id):
        due = durations.due_of_row(row)
        what = (f"{row.args.get('sender')}: {row.args.get('text')}" if row.action == "scheduled_action"
                else f"{row.action} {json.dumps(row.args, sort_keys=True)}")
        items.append({"kind": "deadline", "id": row.id, "action": row.action, "rule": row.rule,
                      "due": due.describe(), "due_at": iso(row.due_at), "description": what})
    for intent in intents.open_intents():
        items.append({"kind": "intent", "id": intent.id, "action": intent.action, "rule": "4E21",
                      "due": intents.describe_window(intent, game, ctx.config),
                      "due_at": iso(intent.opens_at),
                      "description": f"{intent.author.name} intends to {intent.text}"})
    return items


# (the Ballot and the results as published: declared in publish.py, which keeps them)
