"""`bnomic outbox --retry ID` (issue 14, item 7: its behaviour): a row the
sender gave up on goes back to the queue and is then delivered, once, to a
real SMTP server; a row that was sent or is still queued is refused and left
alone."""
from __future__ import annotations

from datetime import datetime, timezone

from daemon import Sink
from servers import free_port

from bnomic.handlers.context import game_config
from bnomic.mailer import outbound
from bnomic.store import Outbox, close_database, open_database


def _row(game, message_id: str) -> Outbox:
    open_database(game.db)
    try:
        return Outbox.get(Outbox.message_id == message_id)
    finally:
        close_database()


def _send(game, port: int, **settings) -> int:
    open_database(game.db)
    try:
        return outbound.Sender({"host": "127.0.0.1", "port": port, **settings}, game_config).send_due()
    finally:
        close_database()


def test_a_failed_row_retried_is_delivered_once(game):
    open_database(game.db)
    now = datetime.now(timezone.utc)
    try:
        row = Outbox.create(message_id="<retry1@example.org>", kind="receipt", to=["w@example.org"],
                            subject="Re: hi", body="Done", queued_at=now, next_attempt_at=now)
    finally:
        close_database()
    # no server there, and one attempt allowed: the sender gives up
    assert _send(game, free_port(), max_attempts=1) == 0
    failed = _row(game, "<retry1@example.org>")
    assert failed.state == "failed" and failed.attempts == 1 and failed.last_error
    sink = Sink().start()
    try:
        assert _send(game, sink.port) == 0                      # failed rows are not due
        assert "queued again" in game.cli("outbox", "--retry", str(row.id))
        assert _row(game, "<retry1@example.org>").state == "queued"
        assert _send(game, sink.port) == 1
        assert [m["Message-ID"] for _, _, m in sink.wait_for(1)] == ["<retry1@example.org>"]
        sent = _row(game, "<retry1@example.org>")
        assert sent.state == "sent" and sent.attempts == 2
        # a sent row is not sent again
        code, _, err = game.run("outbox", "--retry", str(row.id))
        assert code == 1 and f"outbox row {row.id} is not failed or unknown" in err
        assert _send(game, sink.port) == 0 and len(sink.messages) == 1
        assert _row(game, "<retry1@example.org>").state == "sent"
    finally:
        sink.stop()


def test_a_queued_or_missing_row_is_refused(game):
    open_database(game.db)
    now = datetime.now(timezone.utc)
    try:
        row = Outbox.create(message_id="<retry2@example.org>", kind="receipt", to=["w@example.org"],
                            subject="Re: hi", body="Done", queued_at=now, next_attempt_at=now)
    finally:
        close_database()
    code, _, err = game.run("outbox", "--retry", str(row.id))
    assert code == 1 and "is not failed or unknown" in err
    assert _row(game, "<retry2@example.org>").state == "queued"
    code, _, err = game.run("outbox", "--retry", "999")
    assert code == 1 and "outbox row 999 is not failed or unknown" in err
