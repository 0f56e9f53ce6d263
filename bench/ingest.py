"""Benchmark: `bnomic ingest` and `bnomic rebuild` beside the bare parse of the same mbox.

    python bench/ingest.py [--messages N] [--players P] [--seed S] [--keep DIR]

Writes an mbox of N small game messages (default 3,000): P players (default
60) joining, then giving each other m1, each mail with a quoted line and a
signature. Then, in one run:

1. bare: the standard library's parse of the same mbox (mailbox.mbox,
   email.message_from_bytes, walk, decode each text part): the floor;
2. ingest: `bnomic ingest MBOX` on a fresh game (in this process, through
   `cli.main`, its printed receipts thrown away);
3. rebuild: `bnomic rebuild` of that game (each mail's Post made from the
   parsed fields its first apply stored, mailer/parsed.py);
4. reparse: `bnomic rebuild --reparse`: the same, every mail parsed again
   from its raw bytes (what every rebuild did before schema 13).

Prints messages per second for each and ingest and rebuild as ratios of the
bare parse (the issue's targets: ingest >= 0.25, rebuild >= 0.5), the same
ratios of CPU time (steadier when other work shares the machine), and checks
that the state digest after the rebuild is the digest after the ingest
(invariant 2); it exits 1 if not. `--json` prints the figures as JSON.

This is a script, not a test: pytest never collects it.
"""
from __future__ import annotations

import argparse
import contextlib
import email
import io
import json
import mailbox
import os
import random
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

START = datetime(2008, 9, 1, tzinfo=timezone.utc)


def make_mails(n: int, players: int, seed: str) -> list[bytes]:
    """n mails: `players` joins over the first hours, then gives of m1 between them."""
    from replay import make_names
    rng = random.Random(seed)
    names = make_names(rng, players)
    addresses = [f"{name.lower()}{i}@example.org" for i, name in enumerate(names)]
    out = []
    at = START + timedelta(minutes=5)
    for i in range(n):
        p = i % players if i < players else rng.randrange(players)
        if i < players:
            line, subject, quoted = f"I join as {names[p]}.", "BN: joining", "Welcome, all."
        else:
            q = rng.randrange(players - 1)
            to = names[q if q < p else q + 1]
            line, subject = f"I give m1 to {to}.", "Re: BN: payment"
            quoted = f"I give m1 to {names[rng.randrange(players)]}."   # quoted: never acted on
        msg = EmailMessage()
        msg["From"] = f"{names[p]} <{addresses[p]}>"
        msg["To"] = "business@example.org"
        msg["Subject"] = subject
        msg["Date"] = format_datetime(at)
        msg["Message-ID"] = f"<{i}.{rng.getrandbits(32):08x}@example.org>"
        msg.set_content(f"Someone wrote:\n> {quoted}\n\n{line}\n\nCheers,\n\n-- \n{names[p]}\n"
                        f"Player of B Nomic since yesterday\n")
        out.append(bytes(msg))
        at += timedelta(seconds=rng.randint(20, 120))
    return out


def write_mbox(path: str, mails: list[bytes]) -> None:
    box = mailbox.mbox(path, create=True)
    box.lock()
    try:
        for raw in mails:
            box.add(raw)
        box.flush()
    finally:
        box.unlock()
        box.close()


def bare_parse(path: str) -> int:
    """The floor: read the mbox and parse every message with the standard library."""
    count = 0
    box = mailbox.mbox(path, factory=None, create=False)
    for key in box.keys():
        msg = email.message_from_bytes(box.get_bytes(key))
        for part in msg.walk():
            if part.get_content_maintype() == "text":
                payload = part.get_payload(decode=True) or b""
                payload.decode(part.get_content_charset() or "utf-8", "replace")
        count += 1
    box.close()
    return count


def bnomic(*argv: str) -> str:
    """Run one `bnomic` command in this process; its standard output, returned."""
    from bnomic.mailer import cli
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(list(argv))
    if code:
        raise SystemExit(f"bnomic {' '.join(argv)} exited {code}")
    return out.getvalue()


CPU = {}


def timed(fn):
    """(result, wall seconds); the CPU seconds go to CPU[fn's label] by the caller."""
    t0, c0 = time.perf_counter(), time.process_time()
    result = fn()
    timed.cpu = time.process_time() - c0
    return result, time.perf_counter() - t0


