"""The IMAP poller: for operators without an MTA, read the game's mailbox.

One `ImapPoller` reads one mailbox and only ever *appends* to the log, through
`inbound.store_raw` (invariant 5). How far it has read is the Checkpoint row
of its source ("imap:USER@HOST:PORT/MAILBOX"): the mailbox's UIDVALIDITY and
the last UID whose message is committed. A restart resumes after that UID; a
new UIDVALIDITY (the mailbox was recreated or renumbered) makes it read the
whole mailbox again, and the log's unique Message-ID drops what it already has.

By default the mailbox is opened read-only (EXAMINE) and bodies are fetched
with BODY.PEEK[]: the poller never sets \\Seen or changes anything on the
server. With `flag` (e.g. "\\Seen" or a keyword such as "$bnomic") or
`move_to` (a folder, created if missing) it opens the mailbox read-write
(SELECT) and, once a message's bytes are committed to the log, sets that flag
on it and/or moves it to that folder (MOVE, or COPY and expunge where the
server lacks MOVE).

Mail older than the game is never applied as new: a message whose
INTERNALDATE is before the game's start (or before `not_before`, if that is
later) is left in the mailbox untouched and not stored. This keeps a mailbox
that held years of list traffic from flooding a new game.

Health, for `bnomic status`: after each poll the Checkpoint row
"imap-health:SOURCE\\nLAST ERROR" says whether the last attempt worked
(uidvalidity 1 or 0), how many attempts failed in a row (last_uid) and when a
poll last succeeded (updated_at). The last error (with its time) is kept in
the row's key because the checkpoint table has no text column, and the
schema is not the poller's to change.

`run()` is the loop for a thread: poll, IDLE until the server reports new mail
(or every `idle_renew_seconds`, RFC 2177), poll again; after any error it logs
one line, drops the connection, waits (exponential backoff, woken early by
`stop`) and reconnects. To end it: set `stop` and join the thread.

Settings (the `[imap]` table): host, port, ssl, starttls, cafile, verify
(mailer/tls.py), username, password or password_file, mailbox, move_to, flag,
not_before, idle_renew_seconds, backoff_start_seconds, backoff_max_seconds;
also timeout_seconds (socket timeout, default 60) and poll_seconds (the wait
between polls on a server without IDLE, default 60). config.OPERATOR_KEYS
lists them for checking the operator's file.
"""
from __future__ import annotations

import logging
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from imapclient import IMAPClient

from ..store import Checkpoint, Setup, database
from . import faults, inbound, tls

log = logging.getLogger("bnomic.imap")

FETCH_BATCH = 20          # messages per UID FETCH: bodies are held in memory per batch
IDLE_CHECK_SECONDS = 1.0  # longest wait inside IDLE before looking at `stop` again

HEALTH = "imap-health:"   # Checkpoint rows of the poller's health (see above)


class ImapError(RuntimeError):
    """The server said or did something the poller cannot go on with."""


def _utc(value) -> datetime | None:
    """An INTERNALDATE (fetched with normalise_times off, so it carries the
    server's zone) as an aware UTC datetime. A zone-less one is taken as UTC."""
    if not isinstance(value, datetime):
        return None
    if value.tzinfo is None:
        return value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


class _Client(IMAPClient):
    """IMAPClient whose next idle_check() can skip waiting for the socket.

    idle_check() polls the socket before reading, but imaplib reads through a
    buffer: Dovecot sends "+ idling" and the EXISTS of mail that came during
    the last poll in one segment, idle() consumes the buffer with its first
    line, and the EXISTS would sit there unseen until the IDLE is renewed.
    With read_buffered set, idle_check() reads at once whatever is there (it
    stops at the first read that would block)."""

    read_buffered = False

    def _ready(self, wait, sock, timeout):
        if self.read_buffered:
            self.read_buffered = False
            return [sock]
        return wait(sock, timeout)

    def _poll_socket(self, sock, timeout=None):
        return self._ready(super()._poll_socket, sock, timeout)

    def _select_poll_socket(self, sock, timeout=None):
        return self._ready(super()._select_poll_socket, sock, timeout)


def _text(parts) -> str:
    return " ".join(p.decode("utf-8", "replace") if isinstance(p, bytes) else str(p) for p in parts)


