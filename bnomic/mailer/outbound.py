"""The outbox sender: SMTP out, with retries and backoff, never twice.

A row is marked "sending" (committed, with the attempt's time in
next_attempt_at) before the SMTP transaction and "sent" after it. Recording
"sent" is retried until it succeeds (a database locked for a while must not
leave a delivered row "sending"). A row found "sending" at start-up was
interrupted mid-transaction: whether the server got it cannot be known, so it
becomes "unknown" and is not sent again; an operator who has checked that it
did not arrive can requeue it (`bnomic outbox --retry ID`, which sends again).
"""
from __future__ import annotations

import logging
import smtplib
import threading
import time
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime

from ..config import Config
from peewee import InterfaceError, OperationalError

from ..store import Outbox, durable_transaction, write_transaction
from . import faults, headers, tls
from .bounces import bouncing
from .inbound import wall_clock
from .receipts import loop_id, processor_address

log = logging.getLogger("bnomic.outbound")

MAX_ATTEMPTS = 12
BACKOFF_START = timedelta(seconds=30)
BACKOFF_MAX = timedelta(hours=1)


def build(row: Outbox, config: Config) -> EmailMessage:
    """The mail an outbox row becomes. Every header value that may have come
    from mail goes through `headers` (decoded, plain, msg-ids checked) and the
    email package's header API; the bytes are checked before they are sent."""
    msg = EmailMessage()
    msg["From"] = f"bnomic <{processor_address(config)}>"
    bad = [a for a in row.to if headers.address(a) is None]
    if bad or not row.to:
        raise ValueError(f"not a plain mail address: {bad[0]!r}" if bad else "no recipient")
    msg["To"] = ", ".join(row.to)
    msg["Subject"] = headers.text(row.subject or "")
    msg["Date"] = format_datetime(row.queued_at)
    own = headers.msg_id(row.message_id)
    if own is None:
        raise ValueError(f"not a Message-ID: {row.message_id!r}")
    msg["Message-ID"] = own
    answered = headers.msg_ids(row.in_reply_to, limit=1)
    if answered:
        msg["In-Reply-To"] = answered[0]
    references = headers.msg_ids(row.references)
    if references:
        msg["References"] = " ".join(references)
    msg["Auto-Submitted"] = row.auto_submitted      # RFC 3834: never answer this
    msg["X-Loop"] = loop_id(config)
    msg["Precedence"] = "bulk"
    for name, value in list_headers(row.to, config):
        msg[name] = value
    msg.set_content(row.body)
    # Whatever the Python patch level: the bytes hold exactly the headers set here.
    headers.check_serialized(msg.as_bytes(policy=msg.policy.clone(linesep="\r\n")), msg.keys())
    return msg


UNKNOWN_WHY = ("interrupted while sending: the server may have received it, so it is not "
               "sent again automatically; only if it did not arrive, bnomic outbox --retry ID "
               "sends it again")


def list_headers(to: list[str], config: Config) -> list[tuple[str, str]]:
    """RFC 2369/2919 headers on what bnomic posts to a Public Forum: List-Id,
    List-Post, and List-Archive when `addresses.archive_url` is set."""
    public = [a.strip().lower() for a in (config.get("addresses.public_fora") or [])]
    forum = next((a.strip().lower() for a in to if a.strip().lower() in public), None)
    if forum is None:
        return []
    found = [("List-Id", f"B Nomic <{forum.replace('@', '.')}>"),
               ("List-Post", f"<mailto:{forum}>")]
    archive = (config.get("addresses.archive_url") or "").strip()
    if archive:
        found.append(("List-Archive", f"<{archive}>"))
    return found


def recover_interrupted() -> int:
    """Rows left "sending" by a crash become "unknown": never sent twice."""
    n = Outbox.update(state="unknown", last_error=UNKNOWN_WHY).where(Outbox.state == "sending").execute()
    if n:
        log.warning("outbox: %d message(s) interrupted while sending marked unknown", n)
    return n


def due(now: datetime):
    return list(Outbox.select().where(Outbox.state == "queued",
                                      (Outbox.next_attempt_at.is_null()) | (Outbox.next_attempt_at <= now))
                .order_by(Outbox.id).limit(100))


