"""Benchmark: writing the web site (issue 17) of a long game.

    python bench/site.py [--messages N] [--db GAME] [--out DIR]

Without --db, generates N mails as bench/replay.py does (default 10,000; 200
players over 56 days), appends them to a fresh SQLite game and processes
them (not timed). With --db, uses that game (e.g. one kept by
`python bench/replay.py --db PATH`); it is not changed. Then times:

1. a full build into an empty folder, split into the pages and the state-as-of
   captures (one replay of the log, as `bnomic site` does for a game whose
   daemon did not capture them);
2. the same build with every page unchanged (nothing rendered);
3. one more mail, then a build: the pages written.

and prints the pages written, the site's size on disk and the peak memory.
A script, not a test: pytest never collects it.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bnomic.mailer import inbound, runner  # noqa: E402
from bnomic.site import build  # noqa: E402
from bnomic.store import Entry, open_database  # noqa: E402


def size_mib(folder: Path) -> float:
    seen, total = set(), 0
    for p in folder.rglob("*"):
        st = p.lstat()
        if p.is_file() and st.st_ino not in seen:
            seen.add(st.st_ino)
            total += st.st_size
    return total / 2**20


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=10_000)
    ap.add_argument("--db", help="an existing game (copied, never changed)")
    ap.add_argument("--out", help="where to write the site (default: a temporary folder)")
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bnomic-bench-site-"))
    game = work / "game.sqlite"
    if args.db:
        import sqlite3
        with sqlite3.connect(args.db) as src, sqlite3.connect(game) as dst:
            src.backup(dst)
        open_database(str(game))
    else:
        import replay
        items = replay.generate(args.messages)
        replay.new_game(str(game))
        replay.append_all(items)
        t = time.perf_counter()
        runner.process_pending()
        print(f"  game made       {args.messages} mails processed in {time.perf_counter() - t:.1f} s")
    mails = Entry.select().where(Entry.kind == "mail").count()
    out = Path(args.out) if args.out else work / "www"
    print(f"bnomic site benchmark: {mails} mails in the log, Python {sys.version.split()[0]}")

    t, c = time.perf_counter(), time.process_time()
    pages_only = build.build(out, fill=False)
    pages_s, pages_cpu = time.perf_counter() - t, time.process_time() - c
    t, c = time.perf_counter(), time.process_time()
    full = build.build(out, fill=True)
    fill_s, fill_cpu = time.perf_counter() - t, time.process_time() - c
    print(f"  full build      pages {pages_s:.1f} s (CPU {pages_cpu:.1f} s; {pages_only['written']} "
          f"written, {pages_only['messages']} messages) + state-as-of captures by one replay "
          f"{fill_s:.1f} s (CPU {fill_cpu:.1f} s; {full['captured']} captured, {full['written']} "
          f"pages written) = {pages_s + fill_s:.1f} s")
    t, c = time.perf_counter(), time.process_time()
    again = build.build(out, fill=True)
    print(f"  nothing new     {time.perf_counter() - t:.1f} s (CPU {time.process_time() - c:.1f} s; "
          f"{again['written']} written, "
          f"{again['unchanged']} unchanged)")
    last = Entry.select().order_by(Entry.seq.desc()).first()
    raw = (b"From: bench@example.org\r\nTo: business@example.org\r\nSubject: one more\r\n"
           b"Message-ID: <one-more@bench.example>\r\n\r\nI join as Latecomer.\r\n")
    inbound.store_raw(raw, source="bench", at=last.at)
    runner.process_pending()
    t, c = time.perf_counter(), time.process_time()
    one = build.build(out, fill=True)
    print(f"  one more mail   {time.perf_counter() - t:.1f} s (CPU {time.process_time() - c:.1f} s; "
          f"{one['written']} written, "
          f"{one['unchanged']} unchanged)")
    print(f"  site on disk    {size_mib(Path(os.path.realpath(out))):.1f} MiB, "
          f"{sum(1 for p in Path(os.path.realpath(out)).rglob('*') if p.is_file())} files; "
          f"cache {size_mib(build.base_of(out) / 'cache'):.1f} MiB")
    print(f"  peak memory     maxrss {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    if not args.out:
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps({"pages_s": round(pages_s, 1), "pages_cpu_s": round(pages_cpu, 1),
                      "captures_s": round(fill_s, 1), "captures_cpu_s": round(fill_cpu, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
