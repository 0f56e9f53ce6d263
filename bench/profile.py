"""Profile: where `bnomic ingest` and `bnomic rebuild` spend their time, grouped.

    python bench/profile.py [--messages N] [--players P] [--top K] [--phase ingest|rebuild|both]

Runs the mbox of bench/ingest.py through `bnomic ingest` (and then `bnomic
rebuild`) in this process under cProfile and prints, per phase:

* self time grouped by what it is: mail parsing (email, mailbox, mail-parser,
  mailer/parse, headers), reading (the reader's modules, difflib), the engine
  and the rules (handlers/ but the reader), SQL building (peewee's own code),
  SQL execution (sqlite3's execute and fetch calls), commits (sqlite3's commit
  and COMMIT statements), rendering (Jinja2, render.py), the rest;
* inclusive time of the steps an entry goes through: advancing time, parsing
  the mail, reading it, applying it, the duty and watch checks after every
  entry (engine.perform_duties), the receipt, state configuration
  (game_config);
* SQL statements per message, in total and by kind (SELECT, INSERT, UPDATE,
  DELETE, BEGIN/COMMIT/SAVEPOINT...) and by the step that issued them
  (counted with sqlite3's trace callback); with --statements K, the K most
  frequent SQL texts, each with the call site that ran it (the first frame
  outside peewee and the store's plumbing); --no-profile counts without
  cProfile (quicker); --peewee-callers K lists the K functions of ours whose
  calls into peewee cost the most (the time inside peewee, by caller);
* with --top K, the K functions with the most self time.

cProfile makes Python calls slower, so the shares are a guide and the totals
are not throughput: bench/ingest.py measures that. This is a script, not a
test: pytest never collects it.
"""
from __future__ import annotations

import sys
from pathlib import Path

# this file is named profile.py, as the stdlib module cProfile imports: take
# bench/ off the front of the path first, and put it at the end
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE] + [str(HERE)]

import argparse                   # noqa: E402
import contextlib                 # noqa: E402
import cProfile                   # noqa: E402
import functools                  # noqa: E402
import os                         # noqa: E402
import pstats                     # noqa: E402
import re                         # noqa: E402
import tempfile                   # noqa: E402
from collections import Counter   # noqa: E402

import ingest as bench_ingest     # noqa: E402  (bench/ingest.py: the same mbox)

READER = ("grammar.py", "frames.py", "lexer.py", "vocabulary.py", "pinned.py", "budget.py",
          "names.py", "difflib.py")
PARSING = ("mailparser", "/email/", "mailbox.py", "mailer/parse.py", "mailer/headers.py",
           "authres", "quopri.py", "base64", "encodings")
RENDERING = ("jinja2", "markupsafe", "bnomic/render.py")


def group_of(filename: str, name: str) -> str:
    if filename == "~":                       # a built-in: sqlite3's methods among them
        if "sqlite3.Connection" in name and "commit" in name:
            return "commits"
        if "sqlite3." in name and any(w in name for w in ("execute", "fetch", "step")):
            return "SQL execution"
        return "other"
    f = filename.replace(os.sep, "/")
    if "peewee.py" in f or "playhouse" in f:
        return "SQL building (peewee)"
    if any(p in f for p in PARSING):
        return "mail parsing"
    if "bnomic/handlers/" in f and f.rsplit("/", 1)[-1] in READER or f.endswith("difflib.py"):
        return "reading"
    if any(p in f for p in RENDERING):
        return "rendering"
    if "bnomic/handlers/" in f:
        return "engine and rules"
    if "bnomic/" in f:
        return "bnomic other (mailer, store)"
    return "other"


# the steps an entry goes through: (label, module, function name)
STEPS = [
    ("advance (midnights, deadlines)", "bnomic.handlers.engine", "advance"),
    ("parse the mail", "bnomic.mailer.parse", "parse"),
    ("mail to Post", "bnomic.mailer.parse", "to_post"),
    ("read the post (or its pins)", "bnomic.handlers.engine", "post_readings"),
    ("apply the post", "bnomic.handlers.engine", "apply_post"),
    ("duty and watch checks", "bnomic.handlers.engine", "perform_duties"),
    ("receipt", "bnomic.mailer.receipts", "queue_receipt"),
    ("game_config()", "bnomic.handlers.context", "game_config"),
    ("store the mail", "bnomic.mailer.inbound", "store_archive"),
]

