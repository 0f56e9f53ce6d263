"""A restore into the game's own tables (an approval's replay, issue 16) writes only
the parts that differ from the rows there now (snapshots._against_current): the
state it leaves must be every row of the snapshot, the same as a restore that
writes every row again, whatever changed since (rows added at a table's end,
rows changed or removed in its first parts, a unique value moved between rows)."""
from __future__ import annotations

import pytest

from bnomic.mailer import runner
from bnomic.store import (
    Player, Snapshot, close_database, database, open_database, snapshots, state_digest, write_transaction,
)

from conftest import Game
from test_snapshots import play


@pytest.fixture
def small_parts(monkeypatch):
    monkeypatch.setattr(snapshots, "CHUNK", 2)
    monkeypatch.setattr(runner, "SNAPSHOT_EVERY", 2)


class _Undo(Exception):
    pass


def _restored_digest(seq: int, in_place: bool, change=None) -> tuple[str, dict]:
    """The state digest right after restoring the snapshot after entry `seq` (in a
    transaction rolled back), and the tables usable() gave."""
    out = {}
    try:
        with write_transaction():
            if change is not None:
                change()
            snap, tables = snapshots.usable(seq, runner.code_version(), runner._approvals,
                                            only_at=seq, in_place=in_place)
            assert snap is not None
            snapshots.restore(snap, tables)
            out["digest"], out["tables"] = state_digest(), tables
            raise _Undo
    except _Undo:
        pass
    return out["digest"], out["tables"]


def test_a_restore_in_place_is_every_row_of_the_snapshot(game: Game, small_parts):
    play(game)
    game.post("bob@example.org", "I give m1 to Carol. I give m1 to Dave.", "2008-09-04T12:00:00Z")
    open_database(game.db)
    try:
        seqs = [s.seq for s in Snapshot.select(Snapshot.seq, Snapshot.digest).where(Snapshot.digest != "")]
        assert len(seqs) >= 3
        partial = 0
        for seq in seqs:
            digest = Snapshot.get_by_id(seq).digest
            full, _ = _restored_digest(seq, in_place=False)
            mine, tables = _restored_digest(seq, in_place=True)
            assert mine == full == digest, seq
            partial += sum(1 for t in tables.values() if t.get("same"))
        assert partial, "some parts were kept as they were"
    finally:
        close_database()


def test_a_restore_in_place_after_rows_changed_removed_and_swapped(game: Game, small_parts):
    play(game)
    open_database(game.db)
    try:
        seq = min(s.seq for s in Snapshot.select(Snapshot.seq).where(Snapshot.digest != "")
                  if Player.select().count() >= 3 and s.seq > 5)
        digest = Snapshot.get_by_id(seq).digest
        first, second = list(Player.select().order_by(Player.id).limit(2))

        def swap():         # a unique value moved between two rows of the first part
            Player.update(name_key="swapping").where(Player.id == first.id).execute()
            Player.update(name_key=first.name_key).where(Player.id == second.id).execute()
            Player.update(name_key=second.name_key).where(Player.id == first.id).execute()

        def remove():       # a row of the first part removed, its cascades with it
            database.execute_sql("PRAGMA defer_foreign_keys = ON")
            Player.delete().where(Player.id == second.id).execute()

        for change in (swap, remove):
            mine, _ = _restored_digest(seq, in_place=True, change=change)
            assert mine == digest, change.__name__
    finally:
        close_database()
