"""The `bnomic` command line: a contract operators' scripts rely on.

Names of commands, options and JSON keys stay as they are; new ones are added
beside them. Errors are one line on stderr and a non-zero exit.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import secrets
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from .. import __version__, config as configuration
from ..handlers import clock
from ..handlers.context import Rejected, game_config
from ..render import render
from ..store import (
    Command, Entry, Game, Message, Outbox, Outcome, Parked, ParsedMail, Setup,
    StoreError, open_database, state_digest, write_transaction,
)
from ..store import hot, log, migrations, snapshots
from ..store.digest import quick_state_digest
from . import archive, inbound, parse, publish, receipts, runner, views  # noqa: F401  (publish declares the ballot and results views)
from .views import parked_view

DEFAULT_DB = "bnomic.sqlite"


class CLIError(Exception):
    """A problem the operator can fix, said in one line."""


# ------------------------------------------------------------------ helpers

def utc(text: str) -> datetime:
    """An ISO 8601 instant; one without a zone is taken as UTC."""
    try:
        t = datetime.fromisoformat(text.strip().replace(" ", "T") if "T" not in text else text.strip())
    except ValueError:
        raise CLIError(f"not an ISO 8601 time: {text!r} (e.g. 2008-09-01T00:00:00Z)") from None
    return t.replace(tzinfo=timezone.utc) if t.tzinfo is None else t.astimezone(timezone.utc)


def iso(t: datetime | None) -> str | None:
    return None if t is None else t.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def wall_clock() -> datetime:
    return inbound.wall_clock().replace(microsecond=0)


def db_target(args) -> str:
    """--db, else the configuration's [database] path, else $BNOMIC_DB, else the default."""
    if args.db:
        return args.db
    if getattr(args, "config", None):
        path = configuration.load_operator(args.config).get("database", {}).get("path")
        if path:
            return path
    return os.environ.get("BNOMIC_DB") or DEFAULT_DB


def open_game(args, create: bool = False):
    target = db_target(args)
    if "://" not in target and not create and not Path(target).exists():
        raise CLIError(f"no game database at {target}; create one with: bnomic init --db {target}")
    open_database(target)
    try:
        migrations.require_current()
    except migrations.SchemaTooOld as e:
        raise CLIError(f"{e}: stop the daemon, back up, then run: bnomic migrate "
                       f"{migrate_options(args, target)}") from None
    if not create and not Setup.select().exists():
        raise CLIError(f"{target} holds no game; create one with: bnomic init --db {target}")


def shown(target: str) -> str:
    """A database path or URL as printed: a URL's password stays unsaid."""
    parts = urlsplit(target) if "://" in target else None
    if parts is None or not parts.password:
        return target
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(
        f":{parts.password}@", ":PASSWORD@", 1)))


def migrate_options(args, target: str) -> str:
    """How the operator named the game, for the command an error suggests."""
    if not args.db and getattr(args, "config", None):
        return f"--config {args.config}"
    return f"--db {shown(target)}"


def emit(args, data, text: str) -> None:
    if getattr(args, "json", False):
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")


# ----------------------------------------------------------------- commands

def cmd_init(args) -> None:
    cfg = configuration.load(args.config)      # checked before anything is created
    target = db_target(args)
    if "://" in target or (Path(target).exists() and Path(target).stat().st_size > 0):
        open_database(target)
        if Setup.table_exists() and Setup.select().exists():
            if args.if_missing:
                print(f"{target} already holds a game; nothing to do")
                return
            raise CLIError(f"{target} already holds a game; use another --db or remove it")
    open_game(args, create=True)
    start = utc(args.start) if args.start else wall_clock()
    if args.nweek < 1 or not 1 <= args.nday <= cfg["clock"]["ndays_per_nweek"]:
        raise CLIError("--nweek must be at least 1 and --nday between 1 and "
                       f"{cfg['clock']['ndays_per_nweek']}")
    seed = args.seed if args.seed is not None else secrets.token_hex(16)
    ruleset = None
    if args.ruleset:
        try:
            ruleset = Path(args.ruleset).read_text("utf-8")
        except OSError as e:
            raise CLIError(f"cannot read the ruleset {args.ruleset}: {e.strerror}") from None
        from ..ruleset import parse
        if not parse(ruleset):
            raise CLIError(f"{args.ruleset} holds no rules (expected headings like "
                           "\"### Rule 4E14: NTime\")")
    runner.create_game(start, args.nweek, args.nday, args.clock == "on", cfg, seed, ruleset)
    game = Game.get()
    print(f"created a game in {target} at {iso(start)}: "
          f"{clock.describe(game, configuration.Config(cfg))}")
    print(CLOCK_ADVICE_ON if game.clock_on else CLOCK_ADVICE_OFF)


