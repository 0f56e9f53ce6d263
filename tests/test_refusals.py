"""Acceptance (issue 2): impossible actions are refused with a reason that cites
the rule, and nothing in the game changes."""
import pytest


@pytest.fixture
def two_players(game):
    game.join("Wooble", "2008-09-01T10:00:00Z")
    game.join("Ais523", "2008-09-01T10:05:00Z")
    return game


def unchanged(game, action, at="2008-09-01T12:00:00Z", sender="ais@example.org"):
    """Post `action`; assert the game's players and events did not change; return the receipt."""
    players, events = game.show("players"), game.show("events")
    receipt = game.post(sender, action, at)
    assert game.show("players") == players
    assert game.show("events") == events
    return receipt


@pytest.mark.parametrize("sender, action, expected", [
    # joining twice
    ("ais523@example.org", "I join as Ais the Second",
     ["Refused: you are already a Player, as Ais523 (Rule 4E4)"]),
    # a taken name, whatever its case
    ("someone@example.org", "I join as WOOBLE.", ["Refused", "already taken", "(Rule 4E4)"]),
    # joining without a name
    ("someone@example.org", "I want to join the game", ["missing: the name", "(Rule 4E4)"]),
    # a negative amount
    ("ais523@example.org", "I give m-5 to Wooble", ["cannot be less than zero", "(Rule 4E33)"]),
    # an unknown amount
    ("ais523@example.org", "I give some mackerel to Wooble",
     ["missing: the amount", "(Rule 4E33)"]),
    # an unknown currency
    ("ais523@example.org", "I give 5 bananas to Wooble",
     ["'bananas' is not a currency", "(Rule 4E33)"]),
    # giving more than one has
    ("ais523@example.org", "I give m51 to Wooble",
     ["Refused: Ais523 has m50, less than m51 (Rule 4E33)"]),
    # giving to nobody
    ("ais523@example.org", "I give m5 to Nobody",
     ["there is no Player or Corporation named 'Nobody' (Rule 4E33)"]),
    # a non-player acting
    ("stranger@example.org", "I give m5 to Wooble", ["only Players can do this", "(Rule 4E7)"]),
    # more points than one has
    ("ais523@example.org", "I exchange 1 point for mackerel", ["fewer than 1 (Rule 4E33)"]),
])
def test_refused_with_the_rule_and_nothing_changed(two_players, sender, action, expected):
    receipt = unchanged(two_players, action, sender=sender)
    for text in expected:
        assert text in receipt, receipt


def test_a_refused_action_does_not_stop_the_next_one(two_players):
    receipt = two_players.post("ais523@example.org",
                               "I give m500 to Wooble.\nI give m20 to Wooble.",
                               "2008-09-01T12:00:00Z")
    assert receipt.index("Refused") < receipt.index("Done")
    assert two_players.players()["Wooble"]["mackerel"] == 70
