"""Issue 11 item 1: the watchdog is fed while one long message is being read.

The daemon's engine registers its watchdog ping with the reader's step budget
(handlers/budget); reading a long message then pings systemd's NOTIFY_SOCKET
(a real datagram socket here) before the message is done.
"""
from __future__ import annotations

import socket
import threading

import pytest

from bnomic.handlers import budget, grammar
from bnomic.mailer.daemon import Daemon
from bnomic.store import close_database, open_database


@pytest.fixture
def notify(tmp_path, monkeypatch):
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(0.2)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "60000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    yield sock
    sock.close()


def heard(sock) -> list[str]:
    out = []
    while True:
        try:
            out.append(sock.recv(4096).decode())
        except (socket.timeout, BlockingIOError):
            return out


def test_the_engine_registers_its_watchdog_ping_with_the_reader(game, notify):
    open_database(game.db)
    try:
        daemon = Daemon({}, game.db)
        budget.set_progress(None)
        daemon.stop.set()                   # one pass of the loop's set-up, then out
        t = threading.Thread(target=daemon.engine_loop)
        t.start()
        t.join(timeout=30)
        assert not t.is_alive()
        assert budget._progress == daemon.reading_progress
    finally:
        budget.set_progress(None)
        close_database()


def test_reading_a_long_message_pings_the_watchdog_before_it_is_done(game, notify):
    daemon = Daemon({}, game.db)
    assert daemon.watchdog is not None
    daemon._ping = float("-inf")
    pings_during = []
    budget.set_progress(daemon.reading_progress, every=10_000)
    try:
        text = "\n".join(f"I give m{i} to Wooble and then I think about it." for i in range(300))
        with budget.bounded(None):
            grammar.read(text)
            pings_during = heard(notify)     # before the message is done with
    finally:
        budget.set_progress(None)
    assert "WATCHDOG=1" in pings_during
    # throttled: one long message does not flood systemd with pings
    assert len(pings_during) <= 3
