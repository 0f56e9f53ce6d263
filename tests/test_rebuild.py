"""Invariant 2: the log is the truth. `bnomic rebuild` replays it into empty
state tables and reproduces the live state, byte for byte."""
import sqlite3


def play_some(game):
    game.join("Wooble", "2008-09-01T10:00:00Z")
    game.post("ais@example.org", "I join as Ais523, recruited by Wooble.", "2008-09-01T11:00:00Z")
    game.join("Chuck", "2008-09-02T09:00:00Z")
    game.admin("clock", "on")
    game.post("ais@example.org", "I give m10 to Wooble. I give m999 to Chuck.", "2008-09-04T08:00:00Z")
    game.admin("set", "Chuck", "points", "7")
    game.post("chuck@example.org", "I exchange 2 points for m10", "2008-09-05T08:00:00Z")
    game.post("ais@example.org", "BEGIN TRANSACTION\nI give m1 to Chuck\nChuck has m51\n"
              "END TRANSACTION\nOn nday 8, I give m2 to Chuck.", "2008-09-05T09:00:00Z")
    game.post("chuck@example.org", "I give m5 to The Beast. I intend to cause the Beast to "
              "give m3 to Ais523 without objection", "2008-09-05T10:00:00Z")
    game.post("ais@example.org", "I support intent #1", "2008-09-05T11:00:00Z")
    game.post("chuck@example.org", "I cause the Beast to give m3 to Ais523", "2008-09-08T10:00:00Z")
    game.post("wooble@example.org", "I forfeit.", "2008-09-06T08:00:00Z")
    game.tick("2008-09-20T00:00:00Z")


def test_rebuild_reproduces_the_live_digest(game):
    play_some(game)
    live_digest = game.digest()
    live_events = game.show("events")
    assert any(e["kind"] == "beast" for e in live_events)
    assert any(e["rule"] == "4E33" and e["data"].get("amount") == 2 for e in live_events)
    live_players = game.show("players")
    out = game.cli("rebuild")
    assert live_digest in out and "was" not in out
    assert game.digest() == live_digest
    assert game.show("events") == live_events
    assert game.show("players") == live_players


def test_rebuild_repairs_a_tampered_state(game):
    play_some(game)
    live = game.digest()
    con = sqlite3.connect(game.db)
    con.execute("UPDATE player SET mackerel = 9999")
    con.execute("DELETE FROM event WHERE seq > 5")
    con.commit()
    con.close()
    assert game.digest() != live
    game.cli("rebuild")
    assert game.digest() == live


def test_two_games_with_the_same_log_and_seed_agree(tmp_path):
    from conftest import Game
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a, b = Game(tmp_path / "a"), Game(tmp_path / "b")
    for g in (a, b):
        g.join("Wooble", "2008-09-01T10:00:00Z", address="w@example.org")
        g.post("w@example.org", "I give m5 to The Beast", "2008-09-02T10:00:00Z", msgid="<same@x>")
        g.tick("2008-09-09T00:00:00Z")
    assert a.digest() == b.digest()


def test_two_writers_at_once_apply_each_mail_once(game, tmp_path):
    """Two `bnomic ingest` processes race through the pending log: the second
    finds each entry done under the write lock and does nothing."""
    import os
    import subprocess
    import sys
    from conftest import make_mail
    game.join("Wooble", "2008-09-01T09:00:00Z", address="w@example.org")
    game.admin("set", "Wooble", "mackerel", "100000")
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        for i in range(60):
            (tmp_path / folder / f"{i:03d}.eml").write_bytes(
                make_mail("w@example.org", "I give m1 to The Beast.", msgid=f"<{folder}{i}@x>"))
    cmd = [sys.executable, "-m", "bnomic.mailer.cli", "ingest", "--db", game.db,
           "--at", "2008-09-01T10:00:00Z"]
    procs = [subprocess.Popen(cmd + sorted(str(p) for p in (tmp_path / f).iterdir()),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=os.environ)
             for f in ("a", "b")]
    for p in procs:
        assert p.wait(120) == 0, p.stderr.read()
    assert game.players()["The Beast"]["mackerel"] == 120
    assert all(len(e["outcomes"]) == 1 for e in game.mails())
    digest = game.digest()
    game.cli("rebuild")
    assert game.digest() == digest
