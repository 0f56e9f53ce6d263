"""Benchmark: the tally at the end of one nweek's Voting Period.

    python bench/tally.py [--players P] [--proposals N] [--runs R] [--seed S]
                          [--profile] [--db PATH]

Creates a game with `bnomic init` (nweek 2, nday 12, the last nday of the
Voting Period), then builds the state of a busy nweek directly through the
store: P Vested, Active players (one of them the Chairman, who leaves the
results to bnomic), N Open proposals numbered 1..N with bodies in the change
language (points, mackerel, repeals, retitlings, Powers, amendments), in prose,
or both, some Conflicts and Dependencies among them, a few Shelved the nweek
before, and every player's Vote on every proposal, a few players voting twice
so that the Final Vote matters. Everything is drawn from random.Random(seed).

Then, R times, on a fresh copy of that database file (so every run tallies the
same untallied state), it times only `voting.tally(ctx)` inside
`store.write_transaction()` (the commit included) with
`Context(Game.get().now, "midnight")`, and the rendering of the results mail
players receive (`publish.published_mail(event)` for the "results" event).

Prints min/median wall times, the outcomes, the events written and peak RSS.
With --profile, one more run under cProfile prints where the tally's time goes.

This is a script, not a test: pytest never collects it.
"""
from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import os
import pstats
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

from bnomic.handlers import voting
from bnomic.handlers.context import Context
from bnomic.handlers.players import name_key
from bnomic.mailer import cli, publish
from bnomic.store import (
    Event, Game, Ministry, Player, Proposal, Rule, Vote, close_database, open_database,
    state_digest, write_transaction,
)

START = datetime(2008, 9, 1, tzinfo=timezone.utc)
NWEEK = 2               # so that "Shelved the nweek before" (nweek 1) can happen
NDAY = 12               # the last nday: the tally runs at its end

PROSE = [
    "The Registrar shall publish a list of every Player's favourite fish within a Jiffy.",
    "Each Player who has not voted in the last two nweeks loses m5.",
    "The Beast is hereby declared to be a Very Good Beast, and all Players shall treat it "
    "with the respect due to its station.",
    "The Ministry of Fauna shall keep a Public Display of every animal mentioned on the "
    "Public Forum, with the Player who mentioned it first.",
    "Upon the passage of this proposal, each Player named in the Fish Register gains m3.",
    "Players are encouraged, but not required, to end their messages with a haiku.",
    "The Chairman shall, in the Ballot, list the proposals in order of their Proposal Color.",
    "Any Player may, once per nweek, declare a Holiday; during a Holiday nothing happens.",
]
RULES_TO_REPEAL = [60, 61, 80, 82, 84, 83, 76]
RULES_TO_TOUCH = [9, 30, 39, 40, 68, 69, 70, 71, 72, 79]
WEIGHTS = {  # per-proposal vote mixes (FOR, AGAINST, ABSTAIN, SHELVE), so every outcome occurs
    "popular": (6, 2, 1, 1),
    "contested": (4, 4, 1, 1),
    "unpopular": (2, 6, 1, 1),
    "shelved": (2, 4, 1, 5),
    "ignored": (1, 1, 12, 1),
}


# ------------------------------------------------------------------ set-up

def body_for(rng: random.Random, n: int, names: list[str]) -> str:
    """A proposal's body: change language, prose, or both."""
    def change() -> str:
        roll = rng.random()
        who = rng.choice(names)
        if roll < 0.35:
            return f"Set the points of {who} to {rng.randint(0, 20)}"
        if roll < 0.6:
            return f"Set the mackerel of {who} to m{rng.randint(0, 500)}"
        if roll < 0.7:
            return f"Repeal Rule 4E{rng.choice(RULES_TO_REPEAL)}"
        if roll < 0.8:
            return f'Retitle Rule 4E{rng.choice(RULES_TO_TOUCH)} to "Title from proposal {n}"'
        if roll < 0.9:
            power = rng.choice(["1/3", "1/2", "2/3", "3/4"])
            return f"Set the Power of Rule 4E{rng.choice(RULES_TO_TOUCH)} to {power}"
        return (f"Amend Rule 4E{rng.choice(RULES_TO_TOUCH)} to read: {{{{ This Rule was rewritten "
                f"by proposal {n}. {rng.choice(PROSE)} }}}}")

    roll = rng.random()
    if roll < 0.5:                                  # change language only
        return "\n".join(change() for _ in range(rng.choice([1, 1, 1, 2, 3])))
    if roll < 0.8:                                  # prose only
        return "\n\n".join(rng.sample(PROSE, rng.randint(1, 3)))
    return change() + "\n\n" + rng.choice(PROSE)    # both


