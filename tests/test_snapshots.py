"""Snapshots of the state (issue 16): `--as-of` and an approval's replay start
from the nearest snapshot before their point, and get what a replay from
nothing gets; a damaged or stale snapshot is passed over."""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from bnomic.mailer import runner
from bnomic.store import (
    Approval, Entry, Intent, Snapshot, close_database, open_database, snapshots, state_digest,
)

from bnomic.store import db as db_module

from conftest import Game

PLAYERS = ["Alice", "Bob", "Carol", "Dave", "Erin"]
SCHEMAS = Path(__file__).parent / "schemas"


@pytest.fixture
def often(monkeypatch):
    """A snapshot every 2 entries (the engine's own rule, closer together)."""
    monkeypatch.setattr(runner, "SNAPSHOT_EVERY", 2)


@pytest.fixture
def restored(monkeypatch):
    """The snapshots a replay started from (the real restore, watched)."""
    used = []
    real = snapshots.restore

    def watched(snap, *args, **kw):
        used.append(snap.seq)
        return real(snap, *args, **kw)
    monkeypatch.setattr(snapshots, "restore", watched)
    return used


def play(game: Game) -> None:
    for i, name in enumerate(PLAYERS):
        game.join(name, f"2008-09-01T0{i + 1}:00:00Z")
    game.admin("clock", "on")
    game.post("alice@example.org", "I give m5 to Bob", "2008-09-02T10:00:00Z", msgid="<give1@x>")
    game.post("bob@example.org", "I become the Chairman", "2008-09-02T11:00:00Z")
    game.post("carol@example.org", "I give m3 to Dave. I give m1 to Erin.", "2008-09-03T10:00:00Z",
              msgid="<give2@x>")
    game.tick("2008-09-04T00:30:00Z")
    game.post("dave@example.org", "I give m2 to Alice", "2008-09-04T10:00:00Z")
    game.post("erin@example.org", "I exchange 1 point for mackerel", "2008-09-04T11:00:00Z",
              msgid="<last@x>")


def as_of(game: Game, seq: int, name: str, from_snapshot: bool = True) -> str:
    """The state digest right after entry `seq`, by the replay `show --as-of` makes."""
    open_database(game.db)
    try:
        at = Entry.get_by_id(seq).at
        runner.replay_into(str(game.tmp / f"{name}.sqlite"), seq, at, from_snapshot=from_snapshot)
        return state_digest()
    finally:
        close_database()


def stored(game: Game) -> list[tuple[int, str]]:
    open_database(game.db)
    try:
        return [(s.seq, s.digest) for s in Snapshot.select().order_by(Snapshot.seq)]
    finally:
        close_database()


def entries(game: Game) -> int:
    open_database(game.db)
    try:
        return Entry.select().count()
    finally:
        close_database()


def test_a_snapshots_digest_is_the_rebuilds_at_that_point(game, often):
    play(game)
    snaps = stored(game)
    assert len(snaps) >= 4
    for seq, digest in snaps:
        assert as_of(game, seq, f"nothing-{seq}", from_snapshot=False) == digest
    # and a rebuild takes them again, the same
    game.cli("rebuild")
    assert stored(game) == snaps


def test_the_quick_digest_is_the_digest(game, often):
    """Snapshots hash the state with digest.quick_state_digest: the same bytes."""
    from bnomic.store.digest import quick_state_digest
    play(game)
    game.post("alice@example.org", "I intend to cause the Beast to give m5 to Bob without objection",
              "2008-09-04T12:00:00Z")
    open_database(game.db)
    try:
        assert quick_state_digest() == state_digest()
    finally:
        close_database()


def test_as_of_from_a_snapshot_is_as_of_from_nothing(game, often, restored):
    play(game)
    for seq in range(1, entries(game) + 1):
        assert as_of(game, seq, f"snap-{seq}") == as_of(game, seq, f"nothing-{seq}", from_snapshot=False)
    assert restored and max(restored) > 2
    # through the command line, a message in the middle and a time
    shown = {p: game.cli("show", "players", "--json", "--as-of", p)
             for p in ("<give2@x>", "2008-09-04T10:30:00Z")}
    con = sqlite3.connect(game.db)
    con.execute("DELETE FROM snapshot")
    con.commit()
    con.close()
    assert {p: game.cli("show", "players", "--json", "--as-of", p) for p in shown} == shown


def test_a_damaged_or_stale_snapshot_is_not_trusted(game, often, restored):
    play(game)
    last = entries(game)
    expected = as_of(game, last, "nothing", from_snapshot=False)
    latest = stored(game)[-1][0]
    con = sqlite3.connect(game.db)
    con.execute("UPDATE snapshot SET tables = X'00' WHERE seq = ?", (latest,))   # damaged
    con.commit()
    assert as_of(game, last, "damaged") == expected
    assert restored and latest not in restored
    # a snapshot whose bytes still match their checksum but do not read is passed over too
    import hashlib
    import zlib
    junk = zlib.compress(b'{"format": 1, "tables": {}}')
    con.execute("UPDATE snapshot SET tables = ?, checksum = ?", (junk, hashlib.sha256(junk).hexdigest()))
    con.commit()
    restored.clear()
    assert as_of(game, last, "unreadable") == expected and not restored
    con.close()


