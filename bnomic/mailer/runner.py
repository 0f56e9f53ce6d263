"""The engine loop: the one writer that applies the log to the game (invariant 5).

For each unprocessed entry, in arrival order: advance the game to its time,
apply it, queue its receipt (when asked to), and mark it processed, all in one
transaction with everything it changed.

An entry bnomic fails on (an exception outside the per-action savepoints:
reading the mail, its receipt, a template) is parked: its changes are rolled
back, it gets a "parked" outcome, the failure is recorded in the log-side
table `parked`, its sender is told, and the engine goes on to the next entry.
A replay parks it again at the same point without trying it; the operator's
`retry` command (itself a log entry) applies it where that command stands.
"""
from __future__ import annotations

import json
import logging
import urllib.parse
from contextlib import nullcontext
from datetime import datetime, timedelta
from pathlib import Path

from peewee import InterfaceError, OperationalError, SqliteDatabase

from .. import __version__, config as configuration
from ..handlers import engine, grammar, pinned
from ..handlers.context import Context, RetroactiveChange, current_game, game_config
from ..render import render
from ..store import (
    Approval, Entry, Game, Message, hot, ledgers, Outbox, Outcome, Parked, ParsedMail, Pinned, Setup, database, log,
    snapshots,
    upgrade, versions, write_transaction,
)
from . import bounces, headers, parse, parsed, publish, receipts
from .inbound import wall_clock

logger = logging.getLogger("bnomic.engine")

# Failures of the database itself (locked, disk full, gone) are not the entry's
# fault: they are raised to the engine loop, which tries the entry again later.
TRANSIENT = (OperationalError, InterfaceError, MemoryError)

RETRY_VERB = "retry"          # the log command `bnomic parked --retry SEQ` appends
REREAD_VERB = "reread"        # the log command `bnomic reread` appends: a record, nothing to do


def create_game(start: datetime, nweek: int = 1, nday: int = 1, clock_on: bool = False,
                config: dict | None = None, seed: str = "", ruleset: str | None = None) -> Setup:
    """Set up a new game in an empty database (the seed ruleset unless one is given)."""
    upgrade()
    if Setup.select().exists():
        raise FileExistsError("this database already holds a game")
    with write_transaction():
        setup = Setup.create(seed=seed, start_at=start, nweek=nweek, nday=nday,
                             clock_on=clock_on, config=config or configuration.defaults(),
                             advanced_to=start, ruleset=ruleset)
        engine.start_game(setup)
    return setup


def _apply_mail(entry: Entry, emit: bool, message: Message | None = None) -> list[Outcome]:
    """Apply a mail as the entry `entry` (its seq and time): its own, or, for
    an operator's retry, the parked `message`. A failure here parks the entry."""
    message = message or hot.get(Message, entry=entry.seq)
    engine.note_sender(message.entry_id, message.sender)     # (the day's limit asks: Rule 4E7)
    raw = bytes(message.raw)
    config = game_config()
    # parsed at its first apply, its fields kept with the log: a replay reads them (issue 16)
    mail = parsed.of_entry(message.entry_id, raw)
    post = parse.to_post(raw, entry.at, config, mail=mail, rcpt_tos=message.rcpt_tos)
    own = receipts.own_mail(mail, config, entry.at)
    if own:     # the list echoing bnomic's receipts and displays: stored and logged, never read
        return [Outcome.create(entry=entry.seq, position=1, action="own_mail", text=post.subject,
                               accepted=False, reason=f"bnomic's own mail, not read ({own})")]
    bounce = bounces.note(entry, mail, post.sender, message.envelope_from, entry.at)
    if bounce is not None:          # a delivery report naming players' addresses
        return [bounce]
    to_processor = (receipts.processor_address(config) in post.recipients
                    and (post.forum != "public" or not config.get("addresses.public_fora")))
    # Requests to the processor pass the checks actions pass (verification,
    # loops, bounces) and their answers the one reply gate, receipts.may_reply.
    period = publish.digest_request(post) if to_processor else None
    if period:
        return publish.digest_request_outcome(entry, mail, post, period, message.envelope_from,
                                              config, emit)
    if to_processor and publish.requested(post.subject + "\n" + post.text):
        # "please send the Registrar's display", to the processor (Rule 4E50)
        return publish.display_request(entry, mail, post, message.envelope_from, config, emit)
    if receipts.is_preview(post, config):
        refusal = publish.request_refusal(post, mail, message.envelope_from, config,
                                          players_only=False)
        if refusal is not None:     # no preview, and (by the reply gate) no receipt
            return [Outcome.create(entry=entry.seq, position=1, action="preview",
                                   text=post.subject, accepted=False, reason=refusal.reason,
                                   rule=refusal.rule)]
        # the preview's readings are pinned like any post's (its Outcome counts them);
        # the preview itself, in a savepoint rolled back, stores nothing
        engine.post_readings(Context(post.at, "mail", entry.seq, post=post), post, entry.seq)
        previewed = engine.preview_post(post, entry.seq)
        outcome = Outcome.create(entry=entry.seq, position=1, action="preview", text=post.subject,
                                 accepted=True, reason=f"previewed {len(previewed)} action(s); "
                                 "nothing changed")
        if emit:
            receipts.queue_receipt(entry, mail, post, previewed or [outcome.__data__],
                                   message.envelope_from, config, now=wall_clock(), preview=True)
        return [outcome]
    outcomes = engine.apply_post(post, entry.seq)
    if emit:
        receipts.queue_receipt(entry, mail, post, outcomes, message.envelope_from, config,
                               now=wall_clock())
    return outcomes


