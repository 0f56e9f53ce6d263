"""The `bnomic` command line: a contract (names and JSON keys) and its errors
(one line on stderr, non-zero exit, never a traceback)."""
import json
import mailbox
import os
import subprocess
import sys

from conftest import make_mail


def test_json_keys_of_clock_and_players(game):
    game.join("Wooble", "2008-09-01T10:00:00Z")
    clock = game.clock()
    assert {"nweek", "nday", "nday_name", "on", "ndelay", "nyear"} <= set(clock)
    assert (clock["nweek"], clock["nday"], clock["nday_name"], clock["on"], clock["ndelay"],
            clock["nyear"]) == (1, 1, "Breakday", False, 0, 1)
    players = game.show("players")
    assert all({"name", "addresses", "points", "mackerel", "active", "vested"} <= set(p)
               for p in players)
    events = game.show("events")
    assert all({"seq", "at", "cause", "entry", "rule", "kind", "summary"} <= set(e) for e in events)


def test_init_options(tmp_path):
    from conftest import Game
    g = Game(tmp_path, start="2008-12-10T00:00:00Z", nweek=135, nday=4, clock="on")
    c = g.clock()
    assert (c["nweek"], c["nday"], c["on"], c["nyear"], c["now"]) == (135, 4, True, 14,
                                                                      "2008-12-10T00:00:00Z")


def test_errors_are_one_line(game, tmp_path):
    cases = [
        ("tick", "--until", "yesterday"),
        ("admin", "frobnicate"),
        ("admin", "set", "Nobody", "points", "3"),
        ("admin", "clock"),
        ("ingest", str(tmp_path / "missing.eml")),
        ("init",),
    ]
    for args in cases:
        code, out, err = game.run(*args)
        assert code != 0, args
        assert len(err.strip().splitlines()) == 1 and err.startswith("bnomic: "), (args, err)
        assert "Traceback" not in err


def test_a_missing_database_is_a_clear_error(tmp_path):
    from bnomic.mailer.cli import main
    import contextlib
    import io
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["show", "--db", str(tmp_path / "none.sqlite"), "clock"])
    assert code == 1
    assert "no game database" in err.getvalue() and "bnomic init" in err.getvalue()


