"""Rules 4E4 (joining, forfeiting, recruitment), 4E28 (Active, Vested),
4E17 (points never below 0), 4E33/4E34 (giving, exchanging, income)."""
import pytest

from bnomic.store import Player, open_database


def test_joining_sets_mackerel_active_and_address(game):
    receipt = game.post("w@example.org", "Hello!\nI wish to become a Player under the name Wooble.",
                        "2008-09-01T10:00:00Z")
    assert "Done (Rule 4E4)" in receipt
    p = game.players()["Wooble"]
    assert p == {"name": "Wooble", "addresses": ["w@example.org"], "points": 0,
                 "mackerel": 50, "active": True, "vested": False, "bouncing": []}


@pytest.mark.parametrize("recruiters, share", [
    (["Wooble"], 60), (["Wooble", "Ais523"], 30),
    (["Wooble", "Ais523", "Chuck"], 20), (["Wooble", "Ais523", "Chuck", "Dana",
                                            "Eve", "Fay", "Gus"], 8)])
def test_recruitment_bonus_is_split_evenly_and_fractions_destroyed(game, recruiters, share):
    for name in ["Wooble", "Ais523", "Chuck", "Dana", "Eve", "Fay", "Gus"]:
        game.join(name, "2008-09-01T09:00:00Z")
    names = ", ".join(recruiters[:-1]) + (" and " if len(recruiters) > 1 else "") + recruiters[-1]
    game.post("new@example.org", f"I join as Newbie, recruited by {names}.", "2008-09-01T10:00:00Z")
    players = game.players()
    for name in ["Wooble", "Ais523", "Chuck", "Dana", "Eve", "Fay", "Gus"]:
        assert players[name]["mackerel"] == 50 + (share if name in recruiters else 0)
    assert players["Newbie"]["mackerel"] == 50


def test_recruiters_in_a_separate_sentence_and_unknown_ones(game):
    game.join("Wooble", "2008-09-01T09:00:00Z")
    receipt = game.post("new@example.org", "I join as Newbie. I was recruited by Wooble and Zed.",
                        "2008-09-01T10:00:00Z")
    assert "no recruitment bonus for Zed" in receipt
    assert game.players()["Wooble"]["mackerel"] == 110


def test_forfeit_and_rejoin_only_after_the_next_nweek(game):
    game.join("Wooble", "2008-09-01T09:00:00Z", address="w@example.org")
    game.admin("clock", "on")
    game.post("w@example.org", "I give m20 to The Beast", "2008-09-01T10:00:00Z")
    assert "Done (Rule 4E4)" in game.post("w@example.org", "I forfeit the game.", "2008-09-01T11:00:00Z")
    assert "Wooble" not in game.players()
    # in the same nweek: refused
    r = game.post("w@example.org", "I join as Wooble", "2008-09-02T10:00:00Z")
    assert "you were a Player (Wooble) in nweek 1; you can join again from nweek 3 (Rule 4E4)" in r
    # nweek 2 (the next): still refused
    assert game.next_nweek()["nweek"] == 2
    assert "Refused" in game.post("w@example.org", "I join as Wooble", game.clock()["now"])
    # nweek 3: welcome back; the old mackerel (m30) is raised to m50 (Rule 4E34)
    assert game.next_nweek()["nweek"] == 3
    assert "Done" in game.post("w@example.org", "I join as Wooble", game.clock()["now"])
    assert game.players()["Wooble"]["mackerel"] == 50


def test_another_person_cannot_take_a_former_players_name(game):
    game.join("Wooble", "2008-09-01T09:00:00Z", address="w@example.org")
    game.post("w@example.org", "I forfeit", "2008-09-01T10:00:00Z")
    r = game.post("x@example.org", "I join as wooble", "2008-09-01T11:00:00Z")
    assert "already taken" in r


def test_remove_active_only_from_a_player_idle_this_and_last_nweek(game):
    game.join("Wooble", "2008-09-01T09:00:00Z")
    game.join("Ais523", "2008-09-01T09:00:00Z")
    game.admin("clock", "on")
    r = game.post("ais523@example.org", "I remove the Active property from Wooble", "2008-09-02T10:00:00Z")
    assert "Wooble performed a Game Action in nweek 1" in r and "(Rule 4E28)" in r
    game.next_nweek()                   # nweek 2: Wooble acted in the previous nweek
    assert "Refused" in game.post("ais523@example.org", "I deactivate Wooble", game.clock()["now"])
    assert game.next_nweek()["nweek"] == 3   # Wooble idle in nweeks 2 and 3
    assert game.players()["Wooble"]["mackerel"] == 100   # income in nweeks 2 and 3
    r = game.post("ais523@example.org", "I remove Wooble's Active property.", game.clock()["now"])
    assert "Done (Rule 4E28)" in r
    assert game.players()["Wooble"]["active"] is False
    assert game.players()["Ais523"]["active"] is True
    # the Horde earns no income (Rule 4E34)
    assert game.next_nweek()["nweek"] == 4
    assert game.players()["Wooble"]["mackerel"] == 100
    # and any game action makes Wooble Active again
    game.post("wooble@example.org", "I give m1 to Ais523", game.clock()["now"])
    assert game.players()["Wooble"]["active"] is True


def test_cannot_remove_ones_own_or_an_inactive_players_active(game):
    game.join("Wooble", "2008-09-01T09:00:00Z")
    r = game.post("wooble@example.org", "I remove the Active property from Wooble", "2008-09-01T10:00:00Z")
    assert "another Player" in r
    r = game.post("wooble@example.org", "I remove the active property of The Beast", "2008-09-01T10:00:00Z")
    assert "The Beast is not Active" in r