def process(entry: Entry, emit: bool = False, replay: bool = False,
            keep_snapshot: bool | str = True) -> list[Outcome]:
    """Apply one log entry. With emit, queue the mail it causes (receipts).
    The processed flag is read again under the write lock: when two processes
    race for the same entry, the second finds it done and does nothing.
    An entry that fails is parked (see the module's note); `replay` (a
    rebuild) only records new failures, it never counts retries again.
    A snapshot of the state is taken, when one is due, in the same transaction
    (no other writer's entry can come between the entry and its snapshot)."""
    engine.advance(entry.at)
    try:
        with write_transaction():
            entry = hot.get(Entry, seq=entry.seq)
            if entry.processed:
                return []
            if _may_be_parked(entry.seq) and hot.get_or_none(Parked, entry=entry.seq) is not None:
                # parked before, live: parked again here, untried (the log's truth)
                return _mark_parked(entry)
            if entry.kind == "mail":
                outcomes = _apply_mail(entry, emit)
            else:
                cmd = entry.command.get()
                if cmd.verb == RETRY_VERB:
                    outcomes = _retry(entry, cmd.args, emit, replay)
                elif cmd.verb == REREAD_VERB:
                    outcomes = [_reread_record(entry, cmd.args)]
                else:
                    outcomes = [engine.apply_command(cmd.verb, cmd.args, entry.seq, entry.at)]
            engine.apply_approvals(entry.seq, entry.at)
            hot.update(Entry, {"processed": True}, {"seq": entry.seq})
            if keep_snapshot:
                _keep_snapshot(entry, light_only=keep_snapshot == LIGHT)
        return outcomes
    except RetroactiveChange as change:
        return _simulate_again(entry, change, emit)
    except TRANSIENT:
        raise
    except Exception as error:
        return park(entry, error, emit)


# ------------------------------------------------------------------ parking

def _may_be_parked(seq: int) -> bool:
    """Whether entry `seq` may have been parked: the parked entries (a few: internal
    errors) are read once per write transaction while the table is unchanged
    (store/versions.py), not once per entry (issue 16)."""
    if not versions.active(database):
        return True
    return seq in versions.cached(
        database, "parked entries", ("parked",),
        lambda: frozenset(e for (e,) in database.execute_sql('SELECT "entry" FROM "parked"').fetchall()))


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {' '.join(str(error).split())}"[:2000]


def park(entry: Entry, error: Exception, emit: bool) -> list[Outcome]:
    """Set aside an entry bnomic failed on, so that the game goes on (issue 11).
    Its own changes were rolled back; it gets a "parked" outcome (state, the
    same on every replay), a row in `parked` (log-side: the error, for the
    operator) and, with emit, a notice to its sender."""
    logger.error("entry #%d failed and is parked: %s", entry.seq, _describe(error),
                 exc_info=error)
    now = wall_clock()
    with write_transaction():
        entry = Entry.get_by_id(entry.seq)
        if entry.processed:
            return []
        Parked.insert(entry=entry.seq, error=_describe(error), first_failed_at=now,
                      last_failed_at=now, attempts=1, state="parked").on_conflict_ignore().execute()
        outcomes = _mark_parked(entry)
        if emit and entry.kind == "mail":
            _tell_sender(entry)
    return outcomes


