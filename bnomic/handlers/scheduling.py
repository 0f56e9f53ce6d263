"""Actions scheduled for later (Rule 4E7): "On nday 8, I ...", "At the start of
the next nweek, I ...", "On 2008-09-01 at 12:00 UTC I ...". Each takes effect at
the start of the next such period (or at that instant), in arrival order among
those due together; its author can cancel it before then."""
from __future__ import annotations

import re

from dataclasses import replace
from datetime import datetime, timedelta, timezone

from ..store import Deadline, Outcome, Player
from . import durations, grammar, pinned
from .acting import perform
from .context import Context, Rejected
from .frames import frame, role
from .post import Post
from .registry import action, deadline


def due_of(ctx: Context, when: grammar.When) -> durations.Due:
    game = ctx.game
    last = ctx.config["clock.ndays_per_nweek"]
    if when.kind == "nday":
        if not 1 <= when.nday <= last:
            raise Rejected(f"there is no nday {when.nday}: an nweek has ndays 1 to {last}", rule="4E14")
        if when.nweek is not None:         # "on nday 1 of nweek 8": that nday of that nweek
            if (when.nweek, when.nday) <= (game.nweek, game.nday):
                raise Rejected(f"nday {when.nday} of nweek {when.nweek} has begun already "
                               f"(it is nday {game.nday} of nweek {game.nweek})", rule="4E7")
            return durations.Due(nweek=when.nweek, nday=when.nday, edge="start")
        nweek = game.nweek if game.nday < when.nday and not getattr(when, "next_nweek", False) else game.nweek + 1
        return durations.Due(nweek=nweek, nday=when.nday, edge="start")
    if when.kind == "nweek":
        if when.nweek is not None and when.nweek <= game.nweek:
            raise Rejected(f"nweek {when.nweek} has begun already (it is nweek {game.nweek})", rule="4E7")
        return durations.Due(nweek=when.nweek or game.nweek + 1, nday=1, edge="start")
    at = when.at if when.kind != "daytime" else _daytime(ctx, when)
    if at <= ctx.at:
        raise Rejected(f"{at:%Y-%m-%d %H:%M} UTC has already passed", rule="4E7")
    return durations.Due(at=at)


def _daytime(ctx: Context, when: grammar.When) -> datetime:
    """Rule 4E7: "at 18:00 UTC" is its next occurrence after the message; "today" and
    "tomorrow" are the message's UTC day and the next (the message's time, never the
    wall clock)."""
    hh, mm = (int(x) for x in when.time.split(":"))
    if getattr(when, "month", None) is not None:       # "on 25 November": its next occurrence (UTC)
        for year in (ctx.at.year, ctx.at.year + 1, ctx.at.year + 4):
            try:
                at = datetime(year, when.month, when.mday, hh, mm, tzinfo=timezone.utc)
            except ValueError:                          # 29 February of a year without one
                continue
            if at > ctx.at:
                return at
    days = when.day or 0
    if getattr(when, "weekday", None) is not None:     # "on Tuesday": the next Tuesday (UTC)
        days = (when.weekday - ctx.at.weekday()) % 7
    at = durations.midnight_floor(ctx.at) + timedelta(days=days, hours=hh, minutes=mm)
    if when.day is None and at <= ctx.at:
        at += timedelta(days=7 if getattr(when, "weekday", None) is not None else 1)
    return at


def schedule_reading(ctx: Context, reading: grammar.Reading, position: int) -> Outcome:
    """Put a post's scheduled action on the Doctor's schedule."""
    try:
        due = due_of(ctx, reading.when)
    except Rejected as e:
        return Outcome.create(entry=ctx.entry, position=position, action=reading.spec.name,
                              text=reading.text, accepted=False, reason=e.reason, rule=e.rule)
    text = grammar.split_when(grammar._UNDER_INTENT.sub("", reading.text))[1]
    # "at 09:00 UTC on nday 11": due when nday 11 begins, then at that time of its UTC day
    daytime = reading.when.time if reading.when.kind == "nday" else None
    # the action as read now is what happens when it falls due (pinned, issue 13)
    row = durations.schedule(ctx, due, "scheduled_action", None, sender=ctx.post.sender,
                             text=text, entry=ctx.entry, position=position,
                             message_id=ctx.post.message_id,
                             reading=pinned.to_json([replace(reading, text=text, when=None)]),
                             **({"daytime": daytime} if daytime else {}))
    if daytime:
        row.args = {**row.args, "deadline_id": row.id}     # (the row it moves on to that time)
        row.save()
    return Outcome.create(entry=ctx.entry, position=position, action=reading.spec.name,
                          text=reading.text, accepted=True, rule="4E7",
                          reason=f"scheduled for {due.describe()}" + (f", at {daytime} UTC" if daytime else "")
                                 + f" as #{row.id} (cancel it with "
                                 f"\"I cancel my scheduled action #{row.id}\")")