def test_a_snapshot_made_by_other_code_is_not_trusted(game, often, restored):
    play(game)
    last = entries(game)
    expected = as_of(game, last, "nothing", from_snapshot=False)
    con = sqlite3.connect(game.db)
    con.execute("UPDATE snapshot SET code = 'bnomic 0.0; reader 0'")
    con.commit()
    con.close()
    assert as_of(game, last, "stale") == expected and not restored


def test_an_approvals_replay_starts_from_a_snapshot(game, often, restored):
    """Rule 4E50: the approval replays the game from the nearest snapshot before its
    anchor, not from entry 1; the snapshots after the anchor are taken again."""
    for name in PLAYERS:
        game.join(name, "2008-09-01T09:00:00Z")
    game.post("bob@example.org", "I give m1 to Carol", "2008-09-01T09:10:00Z")
    game.post("carol@example.org", "I give m1 to Dave", "2008-09-01T09:20:00Z")
    display = game.cli("show", "display", "Registrar")
    doctored = "\n".join(line.replace("m50", "m500") if line.startswith("Alice") else line
                         for line in display.splitlines())
    game.post("alice@example.org", "I intend to approve the Registrar's display with 4 supporters "
              "and without objection.\n\n" + doctored, "2008-09-01T10:00:00Z")
    game.post("alice@example.org", "I give m10 to Bob", "2008-09-01T11:00:00Z")
    for name in ("Bob", "Carol", "Dave", "Erin"):
        game.post(f"{name.lower()}@example.org", "I support intent #1", "2008-09-01T12:00:00Z")
    before = stored(game)
    restored.clear()
    r = game.post("alice@example.org", "Having received enough support, I approve the Registrar's "
                  "display", "2008-09-03T10:00:00Z")
    assert "Done (Rule 4E50)" in r
    assert game.players()["Alice"]["mackerel"] == 490
    open_database(game.db)
    try:
        approval = Approval.get()
        anchor, made_by = approval.anchor, approval.entry
    finally:
        close_database()
    # the snapshot kept right after the intent's entry (the anchor): no entry replayed before it
    assert restored == [anchor]
    after = stored(game)
    assert [s for s in after if s[0] < anchor] == [s for s in before if s[0] < anchor]
    assert [s for s in after if s[0] >= anchor] != [s for s in before if s[0] >= anchor]
    digest = game.digest()
    game.cli("rebuild")
    # the approval's replay takes light snapshots (no digest); the rebuild the same, checked
    rebuilt = stored(game)
    assert game.digest() == digest and [s for s, _ in rebuilt] == [s for s, _ in after]
    assert all(d == "" or d == dict(rebuilt)[s] for s, d in after)
    assert [d for s, d in after if s >= anchor] == [""] * len([s for s in after if s[0] >= anchor])
    # as of a moment between the anchor and the approval: what a replay from nothing gives
    middle = anchor + 1
    assert middle < made_by
    assert as_of(game, middle, "middle") == as_of(game, middle, "middle-nothing", from_snapshot=False)


def test_an_approvals_replay_starts_at_its_anchor(game, restored):
    """Rule 4E50: the entry announcing an intent to approve a display keeps a
    snapshot (light), whatever the spacing of the others; the approval's replay
    starts from it (no entry before or at the anchor applied again) and ends where
    a replay from nothing ends (the digest of a rebuild)."""
    for name in PLAYERS:
        game.join(name, "2008-09-01T09:00:00Z")
    for i in range(7):                  # entries, so that the anchor is not on the usual spacing
        game.post("bob@example.org", "I give m1 to Carol", f"2008-09-01T09:{10 + i}:00Z")
    display = game.cli("show", "display", "Registrar")
    doctored = "\n".join(line.replace("m50", "m500") if line.startswith("Alice") else line
                         for line in display.splitlines())
    game.post("alice@example.org", "I intend to approve the Registrar's display with 4 supporters "
              "and without objection.\n\n" + doctored, "2008-09-01T10:00:00Z")
    game.post("alice@example.org", "I give m10 to Bob", "2008-09-01T11:00:00Z")
    for name in ("Bob", "Carol", "Dave", "Erin"):
        game.post(f"{name.lower()}@example.org", "I support intent #1", "2008-09-01T12:00:00Z")
    open_database(game.db)
    try:
        (anchor,) = [i.entry for i in Intent.select()]
        assert Snapshot.get_or_none(Snapshot.seq == anchor) is not None
        assert Snapshot.get_or_none(Snapshot.seq == anchor - 1) is None
    finally:
        close_database()
    restored.clear()
    r = game.post("alice@example.org", "Having received enough support, I approve the Registrar's "
                  "display", "2008-09-03T10:00:00Z")
    assert "Done (Rule 4E50)" in r
    assert restored == [anchor]
    assert game.players()["Alice"]["mackerel"] == 490
    digest = game.digest()
    game.cli("rebuild")
    assert game.digest() == digest
    # after the rebuild the anchor's snapshot carries the approval: a second replay from the
    # anchor starts from a snapshot before it, and gets the same
    open_database(game.db)
    try:
        restored.clear()
        runner.replay_from(anchor)
        assert restored and restored[0] < anchor
        assert state_digest() == digest
    finally:
        close_database()