def _mark_parked(entry: Entry) -> list[Outcome]:
    """The state side of parking, the same live and on replay: one outcome and
    the processed flag. Rule 4E7: game actions occur in the order they arrive;
    this one's take effect only when the operator retries it, at that time."""
    outcome = Outcome.create(
        entry=entry.seq, position=1, action="parked",
        text="(the whole message)" if entry.kind == "mail" else "(the command)", accepted=False,
        reason="bnomic failed on this entry (an internal error, not a judgement on it), so "
               "none of it was applied and the game went on; it takes effect only if the "
               "operator retries it, and then as if it arrived at that time", rule="4E7")
    try:
        with database.atomic():
            engine.apply_approvals(entry.seq, entry.at)
    except TRANSIENT:
        raise
    except Exception as e:          # deterministic, so a replay does the same
        logger.error("approvals anchored at parked entry #%d not applied: %s", entry.seq, _describe(e))
    Entry.update(processed=True).where(Entry.seq == entry.seq).execute()
    return [outcome]


def _tell_sender(entry: Entry) -> None:
    """A short notice to the sender of a parked mail, through the one gate every
    reply passes (receipts.may_reply: bounces, auto-replies, loops, an unverified
    sender, the caps), queued on the wall clock. Never raises: a notice that
    cannot be made is not sent."""
    try:
        with database.atomic():
            message = entry.message.get()
            config = game_config()
            mail = parse.parse(bytes(message.raw))
            to = message.sender or message.envelope_from
            now = wall_clock()
            why = receipts.may_reply(mail, message.envelope_from, to, config, now)
            if why:
                logger.info("entry %s: no notice to %s: %s", entry.seq, to, why)
                return
            subject = headers.text(parse.header(mail, "Subject"))
            answered = headers.msg_id(message.message_id)
            body = render("parked_mail.txt", message_id=headers.text(message.message_id, limit=250),
                          subject=subject, at=entry.at, seq=entry.seq)
            Outbox.insert(
                message_id=receipts.outbox_message_id("parked", message.message_id, config),
                kind="receipt", to=[to], subject=receipts.reply_subject(subject), body=body,
                in_reply_to=answered, references=answered or "",
                auto_submitted="auto-replied", entry=entry.seq, queued_at=now,
                next_attempt_at=now).on_conflict_ignore().execute()
    except TRANSIENT:
        raise
    except Exception as e:
        logger.error("no notice for parked entry #%d: %s", entry.seq, _describe(e))


def parked_in_state(seq: int) -> bool:
    """Whether the game (state, so a replay agrees) holds entry `seq` as parked, unapplied."""
    return Outcome.select().where(Outcome.entry == seq, Outcome.action == "parked").exists()


def _retry(entry: Entry, args: list[str], emit: bool, replay: bool) -> list[Outcome]:
    """The operator's retry of a parked entry: apply it now, as the entry
    `entry` (its seq and time), as if it had just arrived (Rule 4E7). If it
    fails again it stays parked and the retry is refused, saying so."""
    def refused(reason: str) -> list[Outcome]:
        return [Outcome.create(entry=entry.seq, position=1, action=RETRY_VERB,
                               text=" ".join([RETRY_VERB, *args]), accepted=False,
                               reason=reason, rule="4E7")]
    try:
        (target,) = [int(a) for a in args]
    except ValueError:
        return refused("give the parked entry's number: retry SEQ")
    if not parked_in_state(target):
        return refused(f"log entry {target} is not parked")
    original = Entry.get_by_id(target)
    try:
        with database.atomic():
            if original.kind == "mail":
                outcomes = _apply_mail(entry, emit, message=original.message.get())
            else:
                cmd = original.command.get()
                outcomes = [engine.apply_command(cmd.verb, cmd.args, entry.seq, entry.at)]
    except (RetroactiveChange, *TRANSIENT):
        raise
    except Exception as error:
        logger.error("retry of parked entry #%d failed again: %s", target, _describe(error),
                     exc_info=error)
        if not replay:
            Parked.update(attempts=Parked.attempts + 1, error=_describe(error),
                          last_failed_at=wall_clock()).where(Parked.entry == target).execute()
        return refused(f"log entry {target} failed again ({type(error).__name__}); it stays parked")
    Outcome.update(action="retried", reason=Outcome.reason + f"; applied later as log entry {entry.seq}") \
        .where(Outcome.entry == target, Outcome.action == "parked").execute()
    Parked.update(state="applied", retried_by=entry.seq).where(Parked.entry == target).execute()
    return outcomes


