"""How much of `bnomic rebuild` is SQLite's own work, statement by statement.

    python bench/sql_share.py [--messages N] [--players P] [--top K] [--db GAME]

Makes the game of bench/ingest.py (N mails, default 1,500) with `bnomic ingest`,
or takes an existing one (--db), then times `bnomic rebuild` of it in this
process: its whole CPU time, and the wall time spent inside sqlite3's
`cursor.execute` (SQLite running the statement, its triggers included: the
write counts of schema 14), per statement text. Prints SQLite's share, the
statements a mail, and the K statement texts that cost the most (a mail each).
What is not SQLite's is Python's: bnomic's, peewee's, the standard library's
(bench/profile.py groups it). The game's start-up (emptying the state, the
seed ruleset) is counted too; at a few thousand mails it is a few percent.

This is a script, not a test: pytest never collects it.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ingest as bench_ingest     # noqa: E402  (bench/ingest.py: the same mbox)


def timed_statements():
    """Time what each SQL text spends in sqlite3's execute, from now on: {text: [count, seconds]}."""
    from peewee import SqliteDatabase, __exception_wrapper__
    from bnomic.store import versions
    spent = defaultdict(lambda: [0, 0.0])
    plain = SqliteDatabase.execute_sql

    def peewee_execute(self, sql, params=None, *args, **kwargs):
        t = time.perf_counter()
        try:
            return plain(self, sql, params, *args, **kwargs)
        finally:
            e = spent[sql]
            e[0] += 1
            e[1] += time.perf_counter() - t

    def game_execute(self, sql, params=None, *args, **kwargs):
        self._note(sql)             # (what GameDatabase.execute_sql counts, as it does)
        if self.statement_guard is not None or args or kwargs:
            return plain(self, sql, params, *args, **kwargs)
        t = time.perf_counter()
        try:
            with __exception_wrapper__:
                cursor = self.cursor()
                cursor.execute(sql, params or ())
            return cursor
        finally:
            e = spent[sql]
            e[0] += 1
            e[1] += time.perf_counter() - t

    SqliteDatabase.execute_sql = peewee_execute
    versions.GameDatabase.execute_sql = game_execute
    return spent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=1500)
    ap.add_argument("--players", type=int, default=60)
    ap.add_argument("--seed", default="ingest")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--db", help="rebuild this game (its log's entries are N) instead of making one")
    args = ap.parse_args(argv)
    tmp = tempfile.TemporaryDirectory(prefix="bnomic-sqlshare-")
    if args.db:
        db = args.db
    else:
        mbox, db = os.path.join(tmp.name, "game.mbox"), os.path.join(tmp.name, "game.sqlite")
        bench_ingest.write_mbox(mbox, bench_ingest.make_mails(args.messages, args.players, args.seed))
        bench_ingest.bnomic("init", "--db", db, "--start", bench_ingest.START.isoformat(),
                            "--seed", "bench", "--clock", "on")
        bench_ingest.bnomic("ingest", "--db", db, mbox)
        bench_ingest.forget_parsed()
    bench_ingest.digest(db)         # (the modules a rebuild uses, imported before the timing)
    from bnomic.store import Entry, open_database, close_database
    open_database(db)
    n = Entry.select().count()
    close_database()
    spent = timed_statements()
    t = time.process_time()
    with contextlib.redirect_stdout(io.StringIO()):
        bench_ingest.bnomic("rebuild", "--db", db)
    cpu = time.process_time() - t
    inside = sum(s for _, s in spent.values())
    count = sum(c for c, _ in spent.values())
    print(f"rebuild of {n} entries: {1000 * cpu / n:.3f} ms CPU an entry; inside SQLite "
          f"{1000 * inside / n:.3f} ms ({100 * inside / cpu:.0f}%), {count / n:.1f} statements an entry "
          f"(savepoints included)")
    print(f"the {args.top} statement texts that cost the most (an entry each):")
    for sql, (c, s) in sorted(spent.items(), key=lambda kv: -kv[1][1])[:args.top]:
        text = " ".join(sql.split())
        print(f"  {1e6 * s / n:7.1f} us {c / n:6.2f}x {1e6 * s / c:7.1f} us each  {text[:110]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