def build(path: str, players: int, proposals: int, seed: str) -> dict:
    """`bnomic init`, then the nweek's players, proposals and votes, straight into the store."""
    with contextlib.redirect_stdout(io.StringIO()):
        code = cli.main(["init", "--db", path, "--start", START.isoformat(), "--nweek", str(NWEEK),
                         "--nday", str(NDAY), "--seed", seed])
    if code:
        raise SystemExit(f"bnomic init failed ({code})")
    close_database()
    open_database(path)
    rng = random.Random(seed)
    stats: Counter = Counter()
    with write_transaction():
        game = Game.get()
        now = game.now
        first_pid = (Player.select(Player.id).order_by(Player.id.desc()).first().id or 0) + 1
        names = [f"P{i}" for i in range(1, players + 1)]
        pids = list(range(first_pid, first_pid + players))
        Player.insert_many([
            {"id": pid, "name": name, "name_key": name_key(name), "is_player": True,
             "vested": True, "active": True, "points": rng.randint(0, 30),
             "mackerel": rng.randint(0, 200), "joined_nweek": 1, "last_voted_nweek": 1}
            for pid, name in zip(pids, names)]).execute()
        change = Ministry.get(Ministry.name == "Change")        # bnomic publishes the results
        change.holder, change.held_since = pids[0], now - timedelta(days=5)
        change.save()

        kinds = list(WEIGHTS)
        rows, mix = [], {}
        for n in range(1, proposals + 1):
            kind = rng.choices(kinds, weights=(30, 25, 20, 15, 10))[0]
            mix[n] = WEIGHTS[kind]
            conflicts = sorted(rng.sample([m for m in range(1, proposals + 1) if m != n],
                                          rng.randint(1, 2))) if rng.random() < 0.1 else []
            dependencies = sorted(rng.sample(range(1, n), min(n - 1, rng.randint(1, 2)))) \
                if n > 1 and rng.random() < 0.08 else []
            stats["conflicts"] += bool(conflicts)
            stats["dependencies"] += bool(dependencies)
            shelved_before = kind == "shelved" and rng.random() < 0.3
            stats["shelved before"] += shelved_before
            rows.append({"id": n, "number": n, "title": f"Proposal {n}" if rng.random() < 0.9 else "",
                         "body": body_for(rng, n, names), "author": rng.choice(pids),
                         "status": "Open", "success": "Undecided", "conflicts": conflicts,
                         "dependencies": dependencies,
                         "color": "Blank" if rng.random() < 0.8 else rng.choice(["Blue", "Brown", "Beige"]),
                         "submitted_at": now - timedelta(days=rng.uniform(3, 10)),
                         "voting_nweek": NWEEK,
                         "shelved_nweek": NWEEK - 1 if shelved_before else None})
        for i in range(0, len(rows), 200):
            Proposal.insert_many(rows[i:i + 200]).execute()

        # every player votes on every proposal; a few vote again later (the Final Vote counts)
        voting_start = now - timedelta(days=3)
        votes, vid = [], 0
        for pid in pids:
            t = voting_start + timedelta(hours=rng.uniform(0, 36))
            for n in range(1, proposals + 1):
                vid += 1
                votes.append((vid, n, pid, rng.choices(voting.VOTES, weights=mix[n])[0], NWEEK, t))
        twice = rng.sample(pids, max(1, players // 20))
        for pid in twice:
            t = voting_start + timedelta(hours=rng.uniform(40, 70))
            for n in sorted(rng.sample(range(1, proposals + 1), proposals // 2)):
                vid += 1
                votes.append((vid, n, pid, rng.choice(voting.VOTES), NWEEK, t))
        stats["players voting twice"] = len(twice)
        stats["votes"] = len(votes)
        fields = [Vote.id, Vote.proposal, Vote.voter, Vote.vote, Vote.nweek, Vote.at]
        for i in range(0, len(votes), 5000):
            Vote.insert_many(votes[i:i + 5000], fields=fields).execute()
        stats["events before"] = Event.select().count()
        stats["rules"] = Rule.select().count()
    close_database()                            # checkpoints the WAL into the file
    for suffix in ("-wal", "-shm"):
        if Path(path + suffix).exists():
            raise SystemExit(f"{path}{suffix} is still there after closing")
    return stats


# ------------------------------------------------------------------ a run

def maxrss_mib() -> float:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024   # bytes on macOS


def fresh_copy(setup_path: str, run_path: str) -> None:
    close_database()
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(run_path + suffix)
    shutil.copyfile(setup_path, run_path)
    open_database(run_path)


CPU: list[float] = []      # the process's CPU seconds of each timed tally (the machine may be shared)


def run_tally(profiler=None) -> float:
    ctx = Context(Game.get().now, "midnight")
    gc.collect()
    t0, c0 = time.perf_counter(), time.process_time()
    if profiler:
        profiler.enable()
    with write_transaction():
        voting.tally(ctx)
    if profiler:
        profiler.disable()
    CPU.append(time.process_time() - c0)
    return time.perf_counter() - t0


def outcomes(before: int) -> dict:
    tally = Event.select().where(Event.kind == "tally").order_by(Event.seq.desc()).get()
    counts = Counter(p["outcome"].split(" (")[0] for p in tally.data["proposals"])
    kinds = Counter(e.kind for e in Event.select(Event.kind).where(Event.seq > before))
    return {"outcomes": counts, "events": sum(kinds.values()), "kinds": kinds, "digest": state_digest(),
            "tally_json": len(json.dumps(tally.data, sort_keys=True))}


def time_render(repeat: int = 1) -> tuple[float, str, str]:
    event = Event.select().where(Event.kind == "results").order_by(Event.seq.desc()).get()
    best, subject, text = None, "", ""
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        subject, text = publish.published_mail(event)
        elapsed = time.perf_counter() - t0
        best = elapsed if best is None else min(best, elapsed)
    return best, subject, text


def fmt_times(xs: list[float]) -> str:
    return f"min {min(xs) * 1000:,.0f} ms, median {statistics.median(xs) * 1000:,.0f} ms"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=100, help="players, all Vested (default 100)")
    ap.add_argument("--proposals", type=int, default=500, help="Open proposals (default 500)")
    ap.add_argument("--runs", type=int, default=5, help="timed tallies, each on a fresh copy (default 5)")
    ap.add_argument("--seed", default="bench", help="seed for the generated nweek and the game")
    ap.add_argument("--profile", action="store_true",
                    help="one more tally under cProfile: print the top functions")
    ap.add_argument("--profile-lines", type=int, default=25, metavar="K",
                    help="functions to print per profile table (default 25)")
    ap.add_argument("--db", help="keep the set-up (untallied) game in this SQLite file (must not exist)")
    args = ap.parse_args(argv)
    if args.players < 2 or args.proposals < 2 or args.runs < 1:
        ap.error("--players and --proposals must be at least 2, --runs at least 1")

    tmp = tempfile.TemporaryDirectory(prefix="bnomic-bench-")
    setup_path = args.db or os.path.join(tmp.name, "setup.sqlite")
    if Path(setup_path).exists():
        ap.error(f"{setup_path} already exists")
    run_path = os.path.join(tmp.name, "run.sqlite")

    print(f"bnomic tally benchmark: {args.players} players, {args.proposals} proposals, "
          f"{args.runs} runs, seed {args.seed!r}, Python {sys.version.split()[0]}")
    t0 = time.perf_counter()
    stats = build(setup_path, args.players, args.proposals, args.seed)
    t_build = time.perf_counter() - t0
    print(f"  set-up          {stats['votes']:,} votes ({stats['players voting twice']} players voting "
          f"twice), {stats['conflicts']} proposals with Conflicts, {stats['dependencies']} with "
          f"Dependencies, {stats['shelved before']} Shelved in nweek {NWEEK - 1}; "
          f"{Path(setup_path).stat().st_size / 2**20:.1f} MiB, in {t_build:.2f} s")

    tally_times, render_times, copy_times = [], [], []
    first = None
    for i in range(args.runs):
        t0 = time.perf_counter()
        fresh_copy(setup_path, run_path)
        copy_times.append(time.perf_counter() - t0)
        before = Event.select(Event.seq).order_by(Event.seq.desc()).first().seq
        tally_times.append(run_tally())
        result = outcomes(before)
        t_render, subject, text = time_render()
        render_times.append(t_render)
        if first is None:
            first = (result, subject, text)
        elif (result["outcomes"], result["events"], result["digest"]) != (
                first[0]["outcomes"], first[0]["events"], first[0]["digest"]):
            print(f"  WARNING: run {i + 1} tallied differently: {result['outcomes']} vs "
                  f"{first[0]['outcomes']}")
        print(f"    run {i + 1}: tally {tally_times[-1] * 1000:,.0f} ms ({CPU[-1] * 1000:,.0f} ms of CPU), "
              f"results mail {t_render * 1000:,.0f} ms")
    result, subject, text = first
    out = result["outcomes"]
    print(f"  tally           {fmt_times(tally_times)} ({args.proposals / min(tally_times):,.0f} "
          f"proposals/s; copy of the file before each run: {statistics.median(copy_times) * 1000:.0f} ms, "
          f"not timed)")
    print(f"      CPU time of the process during the tally: {fmt_times(CPU[:args.runs])}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"      state digest after the tally: {first[0]['digest']}")
    print(f"      outcomes: {out.get('Passed', 0)} Passed, {out.get('Discarded', 0)} Discarded, "
          f"{out.get('Shelved', 0)} Shelved, {out.get('Lost', 0)} Lost"
          + "".join(f", {n} {k}" for k, n in out.items()
                    if k not in ("Passed", "Discarded", "Shelved", "Lost")))
    print(f"      events written: {result['events']:,} ("
          + ", ".join(f"{n} {k}" for k, n in result["kinds"].most_common()) + ")")
    print(f"      tally event data: {result['tally_json'] / 2**20:.1f} MiB of JSON")
    print(f"  results mail    {fmt_times(render_times)}: {subject!r}, "
          f"{len(text) / 1024:,.0f} KiB, {text.count(chr(10)):,} lines")
    close_database()

    if args.profile:
        # imported here, without this folder on sys.path: run as `python bench/tally.py`, the
        # folder comes first, and its profile.py would stand in for the one cProfile imports
        here = Path(__file__).resolve().parent
        sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
        import cProfile
        fresh_copy(setup_path, run_path)
        profiler = cProfile.Profile()
        t_prof = run_tally(profiler)
        close_database()
        print(f"  profile (one more tally under cProfile: {t_prof * 1000:,.0f} ms)")
        for key in ("tottime", "cumulative"):
            buf = io.StringIO()
            pstats.Stats(profiler, stream=buf).strip_dirs().sort_stats(key).print_stats(args.profile_lines)
            body = buf.getvalue()
            body = body[body.index("   ncalls"):] if "   ncalls" in body else body
            print(f"    by {key}:")
            print("\n".join("    " + line for line in body.rstrip().splitlines()))

    print(f"  peak RSS of the whole run (ru_maxrss): {maxrss_mib():.0f} MiB")
    if args.db:
        print(f"  the untallied game is kept in {setup_path}")
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