@pytest.fixture
def stock_sqlite(monkeypatch):
    """SQLite as built by default: at most 32,766 bound parameters per statement
    (Debian's build allows 250,000). The limit is SQLite's own, set per connection."""
    from peewee import SqliteDatabase

    class Stock(SqliteDatabase):
        def _connect(self):
            conn = super()._connect()
            conn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 32_766)
            return conn
    monkeypatch.setattr(db_module, "SqliteDatabase", Stock)


def test_an_as_of_past_32766_entries(game, stock_sqlite):
    """A long log: the copy for --as-of binds no parameter per entry (a stock
    SQLite allows 32,766) and starts from the snapshot near the end."""
    for name in ("Alice", "Bob"):
        game.join(name, "2008-09-01T09:00:00Z")
    con = sqlite3.connect(game.db)
    first, at = con.execute("SELECT max(seq) + 1, max(at) FROM log").fetchone()
    n = 33_000
    # a long stretch of operator notes, already applied (as a long game's log is)
    con.executemany("INSERT INTO log (seq, kind, at, processed) VALUES (?, 'command', ?, 1)",
                    ((s, at) for s in range(first, first + n)))
    con.executemany("INSERT INTO command (entry_id, verb, args, issued_at) "
                    "VALUES (?, 'reread', '[\"1\", \"0\"]', ?)",
                    ((s, at) for s in range(first, first + n)))
    con.commit()
    con.close()
    game.post("alice@example.org", "I give m5 to Bob", "2008-09-02T10:00:00Z")
    game.post("bob@example.org", "I give m1 to Alice", "2008-09-02T11:00:00Z", msgid="<late@x>")
    assert stored(game)[-1][0] >= first + n
    players = {p["name"]: p for p in __import__("json").loads(
        game.cli("show", "players", "--json", "--as-of", "<late@x>"))}
    assert (players["Alice"]["mackerel"], players["Bob"]["mackerel"]) == (46, 54)


def test_version_11_upgrades_a_real_version_10_game(tmp_path):
    """Schema 11 adds the (empty) snapshot table and keeps every row; the game's
    next replay takes snapshots, and its state is the one kept."""
    db = tmp_path / "v10.db"
    shutil.copyfile(SCHEMAS / "v10.db", db)

    def counts():
        con = sqlite3.connect(db)
        try:
            names = [r[0] for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")]
            return {t: con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in names}
        finally:
            con.close()

    before = counts()
    game = Game.__new__(Game)
    game.tmp, game.db = tmp_path, str(db)
    game.cli("migrate")
    after = counts()
    assert after.pop("snapshot") == 0
    # (issue 15's tables come with the same step, empty)
    assert {t: c for t, c in after.items() if t != "schemaversion" and t in before} == \
        {t: c for t, c in before.items() if t != "schemaversion"}
    # (and version 14's write counts: a row per state table but the ledgers, from 0)
    assert after.pop("statewrites") == 34
    assert after.pop("statelow") == 0
    assert all(c == 0 for t, c in after.items() if t not in before)
    digest = game.digest()
    game.cli("rebuild")
    assert game.digest() == digest
    assert stored(game) and stored(game)[0][0] == 1


def test_a_parked_entry_retried_later_is_parked_in_the_snapshot_before(game, often, restored,
                                                                       monkeypatch):
    """The one ledger row changed after the fact (a retry marks the parked outcome
    "retried"): as of a moment before the retry it is still parked."""
    from bnomic.handlers import engine
    real = engine.apply_post

    def apply_post(post, seq):
        if "BOOM" in post.text:
            raise TypeError("unhashable type: 'list'")
        return real(post, seq)
    monkeypatch.setattr(engine, "apply_post", apply_post)
    game.join("Wooble", "2008-09-01T10:00:00Z")
    game.post("wooble@example.org", "I give m5 to The Beast. BOOM", "2008-09-01T11:00:00Z")
    for i in range(4):
        game.post("wooble@example.org", "I give m1 to The Beast.", f"2008-09-01T12:0{i}:00Z")
    monkeypatch.setattr(engine, "apply_post", real)
    parked = game.show("log")[1]["seq"]
    game.cli("parked", "--retry", str(parked))
    assert game.show("log")[1]["outcomes"][0]["action"] == "retried"
    point = entries(game) - 1                       # after the snapshots, before the retry
    assert as_of(game, point, "snap") == as_of(game, point, "nothing", from_snapshot=False)
    assert restored and restored[-1] > parked