# What init says about the Clock, so that a small game does not sit still unawares.
CLOCK_ADVICE_OFF = (
    "The Clock is Off: the nday goes up at midnight UTC only while it is On (Rule 4E14). "
    "bnomic turns it On for the MoM once no Ministry is Vacant; until then turn it On "
    "yourself: bnomic admin clock on (or create the game with --clock on). Each new nweek "
    "begins with the Clock Off again.")
CLOCK_ADVICE_ON = (
    "The Clock is On: the nday goes up at each midnight UTC (Rule 4E14). Each new nweek, "
    "and the Voting Period, begins with the Clock Off; bnomic turns it On again once no "
    "Ministry is Vacant, else: bnomic admin clock on.")


def cmd_ingest(args) -> None:
    open_game(args)
    forced = utc(args.at) if args.at else None
    raws = [(where, raw) for path in args.files for where, raw in archive.read(path)]
    with parse.keeping(len(raws), INGEST_KEEP_BYTES):
        _ingest(args, forced, raws)


INGEST_KEEP_BYTES = 4 << 20     # of raw mail kept parsed by ingest (about 20 times that in memory)


def _ingest(args, forced, raws) -> None:
    stored = []
    # each mail parsed once here (and kept parsed for applying it, parse.keeping):
    # its header time and the fields the log stores
    mails = [(where, raw, inbound.archive_fields(raw, forced)) for where, raw in raws]
    if forced is None:      # one call's mail goes in in arrival order (its header times)
        mails = [m for _, _, m in sorted(
            ((m[2]["header_time"], i, m) for i, m in enumerate(mails)),
            key=lambda t: (t[0] is None, t[0] or datetime.min.replace(tzinfo=timezone.utc), t[1]))]
    results = {}
    engine_running = log.engine_running(wall_clock())
    # in batches: each batch stored in one durable transaction, then (when no daemon
    # runs) applied in one transaction: an archive is nobody's acknowledged mail
    if args.batch < 1:
        raise CLIError("--batch takes a number of mails, 1 or more")
    for start in range(0, len(mails), args.batch):
        batch = []
        for where, mid, entry in inbound.store_archive(mails[start:start + args.batch]):
            if entry is None:
                print(f"{where}: {mid} is already in the log; skipped")
            else:
                batch.append((where, entry.seq))
        stored += batch
        if not engine_running:
            results.update(apply_or_wait([seq for _, seq in batch], batch=True))
    if engine_running:
        results = apply_or_wait([seq for _, seq in stored])
    for start in range(0, len(stored), args.batch):
        printed = stored[start:start + args.batch]
        # the pinned readings echoed, read per batch in one statement, not one a mail
        from ..handlers import pinned
        pins = pinned.pins_between(min(seq for _, seq in printed), max(seq for _, seq in printed))
        for where, seq in printed:
            at, message_id, sender = _heading(seq)
            print(f"== {where}: {message_id} from {sender or '(no sender)'} "
                  f"at {iso(at)}")
            outcomes = results.get(seq, [])
            sys.stdout.write(render("receipt.txt", outcomes=outcomes, public=True,
                                    read_as=receipts.read_as(seq, outcomes, pins)))


def _heading(seq: int) -> tuple[datetime, str, str]:
    """The time of entry `seq` and its mail's Message-ID and sender, for its receipt's
    heading: in one statement, those columns only (not the raw mail, issue 16)."""
    if hot.fast():
        at, message_id, sender = hot.execute(
            "ingest heading", lambda: 'SELECT "log"."at", "message"."message_id", "message"."sender" '
            'FROM "log" JOIN "message" ON "message"."entry_id" = "log"."seq" WHERE "log"."seq" = ?',
            (seq,)).fetchone()
        return Entry.at.python_value(at), message_id, sender
    message = Message.select(Message.message_id, Message.sender).where(Message.entry == seq).get()
    return hot.get(Entry, seq=seq).at, message.message_id, message.sender


INGEST_BATCH = 250      # mails stored, then applied, per transaction by `bnomic ingest`


