"""Receipts: telling each sender what their message did, and never starting a
mail loop. A receipt is queued in the outbox in the same transaction that
applies the message, so a crash can neither lose nor double it."""
from __future__ import annotations

import hashlib
import re
from datetime import datetime, timedelta

from ..config import Config
from ..render import render
from ..store import Deadline, Entry, Message, Outbox
from . import parse

LOOP_TAG = "bnomic"


def processor_address(config: Config) -> str:
    return (config.get("addresses.processor") or "bnomic@localhost").lower()


def loop_id(config: Config) -> str:
    """What bnomic puts in X-Loop, and recognises there."""
    return processor_address(config)


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
    local = sender.split("@")[0]
    if local in ("mailer-daemon", "postmaster") or local.startswith("owner-") or local.endswith("-request"):
        return f"mail from {sender}"
    return None


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
    subject = unfold(subject) or "(no subject)"
    return subject if re.match(r"(?i)^re:", subject) else f"Re: {subject}"


def sent_today(sender: str, day: datetime) -> int:
    """Receipts queued today for mail from this sender (wherever they went)."""
    start = day.replace(hour=0, minute=0, second=0, microsecond=0)
    return (Outbox.select().join(Message, on=(Outbox.entry == Message.entry))
            .where(Outbox.kind == "receipt", Outbox.queued_at >= start,
                   Outbox.queued_at < start + timedelta(days=1), Message.sender == sender)
            .count())


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


def queue_receipt(entry: Entry, mail, post, outcomes, envelope_from: str | None,
                  config: Config, now: datetime, preview: bool = False) -> Outbox | None:
    """Queue the receipt for a processed message, if it had actions and may be answered."""
    if not outcomes or why_not_answer(mail, envelope_from, config):
        return None
    if config.get("receipts.to", "sender") == "list" and config.get("addresses.public_fora") \
            and not preview:
        to = [config["addresses.public_fora"][0]]
    else:
        to = [post.sender]
    cap = int(config.get("receipts.daily_cap", 20))
    already = sent_today(post.sender, now)
    if already >= cap:
        return None
    references = " ".join(x for x in (unfold(parse.header(mail, "References")), unfold(post.message_id)) if x)
    body = render("receipt_mail.txt", post=post, outcomes=outcomes, entry=entry,
                  last_today=(already == cap - 1), cap=cap, preview=preview,
                  arrival_note=None if preview else arrival_note(entry))
    return Outbox.create(
        message_id=outbox_message_id("receipt", post.message_id, config), kind="receipt",
        to=to, subject=reply_subject(post.subject), body=body, in_reply_to=unfold(post.message_id),
        references=references, auto_submitted="auto-replied", entry=entry.seq,
        queued_at=now, next_attempt_at=now)
