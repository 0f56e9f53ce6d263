"""Issue 15, part C: Subgames (Rule 4E82) and Victory Conditions (Rule 4E36),
played by mail through the real `bnomic` command line."""
from __future__ import annotations

import json

from conftest import make_mail  # noqa: F401  (the mail every test sends)


def mail(name: str) -> str:
    return f"{name.lower()}@example.org"


def setup(game, *names):
    for i, n in enumerate(names):
        game.join(n, f"2008-09-01T0{i + 1}:00:00Z")
    game.admin("clock", "on")


NO_TROPHY = """I create the following Subgame:
Name: Guess a Number
Joining: any Player joins by saying so on the public list; leaving likewise.
Ending: it ends when someone guesses the number the Gamemaster chose; that Player wins.
Communication: guesses are posted to the public list.
END SUBGAME
"""

FULL = NO_TROPHY.replace("END SUBGAME", "Trophy: m20\nEND SUBGAME")


def test_a_subgame_without_a_trophy_is_refused_then_created_opened_and_won(game):
    setup(game, "Wooble", "Bob")
    r = game.post(mail("Bob"), NO_TROPHY, "2008-09-01T10:00:00Z")
    assert "Done" not in r
    assert "does not specify a Trophy to be awarded to the winner(s)" in r and "(Rule 4E82)" in r
    assert game.show("subgames") == []

    r = game.post(mail("Bob"), FULL, "2008-09-01T11:00:00Z")
    assert "Done" in r and "Subgame 1" in r, r
    [s] = game.show("subgames")
    assert (s["number"], s["name"], s["status"], s["trophy"]) == (1, "Guess a Number", "Pending", "m20")

    r = game.post(mail("Bob"), "I open Subgame 1.", "2008-09-01T12:00:00Z")
    assert "only the Gamemaster" in r and "(Rule 4E82)" in r
    game.post(mail("Wooble"), "I take the Ministry of Games with a Reward of m10.", "2008-09-01T12:30:00Z")
    r = game.post(mail("Wooble"), "I open Subgame 1.", "2008-09-01T13:00:00Z")
    assert "Done" in r, r
    assert game.show("subgames")[0]["status"] == "Open"
    r = game.post(mail("Wooble"), "I open Subgame 1.", "2008-09-01T13:10:00Z")
    assert "is Open; only a Pending Subgame can be opened (Rule 4E82)" in r

    before = game.players()["Bob"]["mackerel"]
    r = game.post(mail("Wooble"), "I declare Bob the winner of Subgame 1.", "2008-09-01T14:00:00Z")
    assert "Done" in r, r
    [s] = game.show("subgames")
    assert (s["status"], s["winners"]) == ("Historical", ["Bob"])
    assert game.players()["Bob"]["mackerel"] == before + 20

    display = json.loads(game.cli("show", "display", "Gamemaster", "--json"))["text"]
    assert "Subgame 1: Guess a Number (Historical)" in display and "Won by Bob" in display
    assert "keeps this display by hand" not in display

    played = game.digest()
    game.cli("rebuild")
    assert game.digest() == played


def test_a_trophy_bnomic_cannot_read_is_an_obligation_on_the_gamemaster(game):
    setup(game, "Wooble", "Bob")
    game.post(mail("Wooble"), "I take the Ministry of Games with a Reward of m10.", "2008-09-01T09:00:00Z")
    body = FULL.replace("Trophy: m20", "Trophy: a golden hat, drawn by the Gamemaster")
    assert "Done" in game.post(mail("Bob"), body, "2008-09-01T10:00:00Z")
    game.post(mail("Wooble"), "I open Subgame 1.", "2008-09-01T11:00:00Z")
    r = game.post(mail("Wooble"), "I declare Bob the winner of Subgame 1.", "2008-09-01T12:00:00Z")
    assert "Done" in r
    events = [e["summary"] for e in game.show("events") if e["kind"] == "obligation"]
    assert any("award the Trophy of Subgame 1" in e and "golden hat" in e for e in events), events