def apply_or_wait(seqs: list[int], timeout: float = 60, batch: bool = False) -> dict:
    """Process what was just appended, or, when the daemon's engine is running
    (it is the one writer), wait for it to do so. Returns {seq: [Outcome]}.
    With `batch`, everything pending is applied in one transaction."""
    if not log.engine_running(wall_clock()):
        return {e.seq: outcomes for e, outcomes in runner.process_pending(batch=batch)}
    deadline = time.monotonic() + timeout
    while Entry.select().where(Entry.seq.in_(seqs), Entry.processed == False).exists():  # noqa: E712
        if time.monotonic() > deadline:
            raise CLIError("the running daemon has not processed the new entries yet; "
                           "see bnomic status")
        time.sleep(0.2)
    return {seq: list(Outcome.select().where(Outcome.entry == seq).order_by(Outcome.position))
            for seq in seqs}


def cmd_preview(args) -> None:
    """The receipt a mail would get if it were posted now; nothing changes.
    It runs on a private copy of the game (store.snapshot), so it never holds
    the write lock, and its reading is bounded by the same [limits]."""
    from ..handlers import engine
    from ..store import snapshot
    open_game(args)
    raw = Path(args.file).read_bytes() if args.file != "-" else sys.stdin.buffer.read()
    at = max(utc(args.at), log.game_time()) if args.at else log.game_time()
    with snapshot():
        engine.advance(at)
        post = parse.to_post(raw, at, game_config())
        captured = engine.preview_post(post, None)
    print(f"PREVIEW at {iso(at)}: nothing was changed")
    sys.stdout.write(render("receipt.txt", outcomes=captured, public=True))


def cmd_migrate(args) -> None:
    """Bring an older game database to this bnomic's schema, after a backup (SQLite)."""
    target = db_target(args)
    if "://" not in target and not Path(target).exists():
        raise CLIError(f"no game database at {target}")
    open_database(target)
    version = migrations.current_version()
    if version is not None and version >= 2 and log.engine_running(wall_clock()):
        raise CLIError("a bnomic daemon is running this game; stop it before migrating")
    done = migrations.migrate(wall_clock())
    backup = None if done.backup is None else str(done.backup)
    target = shown(target)
    if done.before is None:
        text = f"{target} was empty: created schema version {done.after}"
    elif done.before == done.after:
        text = f"{target} has schema version {done.after}, this bnomic's: nothing to do"
    else:
        text = (f"backed up {target} (schema version {done.before}) to {backup}\n"
                if backup else f"no backup made of {target} (not a SQLite file: back it up "
                               "with pg_dump)\n")
        text += f"migrated {target} from schema version {done.before} to {done.after}"
    emit(args, {"database": target, "from": done.before, "to": done.after, "backup": backup}, text)


def cmd_tick(args) -> None:
    open_game(args)
    if log.engine_running(wall_clock()):
        raise CLIError("a bnomic daemon is running this game and advances it to now itself")
    until = utc(args.until)
    runner.advance_to(until)
    game = Game.get()
    print(f"advanced to {iso(game.now)}: {clock.describe(game, game_config())}")


def _digest() -> str:
    """state_digest(); on SQLite the same bytes read by plain cursors, each row's
    line kept from the snapshots just taken (store/digest.py)."""
    return quick_state_digest() if snapshots.enabled() else state_digest()


def cmd_rebuild(args) -> None:
    """Replay the log (its mail as the pinned readings say); with --check-readings,
    also list the entries the current reader would read otherwise."""
    from ..handlers import grammar
    open_game(args)
    if log.engine_running(wall_clock()):
        raise CLIError("a bnomic daemon is running this game; stop it before rebuilding")
    before = _digest()
    changed = runner.rebuild(check_readings=args.check_readings, reparse=args.reparse)
    after = _digest()
    entries = Entry.select().count()
    text = (f"rebuilt from {entries} log entries; digest {after}"
            + ("" if before == after else f" (was {before})"))
    data = {"entries": entries, "digest": after, "was": before}
    if args.reparse:
        data["reparsed"] = reparsed = ParsedMail.select().count()
        text += f"\nparsed the raw mail of {reparsed} entr{'y' if reparsed == 1 else 'ies'} again"
    if args.check_readings:
        data.update(changed=changed, reader=grammar.READER_VERSION)
        text += (f"\nreader version {grammar.READER_VERSION} would read "
                 + (f"{len(changed)} entr{'y' if len(changed) == 1 else 'ies'} otherwise: "
                    + ", ".join(f"#{seq}" for seq in changed)
                    + " (applied as pinned; bnomic reread --from SEQ reads them again)"
                    if changed else "every pinned entry as it was read"))
    emit(args, data, text)


