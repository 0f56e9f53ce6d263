"""Issue 11, item 9: a `rebuild` killed halfway must not wedge the game. A
rebuild is one transaction: killed, it leaves the game as it was, and the
engine goes on processing new mail (it used to fail on every try with
"UNIQUE constraint failed: outbox.message_id")."""
import signal
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone

from conftest import make_mail
from bnomic.mailer import inbound, runner
from bnomic.store import Entry, Outbox, close_database, open_database, state_digest

N = 120


def rebuild_process(db):
    return subprocess.Popen([sys.executable, "-m", "bnomic.mailer.cli", "rebuild", "--db", db],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_a_rebuild_killed_midway_leaves_the_game_working(game):
    open_database(game.db)
    at = datetime(2008, 9, 1, 10, tzinfo=timezone.utc)
    for i in range(N):          # processed as the daemon does: each with its receipt
        inbound.store_raw(make_mail(f"p{i}@example.org", f"I join as Player{i}.", msgid=f"<j{i}@x>"),
                          source="test", at=at + timedelta(minutes=i))
    runner.process_pending(emit=True)
    assert Outbox.select().count() == N
    live = state_digest()
    close_database()

    began = time.monotonic()                    # how long a whole rebuild takes here
    assert rebuild_process(game.db).wait(120) == 0
    whole = time.monotonic() - began
    proc = rebuild_process(game.db)
    time.sleep(whole * 0.6)
    proc.send_signal(signal.SIGKILL)
    assert proc.wait(10) == -signal.SIGKILL     # killed before it finished

    open_database(game.db)
    assert Entry.select().where(Entry.processed == False).count() == 0   # noqa: E712
    assert state_digest() == live               # as it was before the rebuild
    inbound.store_raw(make_mail("late@example.org", "I join as Late.", msgid="<late@x>"),
                      source="test", at=at + timedelta(days=1))
    done = runner.process_pending(emit=True)    # the daemon's engine, after the kill
    assert [e.seq for e, _ in done] == [N + 1] and done[0][1][0].accepted
    assert Outbox.select().count() == N + 1
    after = state_digest()
    runner.rebuild()
    assert state_digest() == after              # the same as a clean rebuild's
    close_database()
