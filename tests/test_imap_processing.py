"""Issue 11, IMAP: processed mail flagged or moved (the mailbox opened
read-write only then), mail older than the game never applied as new, and the
poller's health in `bnomic status`. Against a real Dovecot."""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from bnomic.mailer.imap import ImapPoller
from bnomic.store import Message
from conftest import make_mail
from servers import free_port
from test_imap import append, db, dovecot, stored_ids  # noqa: F401  (fixtures)

UTC = timezone.utc
IN_GAME = datetime(2008, 9, 1, 12, 0, tzinfo=UTC)          # the game starts 2008-09-01T00:00Z


def flags_and_folders(server, folder="INBOX"):
    c = server.client()
    try:
        c.select_folder(folder, readonly=True)
        flags = c.get_flags(c.search(["ALL"]))
        return {uid: set(f) for uid, f in flags.items()}, [f[2] for f in c.list_folders()]
    finally:
        c.logout()


def test_processed_mail_is_flagged(dovecot, db):
    append(dovecot, "INBOX", make_mail("a@example.org", "Hello.", msgid="<f1@example.org>"),
           make_mail("b@example.org", "Hello.", msgid="<f2@example.org>"), at=IN_GAME)
    poller = ImapPoller(dovecot.settings(flag="$bnomic"))
    try:
        assert poller.poll_once() == 2
    finally:
        poller.close()
    flags, _ = flags_and_folders(dovecot)
    assert all(b"$bnomic" in f and b"\\Seen" not in f for f in flags.values()), flags


def test_processed_mail_is_moved_to_a_folder_it_creates(dovecot, db):
    append(dovecot, "INBOX", make_mail("a@example.org", "I join as Alice.", msgid="<m1@example.org>"),
           make_mail("b@example.org", "Hello.", msgid="<m2@example.org>"), at=IN_GAME)
    poller = ImapPoller(dovecot.settings(move_to="Processed", flag="\\Seen"))
    try:
        assert poller.poll_once() == 2
        append(dovecot, "INBOX", make_mail("c@example.org", "Hello.", msgid="<m3@example.org>"),
               at=IN_GAME)
        assert poller.poll_once() == 1
    finally:
        poller.close()
    assert stored_ids() == ["<m1@example.org>", "<m2@example.org>", "<m3@example.org>"]
    inbox, folders = flags_and_folders(dovecot)
    assert inbox == {} and "Processed" in folders
    moved, _ = flags_and_folders(dovecot, "Processed")
    assert len(moved) == 3 and all(b"\\Seen" in f for f in moved.values())


def test_read_only_by_default(dovecot, db):
    append(dovecot, "INBOX", make_mail("a@example.org", "Hello.", msgid="<ro@example.org>"), at=IN_GAME)
    poller = ImapPoller(dovecot.settings())
    try:
        poller.poll_once()
        assert poller._client.folder_status("INBOX", [b"MESSAGES"])[b"MESSAGES"] == 1
        assert poller._client._imap.is_readonly          # EXAMINE, not SELECT
    finally:
        poller.close()
    flags, folders = flags_and_folders(dovecot)
    assert flags[1] - {b"\\Recent"} == set() and folders == ["INBOX"]


def test_mail_older_than_the_game_or_not_before_is_never_applied(dovecot, db):
    append(dovecot, "INBOX", make_mail("old@example.org", "I join as Old.", msgid="<old@example.org>"),
           at=datetime(2007, 5, 1, tzinfo=UTC))
    append(dovecot, "INBOX", make_mail("early@example.org", "I join as Early.", msgid="<early@example.org>"),
           at=datetime(2008, 9, 1, 6, 0, tzinfo=UTC))
    append(dovecot, "INBOX", make_mail("new@example.org", "I join as New.", msgid="<new@example.org>"),
           at=IN_GAME)
    poller = ImapPoller(dovecot.settings(not_before="2008-09-01T08:00:00Z", move_to="Done"))
    try:
        assert poller.poll_once() == 1
        assert poller.last_skipped == [1, 2] and poller.last_fetched == [3]
        assert poller.poll_once() == 0          # not read again
    finally:
        poller.close()
    assert stored_ids() == ["<new@example.org>"]
    inbox, _ = flags_and_folders(dovecot)
    assert sorted(inbox) == [1, 2]             # left where they were, untouched
    # without not_before, the game's start is the limit
    db.cli("show", "clock")
    poller = ImapPoller(dovecot.settings(mailbox="INBOX"))
    poller.source += "-again"                  # a fresh checkpoint: read the mailbox again
    try:
        assert poller.poll_once() == 1 and poller.last_skipped == [1]
    finally:
        poller.close()
    assert "<early@example.org>" in stored_ids() and "<old@example.org>" not in stored_ids()


