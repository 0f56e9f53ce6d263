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


def test_joining_twice_is_refused(two_players):
    receipt = unchanged(two_players, "I join as Ais the Second", sender="ais523@example.org")
    assert "Refused: you are already a Player, as Ais523 (Rule 4E4)" in receipt


def test_a_taken_name_is_refused_whatever_its_case(two_players):
    receipt = unchanged(two_players, "I join as WOOBLE.", sender="someone@example.org")
    assert "Refused" in receipt and "already taken" in receipt and "(Rule 4E4)" in receipt


def test_joining_without_a_name_is_refused(two_players):
    receipt = unchanged(two_players, "I want to join the game", sender="someone@example.org")
    assert "must give the name" in receipt and "(Rule 4E4)" in receipt


def test_a_negative_amount_is_refused(two_players):
    receipt = unchanged(two_players, "I give m-5 to Wooble", sender="ais523@example.org")
    assert "cannot be less than zero" in receipt and "(Rule 4E33)" in receipt


def test_an_unknown_amount_is_refused(two_players):
    receipt = unchanged(two_players, "I give some mackerel to Wooble", sender="ais523@example.org")
    assert "cannot read 'some mackerel' as an amount" in receipt and "(Rule 4E33)" in receipt


def test_an_unknown_currency_is_refused(two_players):
    receipt = unchanged(two_players, "I give 5 bananas to Wooble", sender="ais523@example.org")
    assert "'bananas' is not a currency" in receipt and "(Rule 4E33)" in receipt


def test_giving_more_than_one_has_is_refused(two_players):
    receipt = unchanged(two_players, "I give m51 to Wooble", sender="ais523@example.org")
    assert "Refused: Ais523 has m50, less than m51 (Rule 4E33)" in receipt


def test_giving_to_nobody_is_refused(two_players):
    receipt = unchanged(two_players, "I give m5 to Nobody", sender="ais523@example.org")
    assert "there is no Player named 'Nobody' (Rule 4E33)" in receipt


def test_a_non_player_cannot_act(two_players):
    receipt = unchanged(two_players, "I give m5 to Wooble", sender="stranger@example.org")
    assert "only Players can do this" in receipt and "(Rule 4E7)" in receipt


def test_exchanging_more_points_than_one_has_is_refused(two_players):
    receipt = unchanged(two_players, "I exchange 1 point for mackerel", sender="ais523@example.org")
    assert "fewer than 1 (Rule 4E33)" in receipt


def test_a_refused_action_does_not_stop_the_next_one(two_players):
    receipt = two_players.post("ais523@example.org",
                               "I give m500 to Wooble.\nI give m20 to Wooble.",
                               "2008-09-01T12:00:00Z")
    assert receipt.index("Refused") < receipt.index("Done")
    assert two_players.players()["Wooble"]["mackerel"] == 70