def actions_in(text: str) -> list[grammar.Reading]:
    """The actions a scheduled sentence holds, read whole (the time already cut)."""
    return [r for r in grammar.read_sentence(grammar.normalise(text)) if r.kind == "action"]


@deadline("scheduled_action")
def scheduled_action(ctx: Context, sender: str, text: str, entry: int, position: int,
                     message_id: str, deadline_id: int | None = None, reading: str | None = None,
                     part: int = 0, daytime: str | None = None) -> None:
    """Rule 4E7: the scheduled action takes place now, as its author wrote it and
    as it was read when scheduled (`reading`, pinned; a deadline from before
    readings were pinned has none: its sentence is read now, and its `part`-th
    action done). One said at a UTC time of an nday (`daytime`, "09:00") is due
    first when that nday begins: it then moves on to that time of the UTC day."""
    if daytime is not None and deadline_id is not None:
        at = _daytime(ctx, grammar.When("daytime", time=daytime, day=0))    # that time of today's UTC day
        if at > ctx.at:
            row = Deadline.get_by_id(deadline_id)
            row.due_at, row.nweek, row.nday, row.state = at, None, None, "pending"
            row.args = {k: v for k, v in row.args.items() if k != "daytime"}
            row.save()
            ctx.record("schedule", f"scheduled action #{row.id} is now due "
                       f"{durations.Due(at=at).describe()}", rule="4E7", deadline=row.id, action=row.action)
            return
    ctx.post = Post(sender=sender, subject="", text=text, at=ctx.at, message_id=message_id)
    ctx.entry = entry
    if reading is not None:
        (reading,) = pinned.from_json(reading)
        if isinstance(reading, pinned.Lost):
            Outcome.create(entry=entry, position=position, action=reading.action,
                           text=f"(scheduled) {text}", accepted=False, reason=reading.error, rule="4E7")
            return
    else:
        readings = actions_in(text)
        if part >= len(readings):
            return
        reading = readings[part]
    if reading.spec is None:
        return
    done, refusal = perform(ctx, reading.spec, reading.args, reading.times)
    o = Outcome.create(entry=entry, position=position, action=reading.spec.name,
                       text=f"(scheduled) {text}", accepted=done > 0,
                       reason=(refusal.reason if refusal else f"done at {ctx.at:%Y-%m-%d %H:%M} UTC"),
                       rule=refusal.rule if refusal else reading.spec.rule)
    # Rule 4E7: its author is told, in reply to the message that scheduled it (the mailer's receipt)
    ctx.record("scheduled_done", f"{sender}'s scheduled action “{text}” "
               f"{'was done' if o.accepted else 'was refused: ' + o.reason}", rule=o.rule,
               sender=sender, message_id=message_id, outcome=o.id, accepted=o.accepted,
               text=text, reason=o.reason)


# what a scheduled action is called by its kind ("my scheduled give", "the scheduled
# payment"): the actions of that kind
_KINDS = {"give": "give", "giving": "give", "gift": "give", "gifts": "give", "payment": "give",
          "payments": "give", "vote": "vote", "votes": "vote", "transfer": "transfer_sock",
          "resignation": "resign_ministry", "resignations": "resign_ministry",
          "assignment": "assign_ministry", "withdrawal": "withdraw", "submission": "submit",
          "forfeit": "forfeit", "forfeiture": "forfeit", "exchange": "exchange",
          "objection": "object", "announcement": "intend", "punishment": "punish_trick",
          "reinforcement": "reinforce_trick", "support": "support", "usurpation": "usurp"}


