"""Issue 12, items 3 and 5: nobody switches the game off, and no reply
becomes backscatter. Real SQLite files, the real `bnomic` command line, and
the daemon's own engine step (`runner.process_pending(emit=True)`) and
publishing step (`Daemon.publish`), in process."""
from datetime import datetime, timedelta, timezone

import pytest

from conftest import make_mail
from bnomic.handlers.context import game_config
from bnomic.mailer import inbound, publish, receipts, runner
from bnomic.mailer.daemon import Daemon
from bnomic.store import Outbox, Subscription, open_database, state_digest, write_transaction

LIST = "business@example.org"
PROCESSOR = "bnomic@example.org"


def at(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@pytest.fixture
def listed(game):
    """A game with a list and a processor address, and one player, Wooble."""
    game.admin("setting", "addresses.processor", f'"{PROCESSOR}"')
    game.admin("setting", "addresses.public_fora", f'["{LIST}"]')
    game.admin("setting", "displays.min_interval_minutes", "0")
    game.join("Wooble", "2008-09-01T09:00:00Z", address="wooble@example.org")
    return game


def deliver(game, raw: bytes, when: str, envelope_from=None) -> None:
    """What the daemon does with a mail: store it (as LMTP would), then its engine
    applies it and queues what it causes."""
    open_database(game.db)
    inbound.store_raw(raw, source="lmtp", at=at(when), envelope_from=envelope_from)
    runner.process_pending(emit=True)


def rows(kind=None, to=None):
    q = Outbox.select().order_by(Outbox.id)
    return [r for r in q if (kind is None or r.kind == kind) and (to is None or r.to == [to])]


# ------------------------------------------------------- item 3: the switch-off

def test_a_forged_digest_request_from_the_list_cannot_stop_the_lists_mail(listed):
    game = listed
    # the forgery: "digest weekly" From the list's own address, to the processor
    game.post(LIST, "digest weekly", "2008-09-01T10:00:00Z", to=PROCESSOR, subject="digest weekly")
    open_database(game.db)
    assert not Subscription.select().where(Subscription.address == LIST).exists()
    (refused,) = game.mails()[-1]["outcomes"]
    assert refused["accepted"] is False and refused["rule"] == "4E6"
    game.post("wooble@example.org", "I become the Registrar", "2008-09-01T11:00:00Z")
    open_database(game.db)
    Daemon({}, game.db).publish()                   # sets the digests' marks; the display
    game.post("ais@example.org", "I join as Ais523", "2008-09-01T12:00:00Z")
    game.next_nweek()
    open_database(game.db)
    Daemon({}, game.db).publish()                   # the nweek's summary, the changed display
    to_list = rows(to=LIST)
    summaries = [r for r in to_list if r.kind == "digest"]
    assert [r.subject for r in summaries] == ["[B Nomic] Summary of nweek 1"]
    displays = [r for r in to_list if r.kind == "display"]
    assert len(displays) == 2 and "Ais523" in displays[1].body


def test_an_old_subscription_of_the_list_no_longer_breaks_publishing(listed):
    """A database that already holds the list's (or the processor's) subscription."""
    game = listed
    open_database(game.db)
    now = at("2008-09-01T10:00:00Z")
    with write_transaction():
        for address in (LIST, PROCESSOR, "stranger@example.org", "wooble@example.org"):
            Subscription.create(address=address, period="weekly", since=now)
        publish.send_digests(game_config(), now)
    game.next_nweek()
    open_database(game.db)
    with write_transaction():
        publish.send_digests(game_config(), now + timedelta(days=14))
    assert sorted(r.to[0] for r in rows("digest")) == [LIST, "wooble@example.org"]


def test_digests_belong_to_players_and_need_a_verified_sender(listed):
    game = listed
    game.admin("setting", "auth.policy", '"dkim"')
    game.admin("setting", "auth.authserv_id", '"mx.example.org"')
    r = game.post("wooble@example.org", "digest daily", "2008-09-01T10:00:00Z", to=PROCESSOR)
    assert "Refused" in r and "Rule 4E7" in r
    ok = {"Authentication-Results": "mx.example.org; dmarc=pass header.from=example.org"}
    r = game.post("wooble@example.org", "digest daily", "2008-09-01T10:05:00Z", to=PROCESSOR,
                  headers=ok)
    assert "Done: digest daily for wooble@example.org" in r
    r = game.post("nobody@example.org", "digest daily", "2008-09-01T10:10:00Z", to=PROCESSOR,
                  headers=ok)
    assert "Refused" in r and "no Player posts from nobody@example.org" in r
    r = game.post(PROCESSOR, "digest daily", "2008-09-01T10:15:00Z", to=PROCESSOR, headers=ok)
    assert "Refused" in r
    open_database(game.db)
    assert [s.address for s in Subscription.select()] == ["wooble@example.org"]


# ---------------------------------------------------- item 5: no backscatter

BOUNCE = dict(envelope_from="")
LOOPED = dict(headers={"X-Loop": PROCESSOR})


@pytest.mark.parametrize("sender, kw, envelope_from, expected", [
    ("wooble@example.org", {}, "", 0),                       # a bounce (null envelope sender)
    ("wooble@example.org", LOOPED, None, 0),                 # our own X-Loop
    ("wooble@example.org", {"headers": {"Auto-Submitted": "auto-replied"}}, None, 0),
    ("stranger@example.org", {}, None, 0),                   # not a Player: no display
    ("wooble@example.org", {}, None, 10),                    # a player: the hourly cap (10)
])
def test_a_hundred_display_requests(listed, sender, kw, envelope_from, expected):
    game = listed
    game.post("wooble@example.org", "I become the Registrar", "2008-09-01T09:30:00Z")
    open_database(game.db)
    before = len(rows())
    t = at("2008-09-01T10:00:00Z")
    for i in range(100):
        raw = make_mail(sender, "Please send the Registrar's display.", to=PROCESSOR,
                        subject="display please", **kw)
        open_database(game.db)
        inbound.store_raw(raw, source="lmtp", at=t + timedelta(seconds=i),
                          envelope_from=envelope_from)
    runner.process_pending(emit=True)
    new = rows()[before:]
    assert len([r for r in new if r.kind == "display"]) == expected
    assert all(r.to == [sender] for r in new)
    assert len(new) <= 10                                       # refusals are capped too
    if sender.startswith("stranger"):
        assert "only Players can ask this of bnomic" in new[0].body and "(Rule 4E50)" in new[0].body


def test_the_daily_cap_counts_every_reply_to_one_sender(listed):
    game = listed
    game.admin("setting", "receipts.daily_cap", "3")
    game.post("wooble@example.org", "I become the Registrar", "2008-09-01T09:30:00Z")
    for i, body in enumerate(["Please send the Registrar's display.", "digest weekly",
                              "I give m1 to The Beast", "Please send the Registrar's display."]):
        to = LIST if body.startswith("I give") else PROCESSOR
        deliver(game, make_mail("wooble@example.org", body, to=to), f"2008-09-01T1{i}:00:00Z")
    new = [r for r in rows() if r.entry is not None and r.to == ["wooble@example.org"]
           and r.queued_at >= at("2008-09-01T10:00:00Z")]
    assert [r.kind for r in new] == ["display", "receipt", "receipt"]
    assert "Done: digest weekly for wooble@example.org" in new[1].body
    assert "last receipt bnomic will send to you today (3 a day)" in new[2].body
    # the next UTC day the replies resume
    from bnomic.mailer import parse
    mail = parse.parse(make_mail("wooble@example.org", "hello", to=PROCESSOR))
    last = new[-1].queued_at
    why = receipts.may_reply(mail, None, "wooble@example.org", game_config(), last)
    assert why == "the daily cap of 3 replies for mail from wooble@example.org"
    tomorrow = last.replace(hour=0, minute=0) + timedelta(days=1)
    assert receipts.may_reply(mail, None, "wooble@example.org", game_config(), tomorrow) is None


def test_the_hourly_cap_per_recipient_covers_receipts_to_the_list(listed):
    game = listed
    game.admin("setting", "receipts.to", '"list"')
    for i in range(12):                 # twelve senders, one receipt each, all to the list
        deliver(game, make_mail(f"p{i}@example.org", f"I join as P{i}"),
                f"2008-09-01T10:{i:02}:00Z")
    to_list = [r for r in rows("receipt") if r.to == [LIST]]
    assert len(to_list) == 10                                      # [receipts] hourly_cap
    from bnomic.mailer import parse
    mail = parse.parse(make_mail("q@example.org", "I join as Q"))
    last = to_list[-1].queued_at
    why = receipts.may_reply(mail, None, LIST, game_config(), last)
    assert why == f"the hourly cap of 10 replies to {LIST}"
    later = to_list[0].queued_at + timedelta(hours=1, seconds=1)
    assert receipts.may_reply(mail, None, LIST, game_config(), later) is None


def test_requests_are_answered_privately_even_with_receipts_to_the_list(listed):
    game = listed
    game.admin("setting", "receipts.to", '"list"')
    deliver(game, make_mail("wooble@example.org", "digest daily", to=PROCESSOR),
            "2008-09-01T10:00:00Z")
    deliver(game, make_mail("stranger@example.org", "send the Registrar's display",
                            to=PROCESSOR), "2008-09-01T10:01:00Z")
    assert [r.to for r in rows()] == [["wooble@example.org"], ["stranger@example.org"]]


def test_no_reply_to_an_unverified_sender_under_dkim(listed, caplog):
    caplog.set_level("INFO", logger="bnomic")
    game = listed
    game.admin("setting", "auth.policy", '"dkim"')
    game.admin("setting", "auth.authserv_id", '"mx.example.org"')
    for body, to, subject in [("I give m1 to The Beast", LIST, "actions"),
                              ("I give m1 to The Beast", PROCESSOR, "preview"),
                              ("Please send the Registrar's display.", PROCESSOR, "display"),
                              ("digest daily", PROCESSOR, "digest")]:
        deliver(game, make_mail("wooble@example.org", body, to=to, subject=subject),
                "2008-09-01T10:00:00Z")
        outcome = game.mails()[-1]["outcomes"][0]
        assert outcome["accepted"] is False or subject == "preview", outcome
    assert rows() == []
    assert "no receipt to wooble@example.org: an unverified sender" in caplog.text


def test_may_reply_is_one_plain_function(listed):
    from bnomic.mailer import parse
    game = listed
    open_database(game.db)
    config = game_config()
    now = at("2008-09-01T10:00:00Z")
    ok = parse.parse(make_mail("wooble@example.org", "hello"))
    assert receipts.may_reply(ok, "wooble@example.org", "wooble@example.org", config, now) is None
    assert "bounce" in receipts.may_reply(ok, "", "wooble@example.org", config, now)
    assert receipts.may_reply(ok, None, PROCESSOR, config, now)
    from_list = parse.parse(make_mail(LIST, "hello"))
    assert receipts.may_reply(from_list, None, LIST, config, now)
    # an address no mail can be built for is refused here, not queued (found by bench/fuzz.py)
    assert "not a plain mail address" in receipts.may_reply(ok, None, "x" * 65 + "@example.org",
                                                            config, now)


def test_display_requests_answered_live_replay_to_the_same_digest(listed):
    game = listed
    game.post("wooble@example.org", "I become the Registrar", "2008-09-01T09:30:00Z")
    deliver(game, make_mail("wooble@example.org", "Please send the Registrar's display.",
                            to=PROCESSOR), "2008-09-01T10:00:00Z")
    assert rows()[-1].kind == "display"
    before = game.digest()
    game.cli("rebuild")
    assert game.digest() == before


@pytest.mark.parametrize("text, names", [
    ("Please send the Registrar's display.", ["Registrar"]),
    ("send me the Ministry of Society public display please", ["Ministry of Society"]),
    ("show us the Chairman’s display", ["Chairman"]),
    ("send the Registrar's\ndisplay", ["Registrar"]),
    ("send it\nplease post a Herald display and mail the Chairman's display", ["Herald", "Chairman"]),
    ("I give m5 to Wooble\nthe display is wrong", []),
    ("send display", []),
])
def test_display_requests_are_read_in_one_pass(text, names):
    assert publish.requested(text) == names
    assert len(publish.requested("send me " * 5000 + "send the Registrar display")) == 1