def cmd_reread(args) -> None:
    """Read the log's mail again with the current reader, on the record (issue 13)."""
    open_game(args)
    if log.engine_running(wall_clock()):
        raise CLIError("a bnomic daemon is running this game; stop it before reading the log again")
    if args.from_seq < 1:
        raise CLIError("--from takes a log entry's number (1 or more)")
    before = _digest()
    done = runner.reread(args.from_seq, wall_clock())
    after = _digest()
    done.update(digest=after, was=before)
    changed = done["changed"]
    emit(args, done, (
        f"read {done['reread']} entr{'y' if done['reread'] == 1 else 'ies'} again with reader "
        f"version {done['reader']} (recorded as log entry {done['entry']}); "
        + (f"{len(changed)} read otherwise: " + ", ".join(f"#{seq}" for seq in changed)
           if changed else "none read otherwise")
        + f"; digest {after}" + ("" if before == after else f" (was {before})")))


def cmd_parked(args) -> None:
    """Entries bnomic failed on (issue 11), and the operator's retry of one:
    a `retry` command in the log, so that it takes effect now, as if it had
    just arrived, and a replay does the same."""
    open_game(args)
    if args.retry is not None:
        row = Parked.get_or_none(Parked.entry == args.retry)
        if row is None or row.state != "parked":
            raise CLIError(f"log entry {args.retry} is not parked (see bnomic parked)")
        entry = log.append_command(runner.RETRY_VERB, [str(args.retry)], at=log.game_time(),
                                   issued_at=wall_clock())
        outcomes = apply_or_wait([entry.seq])[entry.seq]
        if outcomes and outcomes[0].action == runner.RETRY_VERB and not outcomes[0].accepted:
            raise CLIError(f"refused: {outcomes[0].reason} (see bnomic parked)")
        print(f"log entry {args.retry} applied as log entry {entry.seq}")
        sys.stdout.write(render("receipt.txt", outcomes=outcomes, public=True))
        return
    query = Parked.select().order_by(Parked.entry)
    if not args.all:
        query = query.where(Parked.state == "parked")
    rows = [parked_view(p) for p in query]
    emit(args, rows, "\n".join(
        f"{r['entry']:>5} {r['state']:<7} {r['attempts']} attempt(s), first {r['first_failed_at']}: "
        f"{r['error']}" + (f" (applied as #{r['retried_by']})" if r["retried_by"] else "")
        for r in rows) or "no parked entries")


def as_of(args) -> tempfile.TemporaryDirectory:
    """Open, instead of the game, a scratch copy replayed to --as-of (an ISO 8601
    time or a Message-ID: the state right after that message was applied)."""
    point = args.as_of.strip()
    if "@" in point:
        mid = point if point.startswith("<") else f"<{point}>"
        message = Message.get_or_none(Message.message_id == mid)
        if message is None:
            raise CLIError(f"no message {mid} in the log")
        entry = Entry.get_by_id(message.entry_id)
        until_seq, until_at = entry.seq, entry.at
    else:
        until_at = utc(point)
        if until_at < Setup.get().start_at:
            raise CLIError(f"the game began at {iso(Setup.get().start_at)}, after {point}")
        last = Entry.select().where(Entry.at <= until_at).order_by(Entry.seq.desc()).first()
        until_seq = last.seq if last else 0
    folder = tempfile.TemporaryDirectory(prefix="bnomic-as-of-")
    # `show log` lists every entry; every other view reads only the state
    runner.replay_into(str(Path(folder.name) / "as-of.sqlite"), until_seq, until_at,
                       whole_log=getattr(args, "kind", None) == "log")
    return folder


def cmd_show(args) -> None:
    """Every kind is a view kind (handlers/views.py, mailer/views.py): its builder
    and its template; --json prints its data (a contract)."""
    open_game(args)
    scratch = as_of(args) if args.as_of else None      # noqa: F841  (kept until we return)
    try:
        data, text = views.show(args.kind, views.context(), views.Request(args.what, args.last))
    except Rejected as e:
        raise CLIError(str(e)) from None
    emit(args, data, text)


def _last(newest_first, args) -> list:
    """The rows of a newest-first query, oldest first, cut to --last N if given."""
    if args.last is not None:
        newest_first = newest_first.limit(max(args.last, 0))
    return list(reversed(list(newest_first)))


def cmd_admin(args) -> None:
    open_game(args)
    if args.verb == runner.REREAD_VERB:     # its record is made by `bnomic reread`, which does it
        raise CLIError("to read the log again, use: bnomic reread [--from SEQ]")
    entry = log.append_command(args.verb, args.args, at=log.game_time(), issued_at=wall_clock())
    outcome = apply_or_wait([entry.seq])[entry.seq][0]
    if not outcome.accepted:
        rule = f" (Rule {outcome.rule})" if outcome.rule and outcome.rule != "operator" else ""
        raise CLIError(f"refused: {outcome.reason}{rule}")
    print(outcome.reason)


