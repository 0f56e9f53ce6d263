"""Receipts: telling each sender what their message did, and never starting a
mail loop. A receipt is queued in the outbox in the same transaction that
applies the message, so a crash can neither lose nor double it."""
from __future__ import annotations

import dataclasses
import hashlib
import logging
import re
from datetime import datetime, timedelta

from peewee import Value, fn

from ..config import Config
from ..render import render
from ..store import Deadline, Entry, Message, Outbox, hot
from . import headers, parse

LOOP_TAG = "bnomic"

log = logging.getLogger("bnomic.receipts")


def processor_address(config: Config) -> str:
    return (config.get("addresses.processor") or "bnomic@localhost").lower()


def loop_id(config: Config) -> str:
    """What bnomic puts in X-Loop, and recognises there."""
    return processor_address(config)


def forum_addresses(config: Config) -> set[str]:
    """The Public and Discussion Fora's own addresses (Rule 4E6), lower case."""
    return {a.strip().lower() for key in ("addresses.public_fora", "addresses.discussion_fora")
            for a in (config.get(key) or []) if a}


def why_not_answer(mail, envelope_from: str | None, config: Config) -> str | None:
    """Why this mail must get no automatic answer (RFC 3834), or None."""
    if envelope_from == "" or (envelope_from is None and
                               parse.header(mail, "Return-Path").strip() == "<>"):
        return "a bounce (null envelope sender)"
    if mail.message.get_content_type() == "multipart/report":
        return "a delivery or disposition report"
    auto = parse.header(mail, "Auto-Submitted").strip().lower()
    if auto and auto.split(";")[0].strip() != "no":
        return f"Auto-Submitted: {auto}"
    if any(v.strip().lower() == loop_id(config) for v in parse.header_all(mail, "X-Loop")):
        return "our own X-Loop"
    _, sender = parse.sender(mail)
    if not sender:
        return "no sender address"
    if sender == processor_address(config):
        return "our own mail"
    if sender in forum_addresses(config):
        return f"mail from a forum's own address ({sender})"
    local = sender.split("@")[0]
    if local in ("mailer-daemon", "postmaster") or local.startswith("owner-") or local.endswith("-request"):
        return f"mail from {sender}"
    return None


def _day(now: datetime) -> datetime:
    return now.replace(hour=0, minute=0, second=0, microsecond=0)


def _recent_entries(since: datetime):
    """Replies are queued as their entries are processed, in log order, so their
    queue times grow with the entry they answer: the entry index finds the rows
    queued after `since` without reading the rest of the outbox."""
    older = (Outbox.select(Outbox.entry)
             .where(Outbox.entry.is_null(False), Outbox.queued_at < since)
             .order_by(Outbox.entry.desc()).limit(1).scalar())
    return Outbox.entry.is_null(False) if older is None else Outbox.entry >= older


def replies_today(sender: str, now: datetime) -> int:
    """Replies queued this UTC day for mail from this sender, wherever they went.
    A reply is an outbox row that answers a log entry (receipts, display answers,
    and any notice to one sender)."""
    start = _day(now)
    return (Outbox.select(fn.COUNT(Outbox.id)).join(Message, on=(Outbox.entry == Message.entry))
            .where(_recent_entries(start), Message.sender == sender,
                   Outbox.queued_at >= start, Outbox.queued_at < start + timedelta(days=1))
            .scalar())


def replies_this_hour(to_address: str, now: datetime) -> int:
    """Replies queued to this one address in the hour up to now."""
    since = now - timedelta(hours=1)
    return (Outbox.select(fn.COUNT(Outbox.id))
            .where(_recent_entries(since), Outbox.to == Value([to_address], unpack=False),
                   Outbox.queued_at > since, Outbox.queued_at <= now)
            .scalar())


def daily_cap(config: Config) -> int:
    return int(config.get("receipts.daily_cap", 20))


def hourly_cap(config: Config) -> int:
    return int(config.get("receipts.hourly_cap", 10))


def may_reply(mail, envelope_from: str | None, to_address: str, config: Config,
              now: datetime) -> str | None:
    """The one gate every reply passes (receipts, previews, display answers,
    digest confirmations, any notice to one sender): why bnomic must not send
    `mail`'s sender a reply to `to_address` now, or None when it may.

    No reply to what must not be answered (bounces, reports, auto-replies, our
    own X-Loop or mail, a forum's own address: RFC 3834); under the `dkim`
    policy none to a sender the mail server did not vouch for (the From line
    may be forged: the reply would be backscatter); none to our own address;
    at most `[receipts] daily_cap` a UTC day for mail from one sender, and at
    most `[receipts] hourly_cap` in any hour to one recipient address. The
    caps count the outbox rows that answer a log entry, by their queue time."""
    why = why_not_answer(mail, envelope_from, config)
    if why:
        return why
    if not parse.verified(mail, config):
        return "an unverified sender (auth policy dkim: the From line may be forged)"
    to_address = (to_address or "").strip().lower()
    if not to_address:
        return "no address to reply to"
    if headers.address(to_address) is None:
        return f"not a plain mail address: {to_address[:80]!r}"
    if to_address == processor_address(config):
        return "our own address"
    _, sender = parse.sender(mail)
    if replies_today(sender, now) >= daily_cap(config):
        return f"the daily cap of {daily_cap(config)} replies for mail from {sender}"
    if replies_this_hour(to_address, now) >= hourly_cap(config):
        return f"the hourly cap of {hourly_cap(config)} replies to {to_address}"
    return None


