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
import json
import logging
import re
from datetime import datetime, timedelta

from ..config import Config
from ..handlers import displays, ministries, players
from ..handlers.context import Context, Rejected
from ..render import render
from ..handlers import clock
from ..store import (
    Checkpoint, Entry, Event, Game, Ministry, Outbox, Outcome, Publication, Subscription, database, versions,
)
from . import headers, receipts, views
from ..handlers.views import Request, view
from .receipts import outbox_message_id, processor_address, unfold
from .inbound import wall_clock

log = logging.getLogger("bnomic.publish")


def list_address(config: Config) -> str:
    fora = config.get("addresses.public_fora") or []
    return fora[0] if fora else processor_address(config)


def display_text(ctx: Context, name: str) -> str:
    """The named Ministry's display as it is now: the view kind "display"
    (mailer/views.py), as `bnomic show display` prints it."""
    return views.render("display", displays.shown(ctx, name))


def _content(text: str) -> str:
    """What changes count: the display without its "As of" line."""
    return "\n".join(line for line in text.splitlines() if not line.startswith("As of "))


def display_mail(name: str, text: str, to: list[str], config: Config, now: datetime,
                 key: str, in_reply_to: str | None = None, entry: int | None = None) -> Outbox:
    title = ministries.title(config, name)
    return Outbox.create(message_id=outbox_message_id("display", key, config), kind="display",
                         to=to, subject=f"[B Nomic] The {title}'s Public Display", body=text,
                         in_reply_to=in_reply_to, references=in_reply_to, entry=entry,
                         queued_at=now, next_attempt_at=now,
                         auto_submitted="auto-replied" if in_reply_to else "auto-generated")


# Each display as it was last gathered: the tables its data was read from, and
# what is compared instead of two tables written all the time: the game row
# without its time of day (`now` moves at every tick; a display shows the date at
# most) and, for a display that shows only Players' names (displays.PLAYER_COLUMNS),
# those columns. A display none of whose other tables has been written since, with
# those the same, is not gathered again (issue 16).
_GATHERED: dict[tuple[int, str], tuple[frozenset, tuple]] = {}


def _game_key() -> str:
    row = Game.select().dicts().get()
    row["now"] = row["now"].date()
    return json.dumps(row, sort_keys=True, default=str)


def _player_key(columns: tuple[str, ...]) -> str:
    cols = ", ".join(f'"{c}"' for c in columns)
    rows = database.execute_sql(f'SELECT {cols} FROM "player" ORDER BY "id"').fetchall()
    return hashlib.sha256(repr(rows).encode()).hexdigest()


def publish_changed(config: Config, now: datetime) -> list[str]:
    """Queue every held, delegated display whose content changed since it was
    last published, unless that was less than the interval ago. A display whose
    data is unchanged since it was last gathered is not gathered again (see
    _GATHERED; the tables written since: versions.take_written)."""
    ctx = Context(Game.get().now, "command")
    interval = timedelta(minutes=int(config.get("displays.min_interval_minutes", 60)))
    written = versions.take_written(database)
    game_key = _game_key()
    player_keys: dict[tuple, str] = {}
    where = id(database.obj)
    published = []
    for name in ministries.ministry_names(config):
        m = Ministry.get_or_none(Ministry.name == name)
        if m is None or m.holder_id is None or not ministries.delegated(ctx, "displays", name):
            _GATHERED.pop((where, name), None)
            continue        # never for a Vacant ministry; not for one whose minister kept it
        columns = displays.PLAYER_COLUMNS.get(name)
        if columns and columns not in player_keys:
            player_keys[columns] = _player_key(columns)
        compared = (game_key, player_keys.get(columns))
        ignored = {"game", "player"} if columns else {"game"}
        seen = _GATHERED.get((where, name))
        if written is not None and seen is not None and seen[1] == compared and not seen[0] & written:
            continue        # nothing it shows has changed since it was gathered and found published
        with versions.reading_tables(database) as read:
            text = display_text(ctx, name)
        gathered = (frozenset(read - ignored), compared)
        digest = hashlib.sha256(_content(text).encode()).hexdigest()
        last = Publication.get_or_none(Publication.name == name)
        if last is not None and (last.digest == digest or now - last.at < interval):
            if last.digest == digest:
                _GATHERED[(where, name)] = gathered
            else:           # changed, held back by the interval: gathered again next time
                _GATHERED.pop((where, name), None)
            continue
        row = display_mail(name, text, [list_address(config)], config, now,
                           key=f"{name}:{digest}:{now.isoformat()}")
        Publication.insert(name=name, digest=digest, at=now, message_id=row.message_id) \
            .on_conflict_replace().execute()
        _GATHERED[(where, name)] = gathered
        published.append(name)
    return published


