"""The IMAP poller against a real Dovecot (Debian's dovecot-imapd): delivery,
a restart from the checkpoint, a reconnect after the server went away, a new
UIDVALIDITY, and IDLE."""
from __future__ import annotations

import logging
import re
import threading
import time
from datetime import datetime, timedelta, timezone

import pytest

from bnomic.mailer import runner
from bnomic.mailer.imap import ImapPoller, _utc
from bnomic.store import Checkpoint, Message, close_database, open_database
from conftest import make_mail
from servers import DovecotServer, dovecot_bin

CEST = timezone(timedelta(hours=2))


@pytest.fixture
def dovecot(tmp_path):
    if dovecot_bin() is None:
        pytest.skip("Dovecot is not installed (apt-get install dovecot-imapd)")
    server = DovecotServer()
    try:
        yield server.start()
    finally:
        server.close(keep_log=tmp_path / "dovecot.log")


@pytest.fixture
def db(game):
    """The game's database opened in this process, as the daemon would."""
    open_database(game.db)
    yield game
    close_database()


def wait_for(condition, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def stored_ids() -> list[str]:
    return [m.message_id for m in Message.select().order_by(Message.entry)]


def append(server: DovecotServer, mailbox: str, *mails: bytes, at: datetime | None = None) -> None:
    c = server.client()
    try:
        for raw in mails:
            c.append(mailbox, raw, msg_time=at)
    finally:
        c.logout()


class Runner:
    """poller.run() in its own thread, counting its polls; always stopped."""

    def __init__(self, poller: ImapPoller):
        self.poller = poller
        self.polls = 0
        inner = poller.poll_once

        def counting():
            self.polls += 1
            return inner()
        poller.poll_once = counting
        self.thread = threading.Thread(target=poller.run, name="imap-test", daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.poller.stop.set()
        began = time.monotonic()
        self.thread.join(timeout=10)
        assert not self.thread.is_alive(), "the poller did not stop"
        self.stop_seconds = time.monotonic() - began


# ------------------------------------------------------------ without a server

def test_internaldate_becomes_aware_utc():
    assert _utc(datetime(2008, 9, 1, 12, 0, tzinfo=CEST)) == datetime(2008, 9, 1, 10, 0, tzinfo=timezone.utc)
    assert _utc(datetime(2008, 9, 1, 12, 0)).tzinfo is timezone.utc
    assert _utc(None) is None


def test_settings(tmp_path):
    secret = tmp_path / "pw"
    secret.write_text("hunter2\n")
    p = ImapPoller({"username": "bot", "password_file": str(secret)})
    assert (p.password, p.host, p.port, p.mailbox) == ("hunter2", "127.0.0.1", 143, "INBOX")
    assert (p.idle_renew, p.backoff_start, p.backoff_max) == (300, 1, 300)
    assert p.source == "imap:bot@127.0.0.1:143/INBOX"
    assert ImapPoller({"username": "bot", "password": "x", "ssl": True}).port == 993
    with pytest.raises(ValueError):
        ImapPoller({"username": "bot"})
    with pytest.raises(ValueError):
        ImapPoller({"username": "bot", "password": "x", "ssl": True, "starttls": True})


# --------------------------------------------------------------- with Dovecot

def test_delivers_to_the_log_and_the_game_without_setting_seen(dovecot, db):
    join = make_mail("wooble@example.org", "I join as Wooble.", msgid="<join@example.org>")
    hello = make_mail("ais@example.org", "Hello all.", msgid="<hello@example.org>")
    append(dovecot, "INBOX", join, hello, at=datetime(2008, 9, 1, 12, 0, tzinfo=CEST))
    woken = []
    poller = ImapPoller(dovecot.settings(), wake=lambda: woken.append(True))
    try:
        assert poller.poll_once() == 2
        assert poller.last_fetched == [1, 2]
        assert poller.poll_once() == 0          # nothing new: nothing fetched
        assert poller.last_fetched == []
    finally:
        poller.close()
    assert woken

    log = db.show("log")
    assert [(e["message_id"], e["sender"], e["at"], e["processed"]) for e in log] == [
        ("<join@example.org>", "wooble@example.org", "2008-09-01T10:00:00Z", False),
        ("<hello@example.org>", "ais@example.org", "2008-09-01T10:00:00Z", False)]
    msg = Message.get(Message.message_id == "<join@example.org>")
    assert msg.source == poller.source == f"imap:bot@127.0.0.1:{dovecot.port}/INBOX"
    assert bytes(msg.raw).replace(b"\r\n", b"\n") == join       # IMAP sends CRLF

    runner.process_pending()
    assert "Wooble" in db.players()
    assert all(e["processed"] for e in db.show("log"))

    c = dovecot.client()
    try:
        validity = c.select_folder("INBOX", readonly=True)[b"UIDVALIDITY"]
        flags = c.get_flags([1, 2])
    finally:
        c.logout()
    assert not any(b"\\Seen" in f for f in flags.values()), flags
    cp = Checkpoint.get(Checkpoint.source == poller.source)
    assert (cp.uidvalidity, cp.last_uid) == (validity, 2)
    assert cp.updated_at.tzinfo is not None


def test_a_restart_resumes_from_the_checkpoint(dovecot, db, tmp_path):
    append(dovecot, "INBOX", *(make_mail(f"p{i}@example.org", "Hello.", msgid=f"<r{i}@example.org>")
                               for i in (1, 2)))
    first = ImapPoller(dovecot.settings())
    assert first.poll_once() == 2
    first.close()

    append(dovecot, "INBOX", make_mail("p3@example.org", "Hello.", msgid="<r3@example.org>"))
    secret = tmp_path / "imap-password"
    secret.write_text(dovecot.password + "\n")
    settings = dovecot.settings()
    del settings["password"]
    second = ImapPoller({**settings, "password_file": str(secret)})
    try:
        assert second.poll_once() == 1
        assert second.last_fetched == [3]       # only the new one was fetched
    finally:
        second.close()
    assert Checkpoint.get(Checkpoint.source == second.source).last_uid == 3

    third = ImapPoller(dovecot.settings())      # "4:*" still matches UID 3: filtered out
    try:
        assert third.poll_once() == 0
        assert third.last_fetched == []
    finally:
        third.close()
    assert stored_ids() == ["<r1@example.org>", "<r2@example.org>", "<r3@example.org>"]


def test_reconnects_with_backoff_after_the_server_went_away(dovecot, db, caplog):
    caplog.set_level(logging.INFO, logger="bnomic.imap")
    append(dovecot, "INBOX", make_mail("a@example.org", "One.", msgid="<before@example.org>"))
    woke = threading.Event()
    poller = ImapPoller(dovecot.settings(backoff_start_seconds=0.1, backoff_max_seconds=0.4),
                        wake=woke.set, stop=threading.Event())
    with Runner(poller):
        assert wait_for(lambda: stored_ids() == ["<before@example.org>"])
        assert woke.is_set()

        dovecot.stop()                          # sessions end too: the poller sees BYE
        assert wait_for(lambda: len(warnings(caplog)) >= 4, timeout=10)
        dovecot.start()                         # same configuration, same port
        append(dovecot, "INBOX", make_mail("b@example.org", "Two.", msgid="<after@example.org>"))
        assert wait_for(lambda: stored_ids() == ["<before@example.org>", "<after@example.org>"])

    delays = [float(re.search(r"reconnecting in ([\d.]+)s", m).group(1)) for m in warnings(caplog)]
    assert delays[:4] == [0.1, 0.2, 0.4, 0.4]       # doubling, capped
    assert all("\n" not in m for m in warnings(caplog))


def warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == "bnomic.imap" and r.levelno == logging.WARNING]


def test_a_new_uidvalidity_rescans_and_deduplicates(dovecot, db):
    m1, m2, m3 = (make_mail(f"p{i}@example.org", "Hello.", msgid=f"<u{i}@example.org>")
                  for i in (1, 2, 3))
    c = dovecot.client()
    c.create_folder("bnomic")
    c.logout()
    append(dovecot, "bnomic", m1, m2)
    poller = ImapPoller(dovecot.settings(mailbox="bnomic"))
    try:
        assert poller.poll_once() == 2
        old = Checkpoint.get(Checkpoint.source == poller.source)
        assert old.last_uid == 2

        c = dovecot.client()
        try:
            c.delete_folder("bnomic")
            c.create_folder("bnomic")
            # the new one first: under the old numbering UID 3 (> last_uid 2) is m2, a
            # message already stored, so only a full rescan finds m3 (now UID 1)
            for raw in (m3, m1, m2):
                c.append("bnomic", raw)
            validity = c.select_folder("bnomic", readonly=True)[b"UIDVALIDITY"]
        finally:
            c.logout()
        assert validity != old.uidvalidity

        assert poller.poll_once() == 1
        assert poller.last_fetched == [1, 2, 3]
    finally:
        poller.close()
    cp = Checkpoint.get(Checkpoint.source == poller.source)
    assert (cp.uidvalidity, cp.last_uid) == (validity, 3)
    assert stored_ids() == ["<u1@example.org>", "<u2@example.org>", "<u3@example.org>"]


def test_idle_delivers_without_waiting_for_a_poll(dovecot, db):
    poller = ImapPoller(dovecot.settings(idle_renew_seconds=120), stop=threading.Event())
    with Runner(poller) as r:
        assert wait_for(lambda: Checkpoint.get_or_none(Checkpoint.source == poller.source))
        time.sleep(0.5)                         # now in IDLE
        assert r.polls == 1
        append(dovecot, "INBOX", make_mail("a@example.org", "Hi.", msgid="<idle@example.org>"))
        sent = time.monotonic()
        assert wait_for(lambda: stored_ids() == ["<idle@example.org>"], timeout=5)
        assert time.monotonic() - sent < 3
        assert r.polls == 2                     # woken by EXISTS, not by polling in a loop
    assert r.stop_seconds < 4                   # stop is noticed within an idle_check


def test_mail_that_came_during_a_poll_is_seen_at_once_by_idle(dovecot, db):
    # Dovecot sends "+ idling" and the EXISTS of mail that came since the last
    # command together; imaplib buffers both, and a plain idle_check() would
    # not see the EXISTS until the IDLE is renewed (idle_renew_seconds).
    poller = ImapPoller(dovecot.settings(idle_renew_seconds=8))
    try:
        assert poller.poll_once() == 0
        append(dovecot, "INBOX", make_mail("a@example.org", "Hi.", msgid="<race@example.org>"))
        began = time.monotonic()
        poller._wait_for_mail()
        assert time.monotonic() - began < 2
        assert poller.poll_once() == 1
    finally:
        poller.close()
