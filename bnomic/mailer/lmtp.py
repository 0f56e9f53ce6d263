"""The LMTP (and plain SMTP) receiver, with aiosmtpd.

It only stores (invariant 5): `250` is said only after the raw message is
committed (on SQLite to the intake spool, which never waits for the engine);
`451` on a failure to store, so the MTA retries; one status per recipient in
LMTP. The size limit is aiosmtpd's `data_size_limit` (552). Storing runs in a
worker thread, never on the event loop.

In `bnomic run` on SQLite the daemon's receivers share one `Spooler`: a thread
with its own connection to the spool that commits every mail waiting at that
moment in ONE synchronous transaction (group commit), then lets each receiver
answer 250; the mail is read only later, by the engine (store/intake.py).
"""
from __future__ import annotations

import asyncio
import logging
import os
import queue
import socket
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Callable

from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP

from ..store import intake
from .inbound import receive, wall_clock

log = logging.getLogger("bnomic.lmtp")

DEFAULT_MAX_SIZE = 1024 * 1024


class Spooler:
    """Group commit to the intake spool: receivers `put` mail from any thread or
    the event loop; one thread commits all that is waiting in one transaction
    (synchronous=FULL: on disk), then resolves each put's future and calls
    `wake` once. A failed commit fails every put of it (each receiver says 451)."""

    def __init__(self, wake: Callable[[], None]):
        self.wake = wake
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.writer = intake.Writer()
        self.thread = threading.Thread(target=self.run, name="spooler", daemon=True)
        self.thread.start()

    def put(self, raw: bytes, source: str, envelope_from: str | None,
            rcpt_tos: list[str] | None) -> Future:
        """A future of the mail's spool id, set once it is committed."""
        done: Future = Future()
        self.queue.put((done, (raw, wall_clock(), source, envelope_from, rcpt_tos)))
        return done

    def run(self) -> None:
        while True:
            first = self.queue.get()
            if first is None:
                break
            batch = [first]
            stop = False
            while True:                         # everything waiting now: one commit
                try:
                    item = self.queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            try:
                ids = self.writer.put([mail for _, mail in batch])
            except Exception as e:
                for done, _ in batch:
                    done.set_exception(e)
            else:
                for (done, _), spooled in zip(batch, ids):
                    done.set_result(spooled)
                self.wake()
            if stop:
                break
        self.writer.close()

    def close(self) -> None:
        """Commit what was put, then stop (every put before this gets its answer)."""
        if self.thread.is_alive():
            self.queue.put(None)
            self.thread.join()


class StoreHandler:
    """aiosmtpd handler: commit each message to the log, then say OK. With a
    Spooler, the commit is the spooler's (group commit); else `store`, run in
    the executor."""

    def __init__(self, executor: ThreadPoolExecutor, wake: Callable[[], None], source: str,
                 lmtp: bool, store: Callable = receive, spooler: Spooler | None = None):
        self.executor = executor
        self.wake = wake
        self.source = source
        self.lmtp = lmtp
        self.store = store
        self.spooler = spooler

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or b""
        mail_from = envelope.mail_from if envelope.mail_from not in (None, "<>") else ""
        rcpts = list(envelope.rcpt_tos)
        if self.spooler is not None:
            return await self._spool(raw, mail_from, rcpts)
        loop = asyncio.get_running_loop()
        try:
            mid, stored = await loop.run_in_executor(
                self.executor, lambda: self.store(raw, source=self.source, envelope_from=mail_from,
                                                  rcpt_tos=rcpts))
        except Exception as e:
            log.error("could not store a message from %s: %s", mail_from or "<>", e)
            status = "451 4.3.0 Could not store the message; please try again later"
        else:
            log.info("%s %s from %s", "stored" if stored else "already had", mid, mail_from or "<>")
            self.wake()
            status = "250 2.0.0 OK: stored in the bnomic log"
        return "\r\n".join([status] * (len(rcpts) if self.lmtp else 1))

    async def _spool(self, raw: bytes, mail_from: str, rcpts: list[str]) -> str:
        try:
            spooled = await asyncio.wrap_future(self.spooler.put(raw, self.source, mail_from, rcpts))
        except Exception as e:
            log.error("could not store a message from %s: %s", mail_from or "<>", e)
            status = "451 4.3.0 Could not store the message; please try again later"
        else:
            log.info("stored arrival #%d (%d bytes) from %s", spooled, len(raw), mail_from or "<>")
            status = "250 2.0.0 OK: stored in the bnomic log"
        return "\r\n".join([status] * (len(rcpts) if self.lmtp else 1))


class BnomicLMTP(LMTP):
    """aiosmtpd's LMTP, but a refusal after DATA gets one reply per recipient
    (RFC 2033 4.2), as LMTP clients wait for: aiosmtpd sends one."""

    AFTER_DATA = ("552 Error: Too much mail data", "500 Line too long")

    async def push(self, status: str):
        if status.startswith(self.AFTER_DATA) and self.envelope is not None \
                and len(self.envelope.rcpt_tos) > 1:
            status = "\r\n".join([status] * len(self.envelope.rcpt_tos))
        await super().push(status)


def _protocol(kind: str, handler: StoreHandler, max_size: int, hostname: str):
    cls = BnomicLMTP if kind == "lmtp" else SMTP
    return lambda: cls(handler, data_size_limit=max_size, enable_SMTPUTF8=True,
                       decode_data=False, hostname=hostname, ident="bnomic")


async def start_server(kind: str, listen: str | int, handler: StoreHandler, max_size: int):
    """Listen on "HOST:PORT", "unix:/path", or an inherited socket (an int fd)."""
    factory = _protocol(kind, handler, max_size, socket.getfqdn())
    loop = asyncio.get_running_loop()
    if isinstance(listen, int):
        sock = socket.socket(fileno=listen)
        if sock.family == socket.AF_UNIX:
            return await loop.create_unix_server(factory, sock=sock)
        return await loop.create_server(factory, sock=sock)
    if listen.startswith("unix:"):
        path = listen[len("unix:"):]
        if os.path.exists(path):
            os.unlink(path)
        server = await loop.create_unix_server(factory, path=path)
        os.chmod(path, 0o660)
        return server
    host, _, port = listen.rpartition(":")
    return await loop.create_server(factory, host=host.strip("[]") or "127.0.0.1", port=int(port))