def cmd_site(args) -> None:
    """The game on the web (issue 17): a static site written to OUTDIR (a link
    to the newest tree, swapped in by a rename); pages that did not change are
    kept as they were. OUTDIR and the options default to the --config file's [site]."""
    from ..site import build
    from ..site.tree import TreeError
    site = configuration.load_operator(args.config).get("site", {}) if args.config else {}
    outdir = args.outdir or site.get("path")
    if not outdir:
        raise CLIError("name the site's folder: bnomic site OUTDIR (or [site] path in --config)")
    open_game(args)
    show = args.show_addresses or bool(site.get("show_addresses", False))
    try:
        done = build.build(outdir, show_addresses=show, title=site.get("title"), fill=not args.no_fill,
                           workers=args.jobs or os.cpu_count() or 1)
    except TreeError as e:
        raise CLIError(str(e)) from None
    index = Path(done["path"]) / "index.html"
    emit(args, done, f"wrote the site to {done['path']}: {done['written']} page(s) written, "
                     f"{done['unchanged']} unchanged; {done['messages']} messages, "
                     f"{done['captured']} state(s) as of a message captured now; open {index}")


def cmd_run(args) -> None:
    from . import logs
    from .daemon import Daemon, DaemonError
    logs.setup(args.verbose)      # one line per event; UTC timestamps unless under journald
    try:
        Daemon(configuration.load_operator(args.config), db_target(args)).run()
    except DaemonError as e:
        raise CLIError(str(e)) from None
    except OSError as e:       # a port in use, a socket path not writable
        raise CLIError(f"cannot start: {e}") from None


def outbox_view(row: Outbox) -> dict:
    """One outbox row as `bnomic outbox --json` gives it (a contract)."""
    return {"id": row.id, "message_id": row.message_id, "kind": row.kind, "to": row.to,
            "subject": row.subject, "body": row.body, "in_reply_to": row.in_reply_to,
            "sent": row.state == "sent", "state": row.state, "attempts": row.attempts,
            "queued_at": iso(row.queued_at), "sent_at": iso(row.sent_at),
            "last_error": row.last_error}


def cmd_outbox(args) -> None:
    open_game(args)
    if args.retry is not None:
        row = Outbox.get_or_none(Outbox.id == args.retry)
        n = (Outbox.update(state="queued", next_attempt_at=None)
             .where(Outbox.id == args.retry, Outbox.state.in_(["failed", "unknown"])).execute())
        if not n:
            raise CLIError(f"outbox row {args.retry} is not failed or unknown")
        print(f"outbox row {args.retry} queued again"
              + ("; it was unknown (interrupted while sending), so if the server did receive "
                 "it the recipient gets it twice" if row.state == "unknown" else ""))
        return
    rows = [outbox_view(r) for r in _last(Outbox.select().order_by(Outbox.id.desc()), args)]
    emit(args, rows, "\n".join(
        f"{r['id']:>5} {r['state']:<7} {r['queued_at']} {r['kind']:<8} to {', '.join(r['to'])}: "
        f"{r['subject']}" + (f"  [{r['last_error']}]" if r["last_error"] else "") for r in rows)
        or "the outbox is empty")


def cmd_status(args) -> int:
    open_game(args)
    last = (Entry.select().where(Entry.processed == True)  # noqa: E712
            .order_by(Entry.seq.desc()).first())
    failing = (Outbox.select().where(Outbox.state.in_(["failed", "unknown"])
                                     | ((Outbox.state == "queued") & (Outbox.attempts > 0)))
               .order_by(Outbox.id).first())
    game = Game.get()
    cfg = game_config()
    status = {
        "last_processed": None if last is None else {
            "seq": last.seq, "kind": last.kind, "at": iso(last.at),
            "message_id": Message.get_by_id(last.seq).message_id if last.kind == "mail" else None},
        "log_backlog": Entry.select().where(Entry.processed == False).count(),  # noqa: E712
        "intake_backlog": log.intake_backlog(),     # answered 250, not yet in the log (store/intake.py)
        "outbox_backlog": Outbox.select().where(Outbox.state == "queued").count(),
        "outbox_oldest_failure": None if failing is None else {
            "id": failing.id, "state": failing.state, "queued_at": iso(failing.queued_at),
            "attempts": failing.attempts, "error": failing.last_error},
        "last_tick": iso(Setup.get().advanced_to),
        "clock": clock.state(game, cfg),
    }
    status.update(health(wall_clock(), args.max_age))
    lines = [
        f"last processed: " + ("nothing yet" if last is None else
                               f"#{last.seq} {status['last_processed']['message_id'] or last.kind} at {iso(last.at)}"),
        f"log backlog:    {status['log_backlog']} unprocessed",
        f"outbox backlog: {status['outbox_backlog']} queued"
        + ("" if failing is None else f"; oldest failure #{failing.id} ({failing.state}, "
           f"{failing.attempts} attempts): {failing.last_error}"),
        f"last tick:      {status['last_tick']}",
        f"clock:          {clock.describe(game, cfg)}",
        health_text(status),
    ]
    add_imap_health(status, lines)
    emit(args, status, "\n".join(lines))
    return 0 if status["healthy"] else 1


