"""`bnomic run`: the daemon an operator puts beside Postfix or Dovecot.

Two processes (mailer/engine_process.py). The main process: the event loop,
with the LMTP/SMTP receivers; they only store (on SQLite through one group
committing `Spooler` to the intake spool), and wake the engine. The engine
process, threads each with one job:
- the engine: the one writer. It applies pending log entries (queueing their
  receipts) and, once a minute (`schedule`), advances the game to now;
- the outbox sender: SMTP out, retries, never twice;
- the IMAP poller, when an [imap] table is configured.

At start the engine first catches up: every midnight and deadline missed while
bnomic was down fires once, in order, before mail that arrived later is applied.
SIGTERM (or SIGINT) stops the receivers (what they stored is committed and
answered), lets the engine finish the entry in hand, and exits.

A worker that dies (its loop raises past its own guard, or returns before the
daemon stops), or the engine process ending, stops both processes with a
non-zero exit, so that the
service manager restarts it: a daemon that says 250 but processes nothing is
worse than one that is down (issue 11).
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import schedule

from .. import config as configuration
from ..handlers import budget
from ..handlers.context import game_config
from ..store import (
    Command, Entry, Event, Game, Message, Outcome, Setup, log as store_log, migrations, open_database,
    write_transaction,
)
from ..store import intake
from . import engine_process, faults, outbound, publish, runner, systemd
from .inbound import wall_clock
from .lmtp import DEFAULT_MAX_SIZE, Spooler, StoreHandler, start_server

log = logging.getLogger("bnomic.daemon")

CATCH_UP_WAIT_SECONDS = 60     # [lmtp] catch_up_wait_seconds: see Daemon.catch_up_wait


class DaemonError(RuntimeError):
    pass


def sync_operator_settings(operator: dict) -> list[str]:
    """Record in the log, as `setting` commands, the keys of the operator's file
    that decide how mail is read ([addresses], [auth], [receipts]) and differ
    from the game's: so a replay reads each mail as it was read live."""
    current = configuration.flatten(game_config().data)
    changed = []
    for section in configuration.GAME_SECTIONS_FROM_OPERATOR:
        for key, value in configuration.flatten(operator.get(section, {}), section + ".").items():
            if current.get(key) != value:
                store_log.append_command("setting", [key, json.dumps(value)],
                                         at=store_log.game_time(), issued_at=wall_clock())
                changed.append(key)
    return changed         # the engine applies them, in order, with everything else


def _outcome(o) -> str:
    """'done (Rule 4E4)', 'refused: proposal 12 is not Open (Rule 4E15)'."""
    rule = f" (Rule {o.rule})" if o.rule and o.rule != "operator" else ""
    if o.accepted:
        return f"done{rule}" + (f": {o.reason}" if o.reason else "")
    return f"refused: {o.reason}{rule}"


