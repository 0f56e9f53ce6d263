"""Issue 16: the snapshots' digest (digest.quick_state_digest) keeps each row's
line while the row is unchanged; the digest is still the state's digest after
rows change, go or come back. A real game's SQLite file."""
from datetime import datetime, timezone

from bnomic.store import Event, Player, close_database, open_database, state_digest, write_transaction
from bnomic.store import digest

AT = datetime(2008, 9, 1, 10, 30, tzinfo=timezone.utc)


def test_the_quick_digest_follows_every_change(game):
    game.join("Wooble", "2008-09-01T09:00:00Z")
    game.join("Ais523", "2008-09-01T09:10:00Z", address="ais@example.org")
    game.post("wooble@example.org", "I give m5 to Ais523", "2008-09-01T10:00:00Z")
    open_database(game.db)
    try:
        first = digest.quick_state_digest()
        assert first == state_digest()
        assert digest.quick_state_digest() == first                 # from the lines kept
        with write_transaction():
            wooble = Player.get(Player.name == "Wooble")
            wooble.mackerel += 1                                     # the same row, changed
            wooble.save()
        changed = digest.quick_state_digest()
        assert changed != first and changed == state_digest()
        with write_transaction():
            wooble.mackerel -= 1
            wooble.save()
        assert digest.quick_state_digest() == first                 # back as it was
        with write_transaction():
            last = Event.select().order_by(Event.seq.desc()).first()
            Event.delete().where(Event.seq == last.seq).execute()    # a row gone
        gone = digest.quick_state_digest()
        assert gone != first and gone == state_digest()
        with write_transaction():                                    # another row, the same key
            Event.insert(seq=last.seq, at=AT, cause="test", entry=last.entry, rule="4E33",
                         kind=last.kind, summary="another", data={"b": 1, "a": [2]}).execute()
        again = digest.quick_state_digest()
        assert again not in (first, gone) and again == state_digest()
    finally:
        close_database()


def test_the_lines_kept_are_bounded(game, monkeypatch):
    game.join("Wooble", "2008-09-01T09:00:00Z")
    open_database(game.db)
    try:
        monkeypatch.setattr(digest, "_LINES", {})
        monkeypatch.setattr(digest, "_lines_size", [0])
        monkeypatch.setattr(digest, "_LINES_KEPT", 300)
        assert digest.quick_state_digest() == state_digest()
        assert 0 < digest._lines_size[0] <= 300
        assert digest._lines_size[0] == sum(len(line) for rows in digest._LINES.values()
                                            for _, line in rows.values())
        assert digest.quick_state_digest() == state_digest()
    finally:
        close_database()


def test_the_ledgers_lines_kept_follow_every_change(game):
    """The ledgers' lines are kept whole while rows were only added (digest._ledger_lines):
    an added row, a row changed, an insert rolled back to its savepoint, a row gone, and
    a commit by another connection each leave the digest the state's."""
    from bnomic.store import database, versions
    game.join("Wooble", "2008-09-01T09:00:00Z")
    game.join("Ais523", "2008-09-01T09:10:00Z", address="ais@example.org")
    game.post("wooble@example.org", "I give m5 to Ais523", "2008-09-01T10:00:00Z")
    open_database(game.db)
    try:
        with write_transaction():
            assert digest.quick_state_digest() == state_digest()
            kept = versions.kept_parts(database)[("digest ledger", "event")]
            last = Event.select().order_by(Event.seq.desc()).first()
            Event.insert(seq=last.seq + 1, at=AT, cause="test", entry=last.entry, rule="4E33",
                         kind=last.kind, summary="added", data={}).execute()
            assert digest.quick_state_digest() == state_digest()
            again = versions.kept_parts(database)[("digest ledger", "event")]
            assert again["count"] == kept["count"] + 1 and again["chunks"][:-1] == kept["chunks"]
            Event.update(summary="changed").where(Event.seq == last.seq).execute()
            assert digest.quick_state_digest() == state_digest()
            with database.atomic() as sp:
                Event.insert(seq=last.seq + 2, at=AT, cause="test", entry=last.entry, rule="4E33",
                             kind=last.kind, summary="undone", data={}).execute()
                sp.rollback()
            assert digest.quick_state_digest() == state_digest()
            Event.delete().where(Event.seq == last.seq + 1).execute()
            assert digest.quick_state_digest() == state_digest()
        other = game.db
        import sqlite3
        with sqlite3.connect(other) as c:       # another connection adds a row and changes one
            c.execute("UPDATE event SET summary = 'elsewhere' WHERE seq = ?", (last.seq,))
        assert digest.quick_state_digest() == state_digest()
    finally:
        close_database()