def _simulate_again(entry: Entry, change: RetroactiveChange, emit: bool) -> list[Outcome]:
    """Rules 4E50, 4E26: record the approved values in the log, anchored at the
    earlier entry, and replay the log from there so every later change is
    simulated on top of them (from the nearest snapshot before the anchor, not
    from entry 1). The approving entry is applied again within the replay."""
    with write_transaction():
        # (ON CONFLICT ... DO UPDATE: PostgreSQL has no INSERT OR REPLACE)
        Approval.insert(entry=entry.seq, anchor=change.anchor_entry, values=change.values,
                        why=change.why).on_conflict(
            conflict_target=[Approval.entry],
            update={Approval.anchor: change.anchor_entry, Approval.values: change.values,
                    Approval.why: change.why}).execute()
    replay_from(change.anchor_entry)
    outcomes = list(Outcome.select().where(Outcome.entry == entry.seq).order_by(Outcome.position))
    if emit and entry.kind == "mail":
        with write_transaction():
            message = entry.message.get()
            raw = bytes(message.raw)
            mail = parse.parse(raw)
            config = game_config()
            receipts.queue_receipt(entry, mail, parse.to_post(raw, entry.at, config, mail=mail,
                                                              rcpt_tos=message.rcpt_tos),
                                   outcomes, message.envelope_from, config, now=wall_clock())
    return outcomes


# ---------------------------------------------------------------- snapshots

SNAPSHOT_EVERY = 100    # entries at most between two checked snapshots (and one at each new nweek)
LIGHT_EVERY = 20        # entries at most between two snapshots (light ones between the checked)
LIGHT = "light"         # process_pending(keep_snapshots=LIGHT): light snapshots only


def code_version() -> str:
    """What made a snapshot: one made by other code is not trusted."""
    return f"bnomic {__version__}; reader {grammar.READER_VERSION}"


def _approvals(upto: int, made_by: int | None = None):
    """The approvals anchored at entries up to `upto`, made by entry `made_by` or earlier
    (in no particular order: the callers sort). Asked at every snapshot: within a write
    transaction the table (a few rows: Rule 4E50's approvals) is read once while it is
    unchanged (store/versions.py), not queried each time (issue 16)."""
    if versions.active(database) and hot.fast():
        rows = versions.cached(database, "approvals and anchors", ("approval",), lambda: tuple(
            database.execute_sql('SELECT "entry", "anchor" FROM "approval"').fetchall()))
        return [entry for entry, anchor in rows
                if anchor <= upto and (made_by is None or entry <= made_by)]
    query = Approval.select(Approval.entry).where(Approval.anchor <= upto)
    if made_by is not None:
        query = query.where(Approval.entry <= made_by)
    return [a.entry for a in query]


def _announces_approval(seq: int) -> bool:
    """Whether entry `seq` announced an intent to Approve a Public Display (Rule 4E50):
    the anchor of that approval, if it comes. Asked after every entry: within a write
    transaction the entries that announced one are read once while the intent table is
    unchanged (store/versions.py; a few rows), not asked for each entry (issue 16)."""
    mark = database.param
    if versions.active(database):
        return seq in versions.cached(
            database, "entries announcing approvals", ("intent",),
            lambda: frozenset(e for (e,) in database.execute_sql(
                f'SELECT "entry" FROM "intent" WHERE "action" = {mark}', ("approve_display",)).fetchall()))
    return database.execute_sql(
        f'SELECT 1 FROM "intent" WHERE "entry" = {mark} AND "action" = {mark} LIMIT 1',
        (seq, "approve_display")).fetchone() is not None


