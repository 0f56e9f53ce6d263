"""Benchmark: writing the web site (issue 17) of a long game.

    python bench/site.py [--messages N] [--db GAME] [--out DIR] [--keep GAME] [--jobs N] [--replay]

Without --db, generates N mails as bench/replay.py does (default 10,000; 200
players over 56 days), appends them to a fresh SQLite game and processes them
as the daemon does with a `[site] path`: the state as of each mail captured
right after it is applied (build.capture). Processing is not part of the
build; the captures' share of it is printed. With --db, uses that game (e.g.
one kept by `python bench/replay.py --db PATH`); it is not changed, and its
captures are made by one replay of its log (as `bnomic site` does for a game
whose daemon did not capture them), timed apart. Then times:

1. a full build into an empty folder: every page rendered (the acceptance
   line: under a minute for 10,000 mails);
2. the same build with every page unchanged (nothing rendered);
3. one more mail, then a build: the pages written;
4. with --replay, the captures made again by one replay of the log (a
   game that never had a site), into a fresh cache.

and prints the pages written, the site's size on disk and the peak memory.
CPU times include the chart-drawing processes' (`--jobs`, as `bnomic site`).
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
from bnomic.store import Entry, close_database, open_database  # noqa: E402


def size_mib(folder: Path) -> float:
    seen, total = set(), 0
    for p in folder.rglob("*"):
        st = p.lstat()
        if p.is_file() and st.st_ino not in seen:
            seen.add(st.st_ino)
            total += st.st_size
    return total / 2**20


def cpu() -> float:
    """CPU seconds of this process and of its children (the chart drawers) that ended."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=10_000)
    ap.add_argument("--db", help="an existing game (copied, never changed)")
    ap.add_argument("--out", help="where to write the site (default: a temporary folder)")
    ap.add_argument("--keep", metavar="GAME", help="make the game (and its captures, beside --out) and stop: "
                    "a later run with --db GAME --out DIR builds it with (a copy of) those captures")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="processes drawing the charts, as `bnomic site --jobs` (default: one a core)")
    ap.add_argument("--replay", action="store_true",
                    help="also time the captures made by one replay of the log, into an empty cache")
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bnomic-bench-site-"))
    game = work / "game.sqlite"
    if args.keep:
        if not args.out or Path(args.keep).exists():
            ap.error("--keep needs --out (the captures are kept beside it) and a GAME that does not exist")
        game = Path(args.keep)
    if args.db:
        import sqlite3
        with sqlite3.connect(args.db) as src, sqlite3.connect(game) as dst:
            src.backup(dst)
        open_database(str(game))
    out = Path(args.out) if args.out else work / "www"
    print(f"bnomic site benchmark, Python {sys.version.split()[0]}, load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    fill_s = fill_cpu = None
    spent = [0.0]

    def after_entry():          # as the daemon's after_entry does with a [site] path
        c = cpu()
        last = Entry.select().where(Entry.processed == True).order_by(Entry.seq.desc()).first()  # noqa: E712
        if last is not None and last.kind == "mail":
            build.capture(out, last.seq, last.at)
        spent[0] += cpu() - c
    if not args.db:
        import replay
        items = replay.generate(args.messages)
        replay.new_game(str(game))
        replay.append_all(items)
        t, c = time.perf_counter(), cpu()
        runner.process_pending(each=after_entry)
        print(f"  game made       {args.messages} mails processed in {time.perf_counter() - t:.1f} s "
              f"(CPU {cpu() - c:.1f} s, of which the captures after each mail "
              f"{spent[0]:.1f} s: {spent[0] / args.messages * 1000:.1f} ms a mail)")
        if args.keep:
            close_database()
            return 0
    elif (build.base_of(out) / "cache" / "asof" / "index.json").exists():
        kept = build.base_of(out) / "cache"                 # copied: a run never changes it
        out = work / "www"
        shutil.copytree(kept, build.base_of(out) / "cache")
        print(f"  captures        kept in {kept} (made with the game)")
    else:
        t, c = time.perf_counter(), cpu()
        filled = build.build(work / "scratch-site", fill=True, workers=args.jobs)
        shutil.move(str(build.base_of(work / "scratch-site") / "cache"), str(build.base_of(out) / "cache"))
        fill_s, fill_cpu = time.perf_counter() - t, cpu() - c
        print(f"  captures        {filled['captured']} by one replay of the log (and a site): "
              f"{fill_s:.1f} s (CPU {fill_cpu:.1f} s)")
    mails = Entry.select().where(Entry.kind == "mail").count()
    print(f"  the game        {mails} mails in the log")

    t, c = time.perf_counter(), cpu()
    full = build.build(out, fill=True, workers=args.jobs)
    pages_s, pages_cpu = time.perf_counter() - t, cpu() - c
    print(f"  full build      {pages_s:.1f} s (CPU {pages_cpu:.1f} s): {full['written']} pages written, "
          f"{full['messages']} messages, {full['states']} states as of a message, "
          f"{full['players']} players' charts; {full['captured']} captured now")
    t, c = time.perf_counter(), cpu()
    again = build.build(out, fill=True, workers=args.jobs)
    print(f"  nothing new     {time.perf_counter() - t:.1f} s (CPU {cpu() - c:.1f} s; "
          f"{again['written']} written, "
          f"{again['unchanged']} unchanged)")
    last = Entry.select().order_by(Entry.seq.desc()).first()
    raw = (b"From: bench@example.org\r\nTo: business@example.org\r\nSubject: one more\r\n"
           b"Message-ID: <one-more@bench.example>\r\n\r\nI join as Latecomer.\r\n")
    inbound.store_raw(raw, source="bench", at=last.at)
    runner.process_pending(each=after_entry)        # captured as the daemon captures it
    t, c = time.perf_counter(), cpu()
    one = build.build(out, fill=True, workers=args.jobs)
    print(f"  one more mail   {time.perf_counter() - t:.1f} s (CPU {cpu() - c:.1f} s; "
          f"{one['written']} written, "
          f"{one['unchanged']} unchanged)")
    print(f"  site on disk    {size_mib(Path(os.path.realpath(out))):.1f} MiB, "
          f"{sum(1 for p in Path(os.path.realpath(out)).rglob('*') if p.is_file())} files; "
          f"cache {size_mib(build.base_of(out) / 'cache'):.1f} MiB")
    print(f"  peak memory     maxrss {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    if args.replay:
        cache = build.base_of(out) / "cache"
        shutil.rmtree(cache)
        t, c = time.perf_counter(), cpu()
        again = build.build(out, fill=True, workers=args.jobs)
        fill_s, fill_cpu = time.perf_counter() - t, cpu() - c
        print(f"  by one replay   {fill_s:.1f} s (CPU {fill_cpu:.1f} s): {again['captured']} captured "
              f"into an empty cache, {again['written']} pages written")
    if not args.out:
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps({"pages_s": round(pages_s, 1), "pages_cpu_s": round(pages_cpu, 1),
                      "captures_s": fill_s and round(fill_s, 1), "captures_cpu_s": fill_cpu and round(fill_cpu, 1),
                      "load": round(os.getloadavg()[0], 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
