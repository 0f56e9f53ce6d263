"""Issue 3: the edge's promises to the MTA and to systemd, over real sockets."""
import asyncio
import os
import smtplib
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from bnomic.mailer.lmtp import StoreHandler, start_server
from conftest import make_mail
from daemon import DaemonProcess, Sink, lmtp_send, write_config
from servers import free_port


@pytest.fixture
def sink():
    s = Sink().start()
    yield s
    s.stop()


class LoopThread:
    """An asyncio loop in a thread, to run one receiver in-process."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    def close(self, server):
        """Close a server on its own loop (asyncio is not thread-safe)."""
        async def closing():
            server.close()
            await server.wait_closed()
        self.run(closing())

    def stop(self):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def test_451_when_the_message_cannot_be_stored_so_the_mta_retries():
    def broken_store(raw, **kw):
        raise OSError("disk full")
    loop = LoopThread()
    port = free_port()
    handler = StoreHandler(ThreadPoolExecutor(1), lambda: None, "lmtp", True, store=broken_store)
    server = loop.run(start_server("lmtp", f"127.0.0.1:{port}", handler, 1 << 20))
    try:
        with pytest.raises(smtplib.SMTPDataError) as e:
            lmtp_send(port, make_mail("w@example.org", "I join as Wooble"))
        assert e.value.smtp_code == 451
    finally:
        loop.close(server)
        loop.stop()


def test_lmtp_on_a_unix_socket(live_game, sink, tmp_path):
    path = tmp_path / "lmtp.sock"
    cfg = write_config(tmp_path, sink.port)
    cfg.write_text(cfg.read_text().replace("[lmtp]\n", f'[lmtp]\nlisten = "unix:{path}"\n'))
    d = DaemonProcess(cfg, live_game.db).start()
    try:
        # the socket file appears at bind(), before listen(): wait until it accepts
        deadline = time.time() + 20
        while time.time() < deadline:
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                probe.connect(str(path))
                break
            except OSError:
                time.sleep(0.05)
            finally:
                probe.close()
        with smtplib.LMTP(str(path)) as lmtp:
            assert lmtp.sendmail("w@example.org", ["bnomic@example.org"],
                                 make_mail("w@example.org", "I join as Wooble")) == {}
        assert len(sink.wait_for(1)) == 1
    finally:
        assert d.terminate() == 0


def test_socket_activation_and_sd_notify(live_game, sink, tmp_path):
    """As systemd does it: the listening socket at fd 3 with LISTEN_PID/LISTEN_FDS,
    and a NOTIFY_SOCKET that hears READY=1, WATCHDOG=1 and STOPPING=1."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify_path = str(tmp_path / "notify.sock")
    notify.bind(notify_path)
    notify.settimeout(20)
    cfg = write_config(tmp_path, sink.port)          # no [lmtp] listen: systemd hands it over
    env = dict(os.environ, NOTIFY_SOCKET=notify_path, LISTEN_FDS="1", WATCHDOG_USEC="2000000")
    proc = subprocess.Popen(
        [sys.executable, "-c",
         "import os, sys; os.dup2(int(sys.argv[1]), 3); os.environ['LISTEN_PID'] = str(os.getpid()); "
         "os.execv(sys.executable, [sys.executable, '-m', 'bnomic.mailer.cli', 'run', "
         "'--config', sys.argv[2], '--db', sys.argv[3]])",
         str(listener.fileno()), str(cfg), live_game.db],
        env=env, pass_fds=(listener.fileno(),), stderr=open(tmp_path / "daemon.log", "wb"))
    try:
        heard = []
        while "READY=1" not in "\n".join(heard):
            heard.append(notify.recv(4096).decode())
        listener.close()                               # the daemon has its own copy now
        lmtp_send(port, make_mail("w@example.org", "I join as Wooble"))
        assert len(sink.wait_for(1)) == 1
        while "WATCHDOG=1" not in "\n".join(heard):
            heard.append(notify.recv(4096).decode())
        proc.terminate()
        while "STOPPING=1" not in "\n".join(heard):
            heard.append(notify.recv(4096).decode())
        assert proc.wait(20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        notify.close()