def _keep_snapshot(entry: Entry, light_only: bool = False) -> None:
    """After an entry, inside the transaction that applied it: a checked snapshot
    (with the state digest) after the first entry, at each new nweek and at least
    every SNAPSHOT_EVERY entries; a light one (no digest: its cost does not grow
    with the ledgers) when LIGHT_EVERY entries have passed since the last of either,
    and one after each entry announcing an intent to Approve a Display (Rule 4E50:
    the approval's replay starts there). A replay then applies at most LIGHT_EVERY
    entries before reaching its point, an approval's none before its anchor.
    `light_only` (an approval's replay, inside the daemon's writer): no digest
    here; the next entry applied live takes the checked one that is due."""
    if not snapshots.enabled():
        return
    prev = snapshots.last()
    if prev is not None and prev.seq >= entry.seq:
        return
    if prev is None or current_game().nweek != prev.nweek:
        checked = not light_only
    elif _announces_approval(entry.seq):
        # Rule 4E50: an approval of this display will replay from here (runner._from_anchor)
        last_checked = snapshots.last(checked=True)
        checked = not light_only and (last_checked is None or entry.seq - last_checked.seq >= SNAPSHOT_EVERY)
    elif entry.seq - prev.seq >= min(LIGHT_EVERY, SNAPSHOT_EVERY):
        last_checked = snapshots.last(checked=True)
        checked = not light_only and (last_checked is None or entry.seq - last_checked.seq >= SNAPSHOT_EVERY)
    else:
        return
    snapshots.take(entry.seq, entry.at, code_version(), _approvals(entry.seq), checked=checked)


def replay_from(seq: int) -> None:
    """Replay the log from entry `seq` on (history from there is being rewritten):
    the state is set to the latest trusted snapshot before `seq` (or the one right
    after it, with what is anchored there applied: `_from_anchor`) and the later
    entries applied again; with none, the whole log is replayed (`rebuild`).
    One transaction."""
    with write_transaction():
        snap = _from_anchor(seq)
        if snap is None:
            snap, tables = snapshots.usable(seq - 1, code_version(), _approvals, in_place=True)
            if snap is None:
                rebuild()
                return
            snapshots.drop_after(snap.seq)
            snapshots.restore(snap, tables)
        Entry.update(processed=False).where(Entry.seq > snap.seq).execute()
        # light snapshots only: the digest a checked one takes grows with the ledgers
        process_pending(emit=False, replay=True, keep_snapshots=LIGHT, keep=False)
        engine.advance(log.game_time())


def _from_anchor(seq: int):
    """Start an approval's replay at its anchor, entry `seq`, without applying that
    entry again: the snapshot right after it, if it holds the state before anything
    was anchored there (it carries exactly the approvals anchored before `seq`),
    restored, then the approvals anchored at `seq` applied, as `process` applies
    them after the entry. The engine keeps a snapshot after every entry that
    announces an intent to approve a display (`_keep_snapshot`), so the replay
    applies only the entries after the anchor. None (nothing changed) when there
    is no such snapshot, the entry was parked, or applying the approvals fails
    (the replay from the snapshot before then does what `process` does)."""
    if not snapshots.enabled() or parked_in_state(seq):
        return None
    carried = sorted(_approvals(seq - 1))
    snap, tables = snapshots.usable(seq, code_version(), lambda s: carried, only_at=seq, in_place=True)
    if snap is None:
        return None
    anchor = Entry.get_by_id(seq)
    try:
        with database.atomic():
            snapshots.drop_after(seq - 1)
            snapshots.restore(snap, tables)
            engine.apply_approvals(seq, anchor.at)
            snapshots.take(seq, anchor.at, code_version(), _approvals(seq), checked=False)
    except TRANSIENT:
        raise
    except Exception as e:
        logger.error("approvals anchored at entry #%d not applied from its snapshot: %s", seq, _describe(e))
        return None
    return snap


def process_pending(emit: bool = False, each=None, replay: bool = False,
                    batch: bool = False, keep_snapshots: bool | str = True,
                    keep: bool = True) -> list[tuple[Entry, list[Outcome]]]:
    """Apply every entry not yet applied, in arrival order, keeping snapshots
    of the state as it goes (see process). `each` is called after every entry
    (the daemon's watchdog ping). With `batch` (`bnomic ingest` of an archive),
    all of them in ONE write transaction: a crash loses the batch's processing,
    never its mail (stored and committed before), and the next run applies it again.
    Returns each entry with its outcomes; without `keep` (a replay, which reads
    none of them) nothing is held: a rebuild of 50,000 entries kept them all."""
    with write_transaction() if batch else nullcontext():
        done = []
        for entry in log.pending():
            outcomes = process(entry, emit, replay, keep_snapshots)
            if keep:
                done.append((entry, outcomes))
            if each is not None:
                each()
    return done