_VERB = re.compile(r"\b(?:send|show|give|mail|post)\b", re.I)
_DISPLAY_WORD = re.compile(r"\bdisplay\b", re.I)
_LEAD = re.compile(r"(?:(?:me|us)\s++)?+(?:(?:the|a)\s++)?+", re.I)
def _without_tail(what: str) -> str:
    """"the Registrar's public" -> "the Registrar" (by string ends: no pattern to scan a run
    of spaces at every position)."""
    w = what
    if w.lower().endswith("public") and len(w) > 6 and w[-7].isspace():
        w = w[:-6].rstrip()
    if w.endswith(("'s", "’s")):
        w = w[:-2]
    return w
MAX_NAME = 100          # longer text between the verb and "display" names no display
MAX_REQUESTS = 20       # displays asked for in one message, at most


def requested(text: str) -> list[str]:
    """The displays a message asks for ("please send the Registrar's display"):
    for each verb (send, show, give, mail, post), the words between it and the
    next "display" on its line, at most MAX_NAME characters. One pass, each
    character looked at a bounded number of times: no regular expression here
    can backtrack. At most MAX_REQUESTS."""
    found, pos, word = [], 0, None
    end = last_nl = 0
    while len(found) < MAX_REQUESTS and (verb := _VERB.search(text, pos)) is not None:
        if word is None or word.start() < verb.end():
            word = _DISPLAY_WORD.search(text, verb.end())
            if word is None:
                break
            end = word.start()              # the name ends before the spaces before "display"
            while end > verb.end() and text[end - 1].isspace():
                end -= 1
            last_nl = text.rfind("\n", verb.end(), end)
        if verb.end() <= last_nl:          # this verb's line has no "display"
            pos = last_nl + 1
            continue
        if end - verb.end() > MAX_NAME + 20:    # too far: only a later verb can be near enough
            pos = max(verb.end(), end - MAX_NAME - 30)
            continue
        pos = word.end()
        between = text[verb.end():end]
        if end == word.start() or not between[:1].isspace():
            continue
        what = between.strip()
        what = what[_LEAD.match(what).end():]
        what = _without_tail(what).rstrip()
        if what:
            found.append(what)
    return found


# ------------------------------------------------- requests to the processor

def request_refusal(post, mail, envelope_from: str | None, config: Config,
                    players_only: bool = True, rule: str = "4E7") -> Rejected | None:
    """Why a request to the processor (a digest, a display, a preview) is not
    acted on, or None. The same checks as actions and their receipts: no
    bounce, report, auto-reply, our own X-Loop or mail, nor a forum's own
    address; a sender the auth policy vouches for; with `players_only`, a
    Player's address. Decided from the log alone, so a replay agrees."""
    why = receipts.why_not_answer(mail, envelope_from, config)
    if why:
        forum = why.startswith("mail from a forum")
        return Rejected(f"not acted on: {why}; bnomic takes requests only from a person's "
                        "own mail", rule="4E6" if forum else "4E7")
    if not post.verified:
        return Rejected("not acted on: the receiving mail server did not vouch for the From "
                        "line (no dkim=pass or dmarc=pass in Authentication-Results), so it "
                        "cannot be told who sent it", rule="4E7")
    if players_only and players.player_by_address(post.sender) is None:
        return Rejected(f"only Players can ask this of bnomic; no Player posts from "
                        f"{post.sender}", rule=rule)
    return None


def _outcome(entry: Entry, action: str, post, accepted: bool, reason: str,
             rule: str | None) -> Outcome:
    return Outcome.create(entry=entry.seq, position=1, action=action, text=post.subject or "",
                          accepted=accepted, reason=reason, rule=rule)


