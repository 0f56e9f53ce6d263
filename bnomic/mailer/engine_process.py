"""The engine's own process, beside the receivers' (issue 16).

`bnomic run` is two processes. The one systemd starts (the main process)
runs the LMTP/SMTP receivers, which only store: their commits go to the
intake spool, so neither the engine's write lock nor its CPU-heavy work (the
GIL) ever stands between a message and its 250. The engine process, started
by the main one (a new interpreter: `python -c` calling daemon.engine_main),
runs what the daemon's threads ran before: the engine, the outbox sender, the
IMAP poller and the site.

The two talk over one socket pair, single bytes and NUL-ended lines:
- main -> engine: `w` (mail was stored: wake up; a wake-up already waiting
  is enough, so none is ever waited for), `s` (stop: finish the entry in
  hand and exit 0). End of file (the main process was killed) ends the
  engine process at once, as a kill of both did when they were one.
- engine -> main: `sd_notify` states (WATCHDOG=1, STATUS=...), which the main
  process passes on to systemd (`NotifyAccess=main`), and `BNOMIC_ENGINE=ready`
  once its heartbeat is written and its threads run: the main process starts
  its receivers only then, so that `ingest` and `admin` leave every entry to
  the engine from the first mail on, as when the engine was a thread.

The engine process exits 0 when asked to stop and non-zero when one of its
threads died; the main process then stops too, non-zero, so that the service
manager restarts both. Mail the receivers answered 250 meanwhile is in the
spool and applied when the engine runs again.
"""
from __future__ import annotations

import logging
import os
import pickle
import socket
import subprocess
import sys
import threading
import time

from . import systemd

log = logging.getLogger("bnomic.daemon")

WAKE, STOP = b"w", b"s"
READY = "BNOMIC_ENGINE=ready"
JOIN_SECONDS = 25              # under systemd's TimeoutStopSec (30)
READY_SECONDS = 300


class Engine:
    """The main process's handle on the engine process."""

    def __init__(self, entry: str, *args):
        """Start a new interpreter (nothing of this process's threads or connections
        is inherited) that calls `entry` ("module:function") with args, the log
        level and its end of the socket pair (the arguments go over standard
        input, pickled: the operator's file may hold TOML dates)."""
        self.sock, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        module, _, function = entry.partition(":")
        level = logging.getLogger().getEffectiveLevel()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", f"from {module} import {function} as main; "
             f"from {__name__} import child_main; child_main(main)", str(child.fileno())],
            stdin=subprocess.PIPE, pass_fds=[child.fileno()])
        child.close()
        try:
            with self.proc.stdin:
                self.proc.stdin.write(pickle.dumps((*args, level)))
        except BrokenPipeError:         # it died at once: wait_ready says so
            pass
        self._buffer = b""
        self._lock = threading.Lock()
        self.ready = False

    def wait_ready(self, timeout: float = READY_SECONDS) -> bool:
        """Wait (passing its notes on) until the engine says it runs; False if it
        exited first or did not say so in time."""
        self.sock.settimeout(1.0)
        deadline = time.monotonic() + timeout
        try:
            while not self.ready and time.monotonic() < deadline:
                if not self.read_notes() or self.proc.poll() is not None:
                    break
        finally:
            self.sock.setblocking(False)
        return self.ready

    @property
    def pid(self) -> int | None:
        return self.proc.pid

    def exitcode(self) -> int | None:
        """None while it runs; negative: the signal that ended it."""
        return self.proc.poll()

    def wake(self) -> None:
        """From any thread: a non-blocking byte; a full buffer already means 'wake up'."""
        try:
            with self._lock:
                self.sock.send(WAKE)
        except (BlockingIOError, BrokenPipeError, ConnectionResetError, OSError):
            pass

    def read_notes(self) -> bool:
        """Pass on to systemd what the engine sent; False at end of file."""
        try:
            data = self.sock.recv(65536)
        except (BlockingIOError, InterruptedError, socket.timeout):
            return True
        except OSError:
            return False
        if not data:
            return False
        self._buffer += data
        *notes, self._buffer = self._buffer.split(b"\0")
        for note in notes:
            text = note.decode(errors="replace")
            if text == READY:
                self.ready = True
            else:
                systemd.notify(text)
        return True

    def stop(self, timeout: float = JOIN_SECONDS) -> int | None:
        """Ask the engine to finish the entry in hand and exit; its exit status."""
        if self.proc.poll() is None:
            try:
                with self._lock:
                    self.sock.setblocking(True)
                    self.sock.sendall(STOP)
            except OSError:
                pass
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                log.error("the engine process did not stop within %g s; terminating it", timeout)
                self.proc.terminate()
                try:
                    self.proc.wait(5)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait(5)
        self.sock.close()
        return self.proc.returncode


def cpu_split(operator: dict) -> tuple[set[int], set[int]] | None:
    """(the receivers' CPUs, the engine's) when `[engine] cpu_split` (true by
    default) and this process may run on two CPUs or more (Linux): the engine
    gets the highest, the receivers the others. Each process is one busy thread
    at a time (one GIL each). Left to the scheduler on a small machine, the
    engine applying a backlog got in the receivers' way (bench/lmtp.py on two
    cores, 5 interleaved pairs: apart, LMTP throughput 0.35 -> 0.55 of a bare
    aiosmtpd sink, the receivers' CPU 0.45 -> 0.38 ms a message; the engine's
    disk writes, syncs and spool locks were ruled out, see issue 16). None:
    leave both to the scheduler."""
    if not operator.get("engine", {}).get("cpu_split", True) or not hasattr(os, "sched_getaffinity"):
        return None
    allowed = os.sched_getaffinity(0)
    if len(allowed) < 2:
        return None
    engine = {max(allowed)}
    return allowed - engine, engine


def pin(cpus: set[int]) -> None:
    """Every thread of this process (and those it starts later) on `cpus`."""
    try:
        tasks = [int(t) for t in os.listdir("/proc/self/task")]
    except OSError:
        tasks = [0]
    for task in tasks:
        try:
            os.sched_setaffinity(task, cpus)
        except OSError:                     # a thread that just ended
            pass


def child_main(main) -> None:
    """The engine process's start: its arguments from standard input, its socket
    from the command line; `main(*args, level, sock)` returns the exit status."""
    args = pickle.loads(sys.stdin.buffer.read())
    sock = socket.socket(fileno=int(sys.argv[1]))
    sys.exit(main(*args, sock))


def relay(sock: socket.socket):
    """The engine process's sd_notify: through the main process."""
    lock = threading.Lock()

    def notify(state: str) -> bool:
        try:
            with lock:
                sock.sendall(state.encode() + b"\0")
            return True
        except OSError:
            return False
    return notify


def listen(sock: socket.socket, wake: threading.Event, stop) -> threading.Thread:
    """In the engine process: `w` sets `wake`; `s` calls `stop`. The main process
    gone (end of file: it was killed) ends this one at once, as if killed with
    it, so that no engine outlives its receivers and overlaps a restarted one
    (what it was applying is rolled back and applied again later)."""
    def body():
        while True:
            try:
                data = sock.recv(4096)
            except OSError:
                data = b""
            if not data:
                log.critical("the main process is gone: the engine process ends now")
                os._exit(1)
            if STOP in data:
                stop()
                return
            wake.set()
    t = threading.Thread(target=body, name="wake", daemon=True)
    t.start()
    return t
