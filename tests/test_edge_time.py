"""Issue 11 items 5 and 6: the mail edge keeps time honestly. Outbound mail is
scheduled on the wall clock; LMTP mail takes effect when our mail server
received it (its topmost Received header), bounded by now and by the game's
present."""
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

from bnomic.mailer import inbound, outbound, runner
from bnomic.store import Outbox, open_database
from conftest import Game, make_mail, recent, utc


def test_receipts_are_queued_on_the_wall_clock_after_a_tick_into_the_future(tmp_path):
    game = Game(tmp_path, start=recent())
    future = datetime.now(timezone.utc) + timedelta(days=2)
    game.tick(future.isoformat())
    open_database(game.db)
    inbound.store_raw(make_mail("w@example.org", "I join as Wooble"), source="test")
    runner.process_pending(emit=True)
    (row,) = Outbox.select().where(Outbox.kind == "receipt")
    now = inbound.wall_clock()
    assert row.queued_at <= now and row.next_attempt_at <= now     # not at game time
    assert [r.id for r in outbound.due(now)] == [row.id]


def test_a_display_request_is_answered_on_the_wall_clock(tmp_path):
    game = Game(tmp_path, start=recent())
    game.join("Wooble", recent())
    game.tick((datetime.now(timezone.utc) + timedelta(days=2)).isoformat())
    open_database(game.db)
    inbound.store_raw(make_mail("wooble@example.org", "Please send the Registrar's display.",
                                to="bnomic@localhost", subject="display please"), source="test")
    runner.process_pending(emit=True)
    rows = list(Outbox.select().where(Outbox.kind == "display"))
    assert rows and all(r.next_attempt_at <= inbound.wall_clock() for r in rows)


def held_mail(received: datetime, body: str, msgid: str) -> bytes:
    """A mail as our mail server wrote it down when it received it, with an
    older hop below that the sender's side wrote."""
    raw = make_mail("w@example.org", body, msgid=msgid)
    return (f"Received: from list.example.org by mx.example.org; "
            f"{format_datetime(received)}\n"
            f"Received: from player.example.net by list.example.org; "
            f"{format_datetime(received - timedelta(hours=5))}\n").encode() + raw


def test_mail_held_back_across_a_midnight_takes_effect_before_it(tmp_path):
    """bnomic was down over midnight; the MTA held a mail it received at 23:58
    and delivers it by LMTP after midnight: it is applied before the midnight,
    and its receipt says which time counted."""
    now = datetime.now(timezone.utc)
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    game = Game(tmp_path, start=(midnight - timedelta(hours=12)).isoformat(), clock="on")
    open_database(game.db)
    received = midnight - timedelta(minutes=2)
    mid, stored = inbound.receive(held_mail(received, "I join as Wooble", "<held@x>"),
                                  source="lmtp", envelope_from="w@example.org",
                                  rcpt_tos=["business@example.org"])
    assert stored
    runner.process_pending(emit=True)
    runner.advance_to(inbound.wall_clock())
    events = game.show("events")
    join = next(e for e in events if e["kind"] == "join" and e["data"]["player"] == "Wooble")
    tick = next(e for e in events if e["cause"] == "midnight" and e["kind"] == "clock")
    assert join["seq"] < tick["seq"] and join["at"] < tick["at"]
    (entry,) = game.mails()
    assert entry["at"].startswith(received.strftime("%Y-%m-%dT%H:%M"))
    (receipt,) = Outbox.select().where(Outbox.kind == "receipt")
    assert (f"Taken as arriving at {received:%Y-%m-%d %H:%M} UTC (when your mail server "
            "received it), not when bnomic stored it") in receipt.body


def test_a_received_time_in_the_future_or_before_the_game_is_bounded(tmp_path):
    game = Game(tmp_path, start=recent())
    open_database(game.db)
    before = inbound.wall_clock()
    inbound.receive(held_mail(before + timedelta(days=3), "I join as Ahead", "<f@x>"), source="lmtp")
    inbound.receive(held_mail(before - timedelta(days=30), "I join as Behind", "<p@x>"), source="lmtp")
    runner.process_pending()
    mails = {m["message_id"]: m for m in game.mails()}
    ahead, behind = mails["<f@x>"], mails["<p@x>"]
    assert before <= utc(ahead["at"]) <= inbound.wall_clock()   # a future time is taken as now
    assert utc(behind["at"]) >= utc(game.show("log")[0]["at"])   # never before the game's present
    assert behind["seq"] < ahead["seq"]                          # drained in received order


def test_the_daemon_waits_for_held_mail_before_catching_up_a_missed_midnight(tmp_path):
    """bnomic was down over midnight. At start it waits for the MTA's held mail:
    a vote received at 23:58 is applied before the midnight, though it was
    delivered after a fresh mail and after the daemon started."""
    from daemon import DaemonProcess, Sink, lmtp_send, write_config
    from servers import free_port
    from test_daemon import wait_processed
    now = datetime.now(timezone.utc)
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    game = Game(tmp_path, start=(midnight - timedelta(hours=12)).isoformat(), clock="on")
    sink, port = Sink().start(), free_port()
    cfg = write_config(tmp_path, sink.port, port, lmtp={"catch_up_wait_seconds": 6})
    d = DaemonProcess(cfg, game.db).start(wait_port=port)
    try:
        lmtp_send(port, make_mail("a@example.org", "I join as Ais523", msgid="<fresh@x>"))
        lmtp_send(port, held_mail(midnight - timedelta(minutes=2), "I join as Wooble", "<held@x>"))
        wait_processed(game, 2, timeout=40)
    finally:
        d.terminate()
        sink.stop()
    events = game.show("events")
    tick = next(e for e in events if e["cause"] == "midnight" and e["kind"] == "clock")
    joins = {e["data"]["player"]: e["seq"] for e in events if e["kind"] == "join"}
    assert joins["Wooble"] < tick["seq"] < joins["Ais523"]
    assert [m["message_id"] for m in game.mails()] == ["<held@x>", "<fresh@x>"]
