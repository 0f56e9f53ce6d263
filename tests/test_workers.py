"""Issue 11, item 3: failures are loud. When any worker's loop dies (the
engine, the outbox sender, the IMAP poller, the receivers' event loop), `bnomic
run` stops with a non-zero exit so that systemd restarts it, instead of
saying 250 to mail it will never process. Each death is injected through the
daemon's own hook (mailer/faults.py: BNOMIC_FAULTS names a file naming the worker)."""
import pytest

from conftest import make_mail
from daemon import DaemonProcess, Sink, lmtp_send, write_config
from servers import free_port


@pytest.mark.parametrize("worker", ["engine", "outbox", "imap", "receiver"])
def test_a_dying_worker_stops_the_daemon_non_zero(live_game, tmp_path, worker):
    sink = Sink().start()
    port = free_port()
    extra = {"imap": {"host": "127.0.0.1", "port": free_port(), "username": "u",
                      "password": "p"}} if worker == "imap" else {}
    cfg = write_config(tmp_path, sink.port, port, **extra)
    faults = tmp_path / "faults"
    d = DaemonProcess(cfg, live_game.db, env={"BNOMIC_FAULTS": str(faults)}).start(wait_port=port)
    try:
        lmtp_send(port, make_mail("w@example.org", "I join as Wooble"))     # working
        assert len(sink.wait_for(1)) == 1
        faults.write_text(worker)
        code = d.proc.wait(30)
        assert code != 0
        out = d.output()
        assert "died" in out and f"injected into the {worker} loop" in out
    finally:
        if d.proc.poll() is None:
            d.kill()
        sink.stop()


def test_a_lock_held_too_long_does_not_kill_the_engine(live_game, tmp_path):
    """The issue's case: another connection holds the write lock past SQLite's
    busy timeout (10 s). The engine's heartbeat write failed outside its guard
    and the thread died while LMTP went on saying 250; now it waits and goes on."""
    import sqlite3
    import time
    from test_daemon import wait_processed
    sink = Sink().start()
    port = free_port()
    d = DaemonProcess(write_config(tmp_path, sink.port, port), live_game.db).start(wait_port=port)
    try:
        lock = sqlite3.connect(live_game.db, isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")
        time.sleep(13)
        lock.execute("COMMIT")
        lock.close()
        lmtp_send(port, make_mail("w@example.org", "I join as Wooble"))
        wait_processed(live_game, 1, timeout=30)
        assert len(sink.wait_for(1)) == 1 and d.proc.poll() is None
    finally:
        if d.proc.poll() is None:
            d.terminate()
        sink.stop()