def display_request(entry: Entry, mail, post, envelope_from: str | None, config: Config,
                    emit: bool) -> list[Outcome]:
    """"Please send the Registrar's display", to the processor (Rule 4E50: a
    display easily accessible to all Players): each display named goes to the
    Player who asked, as a reply through `receipts.may_reply`. The Outcome says
    what was asked and is the same on replay; the outbox says what was sent."""
    refusal = request_refusal(post, mail, envelope_from, config, rule="4E50")
    ctx = Context(Game.get().now, "command")
    names = []
    if refusal is None:
        for what in requested(post.subject + "\n" + post.text):
            try:
                name = displays.which(ctx, what)
            except Exception:
                continue
            if name not in names:
                names.append(name)
        if not names:
            refusal = Rejected("bnomic knows no Public Display by that name; ask for a "
                               "Ministry's display, e.g. \"the Registrar's display\"", rule="4E50")
    if refusal is not None:
        outcome = _outcome(entry, "display_request", post, False, refusal.reason, refusal.rule)
        if emit:
            receipts.queue_receipt(entry, mail, post, [outcome], envelope_from, config,
                                   now=wall_clock(), private=True)
        return [outcome]
    outcome = _outcome(entry, "display_request", post, True,
                       "display requested: " + ", ".join(names), "4E50")
    if emit:
        answer_requests(entry, mail, post, names, envelope_from, config, now=wall_clock())
    return [outcome]


def answer_requests(entry: Entry, mail, post, names: list[str], envelope_from: str | None,
                    config: Config, now: datetime) -> list[str]:
    """Send each named display to the post's sender, each as one reply that
    `receipts.may_reply` allows; the names sent."""
    ctx = Context(Game.get().now, "command")
    sent = []
    for name in names:
        why = receipts.may_reply(mail, envelope_from, post.sender, config, now)
        if why:
            log.info("entry %s: %s's display not sent to %s: %s", entry.seq, name, post.sender, why)
            continue
        display_mail(name, display_text(ctx, name), [post.sender],
                     config, now, key=f"request:{post.message_id}:{name}",
                     in_reply_to=headers.msg_id(unfold(post.message_id)), entry=entry.seq)
        sent.append(name)
    return sent


def digest_request_outcome(entry: Entry, mail, post, period: str, envelope_from: str | None,
                           config: Config, emit: bool) -> list[Outcome]:
    """"digest daily|weekly|off", to the processor: a Player's own subscription
    (by the address they post from), confirmed by a receipt through
    `receipts.may_reply`. A forum's or the processor's own address, a bounce
    or an unverified sender never subscribes."""
    refusal = request_refusal(post, mail, envelope_from, config)
    if refusal is not None:
        outcome = _outcome(entry, "digest", post, False, refusal.reason, refusal.rule)
    else:
        subscribe(post.sender, period, entry.at)
        outcome = _outcome(entry, "digest", post, True, f"digest {period} for {post.sender}", None)
    if emit:
        receipts.queue_receipt(entry, mail, post, [outcome], envelope_from, config,
                               now=wall_clock(), private=True)
    return [outcome]


def _misdemeanor(e: Event) -> tuple[str, str]:
    return f"[B Nomic] Misdemeanor (Rule {e.rule})", render("notice.txt", event=e)


def _ballot(e: Event) -> tuple[str, str]:
    return (f"[B Nomic] Ballot for nweek {e.data['nweek']}",
            render("ballot.txt", event=e, d=e.data))


def _results(e: Event, tally: Event | None = None) -> tuple[str, str]:
    tally = tally or Event.get_by_id(e.data["tally"])
    return (f"[B Nomic] Results of the voting of nweek {tally.data['nweek']}",
            render("results.txt", event=tally, d=tally.data))


