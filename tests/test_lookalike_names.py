"""Issue 12, item 6: names that look alike are one name (Rule 4E4, "a uniquely
identifying name"): normalised (NFKC, no invisible or bidi characters), refused
with control characters, and refused when confusable (Unicode TR 39) with a
Player's name or the Beast's."""
import pytest

from bnomic.handlers import names

AT = "2008-09-01T10:00:00Z"

# (what it is, the name asked for)
LOOKALIKES = [
    ("Cyrillic A", "\u0410lice"),
    ("Cyrillic a, i and e", "\u0410l\u0456c\u0435"),
    ("fullwidth A", "\uff21lice"),
    ("all fullwidth", "\uff21\uff4c\uff49\uff43\uff45"),
    ("zero-width joiner", "Al\u200dice"),
    ("zero-width space", "Al\u200bice"),
    ("zero-width non-joiner and word joiner", "A\u200cli\u2060ce"),
    ("right-to-left override", "\u202eAlice"),
    ("left-to-right mark", "Alice\u200e"),
    ("combining acute", "Alice\u0301"),
    ("combining diaeresis", "A\u0308lice"),
    ("combining grapheme joiner", "Ali\u034fce"),
    ("Hangul filler", "Al\u3164ice"),
    ("capital I for l", "AIice"),
    ("digit 1 for l", "A1ice"),
    ("no-break space inside", "Alice\u00a0"),
]


def refused(receipt: str) -> bool:
    return "Done" not in receipt and "(Rule 4E4)" in receipt


@pytest.fixture
def alice(game):
    assert "Done" in game.post("alice@example.org", "I join as Alice", AT)
    return game


@pytest.mark.parametrize("what, name", LOOKALIKES, ids=[x[0] for x in LOOKALIKES])
def test_a_name_like_alice_is_refused(alice, what, name):
    receipt = alice.post("mallory@example.org", f"I join as {name}", "2008-09-01T11:00:00Z")
    assert refused(receipt), (what, receipt)
    assert "Alice" in receipt
    assert sorted(alice.players()) == ["Alice", "The Beast"]


@pytest.mark.parametrize("name", ["The Be\u0430st", "The B\u0435ast", "0CB", "\uff2fCB",
                                  "The\u200bBeast", "The Operantly Conditioned B\u0435ast"])
def test_a_name_like_the_beasts_is_refused(game, name):
    receipt = game.post("mallory@example.org", f"I join as {name}", AT)
    assert refused(receipt), receipt
    assert sorted(game.players()) == ["The Beast"]


@pytest.mark.parametrize("name", ["Al\x00ice", "Bo\x07b", "Ev\x1be", "Zal\u0301\u0302\u0303go"])
def test_control_characters_and_piled_marks_are_refused(game, name):
    receipt = game.post("mallory@example.org", f"I join as {name}", AT)
    assert refused(receipt) and "not a usable name" in receipt, receipt
    assert sorted(game.players()) == ["The Beast"]


def test_a_name_is_stored_normalised(game):
    assert "Done" in game.post("b@example.org", "I join as \uff22ob\u200b", AT)
    assert sorted(game.players()) == ["Bob", "The Beast"]


def test_different_names_and_a_rejoin_under_ones_own_name_are_fine(alice):
    for n, name in enumerate(["Alicia", "Bob", "J\u00fcrgen", "\u0410\u043d\u044f"]):
        receipt = alice.post(f"p{n}@example.org", f"I join as {name}", f"2008-09-01T11:0{n}:00Z")
        assert "Done" in receipt, (name, receipt)


def test_the_operator_cannot_add_a_lookalike_either(alice):
    code, _, err = alice.run("admin", "add-player", "\u0410lice", "m@example.org")
    assert code != 0 and "looks like 'Alice'" in err


def test_a_game_that_allows_lookalikes_still_replays(game):
    """Games made before the setting existed read names as they did then."""
    game.admin("setting", "limits.lookalike_names", '"allow"')
    game.post("alice@example.org", "I join as Alice", AT)
    assert "Done" in game.post("mallory@example.org", "I join as \u0410lice", "2008-09-01T11:00:00Z")
    before = game.digest()
    game.cli("rebuild")
    assert game.digest() == before
    assert len(game.players()) == 3


def test_the_name_length_limit_is_the_operators(game):
    game.admin("setting", "limits.name_length", "8")
    receipt = game.post("l@example.org", "I join as Longname9", AT)
    assert refused(receipt) and "1 to 8 characters" in receipt


def test_skeletons():
    assert names.confusable("\u0410lice", "Alice") and names.confusable("ALICE", "alice")
    assert names.confusable("Kim", "Kirn")            # TR 39: m looks like rn
    assert not names.confusable("Alice", "Alicia") and not names.confusable("Wooble", "Ais523")
    assert names.normalise("\u202eA\u200bl\u00a0 i ce\u2066") == "Al i ce"
    assert names.problem("Al\x00ice") and names.problem("\ue000x") and not names.problem("Jürgen")


# ------------------------------------------------- one-line fields: titles

def test_a_proposal_title_is_one_line_of_limited_length(game):
    game.post("wooble@example.org", "I join as Wooble", AT)
    long = "T" * 201
    r = game.post("wooble@example.org", f'I submit the following proposal, titled "{long}":\n'
                  "Repeal Rule 4E62\nEND PROPOSAL", "2008-09-01T11:00:00Z")
    assert "Done" not in r and "at most 200 characters" in r and "(Rule 4E15)" in r
    r = game.post("wooble@example.org", "I submit the following proposal:\nTitle: Eras\u202e\u200b!\n"
                  "Repeal Rule 4E62\nEND PROPOSAL", "2008-09-01T12:00:00Z")
    assert "Done" in r
    assert [p["title"] for p in game.show("proposals")] == ["Eras!"]


def test_a_proposal_title_from_the_subject_is_one_line(game, tmp_path):
    game.post("wooble@example.org", "I join as Wooble", AT)
    raw = (b"From: wooble@example.org\r\nTo: business@example.org\r\nMessage-ID: <t@example.org>\r\n"
           b"Subject: Proposal: =?utf-8?q?Eras=0D=0AX-Injected:_1?=\r\n\r\n"
           b"I submit the following proposal:\r\nRepeal Rule 4E62\r\nEND PROPOSAL\r\n")
    (tmp_path / "t.eml").write_bytes(raw)
    assert "Done" in game.cli("ingest", "--at", "2008-09-01T11:00:00Z", str(tmp_path / "t.eml"))
    assert [p["title"] for p in game.show("proposals")] == ["Eras X-Injected: 1"]


def test_an_old_game_without_the_keys_replays_and_can_turn_them_on(game):
    """A game created before [limits] existed has none of its keys in its stored
    configuration: it reads names as it did, and the operator can set them."""
    from bnomic.store import Setup
    from bnomic.store.db import open_database
    db = open_database(game.db)
    setup = Setup.get()
    setup.config = {k: v for k, v in setup.config.items() if k != "limits"}
    setup.save()
    db.close()
    game.post("alice@example.org", "I join as Alice", AT)
    assert "Done" in game.post("m1@example.org", "I join as \u0410lice", "2008-09-01T11:00:00Z")
    before = game.digest()
    game.cli("rebuild")
    assert game.digest() == before
    game.admin("setting", "limits.lookalike_names", "refuse")
    assert refused(game.post("m2@example.org", "I join as \uff21lice", "2008-09-01T12:00:00Z"))
    code, _, err = game.run("admin", "setting", "limits.no_such_key", "1")
    assert code != 0 and "no key" in err