def test_status_shows_the_pollers_health(dovecot, db):
    assert json.loads(db.cli("status", "--json"))["imap"] is None
    append(dovecot, "INBOX", make_mail("a@example.org", "Hello.", msgid="<h1@example.org>"), at=IN_GAME)
    poller = ImapPoller(dovecot.settings())
    poller.poll_once()
    poller.close()
    imap = json.loads(db.cli("status", "--json"))["imap"]
    assert imap["connected"] is True and imap["last_uid"] == 1 and imap["last_error"] is None
    assert imap["source"] == poller.source and imap["last_poll"].endswith("Z")
    last_poll = imap["last_poll"]

    dovecot.stop()
    with pytest.raises(Exception):
        poller.poll_once()
    with pytest.raises(Exception):
        poller.poll_once()
    imap = json.loads(db.cli("status", "--json"))["imap"]
    assert imap["connected"] is False and imap["failures"] == 2
    assert "ConnectionRefusedError" in imap["last_error"] and imap["last_poll"] == last_poll
    text = db.cli("status")
    assert "NOT connected (2 failed attempts in a row)" in text and "ConnectionRefusedError" in text

    dovecot.start()
    poller.poll_once()
    poller.close()
    imap = json.loads(db.cli("status", "--json"))["imap"]
    assert imap["connected"] is True and imap["failures"] == 0
    assert "ConnectionRefusedError" in imap["last_error"]       # the last error is kept


def test_unknown_imap_settings_are_refused():
    with pytest.raises(ValueError, match="movee_to"):
        ImapPoller({"username": "bot", "password": "x", "movee_to": "Done"})


# ------------------------------------------------------------------------ TLS

class TlsDovecot:
    """The test Dovecot with TLS on: STARTTLS on its IMAP port, with a
    self-signed certificate for 127.0.0.1 made by openssl."""

    def __init__(self, folder):
        import shutil
        import subprocess

        from servers import DovecotServer, dovecot_bin
        if dovecot_bin() is None:
            pytest.skip("Dovecot is not installed (apt-get install dovecot-imapd)")
        if shutil.which("openssl") is None:
            pytest.skip("openssl is not installed")
        self.server = DovecotServer()
        self.cert, key = self.server.folder / "cert.pem", self.server.folder / "key.pem"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                        "-keyout", str(key), "-out", str(self.cert), "-subj", "/CN=127.0.0.1",
                        "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
        self.server._write_config()
        conf = self.server.conf.read_text().replace("ssl = no\n", (
            f"ssl = yes\nssl_cert = <{self.cert}\nssl_key = <{key}\n"
            if self.server.version() < (2, 4) else
            f"ssl = yes\nssl_server_cert_file = {self.cert}\nssl_server_key_file = {key}\n"))
        self.server.conf.write_text(conf)
        self.server.start()


@pytest.fixture
def tls_dovecot(tmp_path):
    d = TlsDovecot(tmp_path)
    try:
        yield d
    finally:
        d.server.close(keep_log=tmp_path / "dovecot.log")


def test_imap_starttls_with_a_cafile_or_without_verifying(tls_dovecot, db):
    import ssl
    server = tls_dovecot.server
    append(server, "INBOX", make_mail("a@example.org", "Hello.", msgid="<tls@example.org>"), at=IN_GAME)
    with pytest.raises(ssl.SSLCertVerificationError):       # the system's CAs do not know it
        ImapPoller(server.settings(starttls=True)).poll_once()
    for extra in ({"cafile": str(tls_dovecot.cert)}, {"verify": False}):
        poller = ImapPoller(server.settings(starttls=True, **extra))
        poller.source += str(extra)                          # each reads the mailbox afresh
        try:
            poller.poll_once()
            assert poller.last_fetched == [1]
            assert poller._client._imap.sock.version().startswith("TLS")
        finally:
            poller.close()
    assert stored_ids() == ["<tls@example.org>"]