class Sender:
    """Sends what the outbox holds through the configured SMTP server."""

    RECORD_TRIES = 8                          # 0.25 s doubling: about a minute in all

    def __init__(self, settings: dict, config_fn):
        self.settings = settings or {}
        self.config_fn = config_fn            # the game configuration in force (for addresses)
        self.unrecorded: dict[int, object] = {}   # delivered, "sent" not yet recorded: id -> when

    def record_sent(self, row_id: int, at) -> bool:
        """Mark a delivered row "sent", retrying while the database is busy.
        Until it succeeds the row stays "sending" and is never sent again; the
        sender remembers it and tries again on every round."""
        delay = 0.25
        for attempt in range(self.RECORD_TRIES):
            try:
                with write_transaction():
                    Outbox.update(state="sent", sent_at=at, last_error=None) \
                        .where(Outbox.id == row_id).execute()
                self.unrecorded.pop(row_id, None)
                return True
            except (OperationalError, InterfaceError) as e:
                log.warning("outbox: row %d was delivered but recording it failed (%s); "
                            "trying again in %gs", row_id, e, delay)
                if attempt + 1 < self.RECORD_TRIES:
                    time.sleep(delay)
                    delay *= 2
        self.unrecorded[row_id] = at
        log.error("outbox: row %d was delivered; it stays \"sending\" until recording it "
                  "succeeds (it will not be sent again)", row_id)
        return False

    def _password(self) -> str | None:
        if self.settings.get("password_file"):
            with open(self.settings["password_file"]) as f:
                return f.read().strip()
        return self.settings.get("password")

    def connect(self) -> smtplib.SMTP:
        host = self.settings.get("host", "127.0.0.1")
        port = int(self.settings.get("port", 25))
        if self.settings.get("ssl"):
            smtp = smtplib.SMTP_SSL(host, port, timeout=30, context=tls.context(self.settings))
        else:
            smtp = smtplib.SMTP(host, port, timeout=30)
            if self.settings.get("starttls"):
                smtp.starttls(context=tls.context(self.settings))
        if self.settings.get("username"):
            smtp.login(self.settings["username"], self._password() or "")
        return smtp

    def send_due(self) -> int:
        """Send every row that is due; returns how many were sent."""
        for row_id, at in list(self.unrecorded.items()):
            self.record_sent(row_id, at)
        rows = due(wall_clock())
        if not rows:
            return 0
        config = self.config_fn()
        sent = 0
        try:
            smtp = self.connect()
        except (OSError, smtplib.SMTPException) as e:
            for row in rows:
                Outbox.update(attempts=Outbox.attempts + 1).where(Outbox.id == row.id).execute()
                self._failed(row, e, permanent=False)
            return 0
        try:
            for row in rows:
                with durable_transaction():      # "sending" survives a power cut: never twice
                    claimed = (Outbox.update(state="sending", attempts=Outbox.attempts + 1,
                                             next_attempt_at=wall_clock())  # the attempt began
                               .where(Outbox.id == row.id, Outbox.state == "queued").execute())
                if not claimed:
                    continue
                dead = bouncing(row.to)
                to = [a for a in row.to if a.strip().lower() not in dead]
                if not to:          # every recipient bounced: stop, say why
                    self._failed(row, RuntimeError("not sent: every recipient's address is "
                                                   "bouncing (bnomic show players)"), permanent=True)
                    continue
                try:
                    message = build(row, config)
                except Exception as e:      # a row that cannot become mail: say so, do not retry
                    self._failed(row, e, permanent=True)
                    continue
                try:
                    smtp.send_message(message, from_addr=processor_address(config),
                                      to_addrs=to)
                except smtplib.SMTPRecipientsRefused as e:
                    self._failed(row, e, permanent=all(c >= 500 for c, _ in e.recipients.values()))
                except smtplib.SMTPResponseException as e:
                    self._failed(row, e, permanent=e.smtp_code >= 500)
                except (OSError, smtplib.SMTPException) as e:
                    self._failed(row, e, permanent=False)
                    break                    # the connection is gone: retry later
                else:
                    self.record_sent(row.id, wall_clock())
                    log.info("sent %s %s to %s", row.kind, row.message_id, ", ".join(row.to))
                    sent += 1
        finally:
            try:
                smtp.quit()
            except (OSError, smtplib.SMTPException):
                pass
        return sent

    def _failed(self, row: Outbox, error: Exception, permanent: bool) -> None:
        row = Outbox.get_by_id(row.id)
        attempts = max(row.attempts, 1)
        give_up = permanent or attempts >= int(self.settings.get("max_attempts", MAX_ATTEMPTS))
        start = timedelta(seconds=float(self.settings.get("retry_start_seconds",
                                                          BACKOFF_START.total_seconds())))
        delay = min(start * 2 ** (attempts - 1), BACKOFF_MAX)
        Outbox.update(state="failed" if give_up else "queued", last_error=str(error)[:500],
                      next_attempt_at=None if give_up else wall_clock() + delay) \
            .where(Outbox.id == row.id).execute()
        log.warning("outbox: %s %s to %s: %s%s", row.kind, row.message_id, ", ".join(row.to),
                    error, " (gave up)" if give_up else f" (retry in {delay})")

    def run(self, stop: threading.Event, wake: threading.Event) -> None:
        """The sender loop of the daemon: send what is due, then wait to be woken."""
        while not stop.is_set():
            faults.inject("outbox")
            try:
                self.send_due()
            except Exception:
                log.exception("outbox: unexpected error")
            wake.wait(timeout=5)
            wake.clear()
