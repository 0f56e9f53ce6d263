"""Snapshot parts and light snapshots (issue 16, part E): a snapshot names its
tables' rows by parts stored once by their hash, so snapshots can be taken
often; light ones (no digest) between the checked ones. A replay from either
gets what a replay from nothing gets; a damaged or missing part is not trusted."""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from bnomic.mailer import runner
from bnomic.store import Snapshot, SnapshotPart, close_database, open_database, snapshots

from conftest import Game
from test_snapshots import as_of, entries, play, stored

SCHEMAS = Path(__file__).parent / "schemas"


@pytest.fixture
def light(monkeypatch):
    """A snapshot every 2 entries, a checked one every 6 (the engine's rule, closer together)."""
    monkeypatch.setattr(runner, "LIGHT_EVERY", 2)
    monkeypatch.setattr(runner, "SNAPSHOT_EVERY", 6)


@pytest.fixture
def restored(monkeypatch):
    used = []
    real = snapshots.restore

    def watched(snap, *args, **kw):
        used.append(snap.seq)
        return real(snap, *args, **kw)
    monkeypatch.setattr(snapshots, "restore", watched)
    return used


def parts(game: Game) -> int:
    con = sqlite3.connect(game.db)
    try:
        return con.execute("SELECT count(*) FROM snapshotpart").fetchone()[0]
    finally:
        con.close()


def test_light_snapshots_between_checked_ones(game, light, restored):
    play(game)
    snaps = stored(game)
    light_ones = [seq for seq, digest in snaps if digest == ""]
    checked = [seq for seq, digest in snaps if digest]
    assert light_ones and checked
    # a checked one at least every 6 entries, one of either at least every 2
    assert all(b - a <= 6 for a, b in zip(checked, checked[1:]))
    assert all(b - a <= 2 for a, b in zip([s for s, _ in snaps], [s for s, _ in snaps][1:]))
    # every checked one carries the digest a replay from nothing gives there
    for seq in checked:
        assert as_of(game, seq, f"nothing-{seq}", from_snapshot=False) == dict(snaps)[seq]
    # a replay starting from a light one gets what a replay from nothing gets
    for seq in light_ones:
        restored.clear()
        assert as_of(game, seq, f"snap-{seq}") == as_of(game, seq, f"nothing-{seq}", from_snapshot=False)
        assert restored == [seq]


def test_a_part_unchanged_is_stored_once(game, light):
    import json
    import zlib
    play(game)
    open_database(game.db)
    try:
        named = [json.loads(zlib.decompress(bytes(s.tables)))["tables"]
                 for s in Snapshot.select().order_by(Snapshot.seq)]
        stored_parts = SnapshotPart.select().count()
    finally:
        close_database()
    assert len(named) >= 5
    # the Rules do not change in this game: every snapshot names the same parts for them
    rules = {tuple(t["rule"]["parts"]) for t in named}
    assert len(rules) == 1 and len(next(iter(rules))) >= 1
    assert stored_parts < sum(len(t.get("parts", ())) for n in named for t in n.values())


def test_a_damaged_or_missing_part_is_not_trusted(game, light, restored):
    play(game)
    last = entries(game)
    expected = as_of(game, last, "nothing", from_snapshot=False)
    latest = stored(game)[-1][0]
    con = sqlite3.connect(game.db)
    import zlib
    con.execute("UPDATE snapshotpart SET blob = ?", (zlib.compress(b"[[1]]"),))   # damaged: hash differs
    con.commit()
    assert as_of(game, last, "damaged") == expected
    assert not restored
    con.execute("DELETE FROM snapshotpart")                                      # missing
    con.commit()
    con.close()
    assert as_of(game, last, "missing") == expected and not restored
    assert latest


def test_rebuild_drops_the_parts_and_takes_them_again(game, light):
    play(game)
    snaps, n = stored(game), parts(game)
    game.cli("rebuild")
    assert stored(game) == snaps and parts(game) == n


def test_version_12_upgrades_a_real_version_11_game(tmp_path, restored):
    """Schema 12 adds the (empty) snapshotpart table and keeps every row; the
    version 11 snapshots (format 1, rows inline) still read, and the next
    rebuild takes format 2 ones."""
    db = tmp_path / "v11.db"
    shutil.copyfile(SCHEMAS / "v11.db", db)

    def counts():
        con = sqlite3.connect(db)
        try:
            names = [r[0] for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")]
            return {t: con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in names}
        finally:
            con.close()

    before = counts()
    assert before["snapshot"] > 0
    game = Game.__new__(Game)
    game.tmp, game.db = tmp_path, str(db)
    game.cli("migrate")
    after = counts()
    assert after.pop("snapshotpart") == 0
    after.pop("parsedmail", None)                 # schema 13 (the mails' parsed fields), empty until applied
    assert after.pop("statewrites") == 34         # schema 14: a row per state table but the ledgers
    assert after.pop("statelow") == 0
    assert {t: c for t, c in after.items() if t != "schemaversion"} == \
        {t: c for t, c in before.items() if t != "schemaversion"}
    open_database(str(db))
    try:
        old = Snapshot.select().order_by(Snapshot.seq.desc()).first()
        tables = snapshots._contents(old)                 # format 1: still read
        assert tables is not None and all("rows" in t for t in tables.values())
        seq = old.seq
    finally:
        close_database()
    digest = game.digest()
    game.cli("rebuild")
    assert game.digest() == digest
    assert parts(game) > 0
    last = entries(game)
    restored.clear()
    assert as_of(game, last, "from-parts") == as_of(game, last, "nothing", from_snapshot=False)
    assert restored and seq
