"""Benchmark: LMTP ingest by the real daemon, beside a bare aiosmtpd LMTP sink.

    python bench/lmtp.py [--messages N] [--concurrency C] [--senders S] [--warmup W] [--busy SECONDS]

Two LMTP servers on loopback, each in its own process, get the same load, one
after the other, in the same run:

1. bare: aiosmtpd's LMTP class (the same options bnomic uses) with a handler
   that answers "250 OK" per recipient and keeps nothing;
2. bnomic: `bnomic run` on a fresh SQLite game (started an hour ago), with
   receipts going to a trivial SMTP sink (a third process) and a daily cap
   large enough that every message with an action is answered.

The load: N realistic mails from S sender addresses (most of them "I join as
NAME" first, then gives, exchanges, refused actions, chatter with quoted
actions; unique Message-IDs), sent by C client processes, one LMTP connection
each, reused for every message (LHLO once; MAIL, RCPT, DATA per message). Each
client first sends its share of W warm-up messages, untimed; against bnomic the
benchmark then waits until the engine has processed them.

Latency is measured from the moment the client starts sending the final
".\\r\\n" (the body has already been written to the socket, TCP_NODELAY) to the
moment it has read the 250 reply: for bnomic that is committing the raw message
to the intake spool (grouped with whatever else arrived meanwhile) and
answering; the mail is parsed later, by the engine. The whole
transaction (MAIL FROM to 250, body transfer included) is timed as well.
Throughput is N / (time from the start signal to the last 250).

bnomic's engine applies the stored mail in its own process, concurrently with
ingest; the benchmark polls `bnomic status --json` until log_backlog is 0 and
reports how long after the last 250 that happened (processing, not ingest).
It gives up, with the daemon's last ERROR line, when the daemon exits or its
backlog stops moving for a minute. On Linux it also says how much CPU each of
bnomic's two processes used during the timed load (/proc: the receivers' main
process, the engine's), per message. With --pause-engine the engine process is
stopped (SIGSTOP) for the timed load and continued after it: the receivers
alone, what intake costs with no engine competing for the CPU (the floor of
the ratio on this machine). Every process it started is stopped at the
end, on an error, and on SIGTERM or Ctrl-C. Names and chatter come from
bench/replay.py.

This is a script, not a test: pytest never collects it.
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import re
import shutil
import signal
import smtplib
import socket
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from replay import CHATTER, DOMAINS, body_lines, make_names  # noqa: E402

PROCESSOR = "bnomic@example.org"
LIST_COPY = "bnomic+business@example.org"   # bnomic's subscription to the list: the envelope says "through the list"
LIST = "business@example.org"

# ------------------------------------------------------------------ servers
# `python bench/lmtp.py --serve lmtp|smtp --port P`: a bare aiosmtpd server in
# its own process (so that it shares no GIL with the load generator).


class BareHandler:
    def __init__(self, lmtp: bool):
        self.lmtp = lmtp
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        return "\r\n".join(["250 OK"] * (len(envelope.rcpt_tos) if self.lmtp else 1))


def serve(kind: str, port: int) -> int:
    import asyncio
    import logging

    from aiosmtpd.lmtp import LMTP
    from aiosmtpd.smtp import SMTP

    logging.getLogger("mail.log").setLevel(logging.WARNING)
    handler = BareHandler(lmtp=kind == "lmtp")
    cls = LMTP if kind == "lmtp" else SMTP
    hostname = socket.getfqdn()

    def factory():            # as bnomic.mailer.lmtp._protocol builds its servers
        return cls(handler, data_size_limit=1024 * 1024, enable_SMTPUTF8=True,
                   decode_data=False, hostname=hostname, ident="bare")

    async def main():
        loop = asyncio.get_running_loop()
        stopping = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stopping.set)
        server = await loop.create_server(factory, host="127.0.0.1", port=port)
        await stopping.wait()
        server.close()
        await server.wait_closed()

    asyncio.run(main())
    print(f"{kind} sink on port {port}: {handler.count} messages", file=sys.stderr)
    return 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port: int, proc: subprocess.Popen, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with status {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"{what}: nothing listening on port {port} after {timeout} s")


class Processes:
    """Every subprocess the benchmark starts; all stopped at the end, even on error."""

    def __init__(self):
        self.procs: list[tuple[str, subprocess.Popen]] = []

    def start(self, what: str, cmd: list[str], log: Path) -> subprocess.Popen:
        with open(log, "ab") as err:
            proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        self.procs.append((what, proc))
        return proc

    def stop(self, proc: subprocess.Popen, timeout: float = 30) -> int:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        return proc.returncode

    def stop_all(self) -> None:
        for _, proc in reversed(self.procs):
            self.stop(proc)


def start_sink(procs: Processes, kind: str, folder: Path) -> tuple[int, subprocess.Popen]:
    port = free_port()
    proc = procs.start(f"{kind} sink", [sys.executable, __file__, "--serve", kind, "--port", str(port)],
                       folder / f"{kind}-sink.log")
    wait_listening(port, proc, f"the bare {kind} sink")
    return port, proc


def bnomic(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bnomic.mailer.cli", *args],
                          capture_output=True, text=True, check=True)


def write_config(folder: Path, lmtp_port: int, sink_port: int) -> Path:
    path = folder / "bnomic.toml"
    path.write_text(
        "[lmtp]\n"
        f'listen = "127.0.0.1:{lmtp_port}"\n'
        "max_message_size = 1048576\n"
        "catch_up_wait_seconds = 0\n"
        "[smtp_out]\n"
        'host = "127.0.0.1"\n'
        f"port = {sink_port}\n"
        "[addresses]\n"
        f'processor = "{PROCESSOR}"\n'
        f'public_fora = ["{LIST}"]\n'
        'discussion_fora = ["discuss@example.org"]\n'
        "[receipts]\n"
        "daily_cap = 1000000\n")
    return path


def status(db: str) -> dict:
    """`bnomic status --json`; its exit status 1 (a failed health check, e.g. a
    backlog older than 300 s on a slow machine) still gives the figures."""
    done = subprocess.run([sys.executable, "-m", "bnomic.mailer.cli", "status", "--db", db, "--json"],
                          capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise subprocess.CalledProcessError(done.returncode, done.args, done.stdout, done.stderr)
    return json.loads(done.stdout)


# ------------------------------------------------------------------ the mail

def message(rng: random.Random, name: str, address: str, display: str, lines: list[str],
            subject: str, token: str, seq: int, quoted: list[str] | None = None) -> bytes:
    body = body_lines(rng, name, lines, quoted)
    domain = address.split("@")[1]
    now = format_datetime(datetime.now(timezone.utc))
    qid = f"{rng.getrandbits(40):010X}"
    msg = EmailMessage()
    # what a message looks like when the MTA hands it over: trace and list headers
    msg["Return-Path"] = f"<{address}>"
    msg["Delivered-To"] = LIST_COPY
    msg["Received"] = (f"from lists.example.org (lists.example.org [192.0.2.10]) by mx.example.org "
                       f"(Postfix) with ESMTPS id {qid} for <{LIST_COPY}>; {now}")
    msg["Received"] = (f"from mail.{domain} (mail.{domain} [198.51.100.{rng.randint(1, 254)}]) "
                       f"by lists.example.org (Postfix) with ESMTPS id {qid[::-1]} "
                       f"for <{LIST}>; {now}")
    msg["Authentication-Results"] = f"mx.example.org; dkim=pass header.d={domain}; spf=pass"
    msg["List-Id"] = "B Nomic business <business.example.org>"
    msg["From"] = f"{display} <{address}>"
    msg["To"] = LIST
    msg["Subject"] = subject
    msg["Date"] = now
    msg["Message-ID"] = f"<bench.{token}.{seq}@{domain}>"
    msg["User-Agent"] = rng.choice(["Mutt/2.2.12", "Thunderbird/115.5.0", "Roundcube Webmail/1.6.5"])
    msg.set_content("\n".join(body) + "\n")
    return bytes(msg)


def generate(n: int, senders: int, seed: str, token: str, first_seq: int = 0,
             joins: bool = True) -> list[tuple[str, bytes]]:
    """n (envelope sender, raw mail): joins first (for about 80% of the senders),
    then gives, exchanges, refused actions and chatter in random order."""
    rng = random.Random(seed)
    names = make_names(rng, senders)
    people = [(name, f"{name.lower()}{i}@{rng.choice(DOMAINS)}",
               name if rng.random() < 0.5 else f"{name} Player") for i, name in enumerate(names)]
    out: list[tuple[str, bytes]] = []
    seq = first_seq

    def add(who, lines, subject, quoted=None):
        nonlocal seq
        out.append((who[1], message(rng, who[0], who[1], who[2], lines, subject, token, seq, quoted)))
        seq += 1

    if joins:
        for who in people:
            if len(out) >= n:
                break
            if rng.random() < 0.8:
                add(who, [rng.choice([f"I join as {who[0]}.", f"I wish to join as {who[0]}.",
                                      f"I register as {who[0]}."])], "BN: joining")
    while len(out) < n:
        who = rng.choice(people)
        other = rng.choice([p for p in people[:50] if p is not who])
        quoted = None
        if rng.random() < 0.25:
            quoted = [rng.choice(CHATTER), f"I give m{rng.randint(1, 50)} to {other[0]}."]
        lines = [rng.choice(CHATTER), ""] if rng.random() < 0.3 else []
        roll = rng.random()
        if roll < 0.45:
            k = rng.randint(1, 3)
            lines.append(rng.choice([f"I give m{k} to {other[0]}.", f"I pay {other[0]} m{k}.",
                                     f"I transfer {k} mackerel to {other[0]}."]))
            subject = "BN: payment"
        elif roll < 0.53:
            lines += [f"I give m1 to {other[0]}.", f"Then I give m2 to {rng.choice(people)[0]}."]
            subject = "BN: actions"
        elif roll < 0.60:
            lines.append(f"I exchange {rng.randint(1, 4)} points for mackerel.")
            subject = "BN: exchange"
        elif roll < 0.70:
            lines.append(rng.choice([f"I give m5000 to {other[0]}.", f"I give 5 bananas to {other[0]}.",
                                     f"I give m1 to Nobody{seq}.", f"I join as {other[0]}."]))
            subject = "BN: hmm"
        elif roll < 0.75:
            lines.append(f"I remove the Active property from {other[0]}.")
            subject = "BN: activity check"
        else:
            lines.append(rng.choice(CHATTER))
            subject = rng.choice(["Re: BN: payment", "BN: question", "OT"])
        add(who, lines, subject, quoted)
    return out


# ------------------------------------------------------------------ the load

def dot_stuffed(raw: bytes) -> bytes:
    """The DATA payload without its final ".\\r\\n": CRLF line ends, leading dots doubled."""
    data = re.sub(rb"(?:\r\n|\n|\r(?!\n))", b"\r\n", raw)
    data = re.sub(rb"(?m)^\.", b"..", data)
    return data if data.endswith(b"\r\n") else data + b"\r\n"


def client(port: int, warmup: list, timed: list, ready, go, results) -> None:
    """One LMTP connection: the warm-up share, then wait for `go`, then the timed share."""
    try:
        lmtp = smtplib.LMTP("127.0.0.1", port)
        lmtp.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        code, reply = lmtp.ehlo()
        if code != 250:
            raise RuntimeError(f"LHLO: {code} {reply!r}")

        def send(sender: str, payload: bytes) -> tuple[float, float, str | None]:
            t0 = time.perf_counter()
            code, reply = lmtp.mail(sender)
            if code != 250:
                return 0.0, 0.0, f"MAIL {code}"
            code, reply = lmtp.rcpt(LIST_COPY)
            if code != 250:
                lmtp.rset()
                return 0.0, 0.0, f"RCPT {code}"
            lmtp.putcmd("data")
            code, reply = lmtp.getreply()
            if code != 354:
                return 0.0, 0.0, f"DATA {code}"
            lmtp.sock.sendall(payload)
            t1 = time.perf_counter()
            lmtp.sock.sendall(b".\r\n")
            code, reply = lmtp.getreply()            # one reply: one recipient
            t2 = time.perf_counter()
            return t2 - t1, t2 - t0, None if code == 250 else f"{code} {reply.decode(errors='replace')}"

        for sender, payload in warmup:
            send(sender, payload)
        ready.put(os.getpid())
        go.wait()
        cpu0 = time.process_time()
        data_lat, txn_lat, errors = [], [], []
        for sender, payload in timed:
            d, t, err = send(sender, payload)
            if err:
                errors.append(err)
            else:
                data_lat.append(d)
                txn_lat.append(t)
        end = time.monotonic()
        cpu = time.process_time() - cpu0
        lmtp.quit()
        results.put({"data": data_lat, "txn": txn_lat, "errors": errors, "end": end, "cpu": cpu})
    except BaseException as e:   # report it; never leave the parent waiting
        ready.put(os.getpid())
        results.put({"data": [], "txn": [], "errors": [f"client failed: {e!r}"], "end": time.monotonic()})


def run_load(port: int, warmup: list, timed: list, concurrency: int,
             after_warmup=None) -> dict:
    ctx = multiprocessing.get_context("spawn")
    ready, results, go = ctx.Queue(), ctx.Queue(), ctx.Event()
    workers = [ctx.Process(target=client, daemon=True,
                           args=(port, warmup[i::concurrency], timed[i::concurrency], ready, go, results))
               for i in range(concurrency)]
    try:
        for w in workers:
            w.start()
        for _ in workers:
            ready.get(timeout=600)
        if after_warmup:
            after_warmup()
        start = time.monotonic()
        go.set()
        got = [results.get(timeout=3600) for _ in workers]
        for w in workers:
            w.join(30)
    finally:
        for w in workers:
            if w.is_alive():
                w.terminate()
                w.join(10)
    data = sorted(x for g in got for x in g["data"])
    txn = sorted(x for g in got for x in g["txn"])
    end = max(g["end"] for g in got)
    return {"ok": len(data), "errors": [e for g in got for e in g["errors"]],
            "seconds": end - start, "start": start, "end": end, "data": data, "txn": txn,
            "cpu": sum(g.get("cpu", 0.0) for g in got)}


class Busy:
    """A thread that holds the game database's write lock (BEGIN IMMEDIATE) for
    `seconds` at a time, as a long engine transaction does, until stopped."""

    def __init__(self, db: str, seconds: float):
        import threading
        self.db, self.seconds, self.held = db, seconds, 0.0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def start(self):
        if self.seconds > 0:
            self.thread.start()

    def run(self):
        import sqlite3
        con = sqlite3.connect(self.db, isolation_level=None, timeout=60)
        while not self.done.is_set():
            con.execute("BEGIN IMMEDIATE")
            t = time.monotonic()
            self.done.wait(self.seconds)
            con.execute("ROLLBACK")
            self.held += time.monotonic() - t
            time.sleep(0.05)
        con.close()

    def stop(self):
        self.done.set()
        if self.thread.is_alive():
            self.thread.join(120)


TRACED = "fsync,fdatasync,pwrite64,pread64,futex"


def trace_syscalls(pid: int, out: Path) -> tuple[subprocess.Popen, Path]:
    """`perf trace -s` on every thread of a process, until stop_trace."""
    proc = subprocess.Popen(["perf", "trace", "-s", "-e", TRACED, "-p", str(pid), "-o", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return proc, out


def stop_trace(proc: subprocess.Popen, out: Path) -> str:
    """Its summary: one table per thread."""
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
    text = out.read_text(errors="replace") if out.exists() else ""
    return "\n".join("      " + line for line in text.splitlines()
                     if line.strip() and not line.lstrip().startswith(("---", "(msec)")))


def cpu_seconds(pid: int | None) -> float | None:
    """A process's user + system CPU seconds so far (Linux /proc), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, TypeError):
        return None


