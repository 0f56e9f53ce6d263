"""Issue 11 item 7: which forum a mail reached is decided by its envelope first.
Mail sent only to bnomic's own address is private whatever its To: says."""
import pytest

from bnomic.mailer import inbound, runner
from bnomic.store import open_database
from conftest import Game, make_mail, recent

FORA = """[addresses]
processor = "bnomic@example.org"
public_fora = ["business@example.org"]
discussion_fora = ["discuss@example.org"]
"""


@pytest.fixture
def game(tmp_path):
    cfg = tmp_path / "game.toml"
    cfg.write_text(FORA)
    g = Game(tmp_path, start=recent(), config=str(cfg))
    open_database(g.db)
    return g


def outcome(game, msgid):
    (mail,) = [m for m in game.mails() if m["message_id"] == msgid]
    return mail["outcomes"][0]


def test_a_forged_list_header_sent_only_to_the_processor_is_not_public(game):
    raw = make_mail("w@example.org", "I join as Wooble", msgid="<forged@x>",
                    headers={"List-Id": "<business.example.org>"})        # To: the list, forged
    inbound.receive(raw, source="lmtp", envelope_from="w@example.org",
                    rcpt_tos=["bnomic@example.org"])
    runner.process_pending()
    assert "Wooble" not in game.players()
    o = outcome(game, "<forged@x>")
    assert not o["accepted"] and o["rule"] == "4E6" and "no Public Forum" in o["reason"]


def test_the_lists_copy_is_public(game):
    inbound.receive(make_mail("w@example.org", "I join as Wooble", msgid="<copy@x>"),
                    source="lmtp", envelope_from="business-bounces@example.org",
                    rcpt_tos=["bnomic+business@example.org"])
    runner.process_pending()
    assert "Wooble" in game.players()


@pytest.mark.parametrize("headers, public", [
    ({"Delivered-To": "bnomic@example.org"}, False),                   # IMAP: our MTA's header
    ({"X-Original-To": "bnomic@example.org", "Delivered-To": "bot@example.org"}, False),
    ({"X-Original-To": "bnomic+business@example.org"}, True),
    ({}, True),                                                         # an old archive: headers only
])
def test_imap_and_archives_read_the_topmost_delivery_headers(game, headers, public):
    raw = make_mail("w@example.org", "I join as Wooble", headers=headers)
    # our MTA prepends its headers: put them on top, with a forged one below
    head = b"".join(f"{k}: {v}\n".encode() for k, v in headers.items())
    raw = head + raw.replace(b"\n\n", b"\nDelivered-To: business@example.org\n\n", 1) if headers else raw
    inbound.store_raw(raw, source="imap")
    runner.process_pending()
    assert ("Wooble" in game.players()) is public


def test_a_game_created_before_the_envelope_rule_reads_as_it_did(game):
    """Replays stay exact: a game whose configuration lacks the key reads headers only."""
    from bnomic.store import Setup
    setup = Setup.get()
    setup.config["addresses"].pop("forum_by_envelope")
    Setup.update(config=setup.config).execute()
    inbound.receive(make_mail("w@example.org", "I join as Wooble"), source="lmtp",
                    rcpt_tos=["bnomic@example.org"])
    runner.process_pending()
    assert "Wooble" in game.players()


def test_what_bnomic_posts_to_the_list_carries_list_headers(game):
    from bnomic.config import Config
    from bnomic.mailer import outbound
    from bnomic.store import Outbox
    from bnomic.handlers.context import game_config
    now = inbound.wall_clock()
    to_list = Outbox.create(message_id="<n1@x>", kind="ballot", to=["business@example.org"],
                            subject="Ballot", body="...", queued_at=now)
    private = Outbox.create(message_id="<n2@x>", kind="receipt", to=["w@example.org"],
                            subject="Re: x", body="...", queued_at=now)
    config = game_config()
    msg = outbound.build(to_list, config)
    assert msg["List-Id"] == "B Nomic <business.example.org>"
    assert msg["List-Post"] == "<mailto:business@example.org>" and msg["List-Archive"] is None
    assert outbound.build(private, config)["List-Id"] is None
    archived = Config({**config.data, "addresses": {**config.data["addresses"],
                                                    "archive_url": "https://example.org/b/"}})
    assert outbound.build(to_list, archived)["List-Archive"] == "<https://example.org/b/>"
