"""Benchmark and fuzz: malformed mail through the real engine (issue 11, item 8).

    python bench/fuzz.py [--messages N] [--batch B] [--seed S] [--db PATH]

Draws N mails with hypothesis (tests/mailfuzz.py: headers written twice or
never, unknown charsets, folding, 8-bit bytes, broken MIME trees with game
actions in them), stores each through mailer/inbound (the receivers' door)
into a real SQLite game, and runs the engine (runner.process_pending with
receipts, as the daemon does) after every B mails. Reports: messages, time,
exceptions that escaped the engine, parked entries (each an exception inside
it) with their errors, entries left unprocessed, outbox rows queued and any
header in them bnomic did not set (issue 12: built as the sender builds them), and
that a rebuild reproduces the digest. Exit 1 if anything failed or is stuck.

A script, not a test (pytest collects only tests/); tests/test_fuzz_engine.py
runs a few hundred of the same mails.
"""
from __future__ import annotations

import argparse
import collections
import logging
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hypothesis import HealthCheck, given, seed as hseed, settings  # noqa: E402

from bnomic.handlers.context import game_config  # noqa: E402
from bnomic.mailer import inbound, outbound, runner  # noqa: E402
from bnomic.store import Entry, Outbox, Parked, open_database, state_digest  # noqa: E402
from mailfuzz import mails, unique  # noqa: E402


# every header field bnomic's own mail may carry (mailer/outbound.build)
OUR_HEADERS = {"from", "to", "subject", "date", "message-id", "in-reply-to", "references",
               "auto-submitted", "x-loop", "precedence", "list-id", "list-post", "list-archive",
               "content-type", "content-transfer-encoding", "mime-version"}


def injected_headers() -> tuple[list[str], list[str]]:
    """Issue 12: every outbox row built as the sender builds it; a header field
    bnomic did not set is an injection. Returns (injected, refused by build)."""
    config = game_config()
    injected, refused = [], []
    for row in Outbox.select().order_by(Outbox.id):
        try:
            raw = outbound.build(row, config).as_bytes()
        except Exception as e:          # build's own check refused it: safe, but say so
            refused.append(f"row {row.id}: {type(e).__name__}: {e}")
            continue
        head = raw.replace(b"\r\n", b"\n").split(b"\n\n", 1)[0]
        names = {line.split(b":", 1)[0].decode("ascii", "replace").strip().lower()
                 for line in head.split(b"\n") if line and not line[:1].isspace()}
        if names - OUR_HEADERS:
            injected.append(f"row {row.id}: {sorted(names - OUR_HEADERS)}")
    return injected, refused


def main() -> int:
    logging.getLogger("mailparser").setLevel(logging.CRITICAL)    # its notes, not ours
    ap = argparse.ArgumentParser()
    ap.add_argument("--messages", type=int, default=20000)
    ap.add_argument("--batch", type=int, default=50)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--db")
    args = ap.parse_args()
    folder = tempfile.TemporaryDirectory(prefix="bnomic-fuzz-")
    db = args.db or str(Path(folder.name) / "fuzz.sqlite")
    open_database(db)
    start = datetime.now(timezone.utc).replace(microsecond=0) - timedelta(hours=1)
    runner.create_game(start, seed="fuzz")
    escaped: list[str] = []
    pending: list[int] = [0]
    began = time.monotonic()

    def run_engine():
        try:
            runner.process_pending(emit=True)
        except Exception as e:          # the engine itself failed: the defect of issue 11
            escaped.append(f"{type(e).__name__}: {e}")

    @hseed(args.seed)
    @settings(max_examples=args.messages, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(mails())
    def one(mail):
        raw, envelope = mail
        pending[0] += 1
        inbound.store_raw(unique(raw, pending[0]), source="fuzz", envelope_from=envelope)
        if pending[0] % args.batch == 0:
            run_engine()
    one()
    run_engine()
    took = time.monotonic() - began
    stored = Entry.select().where(Entry.kind == "mail").count()
    parked = list(Parked.select())
    stuck = Entry.select().where(Entry.processed == False).count()  # noqa: E712
    injected, refused = injected_headers()
    live = state_digest()
    began = time.monotonic()
    runner.rebuild()
    rebuilt = state_digest()
    print(f"drawn {pending[0]} mails, {stored} stored (the rest were duplicate Message-IDs), "
          f"in {took:.1f}s ({pending[0] / took:.0f}/s, engine every {args.batch})")
    print(f"exceptions escaping the engine: {len(escaped)}")
    for text, n in collections.Counter(escaped).most_common(10):
        print(f"  {n} x {text[:200]}")
    print(f"parked entries: {len(parked)}")
    for text, n in collections.Counter(p.error for p in parked).most_common(10):
        print(f"  {n} x {text[:200]}")
    print(f"unprocessed entries: {stuck}")
    print(f"outbox rows queued: {Outbox.select().count()}; injected headers: {len(injected)}; "
          f"rows build refused: {len(refused)}")
    for text in injected[:10] + refused[:10]:
        print(f"  {text[:200]}")
    print(f"rebuild in {time.monotonic() - began:.1f}s: digest "
          f"{'equal' if live == rebuilt else 'DIFFERENT'} ({live[:16]})")
    return 1 if escaped or parked or stuck or injected or live != rebuilt else 0


if __name__ == "__main__":
    sys.exit(main())
