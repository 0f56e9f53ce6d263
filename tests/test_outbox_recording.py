"""Issue 11, item 4: a delivered receipt is never sent twice. When recording
"sent" fails after a successful SMTP transaction (the database locked by
another connection), the update is retried: the row ends "sent", and the sink
has it once."""
import sqlite3
import threading
from datetime import datetime, timezone

from daemon import Sink
from bnomic.mailer import outbound
from bnomic.store import Outbox, close_database, database, open_database
from bnomic.handlers.context import game_config


class LockingSink(Sink):
    """A real SMTP sink that, on receiving, has another connection take the
    game database's write lock for a second (as a long `bnomic admin` would)."""

    def __init__(self, db):
        super().__init__()
        self.locker = sqlite3.connect(db, isolation_level=None, timeout=0, check_same_thread=False)

    async def handle_DATA(self, server, session, envelope):
        reply = await super().handle_DATA(server, session, envelope)
        self.locker.execute("BEGIN IMMEDIATE")
        threading.Timer(1.0, lambda: self.locker.execute("COMMIT")).start()
        return reply


def test_sent_is_recorded_after_the_lock_is_released_and_sent_once(game):
    open_database(game.db)
    now = datetime.now(timezone.utc)
    Outbox.create(message_id="<r1@example.org>", kind="receipt", to=["w@example.org"],
                  subject="Re: hi", body="Done", queued_at=now, next_attempt_at=now)
    database.execute_sql("PRAGMA busy_timeout=100")     # a lock "held too long" comes sooner
    sink = LockingSink(game.db).start()
    try:
        sender = outbound.Sender({"host": "127.0.0.1", "port": sink.port}, game_config)
        sender.send_due()
        sender.send_due()                                # a second round sends nothing more
        (row,) = Outbox.select()
        assert row.state == "sent" and row.sent_at is not None
        assert len(sink.wait_for(1)) == 1
        assert [m["Message-ID"] for _, _, m in sink.messages] == ["<r1@example.org>"]
    finally:
        sink.stop()
        close_database()