def health(now: datetime, max_age: float) -> dict:
    """What a monitoring check needs (issue 11): the engine's heartbeat, the
    parked entries and four checks; `healthy` is False when any fails, and
    `bnomic status` then exits 1. Keys are a contract: add, never rename."""
    from ..store import Checkpoint
    beat = Checkpoint.get_or_none(Checkpoint.source == log.ENGINE)
    age = None if beat is None or beat.updated_at is None else (now - beat.updated_at).total_seconds()
    heartbeat = None if age is None else {"at": iso(beat.updated_at), "age_seconds": round(age),
                                          "pid": beat.last_uid}
    checks = {}
    if heartbeat is None:
        checks["engine"] = {"ok": True, "detail": "no daemon is running (no heartbeat)"}
    elif age < log.ENGINE_FRESH_SECONDS:
        checks["engine"] = {"ok": True, "detail": f"heartbeat {round(age)}s ago (pid {beat.last_uid})"}
    else:
        checks["engine"] = {"ok": False, "detail": f"heartbeat {round(age)}s old: the engine of "
                            f"pid {beat.last_uid} is hung or died"}
    oldest = (Entry.select().where(Entry.processed == False)  # noqa: E712
              .order_by(Entry.seq).first())
    if oldest is None:
        checks["backlog"] = {"ok": True, "detail": "every log entry is processed"}
    else:
        row = (Message if oldest.kind == "mail" else Command).get_by_id(oldest.seq)
        stored = row.stored_at if oldest.kind == "mail" else row.issued_at
        waited = (now - stored).total_seconds()
        checks["backlog"] = {"ok": waited <= max_age, "detail": (
            f"the oldest unprocessed entry, #{oldest.seq}, has waited {round(waited)}s")}
    stuck_after = now - timedelta(seconds=max_age)
    sending = Outbox.select().where(Outbox.state == "sending", Outbox.next_attempt_at < stuck_after)
    overdue = Outbox.select().where(Outbox.state == "queued", Outbox.next_attempt_at < stuck_after)
    unknown = Outbox.select().where(Outbox.state == "unknown")
    problems = []
    if sending.count():
        problems.append(f"{sending.count()} row(s) sending for over {round(max_age)}s "
                        f"(#{', #'.join(str(r.id) for r in sending.limit(5))})")
    if overdue.count():
        problems.append(f"{overdue.count()} queued row(s) overdue by over {round(max_age)}s: "
                        "the sender is not sending")
    if unknown.count():
        problems.append(f"{unknown.count()} row(s) unknown (#{', #'.join(str(r.id) for r in unknown.limit(5))}):"
                        " the server may have received them; only if they did not arrive, "
                        "bnomic outbox --retry ID sends one again")
    checks["outbox"] = {"ok": not problems, "detail": "; ".join(problems) or "nothing stuck"}
    parked = [parked_view(p) for p in Parked.select().where(Parked.state == "parked")
              .order_by(Parked.entry)]
    checks["parked"] = {"ok": not parked, "detail": (
        f"{len(parked)} entr{'y' if len(parked) == 1 else 'ies'} parked: "
        + ", ".join(f"#{p['entry']}" for p in parked[:10]) + " (bnomic parked; --retry SEQ)")
        if parked else "no parked entries"}
    return {"engine_heartbeat": heartbeat, "parked": parked, "checks": checks,
            "healthy": all(c["ok"] for c in checks.values())}