def advance_to(at: datetime, emit: bool = False, each=None) -> None:
    """Advance the game to `at` and remember it. The promise is recorded first:
    anything appended after it is stamped no earlier than `at`, so it is applied
    after the midnights before `at`, live and on replay alike."""
    log.mark_advanced(at)
    process_pending(emit, each, keep=False)
    engine.advance(at)


def rebuild(check_readings: bool = False, reparse: bool = False) -> list[int]:
    """Replay the whole log into empty state tables (invariant 2). Nothing is
    mailed: the outbox keeps what was sent the first time. One transaction: a
    rebuild killed halfway leaves the game exactly as it was (issue 11).
    Mail is applied as its pinned readings say (issue 13), built from its
    stored parsed fields (mailer/parsed.py); with `reparse`, those are dropped
    first and every mail is parsed again from its raw bytes. With
    `check_readings`, each pinned mail is also read by the current reader
    against the state as of its entry; returns the entries whose reading
    would change (the replay still applies the pinned ones)."""
    setup = Setup.get()
    with engine.checking_readings() if check_readings else nullcontext(set()) as changed:
        with write_transaction():
            if reparse:
                parsed.drop_from(1)
            log.reset_state()
            snapshots.drop_all()            # taken again as the replay goes
            engine.start_game(setup)
            process_pending(emit=False, replay=True, keep=False)
            engine.advance(log.game_time())
    return sorted(changed)


# ------------------------------------------------------------ reading again

def reread(first: int, issued_at: datetime) -> dict:
    """`bnomic reread`: read the mail of entries `first` and later again with the
    current reader. On the record: a `reread FIRST VERSION` command is appended
    to the log; their pinned readings (and stored parsed fields) are dropped and
    the log replayed (which parses, reads and pins them anew), all in one transaction. A later replay applies
    the new pins and passes the command by. Returns what `--json` prints."""
    log.drain_intake()
    with write_transaction():
        entry = log.append_command(REREAD_VERB, [str(first), str(grammar.READER_VERSION)],
                                   at=log.game_time(), issued_at=issued_at)
        old = pinned.drop_from(first)
        parsed.drop_from(first)         # and parsed again from their raw bytes
        rebuild()
        new = pinned.pins_from(first)
    changed = [seq for seq, pin in new.items() if seq in old and old[seq].text != pin.text]
    return {"reread": len(new), "changed": changed, "reader": grammar.READER_VERSION,
            "entry": entry.seq}


def _reread_record(entry: Entry, args: list[str]) -> Outcome:
    """The `reread` command's entry on replay: only a record (the readings it
    caused are pinned), the same Outcome every time."""
    first, version = (list(args) + ["?", "?"])[:2]
    return Outcome.create(entry=entry.seq, position=1, action=REREAD_VERB,
                          text=" ".join([REREAD_VERB, *args]), accepted=True,
                          reason=f"the mail of log entries {first} and later was read again, by the "
                                 f"operator, with reader version {version}; those readings are pinned")


# a scratch game reads its ledgers up to its snapshot from the real game, and writes its big
# state tables no table refers to, only when a statement needs them (store/ledgers.py);
# False: writes everything first (the tests compare the two)
HOLD_LEDGERS = True

# the log-side tables a scratch game copies up to its point, and the column naming the entry
_COPIED = (("setup", None), ("log", "seq"), ("message", "entry_id"), ("command", "entry_id"),
           ("parked", "entry"), ("pinned", "entry"), ("approval", "entry"), ("parsedmail", "entry"))


