"""Digests: "digest daily|weekly|off" to the processor; the nweek's summary to the list."""
from datetime import datetime, timedelta, timezone

from bnomic.handlers.context import game_config
from bnomic.mailer import publish
from bnomic.store import Outbox, Subscription, open_database, write_transaction


def at(text):
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


def test_digests(game):
    game.admin("setting", "addresses.processor", '"bnomic@example.org"')
    game.join("Wooble", "2008-09-01T09:00:00Z")
    r = game.post("wooble@example.org", "digest daily", "2008-09-01T09:30:00Z", to="bnomic@example.org",
                  subject="digest daily")
    assert "digest daily for wooble@example.org" in r
    game.join("Ais523", "2008-09-01T09:00:00Z", address="ais@example.org")
    game.join("Chuck", "2008-09-01T09:00:00Z")
    game.post("ais@example.org", "digest weekly please", "2008-09-01T09:30:00Z", to="bnomic@example.org")
    r = game.post("stranger@example.org", "digest weekly", "2008-09-01T09:30:00Z",
                  to="bnomic@example.org")
    assert "Refused: only Players can ask this of bnomic" in r and "(Rule 4E7)" in r
    game.post("chuck@example.org", "digest weekly", "2008-09-01T09:30:00Z", to="bnomic@example.org")
    game.post("chuck@example.org", "digest off", "2008-09-01T09:40:00Z", to="bnomic@example.org")
    open_database(game.db)
    assert {s.address: s.period for s in Subscription.select()} == {
        "wooble@example.org": "daily", "ais@example.org": "weekly"}
    with write_transaction():
        assert publish.send_digests(game_config(), at("2008-09-01T10:00:00")) == 0   # marks only
    game.post("wooble@example.org", "I give m5 to The Beast", "2008-09-01T12:00:00Z")
    open_database(game.db)
    with write_transaction():
        assert publish.send_digests(game_config(), at("2008-09-02T00:01:00")) == 1
    (daily,) = Outbox.select().where(Outbox.kind == "digest")
    assert daily.to == ["wooble@example.org"] and "Daily digest" in daily.subject
    assert "I give m5 to The Beast (Rule 4E33)" in daily.body and "THE CLOCK" in daily.body
    game.next_nweek()
    open_database(game.db)
    with write_transaction():
        assert publish.send_digests(game_config(), at("2008-09-02T00:01:00") + timedelta(days=14)) == 3
    summaries = [o for o in Outbox.select().where(Outbox.kind == "digest") if "Summary" in o.subject]
    assert sorted(o.to[0] for o in summaries) == ["ais@example.org", "bnomic@example.org"]
    assert summaries[0].subject == "[B Nomic] Summary of nweek 1"