def _of_kind(row, kind: str) -> bool:
    """Whether a scheduled action's pinned reading is an action of that kind (its name
    begins so: "submit" is any submission)."""
    return any(r.spec is not None and r.spec.name.startswith(kind)
               for r in pinned.from_json(row.args.get("reading") or "[]"))


def _fitting(mine: dict, what: str | None, answered: str, kind: str | None = None) -> dict:
    """Of a Player's scheduled actions, those the mail answers, then those of the kind
    said, then those whose action's words hold every word said of it; where none fits,
    all of them (the refusal lists them)."""
    out = mine
    if answered:
        out = {n: r for n, r in out.items() if r.args.get("message_id") == answered} or out
    if kind:
        out = {n: r for n, r in out.items() if _of_kind(r, kind)} or out
    said = set(re.findall(r"[a-z0-9]+", (what or "").lower())) - {"the", "a", "my", "to", "on", "of", "for"}
    if said:
        out = {n: r for n, r in out.items()
               if said <= set(re.findall(r"[a-z0-9]+", str(r.args.get("text", "")).lower()))} or out
    return out


def scheduled_by(player: Player):
    addresses = {a.address for a in player.addresses}
    rows = (Deadline.select().where(Deadline.action == "scheduled_action",
                                    Deadline.state == "pending").order_by(Deadline.id))
    return [r for r in rows if r.args.get("sender") in addresses]


@action("cancel_scheduled",
        # Rule 4E7: a scheduled action's author may cancel it before it happens
        frame("cancel|withdraw|drop|abandon|call off|revoke|unschedule|delete|retract|rescind|scratch",
              role("number:scheduled", {"all": "all", "all of": "all", "every": "all", "each": "all",
                                        "each of": "all", "all the": "all"}),
              role("kind:choice?", _KINDS),          # "my scheduled give", "that scheduled vote"
              # "the scheduled gift to Chuck", "... resignation from ...", "my scheduled vote against 16"
              "what:text[to|on|of|for|from|against|about|regarding]?",
              also="scheduled action actions order quoted",
              needs="scheduled"),                                    # "I cancel that scheduled payment"
        rule="4E7", example="I cancel my scheduled action #4", says="cancel scheduled action {number}",
        not_actions=("I cancelled my scheduled action #4 yesterday", "Wooble cancels scheduled action #4",
                     "Should I cancel scheduled action #4?"))
def cancel_scheduled(ctx: Context, actor: Player, number: str, what: str | None = None,
                     kind: str | None = None) -> None:
    """Rule 4E7: the author of a scheduled action may cancel it before it happens. One
    named by words, not number, is the one of theirs those words fit: the one the mail
    answers ("I cancel that scheduled gift"), the one whose action names what is said
    ("... the scheduled gift to Chuck", "my scheduled vote on 16")."""
    mine = {r.id: r for r in scheduled_by(actor)}
    if number == "all":                 # "I cancel all my scheduled actions": each of them
        if not mine:
            raise Rejected("you have no pending scheduled actions", rule="4E7")
        for n in sorted(mine):
            durations.cancel(ctx, n, rule="4E7")
        return
    if number in ("mine", "this"):
        mine = _fitting(mine, what, ctx.post.in_reply_to if number == "this" and ctx.post is not None else "", kind)
    if number in ("mine", "this") and len(mine) != 1:      # "my scheduled action"
        raise Rejected(f"you have {len(mine) or 'no'} pending scheduled action{'s' if len(mine) != 1 else ''}"
                       + (f": say which ({', '.join(f'#{n}' for n in mine)})" if mine else ""), rule="4E7")
    if number in ("mine", "this"):
        number = str(next(iter(mine)))
    try:
        wanted = int(number.lstrip("#"))
    except ValueError:
        raise Rejected(f"{number!r} is not a scheduled action's number", rule="4E7") from None
    if wanted not in mine:
        raise Rejected(f"you have no pending scheduled action #{wanted}", rule="4E7")
    durations.cancel(ctx, wanted, rule="4E7")
