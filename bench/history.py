"""Benchmark: history at any moment (issue 16): `show players --as-of` a message
in the middle of the game, and an approval's replay (Rule 4E50), on the
generated games of bench/history_game.py (5,000, 20,000 and 50,000 messages
over about 200 nweeks), to see that each stays under a second and flat in the
game's length, and the peak memory of the process doing it.

    python bench/history.py [--sizes 5000,20000,50000] [--runs 3] [--build]

Each measurement runs in a child process of its own (`--child`), on a copy of
the cached game, so its peak RSS (ru_maxrss) is its own:

- as-of: `bnomic show players --json --as-of <Message-ID>` through the
  command line's own `main` (the Message-ID of the mail in the middle of the
  log); timed in the child, and the child's whole run (Python's start, imports)
  from outside: "(process/cpu)", its wall seconds and its own CPU seconds;
  "at a snap": the same as of the first mail from the middle on that has a
  snapshot right after it (no entry replayed: what as-of costs besides the
  entries it replays, which must not grow with the game);
- approval: an approval anchored at the last entry two rdays before the end
  (as Rule 4E50's 2 rdays make it) is recorded, and `runner.replay_from(anchor)`
  timed: the replay the engine does when a display is approved;
- intent: the same, anchored at the latest entry two rdays or more before the
  end that has a snapshot after it, as the entry announcing an intent to
  approve a display has (the engine keeps one there): the replay starts from
  it ("(N)": the entries before the anchor the replay applied, 0 here);
- take: one snapshot taken at the game's end (the engine takes one every 100
  entries and at each new nweek): seconds and its size; "light": a second one right
  after (no digest), which starts from the parts the first kept (snapshots._table_parts);
- with --restore: the restore alone of the snapshot an approval's replay starts from
  (`snapshots.usable(in_place=True)` and `restore`, rolled back): "cold", in a
  fresh process (since schema 14 a table whose write counts say it holds the
  snapshot's rows and only rows added after them is not read at all,
  `snapshots._by_counts`: "told unchanged"; one whose rows changed, only from the
  snapshot's first part ending above the lowest key written since, `_below_low`; the
  other tables' part names found by reading their rows), and "warm",
  as the daemon's engine has it (the part names kept by its last snapshot, the
  approving entry's transaction, which wrote a Player row, rolled back); and the
  rows it wrote; and, for each, the comparison of the state now with the
  snapshot's parts (snapshots._against_current): its seconds and the rows it read
  and hashed, by table (the ledgers are never read there; before schema 14, in a
  fresh process every row of every other state table was, the Vote table most: what
  grew with the game);
- with --rebuild: `bnomic rebuild --json` through `main` (seconds, CPU, peak RSS),
  and `bnomic show digest` before it and after it, which must be the same.

A size that is not cached is cut from a bigger cached game (history_game.derive:
the log up to that mail, the state there, the snapshots up to there); one
that cannot be is skipped, unless --build (which plays it: slow, the engine's
full speed times the game's length).
This is a script, not a test: pytest never collects it.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import history_game  # noqa: E402


def maxrss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(kind: str, db: str) -> dict:
    """One measurement, in this (child) process."""
    import contextlib
    import io
    from bnomic.mailer import cli, runner
    from bnomic.store import Approval, Entry, Message, Snapshot, close_database, open_database
    open_database(db)
    entries = Entry.select().count()
    snaps = Snapshot.select().count()
    if kind in ("as-of", "as-of-snap"):
        middle = (Entry.select(Entry.seq).where(Entry.kind == "mail", Entry.seq >= entries // 2)
                  .order_by(Entry.seq).first().seq)
        if kind == "as-of-snap":        # the first mail from the middle on with a snapshot right after it
            middle = (Snapshot.select(Snapshot.seq).join(Message, on=(Message.entry == Snapshot.seq))
                      .where(Snapshot.seq >= middle).order_by(Snapshot.seq).first().seq)
        mid = Message.get(Message.entry == middle).message_id
        start = (Snapshot.select(Snapshot.seq).where(Snapshot.seq <= middle)
                 .order_by(Snapshot.seq.desc()).limit(1).scalar() or 0)
        close_database()
        out = io.StringIO()
        t0, c0 = time.perf_counter(), time.process_time()
        with contextlib.redirect_stdout(out):
            code = cli.main(["show", "players", "--json", "--as-of", mid, "--db", db])
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        assert code in (0, None), code
        return {"seconds": seconds, "cpu": cpu, "entries": entries, "snapshots": snaps, "point": middle,
                "replayed": middle - start,
                "players": len(json.loads(out.getvalue())), "maxrss_mib": maxrss_mib()}
    if kind in ("rebuild", "digest"):     # `bnomic rebuild` / `bnomic show digest`, as an operator runs them
        close_database()
        out = io.StringIO()
        t0, c0 = time.perf_counter(), time.process_time()
        with contextlib.redirect_stdout(out):
            code = cli.main(["rebuild", "--json", "--db", db] if kind == "rebuild"
                            else ["show", "digest", "--db", db])
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        assert code in (0, None), code
        return {"seconds": seconds, "cpu": cpu, "entries": entries, "snapshots": snaps,
                "output": out.getvalue().strip()[-200:], "maxrss_mib": maxrss_mib()}
    if kind in ("restore", "restore-warm"):     # the restore alone, rolled back
        from bnomic.store import Player, snapshots, write_transaction
        last = Entry.select().order_by(Entry.seq.desc()).first()
        anchor = (Entry.select(Entry.seq).where(Entry.at <= last.at - timedelta(days=2))
                  .order_by(Entry.seq.desc()).first().seq)
        if kind == "restore-warm":
            with write_transaction():       # the engine's last snapshot through this connection
                snapshots.take(last.seq, last.at, runner.code_version(), runner._approvals(last.seq),
                               checked=False)
            try:                            # the approving entry, rolled back before its replay
                with write_transaction():
                    Player.update(mackerel=Player.mackerel + 1).where(
                        Player.id == Player.select(Player.id).limit(1)).execute()
                    raise RuntimeError
            except RuntimeError:
                pass

        class Undo(Exception):
            pass
        # the comparison of the state now with the snapshot's parts: the rows read to
        # hash them (snapshots._rows), by table, and the seconds spent in it
        compared, real_rows, real_compare = {}, snapshots._rows, snapshots._against_current
        spent = [0.0]

        def counted_rows(model, *a, **kw):
            rows = real_rows(model, *a, **kw)
            name = model._meta.table_name
            compared[name] = compared.get(name, 0) + len(rows)
            return rows

        def timed_compare(*a, **kw):
            t = time.perf_counter()
            try:
                return real_compare(*a, **kw)
            finally:
                spent[0] += time.perf_counter() - t
        snapshots._rows, snapshots._against_current = counted_rows, timed_compare
        try:
            with write_transaction():
                t0, c0 = time.perf_counter(), time.process_time()
                snap, tables = snapshots.usable(anchor - 1, runner.code_version(), runner._approvals,
                                                in_place=True)
                snapshots.restore(snap, tables)
                seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
                written = sum(len(t.get("rows", ())) for t in tables.values())
                counted = sum(1 for t in tables.values() if "after" in t)
                below = sum(1 for t in tables.values() if "boundary" in t)
                compared_tables = sum(1 for t in tables.values() if "names" in t)
                raise Undo
        except Undo:
            pass
        snapshots._rows, snapshots._against_current = real_rows, real_compare
        close_database()
        return {"seconds": seconds, "cpu": cpu, "entries": entries, "snapshots": snaps,
                "written": written, "compare_seconds": spent[0], "compared": compared,
                "counted": counted, "below": below, "tables": compared_tables,
                "maxrss_mib": maxrss_mib()}
    if kind == "take":          # what the engine pays for one snapshot at the end of the game
        from bnomic.store import snapshots, write_transaction
        last = Entry.select().order_by(Entry.seq.desc()).first()
        t0, c0 = time.perf_counter(), time.process_time()
        with write_transaction():
            snap = snapshots.take(last.seq, last.at, runner.code_version(), [])
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        t1, c1 = time.perf_counter(), time.process_time()
        with write_transaction():
            snapshots.take(last.seq, last.at, runner.code_version(), [], checked=False)
        light, light_cpu = time.perf_counter() - t1, time.process_time() - c1
        size = len(snap.tables)
        from bnomic.store import SnapshotPart
        parts = sum(len(bytes(b)) for (b,) in SnapshotPart.select(SnapshotPart.blob).tuples())
        close_database()
        return {"seconds": seconds, "cpu": cpu, "light_seconds": light, "light_cpu": light_cpu,
                "entries": entries, "snapshots": snaps, "bytes": size, "parts_bytes": parts,
                "maxrss_mib": maxrss_mib()}
    # an approval anchored two rdays before the end ("approval"), or at the last intent to
    # approve a display announced two rdays or more before the end ("intent": the engine keeps
    # a snapshot after such an entry, and the replay starts there)
    last = Entry.select().order_by(Entry.seq.desc()).first()
    if kind == "intent":        # the latest entry with a snapshot after it, two rdays before the end
        anchor = (Snapshot.select(Snapshot.seq).where(Snapshot.at <= last.at - timedelta(days=2))
                  .order_by(Snapshot.seq.desc()).scalar())
    else:
        anchor = (Entry.select(Entry.seq).where(Entry.at <= last.at - timedelta(days=2))
                  .order_by(Entry.seq.desc()).first().seq)
    from bnomic.store import Player, write_transaction
    p = Player.select().where(Player.is_player == True, Player.is_beast == False).first()  # noqa: E712
    with write_transaction():
        Approval.insert(entry=last.seq, anchor=anchor, why="bench/history.py",
                        values={"players": {p.name_key: {"mackerel": 500}}}).on_conflict_replace().execute()
    restored = []
    real_restore = runner.snapshots.restore

    def watched(snap, *args, **kw):
        restored.append(snap.seq)
        return real_restore(snap, *args, **kw)
    runner.snapshots.restore = watched
    t0, c0 = time.perf_counter(), time.process_time()
    runner.replay_from(anchor)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    start = restored[0] if restored else 0
    close_database()
    return {"seconds": seconds, "cpu": cpu, "entries": entries, "snapshots": snaps, "anchor": anchor,
            "replayed": last.seq - start, "before_anchor": anchor - start, "maxrss_mib": maxrss_mib()}


def measure(kind: str, cached: Path, runs: int, then: str | None = None) -> dict:
    """`kind` in a child process on a fresh copy of the game, `runs` times (median); with
    `then`, that kind measured after it on the same copy (its result under "then")."""
    results, walls = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="bnomic-history-") as tmp:
            db = str(Path(tmp) / "game.sqlite")
            shutil.copyfile(cached, db)
            t0, u0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
            out = subprocess.run([sys.executable, __file__, "--child", kind, db],
                                 check=True, capture_output=True, text=True)
            walls.append(time.perf_counter() - t0)
            u1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            results.append(json.loads(out.stdout.strip().splitlines()[-1]))
            results[-1]["process_cpu"] = (u1.ru_utime - u0.ru_utime) + (u1.ru_stime - u0.ru_stime)
            if then:
                out = subprocess.run([sys.executable, __file__, "--child", then, db],
                                     check=True, capture_output=True, text=True)
                results[-1]["then"] = json.loads(out.stdout.strip().splitlines()[-1])
    r = results[0]
    r["seconds"] = statistics.median(x["seconds"] for x in results)
    r["cpu"] = statistics.median(x["cpu"] for x in results)
    r["max_seconds"] = max(x["seconds"] for x in results)
    r["process_seconds"] = statistics.median(walls)
    r["process_cpu"] = statistics.median(x["process_cpu"] for x in results)
    r["maxrss_mib"] = max(x["maxrss_mib"] for x in results)
    return r


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,2500," + ",".join(map(str, history_game.SIZES)))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--build", action="store_true", help="play the games that are not cached")
    ap.add_argument("--rebuild", action="store_true",
                    help="also `bnomic rebuild` each game once (minutes at 50k): seconds, peak RSS, "
                         "and its digest against `show digest` before")
    ap.add_argument("--restore", action="store_true",
                    help="also the restore alone of an approval's snapshot: cold (a fresh process) "
                         "and warm (the part names kept, as the daemon's engine has them)")
    ap.add_argument("--child", nargs=2, metavar=("KIND", "DB"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(*args.child)))
        return 0
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.build:
        missing = [s for s in sizes if not history_game.path(s).exists()]
        if missing:
            history_game.build(missing)
    for s in sizes:                  # a smaller game is cut from a bigger cached one
        history_game.load(s)
    print(f"history benchmark (bench/history.py), {args.runs} run(s) each, median; Python "
          f"{sys.version.split()[0]}")
    print(f"{'messages':>9} {'entries':>8} {'snaps':>6}  {'as-of s':>8} {'cpu':>6} {'(process/cpu)':>13} "
          f"{'replayed':>8} {'approval s':>10} {'cpu':>6} {'replayed':>8}  {'peak RSS MiB':>12}   "
          f"take: checked, light (cpu s), the snapshot's own KiB, all parts MiB   "
          f"approval at an intent: s, cpu, replayed (of them before the anchor)   "
          f"as-of at a snap: s, cpu (replayed)")
    ok = True
    for size in sizes:
        cached = history_game.path(size)
        if not cached.exists():
            print(f"{size:>9}  (not built: python bench/history_game.py --sizes {size})")
            continue
        a = measure("as-of", cached, args.runs)
        z = measure("as-of-snap", cached, args.runs)
        b = measure("approval", cached, args.runs)
        i = measure("intent", cached, args.runs)
        c = measure("take", cached, 1)
        rss = max(a["maxrss_mib"], b["maxrss_mib"], i["maxrss_mib"])
        print(f"{size:>9} {a['entries']:>8} {a['snapshots']:>6}  {a['seconds']:>8.3f} {a['cpu']:>6.3f} "
              f"{a['process_seconds']:>5.2f}/{a['process_cpu']:.2f} {a['replayed']:>8} {b['seconds']:>10.3f} {b['cpu']:>6.3f} "
              f"{b['replayed']:>8}  {rss:>12.0f}   {c['cpu']:.2f}, {c['light_cpu']:.2f} "
              f"{c['bytes'] / 1024:>5.1f} {c['parts_bytes'] / 2**20:>6.1f}   "
              f"{i['seconds']:.3f} {i['cpu']:.3f} {i['replayed']} ({i['before_anchor']})   "
              f"{z['seconds']:.3f} {z['cpu']:.3f} ({z['replayed']})", flush=True)
        rss = max(rss, z["maxrss_mib"])
        ok &= a["seconds"] < 1 and b["seconds"] < 1 and i["seconds"] < 1 and z["seconds"] < 1 and rss < 200
        if args.restore:
            cold, warm = measure("restore", cached, args.runs), measure("restore-warm", cached, args.runs)
            print(f"{size:>9}  restore of an approval's snapshot: cold {cold['seconds']:.3f} s, cpu "
                  f"{cold['cpu']:.3f} ({cold['written']} rows written); warm {warm['seconds']:.3f} s, cpu "
                  f"{warm['cpu']:.3f} ({warm['written']} rows written)", flush=True)
            for label, r in (("cold", cold), ("warm", warm)):
                big = sorted(r["compared"].items(), key=lambda kv: -kv[1])[:3]
                print(f"{size:>9}    {label}: comparing the state with the snapshot's parts "
                      f"{r['compare_seconds']:.3f} s, {sum(r['compared'].values())} rows read and hashed"
                      + (f" (most: {', '.join(f'{n} {k}' for n, k in big)})" if big else "")
                      + f"; of {r['tables']} tables {r['counted']} told unchanged by their write counts, not read, "
                      f"{r.get('below', 0)} read only after the lowest key written since",
                      flush=True)
        if args.rebuild:
            d = measure("digest", cached, 1)
            r = measure("rebuild", cached, 1, then="digest")
            same = d["output"] == r["then"]["output"]
            print(f"{size:>9}  rebuild: {r['seconds']:.1f} s, cpu {r['cpu']:.1f} s, peak RSS "
                  f"{r['maxrss_mib']:.0f} MiB; show digest: {d['seconds']:.1f} s, peak RSS "
                  f"{d['maxrss_mib']:.0f} MiB; digest after rebuild {'the same' if same else 'CHANGED'}",
                  flush=True)
            ok &= same and r["maxrss_mib"] < 200
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (wall seconds include waiting "
          f"for a core; cpu: the process's own)")
    print("each under 1 s and under 200 MiB: " + ("yes" if ok else "NO")
          + " (\"replayed\": the entries applied after the snapshot the replay started from)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