def test_a_trophy_in_the_change_language_names_the_winner(game):
    setup(game, "Wooble", "Bob")
    game.post(mail("Wooble"), "I take the Ministry of Games with a Reward of m10.", "2008-09-01T09:00:00Z")
    body = FULL.replace("Trophy: m20", "Trophy: Set the points of the winner to 7")
    assert "Done" in game.post(mail("Bob"), body, "2008-09-01T10:00:00Z")
    game.post(mail("Wooble"), "I open Subgame 1.", "2008-09-01T11:00:00Z")
    game.post(mail("Wooble"), "I declare Bob the winner of Subgame 1.", "2008-09-01T12:00:00Z")
    assert game.players()["Bob"]["points"] == 7


def test_every_missing_part_is_named(game):
    setup(game, "Wooble")
    r = game.post(mail("Wooble"), "I create the following Subgame:\nName: Nothing much\nEND SUBGAME",
                  "2008-09-01T10:00:00Z")
    for what in ("how players may join or leave", "a way for the Subgame to end",
                 "a means of communication", "a Trophy"):
        assert what in r, r
    assert "does not have a name" not in r


def test_a_victory_condition_is_created_in_the_change_language_and_displayed(game):
    setup(game, "Wooble", "Bob")
    law = json.loads(game.cli("show", "display", "Rulekeeper", "--json"))["text"]
    assert "VICTORY CONDITIONS (0)" in law and "none" in law.split("VICTORY CONDITIONS")[1]
    body = ('I submit the following Tweak:\n'
            'Create a Victory Condition titled "Rich" with text: {{\n'
            'A Player with m1000 or more wins the game.\n}}\n'
            'END TWEAK\nI intend to activate Tweak 1 without objection.')
    assert "Tweak 1" in game.post(mail("Wooble"), body, "2008-09-01T10:00:00Z")
    game.tick("2008-09-04T00:00:00Z")
    r = game.post(mail("Wooble"), "I activate Tweak 1.", "2008-09-04T10:00:00Z")
    assert "Done" in r, r
    law = json.loads(game.cli("show", "display", "Rulekeeper", "--json"))["text"]
    assert "VICTORY CONDITIONS (1)" in law
    assert "Victory Condition 1: Rich (created by Tweak 1)" in law
    assert "A Player with m1000 or more wins the game." in law
    played = game.digest()
    game.cli("rebuild")
    assert game.digest() == played


def test_the_change_language_reads_victory_conditions_and_awards():
    from bnomic.handlers import changes
    parsed = changes.parse('Create a Victory Condition with text: "The first to m999 wins."\n'
                           "Repeal Victory Condition 2\nAward m20 to Wooble\nGive 5 points to \"Ais 523\"")
    assert [c.kind for c in parsed.changes] == ["create_victory_condition", "repeal_victory_condition",
                                                "award", "award"]
    assert parsed.changes[0].args == {"title": "", "text": "The first to m999 wins."}
    assert parsed.changes[1].args == {"number": 2}
    assert parsed.changes[3].args["award"] == "5 points" and not parsed.prose


def test_a_subgame_is_named_by_its_name(game):
    """Rule 4E82's Subgames have a Name: "I open Guess a Number" opens it, as "Subgame 1" does."""
    setup(game, "Wooble", "Bob")
    game.post(mail("Bob"), FULL, "2008-09-01T11:00:00Z")
    game.post(mail("Wooble"), "I take the Ministry of Games with a Reward of m10.", "2008-09-01T12:30:00Z")
    r = game.post(mail("Wooble"), "Deal me in: I open Guess a Number.", "2008-09-01T13:00:00Z")
    assert "Done" in r, r
    assert game.show("subgames")[0]["status"] == "Open"
    r = game.post(mail("Wooble"), "I declare Bob the winner of Guess a Number.", "2008-09-01T14:00:00Z")
    assert "Done" in r, r
    assert game.show("subgames")[0]["winners"] == ["Bob"]
    played = game.digest()
    game.cli("rebuild")
    assert game.digest() == played
