"""Issue 16: `bnomic ingest` stores an archive's mail in batches, each in one
durable transaction, and applies each batch in one transaction. The game it
makes is the one mail-by-mail storing makes; a killed ingest leaves whole
batches stored, loses nothing it committed, and a second run finishes it."""
import mailbox
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone

from conftest import Game, make_mail
from bnomic.mailer import inbound, runner
from bnomic.store import close_database, open_database, state_digest

START = datetime(2008, 9, 1, 0, 5, tzinfo=timezone.utc)


def archive(path, n: int, players: int = 8) -> str:
    box = mailbox.mbox(str(path), create=True)
    for i in range(n):
        p = i % players
        body = (f"I join as Player{p}." if i < players
                else f"Someone wrote:\n> I give m1 to Player{(p + 3) % players}.\n\n"
                     f"I give m1 to Player{(p + 1) % players}.\n\n-- \nPlayer{p}")
        box.add(make_mail(f"p{p}@example.org", body, msgid=f"<a{i}@example.org>",
                          date=(START + timedelta(minutes=i)).isoformat()))
    box.flush()
    box.close()
    return str(path)


def game_in(path) -> Game:
    path.mkdir()
    return Game(path)


def test_batches_make_the_game_mail_by_mail_storing_makes(tmp_path):
    mbox = archive(tmp_path / "a.mbox", 40)
    games = {}
    for batch in ("7", "1000"):
        g = game_in(tmp_path / f"b{batch}")
        g.cli("ingest", "--batch", batch, mbox)
        games[batch] = g.digest()
    one = game_in(tmp_path / "one")              # the way ingest stored mail before: one at a time
    open_database(one.db)
    for _, raw in sorted(((inbound.header_time(raw), raw) for raw in
                          (bytes(m) for m in mailbox.mbox(mbox).itervalues())), key=lambda t: t[0]):
        inbound.store_raw(raw, source="test", use_headers_for_time=True)
    runner.process_pending()
    alone = state_digest()
    close_database()
    assert games["7"] == games["1000"] == alone


def _stored(db: str) -> tuple[int, int]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as conn:
        return conn.execute("SELECT COUNT(*), COALESCE(SUM(processed), 0) FROM log").fetchone()


def test_an_ingest_killed_midway_loses_nothing_it_committed(tmp_path):
    n, batch = 120, 20
    mbox = archive(tmp_path / "a.mbox", n)
    g = game_in(tmp_path / "g")
    proc = subprocess.Popen([sys.executable, "-m", "bnomic.mailer.cli", "ingest", "--db", g.db,
                             "--batch", str(batch), mbox],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    while _stored(g.db)[0] < 2 * batch and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    stored, processed = _stored(g.db)
    assert stored % batch == 0 and processed % batch == 0 and processed <= stored   # whole batches
    with sqlite3.connect(g.db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    out = g.cli("ingest", "--batch", str(batch), mbox)       # the operator runs it again
    assert out.count("is already in the log; skipped") == stored
    assert _stored(g.db) == (n, n)
    clean = game_in(tmp_path / "clean")
    clean.cli("ingest", mbox)
    assert g.digest() == clean.digest()
