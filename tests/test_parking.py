"""Issue 11, item 8: one bad entry never stops the game. An entry bnomic fails
on is parked with its error, its sender is told, the engine goes on; a replay
parks it again; the operator's retry applies it as a new arrival."""
import json

import pytest

from conftest import make_mail
from bnomic.handlers import engine
from bnomic.store import Entry, Outbox, Parked, open_database, state_digest


@pytest.fixture
def failing(monkeypatch):
    """bnomic fails on any mail saying BOOM: an internal error outside the
    per-action savepoints, as a template or receipt error would be."""
    real = engine.apply_post

    def apply_post(post, seq):
        if "BOOM" in post.text:
            raise TypeError("unhashable type: 'list'")
        return real(post, seq)
    monkeypatch.setattr(engine, "apply_post", apply_post)
    return monkeypatch


def test_a_failing_mail_is_parked_and_the_game_goes_on(game, failing):
    game.join("Wooble", "2008-09-01T10:00:00Z")
    out = game.post("wooble@example.org", "I give m5 to The Beast. BOOM", "2008-09-01T11:00:00Z")
    assert "bnomic failed on this entry" in out and "(Rule 4E7)" in out
    game.post("wooble@example.org", "I give m1 to The Beast.", "2008-09-01T12:00:00Z")
    assert game.players()["The Beast"]["mackerel"] == 1           # the next one was applied
    log = game.show("log")
    assert [e["processed"] for e in log] == [True, True, True]
    assert log[1]["parked"]["state"] == "parked" and log[1]["parked"]["attempts"] == 1
    assert "TypeError: unhashable type: 'list'" in log[1]["parked"]["error"]
    assert log[1]["outcomes"][0]["action"] == "parked" and log[2]["parked"] is None
    text = game.cli("show", "log")
    assert "parked" in text.splitlines()[1] and "TypeError" in text.splitlines()[1]
    (row,) = json.loads(game.cli("parked", "--json"))
    assert row["entry"] == log[1]["seq"] and row["state"] == "parked"
    code, out, _ = game.run("status", "--json")          # a monitoring check sees it
    status = json.loads(out)
    assert code == 1 and not status["checks"]["parked"]["ok"] and status["parked"] == [row]
    # a replay parks it again at the same point: the same digest
    digest = game.digest()
    game.cli("rebuild")
    assert game.digest() == digest
    # a retry that fails again keeps it parked, counts the attempt, and says so
    code, _, err = game.run("parked", "--retry", str(row["entry"]))
    assert code == 1 and "failed again (TypeError); it stays parked" in err
    assert json.loads(game.cli("parked", "--json"))[0]["attempts"] == 2
    digest = game.digest()
    game.cli("rebuild")
    assert game.digest() == digest


def test_a_retry_applies_it_now_as_a_new_arrival(game, failing):
    game.join("Wooble", "2008-09-01T10:00:00Z")
    game.post("wooble@example.org", "I give m5 to The Beast. BOOM", "2008-09-01T11:00:00Z")
    failing.undo()                                      # the operator fixed the cause
    seq = game.show("log")[1]["seq"]
    out = game.cli("parked", "--retry", str(seq))
    assert f"log entry {seq} applied as log entry {seq + 1}" in out and "Done" in out
    assert game.players()["The Beast"]["mackerel"] == 5
    log = game.show("log")
    assert log[1]["outcomes"][0]["action"] == "retried"
    assert log[1]["parked"]["state"] == "applied" and log[1]["parked"]["retried_by"] == seq + 1
    assert log[2]["command"] == ["retry", str(seq)]
    assert game.cli("parked") .strip() == "no parked entries"
    code, _, err = game.run("parked", "--retry", str(seq))
    assert code == 1 and "is not parked" in err
    digest = game.digest()
    game.cli("rebuild")                                 # parked again, then applied by the retry
    assert game.digest() == digest
    assert game.players()["The Beast"]["mackerel"] == 5


def test_the_sender_is_told_once_under_the_receipt_guards(game, failing):
    from bnomic.mailer import inbound, runner
    game.join("Wooble", "2008-09-01T10:00:00Z")
    open_database(game.db)
    inbound.store_raw(make_mail("wooble@example.org", "BOOM", msgid="<boom@x>", subject="hi"),
                      source="test", envelope_from="wooble@example.org")
    inbound.store_raw(make_mail("wooble@example.org", "BOOM", msgid="<bounce@x>"),
                      source="test", envelope_from="")                  # a bounce: no answer
    inbound.store_raw(make_mail("wooble@example.org", "I give m2 to The Beast", msgid="<ok@x>"),
                      source="test", envelope_from="wooble@example.org")
    runner.process_pending(emit=True)
    assert Entry.select().where(Entry.processed == False).count() == 0       # noqa: E712
    assert Parked.select().count() == 2
    notices = [r for r in Outbox.select() if "bnomic failed on it" in r.body]
    assert len(notices) == 1
    (notice,) = notices
    assert notice.to == ["wooble@example.org"] and notice.subject == "Re: hi"
    assert notice.in_reply_to == "<boom@x>" and notice.auto_submitted == "auto-replied"
    receipts = [r for r in Outbox.select() if r.in_reply_to == "<ok@x>"]
    assert len(receipts) == 1 and "Done" in receipts[0].body
    before = state_digest()
    runner.rebuild()
    assert state_digest() == before and Outbox.select().count() == 2      # nothing mailed again


def test_a_header_written_twice_does_not_stop_the_daemon(live_game, tmp_path):
    """The fuzzer's find: a mail whose Subject parses as a list
    raised inside the receipt code, and every later mail waited behind it."""
    from daemon import DaemonProcess, Sink, lmtp_send, write_config
    from servers import free_port
    from test_daemon import wait_processed
    sink = Sink().start()
    port = free_port()
    d = DaemonProcess(write_config(tmp_path, sink.port, port), live_game.db).start(wait_port=port)
    try:
        raw = (b"From: w@example.org\nTo: business@example.org\nSubject: one\nSubject: two\n"
               b"Message-ID: <twice@x>\n\nI join as Wooble.\n")
        lmtp_send(port, raw)
        lmtp_send(port, make_mail("a@example.org", "I join as Ais523", msgid="<after@x>"))
        wait_processed(live_game, 2)
        got = sink.wait_for(2)
        assert sorted(m["In-Reply-To"] for _, _, m in got) == ["<after@x>", "<twice@x>"]
        assert {"Wooble", "Ais523"} <= set(live_game.players())
        assert json.loads(live_game.cli("parked", "--json")) == []
    finally:
        d.terminate()
        sink.stop()
