"""Issue 11, items 3 and 4: `bnomic status` is a monitoring check. It shows
the engine's heartbeat and four checks, and exits 1 when the heartbeat is
stale, the backlog is old, outbox rows are stuck or unknown, or entries are
parked; an unknown row is never advised for a retry without saying it may
have arrived."""
import json
from datetime import datetime, timedelta, timezone

from bnomic.mailer import inbound, outbound
from bnomic.store import Entry, Message, Outbox, close_database, log, open_database

from conftest import make_mail


def status(game, *extra):
    code, out, err = game.run("status", "--json", *extra)
    assert code in (0, 1), err
    return code, json.loads(out)


def test_a_quiet_game_without_a_daemon_is_healthy(game):
    game.join("Wooble", "2008-09-01T10:00:00Z")
    code, s = status(game)
    assert code == 0 and s["healthy"] is True and s["engine_heartbeat"] is None
    assert set(s["checks"]) == {"engine", "backlog", "outbox", "parked"} and s["parked"] == []
    assert "healthy:        yes" in game.cli("status")


def test_each_check_fails_and_status_exits_1(game):
    game.join("Wooble", "2008-09-01T10:00:00Z")
    open_database(game.db)
    now = datetime.now(timezone.utc)
    # a heartbeat a minute old: the daemon's engine hung or died
    log.engine_heartbeat(now - timedelta(seconds=60), 4242)
    code, s = status(game)
    assert code == 1 and not s["healthy"] and not s["checks"]["engine"]["ok"]
    assert s["engine_heartbeat"]["pid"] == 4242 and s["engine_heartbeat"]["age_seconds"] >= 59
    log.engine_heartbeat(now, 4242)
    assert status(game)[0] == 0
    # a mail stored ten minutes ago and not processed
    _, entry = inbound.store_raw(make_mail("w@example.org", "I give m1 to The Beast"), source="test")
    Message.update(stored_at=now - timedelta(minutes=10)).where(Message.entry == entry.seq).execute()
    code, s = status(game)
    assert code == 1 and not s["checks"]["backlog"]["ok"] and f"#{entry.seq}" in s["checks"]["backlog"]["detail"]
    assert status(game, "--max-age", "3600")[0] == 0
    Entry.update(processed=True).where(Entry.seq == entry.seq).execute()
    # an outbox row "sending" for ten minutes, then one unknown after a restart
    row = Outbox.create(message_id="<r@x>", kind="receipt", to=["w@example.org"], subject="s",
                        body="b", queued_at=now, state="sending", attempts=1,
                        next_attempt_at=now - timedelta(minutes=10))
    code, s = status(game)
    assert code == 1 and "sending for over 300s (#%d)" % row.id in s["checks"]["outbox"]["detail"]
    outbound.recover_interrupted()
    code, s = status(game)
    assert code == 1 and "may have received" in s["checks"]["outbox"]["detail"]
    text = game.run("status")[1]
    assert "outbox:   FAILING" in text and "healthy:        NO" in text
    listed = json.loads(game.cli("outbox", "--json"))[0]
    assert listed["state"] == "unknown" and "may have received it" in listed["last_error"]
    out = game.cli("outbox", "--retry", str(row.id))
    assert "the recipient gets it twice" in out
    close_database()
