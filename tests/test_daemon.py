"""Issue 3: the daemon over real sockets. Mail sent with smtplib to the LMTP or
SMTP listener is stored, processed, and its receipt reaches a real SMTP sink."""
import json
import smtplib
import time

import pytest

from conftest import make_mail
from daemon import LIST_COPY, DaemonProcess, Sink, lmtp_send, lmtp_statuses, wait_listening, write_config
from servers import free_port


@pytest.fixture
def sink():
    s = Sink().start()
    yield s
    s.stop()


@pytest.fixture
def running(live_game, sink, tmp_path):
    port = free_port()
    cfg = write_config(tmp_path, sink.port, port)
    d = DaemonProcess(cfg, live_game.db).start(wait_port=port)
    yield d, port
    if d.proc.poll() is None:
        d.terminate()


def wait_processed(game, n, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        log = game.show("log")          # one snapshot: mail reaches the log from the intake spool
        if len([e for e in log if e["kind"] == "mail"]) >= n and all(e["processed"] for e in log):
            return log
        time.sleep(0.1)
    raise AssertionError(f"not processed: {game.show('log')}")


def answers(game, message_id: str) -> list[dict]:
    """The outbox rows that answer one mail. A reply is queued in the transaction
    that marks its mail processed, so once the mail is processed this is final:
    "nothing was sent" is read from the outbox, not waited for."""
    return [r for r in game.show_outbox() if r["in_reply_to"] == message_id]


def test_lmtp_mail_is_processed_and_receipted(live_game, sink, running):
    daemon, port = running
    raw = make_mail("wooble@example.org", "Hello!\nI join as Wooble.\n", subject="joining",
                    msgid="<join1@example.org>")
    assert lmtp_send(port, raw) == {}
    received = sink.wait_for(1)
    assert len(received) == 1
    mail_from, rcpts, receipt = received[0]
    assert rcpts == ["wooble@example.org"] and mail_from == "bnomic@example.org"
    assert receipt["Subject"] == "Re: joining"
    assert receipt["In-Reply-To"] == "<join1@example.org>"
    assert "<join1@example.org>" in receipt["References"]
    assert receipt["Auto-Submitted"] == "auto-replied"
    assert receipt["X-Loop"] == "bnomic@example.org"
    body = receipt.get_payload(decode=True).decode()
    assert '"I join as Wooble"' in body and "Done (Rule 4E4)" in body
    assert live_game.players()["Wooble"]["addresses"] == ["wooble@example.org"]
    outbox = json.loads(live_game.cli("outbox", "--json"))
    assert {"to", "subject", "body", "in_reply_to", "sent"} <= set(outbox[0])
    assert outbox[0]["sent"] is True and outbox[0]["message_id"] == receipt["Message-ID"]


def test_one_status_per_lmtp_recipient_and_duplicates_stored_once(live_game, sink, running):
    daemon, port = running
    raw = make_mail("wooble@example.org", "I join as Wooble", msgid="<dup@example.org>")
    assert lmtp_statuses(port, raw, ("bnomic@example.org", "archive@example.org",
                                     "other@example.org")) == [250, 250, 250]
    lmtp_send(port, raw)                       # delivered again by a retrying MTA
    wait_processed(live_game, 1)
    assert len(live_game.mails()) == 1
    assert len(sink.wait_for(1)) == 1


def test_too_big_is_refused_with_552(live_game, sink, running):
    daemon, port = running
    big = make_mail("wooble@example.org", "I join as Wooble\n" + "x" * 100 + "\n" * 0
                    + ("y" * 76 + "\n") * (5 * 1024 * 1024 // 77))
    with pytest.raises(smtplib.SMTPResponseException) as e:
        lmtp_send(port, big)
    assert e.value.smtp_code == 552
    assert live_game.mails() == []


def test_too_big_gets_552_for_every_lmtp_recipient(live_game, sink, running):
    daemon, port = running
    big = make_mail("wooble@example.org", "x" * (2 * 1024 * 1024))
    assert lmtp_statuses(port, big, ("a@example.org", "b@example.org", "c@example.org")) \
        == [552, 552, 552]
    assert live_game.mails() == []


def test_a_folded_references_header_still_gets_its_receipt(live_game, sink, running):
    daemon, port = running
    raw = make_mail("w@example.org", "I join as Wooble",
                    subject="Re: a rather long subject line " + "that goes on and on " * 5,
                    headers={"References": " ".join(f"<ref{i}@example.org>" for i in range(12))})
    lmtp_send(port, raw)
    _, _, receipt = sink.wait_for(1)[0]
    assert "<ref11@example.org>" in receipt["References"]
    assert live_game.show_outbox()[0]["sent"] is True


def test_plain_smtp_listener_too(live_game, sink, tmp_path):
    smtp_port, lmtp_port = free_port(), free_port()
    cfg = write_config(tmp_path, sink.port, lmtp_port, smtp={"listen": f"127.0.0.1:{smtp_port}"})
    d = DaemonProcess(cfg, live_game.db).start(wait_port=smtp_port)
    try:
        with smtplib.SMTP("127.0.0.1", smtp_port) as smtp:
            smtp.sendmail("ais@example.org", [LIST_COPY],
                          make_mail("ais@example.org", "I join as Ais523"))
        assert len(sink.wait_for(1)) == 1
        assert "Ais523" in live_game.players()
    finally:
        assert d.terminate() == 0


@pytest.mark.parametrize("headers, envelope_from, why", [
    ({"Auto-Submitted": "auto-replied"}, "wooble@example.org", "auto-reply"),
    ({}, "", "bounce (null sender)"),
    ({"X-Loop": "bnomic@example.org"}, "wooble@example.org", "our own loop"),
])
def test_no_receipt_for_auto_replies_bounces_or_loops(live_game, sink, running, headers, envelope_from, why):
    daemon, port = running
    live_game.join("Wooble", live_game.clock()["now"])   # the daemon applies it, with a receipt
    assert len(sink.wait_for(1)) == 1
    assert len(live_game.show_outbox()) == 1                # the join's receipt
    raw = make_mail("wooble@example.org", "I give m5 to The Beast", msgid="<quiet@example.org>")
    head, body = raw.split(b"\n\n", 1)
    extra = b"".join(f"{k}: {v}\n".encode() for k, v in headers.items())
    lmtp_send(port, head + b"\n" + extra + b"\n" + body, mail_from=envelope_from)
    wait_processed(live_game, 2)
    assert answers(live_game, "<quiet@example.org>") == [], why
    assert len(live_game.show_outbox()) == 1, why           # nothing queued, so nothing is sent
    # it is still applied (a bounce or auto-reply saying so would be odd, but it is mail)
    assert len(live_game.mails()) == 2


def test_a_bounce_report_gets_no_answer(live_game, sink, running):
    daemon, port = running
    raw = (b"From: MAILER-DAEMON@example.org\nTo: bnomic@example.org\nSubject: Undelivered\n"
           b"Message-ID: <bounce1@example.org>\nMIME-Version: 1.0\n"
           b"Content-Type: multipart/report; report-type=delivery-status; boundary=XX\n\n"
           b"--XX\nContent-Type: text/plain\n\nI give m5 to The Beast\n--XX\n"
           b"Content-Type: message/delivery-status\n\nReporting-MTA: dns; example.org\n--XX--\n")
    lmtp_send(port, raw, mail_from="")
    wait_processed(live_game, 1)
    assert live_game.show_outbox() == []


def test_sigterm_stops_cleanly(live_game, sink, tmp_path):
    port = free_port()
    d = DaemonProcess(write_config(tmp_path, sink.port, port), live_game.db).start(wait_port=port)
    assert d.terminate() == 0
    assert "stopped" in d.output()


def test_status_for_the_operator(live_game, sink, running):
    daemon, port = running
    lmtp_send(port, make_mail("wooble@example.org", "I join as Wooble", msgid="<s1@x>"))
    sink.wait_for(1)
    status = json.loads(live_game.cli("status", "--json"))
    assert status["last_processed"]["message_id"] == "<s1@x>"
    assert status["log_backlog"] == 0 and status["outbox_backlog"] == 0
    assert status["outbox_oldest_failure"] is None
    assert status["clock"]["nweek"] == 1 and status["last_tick"]
    text = live_game.cli("status")
    assert "<s1@x>" in text and "log backlog:    0" in text


def test_daily_cap_with_a_notice_on_the_last_receipt(live_game, sink, tmp_path):
    port = free_port()
    cfg = write_config(tmp_path, sink.port, port, receipts={"daily_cap": 2})
    d = DaemonProcess(cfg, live_game.db).start(wait_port=port)
    try:
        for i in range(4):
            lmtp_send(port, make_mail("w@example.org", f"I give m1 to Nobody{i}"))
        wait_processed(live_game, 4)
        # the third and fourth mail queued no receipt: two rows, so two mails at most
        assert [r["to"] for r in live_game.show_outbox()] == [["w@example.org"]] * 2
        received = sink.wait_for(2)
        assert len(received) == 2
        bodies = [m.get_payload(decode=True).decode() for _, _, m in received]
        assert "last receipt bnomic will send to you today" not in bodies[0]
        assert "last receipt bnomic will send to you today (2 a day)" in bodies[1]
        assert len(live_game.mails()) == 4               # all four stored and applied
    finally:
        d.terminate()


def test_receipts_to_the_list_when_configured(live_game, sink, tmp_path):
    port = free_port()
    cfg = write_config(tmp_path, sink.port, port, receipts={"to": "list"})
    d = DaemonProcess(cfg, live_game.db).start(wait_port=port)
    try:
        lmtp_send(port, make_mail("w@example.org", "I join as Wooble"))
        _, rcpts, receipt = sink.wait_for(1)[0]
        assert rcpts == ["business@example.org"]
    finally:
        d.terminate()


def test_our_own_mail_is_never_answered(live_game, sink, running):
    daemon, port = running
    lmtp_send(port, make_mail("bnomic@example.org", "I join as Echo"))
    wait_processed(live_game, 1)
    assert live_game.show_outbox() == []


def test_the_operators_fora_are_recorded_in_the_log(live_game, sink, running):
    commands = [e["command"] for e in live_game.show("log") if e["kind"] == "command"]
    assert ["setting", "addresses.public_fora", '["business@example.org"]'] in commands
    assert ["setting", "addresses.processor", '"bnomic@example.org"'] in commands
    # a discussion-only message is stored, not acted on, and its sender told why
    daemon, port = running
    lmtp_send(port, make_mail("w@example.org", "I join as Wooble", to="discuss@example.org"))
    _, _, receipt = sink.wait_for(1)[0]
    assert "reached only a Discussion Forum" in receipt.get_payload(decode=True).decode()
    assert "Wooble" not in live_game.players()


def test_outbound_mail_is_retried_with_backoff_until_the_server_answers(live_game, tmp_path):
    port, sink_port = free_port(), free_port()
    cfg = write_config(tmp_path, sink_port, port, smtp_out={
        "host": "127.0.0.1", "port": sink_port, "retry_start_seconds": 1})
    d = DaemonProcess(cfg, live_game.db).start(wait_port=port)
    try:
        lmtp_send(port, make_mail("w@example.org", "I join as Wooble"))
        deadline = time.time() + 20
        while time.time() < deadline:
            rows = live_game.show_outbox()
            if rows and rows[0]["attempts"] >= 1 and rows[0]["last_error"]:
                break
            time.sleep(0.1)
        assert rows[0]["state"] == "queued" and not rows[0]["sent"]   # no server yet: retry later
        status = json.loads(live_game.cli("status", "--json"))
        assert status["outbox_oldest_failure"]["attempts"] >= 1
        from daemon import Sink as _Sink
        sink = _Sink()
        sink.controller.port = sink_port
        sink.start()
        try:
            assert len(sink.wait_for(1, timeout=30)) == 1
        finally:
            sink.stop()
        assert live_game.show_outbox()[0]["sent"] is True
    finally:
        d.terminate()


def test_missed_midnights_fire_in_order_before_later_mail(tmp_path):
    from conftest import Game
    from datetime import datetime, timedelta, timezone
    start = (datetime.now(timezone.utc) - timedelta(days=3)).replace(
        hour=12, minute=0, second=0, microsecond=0)
    game = Game(tmp_path, start=start.isoformat(), clock="on")
    sink = Sink().start()
    port = free_port()
    d = DaemonProcess(write_config(tmp_path, sink.port, port), game.db).start(wait_port=port)
    try:
        lmtp_send(port, make_mail("w@example.org", "I join as Wooble"))
        wait_processed(game, 1)
        events = game.show("events")
        midnights = [e for e in events if e["cause"] == "midnight" and e["kind"] == "clock"]
        assert len(midnights) == 3 and game.clock()["nday"] == 4
        join = next(e for e in events if e["kind"] == "join" and e["data"]["player"] == "Wooble")
        assert all(m["seq"] < join["seq"] for m in midnights)
    finally:
        d.terminate()
        sink.stop()


def test_preview_by_mail_changes_nothing(live_game, sink, running):
    daemon, port = running
    lmtp_send(port, make_mail("w@example.org", "I join as Wooble"))
    sink.wait_for(1)
    before = live_game.digest()
    lmtp_send(port, make_mail("w@example.org", "I give m20 to The Beast.\nI give m80 to The Beast.",
                              subject="preview please", to="bnomic@example.org"),
              rcpts=("bnomic@example.org",))
    received = sink.wait_for(2)
    assert len(received) == 2
    _, rcpts, receipt = received[1]
    body = receipt.get_payload(decode=True).decode()
    assert rcpts == ["w@example.org"]
    assert "PREVIEW: nothing was changed" in body
    assert "Done (Rule 4E33)" in body and "Refused: Wooble has m30, less than m80 (Rule 4E33)" in body
    assert live_game.players()["The Beast"]["mackerel"] == 0
    # the preview mail is in the log, and the state is as it was (bar its own outcome row)
    assert live_game.mails()[-1]["outcomes"][0]["action"] == "preview"
    assert live_game.players()["Wooble"]["mackerel"] == 50


def test_displays_are_published_when_they_change_and_sent_on_request(live_game, sink, tmp_path):
    port = free_port()
    cfg = write_config(tmp_path, sink.port, port, displays={"min_interval_minutes": 0})
    d = DaemonProcess(cfg, live_game.db).start(wait_port=port)
    try:
        lmtp_send(port, make_mail("w@example.org", "I join as Wooble. I become the Registrar."))
        got = sink.wait_for(2)
        displays = [m for _, rcpts, m in got if "Public Display" in m["Subject"]]
        assert [m["Subject"] for m in displays] == ["[B Nomic] The Registrar's Public Display"]
        assert got[[m for _, _, m in got].index(displays[0])][1] == ["business@example.org"]
        assert displays[0]["Auto-Submitted"] == "auto-generated"
        lmtp_send(port, make_mail("a@example.org", "I join as Ais523"))
        got = sink.wait_for(4)
        registrar = [m for _, _, m in got if "Registrar" in m["Subject"]]
        assert len(registrar) == 2 and "Ais523" in registrar[1].get_payload(decode=True).decode()
        lmtp_send(port, make_mail("a@example.org", "Please send the Registrar's display.",
                                  to="bnomic@example.org", subject="display please"),
                  rcpts=("bnomic@example.org",))
        got = sink.wait_for(5)
        _, rcpts, sent = got[4]
        assert rcpts == ["a@example.org"] and "The Registrar's Public Display" in sent["Subject"]
    finally:
        d.terminate()


def test_a_misdemeanor_is_told_to_the_list_once(game):
    from bnomic.config import Config
    from bnomic.mailer import publish
    from bnomic.store import Outbox, open_database, write_transaction
    from datetime import datetime, timezone
    game.join("Bob", "2008-09-01T09:00:00Z")
    game.join("Carol", "2008-09-01T09:00:00Z")
    game.post("bob@example.org", "I become the Registrar", "2008-09-01T10:00:00Z")
    game.post("carol@example.org", "I challenge the Registrar's display: wrong", "2008-09-01T11:00:00Z")
    game.tick("2008-09-05T00:00:00Z")
    open_database(game.db)
    from bnomic.handlers.context import game_config
    now = datetime(2008, 9, 5, tzinfo=timezone.utc)
    with write_transaction():
        assert publish.notify(game_config(), now) == 1
        assert publish.notify(game_config(), now) == 0
    (row,) = Outbox.select().where(Outbox.kind == "notice")
    assert "Misdemeanor: Bob, as the Ministry of Society (Registrar)" in row.body
    assert "I remove NAME from the Ministry of MINISTRY" in row.body


def test_as_of_a_message_id_matches_the_display_published_then(live_game, sink, tmp_path):
    port = free_port()
    cfg = write_config(tmp_path, sink.port, port, displays={"min_interval_minutes": 0})
    d = DaemonProcess(cfg, live_game.db).start(wait_port=port)
    try:
        lmtp_send(port, make_mail("w@example.org", "I join as Wooble. I become the Registrar.",
                                  msgid="<first@x>"))
        sink.wait_for(2)
        lmtp_send(port, make_mail("a@example.org", "I join as Ais523", msgid="<second@x>"))
        got = sink.wait_for(4)
    finally:
        d.terminate()
    published = [m.get_payload(decode=True).decode().replace("\r\n", "\n") for _, _, m in got
                 if "Registrar" in m["Subject"]]
    assert len(published) == 2
    then = live_game.cli("show", "display", "Registrar", "--as-of", "<first@x>")
    assert then.strip() == published[0].strip()
    later = live_game.cli("show", "display", "Registrar", "--as-of", "second@x")
    assert later.strip() == published[1].strip()
