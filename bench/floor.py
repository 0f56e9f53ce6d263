"""Benchmark: the floor under `bnomic ingest` and `bnomic rebuild`, per mail, in parts.

    python bench/floor.py [--messages N] [--players P] [--seed S] [--repeat R] [--json]

On the mbox of bench/ingest.py (N small game mails: joins, then "I give m1
to X."), in one run, the CPU time per mail of

(a) bare: the standard library's parse of the mbox (bench/ingest.bare_parse),
    the figure the issue's ratios are of;
(a') parse: bnomic's own parse of each mail as `bnomic ingest` does it (mailer/parse:
    the fields the log stores, inbound.archive_fields, and the fields kept for
    a replay, parsed.Parsed.of: one parse a mail);
(b) reader: the reader alone on each mail's own words: `engine.read_post` of
    the Post the mail makes, against the game's words as they stand after the
    ingest (the Posts and the words made beforehand, outside the timing); and
    (b') the same plus the lexing of the quoted lines (`quoted_vocabulary`,
    the reader's lexer: the words a reply reads with);
(c) store: the one durable log insert per mail, bare sqlite3 on bnomic's own
    schema: a `log` row and a `message` row (raw bytes, Message-ID, sender,
    times, source) per mail, a commit (synchronous FULL, WAL, as the log's
    durable transaction) per batch of 250 mails (ingest's batch); and (c')
    the same through bnomic's store (log.append_messages, peewee);
(d) engine: `bnomic rebuild` (every mail applied from its pinned readings
    and its stored parsed fields: no parse, no reader), the engine's
    application alone;

then (e) `bnomic ingest` itself and `bnomic rebuild` for the ratios.

Each is printed in ms a mail and as the issue's ratio, bare / it (ingest's
target 0.25, rebuild's 0.5), with what is left of ingest once (a)-(d) are
taken out (a' + b' + c' + d: pinning, the receipts printed, what the engine
reads again in each batch's transaction). The
figures are the least of --repeat runs of each part (default 3; ingest and
rebuild run once each: they are the slow part). CPU time: steadier than wall
time when others share the machine.

This is a script, not a test: pytest never collects it.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ingest as bench_ingest     # noqa: E402  (the same mbox, the same commands)

BATCH = 250         # as `bnomic ingest` (cli.INGEST_BATCH)


def cpu(fn, repeat: int = 1):
    """(result of the last run, least CPU seconds of `repeat` runs)."""
    best, result = None, None
    for _ in range(repeat):
        c0 = time.process_time()
        result = fn()
        spent = time.process_time() - c0
        best = spent if best is None else min(best, spent)
    return result, best


def reader_inputs(db: str, raws: list[bytes]):
    """(ctx, [(post, the game's words for it)]) on the ingested game at `db`, its state
    as after the ingest; call it inside a transaction (the caller rolls it back), where
    the engine keeps the words it makes (engine.game_words)."""
    from bnomic.handlers import engine
    from bnomic.handlers.context import Context, game_config
    from bnomic.mailer import parse
    from bnomic.store import Entry
    config = game_config()
    at = Entry.select(Entry.at).order_by(Entry.seq.desc()).first().at
    ctx = Context(at, "mail", None)
    out = []
    for raw in raws:
        post = parse.to_post(raw, at, config)
        actor = engine.player_by_address(post.sender) if post.sender else None
        out.append((post, engine.game_words(ctx, actor.name if actor is not None else None,
                                            post.in_reply_to or "")))
    return ctx, out


def read_all(ctx, inputs, quoted: bool) -> int:
    from bnomic.handlers import engine
    n = 0
    for post, words in inputs:
        vocab = engine.quoted_vocabulary(words, post.quoted) if quoted and post.quoted else words
        readings = engine.read_post(ctx, post, vocab)
        n += len(readings or ())
    return n


def store_bare(schema_db: str, where: Path, raws: list[bytes], fields: list[dict]) -> None:
    """(c): the log and message rows, bare sqlite3, one durable commit per batch."""
    path = str(where / "store.sqlite")
    for leftover in (path, path + "-wal", path + "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(leftover)
    with sqlite3.connect(schema_db) as src, sqlite3.connect(path) as dst:
        for (sql,) in src.execute("SELECT sql FROM sqlite_master WHERE type = 'table' "
                                  "AND name IN ('log', 'message')"):
            dst.execute(sql)
        for (sql,) in src.execute("SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
                                  "AND tbl_name IN ('log', 'message')"):
            dst.execute(sql)
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode = wal")
    con.execute("PRAGMA synchronous = full")      # what a durable transaction asks
    now = "2026-01-01 00:00:00+00:00"

    def run():
        con.execute("DELETE FROM message")
        con.execute("DELETE FROM log")
        seq = 0
        for start in range(0, len(raws), BATCH):
            con.execute("BEGIN IMMEDIATE")
            for raw, f in zip(raws[start:start + BATCH], fields[start:start + BATCH]):
                seq += 1
                con.execute('INSERT INTO "log" ("seq", "kind", "at", "processed") VALUES (?, ?, ?, ?)',
                            (seq, "mail", str(f["at"]), 0))
                con.execute('INSERT INTO "message" ("entry_id", "message_id", "sender", "raw", "stored_at", '
                            '"source") VALUES (?, ?, ?, ?, ?, ?)',
                            (seq, f["message_id"], f["sender"].lower(), raw, now, "ingest bench"))
            con.execute("COMMIT")
    return run, con


def store_bnomic(where: Path, mails: list[tuple[str, bytes, dict]]):
    """(c'): the same rows through bnomic's store (inbound.store_archive), a fresh game each run."""
    from bnomic.mailer import inbound
    from bnomic.store import database
    path = str(where / "store-bnomic.sqlite")

    def run():
        with contextlib.suppress(Exception):
            database.close()
        for leftover in (path, path + "-wal", path + "-shm", path + "-intake"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(leftover)
        bench_ingest.bnomic("init", "--db", path, "--start", bench_ingest.START.isoformat(),
                            "--seed", "bench", "--clock", "on")
        from bnomic.store import open_database
        open_database(path)
        c0 = time.process_time()
        for start in range(0, len(mails), BATCH):
            inbound.store_archive(mails[start:start + BATCH])
        return time.process_time() - c0
    return run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=3000)
    ap.add_argument("--players", type=int, default=60)
    ap.add_argument("--seed", default="ingest")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each cheap part; the least is kept")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    tmp = tempfile.TemporaryDirectory(prefix="bnomic-floor-")
    where = Path(tmp.name)
    mbox, db = str(where / "game.mbox"), str(where / "game.sqlite")
    raws = bench_ingest.make_mails(args.messages, args.players, args.seed)
    bench_ingest.write_mbox(mbox, raws)
    n = len(raws)

    # (e) the real commands first: the game the reader's part reads its words from
    bench_ingest.bnomic("init", "--db", db, "--start", bench_ingest.START.isoformat(),
                        "--seed", "bench", "--clock", "on")
    _, ingest = cpu(lambda: bench_ingest.bnomic("ingest", "--db", db, mbox))
    after_ingest = bench_ingest.digest(db)
    bench_ingest.forget_parsed()
    _, rebuild = cpu(lambda: bench_ingest.bnomic("rebuild", "--db", db))
    after_rebuild = bench_ingest.digest(db)
    bench_ingest.forget_parsed()

    # (a)
    _, bare = cpu(lambda: bench_ingest.bare_parse(mbox), args.repeat)

    # (a')
    from bnomic.mailer import inbound, parse, parsed

    def parse_all():
        bench_ingest.forget_parsed()
        for raw in raws:
            inbound.archive_fields(raw)
            parsed.Parsed.of(raw, parse.parse(raw))
    _, bnomic_parse = cpu(parse_all, args.repeat)
    bench_ingest.forget_parsed()

    # (b), (b')
    from bnomic.store import database, open_database
    open_database(db)
    with database.atomic() as transaction:      # read only: rolled back
        ctx, inputs = reader_inputs(db, raws)
        read_all(ctx, inputs, True)              # the lexer's tables of names, made once
        _, reader = cpu(lambda: read_all(ctx, inputs, False), args.repeat)
        _, reader_quoted = cpu(lambda: read_all(ctx, inputs, True), args.repeat)
        transaction.rollback()

    # (c), (c')
    fields = [inbound.archive_fields(raw) for raw in raws]
    run, con = store_bare(db, where, raws, fields)
    _, store = cpu(run, args.repeat)
    con.close()
    store_run = store_bnomic(where, [(str(i), raw, f) for i, (raw, f) in enumerate(zip(raws, fields))])
    store_peewee = min(store_run() for _ in range(args.repeat))

    ms = {k: 1000 * v / n for k, v in (("bare", bare), ("parse_bnomic", bnomic_parse), ("reader", reader), ("reader_quoted", reader_quoted),
                                       ("store", store), ("store_bnomic", store_peewee),
                                       ("engine_rebuild", rebuild), ("ingest", ingest))}
    ms["ingest_rest"] = (ms["ingest"] - ms["parse_bnomic"] - ms["reader_quoted"] - ms["store_bnomic"]
                         - ms["engine_rebuild"])
    figures = {
        "messages": n, "players": args.players,
        "ms_per_message": {k: round(v, 4) for k, v in ms.items()},
        "ratio_of_bare": {k: round(ms["bare"] / v, 3) if v > 0 else None for k, v in ms.items()},
        "targets_ms": {"ingest": round(ms["bare"] / 0.25, 4), "rebuild": round(ms["bare"] / 0.5, 4)},
        "digests_equal": after_ingest == after_rebuild,
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        label = {
            "bare": "(a) bare parse (stdlib)",
            "parse_bnomic": "(a') parse, bnomic (mailer/parse)",
            "reader": "(b) reader, own words",
            "reader_quoted": "(b') reader + quoted lines",
            "store": "(c) log insert, bare sqlite3",
            "store_bnomic": "(c') log insert, bnomic store",
            "engine_rebuild": "(d) engine: bnomic rebuild",
            "ingest": "(e) bnomic ingest",
            "ingest_rest": "    ingest - (a' + b' + c' + d)",
        }
        print(f"{n} messages, {args.players} players; CPU ms a message (least of {args.repeat} "
              f"for a-c), and the ratio bare / it")
        print(f"  {'part':<34} {'ms/mail':>9} {'bare/it':>9}")
        for k, name in label.items():
            r = figures["ratio_of_bare"][k]
            print(f"  {name:<34} {ms[k]:9.4f} {r if r is not None else '-':>9}")
        print(f"targets: ingest <= {figures['targets_ms']['ingest']:.4f} ms a mail (0.25x), "
              f"rebuild <= {figures['targets_ms']['rebuild']:.4f} ms (0.5x)")
        print(f"digest after ingest {'equals' if figures['digests_equal'] else 'DIFFERS FROM'} "
              f"the digest after rebuild")
    return 0 if figures["digests_equal"] else 1


if __name__ == "__main__":
    sys.exit(main())