def test_vested_follows_voting_in_the_previous_nweek(game):
    game.join("Wooble", "2008-09-01T09:00:00Z")
    game.join("Ais523", "2008-09-01T09:00:00Z")
    open_database(game.db)
    # voting arrives with proposals (issue 6); here the record of it is set directly
    Player.update(last_voted_nweek=1).where(Player.name == "Wooble").execute()
    assert game.next_nweek()["nweek"] == 2
    assert game.players()["Wooble"]["vested"] is True
    assert game.players()["Ais523"]["vested"] is False
    game.next_nweek()                   # nobody voted in nweek 2
    assert game.players()["Wooble"]["vested"] is False


def test_exchange_points_for_mackerel_at_the_rate(game):
    game.join("Wooble", "2008-09-01T09:00:00Z")
    game.admin("set", "Wooble", "points", "4")
    r = game.post("wooble@example.org", "I exchange 3 points for mackerel", "2008-09-01T10:00:00Z")
    assert "Done" in r
    p = game.players()["Wooble"]
    assert (p["points"], p["mackerel"]) == (1, 65)
    r = game.post("wooble@example.org", "I exchange 1 point for m6", "2008-09-01T10:00:00Z")
    assert "1 points exchange for m5, not m6" in r and "(Rule 4E34)" in r
    assert "Done" in game.post("wooble@example.org", "I convert 1 point into m5", "2008-09-01T10:00:00Z")
    assert game.players()["Wooble"]["points"] == 0


def test_points_never_go_below_zero(game):
    from bnomic.handlers.context import Context
    from bnomic.handlers.economy import change_points
    from bnomic.store import Game as GameRow, database
    game.join("Wooble", "2008-09-01T09:00:00Z")
    open_database(game.db)
    with database.atomic():
        p = Player.get(Player.name == "Wooble")
        p.points = 2
        made = change_points(Context(GameRow.get().now, "command"), p, -3, "4E19", "test")
    assert made == -2
    assert Player.get(Player.name == "Wooble").points == 0


def test_give_phrasings(game):
    game.join("Wooble", "2008-09-01T09:00:00Z")
    game.join("Ais523", "2008-09-01T09:00:00Z")
    body = ("I give m1 to Wooble.\nI give 2 mackerel to wooble\nI pay Wooble 3 macks.\n"
            "I transfer 4m to WOOBLE!\nI give Wooble m5\n")
    r = game.post("ais523@example.org", body, "2008-09-01T10:00:00Z")
    assert r.count("Done") == 5, r
    assert game.players()["Wooble"]["mackerel"] == 65


def test_a_player_adds_and_removes_addresses(game):
    game.join("Wooble", "2008-09-01T09:00:00Z", address="w@example.org")
    game.join("Ais523", "2008-09-01T09:00:00Z", address="a@example.org")
    r = game.post("w@example.org", "I add the address Wooble@Home.example to my addresses.",
                  "2008-09-01T10:00:00Z")
    assert "Done (Rule 4E4)" in r
    assert game.players()["Wooble"]["addresses"] == ["w@example.org", "wooble@home.example"]
    assert "Done" in game.post("wooble@home.example", "I give m1 to Ais523", "2008-09-01T11:00:00Z")
    r = game.post("w@example.org", "I also post from a@example.org", "2008-09-01T12:00:00Z")
    assert "another Player's" in r
    r = game.post("stranger@example.org", "I also post from x@example.org", "2008-09-01T12:00:00Z")
    assert "only Players" in r
    assert "Done" in game.post("wooble@home.example", "I remove the address w@example.org",
                               "2008-09-01T13:00:00Z")
    r = game.post("wooble@home.example", "I remove the address wooble@home.example",
                  "2008-09-01T13:00:00Z")
    assert "your only address" in r


def test_names_as_players_write_them(game):
    game.join("Wooble", "2008-09-01T09:00:00Z")
    r = game.post("a@example.org", "I wish to become a Player under the name Ais, recruited by\n"
                  "Wooble and O’Brien.", "2008-09-01T10:00:00Z")          # hard-wrapped
    assert "Done" in r and "no recruitment bonus for O'Brien" in r
    assert game.players()["Wooble"]["mackerel"] == 110
    game.post("o@example.org", "I join as O'Brien", "2008-09-01T10:30:00Z")
    assert "Done" in game.post("a@example.org", "I give\nm1 to O’Brien.", "2008-09-01T11:00:00Z")
    r = game.post("d@example.org", 'I join as "Dr. Who".', "2008-09-01T12:00:00Z")
    assert "'Dr. Who' is not a usable name" in r and "(Rule 4E4)" in r
    r = game.post("b@example.org", "I join as the Operantly Conditioned Beast", "2008-09-01T12:00:00Z")
    assert "belongs to the Operantly Conditioned Beast" in r
    r = game.post("n@example.org", "I join as Newbie.\nI was recruited by Wooble.\nCheers!",
                  "2008-09-01T13:00:00Z")
    assert game.players()["Wooble"]["mackerel"] == 170
    r = game.post("s@example.org", "I join as Sigma recruited by Sigma", "2008-09-01T14:00:00Z")
    assert "a newcomer cannot recruit themselves" in r


@pytest.mark.parametrize("name", ["Chairman", "FOR", "Proposal", "m10"])
def test_a_name_that_is_a_word_of_the_game_is_refused_at_joining(game, name):
    """Rule 4E4: a uniquely identifying name; one that is a word of the game (a Ministry's
    title, a vote word, a kind of game object, an amount) could not be read one way."""
    out = game.post("newcomer@example.org", f"I join as {name}.", "2008-09-01T09:00:00Z")
    assert "is " in out and "(Rule 4E4)" in out and name not in game.players()
