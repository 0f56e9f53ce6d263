"""Issue 15, part C: a scheduled action that takes place sends its author a
receipt, threaded under the message that scheduled it (Rule 4E7)."""
from __future__ import annotations

from datetime import datetime, timezone


def queue(game, at):
    from bnomic.handlers.context import game_config
    from bnomic.mailer import publish
    from bnomic.store import close_database, open_database, write_transaction
    open_database(game.db)
    try:
        with write_transaction():
            first = publish.scheduled_receipts(game_config(), at)
            again = publish.scheduled_receipts(game_config(), at)
        from bnomic.store import Outbox
        rows = [{"to": r.to, "subject": r.subject, "in_reply_to": r.in_reply_to,
                 "references": r.references, "body": r.body}
                for r in Outbox.select().where(Outbox.kind == "receipt", Outbox.body.contains("scheduled an action"))
                .order_by(Outbox.id)]
        return first, again, rows
    finally:
        close_database()


def test_a_scheduled_action_that_fires_is_answered_in_its_thread(game):
    game.join("Alice", "2008-09-01T09:00:00Z")
    game.join("Bob", "2008-09-01T09:00:00Z")
    game.admin("clock", "on")
    r = game.post("alice@example.org", "On nday 3, I give m5 to Bob.\nOn nday 3, I give m500 to Bob.",
                  "2008-09-01T10:00:00Z", msgid="<plan@alice.example>", subject="gifts",
                  headers={"References": "<earlier@list.example>"})
    assert "scheduled for at the start of nday 3" in r
    game.tick("2008-09-03T00:00:00Z")
    first, again, rows = queue(game, datetime(2008, 9, 3, 0, 1, tzinfo=timezone.utc))
    assert (first, again) == (2, 0)
    assert len(rows) == 2
    done, refused = rows
    for row in rows:
        assert row["to"] == ["alice@example.org"]
        assert row["subject"] == "Re: gifts"
        assert row["in_reply_to"] == "<plan@alice.example>"
        assert row["references"] == "<earlier@list.example> <plan@alice.example>"
    assert "(scheduled) I give m5 to Bob" in done["body"] and "Done (Rule 4E33)" in done["body"]
    assert "(scheduled) I give m500 to Bob" in refused["body"] and "Refused:" in refused["body"]
    assert "(Rule 4E33)" in refused["body"]
    played = game.digest()
    game.cli("rebuild")
    assert game.digest() == played