def pct(sorted_values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    if not sorted_values:
        return float("nan")
    return sorted_values[max(0, math.ceil(p / 100 * len(sorted_values)) - 1)]


def figures(r: dict) -> dict:
    return {"rate": r["ok"] / r["seconds"] if r["seconds"] else float("nan"),
            "p50": pct(r["data"], 50) * 1000, "p99": pct(r["data"], 99) * 1000,
            "t50": pct(r["txn"], 50) * 1000, "t99": pct(r["txn"], 99) * 1000,
            "max": (r["data"][-1] * 1000) if r["data"] else float("nan")}


def report(label: str, r: dict) -> dict:
    f = figures(r)
    print(f"  {label:7} {r['ok']:6} ok {len(r['errors']):4} errors  {r['seconds']:7.2f} s  "
          f"{f['rate']:8,.0f} msgs/s   DATA end->250 p50 {f['p50']:7.2f} ms  p99 {f['p99']:7.2f} ms  "
          f"max {f['max']:7.2f} ms   whole transaction p50 {f['t50']:7.2f} ms  p99 {f['t99']:7.2f} ms")
    if r["errors"]:
        shown = sorted(set(r["errors"]))[:5]
        print(f"          errors (first kinds): {shown}")
    return f


def wait_processed(db: str, daemon: subprocess.Popen, log: Path, since: float | None = None,
                   stall: float = 60) -> tuple[float, float, dict, int]:
    """Poll `bnomic status --json` until log_backlog is 0. Returns (earliest,
    latest, status, polls): the backlog reached 0 after `earliest` (`since`,
    or the start of the last poll that still saw some) and before `latest` (the
    end of the poll that saw 0); each poll is a new process. Gives up when the
    daemon exits or the backlog has not moved for `stall` seconds."""
    polls, last, moved = 0, None, time.monotonic()
    earliest = time.monotonic() if since is None else since
    while True:
        before = time.monotonic()
        s = status(db)
        polls += 1
        if s["log_backlog"] == 0 and not s.get("intake_backlog"):
            return earliest, time.monotonic(), s, polls
        earliest = before
        if s["log_backlog"] != last:
            last, moved = s["log_backlog"], time.monotonic()
        if daemon.poll() is not None or time.monotonic() - moved > stall:
            errors = [line for line in log.read_text(errors="replace").splitlines()
                      if line.startswith("ERROR")]
            why = (f"exited with status {daemon.returncode}" if daemon.poll() is not None
                   else f"has not processed anything for {stall:.0f} s")
            raise RuntimeError(f"bnomic run {why}; log backlog {last}; "
                               f"{len(errors)} ERROR lines in its log, the last: "
                               f"{errors[-1][:2000] if errors else '-'}")
        time.sleep(0.05)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=2000, help="timed messages per server (default 2000)")
    ap.add_argument("--concurrency", type=int, default=4, help="client connections (default 4)")
    ap.add_argument("--senders", type=int, default=300, help="sender addresses (default 300)")
    ap.add_argument("--warmup", type=int, default=100, help="untimed messages first (default 100)")
    ap.add_argument("--seed", default="bench", help="seed for the generated mail")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (db, logs)")
    ap.add_argument("--busy", type=float, default=0, metavar="SECONDS",
                    help="while the timed load runs against bnomic, hold the game database's "
                         "write lock for SECONDS at a time (as a long engine transaction does), "
                         "releasing it for 50 ms between holds")
    ap.add_argument("--pause-engine", action="store_true",
                    help="stop bnomic's engine process (SIGSTOP) during the timed load: the "
                         "receivers alone, with nothing applying meanwhile")
    ap.add_argument("--trace-syscalls", action="store_true",
                    help="Linux, needs `perf`: count and time each bnomic process's disk syncs "
                         "and writes during the timed load (perf trace -s; it slows them a little)")
    ap.add_argument("--skip-processing", action="store_true",
                    help="stop bnomic right after the timed load instead of waiting until the "
                         "engine has applied it (quicker, for repeated A/B runs; the intake "
                         "figures are the same)")
    ap.add_argument("--serve", choices=["lmtp", "smtp"], help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.serve:
        return serve(args.serve, args.port)
    if args.messages < 1 or args.concurrency < 1 or args.senders < 2 or args.warmup < 0:
        ap.error("--messages and --concurrency must be at least 1, --senders at least 2")

    folder = Path(tempfile.mkdtemp(prefix="bnomic-bench-lmtp-"))
    db = str(folder / "game.sqlite")
    token = make_msgid().strip("<>").split("@")[0]
    timed = generate(args.messages, args.senders, args.seed, token)
    warmup = generate(args.warmup, args.senders, args.seed + "-warmup", token,
                      first_seq=args.messages, joins=False)
    size = sum(len(raw) for _, raw in timed)
    timed = [(s, dot_stuffed(raw)) for s, raw in timed]
    warmup = [(s, dot_stuffed(raw)) for s, raw in warmup]
    print(f"bnomic LMTP ingest benchmark: {args.messages} messages ({size / args.messages:,.0f} bytes "
          f"on average) from {args.senders} senders, {args.concurrency} client processes, "
          f"{args.warmup} warm-up messages; {os.cpu_count()} CPUs; Python {sys.version.split()[0]}")
    print("  latency: from sending the final \".\\r\\n\" of DATA to reading the 250 (body already "
          "sent); whole transaction: MAIL FROM to 250, body transfer included")

    def terminated(signum, frame):          # clean up on SIGTERM as on Ctrl-C
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, terminated)

    procs = Processes()
    try:
        # 1. the bare aiosmtpd LMTP sink
        bare_port, bare = start_sink(procs, "lmtp", folder)
        bare_cpu = {}
        bare_r = run_load(bare_port, warmup, timed, args.concurrency,
                          after_warmup=lambda: bare_cpu.update(before=cpu_seconds(bare.pid)))
        bare_cpu["after"] = cpu_seconds(bare.pid)
        procs.stop(bare)

        # 2. bnomic run, receipts to a bare SMTP sink
        sink_port, _ = start_sink(procs, "smtp", folder)
        lmtp_port = free_port()
        config = write_config(folder, lmtp_port, sink_port)
        start = (datetime.now(timezone.utc) - timedelta(hours=1)).isoformat(timespec="seconds")
        bnomic("init", "--db", db, "--start", start, "--seed", "bench")
        daemon = procs.start("bnomic run", [sys.executable, "-m", "bnomic.mailer.cli", "run",
                                            "--config", str(config), "--db", db],
                             folder / "bnomic.log")
        wait_listening(lmtp_port, daemon, "bnomic run")

        def drain_warmup():
            wait_processed(db, daemon, folder / "bnomic.log")
        busy = Busy(db, args.busy)

        engine = {}

        def after_warmup():
            drain_warmup()
            engine["pid"] = (status(db).get("engine_heartbeat") or {}).get("pid")
            engine["cpu"] = (cpu_seconds(daemon.pid), cpu_seconds(engine["pid"]))
            if args.pause_engine and engine["pid"]:
                os.kill(engine["pid"], signal.SIGSTOP)
            if args.trace_syscalls:
                engine["trace"] = [trace_syscalls(pid, folder / f"perf-{what}.txt")
                                   for what, pid in (("receivers", daemon.pid), ("engine", engine["pid"]))
                                   if pid]
                time.sleep(1)               # perf attaches to every thread
            busy.start()
        try:
            bnomic_r = run_load(lmtp_port, warmup, timed, args.concurrency, after_warmup=after_warmup)
        finally:
            if args.pause_engine and engine.get("pid"):
                os.kill(engine["pid"], signal.SIGCONT)
            traced = [stop_trace(*t) for t in engine.get("trace", [])]
        cpu_after = (cpu_seconds(daemon.pid), cpu_seconds(engine.get("pid")))
        busy.stop()
        if not args.skip_processing:
            earliest, latest, final, polls = wait_processed(db, daemon, folder / "bnomic.log",
                                                            since=bnomic_r["end"])
        rc = procs.stop(daemon)

        print()
        fb = report("bare", bare_r)
        fn = report("bnomic", bnomic_r)
        if args.busy:
            print(f"  (bnomic's game database write lock was held {busy.held:.1f} s of the "
                  f"{bnomic_r['seconds']:.1f} s load, {args.busy:g} s at a time)")
        print(f"  ratio   bnomic/bare: throughput {fn['rate'] / fb['rate']:.3f} "
              f"(bare is {fb['rate'] / fn['rate']:.1f}x faster); DATA end->250 p50 "
              f"{fn['p50'] / fb['p50']:.1f}x, p99 {fn['p99'] / fb['p99']:.1f}x; whole transaction "
              f"p50 {fn['t50'] / fb['t50']:.1f}x, p99 {fn['t99'] / fb['t99']:.1f}x")
        print(f"  clients' CPU during the timed load: against bare {bare_r['cpu']:.2f} s "
              f"({bare_r['cpu'] / max(bare_r['ok'], 1) * 1000:.2f} ms a message), against bnomic "
              f"{bnomic_r['cpu']:.2f} s ({bnomic_r['cpu'] / max(bnomic_r['ok'], 1) * 1000:.2f} ms a message)")
        if None not in (*engine.get("cpu", (None, None)), *cpu_after):
            main_cpu, engine_cpu = (after - before for after, before in zip(cpu_after, engine["cpu"]))
            if None not in bare_cpu.values():
                sink_cpu = bare_cpu["after"] - bare_cpu["before"]
                print(f"  bare sink CPU during the timed load: {sink_cpu:.2f} s "
                      f"({sink_cpu / bare_r['ok'] * 1000:.2f} ms a message)")
            print(f"  bnomic CPU during the timed load: receivers' process {main_cpu:.2f} s "
                  f"({main_cpu / bnomic_r['ok'] * 1000:.2f} ms a message), engine process "
                  f"{engine_cpu:.2f} s{' (stopped: --pause-engine)' if args.pause_engine else ''}")
        if args.skip_processing:
            for what, text in zip(("receivers", "engine"), traced):
                print(f"  {what}' syscalls during the timed load (perf trace -s):\n{text}")
            print(f"  bnomic processing: not waited for (--skip-processing); daemon exit status {rc}"
                  + (f"; files in {folder}" if args.keep else ""))
            return 1 if bare_r["errors"] or bnomic_r["errors"] or rc != 0 else 0
        for what, text in zip(("receivers", "engine"), traced):
            print(f"  {what}' syscalls during the timed load (perf trace -s):\n{text}")
        lo, hi = earliest - bnomic_r["end"], latest - bnomic_r["end"]
        total = latest - bnomic_r["start"]
        print(f"  bnomic processing (engine, after ingest): log backlog 0 between {lo:.2f} and {hi:.2f} s "
              f"after the last 250 ({polls} polls of `bnomic status --json`); all {bnomic_r['ok']} "
              f"messages stored and applied within {total:.2f} s of the start "
              f"= at least {bnomic_r['ok'] / total:,.0f} msgs/s end to end")
        print(f"      then: outbox backlog {final['outbox_backlog']} receipts queued; "
              f"daemon exit status {rc}" + (f"; files in {folder}" if args.keep else ""))
        failed = bool(bare_r["errors"] or bnomic_r["errors"] or rc != 0)
    finally:
        procs.stop_all()
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