def health_text(status: dict) -> str:
    lines = [f"healthy:        {'yes' if status['healthy'] else 'NO'}"]
    for name, check in status["checks"].items():
        lines.append(f"  {name + ':':<9} {'ok' if check['ok'] else 'FAILING'}: {check['detail']}")
    return "\n".join(lines)


def add_imap_health(status: dict, lines: list[str]) -> None:
    """`status`: the IMAP poller's health, under "imap" (null without a poller)."""
    from .imap import health
    pollers = health()
    status["imap"] = pollers[0] if len(pollers) == 1 else (pollers or None)
    for h in pollers:
        lines.append(f"imap:           {h['source']}: "
                     + ("connected" if h["connected"] else f"NOT connected ({h['failures']} failed "
                        "attempts in a row)")
                     + f"; last poll {h['last_poll'] or 'never'}; last UID {h['last_uid']}"
                     + (f"; last error {h['last_error']}" if h["last_error"] else ""))


SHOW_KINDS = ["clock", "players", "events", "digest", "log", "schedule", "ministries", "display",
              "rules", "proposals", "ballot", "results", "emergency", "consultations", "indictments",
              "contracts", "corporations",        # issue 15 (part A): Rules 4E70, 4E79
              "tricks", "socks",                  # issue 15 (part B): Rules 4E71, 4E68
              "subgames"]                         # issue 15 (part C): Rule 4E82


# -------------------------------------------------------------------- parser

class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, f"bnomic: {message} (see bnomic {self.prog.split()[-1]} --help)\n"
                  if " " in self.prog else f"bnomic: {message} (see bnomic --help)\n")


