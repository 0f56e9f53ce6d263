"""Issue 16 (LMTP at storing speed): the receivers only store, in a process of
their own; the engine applies the mail in another (mailer/engine_process.py).

Everything here is real: the daemon (`bnomic run`) in subprocesses, LMTP over
loopback, SQLite files, signals to real processes."""
import os
import signal
import smtplib
import sqlite3
import threading
import time

import pytest

from bnomic.store import close_database, intake, open_database
from conftest import Game, make_mail, recent
from daemon import LIST_COPY, DaemonProcess, Sink, write_config
from servers import free_port


def send(port, raw, timeout=15):
    with smtplib.LMTP("127.0.0.1", port, timeout=timeout) as lmtp:
        return lmtp.sendmail("w@example.org", [LIST_COPY], raw)


def engine_pid(db: str, timeout: float = 30) -> int:
    """The process that writes the engine's heartbeat (store/log.engine_heartbeat)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        con = sqlite3.connect(db, timeout=10)
        try:
            row = con.execute("SELECT last_uid FROM checkpoint WHERE source = 'engine'").fetchone()
        except sqlite3.OperationalError:
            row = None
        finally:
            con.close()
        if row:
            return int(row[0])
        time.sleep(0.1)
    raise TimeoutError("no engine heartbeat")


def mail_ids(game) -> list[str]:
    return [m["message_id"] for m in game.mails()]


def wait_applied(game, n: int, timeout: float = 90) -> list[dict]:
    deadline = time.time() + timeout
    while time.time() < deadline:
        mails = game.mails()
        if len(mails) >= n and all(m["processed"] for m in mails):
            return mails
        time.sleep(0.2)
    raise TimeoutError(f"{len(game.mails())} of {n} mails applied")


def test_lmtp_answers_while_the_engine_process_is_frozen(live_game, tmp_path):
    """SIGSTOP the process that runs the engine: the receivers, in the other
    process, still answer 250 (when engine and receivers shared one process,
    and one GIL, nothing was answered); SIGCONT, and the mail is applied."""
    sink, port = Sink().start(), free_port()
    d = DaemonProcess(write_config(tmp_path, sink.port, port), live_game.db).start(wait_port=port)
    try:
        engine = engine_pid(live_game.db)
        os.kill(engine, signal.SIGSTOP)
        try:
            ids = [f"<frozen{i}@x>" for i in range(5)]
            for i, mid in enumerate(ids):
                assert send(port, make_mail("w@example.org", f"I join as Frozen{i}", msgid=mid)) == {}
            assert mail_ids(live_game) == []            # stored, not applied: the engine is stopped
        finally:
            os.kill(engine, signal.SIGCONT)
        mails = wait_applied(live_game, 5)
        assert [m["message_id"] for m in mails] == ids
        assert d.terminate() == 0
    finally:
        if d.proc.poll() is None:
            d.kill()
        sink.stop()


def test_the_engine_and_the_receivers_run_on_cpus_of_their_own(live_game, tmp_path):
    """[engine] cpu_split (the default): with two CPUs or more, the engine
    process (every thread of it) runs on the highest, the receivers' on the
    others; no CPU is shared, none is lost."""
    allowed = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
    if len(allowed) < 2:
        pytest.skip("one CPU: nothing to split")
    sink, port = Sink().start(), free_port()
    d = DaemonProcess(write_config(tmp_path, sink.port, port), live_game.db).start(wait_port=port)
    try:
        engine = engine_pid(live_game.db)

        def cpus(pid):
            return {frozenset(os.sched_getaffinity(int(t))) for t in os.listdir(f"/proc/{pid}/task")}
        assert cpus(engine) == {frozenset({max(allowed)})}
        assert cpus(d.proc.pid) == {frozenset(allowed - {max(allowed)})}
        assert "([engine] cpu_split)" in d.output()
        assert d.terminate() == 0
    finally:
        if d.proc.poll() is None:
            d.kill()
        sink.stop()


def test_cpu_split_is_the_operators_choice(monkeypatch):
    from bnomic.mailer.engine_process import cpu_split
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    assert cpu_split({}) == ({0, 1, 2}, {3})
    assert cpu_split({"engine": {"cpu_split": True}}) == ({0, 1, 2}, {3})
    assert cpu_split({"engine": {"cpu_split": False}}) is None
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {5}, raising=False)
    assert cpu_split({}) is None                       # one CPU: both share it, as before


def test_mail_stored_while_the_engine_is_down_is_applied_when_it_comes_back(live_game, tmp_path):
    """The engine process is frozen, then killed: the mail answered 250 meanwhile
    is in the spool; the daemon stops non-zero (systemd restarts it), and the
    restarted daemon applies each mail once."""
    sink, port = Sink().start(), free_port()
    cfg = write_config(tmp_path, sink.port, port)
    d = DaemonProcess(cfg, live_game.db).start(wait_port=port)
    ids = [f"<down{i}@x>" for i in range(4)]
    try:
        engine = engine_pid(live_game.db)
        os.kill(engine, signal.SIGSTOP)
        for i, mid in enumerate(ids):
            assert send(port, make_mail("w@example.org", f"I join as Down{i}", msgid=mid)) == {}
        os.kill(engine, signal.SIGKILL)
        assert d.proc.wait(30) != 0                     # loud: the service manager restarts it
        assert "the engine process died" in d.output()
        assert mail_ids(live_game) == []
        d = DaemonProcess(cfg, live_game.db).start(wait_port=port)
        mails = wait_applied(live_game, 4)
        assert [m["message_id"] for m in mails] == ids
        assert d.terminate() == 0
    finally:
        if d.proc.poll() is None:
            d.kill()
        sink.stop()


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM"])
def test_every_acknowledged_mail_survives_a_stop_under_concurrent_load(live_game, tmp_path, how):
    """Four clients stream mail (so commits are grouped); the daemon is killed
    (SIGKILL: the engine process goes with it) or stopped (SIGTERM) mid-stream.
    After a restart every mail that got 250 is in the log once."""
    sink, port = Sink().start(), free_port()
    cfg = write_config(tmp_path, sink.port, port)
    d = DaemonProcess(cfg, live_game.db).start(wait_port=port)
    acked, lock, down = [], threading.Lock(), threading.Event()

    def client(k):
        try:
            lmtp = smtplib.LMTP("127.0.0.1", port, timeout=30)
            for i in range(200):
                mid = f"<load{k}.{i}@x>"
                lmtp.sendmail("w@example.org", [LIST_COPY], make_mail("w@example.org", "Hello.", msgid=mid))
                with lock:
                    acked.append(mid)
        except (smtplib.SMTPException, OSError):
            down.set()                                  # no 250 for the one in flight: the MTA retries it

    clients = [threading.Thread(target=client, args=(k,)) for k in range(4)]
    try:
        for c in clients:
            c.start()
        while len(acked) < 60:
            time.sleep(0.005)
        if how == "SIGKILL":
            d.kill()
        else:
            assert d.terminate(30) == 0
        for c in clients:
            c.join(60)
        got = set(acked)
        assert 60 <= len(got) < 800
        d = DaemonProcess(cfg, live_game.db).start(wait_port=port)
        deadline = time.time() + 120
        while time.time() < deadline and not got <= set(mail_ids(live_game)):
            time.sleep(0.2)
        ids = mail_ids(live_game)
        assert got <= set(ids)
        assert len(ids) == len(set(ids))
        assert d.terminate() == 0
    finally:
        if d.proc.poll() is None:
            d.kill()
        sink.stop()


def test_the_spooler_commits_what_waits_in_one_transaction(tmp_path):
    """Group commit: while another connection holds the spool's write lock, fifty
    receivers put mail; when it is released, the first put is committed alone
    and the other 49 together, each answered with its own id, in order."""
    from bnomic.mailer.lmtp import Spooler
    game = Game(tmp_path, start=recent())
    open_database(game.db)
    try:
        commits, wakes = [], []
        spooler = Spooler(lambda: wakes.append(1))
        put = spooler.writer.put
        spooler.writer.put = lambda mails: (commits.append(len(mails)), put(mails))[1]
        blocker = sqlite3.connect(intake.path_for(game.db), isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        first = spooler.put(make_mail("w@example.org", "first"), "lmtp", "w@example.org", [LIST_COPY])
        time.sleep(0.5)                                 # the writer waits for the lock
        rest = [spooler.put(make_mail("w@example.org", f"m{i}"), "lmtp", "w@example.org", [LIST_COPY])
                for i in range(49)]
        assert not first.done()                         # no 250 before the commit
        blocker.execute("COMMIT")
        ids = [f.result(30) for f in [first, *rest]]
        spooler.close()
        blocker.close()
        assert commits == [1, 49] and len(wakes) == 2
        assert ids == sorted(ids) and len(set(ids)) == 50
        assert intake.count() == 50
    finally:
        close_database()


def test_a_failed_commit_answers_451_and_acknowledges_nothing(tmp_path):
    """The spool cannot be written (read-only file): every receiver of that
    commit is refused with 451, so the MTA keeps the mail and retries."""
    from bnomic.mailer.lmtp import Spooler, StoreHandler, start_server
    from test_edge import LoopThread
    game = Game(tmp_path, start=recent())
    open_database(game.db)
    loop, port = LoopThread(), free_port()
    spooler = Spooler(lambda: None)
    spooler.writer.con.execute("PRAGMA query_only=1")
    handler = StoreHandler(None, lambda: None, "lmtp", True, spooler=spooler)
    server = loop.run(start_server("lmtp", f"127.0.0.1:{port}", handler, 1 << 20))
    try:
        with pytest.raises(smtplib.SMTPDataError) as refused:
            send(port, make_mail("w@example.org", "I join as Wooble"))
        assert refused.value.smtp_code == 451
        assert intake.count() == 0
    finally:
        loop.close(server)
        loop.stop()
        spooler.close()
        close_database()
