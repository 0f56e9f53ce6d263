"""Issue 3 acceptance: the daemon is killed with SIGKILL while mail streams in,
and restarted. Every message that got 250 is processed exactly once, and no
outbound mail is sent twice."""
import collections
import smtplib
import threading
import time

from conftest import make_mail
from daemon import DaemonProcess, Sink, lmtp_send, write_config
from servers import free_port

N = 240


def test_sigkill_while_mail_streams_in(live_game, tmp_path):
    sink = Sink().start()
    port = free_port()
    cfg = write_config(tmp_path, sink.port, port, receipts={"daily_cap": 100000, "hourly_cap": 100000})
    daemon = DaemonProcess(cfg, live_game.db).start(wait_port=port)
    try:
        lmtp_send(port, make_mail("w@example.org", "I join as Wooble", msgid="<crash-join@x>"))
        live_game.admin("set", "Wooble", "mackerel", str(10 * N))

        acked: set[str] = set()
        unacked: list[str] = []
        stop = threading.Event()

        def send(mid):
            raw = make_mail("w@example.org", "I give m1 to The Beast.", msgid=mid)
            try:
                lmtp_send(port, raw)
                acked.add(mid)
                return True
            except (smtplib.SMTPException, OSError):
                return False

        def stream():
            for i in range(N):
                mid = f"<crash{i}@x>"
                if not send(mid):
                    unacked.append(mid)
                    time.sleep(0.01)        # the daemon is down; an MTA queues it
                if stop.is_set():
                    return

        streamer = threading.Thread(target=stream)
        streamer.start()
        while len(acked) < N // 4:
            time.sleep(0.005)
        daemon.kill()                                   # SIGKILL, mid-stream
        killed_at = len(acked)
        time.sleep(0.3)
        daemon = DaemonProcess(cfg, live_game.db).start(wait_port=port)
        streamer.join(timeout=120)
        for mid in list(unacked):                       # the MTA retries what got no 250
            for _ in range(50):
                if send(mid):
                    break
                time.sleep(0.1)
        assert len(acked) == N, f"{N - len(acked)} never acknowledged"
        assert killed_at < N

        deadline = time.time() + 60
        while time.time() < deadline:
            status = live_game.show("log")      # one snapshot: mail reaches the log from the intake spool
            if all(e["processed"] for e in status) and \
                    len([e for e in status if e["kind"] == "mail"]) == N + 1:
                break
            time.sleep(0.2)
        mails = live_game.mails()
        ids = [m["message_id"] for m in mails]
        assert len(ids) == len(set(ids)) == N + 1            # each stored once
        assert acked <= set(ids)
        assert all(m["processed"] for m in mails)
        # processed exactly once: one outcome per mail, one m1 per give
        assert all(len(m["outcomes"]) == 1 for m in mails)
        assert live_game.players()["The Beast"]["mackerel"] == N

        # outbound: wait for the outbox to drain, then no Message-ID twice at the sink
        deadline = time.time() + 60
        while time.time() < deadline:
            outbox = live_game.show_outbox()
            if all(r["state"] in ("sent", "unknown", "failed") for r in outbox):
                break
            time.sleep(0.2)
        received = [m["Message-ID"] for _, _, m in sink.messages]
        duplicates = [k for k, v in collections.Counter(received).items() if v > 1]
        assert duplicates == []
        sent = [r for r in outbox if r["state"] == "sent"]
        unknown = [r for r in outbox if r["state"] == "unknown"]
        assert len(unknown) <= 1                          # at most the one in flight at the kill
        assert len(sent) + len(unknown) == len(outbox) == N + 1
        assert set(r["message_id"] for r in sent) <= set(received)
    finally:
        if daemon.proc.poll() is None:
            daemon.terminate()
        sink.stop()