def test_the_console_script_runs_and_fails_cleanly(tmp_path):
    env = dict(os.environ, BNOMIC_DB=str(tmp_path / "g.sqlite"))
    exe = [sys.executable, "-m", "bnomic.mailer.cli"]
    run = subprocess.run([*exe, "init", "--start", "2008-09-01T00:00:00Z"], env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0 and "nweek 1, nday 1 (Breakday), Clock Off" in run.stdout
    run = subprocess.run([*exe, "show", "clock", "--json"], env=env, capture_output=True, text=True)
    assert json.loads(run.stdout)["nday_name"] == "Breakday"
    run = subprocess.run([*exe, "tick", "--until", "soon"], env=env, capture_output=True, text=True)
    assert run.returncode == 1 and run.stderr.count("\n") == 1 and "Traceback" not in run.stderr


def test_admin_commands_are_in_the_log_and_replay(game):
    game.join("Wooble", "2008-09-01T10:00:00Z")
    game.admin("set", "Wooble", "mackerel", "m7")
    game.admin("add-player", "Ais523", "ais@example.org", "ais@other.example")
    game.admin("add-address", "Wooble", "Wooble@Home.example")
    game.admin("remove-player", "Ais523")
    log = game.show("log")
    assert [e["command"] for e in log if e["kind"] == "command"] == [
        ["set", "Wooble", "mackerel", "m7"], ["add-player", "Ais523", "ais@example.org",
                                              "ais@other.example"],
        ["add-address", "Wooble", "Wooble@Home.example"], ["remove-player", "Ais523"]]
    before = game.digest()
    game.cli("rebuild")
    assert game.digest() == before
    p = game.players()
    assert set(p) == {"The Beast", "Wooble"}
    assert p["Wooble"]["mackerel"] == 7
    assert p["Wooble"]["addresses"] == ["wooble@example.org", "wooble@home.example"]
    # the new address acts for Wooble
    r = game.post("wooble@home.example", "I give m2 to The Beast", "2008-09-01T11:00:00Z")
    assert "Done" in r


def test_refused_admin_commands_change_nothing_but_stay_in_the_log(game):
    before = game.show("players")
    code, _, err = game.run("admin", "set", "The Beast", "points", "-4")
    assert code == 1 and "whole number from 0 up" in err
    assert game.show("players") == before
    assert game.show("log")[-1]["outcomes"][0]["accepted"] is False


def test_ingest_mbox_and_maildir_in_order(game, tmp_path):
    mbox = mailbox.mbox(tmp_path / "list.mbox")
    mbox.add(make_mail("a@example.org", "I join as Alice", date="2008-09-01T10:00:00Z"))
    mbox.add(make_mail("b@example.org", "I join as Bob, recruited by Alice",
                       date="2008-09-01T11:00:00Z"))
    mbox.flush()
    md = mailbox.Maildir(tmp_path / "md", create=True)
    md.add(make_mail("a@example.org", "I give m10 to Bob", date="2008-09-02T10:00:00Z"))
    md.flush()
    out = game.cli("ingest", str(tmp_path / "list.mbox"), str(tmp_path / "md"))
    assert out.count("Done") == 3
    p = game.players()
    assert (p["Alice"]["mackerel"], p["Bob"]["mackerel"]) == (100, 60)


def test_arrival_time_from_received_then_date_and_never_backwards(game, tmp_path):
    raw = make_mail("a@example.org", "I join as Alice", date="2008-09-01T08:00:00Z")
    received = b"Received: from mx by list; Tue, 2 Sep 2008 10:30:00 +0200\r\n"
    (tmp_path / "r.eml").write_bytes(received + raw)
    game.cli("ingest", str(tmp_path / "r.eml"))
    assert game.show("log")[-1]["at"] == "2008-09-02T08:30:00Z"     # newest Received wins
    (tmp_path / "d.eml").write_bytes(make_mail("b@example.org", "I join as Bob",
                                               date="2008-09-03T09:00:00Z"))
    game.cli("ingest", str(tmp_path / "d.eml"))
    assert game.show("log")[-1]["at"] == "2008-09-03T09:00:00Z"     # else the Date
    (tmp_path / "old.eml").write_bytes(make_mail("c@example.org", "I join as Carol",
                                                 date="2008-08-01T09:00:00Z"))
    game.cli("ingest", str(tmp_path / "old.eml"))
    assert game.show("log")[-1]["at"] == "2008-09-03T09:00:00Z"     # never before game time
    (tmp_path / "at.eml").write_bytes(make_mail("d@example.org", "I join as Dan",
                                                date="2008-08-01T09:00:00Z"))
    game.cli("ingest", "--at", "2008-09-05T01:02:03Z", str(tmp_path / "at.eml"))
    assert game.show("log")[-1]["at"] == "2008-09-05T01:02:03Z"     # --at wins


def test_a_duplicate_message_id_is_stored_once(game, tmp_path):
    (tmp_path / "a.eml").write_bytes(make_mail("a@example.org", "I join as Alice", msgid="<x@y>"))
    game.cli("ingest", "--at", "2008-09-01T10:00:00Z", str(tmp_path / "a.eml"))
    out = game.cli("ingest", "--at", "2008-09-01T11:00:00Z", str(tmp_path / "a.eml"))
    assert "already in the log; skipped" in out
    assert len(game.show("log")) == 1


def test_a_message_without_message_id_gets_a_stable_one(game, tmp_path):
    raw = make_mail("a@example.org", "I join as Alice").replace(b"Message-ID:", b"X-Old-ID:")
    (tmp_path / "a.eml").write_bytes(raw)
    game.cli("ingest", "--at", "2008-09-01T10:00:00Z", str(tmp_path / "a.eml"))
    game.cli("ingest", "--at", "2008-09-01T10:00:00Z", str(tmp_path / "a.eml"))
    log = game.show("log")
    assert len(log) == 1 and log[0]["message_id"].endswith("@bnomic.invalid>")


def test_garbage_is_kept_and_answered(game, tmp_path):
    junk = b"\x00\xff\xfe not a mail at all \x00"
    (tmp_path / "junk.eml").write_bytes(junk)
    out = game.cli("ingest", "--at", "2008-09-01T10:00:00Z", str(tmp_path / "junk.eml"))
    assert "No game actions found" in out or "could not be read" in out
    log = game.show("log")
    assert len(log) == 1 and log[0]["size"] == len(junk) and log[0]["processed"]


def test_show_last_n(game):
    game.join("Wooble", "2008-09-01T10:00:00Z")
    game.tick("2008-09-05T00:00:00Z")
    every = game.show("events")
    assert json.loads(game.cli("show", "events", "--json", "--last", "3")) == every[-3:]
    assert len(json.loads(game.cli("show", "log", "--json", "--last", "1"))) == 1


def test_preview_a_file(game, tmp_path):
    game.join("Wooble", "2008-09-01T10:00:00Z")
    before = game.digest()
    (tmp_path / "p.eml").write_bytes(make_mail("wooble@example.org",
                                               "I give m10 to The Beast 6 times"))
    out = game.cli("preview", str(tmp_path / "p.eml"))
    assert "PREVIEW at 2008-09-01T10:00:00Z: nothing was changed" in out
    assert "done 5 of 6 times; then refused: you have m0; a COO with none cannot give" in out
    assert game.digest() == before
    out = game.cli("preview", "--at", "2008-09-20T00:00:00Z", str(tmp_path / "p.eml"))
    assert game.digest() == before and game.clock()["now"] == "2008-09-01T10:00:00Z"


def test_a_bad_setting_is_refused_and_blocks_nothing(game):
    for key, value, why in [("players.beast", "null", "must be text"),
                            ("players.weekly_income", '"25"', "must be a whole number"),
                            ("clock.ndays_per_nweek", "0", "from 1 up"),
                            ("quantities.a_jiffy", '"3 fortnights"', "must be a duration"),
                            ("auth.policy", '"maybe"', "one of trust, dkim")]:
        code, _, err = game.run("admin", "setting", key, value)
        assert code == 1 and why in err, (key, err)
    game.admin("clock", "on")                       # the log is not blocked
    assert game.clock()["on"] is True


def test_an_unexpected_error_refuses_one_action_and_the_log_goes_on(game, monkeypatch):
    from bnomic.handlers import economy
    game.join("Wooble", "2008-09-01T09:00:00Z")
    monkeypatch.setattr(economy, "parse_amount", lambda *a, **k: 1 / 0)
    r = game.post("wooble@example.org", "I give m5 to The Beast. I forfeit.", "2008-09-01T10:00:00Z")
    assert "not applied: bnomic met an internal error (ZeroDivisionError" in r
    assert "Wooble" not in game.players()            # the next action still happened
    assert all(e["processed"] for e in game.show("log"))


def test_the_configuration_file_is_checked_at_init(tmp_path):
    from conftest import Game
    for text, why in [("[players]\nweekly_incom = 30\n", "unknown configuration key 'players.weekly_incom'"),
                      ('[clock]\nndays_per_nweek = "twelve"\n', "must be a whole number"),
                      ("[currencies.mackerel]\nexchange_rate = 2.5\n", "must be a whole number"),
                      ('[auth]\npolicy = "dkim"\n', "needs auth.authserv_id")]:
        (tmp_path / "c.toml").write_text(text)
        from bnomic.mailer.cli import main
        import contextlib
        import io
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = main(["init", "--db", str(tmp_path / "x.sqlite"), "--config", str(tmp_path / "c.toml")])
        assert code == 1 and why in err.getvalue(), (text, err.getvalue())


def test_one_ingest_applies_its_mail_in_arrival_order(game, tmp_path):
    mbox = mailbox.mbox(tmp_path / "shuffled.mbox")
    mbox.add(make_mail("b@example.org", "I join as Bob, recruited by Alice", date="2008-09-01T11:00:00Z"))
    mbox.add(make_mail("a@example.org", "I join as Alice", date="2008-09-01T10:00:00Z"))
    mbox.flush()
    game.cli("ingest", str(tmp_path / "shuffled.mbox"))
    assert game.players()["Alice"]["mackerel"] == 110       # Alice joined first: she got the bonus


def test_run_without_any_receiver_is_an_error(game, tmp_path):
    (tmp_path / "empty.toml").write_text("[smtp_out]\nport = 2525\n")
    code, _, err = game.run("run", "--config", str(tmp_path / "empty.toml"))
    assert code == 1 and "no way to receive mail" in err


def test_an_overlong_message_id_is_replaced_by_a_derived_one(game, tmp_path):
    (tmp_path / "long.eml").write_bytes(make_mail("a@example.org", "I join as Alice",
                                                  msgid="<" + "x" * 300 + "@example.org>"))
    game.cli("ingest", "--at", "2008-09-01T10:00:00Z", str(tmp_path / "long.eml"))
    (entry,) = game.mails()
    assert entry["message_id"].endswith("@bnomic.invalid>") and entry["processed"]


def test_init_if_missing_creates_a_game_where_there_is_none(tmp_path):
    """The unit's ExecStartPre: `init --if-missing` on a path with no game makes one."""
    from conftest import Game
    g = Game.__new__(Game)
    g.tmp, g.db = tmp_path, str(tmp_path / "new.sqlite")
    out = g.cli("init", "--if-missing", "--start", "2008-09-01T00:00:00Z", "--seed", "s1")
    assert os.path.getsize(g.db) > 0 and "already holds a game" not in out
    assert g.clock()["now"] == "2008-09-01T00:00:00Z"


def test_init_if_missing_leaves_a_game_as_it_is(game):
    """On a game that exists, `--if-missing` changes nothing (not its seed, its
    start, its log or its state) and succeeds; without it, init is an error."""
    import sqlite3
    game.join("Wooble", "2008-09-01T10:00:00Z")

    def setup():
        con = sqlite3.connect(game.db)
        try:
            return con.execute("SELECT seed, start_at, config FROM setup").fetchall()
        finally:
            con.close()
    before = (game.digest(), game.show("log"), game.clock(), setup())
    out = game.cli("init", "--if-missing", "--start", "2010-01-01T00:00:00Z", "--seed", "other")
    assert out.strip() == f"{game.db} already holds a game; nothing to do"
    assert (game.digest(), game.show("log"), game.clock(), setup()) == before
    code, _, err = game.run("init", "--start", "2010-01-01T00:00:00Z")
    assert code == 1 and "already holds a game; use another --db or remove it" in err
    assert (game.digest(), game.show("log"), game.clock(), setup()) == before
