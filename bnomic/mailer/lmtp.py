"""The LMTP (and plain SMTP) receiver, with aiosmtpd.

It only stores (invariant 5): `250` is said only after the raw message is
committed (on SQLite to the intake spool, which never waits for the engine); `451` on a failure to store, so the MTA retries; one
status per recipient in LMTP. The size limit is aiosmtpd's `data_size_limit`
(552). Storing runs in a worker thread, never on the event loop.
"""
from __future__ import annotations

import asyncio
import logging
import os
import socket
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP

from .inbound import receive

log = logging.getLogger("bnomic.lmtp")

DEFAULT_MAX_SIZE = 1024 * 1024


class StoreHandler:
    """aiosmtpd handler: commit each message to the log, then say OK."""

    def __init__(self, executor: ThreadPoolExecutor, wake: Callable[[], None], source: str,
                 lmtp: bool, store: Callable = receive):
        self.executor = executor
        self.wake = wake
        self.source = source
        self.lmtp = lmtp
        self.store = store

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or b""
        mail_from = envelope.mail_from if envelope.mail_from not in (None, "<>") else ""
        rcpts = list(envelope.rcpt_tos)
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
