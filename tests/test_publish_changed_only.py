"""The daemon publishes only the displays whose data changed (issue 16, part E):
a display none of whose tables was written since it was last gathered (and
found published) is not gathered again. Played as the daemon plays it: one
connection kept open, mail stored and applied by the engine, publish_changed
after each batch; what the display reads is seen in SQLite's own statement trace."""
from __future__ import annotations

import hashlib
import sqlite3
from datetime import datetime, timedelta, timezone

from bnomic.handlers.context import Context, game_config
from bnomic.mailer import inbound, publish, runner
from bnomic.store import Game as GameRow, Publication, close_database, database, open_database, write_transaction

from conftest import make_mail

T0 = datetime(2008, 9, 1, 12, tzinfo=timezone.utc)


class Daemon:
    """The engine and the publisher on one open connection, with a trace of the
    statements SQLite runs."""

    def __init__(self, game):
        open_database(game.db)
        self.statements: list[str] = []
        database.connection().set_trace_callback(self.statements.append)

    def mail(self, sender: str, body: str, at: datetime) -> None:
        inbound.store_raw(make_mail(sender, body), source="test", at=at)
        runner.process_pending()

    def publish(self, now: datetime) -> tuple[list[str], list[str]]:
        """What was published, and the statements publishing ran."""
        del self.statements[:]
        with write_transaction():
            published = publish.publish_changed(game_config(), now)
        return published, list(self.statements)

    def close(self) -> None:
        database.connection().set_trace_callback(None)
        close_database()


def reads(statements: list[str], table: str) -> bool:
    return any(s.lstrip().upper().startswith("SELECT") and f'FROM "{table}"' in s for s in statements)


def test_a_batch_of_payments_does_not_gather_the_chairmans_display(game):
    for i, name in enumerate(["Alice", "Bob", "Carol"]):
        game.join(name, f"2008-09-01T0{i + 1}:00:00Z")
    d = Daemon(game)
    try:
        d.mail("alice@example.org", "I become the Chairman", T0)
        d.mail("bob@example.org", "I become the Registrar", T0 + timedelta(minutes=1))
        d.mail("carol@example.org", 'I submit the following proposal, titled "Fish":\n'
               "Players shall like fish.\nEND PROPOSAL", T0 + timedelta(minutes=2))
        published, _ = d.publish(T0 + timedelta(minutes=3))
        assert set(published) == {"Change", "Society"}
        # a batch of payments: the Registrar's display changes, the Chairman's is not even read
        d.mail("alice@example.org", "I give m5 to Bob", T0 + timedelta(hours=2))
        d.mail("bob@example.org", "I give m1 to Carol", T0 + timedelta(hours=2, minutes=1))
        published, ran = d.publish(T0 + timedelta(hours=2, minutes=2))
        assert published == ["Society"]
        assert not reads(ran, "proposal") and reads(ran, "player")
        # nothing at all happened: nothing gathered
        published, ran = d.publish(T0 + timedelta(hours=2, minutes=3))
        assert published == [] and not reads(ran, "proposal") and not reads(ran, "address")
        # a new proposal: the Chairman's display is gathered and published again
        d.mail("bob@example.org", 'I submit the following proposal, titled "Chips":\n'
               "Players shall like chips.\nEND PROPOSAL", T0 + timedelta(hours=3))
        published, ran = d.publish(T0 + timedelta(hours=4))
        assert published == ["Change"] and reads(ran, "proposal")
    finally:
        d.close()


def test_another_connections_commit_gathers_every_display_again(game):
    game.join("Alice", "2008-09-01T01:00:00Z")
    d = Daemon(game)
    try:
        d.mail("alice@example.org", "I become the Registrar", T0)
        assert d.publish(T0 + timedelta(minutes=1))[0] == ["Society"]
        assert not reads(d.publish(T0 + timedelta(minutes=2))[1], "address")
        other = sqlite3.connect(game.db)                # another connection (another process)
        other.execute("UPDATE player SET mackerel = mackerel + 7")
        other.commit()
        other.close()
        published, ran = d.publish(T0 + timedelta(hours=2))
        assert published == ["Society"] and reads(ran, "address")
    finally:
        d.close()


def test_what_is_not_gathered_is_what_gathering_would_find(game):
    """On a real game played through two nweeks of mail and midnights: each time a
    display is passed over, its content is the one last published."""
    names = ["Alice", "Bob", "Carol", "Dave"]
    for i, name in enumerate(names):
        game.join(name, f"2008-09-01T0{i + 1}:00:00Z")
    game.admin("clock", "on")
    d = Daemon(game)
    steps = [("alice@example.org", "I become the Chairman"), ("bob@example.org", "I become the Registrar"),
             ("carol@example.org", "I assign the Ministry of Time to myself with a Reward of m40"),
             ("dave@example.org", "I assign the Ministry of Law to myself with a Reward of m40"),
             ("alice@example.org", 'I submit the following proposal, titled "Fish":\n'
                                   "Alice gains m5.\nEND PROPOSAL"),
             ("bob@example.org", "I give m3 to Carol"), ("carol@example.org", "I give m1 to Dave"),
             ("dave@example.org", "I intend to cause the Beast to give m5 to Bob without objection"),
             ("alice@example.org", "I vote FOR on all"), ("bob@example.org", "I vote FOR on all"),
             ("carol@example.org", "I vote AGAINST on all"), ("dave@example.org", "I exchange 1 point for mackerel")]
    try:
        at = T0
        skipped = 0
        for k in range(40):
            sender, body = steps[k % len(steps)]
            at += timedelta(hours=9)
            d.mail(sender, body, at)
            if k % 3 == 0:
                runner.advance_to(at + timedelta(hours=1))
            published, _ = d.publish(at + timedelta(hours=2))
            with write_transaction():
                ctx = Context(GameRow.get().now, "command")
                for row in Publication.select():
                    if row.name in published:
                        continue
                    text = publish.display_text(ctx, row.name)
                    digest = hashlib.sha256(publish._content(text).encode()).hexdigest()
                    if (id(database.obj), row.name) in publish._GATHERED:
                        skipped += 1
                        assert digest == row.digest, (k, row.name)
        assert skipped > 20
    finally:
        d.close()