class Daemon:
    def __init__(self, operator: dict, db_target: str):
        self.operator = operator                      # the operator's TOML as written
        self.db_target = db_target
        self.stop = threading.Event()
        self.engine_wake = threading.Event()
        self.outbox_wake = threading.Event()
        self.threads: list[threading.Thread] = []
        self.servers = []
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")
        self.last_tick = None
        self.watchdog = systemd.watchdog_interval()
        self._beat = self._ping = 0.0
        self.poller = None
        self.failure: str | None = None       # "the engine thread died: ..."
        self._loop = None
        self._stopping = None
        self.site = operator.get("site", {}) if operator.get("site", {}).get("path") else None
        self._site_moment = None
        self.notify = systemd.notify          # the engine process relays through the main one
        self.engine = None                    # the main process's handle on the engine process
        self.spooler = None

    # ------------------------------------------------------------ the engine
    def tick(self) -> None:
        now = wall_clock()
        runner.advance_to(now, emit=True, each=self.after_entry)
        self.last_tick = now
        self.publish()

    def publish(self) -> None:
        """Displays whose data changed, Misdemeanor notices, the Ballot and the results, to the list."""
        with write_transaction():
            config, now = game_config(), wall_clock()
            publish.publish_changed(config, now)
            publish.notify(config, now)
            publish.scheduled_receipts(config, now)
            publish.send_digests(config, now)
        self.outbox_wake.set()
        self.update_site()

    # ------------------------------------------------------------ the site
    def after_entry(self) -> None:
        """After every entry: `alive`, and with [site] path, the state as of it (issue 17)."""
        self.alive()
        if self.site is None:
            return
        from ..site.tree import Busy        # the site's light module: no plotting library
        last = None
        try:
            from ..site import build
            last = Entry.select().where(Entry.processed == True).order_by(Entry.seq.desc()).first()  # noqa: E712
            if last is not None and last.kind == "mail":
                build.capture(self.site["path"], last.seq, last.at,
                              bool(self.site.get("show_addresses", False)))
        except Busy:
            log.info("site: bnomic site is writing it; entry #%d not captured now", last.seq)
        except Exception:
            log.exception("site: the state as of the last entry was not captured")

    def update_site(self) -> None:
        """With [site] path: write the site again when the game changed (only
        the pages that changed are written; the new tree is swapped in)."""
        if self.site is None:
            return
        from ..site.tree import Busy
        try:
            from ..site import build
            game = Game.get()
            event = Event.select(Event.seq).order_by(Event.seq.desc()).first()
            entry = Entry.select(Entry.seq).where(Entry.processed == True).order_by(Entry.seq.desc()).first()  # noqa: E712
            moment = (event.seq if event else 0, entry.seq if entry else 0, game.nweek, game.nday,
                      game.clock_on, game.ndelay)
            if moment == self._site_moment:
                return
            done = build.build(self.site["path"], show_addresses=bool(self.site.get("show_addresses", False)),
                               title=self.site.get("title"), fill=False, progress=self.alive,
                               wait=False)
            self._site_moment = moment
            log.info("site: %d page(s) written, %d unchanged, in %s", done["written"],
                     done["unchanged"], done["path"])
        except Busy:
            log.info("site: bnomic site is writing it; written again after the next change")
        except Exception:
            log.exception("site: not written; the game goes on")

    def alive(self) -> None:
        """After every entry: the watchdog ping and the one-writer heartbeat,
        so a long backlog never looks like a hang."""
        if time.monotonic() - self._beat > 2:
            store_log.engine_heartbeat(wall_clock(), os.getpid())
            if self.watchdog is not None:
                self.notify("WATCHDOG=1")
            self._beat = time.monotonic()

    def reading_progress(self) -> None:
        """While one long message is read (handlers/budget calls this every so
        many steps): the watchdog ping only; the heartbeat row would be written
        inside the engine's open transaction."""
        if self.watchdog is not None and time.monotonic() - self._ping > 2:
            self.notify("WATCHDOG=1")
            self._ping = time.monotonic()

    # ------------------------------------------------------------ the log
    def start_reporting(self) -> None:
        """Report only what happens from now on (not the game's history)."""
        last = Entry.select().where(Entry.processed == True).order_by(Entry.seq.desc()).first()  # noqa: E712
        self.reported_entry = last.seq if last else 0
        event = Event.select(Event.seq).order_by(Event.seq.desc()).first()
        self.reported_event = event.seq if event else 0

    def report(self) -> None:
        """One log line per entry applied (a mail: its sender and what each action
        did; an operator command and its outcome) and per Clock change."""
        entries = list(Entry.select().where(Entry.seq > self.reported_entry,
                                            Entry.processed == True)  # noqa: E712
                       .order_by(Entry.seq))
        for entry in entries:
            outcomes = list(Outcome.select().where(Outcome.entry == entry.seq)
                            .order_by(Outcome.position))
            if entry.kind == "mail":
                m = Message.get_by_id(entry.seq)
                log.info("applied mail #%d %s from %s: %s", entry.seq, m.message_id,
                         m.sender or "(no sender)",
                         "; ".join(f"{o.action or 'not understood'} "
                                   f"{' '.join(o.text.split())[:80]!r}: {_outcome(o)}"
                                   for o in outcomes) or "no actions")
            else:
                c = Command.get_by_id(entry.seq)
                log.info("applied command #%d %s: %s", entry.seq, " ".join([c.verb, *c.args]),
                         "; ".join(_outcome(o) for o in outcomes) or "nothing")
            self.reported_entry = entry.seq
        for event in (Event.select().where(Event.seq > self.reported_event,
                                           Event.kind.in_(["clock", "time"]))
                      .order_by(Event.seq)):
            log.info("clock: %s (Rule %s)", event.summary, event.rule or "4E14")
        event = Event.select(Event.seq).order_by(Event.seq.desc()).first()
        self.reported_event = event.seq if event else self.reported_event

    def engine_loop(self) -> None:
        scheduler = schedule.Scheduler()
        scheduler.every(1).minutes.do(self.tick)
        self._beat = self._ping = 0.0
        budget.set_progress(self.reading_progress)     # the watchdog is fed while a message is read
        first = True
        while not self.stop.is_set():
            faults.inject("engine")
            try:
                self.alive()
                if first:       # catch up: missed midnights and deadlines, then stored mail
                    self.catch_up_wait()
                    self.tick()
                    first = False
                if runner.process_pending(emit=True, each=self.after_entry):
                    self.publish()
                scheduler.run_pending()
                self.report()
            except Exception:
                log.exception("engine: unexpected error; retrying shortly")
                self.stop.wait(5)
            self.engine_wake.wait(timeout=min(1.0, self.watchdog or 1.0))
            self.engine_wake.clear()
        try:
            store_log.engine_stopped()
        except Exception as e:
            log.warning("engine: could not clear its heartbeat: %s", e)

    def catch_up_wait(self) -> None:
        """After downtime over a midnight, give the MTA `[lmtp] catch_up_wait_seconds`
        to deliver the mail it held before the game moves past that midnight:
        the receivers store it meanwhile, and it is applied at the time our mail
        server received it, in that order (store/intake.py)."""
        seconds = float(self.operator.get("lmtp", {}).get("catch_up_wait_seconds",
                                                          CATCH_UP_WAIT_SECONDS))
        if seconds <= 0 or store_log.game_time().date() >= wall_clock().date():
            return
        log.info("missed a midnight: waiting %g s for mail the MTA held before catching up", seconds)
        deadline = time.monotonic() + seconds
        while not self.stop.is_set() and time.monotonic() < deadline:
            self.alive()
            self.stop.wait(min(1.0, max(0.0, deadline - time.monotonic())))

    def wake_engine(self) -> None:
        if self.engine is not None:
            self.engine.wake()              # the engine process, from the main one
        else:
            self.engine_wake.set()

    def request_stop(self) -> None:
        self.stop.set()
        self.engine_wake.set()
        self.outbox_wake.set()

    # ------------------------------------------------------------- start/stop
    def listeners(self) -> list[tuple[str, object]]:
        found = []
        fds = systemd.listen_fds()
        if fds:
            found += [("lmtp", fd) for fd in fds]
        elif self.operator.get("lmtp", {}).get("listen"):
            found.append(("lmtp", self.operator["lmtp"]["listen"]))
        if self.operator.get("smtp", {}).get("listen"):
            found.append(("smtp", self.operator["smtp"]["listen"]))
        return found

    def prepare(self) -> None:
        """Before the receivers listen (the main process): the database opened and
        migrated, a game in it, a way to get mail, the operator's settings
        recorded, the outbox recovered, and the IMAP mailbox polled once."""
        open_database(self.db_target)
        self.migrate()
        if not Setup.select().exists():
            raise DaemonError(f"{self.db_target} holds no game; create one with "
                              f"bnomic init --db {self.db_target} --config FILE")
        if not self.listeners() and not self.operator.get("imap"):
            raise DaemonError("no way to receive mail: configure [lmtp] listen, [smtp] listen "
                              "or [imap], or start bnomic.socket")
        self.start_reporting()
        changed = sync_operator_settings(self.operator)
        if changed:
            log.info("configuration recorded in the log: %s", ", ".join(changed))
        outbound.recover_interrupted()
        if self.operator.get("imap"):
            # mail that reached the mailbox while bnomic was down is stored first,
            # at its INTERNALDATE, so the catch-up applies it before later midnights
            self.poller = self.imap_poller()
            try:
                self.poller.poll_once()
            except Exception as e:
                log.warning("imap: first poll failed (%s); the poller will retry", e)

    def imap_poller(self):
        from .imap import ImapPoller
        try:
            return ImapPoller(self.operator["imap"], wake=self.wake_engine, stop=self.stop)
        except (ValueError, OSError) as e:
            raise DaemonError(str(e)) from None

    def prepare_engine(self) -> None:
        """The engine process, after `prepare` ran in the main one."""
        open_database(self.db_target)
        self.start_reporting()
        if self.operator.get("imap"):
            self.poller = self.imap_poller()

    def migrate(self) -> migrations.Migrated:
        """An older game is backed up (SQLite's online backup, beside the file) and
        migrated before anything else touches it; a PostgreSQL one is refused:
        back it up with pg_dump and run bnomic migrate."""
        try:
            done = migrations.migrate(wall_clock(), backup_required=True)
        except migrations.SchemaTooOld as e:
            raise DaemonError(f"{e}, and bnomic run backs up only SQLite files: back the "
                              f"database up (pg_dump), then run: bnomic migrate --db URL") from None
        if done.backup is not None:
            log.info("backed up %s (schema version %s) to %s", self.db_target, done.before,
                     done.backup)
        if done.before is not None and done.before != done.after:
            log.info("migrated %s from schema version %s to %s", self.db_target, done.before,
                     done.after)
        return done

    def start_threads(self) -> None:
        sender = outbound.Sender(self.operator.get("smtp_out", {}), game_config)
        jobs = [("engine", self.engine_loop),
                ("outbox", lambda: sender.run(self.stop, self.outbox_wake))]
        if self.poller is not None:
            jobs.append(("imap", self.poller.run))
        for name, fn in jobs:
            t = threading.Thread(target=self.supervised(name, fn), name=name, daemon=True)
            t.start()
            self.threads.append(t)

    def supervised(self, name: str, fn):
        """A worker's body: if it dies, or ends while the daemon runs, the daemon stops."""
        def body():
            try:
                fn()
            except BaseException as e:
                log.critical("the %s thread died", name, exc_info=e)
                self.worker_died(name, f"{type(e).__name__}: {' '.join(str(e).split())}")
            else:
                if not self.stop.is_set():
                    self.worker_died(name, "its loop ended")
        return body

    def worker_died(self, name: str, why: str, what: str = "thread") -> None:
        """Stop everything: the process exits non-zero and systemd restarts it."""
        if self.failure is None:
            self.failure = f"the {name} {what} died ({why})"
        self.stop.set()
        self.engine_wake.set()
        self.outbox_wake.set()
        if self._loop is not None and self._stopping is not None:
            self._loop.call_soon_threadsafe(self._stopping.set)

    def check_workers(self) -> None:
        for t in self.threads:
            if not t.is_alive() and not self.stop.is_set():
                self.worker_died(t.name, "its thread ended")
        if self.engine is not None and not self.stop.is_set():
            code = self.engine.exitcode()
            if code == 0:           # SIGTERM to the service's whole group reached it first
                log.info("the engine process stopped")
                self.stop.set()
                if self._stopping is not None:
                    self._stopping.set()
            elif code is not None:
                self.worker_died("engine", f"it exited with status {code}", "process")

    def run_engine(self) -> int:
        """The engine process's life: its threads until asked to stop or one dies;
        0, or 1 when one died."""
        self.prepare_engine()
        self.alive()                      # the heartbeat: `ingest`, `admin` leave entries to us
        self.start_threads()
        self.notify(engine_process.READY)
        while not self.stop.is_set():
            self.check_workers()
            self.stop.wait(1.0)
        self.request_stop()
        for t in self.threads:
            t.join(timeout=20)
        if self.failure:
            log.critical("the engine process stops: %s", self.failure)
        return 1 if self.failure else 0

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        stopping = asyncio.Event()
        self._loop, self._stopping = loop, stopping
        if self.failure is not None:            # a worker died before we got here
            stopping.set()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stopping.set)
        if self.engine is not None:               # the engine's notes (watchdog) go on to systemd
            def notes():
                if not self.engine.read_notes():
                    loop.remove_reader(self.engine.sock.fileno())
            loop.add_reader(self.engine.sock.fileno(), notes)
        max_size = int(self.operator.get("lmtp", {}).get("max_message_size", DEFAULT_MAX_SIZE))
        if intake.available() and self.listeners():   # SQLite: group commit to the spool
            self.spooler = Spooler(self.wake_engine)
        for kind, where in self.listeners():
            handler = StoreHandler(self.executor, self.wake_engine, source=kind, lmtp=kind == "lmtp",
                                   spooler=self.spooler)
            self.servers.append(await start_server(kind, where, handler, max_size))
            log.info("listening for %s on %s", kind.upper(),
                     f"inherited socket {where}" if isinstance(where, int) else where)
        systemd.notify("READY=1\nSTATUS=receiving mail")
        log.info("bnomic is running")
        while not stopping.is_set():          # the receivers' loop watches the workers
            faults.inject("receiver")
            self.check_workers()
            try:
                await asyncio.wait_for(stopping.wait(), timeout=1.0)
            except asyncio.TimeoutError:
                pass
        if self.failure:
            log.critical("stopping: %s", self.failure)
        log.info("stopping: no more mail is accepted; finishing the entry in hand")
        systemd.notify("STOPPING=1")
        for server in self.servers:
            server.close()
            await server.wait_closed()
        if self.spooler is not None:     # what was put is committed and answered 250
            await loop.run_in_executor(None, self.spooler.close)

    def run(self) -> None:
        logging.getLogger("mail.log").setLevel(logging.WARNING)   # aiosmtpd: 5 lines a message
        self.prepare()
        if self.poller is not None:             # it polls on in the engine process
            self.poller.close()
            self.poller = None
        self.engine = engine_process.Engine(f"{__name__}:engine_main", self.operator,
                                            self.db_target, self.watchdog)
        split = engine_process.cpu_split(self.operator)   # the engine, started, pins itself
        if split:
            engine_process.pin(split[0])
            log.info("the receivers run on CPU %s, the engine on CPU %s ([engine] cpu_split)",
                     ",".join(map(str, sorted(split[0]))), ",".join(map(str, sorted(split[1]))))
        if not self.engine.wait_ready():
            code = self.engine.stop()
            raise DaemonError(f"the engine process did not start (exit status {code}); "
                              f"its log lines above say why")
        log.info("the engine runs in process %d", self.engine.pid)
        try:
            asyncio.run(self.serve())
        except (Exception, faults.WorkerFault) as e:
            log.critical("the receivers' event loop died", exc_info=e)
            self.failure = self.failure or (f"the receivers' event loop died ({type(e).__name__}: "
                                            f"{' '.join(str(e).split())})")
        finally:
            self.stop.set()
            self.executor.shutdown(wait=True)
            if self.spooler is not None:
                self.spooler.close()            # everything put is committed and answered
            code = self.engine.stop()
            if code and not self.failure:
                self.failure = f"the engine process ended with exit status {code}"
            log.info("stopped")
        if self.failure:
            systemd.notify(f"STATUS={self.failure}")
            raise DaemonError(f"{self.failure}; stopped so that the service manager restarts bnomic")


def engine_main(operator: dict, db_target: str, watchdog: float | None, level: int, sock) -> int:
    """The engine process's body (mailer/engine_process.py: a fresh interpreter);
    its exit status."""
    from . import logs
    logs.setup(level <= logging.DEBUG)
    logging.getLogger("mail.log").setLevel(logging.WARNING)
    split = engine_process.cpu_split(operator)     # before its threads start: they inherit it
    if split:
        engine_process.pin(split[1])
    daemon = Daemon(operator, db_target)
    daemon.watchdog, daemon.notify = watchdog, engine_process.relay(sock)
    for sig in (signal.SIGTERM, signal.SIGINT):     # systemd signals the whole group
        signal.signal(sig, lambda *_: daemon.request_stop())
    engine_process.listen(sock, daemon.engine_wake, daemon.request_stop)
    try:
        code = daemon.run_engine()
    except DaemonError as e:
        log.critical("the engine could not start: %s", e)
        code = 1
    logging.shutdown()
    return code
