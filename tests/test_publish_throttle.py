"""Rule 4E50's displays, published by bnomic for a minister who leaves that
duty to it: a changed display goes to the list at most once in
`[displays] min_interval_minutes` (issue 14, item 7: the throttle's behaviour).
publish.publish_changed is the function the daemon calls every minute; here it
is called with the times it would be called at, on a real game file."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from bnomic.handlers.context import game_config
from bnomic.mailer import publish
from bnomic.store import Outbox, Publication, close_database, open_database, write_transaction

T0 = datetime(2008, 9, 1, 12, tzinfo=timezone.utc)


def _publish(game, now: datetime) -> list[str]:
    open_database(game.db)
    try:
        with write_transaction():
            return publish.publish_changed(game_config(), now)
    finally:
        close_database()


def _registrar_mails(game) -> list[str]:
    return [r["body"] for r in game.show_outbox()
            if r["kind"] == "display" and "Registrar" in r["subject"]]


def test_a_changed_display_waits_for_the_interval(game):
    game.join("Wooble", "2008-09-01T09:00:00Z")
    game.post("wooble@example.org", "I become the Registrar.", "2008-09-01T10:00:00Z")
    assert _publish(game, T0) == ["Society"]                         # first: at once
    assert _publish(game, T0 + timedelta(hours=5)) == []             # unchanged: never again
    game.join("Ais523", "2008-09-01T13:00:00Z")                      # the display changes
    assert _publish(game, T0 + timedelta(minutes=10)) == []          # within the 60 minutes
    assert _publish(game, T0 + timedelta(minutes=59)) == []
    assert _publish(game, T0 + timedelta(minutes=60)) == ["Society"]  # the interval is over
    mails = _registrar_mails(game)
    assert len(mails) == 2 and "Ais523" not in mails[0] and "Ais523" in mails[1]


def test_the_interval_is_the_games_setting(game):
    game.admin("setting", "displays.min_interval_minutes", "5")
    game.join("Wooble", "2008-09-01T09:00:00Z")
    game.post("wooble@example.org", "I become the Registrar.", "2008-09-01T10:00:00Z")
    assert _publish(game, T0) == ["Society"]
    game.join("Ais523", "2008-09-01T13:00:00Z")
    assert _publish(game, T0 + timedelta(minutes=4)) == []
    assert _publish(game, T0 + timedelta(minutes=5)) == ["Society"]


def test_a_display_its_minister_keeps_is_not_published(game):
    """Rule 4E45: a minister who takes the duty back publishes it himself."""
    game.join("Wooble", "2008-09-01T09:00:00Z")
    game.post("wooble@example.org", "I become the Registrar.", "2008-09-01T10:00:00Z")
    r = game.post("wooble@example.org", "I take back the duty to keep my Public Display",
                  "2008-09-01T10:30:00Z")
    assert "Done (Rule 4E45)" in r, r
    assert _publish(game, T0) == []
