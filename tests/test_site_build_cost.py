"""Issue 17's last line: a full site build of a long game in under a minute.
What makes it so is held here by counts, never by timing (bench/site.py
measures the time): the daemon's capture after a mail writes a line, not the
whole cache; the Society display costs the same queries for 4 players or 40;
the charts drawn by several processes are the same bytes as drawn by one; and
the captures taken live give the same site as one replay of the log."""
from __future__ import annotations

import filecmp
import sqlite3
from pathlib import Path

from bnomic.store import Entry, close_database, database, open_database

from conftest import Game


def mail(name: str) -> str:
    return name.lower() + "@example.org"


def play(game: Game, players: list[str]) -> None:
    for i, name in enumerate(players):
        game.post(mail(name), f"I join as {name}.", f"2008-09-01T{i // 60:02d}:{i % 60:02d}:30Z")
    game.post(mail(players[0]), "I transfer m5 to " + players[1] + ".", "2008-09-01T20:00:00Z",
              subject="a gift")
    game.post(mail(players[1]), "> I transfer m5\nThanks!", "2008-09-01T21:00:00Z", subject="Re: a gift")


def same_trees(a: Path, b: Path) -> list[str]:
    """Files that differ or are in one tree only (every file, hidden ones too)."""
    left = {p.relative_to(a) for p in a.rglob("*") if p.is_file()}
    right = {p.relative_to(b) for p in b.rglob("*") if p.is_file()}
    differ = sorted(str(p) for p in left ^ right)
    differ += sorted(str(p) for p in left & right if not filecmp.cmp(a / p, b / p, shallow=False))
    return differ


def live_captures(game: Game, www: Path, tmp: Path) -> None:
    """The daemon's way: the log replayed into a scratch game, the state as of
    each mail captured right after it (Daemon.after_entry), then a build."""
    from bnomic.mailer import runner
    from bnomic.mailer.daemon import Daemon
    from bnomic.site import build
    daemon = Daemon({"site": {"path": str(www)}, "lmtp": {"listen": "127.0.0.1:0"}}, game.db)
    open_database(game.db)
    try:
        last = Entry.select().order_by(Entry.seq.desc()).first()
        runner.replay_into(str(tmp / "replayed.sqlite"), last.seq, None, each=daemon.after_entry)
        build.build(www, fill=False)
    finally:
        close_database()


def test_the_daemon_appends_a_line_for_each_mail_and_never_rewrites_the_cache(tmp_path):
    from bnomic.site import build
    game = Game(tmp_path)
    play(game, ["Wooble", "Chuck", "Ais"])
    www = tmp_path / "www"
    game.cli("site", str(www))
    cache = build.base_of(www) / "cache"
    index = cache / "asof" / "index.json"
    before = index.stat()
    # three more mails, each captured by the daemon's hook right after it is applied
    from bnomic.mailer import inbound, runner
    from bnomic.mailer.daemon import Daemon
    from conftest import make_mail
    daemon = Daemon({"site": {"path": str(www)}, "lmtp": {"listen": "127.0.0.1:0"}}, game.db)
    open_database(game.db)
    try:
        for i, text in enumerate(["I transfer m1 to Ais.", "Hello.", "I transfer m2 to Chuck."]):
            inbound.store_raw(make_mail(mail("Wooble"), text, date=f"2008-09-02T0{i + 1}:00:00Z"),
                              source="test", use_headers_for_time=True)
        runner.process_pending(each=daemon.after_entry)
        after = index.stat()
        assert (after.st_ino, after.st_mtime_ns, after.st_size) == (before.st_ino, before.st_mtime_ns,
                                                                      before.st_size)
        assert len((cache / "asof" / "journal.jsonl").read_text().splitlines()) == 3
        assert len((cache / "messages.jsonl").read_text().splitlines()) == 3
        # a build folds the journals into the cache: the three are captured, none replayed
        done = build.build(www, fill=True)
        assert done["captured"] == 0 and done["messages"] == 8
        assert not (cache / "asof" / "journal.jsonl").exists() and not (cache / "messages.jsonl").exists()
        # a `bnomic site` wrote the cache: the daemon reads it again before its next capture
        inbound.store_raw(make_mail(mail("Chuck"), "Bye.", date="2008-09-02T05:00:00Z"),
                          source="test", use_headers_for_time=True)
        runner.process_pending(each=daemon.after_entry)
        assert build.build(www, fill=False)["messages"] == 9
    finally:
        close_database()


def test_a_torn_last_line_of_the_journal_is_dropped(tmp_path):
    """A crash in the middle of an append: the captures before it are kept."""
    from bnomic.site import asof
    folder = tmp_path / "cache"
    captures = asof.Captures(folder, False)
    captures.data.update(token="t", format=asof.FORMAT)
    captures.save()
    with open(captures.journal_path, "w") as f:
        f.write('{"e":3,"k":"abc","s":[["1",[3,"2008-09-01T00:00:00+00:00",0,0,true]]]}\n{"e":4,"k":"ab')
    again = asof.Captures(folder, False)
    assert again.data["entries"] == {"3": "abc"} and again.data["last"] == 3
    assert again.data["series"] == {"1": [[3, "2008-09-01T00:00:00+00:00", 0, 0, True]]}


def test_the_society_display_costs_the_same_queries_for_few_players_or_many(tmp_path):
    from bnomic.site.asof import render_displays

    def queries(players: int) -> int:
        folder = tmp_path / str(players)
        folder.mkdir()
        game = Game(folder)
        for i in range(players):
            game.post(f"p{i}@example.org", f"I join as P{i}x.", f"2008-09-01T{i // 60:02d}:{i % 60:02d}:00Z")
        open_database(game.db)
        try:
            seen = []
            database.obj.connection().set_trace_callback(seen.append)
            render_displays(False)
            database.obj.connection().set_trace_callback(None)
            return len(seen)
        finally:
            close_database()
    assert queries(3) == queries(30)


def test_charts_drawn_by_several_processes_are_the_bytes_one_process_draws(tmp_path):
    from bnomic.site import build
    game = Game(tmp_path)
    play(game, [f"Player{i}" for i in range(9)])
    open_database(game.db)
    try:
        one = build.build(tmp_path / "one", fill=True, workers=1)
        three = build.build(tmp_path / "three", fill=True, workers=3)
    finally:
        close_database()
    assert len([p for p in one["written_pages"] if p.endswith(".svg")]) >= 9
    assert same_trees(tmp_path / "one", tmp_path / "three") == []


def test_captures_taken_live_give_the_site_one_replay_gives(tmp_path):
    game = Game(tmp_path)
    play(game, ["Wooble", "Chuck", "Ais"])
    game.cli("site", str(tmp_path / "replayed"))
    live_captures(game, tmp_path / "live", tmp_path)
    assert same_trees(tmp_path / "replayed", tmp_path / "live") == []
    with sqlite3.connect(game.db) as db:      # the game itself was only read
        assert db.execute("select count(*) from log where processed = 0").fetchone()[0] == 0
