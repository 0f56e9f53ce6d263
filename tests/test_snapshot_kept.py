"""What a snapshot keeps for the next one (issue 16): the part names of each
table, reused while no row of it was changed or removed through the connection
(store/versions.rewrite_stamp), and only the rows after its last full part read
when rows were only added. The names must always be those of reading every row
again: watched here through a rebuild, an approval's replay and refused actions
(rolled back to their savepoints), with parts of two rows so that the Vote-like
growth at a table's end is exercised by a small game."""
from __future__ import annotations

import sqlite3

import pytest

from bnomic.mailer import runner
from bnomic.store import Address, Player, close_database, database, open_database, snapshots, versions

from conftest import Game
from test_snapshots import PLAYERS, play, stored


@pytest.fixture
def checked_parts(monkeypatch):
    """Every table's part names as kept, compared with those of all its rows read again."""
    monkeypatch.setattr(snapshots, "CHUNK", 2)
    monkeypatch.setattr(runner, "LIGHT_EVERY", 1)
    monkeypatch.setattr(runner, "SNAPSHOT_EVERY", 3)
    real = snapshots._table_parts
    calls = {"kept": 0, "all": 0}

    def compared(model, new, kept, *version):
        hit = kept.get(("snapshot parts", model._meta.table_name)) if kept is not None else None
        names = real(model, new, kept, *version)
        fresh = snapshots._parts(snapshots._rows(model), {})
        assert names == fresh, model._meta.table_name
        calls["kept" if hit is not None else "all"] += 1
        return names
    monkeypatch.setattr(snapshots, "_table_parts", compared)
    return calls


def test_kept_parts_are_all_the_rows_read_again(game: Game, checked_parts):
    play(game)
    game.post("bob@example.org", "I give m5000 to Alice. I give m1 to Nobody.", "2008-09-04T12:00:00Z")
    before = stored(game)
    checked_parts.update(kept=0, all=0)
    game.cli("rebuild")             # one transaction: every snapshot after the first from kept parts
    assert stored(game) == before
    assert checked_parts["kept"] > 2 * checked_parts["all"]


def test_kept_parts_through_an_approvals_replay(game: Game, checked_parts):
    for name in PLAYERS:
        game.join(name, "2008-09-01T09:00:00Z")
    for i in range(3):
        game.post("bob@example.org", "I give m1 to Carol. I give m9999 to Dave.", f"2008-09-01T09:{10 + i}:00Z")
    display = game.cli("show", "display", "Registrar")
    doctored = "\n".join(line.replace("m50", "m500") if line.startswith("Alice") else line
                         for line in display.splitlines())
    game.post("alice@example.org", "I intend to approve the Registrar's display with 4 supporters "
              "and without objection.\n\n" + doctored, "2008-09-01T10:00:00Z")
    game.post("alice@example.org", "I give m10 to Bob", "2008-09-01T11:00:00Z")
    for name in ("Bob", "Carol", "Dave", "Erin"):
        game.post(f"{name.lower()}@example.org", "I support intent #1", "2008-09-01T12:00:00Z")
    r = game.post("alice@example.org", "Having received enough support, I approve the Registrar's "
                  "display", "2008-09-03T10:00:00Z")
    assert "Done (Rule 4E50)" in r
    digest = game.digest()
    game.cli("rebuild")
    assert game.digest() == digest


def _stamp(table: str):
    return versions.rewrite_stamp(database, (table,))


def test_the_rewrite_stamp(game: Game):
    """Plain INSERTs leave it; an UPDATE, a DELETE (and its cascades), an upsert, a
    rollback of what was written since a savepoint, and another connection's commit
    move it."""
    for name in ("Alice", "Bob"):
        game.join(name, "2008-09-01T09:00:00Z")
    open_database(game.db)
    try:
        with database.atomic():
            s0, n0 = _stamp("player"), versions.insert_count(database, "player")
            alice = Player.get(Player.name == "Alice")
            Address.insert(player=alice.id, address="a2@example.org").execute()
            assert _stamp("address") == versions.rewrite_stamp(database, ("address",))
            assert _stamp("player") == s0 and versions.insert_count(database, "player") == n0
            a0 = _stamp("address")
            with database.atomic():         # released: its inserts stand
                Address.insert(player=alice.id, address="a3@example.org").execute()
            assert _stamp("address") == a0
            try:
                with database.atomic():     # rolled back: what it inserted is gone
                    Address.insert(player=alice.id, address="a4@example.org").execute()
                    raise RuntimeError
            except RuntimeError:
                pass
            assert _stamp("address") != a0 and _stamp("player") == s0
            Player.update(mackerel=Player.mackerel + 1).where(Player.id == alice.id).execute()
            assert _stamp("player") != s0
            a1 = _stamp("address")
            Player.delete().where(Player.name == "Bob").execute()       # cascades to addresses
            assert _stamp("address") != a1
            a2 = _stamp("address")
            Address.insert(player=alice.id, address="a5@example.org").on_conflict_replace().execute()
            assert _stamp("address") != a2
        s1 = _stamp("player")
        other = sqlite3.connect(game.db)
        other.execute("UPDATE player SET mackerel = mackerel + 1")
        other.commit()
        other.close()
        assert _stamp("player") != s1
    finally:
        close_database()


def test_a_whole_rollback_moves_the_stamps_of_the_tables_it_wrote(game: Game):
    """A transaction rolled back whole (an entry refused whole, an approval's entry before
    its replay): the tables it wrote count a rewrite, the others keep their stamps; when
    its beginning was not seen, anything may have changed."""
    for name in ("Alice", "Bob"):
        game.join(name, "2008-09-01T09:00:00Z")
    open_database(game.db)
    try:
        p0, a0 = _stamp("player"), _stamp("address")
        try:
            with database.atomic():
                Player.update(mackerel=Player.mackerel + 1).where(Player.name == "Alice").execute()
                raise RuntimeError
        except RuntimeError:
            pass
        assert _stamp("player") != p0 and _stamp("address") == a0
        p1 = _stamp("player")
        try:
            with database.atomic():     # only inserted, then undone: a rewrite all the same
                alice = Player.get(Player.name == "Alice")
                Address.insert(player=alice.id, address="a9@example.org").execute()
                raise RuntimeError
        except RuntimeError:
            pass
        assert _stamp("address") != a0 and _stamp("player") == p1
        a1 = _stamp("address")
        database.execute_sql("BEGIN")   # begun unseen by `begin`: a rollback may have undone anything
        database.rollback()
        assert _stamp("player") != p1 and _stamp("address") != a1
    finally:
        close_database()