def results_mails(e: Event, config: Config) -> list[tuple[str, str]]:
    """Rule 4E15's results as mailed: one mail when it is short; above
    `displays.results_full_above_chars`, a summary first (each proposal's outcome
    and counts, the score changes) and every vote in a second mail."""
    tally = Event.get_by_id(e.data["tally"])    # (read once: a busy nweek's is megabytes of JSON)
    subject, full = _results(e, tally)
    if len(full) <= int(config.owned("displays.results_full_above_chars")):
        return [(subject, full)]
    votes_subject = f"{subject}: every vote"
    summary = render("results_summary.txt", event=tally, d=tally.data, votes_subject=votes_subject)
    return [(subject, summary), (votes_subject, full)]


def _emergency(e: Event) -> tuple[str, str]:
    return (f"[B Nomic] State of Emergency: {e.summary[:80]}",
            render("emergency.txt", event=e, d=e.data))


def _trick(e: Event) -> tuple[str, str]:
    what = ("a Trick is due: the mode of selection" if e.kind == "trick_due"
            else "the Trick drawn")
    return (f"[B Nomic] The Beast, nweek {e.data['nweek']} nday {e.data['nday']}: {what}",
            render("trick.txt", event=e, d=e.data))


# the events the rules make public, and how each reads as a mail to the list
PUBLISHED = {"misdemeanor": _misdemeanor,       # Rule 4E56
             "ballot": _ballot,                 # Rules 4E14, 4E15, for the Chairman
             "results": _results,               # Rule 4E15, for the Chairman
             "emergency": _emergency,           # Rule 4E0: the Procedure's steps, to the PEPs
             "emergency_ballot": _emergency,    # Rule 4E0, step 6
             "emergency_count": _emergency,     # Rule 4E0, step 8
             "trick_due": _trick,               # Rule 4E71: the mode of selection, announced
             "trick_draw": _trick}              # Rule 4E71: the draw, for the Ranger


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
            mails = results_mails(e, config) if e.kind == "results" else [published_mail(e)]
            to = [list_address(config)]
            if e.data.get("forum") and "@" in e.data["forum"] and e.data["forum"] not in to:
                to.append(e.data["forum"])          # Rule 4E0: the Emergency Forum too
            for i, (subject, body) in enumerate(mails):
                # the first keeps the one Message-ID; the second (every vote) answers it
                this = mid if i == 0 else outbox_message_id("notice", f"event-{e.seq}-{e.summary}-{i}",
                                                            config)
                Outbox.create(message_id=this, kind="notice" if e.kind == "misdemeanor" else e.kind,
                              to=to, subject=subject, body=body, queued_at=now,
                              in_reply_to=None if i == 0 else mid, references=None if i == 0 else mid,
                              next_attempt_at=now, auto_submitted="auto-generated")
    if events:
        Checkpoint.insert(source="notices", last_uid=events[-1].seq, updated_at=now).on_conflict(
            conflict_target=[Checkpoint.source],
            update={Checkpoint.last_uid: events[-1].seq, Checkpoint.updated_at: now}).execute()
    return len(events)


def scheduled_receipts(config: Config, now: datetime) -> int:
    """A receipt to the author of each scheduled action that took place (Rule 4E7),
    threaded under the message that scheduled it (In-Reply-To, References), once
    each, through the one reply gate (`receipts.may_reply`)."""
    from ..store import Message
    from . import parse
    mark = Checkpoint.get_or_none(Checkpoint.source == "scheduled_receipts")
    after = mark.last_uid if mark else 0
    events = list(Event.select().where(Event.kind == "scheduled_done", Event.seq > after)
                  .order_by(Event.seq))
    for e in events:
        message = Message.get_or_none(Message.entry == e.entry) if e.entry else None
        mid = outbox_message_id("receipt", f"scheduled-{e.seq}-{e.data.get('message_id')}", config)
        if message is None or Outbox.select().where(Outbox.message_id == mid).exists():
            continue
        mail = parse.parse(bytes(message.raw))
        sender = e.data.get("sender") or message.sender
        to = receipts.receipt_address(_Sender(sender), config)
        why = receipts.may_reply(mail, message.envelope_from, to, config, now)
        if why:
            log.info("event %s: no receipt for a scheduled action to %s: %s", e.seq, to, why)
            continue
        answered = headers.msg_id(unfold(e.data.get("message_id") or message.message_id))
        references = " ".join(headers.msg_ids(parse.header(mail, "References") + " " + (answered or "")))
        subject = parse.one(mail.subject)
        body = render("scheduled_receipt.txt", event=e, d=e.data,
                      message_id=headers.text(message.message_id, limit=250),
                      subject=headers.text(subject))
        Outbox.create(message_id=mid, kind="receipt", to=[to], subject=receipts.reply_subject(subject),
                      body=body, in_reply_to=answered, references=references,
                      auto_submitted="auto-replied", entry=e.entry, queued_at=now, next_attempt_at=now)
    if events:
        Checkpoint.insert(source="scheduled_receipts", last_uid=events[-1].seq, updated_at=now).on_conflict(
            conflict_target=[Checkpoint.source],
            update={Checkpoint.last_uid: events[-1].seq, Checkpoint.updated_at: now}).execute()
    return len(events)


