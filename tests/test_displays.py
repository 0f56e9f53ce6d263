"""Rule 4E50 displays, shown now and as of any past moment; Rules 4E39, 4E40."""
import json

import pytest


def setup_game(game):
    game.join("Wooble", "2008-09-01T09:00:00Z")
    game.post("ais@example.org", "I join as Ais523. I take the Registrar. I become the MetaMin.",
              "2008-09-01T10:00:00Z", msgid="<ais-joins@x>")
    game.post("wooble@example.org", "I give m20 to Ais523", "2008-09-01T11:00:00Z",
              msgid="<gift@x>")
    return game


def display(game, name, *extra):
    return game.cli("show", "display", name, *extra)


def test_the_registrars_display(game):
    text = display(setup_game(game), "the Registrar's display")
    assert text.startswith("PUBLIC DISPLAY OF THE MINISTRY OF SOCIETY (Registrar)\nMinister: Ais523\n")
    assert "Rule 4E4: the current Players" in text
    lines = {line.split()[0]: line for line in text.splitlines() if line.startswith(("Wooble", "Ais523"))}
    assert "m30" in lines["Wooble"] and "m70" in lines["Ais523"] and "ais@example.org" in lines["Ais523"]
    assert "Public:     none designated" in text


def test_the_metamins_display(game):
    setup_game(game)
    game.post("ais@example.org", "I hoist the Jolly Roger", "2008-09-01T12:00:00Z")
    text = display(game, "Kurt Gödel")
    assert "Society    Registrar    Ais523" in text and "Change     Chairman     Vacant" in text
    assert "performed by bnomic" in text
    assert "Jolly Roger: High (Find a helmet)" in text
    assert "This space intentionally left blank" in text


def test_the_doctors_display_lists_what_is_coming_in_order(game):
    setup_game(game)
    game.post("wooble@example.org", "On nday 3, I give m1 to Ais523. "
              "On 2008-09-01 at 18:00 UTC I give m2 to Ais523.", "2008-09-01T12:00:00Z")
    game.post("ais@example.org", 'I intend to change the Message of the nweek to "Hello, B" '
              "with support", "2008-09-01T12:30:00Z")
    text = display(game, "Doctor")
    assert "2008-09-02 00:00 UTC: the Clock is Off: the ndelay becomes 1" in text
    utc_at, nday3 = text.index("2008-09-01 18:00 UTC"), text.index("start of nday 3")
    assert utc_at < nday3
    assert "Ais523 intends to change the Message of the nweek" in text


def test_a_display_whose_objects_do_not_exist_yet(game):
    text = display(game, "Judge")
    assert "Rule 4E73: all Indictments and their outcomes." in text
    assert "There is nothing of this in the game yet." in text


def test_every_ministrys_display_is_one_bnomic_keeps():
    """Rule 4E50: since issue 15 bnomic keeps what every display shows (the Arbiter's
    Contracts, the Washerwoman's Socks, the Gamemaster's Subgames: their own tests),
    so no display says it is kept by hand."""
    from bnomic.config import defaults
    from bnomic.handlers import displays
    assert displays.BY_HAND == {}
    assert set(defaults()["ministries"]["order"]) == set(displays.GATHER)


def test_as_of_a_message_id_and_a_time(game):
    setup_game(game)
    game.tick("2008-09-05T00:00:00Z")
    then = display(game, "Registrar", "--as-of", "<ais-joins@x>")
    assert "Minister: Ais523" in then and "As of 2008-09-01 10:00 UTC" in then
    assert [l for l in then.splitlines() if l.startswith("Wooble")][0].split()[2] == "m50"
    before = display(game, "Registrar", "--as-of", "2008-09-01T09:30:00Z")
    assert "Minister: Vacant" in before and "Ais523" not in before
    clock = json.loads(game.cli("show", "clock", "--json", "--as-of", "2008-09-03T12:00:00Z"))
    assert clock["ndelay"] == 2 and clock["now"] == "2008-09-03T12:00:00Z"
    assert game.clock()["ndelay"] == 4                    # the game itself is untouched
    code, _, err = game.run("show", "display", "Registrar", "--as-of", "<nope@x>")
    assert code == 1 and "no message <nope@x>" in err


def test_the_threat_flag(game):
    setup_game(game)
    r = game.post("wooble@example.org", "I hoist the Jolly Roger", "2008-09-01T12:00:00Z")
    assert "only the Minister of Ministries" in r and "(Rule 4E40)" in r
    assert "Done" in game.post("ais@example.org", "I hoist the Polka Dots flag", "2008-09-01T12:00:00Z")
    r = game.post("ais@example.org", "I set the Threat Flag to Setting Orange", "2008-09-01T13:00:00Z")
    assert "already changed this nday (Rule 4E40)" in r
    game.admin("clock", "on")
    game.tick("2008-09-02T00:00:00Z")
    assert "Done" in game.post("ais@example.org", "I set the Threat Flag to Setting Orange",
                               "2008-09-02T01:00:00Z")
    r = game.post("ais@example.org", "I hoist Black Watch Plaid", "2008-09-03T01:00:00Z")
    assert "only in a State of Emergency" in r


def test_the_message_of_the_nweek_with_support(game):
    setup_game(game)
    game.post("ais@example.org", 'I intend to change the Message of the nweek to "Hello, B" with support',
              "2008-09-01T12:00:00Z")
    r = game.post("ais@example.org", 'I change the Message of the nweek to "Hello, B"', "2008-09-01T12:10:00Z")
    assert "only 0 Players support it so far" in r
    game.post("wooble@example.org", "I support intent #1", "2008-09-01T12:20:00Z")
    r = game.post("ais@example.org", 'I change the Message of the nweek to "Hello, B"', "2008-09-01T12:30:00Z")
    assert "Done (Rule 4E39)" in r
    assert "Hello, B" in display(game, "MetaMin")


def test_the_gamemasters_display_shows_the_subgames(game):
    """Rule 4E82 (issue 15, part C): bnomic keeps the Subgames, so the
    Gamemaster's display shows them, and says so when there are none."""
    game.join("Chuck", "2008-09-01T09:00:00Z")
    text = display(game, "Gamemaster")
    assert "Rule 4E82: the current Subgames." in text and "There are no Subgames yet." in text
    assert "keeps this display by hand" not in text
    game.post("chuck@example.org", "I create the following Subgame:\nName: Tag\nJoining: by mail\n"
              "Ending: the last one tagged\nCommunication: the list\nTrophy: 2 points\nEND SUBGAME",
              "2008-09-01T10:00:00Z")
    text = display(game, "Gamemaster")
    assert "SUBGAMES (1)" in text and "Subgame 1: Tag (Pending), created by Chuck" in text
    assert "Trophy: 2 points" in text
