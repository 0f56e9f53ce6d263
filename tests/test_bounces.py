"""Operators' list: a player whose address bounces is marked, not mailed forever."""
import json

from bnomic.handlers.context import game_config
from bnomic.mailer import inbound, outbound, runner
from bnomic.store import Outbox, open_database
from conftest import Game, make_mail, recent
from daemon import Sink

DSN = b"""From: MAILER-DAEMON@example.org
To: bnomic@example.org
Subject: Undelivered Mail Returned to Sender
Message-ID: <dsn1@example.org>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary=XX

--XX
Content-Type: text/plain

I'm sorry to have to inform you that your message could not be delivered.
I give m5 to The Beast
--XX
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.org

Final-Recipient: rfc822; w@example.org
Original-Recipient: rfc822;w@example.org
Action: failed
Status: 5.1.1
Diagnostic-Code: smtp; 550 5.1.1 <w@example.org>: Recipient address rejected

Final-Recipient: rfc822; someone-else@example.net
Action: failed
Status: 5.1.1
--XX--
"""


def test_a_bounce_marks_the_players_address_and_bnomic_stops_mailing_it(tmp_path):
    game = Game(tmp_path, start=recent())
    game.join("Wooble", recent(), address="w@example.org")
    open_database(game.db)
    inbound.receive(DSN, source="lmtp", envelope_from="", rcpt_tos=["bnomic@localhost"])
    runner.process_pending(emit=True)
    wooble = game.players()["Wooble"]
    assert wooble["bouncing"] == ["w@example.org"]
    assert wooble["mackerel"] == 50                       # the report's text did nothing
    (entry,) = [m for m in game.mails() if m["message_id"] == "<dsn1@example.org>"]
    assert entry["outcomes"][0]["action"] == "bounce"
    digest = game.digest()
    game.cli("rebuild")
    assert game.digest() == digest                        # state: marked again on replay
    open_database(game.db)

    sink = Sink().start()
    try:
        now = inbound.wall_clock()
        Outbox.create(message_id="<r1@x>", kind="receipt", to=["w@example.org"], subject="Re: x",
                      body="...", queued_at=now, next_attempt_at=now)
        Outbox.create(message_id="<r2@x>", kind="notice", to=["business@example.org"],
                      subject="notice", body="...", queued_at=now, next_attempt_at=now)
        sender = outbound.Sender({"host": "127.0.0.1", "port": sink.port}, game_config)
        assert sender.send_due() == 1
        assert [rcpts for _, rcpts, _ in sink.wait_for(1)] == [["business@example.org"]]
    finally:
        sink.stop()
    rows = {r["message_id"]: r for r in game.show_outbox()}
    assert rows["<r1@x>"]["state"] == "failed" and "bouncing" in rows["<r1@x>"]["last_error"]

    # mail from the address again: it works, the mark goes
    inbound.receive(make_mail("w@example.org", "I give m1 to The Beast"), source="lmtp",
                    rcpt_tos=["business@example.org"])
    runner.process_pending()
    assert game.players()["Wooble"]["bouncing"] == []