def admin_verbs() -> str:
    """`bnomic admin --help`'s list of verbs: each operator command's first docstring line."""
    from ..handlers import admin, registry    # noqa: F401  (admin declares the commands)
    lines = ["verbs:"]
    for verb, fn in registry.COMMANDS.items():
        lines.append("  " + " ".join((fn.__doc__ or verb).split("\n\n")[0].split()))
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="bnomic", description="Run a B Nomic game by email.")
    p.add_argument("--version", action="version", version=f"bnomic {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def with_db(sp, config_required: bool = False):
        sp.add_argument("--db", help="game database: a path or a URL (default: the --config "
                        f"file's [database] path, else env BNOMIC_DB, else {DEFAULT_DB})")
        sp.add_argument("--config", required=config_required, metavar="FILE",
                        help="the operator's TOML configuration (its [database] path is the "
                        "database unless --db is given)")
        return sp

    sp = with_db(sub.add_parser("init", help="create a game"))
    sp.add_argument("--start", help="the game's first instant, ISO 8601 (default: now)")
    sp.add_argument("--nweek", type=int, default=1)
    sp.add_argument("--nday", type=int, default=1)
    sp.add_argument("--clock", choices=["on", "off"], default="off")
    sp.add_argument("--seed", help="seed for every random draw (default: a random one)")
    sp.add_argument("--ruleset", help="the initial ruleset, in the seed file's format "
                    "(default: B Nomic's of 2008-08-27)")
    sp.add_argument("--if-missing", action="store_true",
                    help="do nothing (and succeed) if the database already holds a game")
    sp.set_defaults(fn=cmd_init)

    sp = with_db(sub.add_parser("ingest", help="add mail files (.eml, mbox, maildir) to the log and process them"))
    sp.add_argument("--at", help="arrival time for these messages, ISO 8601")
    sp.add_argument("--batch", type=int, default=INGEST_BATCH, metavar="N",
                    help=f"mails stored, then applied, per transaction (default {INGEST_BATCH})")
    sp.add_argument("files", nargs="+")
    sp.set_defaults(fn=cmd_ingest)

    sp = with_db(sub.add_parser("preview", help="what a mail would do if posted now (nothing changes)"))
    sp.add_argument("--at", help="as if posted at this instant (ISO 8601; not before game time)")
    sp.add_argument("file", help=".eml file, or - for standard input")
    sp.set_defaults(fn=cmd_preview)

    sp = with_db(sub.add_parser("tick", help="advance the game to an instant"))
    sp.add_argument("--until", required=True, help="ISO 8601 instant")
    sp.set_defaults(fn=cmd_tick)

    sp = with_db(sub.add_parser("show", help="show part of the gamestate"))
    sp.add_argument("kind", choices=SHOW_KINDS)
    sp.add_argument("what", nargs="?", help="display: which Ministry's (e.g. Registrar); "
                    "ballot, results: which nweek's (default: the latest)")
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--as-of", metavar="ISO8601|MESSAGE-ID",
                    help="as the game stood at that time, or right after that message")
    sp.add_argument("--last", type=int, metavar="N", help="events, log: only the last N")
    sp.set_defaults(fn=cmd_show)

    sp = with_db(sub.add_parser("migrate", help="bring an older game database to this bnomic's "
                                "schema (a SQLite game is backed up first)"))
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(fn=cmd_migrate)

    sp = with_db(sub.add_parser("rebuild", help="replay the whole log into empty state tables"))
    sp.add_argument("--check-readings", action="store_true",
                    help="also list the log entries whose mail the current reader would read "
                         "otherwise than their pinned readings (which the replay applies)")
    sp.add_argument("--reparse", action="store_true",
                    help="drop every mail's stored parsed fields and parse the raw mail again "
                         "(the replay otherwise builds each mail's Post from them)")
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(fn=cmd_rebuild)

    sp = with_db(sub.add_parser("reread", help="read the log's mail again with the current reader "
                                "(recorded in the log), replacing the pinned readings, and rebuild"))
    sp.add_argument("--from", dest="from_seq", type=int, default=1, metavar="SEQ",
                    help="read again the mail of this log entry and later ones (default: all)")
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(fn=cmd_reread)

    sp = with_db(sub.add_parser("site", help="write the game's static web site (ruleset, proposals, "
                                "players, displays, Clock, the annotated archive, feeds)"))
    sp.add_argument("outdir", nargs="?", metavar="OUTDIR",
                    help="where: a link to the newest tree is made here (default: [site] path)")
    sp.add_argument("--show-addresses", action="store_true",
                    help="show senders' mail addresses (default: player names only)")
    sp.add_argument("--no-fill", action="store_true",
                    help="do not replay the log to capture the state as of messages not captured yet")
    sp.add_argument("--jobs", type=int, metavar="N",
                    help="processes drawing the players' charts (default: one a core)")
    sp.add_argument("--json", action="store_true")
    sp.set_defaults(fn=cmd_site)

    sp = with_db(sub.add_parser("run", help="run the daemon: receivers, engine, outbox"),
                 config_required=True)
    sp.add_argument("--verbose", action="store_true")
    sp.set_defaults(fn=cmd_run)

    sp = with_db(sub.add_parser("outbox", help="what bnomic has queued and sent"))
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--last", type=int, metavar="N")
    sp.add_argument("--retry", type=int, metavar="ID", help="queue a failed or unknown row again")
    sp.set_defaults(fn=cmd_outbox)

    sp = with_db(sub.add_parser("parked", help="log entries bnomic failed on, set aside; --retry one"))
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--all", action="store_true", help="also those applied since by a retry")
    sp.add_argument("--retry", type=int, metavar="SEQ",
                    help="apply a parked entry now, as if it had just arrived")
    sp.set_defaults(fn=cmd_parked)

    sp = with_db(sub.add_parser("status", help="how the daemon is doing; exits 1 when a check fails"))
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--max-age", type=float, default=300, metavar="SECONDS",
                    help="how long an entry may wait, or an outbox row be sending or overdue, "
                         "before the check fails (default 300)")
    sp.set_defaults(fn=cmd_status)

    sp = with_db(sub.add_parser("admin", help="operator commands: clock on|off, time stop|resume, "
                                "set PLAYER ATTR VALUE, add-player NAME ADDRESS..., "
                                "remove-player NAME, add-address NAME ADDRESS, setting KEY JSON, "
                                "fulfil N [HOW...]",
                                description="An operator command, kept in the log so that a "
                                "replay repeats it.", epilog=admin_verbs(),
                                formatter_class=argparse.RawDescriptionHelpFormatter))
    sp.add_argument("verb", help="one of the verbs below")
    sp.add_argument("args", nargs="*")
    sp.set_defaults(fn=cmd_admin)
    return p


def main(argv: list[str] | None = None) -> int:
    logging.getLogger("mailparser").setLevel(logging.CRITICAL)   # its notes are not ours to print
    args = build_parser().parse_args(argv)
    try:
        code = args.fn(args)
    except (CLIError, StoreError, configuration.ConfigError, archive.ArchiveError) as e:
        print(f"bnomic: {' '.join(str(e).split())}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # never a traceback for an operator (BNOMIC_DEBUG=1 shows it)
        if os.environ.get("BNOMIC_DEBUG"):
            raise
        print(f"bnomic: internal error: {type(e).__name__}: {' '.join(str(e).split())} "
              "(set BNOMIC_DEBUG=1 for details)", file=sys.stderr)
        return 70
    return code or 0


if __name__ == "__main__":
    sys.exit(main())