_step = ["(outside the steps)"]


def _counting(label, fn):
    @functools.wraps(fn)
    def wrapper(*a, **kw):
        outer = _step[0]
        _step[0] = label
        try:
            return fn(*a, **kw)
        finally:
            _step[0] = outer
    return wrapper


_SITE_SKIP = ("peewee.py", "playhouse", "bnomic/store/versions.py", "bnomic/store/hot.py",
              "bnomic/store/models.py",
              "bench/profile.py", "contextlib.py", "functools.py")


_LITERAL = re.compile(r"'(?:[^']|'')*+'|(?<![\w\"])-?+\d++(?:\.\d++)?+(?![\w\"])|X'[0-9A-Fa-f]*+'")


def shape(sql: str) -> str:
    """The statement with its literal values as ? (the trace sees them filled in)."""
    return _LITERAL.sub("?", " ".join(sql.split()))[:200]


def call_site() -> str:
    """The first frame outside peewee and the store's plumbing: module:line function."""
    f = sys._getframe(2)
    while f is not None:
        name = f.f_code.co_filename.replace(os.sep, "/")
        if not any(s in name for s in _SITE_SKIP):
            short = name.split("bnomic/", 1)[-1] if "bnomic/" in name else Path(name).name
            return f"{short}:{f.f_lineno} {f.f_code.co_name}"
        f = f.f_back
    return "?"


def count_statements(texts: Counter | None = None) -> tuple[Counter, Counter]:
    """Count every SQL statement the game's connection runs, by kind and by step
    (and, given `texts`, by SQL text and the call site that ran it)."""
    import importlib
    from bnomic.store import database
    kinds, steps = Counter(), Counter()
    # the step labels: wrap each function where the callers find it
    for label, module, name in STEPS[:-1]:
        mod = importlib.import_module(module)
        setattr(mod, name, _counting(label, getattr(mod, name)))
    for label, module, name in STEPS[-1:]:
        mod = importlib.import_module(module)
        setattr(mod, name, _counting(label, getattr(mod, name)))

    last = [None]

    def trace(sql: str) -> None:
        # Python's trace callback repeats a statement's own text for its trigger's
        # program and each statement in it (schema 14's write counts: three lines
        # more for each write to a state table): counted apart, not as statements
        if sql == last[0]:
            kinds["(trigger steps)"] += 1
            return
        last[0] = sql
        kinds[sql.lstrip().split(None, 1)[0].upper() if sql.strip() else "?"] += 1
        steps[_step[0]] += 1
        if texts is not None:
            texts[(shape(sql), call_site())] += 1

    from bnomic.store import db as store_db
    real_open = store_db.open_database

    def open_and_trace(target):
        result = real_open(target)
        database.connection().set_trace_callback(trace)
        return result
    store_db.open_database = open_and_trace
    import bnomic.store as store_pkg
    store_pkg.open_database = open_and_trace
    from bnomic.mailer import cli
    cli.open_database = open_and_trace
    return kinds, steps