def own_mail(mail, config: Config, at: datetime) -> str | None:
    """Why this mail is bnomic's own, echoed back by the list, or None: its From
    is the processor's address, it carries our X-Loop, or its Message-ID is one
    bnomic queued in its outbox by then (the time guard keeps a replay, which
    sees later outbox rows, reading as the live run did)."""
    if any(v.strip().lower() == loop_id(config) for v in parse.header_all(mail, "X-Loop")):
        return "it carries bnomic's X-Loop"
    _, sender = parse.sender(mail)
    if sender and sender == processor_address(config):
        return f"it is from bnomic's own address {sender}"
    mid = parse.one(mail.message_id).strip()
    if mid and _sent_by_then(mid, at):
        return "its Message-ID is one bnomic sent"
    return None


def _sent_by_then(message_id: str, at: datetime) -> bool:
    found = hot.value("sent by then", 'SELECT EXISTS(SELECT 1 FROM "outbox" WHERE ("message_id" = ?) '
                      'AND ("queued_at" <= ?))', (message_id, Outbox.queued_at.db_value(at)))
    if found is hot.NOTHING:
        return Outbox.select().where(Outbox.message_id == message_id, Outbox.queued_at <= at).exists()
    return bool(found)


def is_preview(post, config: Config) -> bool:
    """Mail to the processor's own address with "preview" in the subject: it
    gets the receipt it would get, and changes nothing."""
    return (re.search(r"\bpreview\b", post.subject or "", re.I) is not None
            and processor_address(config) in post.recipients)


def outbox_message_id(kind: str, key: str, config: Config) -> str:
    """A Message-ID fixed at queueing time; equal inputs give the same id."""
    domain = processor_address(config).rpartition("@")[2] or "localhost"
    digest = hashlib.sha256(f"{kind}:{key}".encode()).hexdigest()[:20]
    return f"<{kind}.{digest}@{domain}>"


def unfold(value: str) -> str:
    """A header value on one line (mail-parser keeps folding: CR, LF, tabs)."""
    return " ".join(value.split())


def reply_subject(subject: str) -> str:
    """The receipt's Subject: the mail's, decoded and plain (mailer/headers), "Re: " before it."""
    subject = headers.text(subject) or "(no subject)"
    return subject if re.match(r"(?i)^re:", subject) else headers.text(f"Re: {subject}")


def receipt_address(post, config: Config, private: bool = False) -> str:
    """Where a receipt goes: the sender, or the first Public Forum with
    `[receipts] to = "list"` (the answer to a preview or another request to
    the processor always to the sender)."""
    fora = config.get("addresses.public_fora") or []
    if config.get("receipts.to", "sender") == "list" and fora and not private:
        return fora[0]
    return post.sender


def arrival_note(entry: Entry) -> str | None:
    """When a mail took effect before bnomic stored it (our mail server held it,
    or bnomic was down) and a midnight or a deadline lies between the two, the
    receipt says which time counted (Rule 4E7: actions occur upon reaching the
    forum, in the order they arrived)."""
    message = Message.get_or_none(Message.entry == entry.seq)
    if message is None or message.stored_at is None or message.stored_at <= entry.at:
        return None
    at, stored = entry.at, message.stored_at
    crossed = at.date() != stored.date() or Deadline.select().where(
        Deadline.state == "pending", Deadline.due_at > at, Deadline.due_at <= stored).exists()
    if not crossed:
        return None
    return (f"Taken as arriving at {at:%Y-%m-%d %H:%M} UTC (when your mail server received it), "
            f"not when bnomic stored it ({stored:%Y-%m-%d %H:%M} UTC).")


def read_as(seq: int, outcomes, pins: dict | None = None) -> list[str]:
    """What each outcome's action was read as (its pinned reading), for the receipt to
    echo ("Read as: vote AGAINST on 5"); "" where there is nothing to echo. `pins`:
    the pins by entry, loaded at once by a caller asking for many (the site)."""
    from ..handlers import pinned
    pin = (pins.get(seq) if pins is not None else pinned.load(seq)) if seq else None
    readings = (pin.readings() if pin is not None else None) or []
    out = []
    for o in outcomes:
        position = o.get("position") if isinstance(o, dict) else o.position
        r = readings[position - 1] if position and 0 < position <= len(readings) else None
        out.append(r.read_as if r is not None and r.kind == "action" else "")
    return out


def queue_receipt(entry: Entry, mail, post, outcomes, envelope_from: str | None,
                  config: Config, now: datetime, preview: bool = False,
                  private: bool = False) -> Outbox | None:
    """Queue the receipt for a processed message, if it had actions and `may_reply`
    allows it. `private`: to the sender even with `[receipts] to = "list"`."""
    if not outcomes:
        return None
    to = receipt_address(post, config, private or preview)
    why = may_reply(mail, envelope_from, to, config, now)
    if why:
        log.info("entry %s: no receipt to %s: %s", entry.seq, to, why)
        return None
    cap = daily_cap(config)
    already = replies_today(post.sender, now)
    # Only well-formed msg-ids are answered and referred to (mailer/headers).
    answered = headers.msg_id(unfold(post.message_id))
    references = " ".join(headers.msg_ids(parse.header(mail, "References") + " " + (answered or "")))
    # the subject and Message-ID the receipt quotes, on one line each
    shown = dataclasses.replace(post, subject=headers.text(post.subject),
                                message_id=headers.text(post.message_id, limit=250))
    body = render("receipt_mail.txt", post=shown, outcomes=outcomes, entry=entry,
                  read_as=read_as(entry.seq, outcomes),
                  last_today=(already == cap - 1), cap=cap, preview=preview,
                  arrival_note=None if preview else arrival_note(entry))
    return Outbox.create(
        message_id=outbox_message_id("receipt", post.message_id, config), kind="receipt",
        to=[to], subject=reply_subject(post.subject), body=body, in_reply_to=answered,
        references=references, auto_submitted="auto-replied", entry=entry.seq,
        queued_at=now, next_attempt_at=now)
