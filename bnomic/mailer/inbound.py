"""Storing what arrives: the one door every receiver uses (ingest, LMTP, IMAP).

A receiver only stores (invariant 5): the raw bytes go into the log, committed,
before the receiver says OK. A mail that cannot be parsed is stored all the same
under an id derived from its bytes, and answered later by the engine loop.
"""
from __future__ import annotations

from datetime import datetime, timezone

from ..store import Entry, intake, log
from . import parse


def wall_clock() -> datetime:
    """The real time: read only at the edge, never by game logic."""
    return datetime.now(timezone.utc)


def store_raw(raw: bytes, *, source: str, at: datetime | None = None,
              envelope_from: str | None = None, rcpt_tos: list[str] | None = None,
              use_headers_for_time: bool = False) -> tuple[str, Entry | None]:
    """Commit one raw mail to the log. Returns (Message-ID, entry), entry None
    when that Message-ID was already stored.

    Arrival time: `at` if given; else, with use_headers_for_time, the newest
    Received header or the Date; else now. The log never goes back in time.
    """
    mid, address, at = stored_fields(raw, at, envelope_from, use_headers_for_time)
    now = wall_clock()
    entry = log.append_message(raw, mid, address, at or (log.game_time() if use_headers_for_time else now),
                               stored_at=now, source=source, envelope_from=envelope_from,
                               rcpt_tos=rcpt_tos)
    return mid, entry


def stored_fields(raw: bytes, at: datetime | None = None, envelope_from: str | None = None,
                  use_headers_for_time: bool = False) -> tuple[str, str, datetime | None]:
    """(Message-ID, sender address, arrival time or None) as the log stores a mail
    (store_raw: None for the time means the game's present, or now)."""
    try:
        mail = parse.parse(raw)
        mid = parse.message_id(raw, mail)
        _, address = parse.sender(mail)
        if at is None and use_headers_for_time:
            at = parse.arrival_time(mail)
            if at is not None and at > wall_clock():
                at = None       # a time in the future is wrong: never move the game ahead for it
    except Exception:       # unreadable: keep it anyway (nothing is lost)
        mid, address = parse.derived_message_id(raw), ""
    if not address and envelope_from:
        address = envelope_from
    if len(mid) > 250:                  # fits every backend's index (PostgreSQL varchar(255))
        mid = parse.derived_message_id(raw)
    return mid, address[:250], at


def archive_fields(raw: bytes, at: datetime | None = None) -> dict:
    """What `bnomic ingest` needs of an archive's mail, from ONE parse: the
    arrival time its headers give (header_time, to order the archive) and the
    fields stored_fields(raw, at, use_headers_for_time=True) gives."""
    try:
        mail = parse.parse(raw)
    except Exception:
        mail = None
    try:
        header = parse.arrival_time(mail) if mail is not None else None
    except Exception:
        header = None
    when = at
    try:
        if mail is None:
            raise ValueError("unreadable")
        mid = parse.message_id(raw, mail)
        _, address = parse.sender(mail)
        if when is None:
            when = parse.arrival_time(mail)
            if when is not None and when > wall_clock():
                when = None     # a time in the future is wrong: never move the game ahead for it
    except Exception:       # unreadable: keep it anyway (nothing is lost)
        mid, address = parse.derived_message_id(raw), ""
    if len(mid) > 250:
        mid = parse.derived_message_id(raw)
    return {"header_time": header, "message_id": mid, "sender": address[:250], "at": when}


def store_archive(mails: list[tuple[str, bytes, dict]]) -> list[tuple[str, str, Entry | None]]:
    """Commit an archive's mails (where, raw, archive_fields) to the log in one
    durable transaction, in the order given, as store_raw(use_headers_for_time=True)
    would one by one. Returns (where, Message-ID, entry or None) for each."""
    now = wall_clock()
    rows, mids = [], []
    for where, raw, fields in mails:
        mid, address, when = fields["message_id"], fields["sender"], fields["at"]
        mids.append((where, mid))
        rows.append({"raw": raw, "message_id": mid, "sender": address, "at": when,
                     "stored_at": now, "source": f"ingest {where}"})
    floor = log.game_time()
    for row in rows:        # no time: the game's present (each is clamped to the log's last anyway)
        if row["at"] is None:
            row["at"] = floor
    entries = log.append_messages(rows)
    return [(where, mid, entry) for (where, mid), entry in zip(mids, entries)]


def receive(raw: bytes, *, source: str, envelope_from: str | None = None,
            rcpt_tos: list[str] | None = None) -> tuple[str, bool]:
    """What the LMTP/SMTP receiver calls: commit one mail, durably, before it
    answers 250. Returns (what was stored, False when that Message-ID was
    already in the log).

    On SQLite the raw mail goes to the intake spool (store/intake.py) as it
    came, read by nothing: this never waits for the engine's write transaction
    nor for a parse; the engine reads it (spooled_fields) when it drains the
    spool into the log, and the answer is ("arrival #ID", True). The daemon
    commits many such mails at once (mailer/lmtp.Spooler). On PostgreSQL the
    mail is read here and appended to the log directly."""
    now = wall_clock()
    if intake.available():
        (spooled,) = intake.put_arrived([(raw, now, source, envelope_from, rcpt_tos)])
        return f"arrival #{spooled}", True
    mid, address, at = spooled_fields(raw, now, envelope_from)
    entry = log.append_message(raw, mid, address, at, stored_at=now, source=source,
                               envelope_from=envelope_from, rcpt_tos=rcpt_tos)
    return mid, entry is not None


def spooled_fields(raw: bytes, stored_at: datetime, envelope_from: str | None) -> tuple[str, str, datetime]:
    """(Message-ID, sender address, arrival time) of a mail a receiver stored
    at `stored_at`. The mail takes effect when our mail server received it
    (the topmost Received header), not when bnomic stored it: mail the MTA held
    while bnomic was down keeps its place before the midnights it missed. That
    time is bounded by `stored_at` here, and by the game's present when it
    enters the log."""
    try:
        mail = parse.parse(raw)
        mid = parse.message_id(raw, mail)
        _, address = parse.sender(mail)
        at = parse.received_time(mail)
    except Exception:       # unreadable: keep it anyway (nothing is lost)
        mid, address, at = parse.derived_message_id(raw), "", None
    if at is None or at > stored_at:
        at = stored_at
    if not address and envelope_from:
        address = envelope_from
    if len(mid) > 250:
        mid = parse.derived_message_id(raw)
    return mid, address[:250].lower(), at


intake.reader = spooled_fields      # the engine's drain reads spooled mail with it


def header_time(raw: bytes) -> datetime | None:
    """The arrival time a mail's headers give (for ordering an archive)."""
    try:
        return parse.arrival_time(parse.parse(raw))
    except Exception:
        return None
