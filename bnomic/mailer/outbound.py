"""The outbox sender: SMTP out, with retries and backoff, never twice.

A row is marked "sending" (committed) before the SMTP transaction and "sent"
after it. A row found "sending" at start-up was interrupted mid-transaction:
whether the server got it cannot be known, so it becomes "unknown" and is not
sent again (an operator can requeue it: `bnomic outbox --retry ID`).
"""
from __future__ import annotations

import logging
import smtplib
import ssl
import threading
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime

from ..config import Config
from ..store import Outbox, durable_transaction
from .bounces import bouncing
from .inbound import wall_clock
from .receipts import loop_id, processor_address

log = logging.getLogger("bnomic.outbound")

MAX_ATTEMPTS = 12
BACKOFF_START = timedelta(seconds=30)
BACKOFF_MAX = timedelta(hours=1)


def build(row: Outbox, config: Config) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = f"bnomic <{processor_address(config)}>"
    msg["To"] = ", ".join(row.to)
    msg["Subject"] = row.subject
    msg["Date"] = format_datetime(row.queued_at)
    msg["Message-ID"] = row.message_id
    if row.in_reply_to:
        msg["In-Reply-To"] = row.in_reply_to
    if row.references:
        msg["References"] = row.references
    msg["Auto-Submitted"] = row.auto_submitted      # RFC 3834: never answer this
    msg["X-Loop"] = loop_id(config)
    msg["Precedence"] = "bulk"
    for name, value in list_headers(row.to, config):
        msg[name] = value
    msg.set_content(row.body)
    return msg


def list_headers(to: list[str], config: Config) -> list[tuple[str, str]]:
    """RFC 2369/2919 headers on what bnomic posts to a Public Forum: List-Id,
    List-Post, and List-Archive when `addresses.archive_url` is set."""
    public = [a.strip().lower() for a in (config.get("addresses.public_fora") or [])]
    forum = next((a.strip().lower() for a in to if a.strip().lower() in public), None)
    if forum is None:
        return []
    headers = [("List-Id", f"B Nomic <{forum.replace('@', '.')}>"),
               ("List-Post", f"<mailto:{forum}>")]
    archive = (config.get("addresses.archive_url") or "").strip()
    if archive:
        headers.append(("List-Archive", f"<{archive}>"))
    return headers


def recover_interrupted() -> int:
    """Rows left "sending" by a crash become "unknown": never sent twice."""
    n = Outbox.update(state="unknown", last_error="interrupted while sending; not resent "
                      "automatically (bnomic outbox --retry ID)").where(Outbox.state == "sending").execute()
    if n:
        log.warning("outbox: %d message(s) interrupted while sending marked unknown", n)
    return n


def due(now: datetime):
    return list(Outbox.select().where(Outbox.state == "queued",
                                      (Outbox.next_attempt_at.is_null()) | (Outbox.next_attempt_at <= now))
                .order_by(Outbox.id).limit(100))


class Sender:
    """Sends what the outbox holds through the configured SMTP server."""

    def __init__(self, settings: dict, config_fn):
        self.settings = settings or {}
        self.config_fn = config_fn            # the game configuration in force (for addresses)

    def _password(self) -> str | None:
        if self.settings.get("password_file"):
            with open(self.settings["password_file"]) as f:
                return f.read().strip()
        return self.settings.get("password")

    def connect(self) -> smtplib.SMTP:
        host = self.settings.get("host", "127.0.0.1")
        port = int(self.settings.get("port", 25))
        if self.settings.get("ssl"):
            smtp = smtplib.SMTP_SSL(host, port, timeout=30, context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(host, port, timeout=30)
            if self.settings.get("starttls"):
                smtp.starttls(context=ssl.create_default_context())
        if self.settings.get("username"):
            smtp.login(self.settings["username"], self._password() or "")
        return smtp

    def send_due(self) -> int:
        """Send every row that is due; returns how many were sent."""
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
                    claimed = (Outbox.update(state="sending", attempts=Outbox.attempts + 1)
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
                    Outbox.update(state="sent", sent_at=wall_clock(), last_error=None) \
                        .where(Outbox.id == row.id).execute()
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
            try:
                self.send_due()
            except Exception:
                log.exception("outbox: unexpected error")
            wake.wait(timeout=5)
            wake.clear()