def forget_parsed() -> None:
    """Empty the parse module's kept mails (ingest leaves up to 300 parsed in this
    process), so that a rebuild here parses as `bnomic rebuild` in its own would."""
    from bnomic.mailer import parse
    with parse._recent_lock:
        parse._RECENT.clear()
        parse._recent_size[0] = 0


def digest(db: str) -> str:
    return json.loads(bnomic("show", "digest", "--db", db, "--json"))["digest"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=3000)
    ap.add_argument("--players", type=int, default=60)
    ap.add_argument("--seed", default="ingest")
    ap.add_argument("--keep", help="keep the mbox and the game in this folder")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    if args.players < 2 or args.messages < args.players:
        ap.error("--players must be at least 2 and --messages at least --players")
    tmp = tempfile.TemporaryDirectory(prefix="bnomic-ingest-")
    where = Path(args.keep or tmp.name)
    where.mkdir(parents=True, exist_ok=True)
    mbox, db = str(where / "game.mbox"), str(where / "game.sqlite")
    for leftover in (mbox, db, db + "-wal", db + "-shm", db + "-intake"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(leftover)
    write_mbox(mbox, make_mails(args.messages, args.players, args.seed))
    bnomic("init", "--db", db, "--start", START.isoformat(), "--seed", "bench", "--clock", "on")

    n, bare = timed(lambda: bare_parse(mbox))
    bare_cpu = timed.cpu
    _, ingest = timed(lambda: bnomic("ingest", "--db", db, mbox))
    ingest_cpu = timed.cpu
    after_ingest = digest(db)
    forget_parsed()
    _, rebuild = timed(lambda: bnomic("rebuild", "--db", db))
    rebuild_cpu = timed.cpu
    after_rebuild = digest(db)
    forget_parsed()
    _, reparse = timed(lambda: bnomic("rebuild", "--reparse", "--db", db))
    reparse_cpu = timed.cpu
    after_reparse = digest(db)
    figures = {
        "messages": n, "bare_per_s": round(n / bare), "ingest_per_s": round(n / ingest),
        "rebuild_per_s": round(n / rebuild), "ingest_ratio": round(bare / ingest, 3),
        "rebuild_ratio": round(bare / rebuild, 3),
        "ingest_cpu_ratio": round(bare_cpu / ingest_cpu, 3) if ingest_cpu else None,
        "rebuild_cpu_ratio": round(bare_cpu / rebuild_cpu, 3) if rebuild_cpu else None,
        "digest_after_ingest": after_ingest,
        "digest_after_rebuild": after_rebuild, "digests_equal": after_ingest == after_rebuild,
        "reparse_per_s": round(n / reparse), "reparse_ratio": round(bare / reparse, 3),
        "reparse_cpu_ratio": round(bare_cpu / reparse_cpu, 3) if reparse_cpu else None,
        "cpu_ms_per_message": {"bare": round(1000 * bare_cpu / n, 3),
                               "ingest": round(1000 * ingest_cpu / n, 3),
                               "rebuild": round(1000 * rebuild_cpu / n, 3),
                               "reparse": round(1000 * reparse_cpu / n, 3)},
        "digest_after_reparse": after_reparse,
    }
    figures["digests_equal"] = after_ingest == after_rebuild == after_reparse
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"{n} messages, {args.players} players")
        print(f"bare parse : {figures['bare_per_s']:>7} msg/s")
        print(f"ingest     : {figures['ingest_per_s']:>7} msg/s  {figures['ingest_ratio']:.3f}x bare "
              f"(target 0.25x)")
        print(f"rebuild    : {figures['rebuild_per_s']:>7} msg/s  {figures['rebuild_ratio']:.3f}x bare "
              f"(target 0.5x)")
        print(f"reparse    : {figures['reparse_per_s']:>7} msg/s  {figures['reparse_ratio']:.3f}x bare "
              f"(rebuild --reparse: every mail parsed again)")
        print(f"CPU time   : ingest {figures['ingest_cpu_ratio']}x, rebuild "
              f"{figures['rebuild_cpu_ratio']}x, rebuild --reparse {figures['reparse_cpu_ratio']}x "
              f"the bare parse's (a guide on a loaded machine)")
        print("CPU ms a message: " + ", ".join(f"{k} {v}" for k, v in figures["cpu_ms_per_message"].items()))
        print(f"digest     : {after_ingest} after ingest, "
              f"{'the same' if figures['digests_equal'] else after_rebuild + ' / ' + after_reparse} "
              f"after rebuild and rebuild --reparse")
    return 0 if figures["digests_equal"] else 1


if __name__ == "__main__":
    sys.exit(main())