def report(title: str, profile: cProfile.Profile, messages: int, top: int,
           callers: int = 0) -> None:
    stats = pstats.Stats(profile)
    total = sum(tt for (_, _, _), (_, _, tt, _, _) in stats.stats.items())
    groups: Counter = Counter()
    for (filename, line, name), (cc, nc, tt, ct, _) in stats.stats.items():
        groups[group_of(filename, name)] += tt
    print(f"\n== {title}: {messages} messages, {total:.2f} s under cProfile "
          f"({1000 * total / messages:.2f} ms a message)")
    print("self time by group:")
    for group, t in groups.most_common():
        print(f"  {group:<32} {t:8.2f} s  {100 * t / total:5.1f}%")
    print("inclusive time of the steps:")
    for label, module, name in STEPS:
        mod_file = module.replace(".", "/") + ".py"
        ct = sum(v[3] for (f, _, n), v in stats.stats.items()
                 if n == name and f.replace(os.sep, "/").endswith(mod_file))
        print(f"  {label:<32} {ct:8.2f} s  {100 * ct / total:5.1f}%")
    if callers:
        # each call from our code (or anywhere outside peewee) into peewee, with the time it spent
        # there: edges caller -> peewee function, the caller not in peewee
        into: Counter = Counter()
        calls: Counter = Counter()
        for (f, line, name), (cc, nc, tt, ct, edges) in stats.stats.items():
            if group_of(f, name) != "SQL building (peewee)":
                continue
            for (cf, cline, cname), (_, enc, _, ect) in edges.items():
                if group_of(cf, cname) == "SQL building (peewee)":
                    continue
                short = cf.replace(os.sep, "/").split("bnomic/", 1)[-1]
                into[f"{short}:{cline} {cname}"] += ect
                calls[f"{short}:{cline} {cname}"] += enc
        print(f"top {callers} callers of peewee by the time spent in it (inclusive; a message each):")
        for site, t in into.most_common(callers):
            print(f"  {1000 * t / messages:7.2f} ms {calls[site] / messages:6.1f} calls  {site}")
    if top:
        print(f"top {top} functions by self time:")
        rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:top]
        for (f, line, name), (cc, nc, tt, ct, _) in rows:
            where = f"{Path(f).name}:{line}" if f != "~" else ""
            print(f"  {tt:7.2f} s {nc:>9} calls  {name} {where}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=3000)
    ap.add_argument("--players", type=int, default=60)
    ap.add_argument("--seed", default="ingest")
    ap.add_argument("--top", type=int, default=15, help="list the K costliest functions (0: none)")
    ap.add_argument("--phase", choices=["ingest", "rebuild", "both"], default="both")
    ap.add_argument("--statements", type=int, default=0, metavar="K",
                    help="list the K most frequent SQL texts with the call site that ran them")
    ap.add_argument("--peewee-callers", type=int, default=0, metavar="K",
                    help="list the K functions outside peewee whose calls into it cost the most")
    ap.add_argument("--no-profile", action="store_true",
                    help="count statements only (no cProfile: quicker)")
    args = ap.parse_args(argv)
    texts: Counter | None = Counter() if args.statements else None
    kinds, steps = count_statements(texts)
    tmp = tempfile.TemporaryDirectory(prefix="bnomic-profile-")
    mbox, db = os.path.join(tmp.name, "game.mbox"), os.path.join(tmp.name, "game.sqlite")
    bench_ingest.write_mbox(mbox, bench_ingest.make_mails(args.messages, args.players, args.seed))
    bench_ingest.bnomic("init", "--db", db, "--start", bench_ingest.START.isoformat(),
                        "--seed", "bench", "--clock", "on")
    phases = [("ingest", ("ingest", "--db", db, mbox)), ("rebuild", ("rebuild", "--db", db))]
    for name, argv_ in phases:
        if args.phase not in (name, "both"):
            if name == "ingest":          # rebuild alone still needs the log
                bench_ingest.bnomic(*argv_)
            continue
        kinds.clear()
        steps.clear()
        if texts is not None:
            texts.clear()
        if args.no_profile:
            bench_ingest.bnomic(*argv_)
            print(f"\n== {name}: {args.messages} messages")
        else:
            profile = cProfile.Profile()
            with contextlib.ExitStack():
                profile.enable()
                bench_ingest.bnomic(*argv_)
                profile.disable()
            report(name, profile, args.messages, args.top, args.peewee_callers)
        triggered = kinds.pop("(trigger steps)", 0)
        total = sum(kinds.values())
        print(f"SQL statements: {total} ({total / args.messages:.1f} a message)")
        print("  by kind: " + ", ".join(f"{k} {v / args.messages:.1f}" for k, v in kinds.most_common()))
        print(f"  and {triggered / args.messages:.1f} a message run by triggers (the write counts)")
        print("  by step (innermost; a message each):")
        for label, v in steps.most_common():
            print(f"    {label:<32} {v / args.messages:6.1f}")
        if texts:
            print(f"  the {args.statements} most frequent statements (a message each; call site):")
            for (sql, site), v in texts.most_common(args.statements):
                print(f"    {v / args.messages:6.2f}  {site}\n            {sql}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