def replay_into(path: str, until_seq: int | None, until_at: datetime | None, each=None,
                from_snapshot: bool | None = None, complete: bool = False, whole_log: bool = False) -> None:
    """Copy the log up to a point (entries up to seq `until_seq`, game time up
    to `until_at`) into a new SQLite game at `path`, replay it there, and leave
    that game open: the state as it stood then, for `bnomic show --as-of`.
    The replay starts from the latest trusted snapshot at or before the point
    (store/snapshots.py), unless `each` is given (the site's captures, called
    after every entry applied, want them all) or `from_snapshot` is False.
    The approvals made by then (Rule 4E50) are copied with the log, except
    with `each`: the site captures every entry as it stood live, so there an
    approval takes effect when the replay reaches the entry that made it.
    The mails' parsed fields are copied only for the entries the replay applies
    and the parked ones (nothing else reads them), unless `complete` (a game of its own, as
    bench/history_game.derive cuts). The scratch file is nobody's record: no
    write-ahead log and no sync (half the cost of copying the log).
    Of the entries up to the snapshot, only those the replay may look up are
    copied (`_looked_up`), so the copy costs what the entries after the snapshot
    need, not the game's length; `whole_log` (or `complete`): all of them (`show
    log` lists them). Nor are the ledgers up to the snapshot copied, nor the big
    state tables no table refers to written (unless `complete`): the real game stays
    attached, read-only, and they are written in when a statement needs them
    (store/ledgers.py)."""
    from ..store import open_database
    seq = until_seq or 0
    real = database.obj
    if from_snapshot is None:
        from_snapshot = each is None
    if not isinstance(real, SqliteDatabase):
        return _replay_into_by_rows(path, seq, until_at, each)
    # the ledgers up to the snapshot left where they are, and the big state tables no table
    # refers to left unwritten, until a statement needs them (store/ledgers.py); the real
    # game attached meanwhile. A game of its own (`complete`) and the site's captures (no
    # snapshot) have them all
    hold = HOLD_LEDGERS and not complete and each is None
    snap, tables = (snapshots.usable(seq, code_version(), lambda s: _approvals(s, made_by=seq),
                                     max_at=until_at, defer=hold)
                    if from_snapshot and seq else (None, None))
    hold = hold and snap is not None
    source = real.database
    open_database(path)
    if not complete:            # before any table exists: a journal in memory, never synced
        database.execute_sql("PRAGMA journal_mode = MEMORY")
        database.execute_sql("PRAGMA synchronous = OFF")
    # a scratch game never restores a snapshot into its own tables: no write counts, no
    # triggers to make or fire (a game of its own, `complete`, has them)
    upgrade(counted=complete)
    start = snap.seq if snap is not None else 0
    # the log is copied inside SQLite (ATTACH): nothing of it passes through Python
    _attach_read_only(source)
    try:
        with write_transaction():
            before = (None if complete or whole_log or each is not None or start == 0
                      else _looked_up(start, seq))
            for table, key in _COPIED:
                if table == "approval" and each is not None:
                    continue        # the site's captures: as it stood live, before any approval
                names = [c.name for c in database.get_columns(table)]
                cols = ", ".join(f'"{c}"' for c in names)
                # the processed flag set as it is copied: the entries up to the snapshot are done
                picked = ", ".join('("seq" <= ?)' if table == "log" and c == "processed" else f'"{c}"'
                                   for c in names)
                where, params = (f'WHERE "{key}" <= ?', [seq]) if key else ("", [])
                if table == "parsedmail" and not complete:
                    # (and a parked entry's: a later retry applies it)
                    where = where + f' AND ("{key}" > ? OR "{key}" IN (SELECT "entry" FROM game."parked"))'
                    params = params + [start]
                elif before is not None and table in _LOOKED_UP:
                    # of the entries up to the snapshot, those the replay may look up (and the
                    # parked ones: a later retry applies them)
                    where = (where + f' AND ("{key}" > ? OR "{key}" IN (SELECT value FROM json_each(?))'
                             f' OR "{key}" IN (SELECT "entry" FROM game."parked"))')
                    params = params + [start, before]
                if table == "log":
                    params = [start, *params]
                database.execute_sql(f'INSERT INTO main."{table}" ({cols}) SELECT {picked} '
                                     f'FROM game."{table}" {where}', params)
            if snap is not None:
                snapshots.restore(snap, tables, ledger_from="game", hold_ledgers=hold)
            else:
                engine.start_game(Setup.get())
        if hold:
            database.obj.statement_guard = guard = ledgers.Guard(
                database.obj, {m._meta.table_name: (k.column_name, snap.ledger.get(m._meta.table_name, 0))
                               for m, k in snapshots.LEDGERS.items()},
                {m._meta.table_name: [f.column_name for f in m._meta.sorted_fields] for m in snapshots.LEDGERS},
                allowed=engine.OUTCOMES_THROUGH_THE_LOG, snapshot=(snap.seq, snap.checksum),
                deferred={name: (t["columns"], t["texts"]) for name, t in tables.items() if "texts" in t})
            guard.install()
    finally:
        if not hold:
            database.execute_sql("DETACH DATABASE game")
    # a scratch game: nothing in it is owed to anyone, so its replay is one
    # transaction (what the engine reads stays cached across entries) and unsynced
    database.execute_sql("PRAGMA synchronous = OFF")
    with write_transaction():
        process_pending(replay=True, each=each, keep_snapshots=False, keep=False)
        target = until_at or log.game_time()
        engine.advance(max(target, Setup.get().start_at))
    if hold and guard.broken is not None:       # (an action's failure may have been refused)
        raise ledgers.ChangedUnderUs(str(guard.broken))