class _Sender:
    """What `receipts.receipt_address` reads of a post: its sender."""

    def __init__(self, sender: str):
        self.sender = sender


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


def subscribers(period: str, config: Config) -> list[str]:
    """The addresses that get a digest of this period: each a current Player's
    address, never a forum's or the processor's own (a subscription stored
    before these checks, or whose player left, is skipped)."""
    never = receipts.forum_addresses(config) | {processor_address(config), list_address(config).lower()}
    found = []
    for s in Subscription.select().where(Subscription.period == period).order_by(Subscription.address):
        address = s.address.strip().lower()
        if address in never or address in found or players.player_by_address(address) is None:
            continue
        found.append(address)
    return found


def _queue_digest(key: str, to: str, subject: str, text: str, config: Config, now: datetime) -> bool:
    """One digest mail, once: a second call with the same key queues nothing."""
    mid = outbox_message_id("digest", key, config)
    if Outbox.select().where(Outbox.message_id == mid).exists():
        return False
    Outbox.create(message_id=mid, kind="digest", to=[to], subject=subject, body=text,
                  queued_at=now, next_attempt_at=now)
    return True


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
    digests when an nweek has ended. The first call only sets the marks. The
    list's summary never depends on any subscription."""
    queued = 0
    day = now.date().toordinal()
    daily = _mark("digest:daily")
    if daily is None:
        _set_mark("digest:daily", day, now)
    elif day > daily.last_uid:
        since = daily.updated_at
        to = subscribers("daily", config)
        if to:
            text = digest_text(config, since, now, "Daily digest")
            for address in to:
                queued += _queue_digest(f"daily:{day}:{address}", address,
                                        f"[B Nomic] Daily digest, {now:%Y-%m-%d}", text, config, now)
        _set_mark("digest:daily", day, now)
    nweek = Game.get().nweek
    weekly = _mark("digest:nweek")
    if weekly is None:
        _set_mark("digest:nweek", nweek, now)
    elif nweek > weekly.last_uid:
        title = f"Summary of nweek {weekly.last_uid}" if nweek == weekly.last_uid + 1 else \
            f"Summary of nweeks {weekly.last_uid} to {nweek - 1}"
        text = digest_text(config, weekly.updated_at, now, title)
        for address in [list_address(config)] + subscribers("weekly", config):
            queued += _queue_digest(f"nweek:{nweek}:{address}", address, f"[B Nomic] {title}",
                                    text, config, now)
        _set_mark("digest:nweek", nweek, now)
    return queued


# The view kinds of what bnomic published (`bnomic show ballot|results`), kept here with
# the mail they were published as
def _published(kind: str):
    def build(ctx: Context, request: Request) -> dict:
        """The Ballot or the results bnomic published (for nweek N), as the list got them."""
        nweek = None
        if request.what:
            try:
                nweek = int(request.what)
            except ValueError:
                raise Rejected(f"give the nweek as a number, not {request.what!r}") from None
        event = latest(kind, nweek)
        if event is None:
            raise Rejected(f"no {kind} has been published by bnomic" + (f" in nweek {nweek}" if nweek else ""))
        subject, body = published_mail(event)
        return {"subject": subject, "text": body, "event": event.seq,
                "data": (event.data if kind == "ballot" else Event.get_by_id(event.data["tally"]).data)}
    return build


view("ballot", template="show_published.txt")(_published("ballot"))
view("results", template="show_published.txt")(_published("results"))
