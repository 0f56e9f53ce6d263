"""What bnomic posts for the ministers: each held Ministry's Public Display
when its data changed (Rule 4E50; at most once per `displays.min_interval_minutes`,
and only while its minister leaves that duty to bnomic, Rule 4E45), a display
sent on request, a notice to the list of each Misdemeanor (Rule 4E56), and the
Ballot and the results of the voting (Rule 4E15) bnomic publishes for the Chairman.

Publishing is the mailer's: it reads the state and queues outbox rows, never
changes the game.
"""
from __future__ import annotations

import hashlib
import re
from datetime import datetime, timedelta

from ..config import Config
from ..handlers import displays, ministries
from ..handlers.context import Context
from ..render import render
from ..handlers import clock
from ..store import Checkpoint, Entry, Event, Game, Ministry, Outbox, Outcome, Publication, Subscription
from .receipts import outbox_message_id, processor_address, unfold


def list_address(config: Config) -> str:
    fora = config.get("addresses.public_fora") or []
    return fora[0] if fora else processor_address(config)


def render_display(name: str, data: dict) -> str:
    try:
        return render(f"display_{name}.txt", d=data)
    except Exception as e:
        if type(e).__name__ != "TemplateNotFound":
            raise
        return render("display.txt", d=data)


def _content(text: str) -> str:
    """What changes count: the display without its "As of" line."""
    return "\n".join(line for line in text.splitlines() if not line.startswith("As of "))


def display_mail(name: str, text: str, to: list[str], config: Config, now: datetime,
                 key: str, in_reply_to: str | None = None) -> Outbox:
    title = ministries.title(config, name)
    return Outbox.create(message_id=outbox_message_id("display", key, config), kind="display",
                         to=to, subject=f"[B Nomic] The {title}'s Public Display", body=text,
                         in_reply_to=in_reply_to, references=in_reply_to, entry=None,
                         queued_at=now, next_attempt_at=now, auto_submitted="auto-generated")


def publish_changed(config: Config, now: datetime) -> list[str]:
    """Queue every held, delegated display whose content changed since it was
    last published, unless that was less than the interval ago."""
    ctx = Context(Game.get().now, "command")
    interval = timedelta(minutes=int(config.get("displays.min_interval_minutes", 60)))
    published = []
    for name in ministries.ministry_names(config):
        m = Ministry.get_or_none(Ministry.name == name)
        if m is None or m.holder_id is None or not ministries.delegated(ctx, "displays", name):
            continue        # never for a Vacant ministry; not for one whose minister kept it
        text = render_display(name, displays.gather(ctx, name))
        digest = hashlib.sha256(_content(text).encode()).hexdigest()
        last = Publication.get_or_none(Publication.name == name)
        if last is not None and (last.digest == digest or now - last.at < interval):
            continue
        row = display_mail(name, text, [list_address(config)], config, now,
                           key=f"{name}:{digest}:{now.isoformat()}")
        Publication.insert(name=name, digest=digest, at=now, message_id=row.message_id) \
            .on_conflict_replace().execute()
        published.append(name)
    return published


# a display's name is short: bounding it (and ending it in a non-space) keeps the scan linear
_REQUEST = re.compile(r"\b(?:send|show|give|mail|post)\b(?:\s++(?:me|us)\b)?\s++(?:the\s++|a\s++)?"
                      r"(?P<what>\S(?:.{0,78}?\S)?)(?:\s*+['’]s)?\s++(?:public\s++)?display\b", re.I)


def requested(text: str) -> list[str]:
    """The displays a message asks for ("please send the Registrar's display")."""
    return [m.group("what") for m in _REQUEST.finditer(text)]


def answer_requests(post, config: Config, now: datetime) -> list[str]:
    """Send each display the post asks for to its sender; the names sent."""
    ctx = Context(Game.get().now, "command")
    sent = []
    for what in requested(post.subject + "\n" + post.text):
        try:
            name = displays.which(ctx, what)
        except Exception:
            continue
        display_mail(name, render_display(name, displays.gather(ctx, name)), [post.sender],
                     config, now, key=f"request:{post.message_id}:{name}",
                     in_reply_to=unfold(post.message_id))
        sent.append(name)
    return sent


def _misdemeanor(e: Event) -> tuple[str, str]:
    return f"[B Nomic] Misdemeanor (Rule {e.rule})", render("notice.txt", event=e)


def _ballot(e: Event) -> tuple[str, str]:
    return (f"[B Nomic] Ballot for nweek {e.data['nweek']}",
            render("ballot.txt", event=e, d=e.data))


def _results(e: Event) -> tuple[str, str]:
    tally = Event.get_by_id(e.data["tally"])
    return (f"[B Nomic] Results of the voting of nweek {tally.data['nweek']}",
            render("results.txt", event=tally, d=tally.data))


def _emergency(e: Event) -> tuple[str, str]:
    return (f"[B Nomic] State of Emergency: {e.summary[:80]}",
            render("emergency.txt", event=e, d=e.data))


# the events the rules make public, and how each reads as a mail to the list
PUBLISHED = {"misdemeanor": _misdemeanor,       # Rule 4E56
             "ballot": _ballot,                 # Rules 4E14, 4E15, for the Chairman
             "results": _results,               # Rule 4E15, for the Chairman
             "emergency": _emergency,           # Rule 4E0: the Procedure's steps, to the PEPs
             "emergency_ballot": _emergency,    # Rule 4E0, step 6
             "emergency_count": _emergency}     # Rule 4E0, step 8


