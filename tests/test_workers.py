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