def _attach_read_only(path: str) -> None:
    """Attach the game at `path` as `game`, read-only where SQLite reads URIs (a write
    transaction of the scratch game then takes no lock on it: the daemon's engine need
    not wait for a `show --as-of`), else as it is."""
    uri = "file:" + urllib.parse.quote(str(Path(path).resolve())) + "?mode=ro"
    try:
        database.execute_sql("ATTACH DATABASE ? AS game", (uri,))
    except OperationalError:
        pass
    else:
        found = {name: file for _, name, file in database.execute_sql("PRAGMA database_list").fetchall()}
        if found.get("game") and Path(found["game"]).resolve() == Path(path).resolve():
            return
        database.execute_sql("DETACH DATABASE game")
    database.execute_sql("ATTACH DATABASE ? AS game", (path,))


# the log-side tables of which a scratch game copies, up to its snapshot, only the entries looked up
_LOOKED_UP = ("log", "message", "command", "pinned")


def _looked_up(start: int, seq: int) -> str | None:
    """The entries up to `start` (the snapshot a scratch game starts from) that applying
    entries `start`+1 to `seq` may read, as a JSON list; None when that cannot be told
    (then every entry is copied). In the attached game `game`. What the engine reads of
    earlier entries: those of the same UTC days (Rule 4E7's actions counted per day,
    engine.actions_today) and the mail a mail replies to (its In-Reply-To: vocabulary,
    proposals' "this", consultations). Told from the stored parsed fields, which the
    replay reads too: every mail in the range must have them, of today's parser."""
    mails, fields = database.execute_sql(
        'SELECT (SELECT COUNT(*) FROM game."log" WHERE "seq" > ? AND "seq" <= ? AND "kind" = ?), '
        '(SELECT COUNT(*) FROM game."parsedmail" WHERE "entry" > ? AND "entry" <= ? AND "version" = ?)',
        (start, seq, "mail", start, seq, parsed.VERSION)).fetchone()
    if mails != fields:
        return None
    first, last = database.execute_sql('SELECT MIN("at"), MAX("at") FROM game."log" WHERE "seq" > ? AND "seq" <= ?',
                                       (start, seq)).fetchone()
    if first is None:
        return "[]"
    day = Entry.at.python_value(first).replace(hour=0, minute=0, second=0, microsecond=0)
    end = Entry.at.python_value(last).replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)
    found = [e for (e,) in database.execute_sql(
        'SELECT "seq" FROM game."log" WHERE "at" >= ? AND "at" < ? AND "seq" <= ? '
        'UNION SELECT "entry_id" FROM game."message" WHERE "entry_id" <= ? AND "message_id" IN '
        '(SELECT json_extract("fields", \'$.post.in_reply_to\') FROM game."parsedmail" '
        'WHERE "entry" > ? AND "entry" <= ?)',
        (Entry.at.db_value(day), Entry.at.db_value(end), start, start, start, seq))]
    return json.dumps(found)


def _replay_into_by_rows(path: str, seq: int, until_at: datetime | None, each=None) -> None:
    """replay_into from a game on PostgreSQL: the log's rows up to `seq` go through Python,
    selected by range (never one bound parameter per entry)."""
    from ..store import Command, open_database
    setup = Setup.get().__data__.copy()
    rows = {model: list(model.select().where(key <= seq).order_by(key).dicts())
            for model, key in ((Entry, Entry.seq), (Message, Message.entry),
                               (Command, Command.entry), (Parked, Parked.entry),
                               (Pinned, Pinned.entry), (Approval, Approval.entry),
                               (ParsedMail, ParsedMail.entry))
            if model is not Approval or each is None}
    open_database(path)
    upgrade()
    with write_transaction():
        Setup.insert(setup).execute()
        for model, found in rows.items():
            for row in found:
                model.insert({**row, "processed": False} if model is Entry else row).execute()
        engine.start_game(Setup.get())
    process_pending(replay=True, each=each, keep_snapshots=False, keep=False)
    target = until_at or log.game_time()
    engine.advance(max(target, Setup.get().start_at))
