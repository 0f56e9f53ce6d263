"""The log: appending what arrives, reading it back in order, and emptying the
state tables for a replay. Nothing here interprets a message."""
from __future__ import annotations

from datetime import datetime

from peewee import IntegrityError, SqliteDatabase

from . import hot, intake, writecounts
from .db import database, durable_transaction, write_transaction
from .models import STATE_MODELS, Checkpoint, Command, Entry, Message, Setup


def game_time() -> datetime:
    """The latest instant the game has reached or been promised: no new entry
    may take effect before it (the log's times never go backwards)."""
    setup = Setup.get()
    last = Entry.select(Entry.at).order_by(Entry.seq.desc()).first()
    return max(setup.advanced_to, last.at) if last else setup.advanced_to


def has_message(message_id: str) -> bool:
    return hot.exists(Message, message_id=message_id)       # once per mail stored: SQL made once


def append_message(raw: bytes, message_id: str, sender: str, at: datetime,
                   stored_at: datetime, source: str = "", envelope_from: str | None = None,
                   rcpt_tos: list[str] | None = None) -> Entry | None:
    """Commit a mail to the log; None if its Message-ID is already there.
    `at` is clamped so the log's times never go backwards. Safe to call from
    any thread: receivers only ever append (invariant 5). Mail waiting in the
    intake spool arrived earlier, so it goes into the log first."""
    drain_intake()
    with durable_transaction():       # on disk before the receiver says 250
        return _append_mail(raw, message_id, sender, at, stored_at, source,
                            envelope_from, rcpt_tos)


def append_messages(mails: list[dict]) -> list[Entry | None]:
    """Commit many mails to the log in ONE durable transaction (an archive's
    batch: `bnomic ingest`), in the order given; each dict holds
    append_message's arguments. None for a Message-ID already there. Nothing
    of the batch is stored if it fails (and nothing of it was acknowledged)."""
    drain_intake()
    out = []
    with durable_transaction():
        floor = game_time()
        for m in mails:
            entry = _append_mail(m["raw"], m["message_id"], m["sender"], m["at"], m["stored_at"],
                                 m.get("source", ""), m.get("envelope_from"), m.get("rcpt_tos"),
                                 floor=floor)
            if entry is not None:
                floor = entry.at
            out.append(entry)
    return out


def _append_mail(raw, message_id, sender, at, stored_at, source, envelope_from,
                 rcpt_tos, floor: datetime | None = None) -> Entry | None:
    """`floor`: game_time() if the caller knows it (a batch carries it on)."""
    if has_message(message_id):
        return None
    with database.atomic() as savepoint:
        entry = Entry.create(kind="mail", at=max(at, floor if floor is not None else game_time()))
        try:
            Message.create(entry=entry, message_id=message_id, sender=sender.lower(),
                           raw=raw, stored_at=stored_at, source=source,
                           envelope_from=envelope_from, rcpt_tos=rcpt_tos)
        except IntegrityError:          # a concurrent writer stored it first
            savepoint.rollback()
            return None
    return entry


def drain_intake() -> int:
    """Move the mail the receivers spooled (store/intake.py) into the log: in
    the order our mail server received it, each `at` clamped so the log's times
    never go backwards; a Message-ID already in the log is stored once. The log
    rows are on disk before the spool rows are deleted, so a crash in between
    loses nothing and doubles nothing (the next drain finds them in the log)."""
    moved = 0
    if database.in_transaction():       # the drain commits on its own; the next call outside does it
        return moved
    while True:
        rows = intake.waiting()
        if not rows:
            return moved
        with durable_transaction():
            for r in sorted(rows, key=lambda r: (r.at, r.stored_at, r.table != "intake", r.id)):
                if _append_mail(r.raw, r.message_id, r.sender, r.at, r.stored_at,
                                r.source, r.envelope_from, r.rcpt_tos) is not None:
                    moved += 1
        intake.remove(rows)


def intake_backlog() -> int:
    """Mail answered 250 by a receiver and not yet in the log."""
    return intake.count()


def append_command(verb: str, args: list[str], at: datetime, issued_at: datetime) -> Entry:
    drain_intake()
    with write_transaction():
        entry = Entry.create(kind="command", at=max(at, game_time()))
        Command.create(entry=entry, verb=verb, args=list(args), issued_at=issued_at)
    return entry


def pending(batch: int = 500):
    """Unprocessed entries in arrival order, fetched in batches: no read cursor
    stays open across the commits of processing (it would pin SQLite's WAL).
    What the receivers spooled is taken into the log first."""
    after = 0
    while True:
        drain_intake()
        rows = list(Entry.select()
                    .where(Entry.processed == False, Entry.seq > after)  # noqa: E712
                    .order_by(Entry.seq).limit(batch))
        if not rows:
            return
        yield from rows
        after = rows[-1].seq


def mark_advanced(to: datetime) -> None:
    """Promise that no new entry takes effect before `to`: mail spooled before
    the promise goes into the log first, at its own time."""
    drain_intake()
    Setup.update(advanced_to=to).where(Setup.advanced_to < to).execute()


def reset_state() -> None:
    """Empty every state table and mark the whole log unprocessed (for rebuild)."""
    with write_transaction():
        database.drop_tables(STATE_MODELS)
        database.create_tables(STATE_MODELS)
        if isinstance(database.obj, SqliteDatabase):    # the triggers went with the tables: new epochs
            writecounts.install(lambda sql, params=(): database.execute_sql(sql, params))
        Entry.update(processed=False).execute()


# ------------------------------------------------------ the one writer's mark

ENGINE = "engine"
ENGINE_FRESH_SECONDS = 20


def engine_heartbeat(now: datetime, pid: int) -> None:
    """The daemon's engine says it is alive (invariant 5: one writer)."""
    Checkpoint.insert(source=ENGINE, last_uid=pid, updated_at=now).on_conflict(
        conflict_target=[Checkpoint.source],
        update={Checkpoint.last_uid: pid, Checkpoint.updated_at: now}).execute()


def engine_stopped() -> None:
    Checkpoint.delete().where(Checkpoint.source == ENGINE).execute()


def engine_running(now: datetime) -> bool:
    row = Checkpoint.get_or_none(Checkpoint.source == ENGINE)
    return bool(row and row.updated_at and (now - row.updated_at).total_seconds() < ENGINE_FRESH_SECONDS)
