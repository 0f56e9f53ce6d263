"""What the reply guards cost: `receipts.may_reply` (its two caps are counted
from the outbox) with an outbox of N rows, and `publish.requested` (reading a
display request) on hostile text of growing size, which must grow linearly.

    python bench/replies.py [--rows N] [--calls N]

Uses a scratch SQLite game in a temporary folder.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bnomic.config import Config, defaults  # noqa: E402
from bnomic.mailer import parse, publish, receipts, runner  # noqa: E402
from bnomic.store import Entry, Message, Outbox, open_database, write_transaction  # noqa: E402


def mail(sender: str) -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = sender, "bnomic@example.org", "display please"
    m["Message-ID"] = f"<{sender}.{time.monotonic_ns()}@example.org>"
    m.set_content("Please send the Registrar's display.")
    return bytes(m)


def fill(rows: int, start: datetime) -> None:
    """A log of `rows` mails from 1000 senders over 30 days, each answered by a
    reply of a realistic size, queued as it was processed (in log order)."""
    step = timedelta(days=30) / rows
    body = "x" * 1500
    with write_transaction():
        for k in range(0, rows, 500):
            n = min(500, rows - k)
            Entry.insert_many([dict(kind="mail", at=start + step * (k + i), processed=True)
                                       for i in range(n)]).execute()
            seqs = [e.seq for e in Entry.select(Entry.seq).order_by(Entry.seq.desc()).limit(n)][::-1]
            Message.insert_many([dict(entry=seq, message_id=f"<m{seq}@bench>",
                                      sender=f"p{(k + i) % 1000}@example.org", raw=b"x",
                                      stored_at=start + step * (k + i))
                                 for i, seq in enumerate(seqs)]).execute()
            Outbox.insert_many([dict(message_id=f"<r{seq}@bench>", kind="receipt",
                                     to=[f"p{(k + i) % 1000}@example.org"], subject="Re: x",
                                     body=body, entry=seq, queued_at=start + step * (k + i),
                                     next_attempt_at=start + step * (k + i), state="sent")
                                for i, seq in enumerate(seqs)]).execute()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--calls", type=int, default=1000)
    args = ap.parse_args()
    print(f"bnomic reply-guard benchmark, Python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as folder:
        open_database(str(pathlib.Path(folder) / "game.sqlite"))
        start = datetime(2008, 9, 1, tzinfo=timezone.utc)
        cfg = defaults()
        cfg["addresses"]["processor"] = "bnomic@example.org"
        runner.create_game(start, config=cfg)
        config = Config(cfg)
        fill(args.rows, start)
        now = start + timedelta(days=30)
        parsed = parse.parse(mail("p7@example.org"))
        t = time.perf_counter()
        with write_transaction():
            for _ in range(args.calls):
                receipts.may_reply(parsed, "p7@example.org", "p7@example.org", config, now)
        elapsed = time.perf_counter() - t
        print(f"  may_reply, outbox of {args.rows:,} rows: {args.calls} calls in {elapsed:.2f} s"
              f" = {elapsed / args.calls * 1000:.2f} ms a call")
    for size in (10_000, 100_000, 1_000_000):
        hostile = {"repeated verbs": "send me " * (size // 8),
                   "one long space run": "send the" + " " * size + "x display",
                   "verbs, no display": ("send " + "x" * 60 + "\n") * (size // 66),
                   "verbs far before a display": "send me " * (size // 8) + "the Registrar display",
                   "a display every line": ("send " + "x" * 200 + " display\n") * (size // 214)}
        for name, text in hostile.items():
            t = time.perf_counter()
            publish.requested(text)
            print(f"  requested(), {name}, {len(text):>9,} chars: {time.perf_counter() - t:.3f} s")


if __name__ == "__main__":
    main()