class ImapPoller:
    def __init__(self, settings: dict, wake: Callable[[], None] | None = None,
                 stop: threading.Event | None = None):
        from ..config import OPERATOR_KEYS
        s = dict(settings or {})
        unknown = set(s) - set(OPERATOR_KEYS["imap"])
        if unknown:
            raise ValueError(f"[imap]: unknown setting(s) {', '.join(sorted(unknown))}")
        self.host = str(s.get("host", "127.0.0.1"))
        self.ssl = bool(s.get("ssl", False))
        self.starttls = bool(s.get("starttls", False))
        if self.ssl and self.starttls:
            raise ValueError("[imap]: ssl and starttls exclude each other (ssl is IMAPS, "
                             "starttls upgrades plain IMAP)")
        self.port = int(s.get("port", 993 if self.ssl else 143))
        self.username = str(s.get("username") or "")
        if not self.username:
            raise ValueError("[imap]: username is required")
        if "password" in s:
            self.password = str(s["password"])
        elif "password_file" in s:
            self.password = Path(s["password_file"]).read_text().rstrip("\r\n")
        else:
            raise ValueError("[imap]: password or password_file is required")
        self.mailbox = str(s.get("mailbox", "INBOX"))
        self.tls = tls.context(s) if self.ssl or self.starttls else None
        self.move_to = str(s["move_to"]) if s.get("move_to") else None
        self.flag = str(s["flag"]) if s.get("flag") else None
        if self.move_to == self.mailbox:
            raise ValueError("[imap]: move_to must be another folder than mailbox")
        self.not_before = _utc(s["not_before"] if isinstance(s.get("not_before"), datetime)
                               else datetime.fromisoformat(str(s["not_before"]).replace("Z", "+00:00"))
                               ) if s.get("not_before") else None
        self.idle_renew = float(s.get("idle_renew_seconds", 300))
        self.backoff_start = float(s.get("backoff_start_seconds", 1))
        self.backoff_max = float(s.get("backoff_max_seconds", 300))
        self.timeout = float(s.get("timeout_seconds", 60))
        self.poll_seconds = float(s.get("poll_seconds", 60))
        if min(self.idle_renew, self.backoff_start, self.backoff_max, self.timeout,
               self.poll_seconds) <= 0:
            raise ValueError("[imap]: every *_seconds setting must be positive")
        self.source = f"imap:{self.username}@{self.host}:{self.port}/{self.mailbox}"
        self.wake = wake
        self.stop = stop if stop is not None else threading.Event()
        self.last_fetched: list[int] = []   # the UIDs the last poll_once fetched (for tests, logs)
        self.last_skipped: list[int] = []   # the UIDs it left alone as older than the game
        self.failures = 0                   # attempts failed in a row (health)
        self._client: _Client | None = None

    # ------------------------------------------------------------ connection

    def _connect(self) -> _Client:
        if self._client is not None:
            return self._client
        client = _Client(self.host, self.port, ssl=self.ssl, timeout=self.timeout,
                         ssl_context=self.tls if self.ssl else None)
        try:
            if self.starttls:
                client.starttls(ssl_context=self.tls)
            client.login(self.username, self.password)
        except BaseException:
            self._shutdown(client)
            raise
        client.normalise_times = False      # INTERNALDATE with its zone (see _utc)
        self._client = client
        log.info("%s: connected (%s)", self.source,
                 "IMAPS" if self.ssl else "STARTTLS" if self.starttls else "plain IMAP, no TLS")
        return client

    @staticmethod
    def _shutdown(client: IMAPClient) -> None:
        try:
            client.shutdown()
        except Exception:
            pass

    def _drop(self) -> None:
        """Forget a connection that failed, without talking to the server."""
        client, self._client = self._client, None
        if client is not None:
            self._shutdown(client)

    def close(self) -> None:
        """Log out cleanly (or just close the socket if that fails)."""
        client, self._client = self._client, None
        if client is None:
            return
        try:
            client.logout()
        except Exception:
            self._shutdown(client)

    # ------------------------------------------------------------------ poll

    def _save(self, uidvalidity: int, last_uid: int) -> None:
        now = inbound.wall_clock()
        (Checkpoint.insert(source=self.source, uidvalidity=uidvalidity, last_uid=last_uid,
                           updated_at=now)
         .on_conflict(conflict_target=[Checkpoint.source],
                      update={Checkpoint.uidvalidity: uidvalidity, Checkpoint.last_uid: last_uid,
                              Checkpoint.updated_at: now})
         .execute())

    def _health(self, error: BaseException | None) -> None:
        """Record how the last attempt went, for `bnomic status` (see above)."""
        now = inbound.wall_clock()
        self.failures = 0 if error is None else self.failures + 1
        prefix = f"{HEALTH}{self.source}\n"
        try:
            old = [c for c in Checkpoint.select().where(Checkpoint.source.startswith(HEALTH))
                   if c.source.startswith(prefix)]
            last_ok = next((c.updated_at for c in old), None)
            kept = old[0].source[len(prefix):] if old else ""
            text = kept if error is None else " ".join(
                f"{now.isoformat().replace('+00:00', 'Z')} {type(error).__name__}: {error}".split()
            )[:max(0, 255 - len(prefix))]         # the key is a VARCHAR(255) on PostgreSQL
            with database.atomic():
                Checkpoint.delete().where(Checkpoint.source.in_([c.source for c in old])).execute()
                Checkpoint.create(source=prefix + text, uidvalidity=0 if error else 1,
                                  last_uid=self.failures, updated_at=now if error is None else last_ok)
        except Exception as e:          # the database itself may be what failed
            log.debug("%s: could not record health: %s", self.source, e)

    def poll_once(self) -> int:
        """Store every message after the checkpoint; returns how many were new."""
        try:
            new = self._poll()
        except BaseException as e:
            self._drop()
            self._health(e)
            raise
        self._health(None)
        return new

    def _after_stored(self, client: IMAPClient, uids: list[int]) -> None:
        """Flag and/or move messages whose bytes are committed to the log."""
        if not uids:
            return
        if self.flag:
            client.add_flags(uids, [self.flag], silent=True)
        if self.move_to:
            if b"MOVE" in client.capabilities():
                client.move(uids, self.move_to)
            else:
                client.copy(uids, self.move_to)
                client.add_flags(uids, [b"\\Deleted"], silent=True)
                if b"UIDPLUS" in client.capabilities():
                    client.uid_expunge(uids)
                else:
                    client.expunge()

    def _not_before(self) -> datetime | None:
        setup = Setup.select(Setup.start_at).first()
        limits = [t for t in (setup.start_at if setup else None, self.not_before) if t is not None]
        return max(limits) if limits else None

    def _poll(self) -> int:
        client = self._connect()
        writes = bool(self.flag or self.move_to)
        if self.move_to and not client.folder_exists(self.move_to):
            client.create_folder(self.move_to)
            log.info("%s: created the folder %s for processed mail", self.source, self.move_to)
        info = client.select_folder(self.mailbox, readonly=not writes)
        if b"UIDVALIDITY" not in info:
            raise ImapError(f"SELECT {self.mailbox} reported no UIDVALIDITY")
        uidvalidity = int(info[b"UIDVALIDITY"])
        cp = Checkpoint.get_or_none(Checkpoint.source == self.source)
        if cp is not None and cp.uidvalidity == uidvalidity:
            after = cp.last_uid
        else:
            if cp is not None:
                log.info("%s: UIDVALIDITY changed from %s to %s: reading the whole mailbox again",
                         self.source, cp.uidvalidity, uidvalidity)
            after = 0
            self._save(uidvalidity, 0)
        # "n:*" always matches the highest UID, even one below n: keep only newer ones
        uids = sorted(u for u in client.search(["UID", f"{after + 1}:*"]) if u > after)
        self.last_fetched, self.last_skipped = [], []
        not_before = self._not_before()
        new = 0
        for i in range(0, len(uids), FETCH_BATCH):
            batch = uids[i:i + FETCH_BATCH]
            if not_before is not None:      # older than the game: never applied as new
                dates = client.fetch(batch, ["INTERNALDATE"])
                old = [u for u in batch if u in dates
                       and (_utc(dates[u].get(b"INTERNALDATE")) or not_before) < not_before]
                self.last_skipped += old
                batch = [u for u in batch if u not in old]
            data = client.fetch(batch, ["BODY.PEEK[]", "INTERNALDATE"]) if batch else {}
            stored, done = 0, []
            for uid in batch:
                item = data.get(uid)
                if item is not None:            # else expunged since the SEARCH: gone
                    raw = item.get(b"BODY[]")
                    if raw is None:
                        raise ImapError(f"no body returned for UID {uid}")
                    self.last_fetched.append(uid)
                    _, entry = inbound.store_raw(bytes(raw), source=self.source,
                                                 at=_utc(item.get(b"INTERNALDATE")))
                    done.append(uid)
                    if entry is not None:
                        stored += 1
                self._save(uidvalidity, uid)
            self._after_stored(client, done)
            if uids[i:i + FETCH_BATCH]:
                self._save(uidvalidity, uids[i:i + FETCH_BATCH][-1])
            if stored:
                new += stored
                if self.wake is not None:
                    self.wake()
        if self.last_skipped:
            log.info("%s: left %d message(s) older than %s alone (UIDs %s)", self.source,
                     len(self.last_skipped), not_before.isoformat().replace("+00:00", "Z"),
                     ", ".join(map(str, self.last_skipped[:10]))
                     + (" …" if len(self.last_skipped) > 10 else ""))
        if new:
            log.info("%s: stored %d new message(s)", self.source, new)
        return new

    # ------------------------------------------------------------------ idle

    def _wait_for_mail(self) -> None:
        """IDLE until the server reports new mail, `stop` is set, the connection
        looks dead, or idle_renew_seconds have passed (then poll and re-IDLE)."""
        client = self._client
        if client is None:
            return
        if b"IDLE" not in client.capabilities():
            self.stop.wait(self.poll_seconds)
            return
        client.idle()
        deadline = time.monotonic() + self.idle_renew
        client.read_buffered = True         # first what came with "+ idling" (see _Client)
        responses = client.idle_check(timeout=0)
        while not self._new_mail(responses) and not self.stop.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                break
            wait = min(IDLE_CHECK_SECONDS, left)
            began = time.monotonic()
            responses = client.idle_check(timeout=wait)
            # Readable yet nothing read: imapclient swallows EOF there. Leave
            # IDLE: DONE fails on a dead connection, or we simply poll again.
            if not responses and time.monotonic() - began < wait * 0.9:
                break
        client.idle_done()      # after an error run() drops the connection instead

    @staticmethod
    def _new_mail(responses) -> bool:
        for r in responses:
            if r and r[0] == b"BYE":
                raise ImapError(f"server said BYE {_text(r[1:])!r}")
        return any(len(r) >= 2 and r[1] in (b"EXISTS", b"RECENT") for r in responses)

    # ------------------------------------------------------------------- run

    def run(self) -> None:
        """Poll and IDLE until `stop` is set, reconnecting after any error."""
        delay = self.backoff_start
        try:
            while not self.stop.is_set():
                faults.inject("imap")           # tests: a death outside this guard stops bnomic
                try:
                    self.poll_once()
                    delay = self.backoff_start
                    self._wait_for_mail()
                except Exception as e:
                    self._drop()
                    if self.stop.is_set():
                        break
                    log.warning("%s: %s: %s; reconnecting in %gs", self.source,
                                type(e).__name__, e, delay)
                    if self.stop.wait(delay):
                        break
                    delay = min(delay * 2, self.backoff_max)
        finally:
            self.close()
            if threading.current_thread() is not threading.main_thread() \
                    and database.obj is not None and not database.is_closed():
                database.close()    # this thread's own connection


def health() -> list[dict]:
    """Each IMAP poller's health as `bnomic status --json` gives it under "imap"
    (a contract: add, never rename): connected (did the last attempt work),
    last_poll (the last successful poll), last_error (time and text),
    failures (attempts failed in a row), last_uid (the checkpoint), source."""
    rows = list(Checkpoint.select().where(Checkpoint.source.startswith(HEALTH)))
    out = []
    for row in rows:
        source, _, error = row.source[len(HEALTH):].partition("\n")
        cp = Checkpoint.get_or_none(Checkpoint.source == source)
        out.append({"source": source, "connected": bool(row.uidvalidity),
                    "last_poll": None if row.updated_at is None
                    else row.updated_at.isoformat().replace("+00:00", "Z"),
                    "last_error": error or None, "failures": row.last_uid,
                    "last_uid": cp.last_uid if cp else None})
    return sorted(out, key=lambda h: h["source"])