def published_mail(e: Event) -> tuple[str, str]:
    """The subject and text of the mail an event is published as."""
    return PUBLISHED[e.kind](e)


def latest(kind: str, nweek: int | None = None) -> Event | None:
    """The newest event of a published kind (of that nweek), that bnomic mails."""
    rows = Event.select().where(Event.kind == kind).order_by(Event.seq.desc())
    for e in rows:
        if e.data.get("mail", True) and (nweek is None or e.data.get("nweek") == nweek):
            return e
    return None


def notify(config: Config, now: datetime) -> int:
    """Post to the list, once each, what the rules make public: each Misdemeanor
    (Rule 4E56), and the Ballot and the results bnomic published for the Chairman."""
    mark = Checkpoint.get_or_none(Checkpoint.source == "notices")
    after = mark.last_uid if mark else 0
    events = list(Event.select().where(Event.kind.in_(list(PUBLISHED)), Event.seq > after)
                  .order_by(Event.seq))
    for e in events:
        if not e.data.get("mail", True):
            continue            # the Chairman's own message was the publication
        mid = outbox_message_id("notice", f"event-{e.seq}-{e.summary}", config)
        if not Outbox.select().where(Outbox.message_id == mid).exists():
            subject, body = published_mail(e)
            to = [list_address(config)]
            if e.data.get("forum") and "@" in e.data["forum"] and e.data["forum"] not in to:
                to.append(e.data["forum"])          # Rule 4E0: the Emergency Forum too
            Outbox.create(message_id=mid, kind="notice" if e.kind == "misdemeanor" else e.kind,
                          to=to, subject=subject, body=body, queued_at=now,
                          next_attempt_at=now, auto_submitted="auto-generated")
    if events:
        Checkpoint.insert(source="notices", last_uid=events[-1].seq, updated_at=now).on_conflict(
            conflict_target=[Checkpoint.source],
            update={Checkpoint.last_uid: events[-1].seq, Checkpoint.updated_at: now}).execute()
    return len(events)


# ------------------------------------------------------------------ digests

_DIGEST = re.compile(r"\bdigest\s+(?P<period>daily|weekly|off)\b", re.I)


def digest_request(post) -> str | None:
    m = _DIGEST.search(post.subject + "\n" + post.text)
    return m.group("period").lower() if m else None


def subscribe(address: str, period: str, now: datetime) -> None:
    if period == "off":
        Subscription.delete().where(Subscription.address == address).execute()
    else:
        Subscription.insert(address=address, period=period, since=now).on_conflict_replace().execute()


def _mark(source: str):
    return Checkpoint.get_or_none(Checkpoint.source == source)


def _set_mark(source: str, value: int, now: datetime) -> None:
    Checkpoint.insert(source=source, last_uid=value, updated_at=now).on_conflict(
        conflict_target=[Checkpoint.source],
        update={Checkpoint.last_uid: value, Checkpoint.updated_at: now}).execute()


def digest_text(config: Config, since: datetime, until: datetime, title: str) -> str:
    """The period's accepted actions, the Clock, and what is coming."""
    rows = (Outcome.select(Outcome, Entry).join(Entry, on=(Outcome.entry == Entry.seq))
            .where(Entry.at >= since, Entry.at < until, Outcome.accepted == True)  # noqa: E712
            .order_by(Entry.seq, Outcome.position))
    actions = [{"at": r.entry_at, "text": r.text, "rule": r.rule} for r in
               rows.select(Outcome.text, Outcome.rule, Entry.at.alias("entry_at")).objects()]
    ctx = Context(Game.get().now, "command")
    game = ctx.game
    coming = displays.doctor(ctx)
    return render("digest.txt", title=title, since=since, until=until, actions=actions,
                  clock=clock.describe(game, config), coming=coming)


def send_digests(config: Config, now: datetime) -> int:
    """Daily digests once a UTC day; the nweek's summary to the list and weekly
    digests when an nweek has ended. The first call only sets the marks."""
    queued = 0
    day = now.date().toordinal()
    daily = _mark("digest:daily")
    if daily is None:
        _set_mark("digest:daily", day, now)
    elif day > daily.last_uid:
        since = daily.updated_at
        subscribers = [s.address for s in Subscription.select().where(Subscription.period == "daily")]
        if subscribers:
            text = digest_text(config, since, now, "Daily digest")
            for address in subscribers:
                Outbox.create(message_id=outbox_message_id("digest", f"daily:{day}:{address}", config),
                              kind="digest", to=[address], subject=f"[B Nomic] Daily digest, {now:%Y-%m-%d}",
                              body=text, queued_at=now, next_attempt_at=now)
                queued += 1
        _set_mark("digest:daily", day, now)
    nweek = Game.get().nweek
    weekly = _mark("digest:nweek")
    if weekly is None:
        _set_mark("digest:nweek", nweek, now)
    elif nweek > weekly.last_uid:
        title = f"Summary of nweek {weekly.last_uid}" if nweek == weekly.last_uid + 1 else \
            f"Summary of nweeks {weekly.last_uid} to {nweek - 1}"
        text = digest_text(config, weekly.updated_at, now, title)
        to = [list_address(config)] + [s.address for s in
                                       Subscription.select().where(Subscription.period == "weekly")]
        for address in to:
            Outbox.create(message_id=outbox_message_id("digest", f"nweek:{nweek}:{address}", config),
                          kind="digest", to=[address], subject=f"[B Nomic] {title}", body=text,
                          queued_at=now, next_attempt_at=now)
            queued += 1
        _set_mark("digest:nweek", nweek, now)
    return queued
