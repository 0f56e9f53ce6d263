"""Issue 11 items 5 and 6: the mail edge keeps time honestly. Outbound mail is
scheduled on the wall clock; LMTP mail takes effect when our mail server
received it (its topmost Received header), bounded by now and by the game's
present."""
from datetime import datetime, timedelta, timezone

from bnomic.mailer import inbound, outbound, runner
from bnomic.store import Outbox, open_database
from conftest import Game, make_mail, recent


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
    inbound.store_raw(make_mail("w@example.org", "Please send the Registrar's display.",
                                to="bnomic@localhost", subject="display please"), source="test")
    runner.process_pending(emit=True)
    rows = list(Outbox.select().where(Outbox.kind == "display"))
    assert rows and all(r.next_attempt_at <= inbound.wall_clock() for r in rows)
