"""Issue 15, part C: Rule 4E60's "plus a limit of at most one proposal during the
following nweek", imposed by the Judge with a fine for Contempt of Court."""
from __future__ import annotations

from test_justice import indict, mail, setup, show_indictment


def proposal(title: str) -> str:
    return f'I submit the following proposal, titled "{title}":\nSet A Few to 5\nEND PROPOSAL'


def test_a_fine_for_contempt_of_court_limits_the_next_nweek_to_one_proposal(game):
    setup(game, "Wooble", "Ais523", "Bob", "Carol", "Frank")
    game.admin("clock", "on")
    indict(game, "Ais523", "Wooble", "2008-09-01T12:00:00Z", accusation="Contempt of Court",
           example="Wooble's five Consultations of this nweek were all ZOTTED.")
    for who in ("Bob", "Carol"):
        game.post(mail(who), "Indictment 1: GUILTY", "2008-09-01T13:00:00Z")
    r = game.post(mail("Frank"), "I limit Wooble to one proposal during the following nweek for "
                  "Indictment 1.", "2008-09-01T13:30:00Z")
    assert "assign Indictment 1's fine first (Rule 4E60)" in r
    assert "Done" in game.post(mail("Frank"), "I fine Wooble m60 for Indictment 1.", "2008-09-01T14:00:00Z")
    r = game.post(mail("Frank"), "I limit Wooble to at most one proposal during the following nweek "
                  "for Indictment 1.", "2008-09-01T14:05:00Z")
    assert "Done" in r, r
    assert show_indictment(game)["punishment"] == "a fine of m60; at most one proposal during nweek 2"
    # this nweek is not limited
    for i in range(2):
        assert "Done" in game.post(mail("Wooble"), proposal(f"Now {i}"), f"2008-09-01T15:0{i}:00Z")
    clock = game.next_nweek()
    assert clock["nweek"] == 2
    day = clock["now"][:10]
    r = game.post(mail("Wooble"), proposal("Next 1"), f"{day}T10:00:00Z")
    assert "Done" in r, r
    r = game.post(mail("Wooble"), proposal("Next 2"), f"{day}T11:00:00Z")
    assert "you are limited to at most one proposal during nweek 2" in r and "(Rule 4E60)" in r
    assert "Done" in game.post(mail("Bob"), proposal("Bob's"), f"{day}T12:00:00Z")
    played = game.digest()
    game.cli("rebuild")
    assert game.digest() == played


def test_only_contempt_of_court_carries_the_limit(game):
    setup(game, "Wooble", "Ais523", "Bob", "Carol", "Frank")
    indict(game, "Ais523", "Wooble", "2008-09-01T12:00:00Z")
    for who in ("Bob", "Carol"):
        game.post(mail(who), "Indictment 1: GUILTY", "2008-09-01T13:00:00Z")
    game.post(mail("Frank"), "I fine Wooble m20 for Indictment 1.", "2008-09-01T14:00:00Z")
    r = game.post(mail("Frank"), "I limit Wooble to one proposal during the following nweek for "
                  "Indictment 1.", "2008-09-01T14:05:00Z")
    assert "not for being Held in Contempt of Court" in r and "(Rule 4E60)" in r
