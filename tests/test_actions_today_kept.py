"""engine.actions_today carried on within a transaction (issue 16): the count for a
sender's mail taken from the count for their earlier mail that day plus the Outcomes
added since is the count the whole query gives (Rule 4E7's per-day limit,
limits.actions_per_sender_per_day), live and in a rebuild (one transaction)."""
from bnomic.handlers import engine
from bnomic.store import hot

from conftest import game_with_limits


_game = game_with_limits


def test_kept_count_is_the_whole_count(tmp_path, monkeypatch):
    checked = []
    kept = engine._actions_today_kept

    def both(sender, start, params, entry):
        got = kept(sender, start, params, entry)
        whole = sum(engine._counted(r) for r, in hot.all_rows(
            "reasons today, before", engine._REASONS_TODAY + ' AND ("t2"."seq" < ?)', (*params, entry)))
        assert got is None or got == whole, (entry, got, whole)
        checked.append(got is not None and got)
        return got
    monkeypatch.setattr(engine, "_actions_today_kept", both)

    game = _game(tmp_path, actions_per_sender_per_day=6)
    game.join("Wooble", "2008-09-01T10:00:00Z")
    game.join("Alice", "2008-09-01T10:05:00Z")
    posts = [("wooble", "I give m1 to Alice 2 times.", "2008-09-01T11:00:00Z"),
             ("alice", "I give m1 to Wooble.\nI frobnicate the moon.", "2008-09-01T11:10:00Z"),
             ("wooble", "I give m1 to Alice.\nI give m500 to Alice.", "2008-09-01T12:00:00Z"),
             ("wooble", "I give m1 to Alice.\nI give m1 to Alice.\nI give m1 to Alice.", "2008-09-01T13:00:00Z"),
             ("alice", "I give m1 to Wooble 3 times.", "2008-09-01T23:59:00Z"),
             ("wooble", "I give m1 to Alice.", "2008-09-02T00:00:01Z"),
             ("alice", "I give m1 to Wooble.", "2008-09-02T00:10:00Z"),
             ("wooble", "I give m1 to Alice 2 times.", "2008-09-02T01:00:00Z")]
    for who, body, at in posts:
        game.post(f"{who}@example.org", body, at)
    digest = game.digest()
    live = [m["outcomes"] for m in game.mails()]
    checked.clear()
    game.cli("rebuild")
    assert game.digest() == digest
    assert [m["outcomes"] for m in game.mails()] == live
    assert len(checked) >= len(posts) and any(checked)      # the kept count was used, and agreed
    assert any("has done" in str(o) for o in live)          # the day's limit was reached
