"""Running the real daemon (`bnomic run`) in a subprocess, and a real SMTP sink."""
from __future__ import annotations

import json
import os
import signal
import smtplib
import socket
import subprocess
import sys
import threading
import time
from email import message_from_bytes
from pathlib import Path

from aiosmtpd.controller import Controller

from servers import free_port


class Sink:
    """A real SMTP server on loopback that keeps what it receives."""

    def __init__(self):
        self.messages: list = []
        self.lock = threading.Lock()
        self.controller = Controller(self, hostname="127.0.0.1", port=free_port())

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.messages.append((envelope.mail_from, list(envelope.rcpt_tos),
                                  message_from_bytes(envelope.original_content)))
        return "250 OK"

    @property
    def port(self):
        return self.controller.port

    def start(self):
        self.controller.start()
        return self

    def stop(self):
        self.controller.stop()

    def wait_for(self, n: int, timeout: float = 20) -> list:
        deadline = time.time() + timeout
        while time.time() < deadline:
            with self.lock:
                if len(self.messages) >= n:
                    return list(self.messages)
            time.sleep(0.05)
        with self.lock:
            return list(self.messages)


def write_config(folder: Path, sink_port: int, lmtp_port: int | None = None, **extra) -> Path:
    """An operator's TOML file: LMTP on lmtp_port, SMTP out to sink_port, the fora;
    extra tables are merged in (extra={"smtp_out": {...}} overrides keys)."""
    tables = {
        "lmtp": {"max_message_size": 1048576, "catch_up_wait_seconds": 0,
                 **({"listen": f"127.0.0.1:{lmtp_port}"} if lmtp_port else {})},
        "smtp_out": {"host": "127.0.0.1", "port": sink_port},
        "addresses": {"processor": "bnomic@example.org", "public_fora": ["business@example.org"],
                      "discussion_fora": ["discuss@example.org"]},
    }
    for section, values in extra.items():
        tables.setdefault(section, {}).update(values)
    lines = []
    for section, values in tables.items():
        lines.append(f"[{section}]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in values.items()]
    path = folder / "bnomic.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


class DaemonProcess:
    def __init__(self, config: Path, db: str, env: dict | None = None, pass_fds=()):
        self.config, self.db = config, db
        self.env = dict(os.environ, **(env or {}))
        self.pass_fds = pass_fds
        self.proc = None
        self.log = Path(str(config) + ".log")

    def start(self, wait_port: int | None = None):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bnomic.mailer.cli", "run", "--config", str(self.config),
             "--db", self.db], stderr=open(self.log, "ab"), stdout=subprocess.DEVNULL,
            env=self.env, pass_fds=self.pass_fds)
        if wait_port:
            wait_listening(wait_port, self)
        return self

    def terminate(self, timeout=20) -> int:
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout)

    def kill(self):
        self.proc.kill()
        self.proc.wait(10)

    def output(self) -> str:
        return self.log.read_text(errors="replace")


def wait_listening(port: int, daemon: DaemonProcess | None = None, timeout: float = 20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if daemon is not None and daemon.proc.poll() is not None:
            raise RuntimeError(f"the daemon exited: {daemon.output()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listening on {port}")


# bnomic is subscribed to the list under its own list address: the envelope
# says the mail came through the list (mail to the processor alone is private)
LIST_COPY = "bnomic+business@example.org"


def lmtp_send(port: int, raw: bytes, mail_from: str = "sender@example.org",
              rcpts=(LIST_COPY,)):
    with smtplib.LMTP("127.0.0.1", port) as lmtp:
        return lmtp.sendmail(mail_from, list(rcpts), raw)


def lmtp_statuses(port: int, raw: bytes, rcpts, mail_from: str = "sender@example.org") -> list[int]:
    """One LMTP transaction by hand: the reply code for each recipient after DATA."""
    with smtplib.LMTP("127.0.0.1", port) as lmtp:
        lmtp.ehlo_or_helo_if_needed()
        lmtp.mail(mail_from)
        for r in rcpts:
            lmtp.rcpt(r)
        lmtp.send(b"DATA\r\n")
        assert lmtp.getreply()[0] == 354
        lmtp.send(raw.replace(b"\n", b"\r\n") + b"\r\n.\r\n")
        return [lmtp.getreply()[0] for _ in rcpts]
